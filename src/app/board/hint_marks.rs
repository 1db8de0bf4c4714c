//! With hints on, standing marks from the engines' own analysis: the eyes of a Red Stone board
//! (black, white and red eyes, spec §4.1) and every stone of a group with one liberty left (Red
//! Stone, Inchworm), flagged in its corner.

use super::look::{rgb, side_colour};
use super::project::BoardState;
use crate::app::settings_io::CurrentSettings;
use crate::app::theme::board_palette;
use crate::app::turn::TurnSystems;
use crate::rules::HintMark;
use bevy::prelude::*;

/// An eye ring or a danger flag.
#[derive(Component)]
pub struct HintMarkShown(pub HintMark);

pub fn plugin(app: &mut App) {
    app.add_systems(Update, show_hint_marks.in_set(TurnSystems::Present).run_if(resource_exists::<Assets<Mesh>>));
}

/// The colour of danger flags: the red of the capture rings.
const DANGER: Color = Color::srgb(0.85, 0.1, 0.1);

fn show_hint_marks(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    old: Query<Entity, With<HintMarkShown>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    if !state.is_changed() && !settings.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(root), Some(view), true) = (state.root, &state.view, settings.0.show_hints) else { return };
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    let marked: Vec<_> = view.cells.iter().filter_map(|c| c.marks.hint.map(|h| (c, h))).collect();
    if marked.is_empty() {
        return;
    }
    // One mesh per shape for the whole board: a mesh per mark is slow on 19×19.
    let eye_ring = meshes.add(Annulus::new(s * 0.13, s * 0.2));
    let flag = meshes.add(Circle::new((s * 0.12).max(4.0)));
    let flag_colour = materials.add(DANGER);
    let font = TextFont { font_size: bevy::text::FontSize::Px((s * 0.2).clamp(8.0, 16.0)), ..default() };
    for (c, hint) in marked {
        let at = state.to_world(c.x, c.y);
        match hint {
            HintMark::Eye(owner) => {
                let (fill, _) = side_colour(&pal, owner, if owner.is_none() { 'r' } else { ' ' });
                commands.spawn((
                    HintMarkShown(hint),
                    Mesh2d(eye_ring.clone()),
                    MeshMaterial2d(materials.add(fill.with_alpha(0.85))),
                    Transform::from_translation(at.extend(3.5)),
                    Pickable::IGNORE,
                    ChildOf(root),
                ));
            }
            HintMark::InDanger => {
                let corner = at + Vec2::new(-s * 0.3, s * 0.3);
                commands.spawn((
                    HintMarkShown(hint),
                    Mesh2d(flag.clone()),
                    MeshMaterial2d(flag_colour.clone()),
                    Transform::from_translation(corner.extend(4.2)),
                    Pickable::IGNORE,
                    ChildOf(root),
                ));
                commands.spawn((
                    HintMarkShown(hint),
                    Text2d::new("!"),
                    font.clone(),
                    TextColor(rgb([255, 255, 255])),
                    Transform::from_translation(corner.extend(4.3)),
                    Pickable::IGNORE,
                    ChildOf(root),
                ));
            }
        }
    }
}
