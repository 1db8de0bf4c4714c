//! The setup screen of one game: its rules options, who plays, start, and its lessons (offered
//! the first time the game is chosen).

use crate::ai::Level;
use crate::app::input::ActionPressed;
use crate::app::lesson_state::{BookWanted, LearnChoice, LessonBooks};
use crate::app::match_state::{CurrentMatch, NewMatch};
use crate::app::playing::{Replay, SetupRequested};
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::app::theme::text_size;
use crate::app::ui::{
    MenuClicked, MenuFocus, MenuInput, OPTION_CONTROLS, card_row, item, key_hints, number_item, paint_board,
    read_menu_inputs, reset_focus, screen_frame, value_item,
};
use crate::app::{AppSystems, Launch};
use crate::games::GameKind;
use crate::rules::{BoardView, OptionKind, OptionSpec, Side};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The game being set up and the chosen option values.
#[derive(Resource, Debug, Clone)]
pub struct SetupChoice {
    pub kind: GameKind,
    pub specs: &'static [OptionSpec],
    /// `(key, value)` for every option, in `specs` order.
    pub values: Vec<(String, String)>,
    /// Why the game cannot start, or what went wrong last.
    pub message: Option<String>,
    /// Who sits in each seat (first mover's seat first): `None` a person, `Some(level)` the computer.
    pub players: [Option<Level>; 2],
    /// The sides' names in this game ("Black", "Light", "White").
    pub side_names: [String; 2],
    /// Both sides choose at once (Hidden Intention): nobody moves first.
    pub simultaneous: bool,
    /// The game's variants are shown ("More options"; `specs` holds them then).
    pub more: bool,
}

impl Default for SetupChoice {
    fn default() -> Self {
        SetupChoice {
            kind: GameKind::all().next().expect("the registry lists games"),
            specs: &[],
            values: Vec::new(),
            message: None,
            players: [None, None],
            side_names: ["First player".into(), "Second player".into()],
            simultaneous: false,
            more: false,
        }
    }
}

impl SetupChoice {
    /// Chooses a game and loads its default options (with `overrides` applied when valid).
    pub fn select(&mut self, kind: GameKind, overrides: &[(String, String)]) {
        self.kind = kind;
        self.message = None;
        self.side_names = Side::BOTH.map(|side| kind.side_name(side).to_string());
        match kind.open(&[], None) {
            Ok(game) => {
                self.simultaneous = game.to_move() == Some(crate::rules::ToMove::Both);
                self.specs = if self.more { kind.option_specs() } else { kind.main_options() };
                self.values = game.option_pairs();
                for (k, v) in overrides {
                    if let Some(slot) = self.values.iter_mut().find(|(key, _)| key.eq_ignore_ascii_case(k)) {
                        slot.1 = v.clone();
                    } else {
                        self.values.push((k.clone(), v.clone()));
                    }
                }
                if let Err(e) = kind.open(&self.values, None) {
                    self.message = Some(e.to_string());
                }
            }
            Err(e) => {
                self.specs = &[];
                self.values = Vec::new();
                self.message = Some(e.to_string());
            }
        }
    }

