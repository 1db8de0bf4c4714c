//! `make gallery`: the game as a player sees it, to PNG files. For one window size (`--size
//! 1280x720`), in every theme: the title, settings, online, learn and each game's setup screens,
//! and each game's key states — its start; a position from a worked example of its spec with the
//! hints on and the cursor on the example's move; that move mid-animation (a capture, burn,
//! cascade or hop); the marks its whole turn leaves; a game played to its end; one of its lessons
//! with a hint and the rules opened from it at the section it teaches; the finished game reviewed by
//! the computer at its first key moment, and the analysis board opened there (and Red Stone on 19 lines
//! zoomed in on a corner, its coordinates at the view's edges); and online, on a loopback server the
//! gallery seeds (`online.rs`): the lobby signed in, a leaderboard, a player's page and a game
//! being watched. Positions, moves and time are
//! scripted (every frame advances the clock by 1/60 s), so the same command gives the same
//! pictures. Needs a display (Xvfb with Mesa's software Vulkan under `make gallery`).
//!
//! `cargo run --example gallery -- --size 1280x720 --out gallery [--theme classic]` (one theme only
//! with `--theme`, and only the pictures whose names start with `--only PREFIX`, for a quick look).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::time::TimeUpdateStrategy;
use bevy::window::WindowResolution;
use std::path::PathBuf;
use std::time::Duration;
use stoneyard::app::testing::{
    Action, ActionPressed, AnalysisBoard, BoardCursor, BoardState, BoardZoom, BookWanted, CurrentMatch,
    CurrentSettings, DecisionChosen, LearnChoice, LessonCommand, LobbyRow, MatchCommand, MenuFocus, OnlineLobby,
    OnlinePlayer, OnlineStatus, OnlineView, OpenGames, Replay, ReplayStep, ReviewCommand, ReviewShown, SaveStore,
    Screen, Secrecy, SetupChoice, ShowRules,
};
use stoneyard::games::{DynGame, GameKind};
use stoneyard::rules::{pick_index, seeded};
use stoneyard::save::{AnimationSpeed, Store, Theme, token_decisions};

mod online;

/// What a picture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scene {
    Title,
    Settings,
    Setup(GameKind),
    Start(GameKind),
    Hints(GameKind),
    Animation(GameKind),
    LastTurn(GameKind),
    GameOver(GameKind),
    /// The games in progress the other scenes left.
    Continue,
    /// "Play online", signed in: quick play, the open challenges, the games being played.
    Online,
    /// Gravel's leaderboard, opened from the lobby.
    OnlineLeaders,
    /// A player's page (ratings with their graph, recent games), opened from the leaderboard.
    OnlinePlayer,
    /// A rated game being played by two others, watched from the lobby's list.
    Watching,
    /// Gravel's danger: a lone stack marked, and the warning before an end of turn that loses.
    GravelWarning,
    /// Hidden Intention mid-game with both sides' queens on the board.
    Queens,
    /// The finished games the other scenes left.
    History,
    /// Red Stone on 19 lines zoomed in on a corner (on a phone): the coordinates at the view's edges.
    Zoomed,
    /// The Learn screen: the games and how much of their lessons is done.
    Learn,
    /// One of the game's lessons on the board, its first hint asked for.
    Lesson(GameKind),
    /// The game's first practice position, answered wrongly: the solution told.
    Practice(GameKind),
    /// The gallery's lesson with the rules opened from it at the section it teaches.
    Rules(GameKind),
    /// Hidden Intention's gallery lesson after a commitment off its way: the card names it and
    /// offers to take it back.
    LessonAstray,
    /// The game-over scene's game reviewed by the computer, at its first key moment.
    Review(GameKind),
    /// The analysis board opened at that key moment, the computer's first look done.
    Analysis(GameKind),
}

