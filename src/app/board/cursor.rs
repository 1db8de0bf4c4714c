//! The board cursor: arrows, D-pad or stick move it to the nearest space in that direction, so
//! every game plays without a mouse; the mouse moves it by hovering.

use super::project::BoardState;
use crate::app::screen::Screen;
use crate::app::turn::TurnSystems;
use crate::rules::BoardView;
use bevy::prelude::*;

/// The space under the cursor (index into the board view's cells).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BoardCursor {
    pub index: usize,
    /// A game has just opened: the cursor goes to the middle of its board once the board is built.
    pub recentre: bool,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<BoardCursor>();
    app.add_systems(OnEnter(Screen::Playing), |mut cursor: ResMut<BoardCursor>| cursor.recentre = true);
    app.add_systems(Update, centre_on_a_new_game.in_set(TurnSystems::Project).after(super::project::project_board));
}

/// Every game starts with the cursor in the middle of its board (not where the last game left it).
fn centre_on_a_new_game(state: Res<BoardState>, mut cursor: ResMut<BoardCursor>) {
    if let (true, Some(view)) = (cursor.recentre, &state.view) {
        *cursor = BoardCursor { index: middle_cell(view), recentre: false };
    }
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
