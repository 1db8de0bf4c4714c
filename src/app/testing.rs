//! The app's public harness for tests and benchmarks: an app with the game's logic and no window,
//! driven by actions as a player drives it, and the few types a test reads to check what the
//! player would see. Everything else in `app` stays private.

use super::board::shown_piece;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

pub use super::AppSystems;
pub use super::board::{
    BoardCell, BoardState, BoardZoom, Burned, Controlled, Figure, Influence, Piece, Power, Stack, StackPiece, Stone,
    Tween, Vanishing, cursor_step,
};
pub use super::input::{Action, ActionPressed, BINDABLE, KeyBindings};
pub use super::lesson_state::{
    Answer, BookState, BookWanted, LearnChoice, LessonBooks, LessonCommand, LessonRun, PracticeBooks, PracticeRun,
};
pub use super::match_state::{CurrentMatch, MatchCommand, NewMatch};
pub use super::menus::{FinishedGames, GamesInProgress, ImportRecord, SavesList, SetupChoice};
pub use super::online::{
    Connection, KeptSeats, LinkState, LobbyRow, OnlineLobby, OnlinePlayer, OnlineView, OpenGames, PlayComputerInstead,
    PlayerRequest, QuickPlayState, TurnNotice, YourTurn,
};
pub use super::playing::{
    BoardAnimating, BoardCursor, Choice, DecisionChosen, DragChosen, EffectHappened, EventLog, HintShown, LastTurn,
    MoveList, OnlineRequest, OnlineStatus, OpponentPresence, RematchOffer, Replay, ReplayStep, Secrecy, ShowRules,
    Spectating, TurnBuilder, TurnWarning,
};
pub use super::review_state::{AnalysisBoard, ReviewCommand, ReviewShown};
pub use super::screen::Screen;
pub use super::settings::{CurrentSettings, SaveStore};
pub use super::timeline::{Scheduled, Timeline};
pub use super::ui::MenuFocus;
use crate::rules::{Cell, PieceView};
use crate::save::{AnimationSpeed, Store};

/// How much the clock moves each frame of a headless app: a 60 Hz frame, whatever the machine.
pub const FRAME: std::time::Duration = std::time::Duration::from_nanos(16_666_667);

/// Frames the computer of a headless app takes to answer (it thinks on the frame's thread).
pub const COMPUTER_FRAMES: u32 = 10;

/// An app with the game's logic but no window, renderer, sound or devices; settings in memory;
/// animations off (a press during an animation only skips it, and scripted tests play at full speed);
/// every game's lessons already offered once (a setup screen opens with the focus on its first
/// row; [`as_newcomer`] undoes it).
/// Its clock is manual: every frame is [`FRAME`] long, and the computer answers after
/// [`COMPUTER_FRAMES`] frames, so the same frames give the same game on any machine.
pub fn headless_app() -> App {
    let mut app = bare_app();
    app.update();
    app
}

/// [`headless_app`] with the board's looks, marks and animations running as in the game (meshes
/// and materials are built; only the GPU's drawing is missing), at normal animation speed.
pub fn headless_app_with_looks() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::asset::AssetPlugin::default()));
    app.init_asset::<Mesh>().init_asset::<ColorMaterial>();
    app.insert_resource(SaveStore(Store::memory()));
    manual_clock(&mut app);
    app.add_plugins(super::core_plugin);
    let offered = crate::games::GameKind::all().map(|k| k.slug().to_string()).collect();
    app.world_mut().resource_mut::<CurrentSettings>().0.lessons_offered = offered;
    app.update();
    app
}

/// Frames of [`FRAME`] each, and a computer that answers after [`COMPUTER_FRAMES`] frames.
fn manual_clock(app: &mut App) {
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(FRAME));
    app.insert_resource(super::computer::AnswerAfterFrames(COMPUTER_FRAMES));
}

fn bare_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_resource(SaveStore(Store::memory()));
    manual_clock(&mut app);
    app.add_plugins(super::core_plugin);
    let settings = &mut app.world_mut().resource_mut::<CurrentSettings>().0;
    settings.animation_speed = AnimationSpeed::Off;
    settings.lessons_offered = crate::games::GameKind::all().map(|k| k.slug().to_string()).collect();
    app
}

/// A player who has never chosen a game: each game's lessons are offered when it is first chosen.
pub fn as_newcomer(app: &mut App) {
    app.world_mut().resource_mut::<CurrentSettings>().0.lessons_offered.clear();
}