impl Scene {
    fn file_name(self) -> String {
        match self {
            Scene::Title => "title.png".into(),
            Scene::Settings => "settings.png".into(),
            Scene::Setup(k) => format!("setup-{k}.png"),
            Scene::Start(k) => format!("{k}-1-start.png"),
            Scene::Hints(k) => format!("{k}-2-hints.png"),
            Scene::Animation(k) => format!("{k}-3-animation.png"),
            Scene::LastTurn(k) => format!("{k}-4-last-turn.png"),
            Scene::GameOver(k) => format!("{k}-5-game-over.png"),
            Scene::Continue => "continue.png".into(),
            Scene::Online => "online.png".into(),
            Scene::OnlineLeaders => "online-2-leaderboard.png".into(),
            Scene::OnlinePlayer => "online-3-player.png".into(),
            Scene::Watching => "online-4-watching.png".into(),
            Scene::GravelWarning => "gravel-6-warning.png".into(),
            Scene::Queens => "hidden-intention-6-queens.png".into(),
            Scene::History => "history.png".into(),
            Scene::Zoomed => "red-stone-6-zoomed.png".into(),
            Scene::Learn => "learn.png".into(),
            Scene::Lesson(k) => format!("{k}-7-lesson.png"),
            Scene::Practice(k) => format!("{k}-8-practice.png"),
            Scene::Rules(k) => format!("{k}-9-rules.png"),
            Scene::LessonAstray => "hidden-intention-12-lesson-astray.png".into(),
            Scene::Review(k) => format!("{k}-10-review.png"),
            Scene::Analysis(k) => format!("{k}-11-analysis.png"),
        }
    }
}

/// Where the script is in the current picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Set the scene up.
    Begin,
    /// Send its decisions, then wait this many frames.
    Run(u32),
    /// The picture was asked for; this many frames until the next scene (the file is written in
    /// the background).
    Saving(u32),
}

/// Every picture to take, in order, and where the script is.
#[derive(Resource)]
struct Script {
    shots: Vec<(Scene, Theme, PathBuf)>,
    next: usize,
    step: Step,
    /// Decisions still to send for the current scene (one a frame).
    pending: Vec<String>,
    /// The hand-over screen of a hot-seat game was seen: confirm it next frame.
    handover_seen: bool,
    /// The online scenes' rows activated so far (each waits for what the last one asked for).
    online_steps: usize,
    /// Frames an online scene has waited for the server.
    online_wait: u32,
}

/// The gallery's server, for the online scenes.
#[derive(Resource)]
struct GalleryServer {
    url: String,
    live_game: String,
}

/// Frames an online scene may wait for the loopback server before the gallery gives up.
const ONLINE_PATIENCE: u32 = 3_600;

/// Frames for the screen to settle (egui lays out over two frames, the board appears).
const SETTLE: u32 = 8;

/// Frames for the rules scene: the lesson settles, then the rules open.
const RULES_SETTLE: u32 = 40;
/// Frames from a move to its picture mid-animation (100 ms into a 300 ms capture).
const MID_ANIMATION: u32 = 6;
/// Decisions of the random game the review scenes review.
const REVIEWED_DECISIONS: usize = 40;
/// Frames for every animation of a move to end.
const ANIMATIONS_END: u32 = 90;

