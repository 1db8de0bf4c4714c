//! Touch on the board, and zoom for big boards on small screens.
//!
//! A tap chooses the space under the finger and a drag from a piece onto another space moves it
//! (read here from the touch events rather than through picking, which misses a tap whose touch
//! starts and ends within one frame). A 19×19 board on a phone has spaces smaller than a
//! fingertip, so boards with small spaces zoom: pinch with two fingers (which also pans), the
//! mouse wheel over the board, or the "+" and "−" buttons at the board's corner; a zoomed board
//! pans by dragging from an empty space. The camera does the zooming, so picking, the choice
//! menus and the page mirror follow it; the cursor moved by keys or gamepad is kept in view.
//! Taps made during a pinch or a pan choose nothing.

use super::piece_drag::PieceDrag;
use super::project::BoardState;
use crate::app::AppSystems;
use crate::app::input::{Action, ActionPressed};
use crate::app::match_state::CurrentMatch;
use crate::app::playing::{BoardCursor, CellChosen, DragChosen};
use crate::app::screen::Screen;
use crate::app::theme::TOUCH;
use crate::app::ui::{ScreenLayout, button_if};
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::input::touch::{TouchInput, TouchPhase, Touches};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Spaces are zoomed up to this size (logical pixels), a comfortable fingertip.
const COMFORTABLE: f32 = 1.4 * TOUCH;
/// The most the board is ever magnified.
const MOST: f32 = 4.0;
/// Taps this soon after a pinch ended are the pinch's fingers lifting, not choices.
const AFTER_PINCH_S: f32 = 0.3;

/// How the board is magnified: `factor` times, showing world point `centre` in the middle of the
/// layout's board area.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct BoardZoom {
    pub factor: f32,
    pub centre: Vec2,
    /// The largest useful factor for this board and window (1 when the spaces are big enough).
    pub most: f32,
}

impl Default for BoardZoom {
    fn default() -> Self {
        BoardZoom { factor: 1.0, centre: Vec2::ZERO, most: 1.0 }
    }
}

impl BoardZoom {
    /// Whether zooming is worth offering.
    pub fn offered(&self) -> bool {
        self.most > 1.05
    }

    /// The camera's position for this zoom (world point `c` such that world point `w` shows at
    /// `(w - c) * factor` from the window's centre).
    fn camera_at(&self, layout: &ScreenLayout) -> Vec2 {
        self.centre - layout.board_centre_world() / self.factor
    }

    /// Where world point `world` shows on the window (logical pixels, y down).
    pub fn window_of(&self, layout: &ScreenLayout, world: Vec2) -> Vec2 {
        let offset = (world - self.camera_at(layout)) * self.factor;
        Vec2::new(offset.x + layout.window.x / 2.0, layout.window.y / 2.0 - offset.y)
    }

    /// The world point under a window position (logical pixels, y down).
    pub(super) fn world_at(&self, layout: &ScreenLayout, window: Vec2) -> Vec2 {
        let offset = Vec2::new(window.x - layout.window.x / 2.0, layout.window.y / 2.0 - window.y);
        self.camera_at(layout) + offset / self.factor
    }

    /// Changes the factor keeping world point `world` at window position `window`.
    fn zoom_keeping(&mut self, layout: &ScreenLayout, factor: f32, world: Vec2, window: Vec2) {
        self.factor = factor.clamp(1.0, self.most.max(1.0));
        let offset = Vec2::new(window.x - layout.window.x / 2.0, layout.window.y / 2.0 - window.y);
        let camera = world - offset / self.factor;
        self.centre = camera + layout.board_centre_world() / self.factor;
    }

    /// Keeps the view on the board: the centre moves no further than shows the board's edge at
    /// the board area's edge.
    fn clamp(&mut self, layout: &ScreenLayout, board_half: Vec2) {
        let middle = layout.board_centre_world();
        let visible_half = layout.board.size() / 2.0 / self.factor;
        let room = (board_half - visible_half).max(Vec2::ZERO);
        self.centre = self.centre.clamp(middle - room, middle + room);
    }
}

/// A pinch or a pan under way, or just over.
#[derive(Resource, Default)]
struct Gesture {
    pinching: bool,
    /// A one-finger (or mouse) drag from an empty space: where the pointer was last frame, and
    /// whether it has moved far enough to be a pan rather than a tap.
    pan: Option<(Vec2, bool)>,
    ended: Option<web_time::Instant>,
}

