//! The board cursor: arrows, D-pad or stick move it to the nearest space in that direction, so
//! every game plays without a mouse; the mouse moves it by hovering. A game starts with it in the
//! middle, and in hot-seat play each player keeps their own.

use super::gestures::BoardZoom;
use super::project::BoardState;
use crate::app::AppSystems;
use crate::app::playing::{BoardCursor, ChoiceAnchor, Secrecy, TurnBuilder};
use crate::app::ui::ScreenLayout;
use crate::rules::{BoardView, Side};
use bevy::prelude::*;

/// Where each player of a hot-seat game left the cursor when the device went to the other.
#[derive(Resource, Debug, Default)]
struct PlayersCursors {
    cursors: [Option<usize>; 2],
    /// The hand-over the cursors were last switched for.
    switched_for: Option<Side>,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<PlayersCursors>();
    app.add_systems(OnEnter(crate::app::screen::Screen::Playing), |mut c: ResMut<PlayersCursors>| {
        *c = PlayersCursors::default()
    });
    app.add_systems(
        Update,
        (centre_on_a_new_game, keep_each_players_cursor, anchor_choices).chain().in_set(AppSystems::Present),
    );
}

/// Every game starts with the cursor in the middle of its board (not where the last game left it).
fn centre_on_a_new_game(state: Res<BoardState>, mut cursor: ResMut<BoardCursor>) {
    if let (true, Some(view)) = (cursor.recentre, &state.view) {
        *cursor = BoardCursor { index: middle_cell(view), recentre: false };
    }
}

/// At a hand-over the cursor the last player left (on the square they just chose) is put away, and
/// the next player's comes back (the middle of the board the first time).
fn keep_each_players_cursor(
    secrecy: Res<Secrecy>,
    state: Res<BoardState>,
    mut saved: ResMut<PlayersCursors>,
    mut cursor: ResMut<BoardCursor>,
) {
    if secrecy.handover == saved.switched_for {
        return;
    }
    saved.switched_for = secrecy.handover;
    let (Some(to), Some(view)) = (secrecy.handover, &state.view) else { return };
    saved.cursors[to.opponent().index()] = Some(cursor.index);
    cursor.index = saved.cursors[to.index()].filter(|&i| i < view.cells.len()).unwrap_or_else(|| middle_cell(view));
}

/// The open choice list's space on the window, for the panel to open the list beside it.
fn anchor_choices(
    builder: Res<TurnBuilder>,
    state: Res<BoardState>,
    layout: Res<ScreenLayout>,
    zoom: Res<BoardZoom>,
    mut anchor: ResMut<ChoiceAnchor>,
) {
    if !builder.is_changed() && !state.is_changed() && !layout.is_changed() && !zoom.is_changed() {
        return;
    }
    let at = builder.at.as_ref().filter(|_| !builder.choices.is_empty()).and_then(|name| {
        let view = state.view.as_ref()?;
        let c = &view.cells[state.index_of(name)?];
        // Board units → world (the board's root sits at the layout's board centre) → window.
        let world = layout.board_centre_world() + state.to_world(c.x, c.y);
        Some(zoom.window_of(&layout, world))
    });
    anchor.set_if_neq(ChoiceAnchor { at, half: state.scale * zoom.factor / 2.0 });
}

/// The index of the space nearest the middle of the board.
pub fn middle_cell(view: &BoardView) -> usize {
    let (x0, y0, x1, y1) = view.bounds();
    let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let distance = |i: usize| (view.cells[i].x - mx).powi(2) + (view.cells[i].y - my).powi(2);
    (0..view.cells.len()).min_by(|&a, &b| distance(a).total_cmp(&distance(b))).unwrap_or(0)
}

/// The index of the nearest cell from `from` roughly in direction `dir` (within 60° of it).
pub fn step_towards(cells: &[(f32, f32)], from: usize, dir: Vec2) -> Option<usize> {
    let (fx, fy) = cells[from];
    let mut best: Option<(f32, usize)> = None;
    for (i, &(x, y)) in cells.iter().enumerate() {
        let d = Vec2::new(x - fx, y - fy);
        let len = d.length();
        if i == from || len < 1e-3 {
            continue;
        }
        let cos = d.dot(dir) / len;
        if cos < 0.49 {
            continue;
        }
        // Prefer near and straight: distance grows the score, angle off the axis too.
        let score = len * (2.0 - cos);
        if best.is_none_or(|(b, _)| score < b) {
            best = Some((score, i));
        }
    }
    best.map(|(_, i)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_go_to_the_neighbour_in_that_direction() {
        let grid: Vec<(f32, f32)> = (0..9).map(|i| ((i % 3) as f32, (i / 3) as f32)).collect();
        assert_eq!(step_towards(&grid, 4, Vec2::X), Some(5));
        assert_eq!(step_towards(&grid, 4, Vec2::Y), Some(7));
        assert_eq!(step_towards(&grid, 4, -Vec2::X), Some(3));
        assert_eq!(step_towards(&grid, 0, -Vec2::Y), None);
    }

    #[test]
    fn steps_follow_a_triangular_lattice() {
        // Row 0 at y 0, row 1 shifted by half a unit: up goes to the nearer upper neighbour.
        let pts = vec![(0.0, 0.0), (1.0, 0.0), (0.5, 0.87), (1.5, 0.87)];
        assert_eq!(step_towards(&pts, 0, Vec2::Y), Some(2));
        assert_eq!(step_towards(&pts, 2, Vec2::X), Some(3));
    }
}