    /// Steps option `index` to its next (`delta` > 0) or previous value.
    pub fn adjust(&mut self, index: usize, delta: i32) {
        let Some(spec) = self.specs.get(index) else { return };
        let Some(slot) = self.values.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(spec.key)) else { return };
        slot.1 = match &spec.kind {
            OptionKind::Choice(choices) => {
                let at = choices.iter().position(|c| c.eq_ignore_ascii_case(&slot.1)).unwrap_or(0) as i32;
                let n = choices.len() as i32;
                choices[(at + delta).rem_euclid(n) as usize].to_string()
            }
            OptionKind::Int { min, max } => {
                let v: i64 = slot.1.parse().unwrap_or(*min);
                (v + delta as i64).clamp(*min, *max).to_string()
            }
            OptionKind::Text => return,
        };
        self.message = self.kind.open(&self.values, None).err().map(|e| e.to_string());
    }

    /// Sets option `index` to a typed `value` (a number typed or dragged, a text), and says why the
    /// options cannot start a game if they cannot.
    pub fn set(&mut self, index: usize, value: String) {
        let Some(spec) = self.specs.get(index) else { return };
        if let Some(slot) = self.values.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(spec.key)) {
            slot.1 = value;
        }
        self.message = self.kind.open(&self.values, None).err().map(|e| e.to_string());
    }

    fn value(&self, key: &str) -> &str {
        self.values.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str()).unwrap_or("")
    }

    /// Shows or hides the game's variants (every option's value is kept either way).
    pub fn show_more(&mut self, more: bool) {
        self.more = more;
        self.specs = if more { self.kind.option_specs() } else { self.kind.main_options() };
    }

    /// The row that shows or hides the game's variants, after the options, if it has any.
    fn more_row(&self) -> Option<usize> {
        (self.kind.main_options().len() < self.kind.option_specs().len()).then_some(self.specs.len())
    }

    /// The first of the two rows saying who plays each side.
    fn seat_row(&self) -> usize {
        self.specs.len() + usize::from(self.more_row().is_some())
    }

    /// The Start row.
    pub fn start_row(&self) -> usize {
        self.seat_row() + 2
    }

    /// Option rows, "More options", then who plays each side, Start, Learn and Back.
    fn len(&self) -> usize {
        self.seat_row() + 5
    }

    /// The row that opens the game's lessons.
    fn learn_row(&self) -> usize {
        self.seat_row() + 3
    }

    /// What "More options" says: the variants hidden under it and their values.
    fn more_detail(&self) -> String {
        if self.more {
            return "Hide the variants".to_string();
        }
        let hidden = &self.kind.option_specs()[self.kind.main_options().len()..];
        let said: Vec<String> = hidden
            .iter()
            .map(|spec| format!("{}: {}", spec.label, self.kind.option_value_words(spec.key, self.value(spec.key))))
            .collect();
        said.join(" · ")
    }

    /// Steps seat `seat` through person, Easy, Medium, Hard.
    pub fn adjust_player(&mut self, seat: usize, delta: i32) {
        const CHOICES: [Option<Level>; 4] = [None, Some(Level::Easy), Some(Level::Medium), Some(Level::Hard)];
        let at = CHOICES.iter().position(|c| *c == self.players[seat]).unwrap_or(0) as i32;
        self.players[seat] = CHOICES[(at + delta).rem_euclid(CHOICES.len() as i32) as usize];
    }

    /// What the Start row says about who plays.
    fn who_plays(&self) -> String {
        match self.players {
            [None, None] => "Two players on this device".into(),
            [None, Some(_)] if self.simultaneous => format!("You play {}", self.side_names[0]),
            [Some(_), None] if self.simultaneous => format!("You play {}", self.side_names[1]),
            [None, Some(_)] => format!("You play {} (first)", self.side_names[0]),
            [Some(_), None] => format!("You play {} (second)", self.side_names[1]),
            [Some(_), Some(_)] => "Watch the computer play itself".into(),
        }
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<SetupChoice>();
    app.add_systems(Startup, apply_launch);
    app.add_systems(OnEnter(Screen::Setup), (reset_focus, offer_lessons).chain());
    app.add_systems(OnExit(Screen::Setup), lessons_offered);
    app.add_systems(Update, open_requested_setup.in_set(AppSystems::Menus));
    app.add_systems(Update, setup_input.in_set(AppSystems::Menus).run_if(in_state(Screen::Setup)));
    app.add_systems(EguiPrimaryContextPass, draw_setup.run_if(in_state(Screen::Setup)));
}

/// `stoneyard play --game X` opens that game's setup screen directly; `--load FILE` its replay.
fn apply_launch(
    mut commands: Commands,
    mut new_match: MessageWriter<NewMatch>,
    launch: Option<Res<Launch>>,
    mut setup: ResMut<SetupChoice>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(launch) = launch else { return };
    if let Some(record) = &launch.load {
        // The record was checked when it was read; a failure here is still reported, not fatal.
        match Replay::open(record) {
            Ok((current, replay)) => {
                new_match.write(NewMatch(Box::new(current)));
                commands.insert_resource(replay);
                next.set(Screen::Playing);
            }
            Err(e) => error!("the record cannot be opened: {e}"),
        }
        return;
    }
    if let Some(kind) = launch.game {
        setup.select(kind, &launch.options);
        setup.players = [None, launch.opponent];
        next.set(Screen::Setup);
    }
}