impl Gesture {
    fn holds_taps(&self) -> bool {
        self.pinching
            || self.pan.is_some_and(|(_, moved)| moved)
            || self.ended.is_some_and(|t| t.elapsed().as_secs_f32() < AFTER_PINCH_S)
    }
}

/// A pointer moving less than this is tapping, not panning.
const PAN_SLOP: f32 = 8.0;

/// A press of the zoom buttons: the factor to multiply the zoom by.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
struct ZoomStep(f32);

pub fn plugin(app: &mut App) {
    app.init_resource::<BoardZoom>().init_resource::<Gesture>().add_message::<ZoomStep>();
    app.add_systems(OnExit(Screen::Playing), |mut zoom: ResMut<BoardZoom>| *zoom = BoardZoom::default());
    app.add_systems(
        Update,
        (
            (pinch, pan, hold_taps_during_gestures, taps_and_drags)
                .chain()
                .in_set(AppSystems::RecordInput)
                .run_if(pointer_devices),
            (fit_zoom, (wheel.run_if(pointer_devices), step, follow_cursor), keep_on_board, move_camera)
                .chain()
                .in_set(AppSystems::Present),
        ),
    );
    app.add_systems(EguiPrimaryContextPass, zoom_buttons.run_if(in_state(Screen::Playing)));
}

/// Whether the app reads pointers and touches and draws egui (headless tests do neither).
fn pointer_devices(touches: Option<Res<Touches>>, egui: Option<Res<bevy_egui::EguiUserTextures>>) -> bool {
    touches.is_some() && egui.is_some()
}

/// Half the board's drawn size in world pixels.
fn board_half(state: &BoardState) -> Vec2 {
    state.view.as_ref().map_or(Vec2::ZERO, |view| {
        let (x0, y0, x1, y1) = view.drawn_bounds();
        Vec2::new(x1 - x0 + 1.0, y1 - y0 + 1.0) * state.scale / 2.0
    })
}

/// The largest useful factor follows the size of the board's spaces (a smaller one clamps the zoom;
/// leaving the game resets it).
fn fit_zoom(state: Res<BoardState>, mut zoom: ResMut<BoardZoom>, layout: Res<ScreenLayout>) {
    if !state.is_changed() && !layout.is_changed() {
        return;
    }
    // Spaces of 35 pixels and more take a fingertip well enough (Gravel's 8×8 on a phone).
    let small = state.view.is_some() && state.scale < 0.8 * TOUCH;
    let most = if small { (COMFORTABLE / state.scale.max(1.0)).clamp(1.0, MOST) } else { 1.0 };
    if (most - zoom.most).abs() > f32::EPSILON {
        *zoom = BoardZoom { factor: zoom.factor.min(most), centre: zoom.centre, most };
    }
}

/// Two fingers on the board: their spread zooms, their middle pans.
fn pinch(
    touches: Option<Res<Touches>>,
    layout: Res<ScreenLayout>,
    mut zoom: ResMut<BoardZoom>,
    mut gesture: ResMut<Gesture>,
    screen: Res<State<Screen>>,
) {
    let Some(touches) = touches else { return };
    let fingers: Vec<_> = touches.iter().collect();
    if fingers.len() != 2 || *screen.get() != Screen::Playing {
        if gesture.pinching && fingers.len() < 2 {
            gesture.pinching = false;
            gesture.ended = Some(web_time::Instant::now());
        }
        return;
    }
    let (a, b) = (fingers[0], fingers[1]);
    let (before, now) = ((a.previous_position() + b.previous_position()) / 2.0, (a.position() + b.position()) / 2.0);
    if !gesture.pinching && !layout.board.contains(before) {
        return;
    }
    gesture.pinching = true;
    gesture.pan = None;
    let spread_before = a.previous_position().distance(b.previous_position()).max(1.0);
    let spread_now = a.position().distance(b.position()).max(1.0);
    if !zoom.offered() || (spread_now == spread_before && now == before) {
        return;
    }
    let held = zoom.world_at(&layout, before);
    let factor = zoom.factor * spread_now / spread_before;
    zoom.zoom_keeping(&layout, factor, held, now);
}