fn main() {
    let mut size = (1280.0, 720.0);
    let mut out = PathBuf::from("gallery");
    let mut only_theme = None;
    let mut only_scenes: Option<String> = None;
    let args: Vec<String> = std::env::args().collect();
    for pair in args.windows(2) {
        match pair[0].as_str() {
            "--size" => {
                if let Some((w, h)) =
                    pair[1].split_once('x').and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                {
                    size = (w, h);
                }
            }
            "--out" => out = PathBuf::from(&pair[1]),
            "--theme" => only_theme = Some(pair[1].clone()),
            "--only" => only_scenes = Some(pair[1].clone()),
            _ => {}
        }
    }
    let dir = out.join(format!("{}x{}", size.0 as u32, size.1 as u32));
    let mut shots = Vec::new();
    for theme in Theme::ALL.into_iter().filter(|t| only_theme.as_deref().is_none_or(|name| name == theme_name(*t))) {
        let theme_dir = dir.join(theme_name(theme));
        let mut scenes = vec![Scene::Title, Scene::Settings, Scene::Learn];
        for kind in GameKind::all() {
            scenes.extend([
                Scene::Setup(kind),
                Scene::Start(kind),
                Scene::Hints(kind),
                Scene::Animation(kind),
                Scene::LastTurn(kind),
                Scene::GameOver(kind),
                Scene::Lesson(kind),
                Scene::Rules(kind),
                Scene::Review(kind),
                Scene::Analysis(kind),
            ]);
            if has_practice(kind) {
                scenes.push(Scene::Practice(kind));
            }
        }
        scenes.extend([Scene::GravelWarning, Scene::Queens, Scene::LessonAstray, Scene::Zoomed]);
        // Last: by now the scenes have left games in progress and finished games to list.
        scenes.extend([Scene::Continue, Scene::History]);
        // After the offline scenes: watching leaves the connection following a game.
        scenes.extend([Scene::Online, Scene::OnlineLeaders, Scene::OnlinePlayer, Scene::Watching]);
        scenes.retain(|s| only_scenes.as_deref().is_none_or(|prefix| s.file_name().starts_with(prefix)));
        shots.extend(scenes.into_iter().map(|s| (s, theme, theme_dir.join(s.file_name()))));
    }
    for (_, _, path) in &shots {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("the gallery's folder can be made");
        }
    }
    let mut store = Store::memory();
    let stage = online::stage(&mut store);
    let mut app = App::new();
    app.insert_resource(SaveStore(store));
    app.insert_resource(GalleryServer { url: stage.url.clone(), live_game: stage.live_game.clone() });
    app.insert_resource(stoneyard::app::Launch::default());
    app.add_plugins(stoneyard::app::app_plugin);
    // The script advances a frame at a time: every frame must come, not only those an idle app asks for.
    app.insert_resource(bevy::winit::WinitSettings::continuous());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    app.insert_resource(Script {
        shots,
        next: 0,
        step: Step::Begin,
        pending: Vec::new(),
        handover_seen: false,
        online_steps: 0,
        online_wait: 0,
    });
    app.add_systems(Startup, move |mut windows: Query<&mut Window>| {
        for mut w in &mut windows {
            w.resolution = WindowResolution::new(size.0 as u32, size.1 as u32).with_scale_factor_override(1.0);
            // Keep the pointer off the board: hovering would move the cursor.
            w.set_cursor_position(Some(Vec2::new(1.0, 1.0)));
        }
    });
    app.add_systems(Update, direct.before(stoneyard::app::AppSystems::RecordInput));
    app.run();
    drop(stage);
}

fn theme_name(theme: Theme) -> &'static str {
    match theme {
        Theme::Classic => "classic",
        Theme::Night => "night",
        Theme::ColourBlindSafe => "colour-blind",
    }
}

/// The first example of a game's rules with a move: its position and the move.
fn example(kind: GameKind) -> Option<(Box<dyn DynGame>, &'static str)> {
    let ill = kind.rules.examples().find(|e| !e.play.is_empty())?;
    let options: Vec<(String, String)> = ill.options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Some((kind.open(&options, Some(ill.position)).ok()?, ill.play))
}

/// A game of `kind` on its quick options, played by seeded random decisions to its end.
fn finished_game(kind: GameKind) -> CurrentMatch {
    let game = kind.open(&kind.quick_pairs(), None).expect("the quick options open");
    let mut current = CurrentMatch::new(game);
    current.seed = 1;
    current.started_unix = 1_795_000_000;
    let mut rng = seeded(2026);
    for _ in 0..5_000 {
        if current.is_over() {
            break;
        }
        let legal = current.decisions_now();
        if legal.is_empty() {
            break;
        }
        let d = legal[pick_index(&mut rng, legal.len())].clone();
        if current.decide(&d).is_err() {
            break;
        }
    }
    current
}

