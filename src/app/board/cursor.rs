//! The board cursor: arrows, D-pad or stick move it to the nearest space in that direction, so
//! every game plays without a mouse; the mouse moves it by hovering.

use bevy::prelude::*;

/// The space under the cursor (index into the board view's cells).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BoardCursor {
    pub index: usize,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<BoardCursor>();
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
