//! The warning before a decision that would let the opponent win at once (Gravel: ending a turn
//! that leaves the game to the opponent): one sentence at the top of the side panel (over the
//! player cards, never over the board, whose threatened spaces it marks), and the choice to make
//! it anyway or go on playing (and take actions back).

use super::{PanelActions, PanelView};
use crate::app::match_state::CurrentMatch;
use crate::app::theme::text_size;
use crate::app::ui::{button, card, with_key};
use bevy_egui::egui;

/// The card at the top of the panel, while a decision waits for the player's word.
pub(super) fn card_at_panel_top(ctx: &egui::Context, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    let Some((decision, warning, _)) = act.warning.pending.clone() else { return };
    let panel = view.layout.panel;
    // The card's frame adds its margins (12 each side) to the width its contents are given.
    let width = (panel.width() - 40.0).clamp(200.0, 460.0);
    egui::Area::new(egui::Id::new("turn warning"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::CENTER_TOP)
        .fixed_pos(egui::pos2(panel.center().x, panel.min.y + 8.0))
        .show(ctx, |ui| {
            card(ui, true).show(ui, |ui| {
                ui.set_width(width);
                ui.label(egui::RichText::new("Careful").size(text_size::SMALL).color(ui.visuals().warn_fg_color));
                ui.label(egui::RichText::new(&warning.text).size(text_size::BODY).strong());
                ui.add_space(6.0);
                ui.horizontal_wrapped(|ui| {
                    let words = current.position().kind().decision_words(&decision, "");
                    let anyway = format!("{} anyway", words.unwrap_or_else(|| decision.clone()));
                    if button(ui, &with_key(ui, &anyway, "E")).clicked()
                        && let Some(chosen) = act.warning.confirm()
                    {
                        act.decide.write(chosen);
                    }
                    if button(ui, &with_key(ui, "Keep playing", "Esc")).clicked() {
                        act.warning.pending = None;
                    }
                });
                ui.label(
                    egui::RichText::new("Undo (Z) takes this turn's actions back one by one.")
                        .size(text_size::SMALL)
                        .weak(),
                );
            });
        });
}
