//! The look and feel every screen shares: egui widgets (the screen frame, focusable rows, value
//! rows) and the menu focus that keys, gamepad and mouse move alike.

use super::fonts::figure_symbols;
use super::input::{Action, ActionPressed, PlayingWith};
use super::theme::{TOUCH, board_palette, egui_rgb, text_size};
use crate::games::GameKind;
use crate::rules::{BoardView, Layout, PieceShape};
use crate::save::Theme;
use bevy::prelude::*;
use bevy_egui::egui;

pub fn plugin(app: &mut App) {
    app.init_resource::<MenuFocus>().init_resource::<ScreenLayout>();
    app.add_message::<MenuClicked>();
    app.add_systems(PreUpdate, follow_the_window);
    app.add_systems(bevy_egui::EguiPrimaryContextPass, tell_egui_the_device);
}

/// Windows at least this wide (logical pixels) keep the desktop's panel width beside the board.
pub const NARROW: f32 = 900.0;

/// The room a portrait panel keeps under the board as long as the board stays at least 45% of
/// the window's height.
const PORTRAIT_PANEL_ROOM: f32 = 360.0;
/// Phone panels shorter than this have one-line player cards.
const SHORT_PANEL: f32 = 420.0;
/// The narrowest and widest panel beside the board.
const SIDE_PANEL: (f32, f32) = (320.0, 380.0);
/// Windows beside whose board the panel is shorter than this lay the panel out as on a phone
/// (a phone turned sideways: 640×360 to 932×430).
const PHONE_PANEL_HEIGHT: f32 = 560.0;

/// Where the board and the side panel go, in logical pixels from the window's top-left corner:
/// in landscape the board fills the height at the left and the panel (320–380 px) is at the
/// right; in portrait and small square windows the board takes the full width at the top and the
/// panel the rest below it.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct ScreenLayout {
    pub window: Vec2,
    /// The panel is laid out as on a phone: the player cards side by side, what to do now, and
    /// tabs over the footer; the rules open as a sheet over the whole screen. Under the board in
    /// portrait, beside it on a phone turned sideways.
    pub phone: bool,
    pub board: Rect,
    pub panel: Rect,
}

impl Default for ScreenLayout {
    fn default() -> Self {
        ScreenLayout::of(Vec2::new(1280.0, 720.0))
    }
}

impl ScreenLayout {
    /// The layout of a window of `size` logical pixels.
    pub fn of(size: Vec2) -> Self {
        let size = size.max(Vec2::new(320.0, 320.0));
        // A desktop window's panel takes 28% of its width; a smaller landscape window's, what a
        // square board leaves.
        let panel_w = if size.x >= NARROW { size.x * 0.28 } else { size.x - size.y }.clamp(SIDE_PANEL.0, SIDE_PANEL.1);
        if size.x >= size.y && size.x - panel_w >= size.y * 0.6 {
            let board = Rect::new(0.0, 0.0, size.x - panel_w, size.y);
            let panel = Rect::new(size.x - panel_w, 0.0, size.x, size.y);
            ScreenLayout { window: size, phone: size.y < PHONE_PANEL_HEIGHT, board, panel }
        } else {
            // A square board as wide as the window, leaving the panel at least 40% of the height;
            // on a short phone (360×640) the board gives way down to 45% of the height, so that
            // the panel keeps the room its commands need (`PORTRAIT_PANEL_ROOM`).
            let board_h = size.x.min(size.y * 0.6).min((size.y - PORTRAIT_PANEL_ROOM).max(size.y * 0.45));
            ScreenLayout {
                window: size,
                phone: true,
                board: Rect::new(0.0, 0.0, size.x, board_h),
                panel: Rect::new(0.0, board_h, size.x, size.y),
            }
        }
    }

    /// A phone panel too short for the usual player cards (a 360×640 phone, or any phone turned
    /// sideways): each card says its side and player on one line, and the counters follow on a
    /// line of their own.
    pub fn short(&self) -> bool {
        self.phone && self.panel.height() < SHORT_PANEL
    }