/// One finger or the mouse dragged from an empty space of a zoomed board moves the view.
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn pan(
    touches: Option<Res<Touches>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    windows: Query<&Window>,
    mut contexts: EguiContexts,
    layout: Res<ScreenLayout>,
    state: Res<BoardState>,
    mut zoom: ResMut<BoardZoom>,
    mut gesture: ResMut<Gesture>,
) {
    let touch = touches.as_ref().filter(|t| t.iter().count() == 1).and_then(|t| t.iter().next().map(|f| f.position()));
    let held = touch.or_else(|| {
        mouse.as_ref().filter(|m| m.pressed(MouseButton::Left))?;
        windows.iter().find_map(Window::cursor_position)
    });
    let Some(at) = held.filter(|_| !gesture.pinching) else {
        if gesture.pan.take().is_some_and(|(_, moved)| moved) {
            gesture.ended = Some(web_time::Instant::now());
        }
        return;
    };
    match gesture.pan {
        None => {
            let over_egui = over_egui_window(&mut contexts, at);
            let pressed_now = touches.as_ref().is_some_and(|t| t.any_just_pressed())
                || mouse.as_ref().is_some_and(|m| m.just_pressed(MouseButton::Left));
            if pressed_now
                && zoom.factor > 1.0
                && !over_egui
                && layout.board.contains(at)
                && !piece_under(&state, &layout, zoom.world_at(&layout, at))
            {
                gesture.pan = Some((at, false));
            }
        }
        Some((last, moved)) => {
            let moved = moved || at.distance(last) > PAN_SLOP;
            if moved {
                let delta = at - last;
                let factor = zoom.factor;
                zoom.centre -= Vec2::new(delta.x, -delta.y) / factor;
                gesture.pan = Some((at, true));
            }
        }
    }
}

/// Whether an egui window lies over window position `at` (the zoom buttons, a choice menu, the
/// game-over card). The panel's background layer spans the whole window, so it does not count:
/// the board area is outside the panel anyway.
pub(super) fn over_egui_window(contexts: &mut EguiContexts, at: Vec2) -> bool {
    contexts.ctx_mut().is_ok_and(|ctx| {
        ctx.layer_id_at(egui::pos2(at.x, at.y)).is_some_and(|layer| layer.order != egui::Order::Background)
    })
}

/// The space under world point `world` (its index in the board view), if any.
fn space_at(state: &BoardState, layout: &ScreenLayout, world: Vec2) -> Option<usize> {
    let view = state.view.as_ref()?;
    let local = world - layout.board_centre_world();
    let distance = |i: usize| state.to_world(view.cells[i].x, view.cells[i].y).distance(local);
    (0..view.cells.len())
        .filter(|&i| distance(i) < state.scale * 0.6)
        .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
}

/// Whether a piece stands on the space under world point `world`.
fn piece_under(state: &BoardState, layout: &ScreenLayout, world: Vec2) -> bool {
    space_at(state, layout, world).is_some_and(|i| state.pieces.get(i).is_some_and(Option::is_some))
}

/// A finger lifted where it went down taps that space; lifted elsewhere after starting on a piece,
/// it drags the piece there. Touches that start on the panel or a menu are egui's.
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn taps_and_drags(
    mut touches: MessageReader<TouchInput>,
    mut starts: Local<Vec<(u64, Vec2)>>,
    mut contexts: EguiContexts,
    layout: Res<ScreenLayout>,
    state: Res<BoardState>,
    zoom: Res<BoardZoom>,
    gesture: Res<Gesture>,
    screen: Res<State<Screen>>,
    mut cells: MessageWriter<CellChosen>,
    mut drags: MessageWriter<DragChosen>,
    (mut dragged, current, time): (ResMut<PieceDrag>, Option<Res<CurrentMatch>>, Res<Time>),
) {
    for touch in touches.read() {
        let ours = dragged.touch == Some(touch.id) && dragged.released.is_none();
        match touch.phase {
            TouchPhase::Started
                if *screen.get() == Screen::Playing
                    && layout.board.contains(touch.position)
                    && !over_egui_window(&mut contexts, touch.position) =>
            {
                starts.push((touch.id, touch.position));
                let world = zoom.world_at(&layout, touch.position);
                if piece_under(&state, &layout, world) && dragged.from.is_none() {
                    let from = space_at(&state, &layout, world);
                    let at = touch.position;
                    *dragged = PieceDrag { from, grab: at, pointer: at, touch: Some(touch.id), released: None };
                }
            }
            TouchPhase::Moved if ours && !gesture.holds_taps() => dragged.pointer = touch.position,
            TouchPhase::Moved => {}
            TouchPhase::Ended | TouchPhase::Canceled if ours => {
                dragged.let_go(time.elapsed_secs(), current.as_deref());
            }
            _ => {}
        }
        match touch.phase {
            TouchPhase::Started | TouchPhase::Moved => {}
            TouchPhase::Ended => {
                let Some(k) = starts.iter().position(|(id, _)| *id == touch.id) else { continue };
                let (_, start) = starts.swap_remove(k);
                if gesture.holds_taps() {
                    continue;
                }
                let name = |at: Vec2| {
                    let i = space_at(&state, &layout, zoom.world_at(&layout, at))?;
                    Some(state.view.as_ref()?.cells[i].name.clone())
                };
                let (Some(from), Some(to)) = (name(start), name(touch.position)) else { continue };
                if touch.position.distance(start) <= PAN_SLOP || from == to {
                    cells.write(CellChosen(to));
                } else if piece_under(&state, &layout, zoom.world_at(&layout, start)) {
                    drags.write(DragChosen { from, to });
                }
            }
            TouchPhase::Canceled => starts.retain(|(id, _)| *id != touch.id),
        }
    }
}

