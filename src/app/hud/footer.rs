//! The panel's footer: the same eight commands in the same two rows of four, in every game, on
//! every screen and in the replay (greyed out where they do not apply), so a player's hand finds
//! "Undo" or "Rules" where it found them in the last game, and no game's choices ever sit there.

use super::{PanelActions, PanelView, Tab};
use crate::app::lesson_state::LessonCommand;
use crate::app::match_state::{CurrentMatch, MatchCommand, side_label};
use crate::app::playing::{HintRequested, OnlineRequest, undo_allowed};
use crate::app::screen::Screen;
use crate::app::theme::{TOUCH, text_size};
use crate::games::GameKind;
use bevy::prelude::*;
use bevy_egui::egui;

/// A command of the footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Command {
    Hint,
    Undo,
    Redo,
    Rules,
    Save,
    Record,
    Resign,
    Menu,
}

/// The footer's commands in reading order: the first row helps with the turn, the second is about
/// the game as a whole.
pub(super) const COMMANDS: [Command; 8] = [
    Command::Hint,
    Command::Undo,
    Command::Redo,
    Command::Rules,
    Command::Save,
    Command::Record,
    Command::Resign,
    Command::Menu,
];

const COLUMNS: usize = 4;
/// A footer button's height: a full fingertip by touch, the panel's usual buttons with a mouse.
fn row_height(keys: bool) -> f32 {
    if keys { TOUCH - 6.0 } else { TOUCH }
}

/// One button of the footer as it is drawn now.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct FooterButton {
    pub command: Command,
    pub label: String,
    pub enabled: bool,
    /// Pressed once and waiting for a second press (Resign), or showing its window (Rules).
    pub selected: bool,
}

/// What the footer's buttons depend on, read from the match and the panel.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct FooterState {
    pub replay: bool,
    pub hint: bool,
    pub undo: bool,
    pub redo: bool,
    pub resign: bool,
    pub confirm_resign: bool,
    pub rules_shown: bool,
    pub save_open: bool,
    pub record_open: bool,
    /// A lesson is on the board: no saving or resigning; Hint shows its hints.
    pub lesson: bool,
    /// In a replay without a review, the hint's place asks for the computer's review.
    pub review: bool,
}

impl FooterState {
    pub fn of(current: &CurrentMatch, view: &PanelView, act: &PanelActions) -> FooterState {
        let replay = act.replay.active;
        let person_acts = !replay && current.acting_side().is_some_and(|s| current.person_plays(s));
        FooterState {
            replay,
            // No computer's help in a game against another person online.
            // A practice position's answer is the player's to find.
            hint: view.practice.is_none()
                && match &view.lesson {
                    Some(run) => {
                        run.standing == crate::lessons::Standing::OnTheWay && run.hints_shown < run.hint_count()
                    }
                    None => person_acts && !current.is_over() && current.remote.is_none() && !view.hint.searching,
                },
            undo: !replay && undo_allowed(current, &view.secrecy),
            redo: !replay && current.remote.is_none() && current.can_redo(),
            resign: current.resigning_side().is_some() && !replay && !view.online.resign_sent,
            confirm_resign: act.panels.confirm_resign,
            rules_shown: act.panels.rules_open,
            save_open: act.panels.save_name.is_some(),
            record_open: act.panels.record_open,
            lesson: view.lesson.is_some() || view.practice.is_some(),
            review: replay && view.review.review.is_none(),
        }
    }
}

/// The footer's buttons: always the same commands in the same order, whatever the game or state.
pub(super) fn buttons(state: FooterState, keys: bool) -> Vec<FooterButton> {
    let keyed = |label: &str, key: &str| if keys { format!("{label} ({key})") } else { label.to_string() };
    COMMANDS
        .into_iter()
        .map(|command| {
            let (label, enabled, selected) = match command {
                // "Review (Q)" does not fit the cell; Q asks for it all the same.
                Command::Hint if state.replay => ("Review".to_string(), state.review, false),
                Command::Hint => (keyed("Hint", "Q"), state.hint, false),
                Command::Undo => (keyed("Undo", "Z"), state.undo, false),
                Command::Redo => (keyed("Redo", "Y"), state.redo, false),
                Command::Rules => ("Rules".to_string(), true, state.rules_shown),
                Command::Save => ("Save".to_string(), !state.replay && !state.lesson, state.save_open),
                Command::Record => ("Record".to_string(), true, state.record_open),
                Command::Resign if state.confirm_resign => ("Confirm".to_string(), state.resign, true),
                Command::Resign => ("Resign".to_string(), state.resign && !state.lesson, false),
                Command::Menu if state.lesson => ("Lessons".to_string(), true, false),
                Command::Menu => ("Menu".to_string(), true, false),
            };
            FooterButton { command, label, enabled, selected }
        })
        .collect()
}