    /// The board area's centre in world coordinates (the camera looks at the window's centre, y up).
    pub fn board_centre_world(&self) -> Vec2 {
        let c = self.board.center();
        Vec2::new(c.x - self.window.x / 2.0, self.window.y / 2.0 - c.y)
    }

    /// The panel's area for egui.
    pub fn panel_rect(&self) -> egui::Rect {
        egui::Rect::from_min_max(
            egui::pos2(self.panel.min.x, self.panel.min.y),
            egui::pos2(self.panel.max.x, self.panel.max.y),
        )
    }
}

/// The layout follows the window's logical size (headless apps keep the default).
fn follow_the_window(windows: Query<&Window>, mut layout: ResMut<ScreenLayout>) {
    if let Some(w) = windows.iter().next() {
        layout.set_if_neq(ScreenLayout::of(Vec2::new(w.width(), w.height())));
    }
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

/// A `Ui` covering the whole window, for panels to be laid out in (egui 0.36 shows panels inside
/// a `Ui`, not directly on the context).
pub fn root_ui(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    root_ui_in(ctx, id, ctx.viewport_rect())
}

/// A root `Ui` over part of the window only, so the rest (the board) keeps its pointer input.
pub fn root_ui_in(ctx: &egui::Context, id: &'static str, rect: egui::Rect) -> egui::Ui {
    egui::Ui::new(ctx.clone(), id.into(), egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(rect))
}

/// The width of the menus' column: 560 logical pixels, less on a narrow window.
pub fn menu_width(ctx: &egui::Context) -> f32 {
    (ctx.viewport_rect().width() - 24.0).clamp(280.0, 560.0)
}

/// A centred column with a big title, as every menu screen uses; it scrolls when the window is
/// short, and narrows (with a smaller title) when the window is narrow.
pub fn screen_frame(ctx: &egui::Context, title: &str, subtitle: &str, body: impl FnOnce(&mut egui::Ui)) {
    screen_frame_of_width(ctx, menu_width(ctx), title, subtitle, body);
}

/// [`screen_frame`] with a column of `width` (a screen laid out in two columns is wider).
pub fn screen_frame_of_width(
    ctx: &egui::Context,
    width: f32,
    title: &str,
    subtitle: &str,
    body: impl FnOnce(&mut egui::Ui),
) {
    let mut root = root_ui(ctx, "menu");
    egui::CentralPanel::default().show(&mut root, |ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.set_max_width(width);
                ui.add_space(16.0);
                let size = text_size::TITLE.min(width / 9.0).max(text_size::HEADING);
                ui.label(egui::RichText::new(title).size(size).strong());
                if !subtitle.is_empty() {
                    ui.label(egui::RichText::new(subtitle).size(text_size::BODY).weak());
                }
                ui.add_space(12.0);
                body(ui);
                ui.add_space(16.0);
            });
        });
    });
}

/// A card: rounded, filled, outlined; the focused one in the accent colour.
pub fn card(ui: &egui::Ui, focused: bool) -> egui::Frame {
    let visuals = ui.visuals();
    let stroke = if focused {
        egui::Stroke::new(2.5, visuals.selection.stroke.color)
    } else {
        egui::Stroke::new(1.0, visuals.widgets.inactive.bg_stroke.color)
    };
    egui::Frame::new()
        .fill(visuals.window_fill)
        .stroke(stroke)
        .corner_radius(egui::CornerRadius::same(10))
        .inner_margin(egui::Margin::symmetric(12, 10))
}

/// A label and, under it, a detail line in the weak colour.
fn label_and_detail(ui: &mut egui::Ui, label: &str, detail: &str) {
    ui.vertical(|ui| {
        ui.label(egui::RichText::new(label).size(20.0).strong());
        if !detail.is_empty() {
            ui.label(egui::RichText::new(detail).size(text_size::SMALL).weak());
        }
    });
}

