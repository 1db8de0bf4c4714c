//! The rules window (HUD → Rules): each game's summary in words and its illustrations, the spec's
//! worked examples drawn before and after their move with the board's own colours.

use super::Panels;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::Offer;
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::app::ui::paint_board;
use crate::games::DynGame;
use crate::games::GameKind;
use crate::rules::BoardView;
use crate::save::token_decisions;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_rules_window.run_if(in_state(Screen::Playing)));
}

/// One illustration ready to draw: the board before and after its move.
struct Drawn {
    caption: &'static str,
    play: &'static str,
    before: BoardView,
    after: BoardView,
    /// The spaces the move's decisions pick, ringed on the picture before it.
    picked: Vec<String>,
}

/// The spaces a player picks for the decisions of `play`, in order, each decision described by
/// the game in the position it is made in.
fn picked_spaces(before: &dyn DynGame, play: &str) -> Vec<String> {
    let mut position = before.clone_box();
    let mut picked = Vec::new();
    for decision in token_decisions(before, play).unwrap_or_default() {
        if let Some(info) = position.describe_decision(&decision) {
            picked.extend(Offer::of(&info, &position.board_view()).picks);
        }
        if position.play_decision(&decision).is_err() {
            break;
        }
    }
    picked
}

/// The illustrations of one game, built once (they never change).
fn build(kind: GameKind) -> Vec<Drawn> {
    kind.rules
        .illustrations
        .iter()
        .filter_map(|ill| {
            let options: Vec<(String, String)> =
                ill.options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let before = kind.open(&options, Some(ill.position)).ok()?;
            let mut after = before.clone_box();
            after.play_token(ill.play).ok()?;
            let picked = picked_spaces(before.as_ref(), ill.play);
            Some(Drawn {
                caption: ill.caption,
                play: ill.play,
                before: before.board_view(),
                after: after.board_view(),
                picked,
            })
        })
        .collect()
}

fn draw_rules_window(
    mut contexts: EguiContexts,
    mut panels: ResMut<Panels>,
    current: Option<Res<CurrentMatch>>,
    settings: Res<CurrentSettings>,
    mut cache: Local<Option<(GameKind, Vec<Drawn>)>>,
) -> Result {
    let Some(current) = current else { return Ok(()) };
    if !panels.rules_open {
        return Ok(());
    }
    let kind = current.position().kind();
    if cache.as_ref().is_none_or(|(k, _)| *k != kind) {
        *cache = Some((kind, build(kind)));
    }
    let Some((_, drawn)) = cache.as_ref() else { return Ok(()) };
    let theme = settings.0.theme;
    let ctx = contexts.ctx_mut()?;
    let height = ctx.viewport_rect().height();
    let mut open = true;
    egui::Window::new(format!("{} — rules", kind.name()))
        .open(&mut open)
        .collapsible(false)
        .default_width(480.0_f32.min(ctx.viewport_rect().width() - 32.0))
        .max_width(ctx.viewport_rect().width() - 32.0)
        .default_height(height - 60.0)
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(16.0, 16.0))
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).max_height(height - 110.0).show(ui, |ui| {
                for (heading, text) in kind.rules.sections {
                    ui.label(egui::RichText::new(*heading).size(18.0).strong());
                    ui.label(egui::RichText::new(*text).size(15.0));
                    ui.add_space(6.0);
                }
                for d in drawn {
                    ui.separator();
                    ui.horizontal(|ui| {
                        let picked: Vec<&str> = d.picked.iter().map(String::as_str).collect();
                        paint_board(ui, &d.before, kind, theme, PICTURE, &picked);
                        ui.vertical(|ui| {
                            ui.add_space(90.0);
                            ui.label(egui::RichText::new(format!("{} →", d.play)).monospace().strong());
                        });
                        paint_board(ui, &d.after, kind, theme, PICTURE, &[]);
                    });
                    ui.label(egui::RichText::new(d.caption).size(14.0));
                }
            });
        });
    if !open {
        panels.rules_open = false;
    }
    Ok(())
}

/// The rules in brief as text (the portrait panel's Rules tab).
pub(super) fn summary(ui: &mut egui::Ui, kind: GameKind) {
    for (heading, text) in kind.rules.sections {
        ui.label(egui::RichText::new(*heading).size(18.0).strong());
        ui.label(egui::RichText::new(*text).size(15.0));
        ui.add_space(6.0);
    }
}

/// Side length of an illustration, in logical pixels.
const PICTURE: f32 = 190.0;
