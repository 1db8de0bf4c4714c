//! The panel fits: laid out headless with the game's own fonts and style, at a desktop window's
//! size and a phone's, in every game and the states a player meets, no text is cut by its clip
//! and every command the turn offers is drawn in full (a command scrolled out of sight draws
//! nothing at all, so it is found missing).

use super::*;
use crate::app::lesson_state::LessonCommand;
use crate::app::testing::headless_app;
use crate::games::GameKind;
use crate::save::Theme;
use bevy::ecs::system::RunSystemOnce;

/// A text the panel drew: what it says, where, and the clip it was drawn in.
#[derive(Debug, Clone)]
struct DrawnText {
    text: String,
    rect: egui::Rect,
    clip: egui::Rect,
    /// Shortened to fit, with "…" for the rest.
    elided: bool,
}

impl DrawnText {
    /// Drawn whole: inside its clip (a pixel of slack for rounding), and not shortened.
    fn whole(&self) -> bool {
        self.clip.expand(1.0).contains_rect(self.rect) && !self.elided
    }

    /// Cut only by the bottom of its room: the rest of it is below the fold of the panel's one
    /// scroll, there to be read by scrolling.
    fn goes_on_below(&self) -> bool {
        let clip = self.clip.expand(1.0);
        clip.min.x <= self.rect.min.x && self.rect.max.x <= clip.max.x && clip.min.y <= self.rect.min.y && !self.elided
    }
}

/// The texts in `shapes`, nested ones included.
fn texts_of(shapes: Vec<egui::epaint::ClippedShape>) -> Vec<DrawnText> {
    fn walk(shape: &egui::Shape, clip: egui::Rect, out: &mut Vec<DrawnText>) {
        match shape {
            egui::Shape::Text(text) => {
                let said = text.galley.text().trim().to_string();
                if !said.is_empty() {
                    let elided = text.galley.elided;
                    out.push(DrawnText { text: said, rect: text.visual_bounding_rect(), clip, elided });
                }
            }
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, clip, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &shapes {
        walk(&clipped.shape, clipped.clip_rect, &mut out);
    }
    out
}

/// The panel of the app's game laid out in a window of `size` logical pixels, as the game lays it
/// out (three passes: egui sizes some things from the pass before).
fn lay_out_panel(app: &mut App, size: Vec2) -> Vec<DrawnText> {
    app.world_mut().insert_resource(ScreenLayout::of(size));
    app.world_mut()
        .run_system_once(move |current: Option<Res<CurrentMatch>>, view: PanelView, mut act: PanelActions| {
            let current = current.expect("a game on the board");
            let ctx = egui::Context::default();
            ctx.set_fonts(crate::app::fonts::font_definitions());
            ctx.set_global_style(crate::app::theme::egui_style(Theme::Classic));
            let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(size.x, size.y));
            let mut input = egui::RawInput { screen_rect: Some(screen), ..Default::default() };
            // A phone is played by touch (no key hints on it).
            if ScreenLayout::of(size).phone {
                input.events.push(egui::Event::Touch {
                    device_id: egui::TouchDeviceId(0),
                    id: egui::TouchId(0),
                    phase: egui::TouchPhase::Cancel,
                    pos: egui::Pos2::ZERO,
                    force: None,
                });
            }
            let mut shapes = Vec::new();
            for _ in 0..3 {
                let mut output = ctx.run_ui(input.clone(), |ui| panel(ui.ctx(), &current, &view, &mut act));
                output.textures_delta.clear();
                shapes = output.shapes;
            }
            texts_of(shapes)
        })
        .expect("the panel's resources exist")
}

/// The sizes checked: a laptop's window beside the board, a phone's under it, the smallest phone
/// and a phone turned sideways (where the tab's texts may go on below the fold, `SHORT`,
/// `SIDEWAYS`).
const SIZES: [Vec2; 4] = [Vec2::new(1280.0, 720.0), Vec2::new(390.0, 844.0), SHORT, SIDEWAYS];

/// A phone turned sideways: the board at the left, a phone's panel beside it, as short as the
/// smallest phone's.
const SIDEWAYS: Vec2 = Vec2::new(640.0, 360.0);

/// The smallest window the panel is made for: every command in sight without scrolling, but a
/// long lesson's introduction or the event log may go on below the fold of the tab's scroll.
const SHORT: Vec2 = Vec2::new(360.0, 640.0);

/// What is wrong with the panel laid out at `size`: texts cut by their clip, and `commands` and
/// the decisions offered as buttons that were not drawn whole.
fn problems(app: &mut App, size: Vec2, commands: &[&str]) -> Vec<String> {
    let offered = spaceless_commands(app);
    problems_with(app, size, commands.iter().copied().chain(offered.iter().map(String::as_str)))
}

/// What is wrong with the panel laid out at `size`: texts cut by their clip, and `commands` that
/// were not drawn whole.
fn problems_with<'a>(app: &mut App, size: Vec2, commands: impl Iterator<Item = &'a str>) -> Vec<String> {
    let drawn = lay_out_panel(app, size);
    let mut problems: Vec<String> = drawn
        .iter()
        .filter(|t| !(t.whole() || (size == SHORT || size == SIDEWAYS) && t.goes_on_below()))
        .map(|t| {
            format!("cut: {:?} at {:?} in {:?}{}", t.text, t.rect, t.clip, if t.elided { " (shortened)" } else { "" })
        })
        .collect();
    for command in commands {
        // A button may carry its key after the words ("Swap colours (E)").
        if !drawn.iter().any(|t| t.text.starts_with(command) && t.whole()) {
            let cut = drawn.iter().find(|t| t.text.starts_with(command));
            let where_ = cut.map_or("not drawn".to_string(), |t| format!("at {:?} in {:?}", t.rect, t.clip));
            problems.push(format!("not shown whole: {command:?} ({where_})"));
        }
    }
    problems
}