/// Makes a card clickable as a whole (at least `TOUCH` high); a click or tap activates item `index`.
fn clickable_card(
    ui: &mut egui::Ui,
    index: usize,
    focused: bool,
    clicks: &mut MessageWriter<MenuClicked>,
    contents: impl FnOnce(&mut egui::Ui),
) -> egui::Response {
    let shown = card(ui, focused).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.set_min_height(TOUCH - 20.0);
        contents(ui);
    });
    let response = ui.interact(shown.response.rect, egui::Id::new(("menu-item", index)), egui::Sense::click());
    // The pointer over a card that has not the focus: a grey edge and a faint shade, not the
    // focus's coloured frame (a playtest saw two cards "selected" at once).
    if response.hovered() && !focused {
        let painter = ui.painter();
        painter.rect_filled(shown.response.rect, egui::CornerRadius::same(10), egui::Color32::from_black_alpha(8));
        painter.rect_stroke(
            shown.response.rect,
            egui::CornerRadius::same(10),
            egui::Stroke::new(1.5, ui.visuals().weak_text_color()),
            egui::StrokeKind::Inside,
        );
    }
    if response.clicked() {
        clicks.write(MenuClicked { index, delta: 0 });
    }
    follow_focus(&response, index, focused);
    ui.add_space(4.0);
    response
}

/// One menu row: a card (activates) with an optional detail line, outlined when focused.
pub fn item(
    ui: &mut egui::Ui,
    index: usize,
    focused: bool,
    label: &str,
    detail: &str,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    clickable_card(ui, index, focused, clicks, |ui| label_and_detail(ui, label, detail));
}

/// A menu row with a small picture at its left (a game's board on the title screen).
pub fn item_with_picture(
    ui: &mut egui::Ui,
    index: usize,
    focused: bool,
    (label, detail): (&str, &str),
    picture: impl FnOnce(&mut egui::Ui),
    clicks: &mut MessageWriter<MenuClicked>,
) {
    clickable_card(ui, index, focused, clicks, |ui| {
        ui.horizontal(|ui| {
            picture(ui);
            ui.add_space(8.0);
            ui.with_layout(egui::Layout::top_down(egui::Align::LEFT), |ui| label_and_detail(ui, label, detail));
        });
    });
}

/// Scrolls a newly focused row into view, so keys and gamepad reach rows below the fold; only on
/// a change of focus, so the mouse wheel keeps working, and not when the pointer focused it (the
/// row is in view, and moving it would put the next click on another row).
pub fn follow_focus(response: &egui::Response, index: usize, focused: bool) {
    let id = egui::Id::new("menu-focus-shown");
    let shown = response.ctx.data(|d| d.get_temp::<usize>(id));
    if focused && shown != Some(index) {
        if !response.contains_pointer() {
            response.scroll_to_me(Some(egui::Align::Center));
        }
        response.ctx.data_mut(|d| d.insert_temp(id, index));
    }
}

/// A square button a finger can hit (◀, ▶, −, +).
fn step_button(ui: &mut egui::Ui, text: &str) -> bool {
    ui.add(egui::Button::new(egui::RichText::new(text).size(20.0)).min_size(egui::vec2(TOUCH, TOUCH))).clicked()
}

/// A card as wide as the column, its contents left-aligned (menus are centred columns).
pub fn card_row<R>(
    ui: &mut egui::Ui,
    focused: bool,
    contents: impl FnOnce(&mut egui::Ui) -> R,
) -> egui::InnerResponse<R> {
    card(ui, focused).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.with_layout(egui::Layout::top_down(egui::Align::LEFT), contents).inner
    })
}

