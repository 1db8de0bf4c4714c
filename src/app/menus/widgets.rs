//! Shared egui pieces for the menus: a focusable item row and the screen frame.

use super::MenuClicked;
use bevy::prelude::*;
use bevy_egui::egui;

/// Width of the menu column in points.
pub const MENU_WIDTH: f32 = 520.0;

/// A `Ui` covering the whole window, for panels to be laid out in (egui 0.36 shows panels inside
/// a `Ui`, not directly on the context).
pub fn root_ui(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    root_ui_in(ctx, id, ctx.viewport_rect())
}

/// A root `Ui` over part of the window only, so the rest (the board) keeps its pointer input.
pub fn root_ui_in(ctx: &egui::Context, id: &'static str, rect: egui::Rect) -> egui::Ui {
    egui::Ui::new(ctx.clone(), id.into(), egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(rect))
}

/// A centred column with a big title, as every menu screen uses.
pub fn screen_frame(ctx: &egui::Context, title: &str, subtitle: &str, body: impl FnOnce(&mut egui::Ui)) {
    let mut root = root_ui(ctx, "menu");
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(24.0);
            ui.label(egui::RichText::new(title).size(44.0).strong());
            if !subtitle.is_empty() {
                ui.label(egui::RichText::new(subtitle).size(16.0).weak());
            }
            ui.add_space(16.0);
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.set_max_width(MENU_WIDTH);
                body(ui);
            });
        });
    });
}

/// One menu row: a wide button (activates) with an optional detail line, highlighted when focused.
pub fn item(
    ui: &mut egui::Ui,
    index: usize,
    focused: bool,
    label: &str,
    detail: &str,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    let stroke = if focused {
        egui::Stroke::new(3.0, ui.visuals().selection.stroke.color)
    } else {
        egui::Stroke::new(1.0, ui.visuals().widgets.inactive.bg_stroke.color)
    };
    let mut text = egui::text::LayoutJob::default();
    text.append(
        label,
        0.0,
        egui::TextFormat {
            font_id: egui::FontId::proportional(22.0),
            color: ui.visuals().strong_text_color(),
            ..default()
        },
    );
    if !detail.is_empty() {
        text.append(
            &format!("\n{detail}"),
            0.0,
            egui::TextFormat {
                font_id: egui::FontId::proportional(14.0),
                color: ui.visuals().weak_text_color(),
                ..default()
            },
        );
    }
    text.halign = egui::Align::LEFT;
    text.wrap.max_width = MENU_WIDTH - 24.0;
    let button = egui::Button::new(text).stroke(stroke).min_size(egui::vec2(MENU_WIDTH, 44.0)).selected(focused);
    let response = ui.add(button);
    if response.clicked() {
        clicks.write(MenuClicked { index, delta: 0 });
    }
    follow_focus(&response, index, focused);
    ui.add_space(6.0);
}

/// Scrolls a newly focused row into view, so keys and gamepad reach rows below the fold; only on
/// a change of focus, so the mouse wheel keeps working.
fn follow_focus(response: &egui::Response, index: usize, focused: bool) {
    let id = egui::Id::new("menu-focus-shown");
    let shown = response.ctx.data(|d| d.get_temp::<usize>(id));
    if focused && shown != Some(index) {
        response.scroll_to_me(Some(egui::Align::Center));
        response.ctx.data_mut(|d| d.insert_temp(id, index));
    }
}

/// A menu row with a value and ◀ ▶ arrows to change it.
pub fn value_item(
    ui: &mut egui::Ui,
    index: usize,
    focused: bool,
    label: &str,
    value: &str,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    let frame = egui::Frame::group(ui.style()).stroke(if focused {
        egui::Stroke::new(3.0, ui.visuals().selection.stroke.color)
    } else {
        egui::Stroke::new(1.0, ui.visuals().widgets.inactive.bg_stroke.color)
    });
    let shown = frame.show(ui, |ui| {
        ui.set_width(MENU_WIDTH - 16.0);
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(label).size(20.0));
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button(egui::RichText::new(">").size(20.0)).clicked() {
                    clicks.write(MenuClicked { index, delta: 1 });
                }
                ui.label(egui::RichText::new(value).size(20.0).strong());
                if ui.button(egui::RichText::new("<").size(20.0)).clicked() {
                    clicks.write(MenuClicked { index, delta: -1 });
                }
            });
        });
    });
    follow_focus(&shown.response, index, focused);
    ui.add_space(6.0);
}

/// The key hints line at the bottom of menus.
pub fn key_hints(ui: &mut egui::Ui, text: &str) {
    ui.add_space(12.0);
    ui.label(egui::RichText::new(text).size(13.0).weak());
}