/// An app with a new game of `kind` (its usual options, two people) on the board.
fn game_on_the_board(kind: GameKind) -> App {
    let mut app = headless_app();
    let game = kind.open(&[], None).expect("the usual options make a game");
    app.insert_resource(CurrentMatch::new(game));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    for _ in 0..3 {
        app.update();
    }
    app
}

/// The decisions that name no space (a pass, a swap, Hidden Intention's figures) the person to
/// act is offered as buttons, by the words on them.
fn spaceless_commands(app: &mut App) -> Vec<String> {
    app.world_mut()
        .run_system_once(|current: Res<CurrentMatch>| {
            if !current.acting_side().is_some_and(|side| current.person_plays(side)) {
                return Vec::new();
            }
            let kind = current.position().kind();
            let mover = current.acting_side().map(|s| crate::app::match_state::side_label(current.position(), s));
            let mover = mover.unwrap_or_default();
            let offers = crate::app::playing::offers_now(&current);
            let spaceless = crate::app::playing::spaceless(&offers);
            spaceless.iter().map(|o| crate::app::labels::decision_label(kind, &o.token, &mover)).collect()
        })
        .expect("a game on the board")
}

/// The footer's commands, drawn in every game.
const FOOTER: [&str; 3] = ["Rules", "Record", "Menu"];