/// Draws the footer at the bottom of `ui`'s room, upwards (the buttons in a fixed grid of equal
/// cells, the keys line over them unless `room_is_short`, a line); returns the command pressed,
/// if any, and the room left above the footer.
pub(super) fn draw(
    ui: &mut egui::Ui,
    buttons: &[FooterButton],
    keys: bool,
    (watching, room_is_short): (bool, bool),
) -> (Option<Command>, egui::Rect) {
    let device = crate::app::ui::playing_with(ui).unwrap_or_default();
    let line = keys.then(|| keys_line(watching, device));
    draw_placed(ui, buttons, (keys, line.filter(|_| !room_is_short).as_deref()), &mut Vec::new())
}

/// What the keys (or the gamepad's buttons) do on the board: a watcher only looks.
fn keys_line(watching: bool, device: crate::app::input::PlayingWith) -> String {
    let controls: &[crate::app::ui::Control] = if watching {
        &[("Arrows", "D-pad", "look at a space"), ("Esc", "B", "back")]
    } else {
        &[("Arrows", "D-pad", "cursor"), ("Enter", "A", "choose"), ("Esc", "B", "back")]
    };
    crate::app::ui::controls_words(device, controls)
}

/// `draw`, noting where each command's button went.
fn draw_placed(
    ui: &mut egui::Ui,
    buttons: &[FooterButton],
    (keys, keys_line): (bool, Option<&str>),
    placed: &mut Vec<(Command, egui::Rect)>,
) -> (Option<Command>, egui::Rect) {
    let room = ui.available_rect_before_wrap();
    let mut footer =
        ui.new_child(egui::UiBuilder::new().max_rect(room).layout(egui::Layout::bottom_up(egui::Align::Min)));
    let ui = &mut footer;
    // Tighter than the menus' buttons: four to a row in a 320 px panel with their keys.
    ui.spacing_mut().button_padding = egui::vec2(4.0, 2.0);
    let spacing = ui.spacing().item_spacing.x;
    let width = ((ui.available_width() - spacing * (COLUMNS as f32 - 1.0)) / COLUMNS as f32).max(40.0);
    let mut pressed = None;
    let row_size = egui::vec2(ui.available_width(), row_height(keys));
    for row in buttons.chunks(COLUMNS).rev() {
        ui.allocate_ui_with_layout(row_size, egui::Layout::left_to_right(egui::Align::Center), |ui| {
            for b in row {
                let text = egui::RichText::new(&b.label).size(text_size::BUTTON - 1.0);
                let button = egui::Button::new(text).selected(b.selected).truncate();
                let response = ui.add_enabled_ui(b.enabled, |ui| ui.add_sized([width, row_height(keys)], button)).inner;
                placed.push((b.command, response.rect));
                if response.clicked() {
                    pressed = Some(b.command);
                }
            }
        });
    }
    if let Some(line) = keys_line {
        let text = egui::RichText::new(line).weak().size(text_size::SMALL);
        ui.add(egui::Label::new(text).truncate());
    }
    ui.separator();
    let above = egui::Rect::from_min_max(room.min, egui::pos2(room.max.x, ui.min_rect().min.y - 2.0));
    (pressed, above)
}

/// Does what a footer button says.
pub(super) fn run(command: Command, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    let panels = &mut act.panels;
    match command {
        Command::Hint if act.replay.active => {
            act.review.write(crate::app::review_state::ReviewCommand::Start);
        }
        Command::Hint => {
            act.hint_requests.write(HintRequested);
        }
        Command::Undo => {
            act.commands.write(MatchCommand::UndoToPerson);
        }
        Command::Redo => {
            act.commands.write(MatchCommand::Redo);
        }
        Command::Rules => {
            panels.rules_open = !panels.rules_open;
            panels.rules_scroll = None;
        }
        Command::Save if panels.save_name.is_some() => panels.save_name = None,
        Command::Save => {
            panels.save_name = Some(default_save_name(current.position().kind(), current.started_unix));
            panels.save_message = None;
            if view.layout.phone {
                panels.tab = Tab::Actions;
            }
        }
        Command::Record => panels.record_open = !panels.record_open,
        Command::Resign => {
            if panels.confirm_resign
                && let Some(side) = current.resigning_side()
            {
                // Online the server ends the game; its answer shows the result.
                if current.remote.is_some() {
                    act.online.write(OnlineRequest::Resign);
                } else {
                    act.commands.write(MatchCommand::Resign(side));
                }
            } else if view.layout.phone {
                panels.tab = Tab::Actions;
            }
            panels.confirm_resign = !panels.confirm_resign;
        }
        Command::Menu if view.lesson.is_some() || view.practice.is_some() => {
            act.lessons.write(LessonCommand::Leave);
        }
        Command::Menu => act.next.set(Screen::Title),
    }
}