/// Sets a scene up: the screen, the match, the decisions to send.
fn begin(world: &mut World, scene: Scene, theme: Theme) -> Vec<String> {
    {
        let mut settings = world.resource_mut::<CurrentSettings>();
        settings.0.theme = theme;
        // Hints on where the picture is about what they mark (the player's default is on).
        settings.0.show_hints = matches!(scene, Scene::Hints(_) | Scene::GravelWarning | Scene::Queens);
        settings.0.animation_speed = AnimationSpeed::Normal;
    }
    world.remove_resource::<CurrentMatch>();
    let mut next = Screen::Playing;
    let mut pending = Vec::new();
    match scene {
        Scene::Title => next = Screen::Title,
        Scene::Settings => next = Screen::Settings,
        Scene::Continue => next = Screen::Continue,
        Scene::History => next = Screen::History,
        Scene::GravelWarning => {
            let kind = GameKind::named("gravel");
            world.insert_resource(CurrentMatch::new(kind.open(&[], None).expect("the default options open")));
            pending = ["+d4", "+d4", "end"].map(String::from).to_vec();
        }
        Scene::Queens => {
            let kind = GameKind::named("hidden-intention");
            let game = kind.open(&[], Some(QUEENS)).expect("the queens' position reads");
            world.insert_resource(CurrentMatch::new(game));
        }
        Scene::Zoomed => {
            let options = [("size".to_string(), "19".to_string())];
            let game = GameKind::named("red-stone").open(&options, None).expect("19 lines open");
            world.insert_resource(CurrentMatch::new(game));
        }
        Scene::Online | Scene::OnlineLeaders | Scene::OnlinePlayer | Scene::Watching => {
            let url = world.resource::<GalleryServer>().url.clone();
            world.resource_mut::<CurrentSettings>().0.online_server = url;
            world.resource_mut::<OnlineLobby>().view = OnlineView::Lobby;
            world.resource_mut::<MenuFocus>().0 = 0;
            let mut script = world.resource_mut::<Script>();
            (script.online_steps, script.online_wait) = (0, 0);
            next = Screen::Online;
        }
        Scene::Setup(kind) => {
            world.resource_mut::<SetupChoice>().select(kind, &[]);
            next = Screen::Setup;
        }
        Scene::Start(kind) => {
            world.insert_resource(CurrentMatch::new(kind.open(&[], None).expect("the default options open")));
        }
        Scene::Hints(kind) => {
            if let Some((game, _)) = example(kind) {
                world.insert_resource(CurrentMatch::new(game));
            }
        }
        Scene::Animation(kind) | Scene::LastTurn(kind) => {
            if let Some((game, play)) = example(kind) {
                pending = token_decisions(game.as_ref(), play).unwrap_or_default();
                world.insert_resource(CurrentMatch::new(game));
            }
        }
        Scene::GameOver(kind) => world.insert_resource(finished_game(kind)),
        Scene::Review(kind) | Scene::Analysis(kind) => {
            // As the replay's Review does, over the random game's first decisions (a whole random
            // game runs to thousands: the computer would review it for minutes).
            let mut current = finished_game(kind);
            current.session.go_to(REVIEWED_DECISIONS.min(current.len()));
            current.session.drop_redo();
            // The replay and the review are asked for once the board is up: entering the board
            // again closes the last scene's replay, and with it the match on the board.
            *world.resource_mut::<Replay>() = Replay::default();
            world.insert_resource(current);
        }
        Scene::Learn => {
            *world.resource_mut::<LearnChoice>() = LearnChoice::default();
            next = Screen::Learn;
        }
        Scene::Lesson(kind) | Scene::Rules(kind) => {
            open_gallery_lesson(world, kind);
            return pending;
        }
        Scene::LessonAstray => {
            let kind = GameKind::named("hidden-intention");
            let lesson = open_gallery_lesson(world, kind);
            // The learner's first legal commitment that no solution starts with.
            let start = lesson.open(kind).expect("the lesson opens");
            let plan = lesson.plan(start.as_ref()).expect("the lesson plans");
            let learner = lesson.learner(start.as_ref()).expect("the lesson has a learner");
            let off = start.legal_decisions(learner).into_iter().find(|d| plan.lines.iter().all(|l| l[0] != *d));
            return off.into_iter().collect();
        }
        Scene::Practice(kind) => {
            world.write_message(BookWanted(kind));
            world.write_message(LessonCommand::Practise { game: kind, index: 0 });
            return wrong_answer(kind);
        }
    }
    world.resource_mut::<NextState<Screen>>().set(next);
    pending
}