#[test]
fn every_games_panel_fits_at_the_start_of_a_game() {
    let mut failures = Vec::new();
    for kind in GameKind::all() {
        let mut app = game_on_the_board(kind);
        let commands = FOOTER.to_vec();
        if kind.slug() == "hidden-intention" {
            assert!(spaceless_commands(&mut app).contains(&"Queen".to_string()), "the figures are offered");
        }
        for size in SIZES {
            for problem in problems(&mut app, size, &commands) {
                failures.push(format!("{kind} at {size}: {problem}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_cards_say_who_plays_whole_against_the_computer_and_online() {
    let mut failures = Vec::new();
    for kind in GameKind::all() {
        let mut app = game_on_the_board(kind);
        app.world_mut().resource_mut::<CurrentMatch>().players = [None, Some(crate::ai::Level::Hard)];
        for size in SIZES {
            for problem in problems(&mut app, size, &FOOTER) {
                failures.push(format!("{kind} against the computer at {size}: {problem}"));
            }
        }
        // Watching a rated correspondence game between two long names, each clock at days.
        {
            let mut current = app.world_mut().resource_mut::<CurrentMatch>();
            (current.players, current.remote, current.watching) = ([None, None], Some(crate::rules::Side::First), true);
        }
        let day = 24 * 3_600_000;
        *app.world_mut().resource_mut::<OnlineStatus>() = OnlineStatus {
            active: true,
            connected: true,
            watching: true,
            rated: true,
            watchers: 2,
            names: [Some("Magdalena_K".to_string()), Some("Tomas_Lindqvist".to_string())],
            clock: Some(crate::online::clock::ClockView {
                control: crate::online::directory::TimeControl::Correspondence { days_per_move: 3 },
                left_ms: [3 * day - 5_000, 2 * day + 3_600_000],
                running: [true, false],
                paused: [false, false],
                claimable_in_ms: [None, None],
            }),
            ..OnlineStatus::default()
        };
        for size in SIZES {
            for problem in problems_with(&mut app, size, ["Rules", "Menu"].into_iter()) {
                failures.push(format!("{kind} watched at {size}: {problem}"));
            }
            let drawn = lay_out_panel(&mut app, size);
            for said in ["Magdalena_K", "Tomas_Lindqvist", "3 d 0 h", "2 d 1 h"] {
                if !drawn.iter().any(|t| t.text.contains(said) && t.whole()) {
                    failures.push(format!("{kind} watched at {size}: {said:?} is not shown whole"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_resign_confirmation_is_read_whole() {
    let mut failures = Vec::new();
    for kind in GameKind::all() {
        let mut app = game_on_the_board(kind);
        app.world_mut().resource_mut::<Panels>().confirm_resign = true;
        for size in SIZES {
            // The question is the moment's: the turn's own commands may wait under it.
            for problem in problems_with(&mut app, size, ["Resign as", "Keep playing", "Confirm"].into_iter()) {
                failures.push(format!("{kind} at {size}: {problem}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_lesson_s_panel_fits() {
    let mut failures = Vec::new();
    for kind in GameKind::all() {
        let mut app = headless_app();
        app.world_mut().write_message(crate::app::lesson_state::BookWanted(kind));
        for _ in 0..3 {
            app.update();
        }
        let lessons =
            app.world().resource::<crate::app::lesson_state::LessonBooks>().book(kind).map(|b| b.lessons.len());
        let lessons = lessons.expect("the book is read");
        for index in 0..lessons {
            app.world_mut().write_message(LessonCommand::Open { game: kind, index });
            for _ in 0..3 {
                app.update();
            }
            let mut commands = FOOTER.to_vec();
            commands.retain(|c| *c != "Menu");
            for size in SIZES {
                for problem in problems(&mut app, size, &commands) {
                    failures.push(format!("{kind} lesson {} at {size}: {problem}", index + 1));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_reviewed_replay_fits() {
    use crate::app::review_state::{ReviewCommand, ReviewShown};
    // Red Stone's spec record (5×5), the replay opened at its end, then reviewed.
    let mut app = crate::app::testing::replay_of_the_red_stone_spec_game();
    let mut failures = Vec::new();
    for size in SIZES {
        for problem in problems_with(&mut app, size, FOOTER.into_iter()) {
            failures.push(format!("the replay at {size}: {problem}"));
        }
    }
    app.world_mut().write_message(ReviewCommand::Start);
    for _ in 0..300 {
        if app.world().resource::<ReviewShown>().review.as_ref().is_some_and(|r| r.is_complete()) {
            break;
        }
        app.update();
    }
    for size in SIZES {
        for problem in problems_with(&mut app, size, FOOTER.into_iter()) {
            failures.push(format!("the review at {size}: {problem}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