/// While Resign waits for its second press: who resigns, and the way back.
pub(super) fn resign_question(ui: &mut egui::Ui, current: &CurrentMatch, act: &mut PanelActions) {
    let Some(side) = current.resigning_side().filter(|_| act.panels.confirm_resign) else { return };
    ui.horizontal_wrapped(|ui| {
        let who = side_label(current.position(), side);
        let text = format!("Resign as {who}? Press Confirm to give the game up.");
        ui.label(egui::RichText::new(text).size(text_size::BODY).strong());
        if crate::app::ui::button(ui, "Keep playing").clicked() {
            act.panels.confirm_resign = false;
        }
    });
    ui.separator();
}

/// "Red Stone 2026-11-22 10.41": the game and when it started (UTC), a name people recognise.
pub(super) fn default_save_name(kind: GameKind, started_unix: u64) -> String {
    let days = started_unix / 86_400;
    let (h, m) = ((started_unix % 86_400) / 3600, (started_unix % 3600) / 60);
    // Civil date from days since 1970 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{} {year:04}-{month:02}-{d:02} {h:02}.{m:02}", kind.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where each command's button is drawn in a panel of `width` × 700 for `state`.
    fn placed(state: FooterState, keys: bool, width: f32) -> Vec<(Command, egui::Rect)> {
        let mut placed = Vec::new();
        super::super::lay_out(egui::vec2(width, 700.0), |ui| {
            placed.clear();
            let line = keys.then(|| keys_line(false, Default::default()));
            draw_placed(ui, &buttons(state, keys), (keys, line.as_deref()), &mut placed);
        });
        // In reading order (the rows are drawn from the bottom up).
        placed.sort_by(|(_, a), (_, b)| a.min.y.total_cmp(&b.min.y).then(a.min.x.total_cmp(&b.min.x)));
        placed
    }

    #[test]
    fn every_command_keeps_its_place_in_every_state_in_a_cell_of_its_own() {
        let states = [
            FooterState::default(),
            FooterState { hint: true, undo: true, resign: true, ..Default::default() },
            FooterState { redo: true, confirm_resign: true, resign: true, rules_shown: true, ..Default::default() },
            FooterState { replay: true, record_open: true, ..Default::default() },
            FooterState { save_open: true, ..Default::default() },
        ];
        for (keys, width) in [(true, 334.0), (false, 366.0), (true, 296.0)] {
            let first = placed(states[0], keys, width);
            assert_eq!(first.iter().map(|(c, _)| *c).collect::<Vec<_>>(), COMMANDS.to_vec());
            for state in &states[1..] {
                assert_eq!(placed(*state, keys, width), first, "{state:?}");
            }
            // Two rows of four equal cells, inside the panel, none over another.
            for (i, (command, rect)) in first.iter().enumerate() {
                assert!(rect.min.x >= -0.5 && rect.max.x <= width + 0.5, "{command:?} leaves the panel: {rect:?}");
                assert!(
                    (rect.width() - first[0].1.width()).abs() < 0.5,
                    "{command:?} is not a cell as wide as the others"
                );
                for (other, o) in &first[i + 1..] {
                    assert!(!rect.shrink(0.5).intersects(o.shrink(0.5)), "{command:?} overlaps {other:?}");
                }
                // By touch (no keys shown) every button is a full touch target (DESIGN: 44 px).
                if !keys {
                    assert!(rect.height() >= TOUCH - 0.5, "{command:?} is {} px tall", rect.height());
                }
            }
        }
    }

    #[test]
    fn the_default_save_name_is_the_game_and_its_start_time_and_a_valid_name() {
        let name = default_save_name(GameKind::named("red-stone"), 1_795_342_203);
        assert_eq!(name, "Red Stone 2026-11-22 10.10");
        assert!(crate::save::save_key(&name).is_ok());
        assert_eq!(default_save_name(GameKind::named("gravel"), 951_782_400), "Gravel 2000-02-29 00.00");
    }
}