/// Opens the game's gallery lesson (the desktop holds the books: asked for, the book is read
/// before the lesson opens); the lesson.
fn open_gallery_lesson(world: &mut World, kind: GameKind) -> stoneyard::lessons::Lesson {
    world.write_message(BookWanted(kind));
    let book = stoneyard::lessons::LessonBook::parse(&lesson_text(kind)).expect("the book reads");
    let index = book.lessons.iter().position(|l| l.id == gallery_lesson(kind)).expect("the gallery's lesson");
    world.write_message(LessonCommand::Open { game: kind, index });
    book.lessons[index].clone()
}

/// The lesson each game's picture shows: one with marks or arrows and a hint.
fn gallery_lesson(kind: GameKind) -> &'static str {
    match kind.slug() {
        "gravel" => "control",
        "red-stone" => "atari-then-capture",
        "throngs" => "travel",
        "inchworm" => "collect",
        _ => "burn",
    }
}

/// The game's practice book as the repository holds it.
fn practice_book(kind: GameKind) -> stoneyard::lessons::practice::PracticeBook {
    let path = format!("{}/assets/practice/{}.ron", env!("CARGO_MANIFEST_DIR"), kind.slug());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    ron::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn has_practice(kind: GameKind) -> bool {
    !practice_book(kind).positions.is_empty()
}

/// A whole turn of the learner at the first practice position other than its solution: the
/// first legal decisions that leave the solution's way, to the end of the turn.
fn wrong_answer(kind: GameKind) -> Vec<String> {
    let first = practice_book(kind).positions.remove(0);
    let mut game = kind.open(&first.options, Some(&first.position)).expect("the position opens");
    use stoneyard::rules::ToMove;
    let side = match (game.to_move(), first.learner) {
        (Some(ToMove::One(side)), _) | (Some(ToMove::Both), Some(side)) => side,
        _ => return Vec::new(),
    };
    // A turn ends when the other side is to move; a secret commitment when it is sealed.
    let turn_goes_on = |game: &dyn stoneyard::games::DynGame| match first.learner {
        Some(_) => !game.legal_decisions(side).is_empty(),
        None => game.to_move() == Some(ToMove::One(side)),
    };
    let mut turn = Vec::new();
    while turn_goes_on(game.as_ref()) && !game.status().is_over() {
        let legal = game.legal_decisions(side);
        let on_the_way = first.solution.get(turn.len());
        let Some(d) = legal.iter().find(|d| Some(*d) != on_the_way).or(legal.first()).cloned() else { break };
        game.play_decision(&d).expect("a legal decision");
        turn.push(d);
    }
    turn
}

/// A game's lesson book as the repository holds it.
fn lesson_text(kind: GameKind) -> String {
    let path = format!("{}/assets/lessons/{}.ron", env!("CARGO_MANIFEST_DIR"), kind.slug());
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Hidden Intention after three turns: each side's queen, a pawn, and a bishop or a rook.
const QUEENS: &str = "Qc3 Pb6 Bf2 ; Qf6 Pg3 Rc7 ; P7R2B1N1Q0 P7R1B2N1Q0 ; 2 2 ; - ; 4.1";

/// The example's move's first space: where the hints scene puts the cursor.
fn example_space(kind: GameKind) -> Option<String> {
    let (game, play) = example(kind)?;
    let first = token_decisions(game.as_ref(), play).ok()?.into_iter().next()?;
    let cell = *game.describe_decision(&first)?.picks.first()?;
    game.board_view().cells.into_iter().find(|c| c.cell == cell).map(|c| c.name)
}

fn direct(world: &mut World) {
    let (scene, theme, path) = {
        let script = world.resource::<Script>();
        match script.shots.get(script.next) {
            Some(shot) => shot.clone(),
            None => {
                world.write_message(AppExit::Success);
                return;
            }
        }
    };
    match world.resource::<Script>().step {
        Step::Begin => {
            let pending = begin(world, scene, theme);
            let mut script = world.resource_mut::<Script>();
            script.pending = pending;
            // The rules window fades in and scrolls to its section over several frames.
            script.step = Step::Run(if matches!(scene, Scene::Rules(_)) { RULES_SETTLE } else { SETTLE });
        }
        Step::Saving(0) => {
            let mut script = world.resource_mut::<Script>();
            script.next += 1;
            script.step = Step::Begin;
        }
        Step::Saving(frames) => world.resource_mut::<Script>().step = Step::Saving(frames - 1),
        Step::Run(wait) => run(world, scene, wait, path),
    }
}

/// A frame of a scene: a hand-over to confirm, a decision to send, a frame to wait, or the picture.
fn run(world: &mut World, scene: Scene, wait: u32, path: PathBuf) {
    // Hot-seat secrecy: the next player takes the device (confirmed a frame after it shows).
    if world.resource::<Secrecy>().handover.is_some() {
        let seen = std::mem::replace(&mut world.resource_mut::<Script>().handover_seen, true);
        if seen {
            world.write_message(ActionPressed(Action::Select));
            world.resource_mut::<Script>().handover_seen = false;
        }
        return;
    }
    // The scene's decisions, one a frame once the board is up and waits for the person (where
    // both sides commit at once the computer seals first); all but the last shown at once.
    let board_up = world.resource::<BoardState>().root.is_some();
    let computer_acts = world.get_resource::<CurrentMatch>().is_some_and(|m| m.computer_to_act().is_some());
    if board_up && !computer_acts && !world.resource::<Script>().pending.is_empty() {
        let decision = world.resource_mut::<Script>().pending.remove(0);
        let last = world.resource::<Script>().pending.is_empty();
        world.resource_mut::<CurrentSettings>().0.animation_speed =
            if last { AnimationSpeed::Normal } else { AnimationSpeed::Off };
        world.write_message(DecisionChosen(decision));
        if last {
            let frames = if matches!(scene, Scene::Animation(_)) { MID_ANIMATION } else { ANIMATIONS_END };
            world.resource_mut::<Script>().step = Step::Run(frames);
        }
        return;
    }
    if wait == 2
        && let Scene::Hints(kind) = scene
        && let Some(index) = example_space(kind).and_then(|space| world.resource::<BoardState>().index_of(&space))
    {
        *world.resource_mut::<BoardCursor>() = BoardCursor { index, recentre: false };
    }
    if wait == 4 && matches!(scene, Scene::Lesson(_)) {
        world.write_message(LessonCommand::Hint);
    }
    if wait == RULES_SETTLE - SETTLE
        && let Scene::Rules(kind) = scene
    {
        // As the lesson card's link does.
        let run = world.resource::<stoneyard::app::testing::LessonRun>();
        let section = run.lesson.teaches.as_deref().and_then(|id| kind.rules.section(id)).map(|s| s.id);
        world.write_message(ShowRules(section));
    }
    if let Scene::Review(_) | Scene::Analysis(_) = scene {
        if world.resource::<AnalysisBoard>().active {
            // The analysis board's first look at its position.
            let over = world.get_resource::<CurrentMatch>().is_some_and(|m| m.is_over());
            if world.resource::<AnalysisBoard>().analysis.is_none() && !over {
                return;
            }
        } else {
            if !world.resource::<Replay>().active {
                let replay = Replay::of_current(world.resource::<CurrentMatch>());
                world.insert_resource(replay);
                // Nobody plays the game while it is replayed (as the game-over panel does it).
                world.write_message(MatchCommand::Reseat([None, None]));
                world.write_message(ReviewCommand::Start);
                return;
            }
            // Frames come while the computer reviews the game in the background.
            let shown = world.resource::<ReviewShown>().clone();
            let Some(review) = shown.review.filter(|r| r.is_complete() || shown.problem.is_some()) else { return };
            if wait == SETTLE {
                let moment = review.key_moments().first().map_or(review.turns.len() / 2, |&t| t);
                let end = review.turns.get(moment).map_or(0, |t| t.end);
                world.write_message(ReplayStep::To(end));
            }
            if wait == SETTLE - 3 && matches!(scene, Scene::Analysis(_)) {
                world.write_message(ReviewCommand::Analyse);
            }
        }
    }
    if wait == 4 && scene == Scene::Zoomed {
        // As far in as the board allows, on its top-right corner (the view stops at the edges).
        let mut zoom = world.resource_mut::<BoardZoom>();
        zoom.factor = zoom.most;
        zoom.centre += Vec2::splat(10_000.0);
    }
    if !online_ready(world, scene) {
        let mut script = world.resource_mut::<Script>();
        script.online_wait += 1;
        assert!(script.online_wait < ONLINE_PATIENCE, "the gallery's server did not give {scene:?} what it shows");
        return;
    }
    if wait > 0 {
        world.resource_mut::<Script>().step = Step::Run(wait - 1);
        return;
    }
    world.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
    world.resource_mut::<Script>().step = Step::Saving(4);
}

/// Whether an online scene shows what it is for; if not, the next row to get there is activated
/// (as a player's Select on it) once it shows.
fn online_ready(world: &mut World, scene: Scene) -> bool {
    let games = world.resource::<OpenGames>();
    let signed_in = world.resource::<OnlinePlayer>().signed_in();
    let lobby_full = signed_in && games.challenges.len() >= 3 && !games.live.is_empty();
    let view = world.resource::<OnlineLobby>().view.clone();
    let gravel = GameKind::named("gravel");
    let leaders_shown =
        view == OnlineView::Leaders(gravel) && games.leaders.as_ref().is_some_and(|(g, _)| *g == gravel);
    let pictured = online::PICTURED_PLAYER;
    let steps = world.resource::<Script>().online_steps;
    let (ready, next_row) = match scene {
        Scene::Online => {
            // The open challenges and the games being played in view (a focused row is scrolled to).
            let last_challenge = games.challenges.len().checked_sub(1).map(LobbyRow::Challenge);
            let shown = world.resource::<OnlineLobby>().shown_rows.clone();
            if let Some(index) = last_challenge.and_then(|row| shown.iter().position(|r| *r == row)) {
                world.resource_mut::<MenuFocus>().0 = index;
            }
            return lobby_full && view == OnlineView::Lobby;
        }
        Scene::OnlineLeaders => (leaders_shown, (steps == 0 && lobby_full).then_some(LobbyRow::Leaders)),
        Scene::OnlinePlayer => {
            let page_shown = view == OnlineView::Player(pictured.into())
                && games.page.as_ref().is_some_and(|p| p.name == pictured && !p.recent.is_empty());
            let leader = games.leaders.as_ref().and_then(|(_, l)| l.iter().position(|l| l.name == pictured));
            let next = match steps {
                0 if lobby_full => Some(LobbyRow::Leaders),
                1 if leaders_shown => leader.map(LobbyRow::Leader),
                _ => None,
            };
            (page_shown, next)
        }
        Scene::Watching => {
            let live = world.resource::<GalleryServer>().live_game.clone();
            let status = world.resource::<OnlineStatus>();
            let watching = world.get_resource::<CurrentMatch>().is_some_and(|m| m.watching && !m.is_empty())
                && status.names.iter().all(Option::is_some)
                && !status.said.is_empty();
            let row = games.live.iter().position(|g| g.game_id == live).map(LobbyRow::Live);
            (watching, if steps == 0 && lobby_full { row } else { None })
        }
        _ => return true,
    };
    if let Some(row) = next_row
        && let Some(index) = world.resource::<OnlineLobby>().shown_rows.iter().position(|r| *r == row)
    {
        world.resource_mut::<MenuFocus>().0 = index;
        world.write_message(ActionPressed(Action::Select));
        world.resource_mut::<Script>().online_steps += 1;
    }
    ready
}
