//! Wrapped boards (Inchworm's cylinder and torus, the Throngs torus) show where they wrap: each
//! line that leaves an edge continues to a faded copy of the space it reaches on the other side,
//! named and showing what stands there.

use super::board_text::BoardText;
use super::project::BoardState;
use crate::app::AppSystems;
use crate::app::settings::CurrentSettings;
use crate::app::theme::{board_palette, rgb};
use bevy::prelude::*;

/// A faded copy of a space across the seam, or the line leading to it.
#[derive(Component)]
struct WrapCue;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, show_wrap_cues.in_set(AppSystems::Present).run_if(super::drawing));
}

/// How far apart two ghost positions may be and still be the same copy (board units).
const SAME_GHOST: f32 = 0.05;

fn show_wrap_cues(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    old: Query<Entity, With<WrapCue>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    current: Option<Res<crate::app::match_state::CurrentMatch>>,
) {
    if !state.is_changed() && !settings.is_changed() {
        return;
    }
    let Some(kind) = current.map(|m| m.position().kind()) else { return };
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(root), Some(view)) = (state.root, &state.view) else { return };
    if view.wraps.is_empty() {
        return;
    }
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    let faded_line = rgb(pal.line).with_alpha(0.35);
    let font_size = (s * 0.22).clamp(8.0, 14.0);
    let dot = meshes.add(Circle::new(s * 0.3));
    let mut ghosts: Vec<Vec2> = Vec::new();
    for link in &view.wraps {
        let (from, to) = (&view.cells[link.from as usize], &view.cells[link.to as usize]);
        let start = Vec2::new(from.x, from.y);
        let ghost = start + Vec2::new(link.dx, link.dy);
        // The line from the edge space out to the copy, as the board's own lines are drawn.
        let (a, b) = (state.to_world(start.x, start.y), state.to_world(ghost.x, ghost.y));
        let d = b - a;
        commands.spawn((
            WrapCue,
            Sprite::from_color(faded_line, Vec2::new(d.length(), (s * 0.03).max(1.0))),
            Transform::from_translation(((a + b) / 2.0).extend(-0.9))
                .with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
            ChildOf(root),
        ));
        if ghosts.iter().any(|g| g.distance(ghost) < SAME_GHOST) {
            continue;
        }
        ghosts.push(ghost);
        if let Some(piece) = &to.piece {
            let (fill, _) = pal.piece(kind, piece.owner);
            commands.spawn((
                WrapCue,
                Mesh2d(dot.clone()),
                MeshMaterial2d(materials.add(rgb(fill).with_alpha(0.4))),
                Transform::from_translation(b.extend(-0.8)),
                ChildOf(root),
            ));
        }
        commands.spawn((
            WrapCue,
            BoardText::new(to.name.clone(), font_size, rgb(pal.line).with_alpha(0.8)),
            Transform::from_translation(b.extend(-0.7)),
            ChildOf(root),
        ));
    }
}