/// Taps and drags made with a pinch's or a pan's fingers choose nothing.
fn hold_taps_during_gestures(
    gesture: Res<Gesture>,
    mut cells: ResMut<Messages<CellChosen>>,
    mut drags: ResMut<Messages<DragChosen>>,
) {
    if gesture.holds_taps() {
        cells.clear();
        drags.clear();
    }
}

/// The mouse wheel over the board zooms around the pointer.
fn wheel(
    mut wheels: MessageReader<MouseWheel>,
    windows: Query<&Window>,
    layout: Res<ScreenLayout>,
    mut contexts: EguiContexts,
    mut zoom: ResMut<BoardZoom>,
) {
    let lines: f32 = wheels
        .read()
        .map(|w| match w.unit {
            MouseScrollUnit::Line => w.y,
            MouseScrollUnit::Pixel => w.y / 40.0,
        })
        .sum();
    if lines == 0.0 || !zoom.offered() {
        return;
    }
    let Some(pointer) = windows.iter().find_map(Window::cursor_position) else { return };
    if over_egui_window(&mut contexts, pointer) || !layout.board.contains(pointer) {
        return;
    }
    let held = zoom.world_at(&layout, pointer);
    let factor = zoom.factor * 1.15f32.powf(lines);
    zoom.zoom_keeping(&layout, factor, held, pointer);
}

/// The buttons: zoom in or out around the middle of the view.
fn step(mut steps: MessageReader<ZoomStep>, mut zoom: ResMut<BoardZoom>) {
    for &ZoomStep(by) in steps.read() {
        let factor = if by > 1.0 && zoom.factor * by > zoom.most { zoom.most } else { zoom.factor * by };
        zoom.factor = factor.clamp(1.0, zoom.most.max(1.0));
    }
}

/// The board cursor's space in world pixels.
fn cursor_world(state: &BoardState, layout: &ScreenLayout, index: usize) -> Option<Vec2> {
    let c = state.view.as_ref()?.cells.get(index)?;
    Some(layout.board_centre_world() + state.to_world(c.x, c.y))
}

/// A cursor moved by keys or gamepad out of the zoomed view brings the view with it (not one
/// that follows the mouse: the view would run away from a pointer resting near its edge).
fn follow_cursor(
    mut actions: MessageReader<ActionPressed>,
    cursor: Res<BoardCursor>,
    state: Res<BoardState>,
    layout: Res<ScreenLayout>,
    mut zoom: ResMut<BoardZoom>,
) {
    let stepped = actions.read().any(|a| matches!(a.0, Action::Up | Action::Down | Action::Left | Action::Right));
    if !stepped || !cursor.is_changed() || zoom.factor <= 1.0 {
        return;
    }
    let Some(at) = cursor_world(&state, &layout, cursor.index) else { return };
    let half = layout.board.size() / 2.0 / zoom.factor - Vec2::splat(state.scale);
    let shift = (at - zoom.centre).abs() - half.max(Vec2::ZERO);
    if shift.x > 0.0 {
        zoom.centre.x += shift.x * (at.x - zoom.centre.x).signum();
    }
    if shift.y > 0.0 {
        zoom.centre.y += shift.y * (at.y - zoom.centre.y).signum();
    }
}

