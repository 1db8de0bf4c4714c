//! Coordinates on a zoomed board: each row's or line's name slides in to the edge of the part of
//! the board on screen and keeps its size on screen, so a player zoomed in on a corner of a big
//! board still reads where they are. Unzoomed, every name is back at its place beyond the board.

use super::gestures::BoardZoom;
use crate::app::AppSystems;
use crate::app::ui::ScreenLayout;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, follow_the_view.in_set(AppSystems::Present));
}

/// A coordinate's text: its place beyond the board (relative to the board's root, world pixels)
/// and the way out from the line it names (a row's name goes left, a line's down).
#[derive(Component, Debug, Clone, Copy)]
pub(super) struct AxisLabelMark {
    pub home: Vec2,
    pub outward: Vec2,
}

/// How far in from the visible edge a name sits (window pixels).
const EDGE_INSET: f32 = 14.0;

fn follow_the_view(
    zoom: Res<BoardZoom>,
    layout: Res<ScreenLayout>,
    mut labels: Query<(Ref<AxisLabelMark>, &mut Transform, &mut Visibility)>,
) {
    let added = labels.iter().any(|(mark, ..)| mark.is_added());
    if !zoom.is_changed() && !layout.is_changed() && !added {
        return;
    }
    let root = layout.board_centre_world();
    // The part of the world the board area shows now.
    let corner_a = zoom.world_at(&layout, Vec2::new(layout.board.min.x, layout.board.max.y));
    let corner_b = zoom.world_at(&layout, Vec2::new(layout.board.max.x, layout.board.min.y));
    let inset = EDGE_INSET / zoom.factor.max(1.0);
    let (low, high) = (corner_a.min(corner_b) + inset, corner_a.max(corner_b) - inset);
    for (mark, mut transform, mut visibility) in &mut labels {
        let (at, shown) = placed(mark.home + root, mark.outward, low, high);
        let local = (at - root).extend(if at == mark.home + root { 1.0 } else { 8.5 });
        if transform.translation != local {
            transform.translation = local;
        }
        // A little larger than unzoomed (the spaces are), not as large as the zoom would make it.
        let scale = Vec3::splat(zoom.factor.clamp(1.0, 1.5) / zoom.factor.max(1.0));
        if transform.scale != scale {
            transform.scale = scale;
        }
        visibility.set_if_neq(if shown { Visibility::Inherited } else { Visibility::Hidden });
    }
}

/// Where a name at `home` (world) goes when the view shows `low..high`: pulled in along its
/// outward axis to the visible edge when it is beyond it; hidden when its line is out of view.
fn placed(home: Vec2, outward: Vec2, low: Vec2, high: Vec2) -> (Vec2, bool) {
    let mut at = home;
    if outward.x.abs() >= outward.y.abs() {
        // A row's name: slides sideways; its row must be in view.
        at.x = at.x.clamp(low.x, high.x);
        (at, (low.y..=high.y).contains(&home.y))
    } else {
        // A line's name: slides along the line (its slant kept) to the bottom edge.
        if at.y < low.y && outward.y.abs() > 1e-3 {
            at += outward * ((low.y - at.y) / outward.y);
        }
        (at, (low.x..=high.x).contains(&at.x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_beyond_the_view_slide_to_its_edge_and_names_of_lines_out_of_view_hide() {
        let (low, high) = (Vec2::new(0.0, 0.0), Vec2::new(100.0, 100.0));
        // A row's name far left of the view comes to its left edge, level with its row.
        assert_eq!(placed(Vec2::new(-50.0, 40.0), -Vec2::X, low, high), (Vec2::new(0.0, 40.0), true));
        // A row above the view: hidden.
        assert!(!placed(Vec2::new(-50.0, 140.0), -Vec2::X, low, high).1);
        // A file's name below the view comes up to its bottom edge, under its file.
        assert_eq!(placed(Vec2::new(30.0, -20.0), -Vec2::Y, low, high), (Vec2::new(30.0, 0.0), true));
        // A slanted line's name slides along the line: up-left by half its rise.
        let down_right = Vec2::new(0.5, -(3f32.sqrt()) / 2.0);
        let (at, shown) = placed(Vec2::new(30.0, -20.0), down_right, low, high);
        assert!((at.y - 0.0).abs() < 1e-4 && (at.x - (30.0 - 20.0 / 3f32.sqrt())).abs() < 1e-3 && shown);
        // A name inside the view stays where it is.
        assert_eq!(placed(Vec2::new(30.0, 30.0), -Vec2::Y, low, high), (Vec2::new(30.0, 30.0), true));
    }
}
