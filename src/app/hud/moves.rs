//! The panel's move list (in plain words, or in the game's record notation at the switch of a
//! button, numbered as the record numbers them) and the replay's controls with every move a jump.

use crate::app::match_state::CurrentMatch;
use crate::app::playing::{MoveList, Replay, ReplayStep};
use crate::app::review_state::ReviewShown;
use crate::app::settings::CurrentSettings;
use crate::app::theme::text_size;
use bevy::prelude::*;
use bevy_egui::egui;

/// The moves the list always has room for beside the board (more scroll).
const MOVES_ALWAYS_SHOWN: usize = 6;

/// The least height the move list keeps beside the board: its heading and its moves up to
/// `MOVES_ALWAYS_SHOWN` (early in a game the choices above it get the room it does not need yet).
pub(super) fn min_height(ui: &egui::Ui, moves: &MoveList) -> f32 {
    let line = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    let lines = (moves.lines.len() + usize::from(moves.pending > 0)).min(MOVES_ALWAYS_SHOWN);
    // The heading's row holds the notation switch; a move in words may take two lines.
    let heading = ui.spacing().interact_size.y.max(ui.text_style_height(&egui::TextStyle::Body));
    heading + 2.0 * ui.spacing().item_spacing.y + 8.0 + line * (lines + lines.min(1)) as f32
}

/// The switch between the moves in words and in the rule book's notation, kept with the settings;
/// returns whether the notation is shown.
fn notation_switch(ui: &mut egui::Ui, settings: &mut ResMut<CurrentSettings>) -> bool {
    let shown = settings.0.moves_in_notation;
    let switch = egui::Button::new(egui::RichText::new("Notation").size(text_size::SMALL)).selected(shown);
    if ui.add(switch).on_hover_text("The moves as the rule book writes them (as records keep them)").clicked() {
        settings.0.moves_in_notation = !shown;
    }
    settings.0.moves_in_notation
}

/// The moves in words (or the record's notation), taking the height left.
pub(super) fn move_list(ui: &mut egui::Ui, moves: &MoveList, settings: &mut ResMut<CurrentSettings>) {
    ui.separator();
    let notation = ui
        .horizontal(|ui| {
            ui.label(egui::RichText::new("Moves").strong());
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| notation_switch(ui, settings)).inner
        })
        .inner;
    // A new line scrolls the list to its end at once, and asks for the frame that shows it: the
    // window draws only when something happens (an online game waiting for the opponent, a
    // correspondence game), and sticking to the bottom alone left the newest move hidden.
    let count = moves.lines.len() * 2 + usize::from(moves.pending > 0);
    let seen = ui.id().with("move list lines");
    let grew = ui.data_mut(|d| {
        let before = d.get_temp::<usize>(seen);
        d.insert_temp(seen, count);
        before != Some(count)
    });
    egui::ScrollArea::vertical().id_salt("move list").stick_to_bottom(true).auto_shrink([false, false]).show(
        ui,
        |ui| {
            if notation {
                for line in moves.texts() {
                    ui.monospace(line);
                }
            } else {
                for line in moves.words() {
                    ui.label(line);
                }
            }
            if moves.pending > 0 {
                // A turn, part or commitment under way: sealed choices stay hidden.
                ui.monospace(egui::RichText::new("     (in progress)").weak());
            }
            if grew {
                ui.scroll_to_cursor(Some(egui::Align::BOTTOM));
                ui.ctx().request_repaint();
            }
        },
    );
}

