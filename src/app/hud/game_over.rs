//! The game-over card over the board: the result, the reason in words, the final figures, and
//! Play again, Replay, Change options and Title screen; it can be put aside to look at the board.

use super::{PanelActions, PanelView};
use crate::app::match_state::{CurrentMatch, MatchCommand, NewMatch, side_label};
use crate::app::playing::{OnlineRequest, RematchOffer, Replay, ReplayStep, SetupRequested};
use crate::app::screen::Screen;
use crate::app::theme::text_size;
use crate::app::ui::{button, button_if, card};
use crate::rules::Side;
use bevy::prelude::*;
use bevy_egui::egui;

/// After an online game: a rematch (offered, or the opponent's offer accepted), the replay, leave
/// (a watcher has no rematch to offer).
fn online_buttons(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    online: &crate::app::playing::OnlineStatus,
    act: &mut PanelActions,
) {
    let (watching, offer) = (current.watching, online.rematch);
    if !online.hide_ratings {
        // After a rated game both players (and whoever watched) see what it did to the ratings.
        for change in &online.rating_changes {
            ui.label(
                egui::RichText::new(format!("{}: {}", change.name, change.words())).size(text_size::BODY).strong(),
            );
        }
    }
    match offer {
        RematchOffer::ByYou => {
            ui.label(egui::RichText::new("Rematch offered: waiting for your opponent").size(text_size::BODY));
        }
        RematchOffer::ByOpponent => {
            ui.label(egui::RichText::new("Your opponent wants a rematch").size(text_size::BODY).strong());
        }
        RematchOffer::None => {}
    }
    ui.horizontal_wrapped(|ui| {
        let label = match offer {
            RematchOffer::ByOpponent => "Accept the rematch",
            _ => "Rematch",
        };
        if !watching && button_if(ui, offer != RematchOffer::ByYou, label).clicked() {
            act.online.write(OnlineRequest::Rematch);
        }
        if button(ui, "Replay").clicked() {
            replay_from_start(current, act);
        }
        if button(ui, "Review").clicked() {
            replay_from_start(current, act);
            act.review.write(crate::app::review_state::ReviewCommand::Start);
        }
        if button(ui, "Title screen").clicked() {
            act.next.set(Screen::Title);
        }
    });
}

/// The result as a heading: "Black wins", "Draw", "White resigns: Black wins".
pub(super) fn result_text(current: &CurrentMatch) -> String {
    let outcome = current.outcome_text();
    let mut chars = outcome.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// Why the game ended, in words ("Black has no stones left").
pub(super) fn reason_text(current: &CurrentMatch) -> Option<String> {
    if let Some((_, why)) = current.ended_on_time() {
        return Some(why.to_string());
    }
    match current.resigned() {
        Some(side) => Some(format!("{} gave the game up", side_label(current.position(), side))),
        None => current.position().end_reason(),
    }
}

/// Each side's final figures in one line ("Black · Stones 12 · Captured 3").
fn figures(current: &CurrentMatch) -> Vec<String> {
    let view = current.position().board_view();
    Side::BOTH
        .into_iter()
        .filter_map(|side| {
            let own: Vec<String> = view
                .counters
                .iter()
                .filter(|c| c.side == Some(side))
                .map(|c| format!("{} {}", c.label, c.value))
                .collect();
            (!own.is_empty()).then(|| format!("{} · {}", side_label(current.position(), side), own.join(" · ")))
        })
        .collect()
}

/// The card, centred on the board, while the game is over and the player has not put it aside.
pub(super) fn card_over_board(ctx: &egui::Context, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    // A lesson's end is told on its card; the winning move is seen to its end before the card
    // covers the board.
    if !current.is_over()
        || view.animating.0
        || act.replay.active
        || view.analysis.active
        || act.panels.game_over_aside
        || view.lesson.is_some()
        || view.practice.is_some()
    {
        return;
    }
    let board = view.layout.board;
    let width = (board.width() - 32.0).clamp(240.0, 420.0);
    egui::Area::new(egui::Id::new("game over"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::CENTER_CENTER)
        .fixed_pos(egui::pos2(board.center().x, board.center().y))
        .show(ctx, |ui| {
            card(ui, true).show(ui, |ui| {
                ui.set_width(width);
                ui.vertical_centered(|ui| {
                    ui.label(egui::RichText::new("Game over").size(text_size::SMALL).weak());
                    ui.label(egui::RichText::new(result_text(current)).size(text_size::HEADING).strong());
                    if let Some(reason) = reason_text(current) {
                        ui.label(egui::RichText::new(reason).size(text_size::BODY));
                    }
                    ui.add_space(6.0);
                    for line in figures(current) {
                        ui.label(egui::RichText::new(line).size(text_size::SMALL));
                    }
                    ui.add_space(8.0);
                    buttons(ui, current, view, act);
                    ui.add_space(4.0);
                    if ui.small_button("Look at the board").clicked() {
                        act.panels.game_over_aside = true;
                    }
                });
            });
        });
}

/// What to do after the end: play again (online: a rematch), replay, change the options, leave.
pub(super) fn buttons(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    if current.remote.is_some() {
        online_buttons(ui, current, &view.online, act);
        return;
    }
    ui.horizontal_wrapped(|ui| {
        if button(ui, "Play again").clicked() {
            let mut again = CurrentMatch::new(current.start().clone_box());
            again.players = current.players;
            again.seed = current.seed.wrapping_add(1);
            act.new_match.write(NewMatch(Box::new(again)));
            act.panels.game_over_aside = false;
        }
        if button(ui, "Replay").clicked() {
            replay_from_start(current, act);
        }
        if button(ui, "Review").clicked() {
            replay_from_start(current, act);
            act.review.write(crate::app::review_state::ReviewCommand::Start);
        }
        if button(ui, "Change options").clicked() {
            act.setup.write(SetupRequested {
                kind: current.position().kind(),
                options: current.position().option_pairs(),
                players: current.players,
            });
        }
        if button(ui, "Title screen").clicked() {
            act.next.set(Screen::Title);
        }
    });
}

/// The finished game replayed from its start; nobody plays it while it is replayed.
fn replay_from_start(current: &CurrentMatch, act: &mut PanelActions) {
    *act.replay = Replay::of_current(current);
    act.commands.write(MatchCommand::Reseat([None, None]));
    act.replay_steps.write(ReplayStep::First);
}