fn keep_on_board(state: Res<BoardState>, layout: Res<ScreenLayout>, mut zoom: ResMut<BoardZoom>) {
    let before = *zoom;
    let mut kept = before;
    if kept.factor <= 1.0 {
        kept.centre = layout.board_centre_world();
    } else {
        kept.clamp(&layout, board_half(&state));
    }
    if kept != before {
        *zoom = kept;
    }
}

fn move_camera(
    zoom: Res<BoardZoom>,
    layout: Res<ScreenLayout>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    if !zoom.is_changed() && !layout.is_changed() {
        return;
    }
    let Ok((mut transform, mut projection)) = cameras.single_mut() else { return };
    let at = if zoom.factor > 1.0 { zoom.camera_at(&layout) } else { Vec2::ZERO };
    transform.translation = at.extend(transform.translation.z);
    if let Projection::Orthographic(ortho) = projection.as_mut() {
        ortho.scale = 1.0 / zoom.factor.max(1.0);
    }
}

/// "+" and "−" at the board area's top-right corner, when the board's spaces are small.
fn zoom_buttons(
    mut contexts: EguiContexts,
    zoom: Res<BoardZoom>,
    layout: Res<ScreenLayout>,
    mut steps: MessageWriter<ZoomStep>,
) {
    if !zoom.offered() {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let corner = egui::pos2(layout.board.max.x - 8.0, layout.board.min.y + 8.0);
    egui::Area::new(egui::Id::new("board-zoom")).pivot(egui::Align2::RIGHT_TOP).fixed_pos(corner).show(ctx, |ui| {
        ui.horizontal(|ui| {
            if button_if(ui, zoom.factor > 1.0, "\u{2212}")
                .on_hover_text("Zoom out (or pinch, or the mouse wheel)")
                .clicked()
            {
                steps.write(ZoomStep(0.5));
            }
            if button_if(ui, zoom.factor < zoom.most, "+")
                .on_hover_text("Zoom in (or pinch, or the mouse wheel); drag an empty space to move the view")
                .clicked()
            {
                steps.write(ZoomStep(2.0));
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phone() -> ScreenLayout {
        ScreenLayout::of(Vec2::new(390.0, 844.0))
    }

    #[test]
    fn a_pinch_keeps_the_point_between_the_fingers_where_it_was() {
        let layout = phone();
        let mut zoom = BoardZoom { most: 3.0, ..default() };
        zoom.centre = layout.board_centre_world();
        let fingers = Vec2::new(120.0, 150.0);
        let held = zoom.world_at(&layout, fingers);
        zoom.zoom_keeping(&layout, 2.0, held, fingers);
        assert_eq!(zoom.factor, 2.0);
        assert!(zoom.world_at(&layout, fingers).distance(held) < 1e-3);
        assert!(zoom.window_of(&layout, held).distance(fingers) < 1e-3);
        // Another point moved away from it twice as far on the window.
        let other = zoom.world_at(&layout, fingers + Vec2::new(40.0, 0.0));
        assert!((other.x - held.x - 20.0).abs() < 1e-3);
    }

    #[test]
    fn the_factor_stays_between_one_and_the_most_useful() {
        let layout = phone();
        let mut zoom = BoardZoom { most: 2.5, ..default() };
        zoom.zoom_keeping(&layout, 9.0, Vec2::ZERO, Vec2::new(100.0, 100.0));
        assert_eq!(zoom.factor, 2.5);
        zoom.zoom_keeping(&layout, 0.1, Vec2::ZERO, Vec2::new(100.0, 100.0));
        assert_eq!(zoom.factor, 1.0);
        assert!(!BoardZoom::default().offered());
    }

    #[test]
    fn the_view_never_leaves_the_board() {
        let layout = phone();
        let half = layout.board.size() / 2.0;
        let mut zoom = BoardZoom { factor: 2.0, centre: Vec2::new(5000.0, -5000.0), most: 3.0 };
        zoom.clamp(&layout, half);
        // Zoomed twice, a board as big as the area can move a quarter of the area each way.
        let middle = layout.board_centre_world();
        assert!((zoom.centre - middle - Vec2::new(half.x / 2.0, -half.y / 2.0)).length() < 1e-3, "{zoom:?}");
    }
}
