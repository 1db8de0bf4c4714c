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

/// Where an arrow key moves the cursor on `view`: on a board of squares or points, the nearest
/// space that way; on a triangular lattice, along its lines as the notation names them — Left and
/// Right along the row (the letter stays), Up and Down along the numbered line, up-left and
/// down-right (the number stays) — across a wrapped board's seam, or over a gap to the line's next
/// site; at the line's end the cursor stays.
pub fn cursor_step(view: &BoardView, from: usize, arrow: Vec2) -> Option<usize> {
    let points: Vec<(f32, f32)> = view.cells.iter().map(|c| (c.x, c.y)).collect();
    if !matches!(view.layout, crate::rules::Layout::Lattice { .. }) {
        return step_towards(&points, from, arrow);
    }
    let dir = if arrow.y.abs() > arrow.x.abs() {
        // Up-left, as "one row up with the same number" (rules §2.1); Down the opposite.
        Vec2::new(-0.5, 3f32.sqrt() / 2.0) * arrow.y.signum()
    } else {
        Vec2::X * arrow.x.signum()
    };
    let (fx, fy) = *points.get(from)?;
    // Sites on the line that way, nearest first.
    let along = points
        .iter()
        .enumerate()
        .filter_map(|(i, &(x, y))| {
            let d = Vec2::new(x - fx, y - fy);
            let ahead = d.dot(dir);
            (i != from && ahead > 1e-3 && d.perp_dot(dir).abs() < 0.05 * ahead.max(1.0)).then_some((ahead, i))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((ahead, i)) = along
        && ahead <= 1.05 * lattice_unit(&points)
    {
        return Some(i);
    }
    let across_seam = view
        .wraps
        .iter()
        .find(|w| usize::from(w.from) == from && Vec2::new(w.dx, w.dy).normalize_or_zero().dot(dir) > 0.99);
    across_seam.map(|w| usize::from(w.to)).or(along.map(|(_, i)| i))
}

/// The distance between neighbouring sites of a lattice (its shortest distance).
fn lattice_unit(points: &[(f32, f32)]) -> f32 {
    let Some(&(x0, y0)) = points.first() else { return 1.0 };
    points
        .iter()
        .skip(1)
        .map(|&(x, y)| Vec2::new(x - x0, y - y0).length())
        .filter(|d| *d > 1e-3)
        .fold(f32::INFINITY, f32::min)
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

    /// Every arrow on every Throngs site of `options`' board goes to the next site of the same
    /// line that way (the letter kept by Left and Right, the number by Up and Down).
    fn arrows_follow_the_lines(options: &[(String, String)]) {
        let game = crate::games::open(crate::games::GameKind::named("throngs"), options, None).unwrap();
        let view = game.board_view();
        let split = |name: &str| {
            let i = name.find(|c: char| c.is_ascii_digit()).unwrap();
            (name[..i].to_string(), name[i..].parse::<i32>().unwrap())
        };
        let mut moved = 0;
        for (from, cell) in view.cells.iter().enumerate() {
            let (row, number) = split(&cell.name);
            for (arrow, keeps_row, ahead) in
                [(Vec2::X, true, 1), (-Vec2::X, true, -1), (Vec2::Y, false, 1), (-Vec2::Y, false, -1)]
            {
                let Some(to) = cursor_step(&view, from, arrow) else { continue };
                let (to_row, to_number) = split(&view.cells[to].name);
                if keeps_row {
                    assert_eq!(to_row, row, "{} {arrow}", cell.name);
                    assert_ne!(to_number, number, "{} {arrow}", cell.name);
                    if view.wraps.is_empty() {
                        assert_eq!((to_number - number).signum(), ahead, "{} {arrow}", cell.name);
                    }
                } else {
                    assert_eq!(to_number, number, "{} {arrow}", cell.name);
                    if view.wraps.is_empty() {
                        let step = i32::from(to_row.as_bytes()[0]) - i32::from(row.as_bytes()[0]);
                        assert_eq!(step.signum(), ahead, "{} {arrow}", cell.name);
                    }
                }
                moved += 1;
            }
        }
        assert!(moved > view.cells.len(), "most sites have somewhere to go");
    }

    #[test]
    fn arrows_on_throngs_follow_the_rows_and_the_numbered_lines() {
        arrows_follow_the_lines(&[]);
        // Holes: a line goes on past them to its next site.
        arrows_follow_the_lines(&[("board".to_string(), "P156".to_string())]);
        // The torus: across the seam the line comes back on the other side.
        arrows_follow_the_lines(&[("board".to_string(), "torus-8".to_string())]);
        let game = crate::games::open(crate::games::GameKind::named("throngs"), &[], None).unwrap();
        let view = game.board_view();
        let at = |name: &str| view.cells.iter().position(|c| c.name == name).unwrap();
        let name = |i: Option<usize>| i.map(|i| view.cells[i].name.clone());
        // Rules §2.1: f6's neighbours f7 (E), f5 (W), g6 (NW, up-left), e6 (SE, down-right).
        assert_eq!(name(cursor_step(&view, at("f6"), Vec2::X)).as_deref(), Some("f7"));
        assert_eq!(name(cursor_step(&view, at("f6"), -Vec2::X)).as_deref(), Some("f5"));
        assert_eq!(name(cursor_step(&view, at("f6"), Vec2::Y)).as_deref(), Some("g6"));
        assert_eq!(name(cursor_step(&view, at("f6"), -Vec2::Y)).as_deref(), Some("e6"));
    }
}