/// A menu row with a value and ◀ ▶ buttons to change it; `help` explains the option in one line,
/// and `picture` (if any) shows the chosen value (a board).
#[allow(clippy::too_many_arguments)] // a row: its place, its words, its value and what it draws
pub fn value_item(
    ui: &mut egui::Ui,
    index: usize,
    focused: bool,
    (label, help): (&str, &str),
    value: &str,
    picture: Option<&dyn Fn(&mut egui::Ui)>,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    let shown = card_row(ui, focused, |ui| {
        ui.label(egui::RichText::new(label).size(18.0).strong());
        ui.horizontal(|ui| {
            if step_button(ui, "◀") {
                clicks.write(MenuClicked { index, delta: -1 });
            }
            if step_button(ui, "▶") {
                clicks.write(MenuClicked { index, delta: 1 });
            }
            ui.add(egui::Label::new(egui::RichText::new(value).size(17.0).strong()).wrap());
        });
        if let Some(picture) = picture {
            ui.vertical_centered(|ui| picture(ui));
        }
        if !help.is_empty() {
            ui.label(egui::RichText::new(help).size(text_size::SMALL).weak());
        }
    });
    follow_focus(&shown.response, index, focused);
    ui.add_space(4.0);
}

/// A menu row for a whole number: − and + buttons, a field that takes typing, and a slider, so
/// any value is a few presses or one drag away. Returns the new value when it changed here.
#[allow(clippy::too_many_arguments)] // a row: its place, its words, its value and its range
pub fn number_item(
    ui: &mut egui::Ui,
    index: usize,
    focused: bool,
    (label, help): (&str, &str),
    value: i64,
    (min, max): (i64, i64),
    clicks: &mut MessageWriter<MenuClicked>,
) -> Option<i64> {
    let mut edited = value;
    let shown = card_row(ui, focused, |ui| {
        ui.label(egui::RichText::new(label).size(18.0).strong());
        ui.horizontal(|ui| {
            if step_button(ui, "−") {
                clicks.write(MenuClicked { index, delta: -1 });
            }
            ui.add_sized(egui::vec2(64.0, TOUCH), egui::DragValue::new(&mut edited).range(min..=max).speed(0.2));
            if step_button(ui, "+") {
                clicks.write(MenuClicked { index, delta: 1 });
            }
        });
        if max - min > 4 {
            ui.spacing_mut().slider_width = (ui.available_width() - 20.0).max(80.0);
            // Over a wide range (Inchworm's points to win go to a million) a linear slider puts
            // every sensible value under its first pixel; a logarithmic one spreads them out.
            let wide = max - min > 1_000;
            ui.add(egui::Slider::new(&mut edited, min..=max).show_value(false).logarithmic(wide));
        }
        if !help.is_empty() {
            ui.label(egui::RichText::new(help).size(text_size::SMALL).weak());
        }
    });
    follow_focus(&shown.response, index, focused);
    ui.add_space(4.0);
    (edited != value).then_some(edited)
}

/// Whether the player plays by touch (egui has seen a touch): keys are not worth naming then.
pub fn by_touch(ui: &egui::Ui) -> bool {
    ui.ctx().input(|i| i.has_touch_screen()) || coarse_pointer()
}