/// The replay's heading, its step buttons and "play on from here".
pub(super) fn replay_controls(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    (replay, whole, review): (&Replay, &MoveList, &ReviewShown),
    steps: &mut MessageWriter<ReplayStep>,
) {
    let at = current.len();
    let total = at + current.redo_len();
    // One numbering for the list, the record and the steps: the record's numbered moves, a move
    // counted as soon as the board shows any of it (Gravel's "1." holds both sides' first turns).
    let shown = moves_begun(whole, at);
    ui.separator();
    let heading = format!("Replay — move {shown} of {}", whole.lines.len());
    ui.label(egui::RichText::new(heading).size(18.0).strong());
    ui.horizontal(|ui| {
        for (label, step, enabled) in [
            ("|<", ReplayStep::First, at > 0),
            ("<", ReplayStep::Back, at > 0),
            (">", ReplayStep::Forward, at < total),
            (">|", ReplayStep::Last, at < total),
        ] {
            let button = egui::Button::new(egui::RichText::new(label).monospace().size(18.0));
            if ui.add_enabled(enabled, button.min_size(egui::vec2(40.0, 28.0))).clicked() {
                steps.write(step);
            }
        }
        let auto = if replay.auto { "Stop" } else { "Auto-play" };
        if ui.button(egui::RichText::new(auto).size(16.0)).clicked() {
            steps.write(ReplayStep::ToggleAuto);
        }
    });
    if review.review.is_none() {
        ui.label(
            egui::RichText::new("Left/Right: step · Up/Down: start/end · Enter: auto-play")
                .weak()
                .size(text_size::SMALL),
        );
    }
    // Beside a review the room is the review's (its Analyse plays on from here as a variation).
    if !current.is_over() && review.review.is_none() {
        ui.label("Play on from here:");
        ui.horizontal_wrapped(|ui| {
            if ui.button("Two players").clicked() {
                steps.write(ReplayStep::PlayOn([None, None]));
            }
            // The computer takes the side that is not to move now, so the person moves first.
            let computer_seat = current.acting_side().map_or(1, |s| 1 - current.seat_of(s));
            let mut players = [None, None];
            players[computer_seat] = Some(crate::ai::Level::Medium);
            if ui.button("Against the computer").clicked() {
                steps.write(ReplayStep::PlayOn(players));
            }
        });
    }
}

/// How many of the list's numbered moves the board shows some of, after `at` decisions.
fn moves_begun(list: &MoveList, at: usize) -> usize {
    let mut start = 0;
    list.lines
        .iter()
        .take_while(|line| {
            let begun = start < at;
            start = line.end;
            begun
        })
        .count()
}

/// The whole move list, each move a jump (with the review's marks when there is one).
pub(super) fn replay_list(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    (whole, review): (&MoveList, &ReviewShown),
    (steps, settings): (&mut MessageWriter<ReplayStep>, &mut ResMut<CurrentSettings>),
) {
    let at = current.len();
    let shown = whole.lines.iter().filter(|l| l.end <= at).count();
    ui.separator();
    let notation =
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| notation_switch(ui, settings)).inner;
    // The list follows the current move whenever it changes (and leaves the player's scrolling
    // alone otherwise).
    let followed = egui::Id::new("replay list follows");
    let moved = ui.ctx().data_mut(|d| {
        let before = d.get_temp::<usize>(followed);
        d.insert_temp(followed, at);
        before != Some(at)
    });
    egui::ScrollArea::vertical().max_height(ui.available_height().max(0.0)).show(ui, |ui| {
        let mut line_start = 0;
        for (i, line) in whole.lines.iter().enumerate() {
            let here = i + 1 == shown;
            // The review's marks of the line's moves (`?!`, `?`, `??`), coloured by the worst.
            let judged: Vec<_> = review
                .review
                .iter()
                .flat_map(|r| r.turns.iter().enumerate().filter(|(_, t)| t.end > line_start && t.end <= line.end))
                .filter_map(|(t, _)| review.judgement(t))
                .collect();
            line_start = line.end;
            let marks: String = judged.iter().map(|j| j.label.glyph()).collect::<Vec<_>>().join("");
            let worst = judged.iter().map(|j| j.label).max();
            let said = if notation { line.text(whole.joiner) } else { line.in_words() };
            let mut text = egui::RichText::new(format!(
                "{said}{}",
                if marks.is_empty() { String::new() } else { format!(" {marks}") }
            ));
            if notation {
                text = text.monospace();
            }
            if let Some(label) = worst.filter(|&l| l >= crate::ai::review::Label::Inaccuracy) {
                text = text.color(super::review_panel::label_colour(label));
            }
            let text = if here {
                text.strong()
            } else if line.end > at {
                text.weak()
            } else {
                text
            };
            let row = ui.selectable_label(here, text);
            if here && moved {
                row.scroll_to_me(Some(egui::Align::Center));
            }
            if row.clicked() {
                steps.write(ReplayStep::To(line.end));
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameKind, open};

    #[test]
    fn the_replay_counts_a_move_once_the_board_shows_part_of_it() {
        // Gravel's first numbered move holds both sides' first turns, each a placement and its end.
        let start = open(GameKind::named("gravel"), &[], None).unwrap();
        let decisions: Vec<String> = ["+d4", "end", "+d5", "end"].map(String::from).to_vec();
        let list = MoveList::of(start.as_ref(), &decisions);
        assert_eq!(list.lines.len(), 1, "{:?}", list.lines);
        assert_eq!(moves_begun(&list, 0), 0);
        assert_eq!(moves_begun(&list, 2), 1, "Light's first turn is on the board");
        assert_eq!(moves_begun(&list, 4), 1);
    }
}