/// "Change options" at the end of a game: its setup, with its options and players.
fn open_requested_setup(
    mut requests: MessageReader<SetupRequested>,
    mut setup: ResMut<SetupChoice>,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(request) = requests.read().last() {
        setup.select(request.kind, &request.options);
        setup.players = request.players;
        next.set(Screen::Setup);
    }
}

/// The first time a game is chosen its lessons are offered: the Learn row has the focus.
fn offer_lessons(
    setup: Res<SetupChoice>,
    settings: Res<CurrentSettings>,
    mut focus: ResMut<MenuFocus>,
    mut wanted: MessageWriter<BookWanted>,
) {
    wanted.write(BookWanted(setup.kind));
    if !settings.0.lessons_offered.contains(setup.kind.slug()) {
        focus.0 = setup.learn_row();
    }
}

/// Leaving the setup, the offer has been made.
fn lessons_offered(setup: Res<SetupChoice>, mut settings: ResMut<CurrentSettings>) {
    if !settings.0.lessons_offered.contains(setup.kind.slug()) {
        settings.0.lessons_offered.insert(setup.kind.slug().to_string());
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn setup_input(
    mut new_match: MessageWriter<NewMatch>,
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    mut setup: ResMut<SetupChoice>,
    mut learn: ResMut<LearnChoice>,
    mut next: ResMut<NextState<Screen>>,
) {
    let n = setup.specs.len();
    for input in read_menu_inputs(&mut focus, setup.len(), &mut actions, &mut clicks) {
        let seat = setup.seat_row();
        match input {
            MenuInput::Back => next.set(Screen::Title),
            MenuInput::Adjust(i, d) if i < n => setup.adjust(i, d),
            MenuInput::Activate(i) if i < n => setup.adjust(i, 1),
            // Shown, the focus stays on the first variant; hidden, it follows the row back up.
            MenuInput::Adjust(i, _) | MenuInput::Activate(i) if Some(i) == setup.more_row() => {
                let more = !setup.more;
                setup.show_more(more);
                if !more {
                    focus.0 = setup.more_row().unwrap_or(i);
                }
            }
            MenuInput::Adjust(i, d) if i == seat || i == seat + 1 => setup.adjust_player(i - seat, d),
            MenuInput::Activate(i) if i == seat || i == seat + 1 => setup.adjust_player(i - seat, 1),
            MenuInput::Activate(i) if i == seat + 2 => match setup.kind.open(&setup.values, None) {
                Ok(game) => {
                    let mut current = CurrentMatch::new(game);
                    current.players = setup.players;
                    new_match.write(NewMatch(Box::new(current)));
                    next.set(Screen::Playing);
                }
                Err(e) => setup.message = Some(e.to_string()),
            },
            MenuInput::Activate(i) if i == setup.learn_row() => {
                *learn = LearnChoice { game: Some(setup.kind), from_setup: true };
                next.set(Screen::Learn);
            }
            MenuInput::Activate(_) => next.set(Screen::Title),
            MenuInput::Adjust(..) => {}
        }
    }
}

/// What the Learn row says: an offer the first time, then the progress.
fn learn_detail(settings: &crate::save::Settings, kind: GameKind, books: &LessonBooks) -> String {
    let Some(book) = books.book(kind) else { return "Short lessons on the board".to_string() };
    let n = book.lessons.len();
    let done =
        settings.lessons_done.get(kind.slug()).map_or(0, |d| book.lessons.iter().filter(|l| d.contains(&l.id)).count());
    if !settings.lessons_offered.contains(kind.slug()) {
        return format!("New to {}? {n} short lessons teach it by playing, in about ten minutes", kind.name());
    }
    match done {
        0 => format!("{n} short lessons on the board"),
        d if d == n => format!("All {n} lessons done: play them again"),
        d => format!("{d} of {n} lessons done"),
    }
}

/// The board the options make, with the option values it was drawn for.
type Preview = (Vec<(String, String)>, Option<BoardView>);

/// The side of the setup's picture of the board, in logical pixels.
const PREVIEW: f32 = 150.0;

fn draw_setup(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    mut setup: ResMut<SetupChoice>,
    settings: Res<CurrentSettings>,
    books: Res<LessonBooks>,
    mut clicks: MessageWriter<MenuClicked>,
    mut preview: Local<Option<Preview>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let kind = setup.kind;
    // The board as these options make it, redrawn only when an option changes.
    if preview.as_ref().is_none_or(|(values, _)| *values != setup.values) {
        let view = kind.open(&setup.values, None).ok().map(|g| g.board_view());
        *preview = Some((setup.values.clone(), view));
    }
    let theme = settings.0.theme;
    let mut typed: Option<(usize, String)> = None;
    screen_frame(ctx, kind.name(), &format!("{} — by {}", kind.tagline, kind.designer), |ui| {
        if let Some((_, Some(view))) = preview.as_ref() {
            ui.vertical_centered(|ui| paint_board(ui, view, kind, theme, PREVIEW, &[]));
            ui.add_space(6.0);
        }
        for (i, spec) in setup.specs.iter().enumerate() {
            let focused = focus.0 == i;
            let value = setup.value(spec.key).to_string();
            match spec.kind {
                OptionKind::Int { min, max } => {
                    let now = value.parse().unwrap_or(min);
                    if let Some(v) = number_item(ui, i, focused, (spec.label, spec.help), now, (min, max), &mut clicks)
                    {
                        typed = Some((i, v.to_string()));
                    }
                }
                OptionKind::Choice(_) => {
                    let words = kind.option_value_words(spec.key, &value);
                    value_item(ui, i, focused, (spec.label, spec.help), &words, None, &mut clicks);
                }
                OptionKind::Text => {
                    let mut text = value.clone();
                    card_row(ui, focused, |ui| {
                        ui.horizontal(|ui| {
                            ui.label(egui::RichText::new(spec.label).size(18.0).strong());
                            ui.add(egui::TextEdit::singleline(&mut text).desired_width(140.0));
                        });
                        ui.label(egui::RichText::new(spec.help).size(text_size::SMALL).weak());
                    });
                    ui.add_space(4.0);
                    if text != value {
                        typed = Some((i, text));
                    }
                }
            }
        }
        if let Some(row) = setup.more_row() {
            let words = if setup.more { "Fewer options" } else { "More options" };
            item(ui, row, focus.0 == row, words, &setup.more_detail(), &mut clicks);
        }
        let n = setup.seat_row();
        for seat in 0..2 {
            let who = match setup.players[seat] {
                None => "A person".to_string(),
                Some(level) => format!("Computer · {}", crate::app::labels::level_name(level)),
            };
            let help = match (setup.simultaneous, seat) {
                (true, _) => "Both sides choose at once, in secret.",
                (false, 0) => "Moves first.",
                (false, _) => "Moves second.",
            };
            let label = setup.side_names[seat].clone();
            value_item(ui, n + seat, focus.0 == n + seat, (&label, help), &who, None, &mut clicks);
        }
        item(ui, n + 2, focus.0 == n + 2, "Start game", &setup.who_plays(), &mut clicks);
        let learn = learn_detail(&settings.0, kind, &books);
        item(ui, n + 3, focus.0 == n + 3, &format!("Learn {}", kind.name()), &learn, &mut clicks);
        item(ui, n + 4, focus.0 == n + 4, "Back", "", &mut clicks);
        if let Some(message) = &setup.message {
            ui.add_space(8.0);
            ui.colored_label(ui.visuals().warn_fg_color, message);
        }
        key_hints(ui, OPTION_CONTROLS);
    });
    if let Some((index, value)) = typed {
        setup.set(index, value);
    }
    Ok(())
}
