//! The rules window (HUD → Rules): each game's summary in words and its illustrations, the spec's
//! worked examples drawn before and after their move with the board's own colours.

use super::Panels;
use crate::app::match_state::CurrentMatch;
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::app::theme::{BoardPalette, board_palette};
use crate::games::GameKind;
use crate::rules::{BoardView, Layout, PieceShape, cells_in_token};
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
            Some(Drawn { caption: ill.caption, play: ill.play, before: before.board_view(), after: after.board_view() })
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
    let kind = current.game.kind();
    if cache.as_ref().is_none_or(|(k, _)| *k != kind) {
        *cache = Some((kind, build(kind)));
    }
    let Some((_, drawn)) = cache.as_ref() else { return Ok(()) };
    let pal = board_palette(settings.0.theme);
    let ctx = contexts.ctx_mut()?;
    let height = ctx.viewport_rect().height();
    let mut open = true;
    egui::Window::new(format!("{} — rules", kind.name()))
        .open(&mut open)
        .collapsible(false)
        .default_width(480.0)
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
                        paint_board(ui, &d.before, &pal, kind, &cells_in_token(d.play));
                        ui.vertical(|ui| {
                            ui.add_space(90.0);
                            ui.label(egui::RichText::new(format!("{} →", d.play)).monospace().strong());
                        });
                        paint_board(ui, &d.after, &pal, kind, &[]);
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

/// Side length of an illustration, in logical pixels.
const PICTURE: f32 = 190.0;

fn colour(c: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(c[0], c[1], c[2])
}

/// Draws a board view small: spaces, lines, control tint, burned squares and pieces, with the
/// spaces in `ringed` circled (the move about to be played).
fn paint_board(ui: &mut egui::Ui, view: &BoardView, pal: &BoardPalette, kind: GameKind, ringed: &[&str]) {
    let (response, painter) = ui.allocate_painter(egui::vec2(PICTURE, PICTURE), egui::Sense::hover());
    let area = response.rect;
    let (x0, y0, x1, y1) = view.bounds();
    // A little more than a unit of margin, so edge stones stay whole inside the picture.
    let unit = (PICTURE / (x1 - x0 + 1.3)).min(PICTURE / (y1 - y0 + 1.3));
    let centre = egui::pos2((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    // Board units (y up) → screen (y down), centred in the picture.
    let at = |x: f32, y: f32| area.center() + egui::vec2((x - centre.x) * unit, (centre.y - y) * unit);
    painter.rect_filled(area, 4.0, colour(pal.board));
    let thin = egui::Stroke::new(1.0, colour(pal.line));
    match &view.layout {
        Layout::Squares { .. } => {
            for c in &view.cells {
                let dark = (c.x.round() as i32 + c.y.round() as i32).rem_euclid(2) == 0;
                let fill = if c.marks.burned {
                    pal.burned
                } else if dark {
                    pal.square_dark
                } else {
                    pal.square_light
                };
                painter.rect_filled(
                    egui::Rect::from_center_size(at(c.x, c.y), egui::vec2(unit, unit)),
                    0.0,
                    colour(fill),
                );
            }
        }
        Layout::Points { width, height } => {
            for f in 0..*width {
                painter.line_segment([at(f as f32, y0), at(f as f32, y1)], thin);
            }
            for r in 0..*height {
                painter.line_segment([at(x0, r as f32), at(x1, r as f32)], thin);
            }
        }
        Layout::Lattice { lines } => {
            for &(a, b) in lines {
                let (a, b) = (&view.cells[a as usize], &view.cells[b as usize]);
                painter.line_segment([at(a.x, a.y), at(b.x, b.y)], thin);
            }
        }
    }
    for c in &view.cells {
        let centre = at(c.x, c.y);
        if let Some(side) = c.marks.control.or(c.marks.chosen) {
            let tint = pal.side(kind, side);
            let square = egui::Rect::from_center_size(centre, egui::vec2(unit * 0.9, unit * 0.9));
            painter.rect_filled(square, 0.0, colour(tint).gamma_multiply(0.3));
        }
        if let Some(piece) = &c.piece {
            let (fill, text) = pal.piece(kind, piece.owner);
            let (fill, text) = (colour(fill), colour(text));
            painter.circle_filled(centre, unit * 0.4, fill);
            painter.circle_stroke(centre, unit * 0.4, egui::Stroke::new(0.5, colour(pal.line)));
            let label = match piece.shape {
                PieceShape::Stack { height } if height > 1 => height.to_string(),
                PieceShape::Figure { figure, .. } => figure.letter().to_string(),
                _ => String::new(),
            };
            if !label.is_empty() {
                painter.text(centre, egui::Align2::CENTER_CENTER, label, egui::FontId::proportional(unit * 0.5), text);
            }
        }
        if ringed.contains(&c.name.as_str()) {
            painter.circle_stroke(centre, unit * 0.48, egui::Stroke::new(2.0, colour(pal.cursor)));
        }
    }
}
