//! The Learn screen: the five games with how many of their lessons are done, then one game's
//! lessons, each ticked once solved, and its practice positions; choosing one plays it on the
//! board.

use crate::app::AppSystems;
use crate::app::input::ActionPressed;
use crate::app::lesson_state::{BookState, BookWanted, LearnChoice, LessonBooks, LessonCommand, PracticeBooks};
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::app::ui::{
    MENU_CONTROLS, MenuClicked, MenuFocus, MenuInput, item, key_hints, read_menu_inputs, reset_focus, screen_frame,
};
use crate::games::GameKind;
use crate::save::Settings;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Learn), (reset_focus, want_every_book));
    app.add_systems(Update, learn_input.in_set(AppSystems::Menus).run_if(in_state(Screen::Learn)));
    app.add_systems(EguiPrimaryContextPass, draw_learn.run_if(in_state(Screen::Learn)));
}

fn want_every_book(mut wanted: MessageWriter<BookWanted>) {
    wanted.write_batch(GameKind::all().map(BookWanted));
}

/// How many of `kind`'s lessons the player has solved.
fn done_count(settings: &Settings, kind: GameKind, books: &LessonBooks) -> usize {
    let (Some(done), Some(book)) = (settings.lessons_done.get(kind.slug()), books.book(kind)) else { return 0 };
    book.lessons.iter().filter(|l| done.contains(&l.id)).count()
}

/// What the Practice row says: how many positions, how many solved, the best streak.
fn practice_detail(settings: &Settings, kind: GameKind, practice: &PracticeBooks) -> String {
    match practice.0.get(&kind) {
        Some(BookState::Ready(book)) if book.positions.is_empty() => {
            format!("No practice positions for {} yet", kind.name())
        }
        Some(BookState::Ready(book)) => {
            let done = settings.practice_done.get(kind.slug()).map_or(0, |d| d.len());
            let best = settings.practice_best.get(kind.slug()).copied().unwrap_or(0);
            format!("{} positions: find the turn that wins · {done} solved · best streak {best}", book.positions.len())
        }
        Some(BookState::Failed(e)) => e.clone(),
        _ => "Loading the practice positions…".to_string(),
    }
}

/// The number of items: the games, or the game's lessons and its practice; then Back.
fn item_count(choice: &LearnChoice, books: &LessonBooks) -> usize {
    match choice.game {
        None => GameKind::all().count() + 1,
        Some(kind) => books.book(kind).map_or(0, |b| b.lessons.len()) + 2,
    }
}

fn learn_input(
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    mut choice: ResMut<LearnChoice>,
    (books, practice, settings): (Res<LessonBooks>, Res<PracticeBooks>, Res<CurrentSettings>),
    mut next: ResMut<NextState<Screen>>,
    mut lessons: MessageWriter<LessonCommand>,
) {
    let len = item_count(&choice, &books);
    for input in read_menu_inputs(&mut focus, len, &mut actions, &mut clicks) {
        let back = matches!(input, MenuInput::Back) || input == MenuInput::Activate(len - 1);
        match (choice.game, input) {
            (Some(_), _) if back && choice.from_setup => next.set(Screen::Setup),
            (Some(kind), _) if back => {
                choice.game = None;
                focus.0 = GameKind::all().position(|k| k == kind).unwrap_or(0);
            }
            (None, _) if back => next.set(Screen::Title),
            (None, MenuInput::Activate(i)) => {
                choice.game = GameKind::all().nth(i);
                focus.0 = 0;
            }
            (Some(game), MenuInput::Activate(index))
                if index + 2 == len && practice.book(game).is_some_and(|b| !b.positions.is_empty()) =>
            {
                let index = practice.first_unsolved(&settings.0, game);
                lessons.write(LessonCommand::Practise { game, index });
            }
            // The practice row of a game without positions does nothing.
            (Some(_), MenuInput::Activate(index)) if index + 2 == len => {}
            (Some(game), MenuInput::Activate(index)) => {
                lessons.write(LessonCommand::Open { game, index });
            }
            _ => {}
        }
    }
}

fn draw_learn(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    choice: Res<LearnChoice>,
    (books, practice): (Res<LessonBooks>, Res<PracticeBooks>),
    settings: Res<CurrentSettings>,
    mut clicks: MessageWriter<MenuClicked>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let hints = MENU_CONTROLS;
    let Some(kind) = choice.game else {
        screen_frame(ctx, "Learn", "Short lessons on the real board: about ten minutes a game", |ui| {
            for (i, kind) in GameKind::all().enumerate() {
                let detail = match books.0.get(&kind) {
                    Some(BookState::Ready(book)) => {
                        let done = done_count(&settings.0, kind, &books);
                        match (done, book.lessons.len()) {
                            (0, n) => format!("{n} lessons"),
                            (d, n) if d == n => format!("All {n} lessons done"),
                            (d, n) => format!("{d} of {n} lessons done"),
                        }
                    }
                    Some(BookState::Failed(e)) => e.clone(),
                    _ => "Loading the lessons…".to_string(),
                };
                item(ui, i, focus.0 == i, kind.name(), &detail, &mut clicks);
            }
            let back = GameKind::all().count();
            item(ui, back, focus.0 == back, "Back", "", &mut clicks);
            key_hints(ui, hints);
        });
        return Ok(());
    };
    let subtitle = format!("Learn {} by playing", kind.name());
    screen_frame(ctx, kind.name(), &subtitle, |ui| {
        let lessons = books.book(kind).map(|b| b.lessons.as_slice()).unwrap_or_default();
        if lessons.is_empty() {
            let why = match books.0.get(&kind) {
                Some(BookState::Failed(e)) => e.clone(),
                _ => "Loading the lessons…".to_string(),
            };
            ui.label(why);
        }
        let done = settings.0.lessons_done.get(kind.slug());
        for (i, lesson) in lessons.iter().enumerate() {
            let tick = if done.is_some_and(|d| d.contains(&lesson.id)) { "●" } else { "○" };
            let label = format!("{tick} {}. {}", i + 1, lesson.title);
            item(ui, i, focus.0 == i, &label, &lesson.goal, &mut clicks);
        }
        let at = lessons.len();
        let detail = practice_detail(&settings.0, kind, &practice);
        item(ui, at, focus.0 == at, "Practice", &detail, &mut clicks);
        item(ui, at + 1, focus.0 == at + 1, "Back", "", &mut clicks);
        key_hints(ui, hints);
    });
    Ok(())
}