/// Answers a warning held up before a decision (Gravel's losing end of turn) as a player who
/// means it: the decision is made. Returns whether there was one.
pub fn confirm_warning(app: &mut App) -> bool {
    let Some(chosen) = app.world_mut().resource_mut::<super::playing::TurnWarning>().confirm() else { return false };
    app.world_mut().write_message(chosen);
    app.update();
    true
}

/// Presses actions one per frame, as a player would, then lets one more frame pass so that a
/// screen change requested by the last one takes effect.
pub fn press(app: &mut App, actions: &[Action]) {
    for &a in actions {
        app.world_mut().write_message(ActionPressed(a));
        app.update();
    }
    app.update();
}

/// From the title, by presses as a player makes them: the game's card, its setup with `options`
/// over the defaults (set as the setup's rows would set them), and Start, two people playing.
pub fn start_by_keys(app: &mut App, kind: crate::games::GameKind, options: &[(&str, &str)]) {
    let card = crate::games::GameKind::all().position(|k| k == kind).expect("the registry lists it");
    let mut keys = vec![Action::Down; card];
    keys.push(Action::Select);
    press(app, &keys);
    if !options.is_empty() {
        let pairs: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        app.world_mut().resource_mut::<SetupChoice>().select(kind, &pairs);
    }
    let mut keys = vec![Action::Down; start_row(app)];
    keys.push(Action::Select);
    press(app, &keys);
    assert_eq!(screen(app), Screen::Playing, "{kind} starts");
}

/// A headless app showing the replay of Red Stone's spec record (5×5) at its end: White's A5
/// hands Black a red stone (B5*) that takes everything.
pub fn replay_of_the_red_stone_spec_game() -> App {
    let options = [("size".to_string(), "5".to_string())];
    let game = crate::games::GameKind::named("red-stone").open(&options, None).expect("a 5×5 board");
    let mut m = CurrentMatch::new(game);
    for d in ["C3", "swap", "A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4", "A5", "B5*"] {
        m.decide(d).expect("the spec record plays");
    }
    assert!(m.is_over());
    let mut app = headless_app();
    let (current, replay) = Replay::open(&m.record()).expect("its record opens");
    app.world_mut().insert_resource(current);
    app.world_mut().insert_resource(replay);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    app
}

/// How many presses of Down take the setup screen's focus from its first row to Start (past the
/// options shown, "More options" where the game has variants, and who plays each side).
pub fn start_row(app: &App) -> usize {
    app.world().resource::<SetupChoice>().start_row()
}

/// The screen showing.
pub fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// Presses and releases a keyboard key, as the window would report it; then lets a frame pass.
pub fn key(app: &mut App, key_code: KeyCode) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code,
            logical_key: Key::Unidentified(NativeKey::Unidentified),
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
    }
    app.update();
}

/// The pieces the board's entities show, by cell, sorted.
pub fn shown_pieces(app: &mut App) -> Vec<(Cell, PieceView)> {
    let mut query = app.world_mut().query::<(&Piece, Option<&Stone>, Option<&Stack>, Option<&Figure>)>();
    let mut pieces: Vec<(Cell, PieceView)> = query
        .iter(app.world())
        .filter_map(|(piece, stone, stack, figure)| shown_piece(stone, stack, figure).map(|p| (piece.cell, p)))
        .collect();
    pieces.sort_by_key(|(cell, _)| *cell);
    pieces
}

/// The pieces on the board entities agree with the engine's position, cell by cell, every stack
/// has one child entity per piece, and the board shows the engine's current view.
pub fn assert_projection_matches(app: &mut App) {
    let view = super::playing::shown_view(
        app.world().resource::<CurrentMatch>(),
        app.world().resource::<super::playing::TurnWarning>(),
    );
    let mut expected: Vec<(Cell, PieceView)> = view.cells.iter().filter_map(|c| c.piece.map(|p| (c.cell, p))).collect();
    expected.sort_by_key(|(cell, _)| *cell);
    assert_eq!(shown_pieces(app), expected);
    let mut stacks = app.world_mut().query::<(&Stack, Option<&Children>)>();
    let mut levels = app.world_mut().query::<&StackPiece>();
    for (stack, children) in stacks.iter(app.world()) {
        let pieces = children.map_or(0, |kids| kids.iter().filter(|k| levels.get(app.world(), *k).is_ok()).count());
        assert_eq!(pieces, stack.height as usize, "a stack of {} has {pieces} piece entities", stack.height);
    }
    assert_eq!(app.world().resource::<BoardState>().view.as_ref(), Some(&view));
}