/// A browser whose main pointer is a finger (a phone, a tablet): it plays by touch from the first
/// screen on, before any touch has reached the app.
#[cfg(target_arch = "wasm32")]
fn coarse_pointer() -> bool {
    static COARSE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *COARSE.get_or_init(|| {
        web_sys::window()
            .and_then(|w| w.match_media("(pointer: coarse)").ok().flatten())
            .is_some_and(|query| query.matches())
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn coarse_pointer() -> bool {
    false
}

/// Where egui's context keeps [`PlayingWith`] for the widgets, which see no resources.
fn device_id() -> egui::Id {
    egui::Id::new("stoneyard playing with")
}

/// Gives the widgets the device in use (one frame late, which nobody sees).
fn tell_egui_the_device(mut contexts: bevy_egui::EguiContexts, device: Res<PlayingWith>) {
    if let Ok(ctx) = contexts.ctx_mut() {
        ctx.data_mut(|d| d.insert_temp(device_id(), *device));
    }
}

/// The device whose controls the screens name now: `None` for a player who plays by touch.
pub fn playing_with(ui: &egui::Ui) -> Option<PlayingWith> {
    if by_touch(ui) {
        return None;
    }
    Some(ui.ctx().data(|d| d.get_temp(device_id())).unwrap_or_default())
}

/// A button's label with its key ("Hint (Q)") at the keyboard; without it by touch or with a
/// gamepad (whose buttons the menus' hint lines name).
pub fn with_key(ui: &egui::Ui, label: &str, key: &str) -> String {
    match playing_with(ui) {
        Some(PlayingWith::Keyboard) => format!("{label} ({key})"),
        _ => label.to_string(),
    }
}

/// One control in a hint line: the keyboard's keys, the gamepad's (`""`: none) and what it does.
pub type Control<'a> = (&'a str, &'a str, &'a str);

/// A menu's controls: move the focus, choose, back.
pub const MENU_CONTROLS: &[Control] = &[("Arrows", "D-pad", "choose"), ("Enter", "A", "select"), ("Esc", "B", "back")];
/// A menu of options: move the focus, change the focused option, choose, back.
pub const OPTION_CONTROLS: &[Control] = &[
    ("Up/Down", "D-pad up/down", "choose"),
    ("Left/Right", "D-pad left/right", "change"),
    ("Enter", "A", "select"),
    ("Esc", "B", "back"),
];

/// A hint line's words for `device`: "Enter: select · Esc: back", or "A: select · B: back".
pub fn controls_words(device: PlayingWith, controls: &[Control]) -> String {
    let words: Vec<String> = controls
        .iter()
        .filter_map(|&(keys, pad, what)| {
            let named = if device == PlayingWith::Gamepad { pad } else { keys };
            (!named.is_empty()).then(|| format!("{named}: {what}"))
        })
        .collect();
    words.join(" · ")
}

/// The controls line at the bottom of menus, for the device in use (none by touch).
pub fn key_hints(ui: &mut egui::Ui, controls: &[Control]) {
    let Some(device) = playing_with(ui) else { return };
    ui.add_space(8.0);
    ui.label(egui::RichText::new(controls_words(device, controls)).size(text_size::SMALL).weak());
}

/// A button of the one style, at least `TOUCH` high.
pub fn button(ui: &mut egui::Ui, text: &str) -> egui::Response {
    ui.add(egui::Button::new(egui::RichText::new(text).size(text_size::BUTTON)).min_size(egui::vec2(0.0, TOUCH - 6.0)))
}

/// The same button, greyed out and inert when `enabled` is false.
pub fn button_if(ui: &mut egui::Ui, enabled: bool, text: &str) -> egui::Response {
    ui.add_enabled(
        enabled,
        egui::Button::new(egui::RichText::new(text).size(text_size::BUTTON)).min_size(egui::vec2(0.0, TOUCH - 6.0)),
    )
}

/// Draws a board view small in egui (the title's game cards, the setup's board choices, the rules'
/// illustrations): the wood, lines or squares, control tint, burned squares and pieces in the
/// theme's colours, with the spaces in `ringed` circled (the move about to be played).
pub fn paint_board(ui: &mut egui::Ui, view: &BoardView, kind: GameKind, theme: Theme, side: f32, ringed: &[&str]) {
    paint(ui, view, kind, theme, side, ringed, false);
}

/// The same picture with the names a rule's words use: files and ranks along the edges of a grid,
/// the ringed spaces' own names on a lattice (whose lines run three ways).
pub fn paint_named_board(
    ui: &mut egui::Ui,
    view: &BoardView,
    kind: GameKind,
    theme: Theme,
    side: f32,
    ringed: &[&str],
) {
    paint(ui, view, kind, theme, side, ringed, true);
}

fn paint(ui: &mut egui::Ui, view: &BoardView, kind: GameKind, theme: Theme, side: f32, ringed: &[&str], named: bool) {
    let pal = board_palette(theme);
    let (response, painter) = ui.allocate_painter(egui::vec2(side, side), egui::Sense::hover());
    let area = response.rect;
    let (x0, y0, x1, y1) = view.bounds();
    // A little more than a unit of margin, so edge stones stay whole inside the picture; a grid's
    // names need a unit more on the left and below.
    let names_room = if named && !matches!(view.layout, Layout::Lattice { .. }) { 1.0 } else { 0.0 };
    let unit = (side / (x1 - x0 + 1.3 + names_room)).min(side / (y1 - y0 + 1.3 + names_room));
    let centre = egui::pos2((x0 + x1 - names_room) / 2.0, (y0 + y1 - names_room) / 2.0);
    // Board units (y up) → screen (y down), centred in the picture (with the names).
    let at = |x: f32, y: f32| area.center() + egui::vec2((x - centre.x) * unit, (centre.y - y) * unit);
    painter.rect_filled(area, 6.0, egui_rgb(pal.wood_light));
    painter.rect_stroke(area, 6.0, egui::Stroke::new(2.0, egui_rgb(pal.rim)), egui::StrokeKind::Inside);
    let line = egui::Stroke::new(1.0, egui_rgb(pal.line).gamma_multiply(0.7));
    match &view.layout {
        Layout::Squares { .. } => {
            for c in &view.cells {
                let dark = (c.x.round() as i32 + c.y.round() as i32).rem_euclid(2) == 0;
                let fill = if c.marks.burned {
                    pal.burned
                } else if dark {
                    [0, 1, 2].map(|i| (pal.wood_light[i] as u32 * pal.square_dark[i] as u32 / 255) as u8)
                } else {
                    pal.wood_light
                };
                let square = egui::Rect::from_center_size(at(c.x, c.y), egui::vec2(unit, unit));
                painter.rect_filled(square, 0.0, egui_rgb(fill));
            }
        }
        Layout::Points { width, height } => {
            for f in 0..*width {
                painter.line_segment([at(f as f32, y0), at(f as f32, y1)], line);
            }
            for r in 0..*height {
                painter.line_segment([at(x0, r as f32), at(x1, r as f32)], line);
            }
        }
        Layout::Lattice { lines } => {
            for &(a, b) in lines {
                let (a, b) = (&view.cells[a as usize], &view.cells[b as usize]);
                painter.line_segment([at(a.x, a.y), at(b.x, b.y)], line);
            }
        }
    }
    for c in &view.cells {
        let centre = at(c.x, c.y);
        if let Some(side) = c.marks.control.or(c.marks.chosen) {
            let square = egui::Rect::from_center_size(centre, egui::vec2(unit * 0.9, unit * 0.9));
            painter.rect_filled(square, 0.0, egui_rgb(pal.side(kind, side)).gamma_multiply(0.3));
        }
        if let Some(piece) = &c.piece {
            let (fill, text) = pal.piece(kind, piece.owner);
            let r = unit * 0.44;
            if let (PieceShape::Figure { figure, .. }, Some(owner)) = (piece.shape, piece.owner) {
                let (fill, text) = pal.figure(kind.tone(owner));
                let (filled, outlined) = figure_symbols(figure);
                let font = egui::FontId::proportional(unit * 0.85);
                painter.text(centre, egui::Align2::CENTER_CENTER, filled, font.clone(), egui_rgb(fill));
                painter.text(centre, egui::Align2::CENTER_CENTER, outlined, font, egui_rgb(text));
                continue;
            }
            painter.circle_filled(centre + egui::vec2(r * 0.1, r * 0.12), r, egui::Color32::from_black_alpha(60));
            painter.circle_filled(centre, r, egui_rgb(fill));
            painter.circle_stroke(centre, r, egui::Stroke::new(1.0, egui_rgb(fill).gamma_multiply(0.6)));
            if let PieceShape::Stack { height } = piece.shape
                && height > 1
            {
                let font = egui::FontId::proportional(unit * 0.5);
                painter.text(centre, egui::Align2::CENTER_CENTER, height.to_string(), font, egui_rgb(text));
            }
        }
        if ringed.contains(&c.name.as_str()) {
            painter.circle_stroke(centre, unit * 0.5, egui::Stroke::new(2.0, egui_rgb(pal.cursor)));
        }
    }
    if named {
        paint_names(&painter, view, unit, &at, ringed, egui_rgb(pal.line));
    }
}

/// The names of `paint_named_board`, in the board's line colour.
fn paint_names(
    painter: &egui::Painter,
    view: &BoardView,
    unit: f32,
    at: &dyn Fn(f32, f32) -> egui::Pos2,
    ringed: &[&str],
    colour: egui::Color32,
) {
    let (x0, y0, _, _) = view.bounds();
    let font = egui::FontId::proportional((unit * 0.42).clamp(9.0, 13.0));
    if let Layout::Lattice { .. } = view.layout {
        for c in view.cells.iter().filter(|c| ringed.contains(&c.name.as_str())) {
            let corner = at(c.x, c.y) + egui::vec2(unit * 0.45, -unit * 0.45);
            painter.text(corner, egui::Align2::LEFT_BOTTOM, &c.name, font.clone(), colour);
        }
        return;
    }
    let file = |name: &str| name.trim_end_matches(|ch: char| ch.is_ascii_digit()).to_string();
    let rank = |name: &str| name.trim_start_matches(|ch: char| !ch.is_ascii_digit()).to_string();
    for c in &view.cells {
        if (c.y - y0).abs() < 0.01 {
            painter.text(at(c.x, y0 - 0.95), egui::Align2::CENTER_CENTER, file(&c.name), font.clone(), colour);
        }
        if (c.x - x0).abs() < 0.01 {
            painter.text(at(x0 - 0.95, c.y), egui::Align2::CENTER_CENTER, rank(&c.name), font.clone(), colour);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_line_names_the_controls_of_the_device_in_use_only() {
        assert_eq!(controls_words(PlayingWith::Keyboard, MENU_CONTROLS), "Arrows: choose · Enter: select · Esc: back");
        assert_eq!(controls_words(PlayingWith::Gamepad, MENU_CONTROLS), "D-pad: choose · A: select · B: back");
        // A control the gamepad does not have is left out of its line.
        let keys_only = [("Enter on a control", "", "new key"), ("Esc", "B", "back")];
        assert_eq!(controls_words(PlayingWith::Gamepad, &keys_only), "B: back");
    }

    #[test]
    fn a_short_phone_s_board_gives_way_to_the_panel() {
        let phone = ScreenLayout::of(Vec2::new(390.0, 844.0));
        assert!(phone.phone && !phone.short());
        assert_eq!(phone.board.height(), 390.0, "a tall phone's board is as wide as the screen");
        let small = ScreenLayout::of(Vec2::new(360.0, 640.0));
        assert!(small.short());
        assert_eq!(small.board.height(), 640.0 * 0.45, "the board keeps 45% of the height");
        assert_eq!(small.panel.min.y, small.board.max.y);
        assert!(small.panel.height() >= 350.0, "{:?}", small.panel);
        let desktop = ScreenLayout::of(Vec2::new(1280.0, 720.0));
        assert!(!desktop.phone && !desktop.short());
        assert!((desktop.panel.width() - 1280.0 * 0.28).abs() < 0.01, "{desktop:?}");
    }

    #[test]
    fn a_phone_turned_sideways_has_its_board_beside_a_phone_panel() {
        for (w, h) in [(640.0, 360.0), (844.0, 390.0), (915.0, 412.0)] {
            let sideways = ScreenLayout::of(Vec2::new(w, h));
            assert!(sideways.phone && sideways.short(), "{w}×{h}: {sideways:?}");
            assert_eq!(sideways.board.height(), h, "{w}×{h}: the board takes the whole height");
            assert_eq!(sideways.panel.min.x, sideways.board.max.x);
            assert!(sideways.board.width() >= h * 0.85, "{w}×{h}: {sideways:?}");
            assert!(sideways.panel.width() >= 320.0, "{w}×{h}: {sideways:?}");
        }
        // A small desktop window keeps the desktop's panel beside the board.
        let window = ScreenLayout::of(Vec2::new(800.0, 600.0));
        assert!(!window.phone && window.panel.min.x == window.board.max.x, "{window:?}");
    }
}
