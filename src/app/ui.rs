//! The look and feel every screen shares: egui widgets (the screen frame, focusable rows, value
//! rows) and the menu focus that keys, gamepad and mouse move alike.

use super::input::{Action, ActionPressed};
use bevy::prelude::*;
use bevy_egui::egui;

/// Width of the side panel beside the board, in logical pixels (the board is laid out in the rest).
pub const PANEL_WIDTH: f32 = 340.0;

pub fn plugin(app: &mut App) {
    app.init_resource::<MenuFocus>();
    app.add_message::<MenuClicked>();
}

/// The focused item of the current menu.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct MenuFocus(pub usize);

/// A mouse click on a menu item: `delta` 0 activates it, ±1 adjusts it (the ◀ ▶ arrows).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MenuClicked {
    pub index: usize,
    pub delta: i32,
}

/// What the player asked of a menu this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuInput {
    Activate(usize),
    Adjust(usize, i32),
    Back,
}

/// Moves `focus` over `len` items and turns actions and clicks into menu inputs.
pub fn read_menu_inputs(
    focus: &mut MenuFocus,
    len: usize,
    actions: &mut MessageReader<ActionPressed>,
    clicks: &mut MessageReader<MenuClicked>,
) -> Vec<MenuInput> {
    let actions: Vec<Action> = actions.read().map(|a| a.0).collect();
    let clicks: Vec<MenuClicked> = clicks.read().copied().collect();
    menu_inputs_from(focus, len, &actions, &clicks)
}

/// `read_menu_inputs` over actions and clicks already read.
pub fn menu_inputs_from(
    focus: &mut MenuFocus,
    len: usize,
    actions: &[Action],
    clicks: &[MenuClicked],
) -> Vec<MenuInput> {
    let mut inputs = Vec::new();
    if len == 0 {
        return inputs;
    }
    focus.0 = focus.0.min(len - 1);
    for action in actions {
        match action {
            Action::Up => focus.0 = (focus.0 + len - 1) % len,
            Action::Down => focus.0 = (focus.0 + 1) % len,
            Action::Left => inputs.push(MenuInput::Adjust(focus.0, -1)),
            Action::Right | Action::CycleOption => inputs.push(MenuInput::Adjust(focus.0, 1)),
            Action::Select | Action::Confirm => inputs.push(MenuInput::Activate(focus.0)),
            Action::Back | Action::Menu => inputs.push(MenuInput::Back),
            _ => {}
        }
    }
    for click in clicks {
        if click.index < len {
            focus.0 = click.index;
            inputs.push(if click.delta == 0 {
                MenuInput::Activate(click.index)
            } else {
                MenuInput::Adjust(click.index, click.delta)
            });
        }
    }
    inputs
}

/// Every screen starts with its first item focused, and the press that opened it is not seen
/// again by the new screen (messages live two frames; a screen's reader starts at the oldest).
pub fn reset_focus(
    mut focus: ResMut<MenuFocus>,
    mut actions: ResMut<Messages<ActionPressed>>,
    mut clicks: ResMut<Messages<MenuClicked>>,
) {
    focus.0 = 0;
    actions.clear();
    clicks.clear();
}

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
