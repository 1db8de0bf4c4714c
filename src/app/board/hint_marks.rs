//! With hints on, standing marks from the engines' own analysis, read from each space's `Hinted`
//! component: the eyes of a Red Stone board (black, white and red eyes, spec §4.1) and every stone
//! of a group with one liberty left (Red Stone, Inchworm) and every Gravel piece the opponent could
//! remove on its next turn, flagged in its corner. A space's mark is redrawn only when its hint
//! changes.

use super::board_text::BoardText;
use super::drawing;
use super::piece_drag::PieceDrag;
use super::project::{BoardCell, BoardState, Hinted};
use crate::app::AppSystems;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::TurnWarning;
use crate::app::settings::CurrentSettings;
use crate::app::theme::{board_palette, rgb};
use crate::rules::HintMark;
use bevy::prelude::*;

/// An eye ring or a danger flag, a child of its space.
#[derive(Component)]
struct HintMarkShown;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (show_hint_marks, hide_hint_marks).chain().in_set(AppSystems::Present).run_if(drawing));
}

/// The colour of danger flags: the red of the capture rings.
const DANGER: Color = Color::srgb(0.85, 0.1, 0.1);

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn show_hint_marks(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    hinted: Query<(Entity, &Hinted, Option<&Children>), Changed<Hinted>>,
    all: Query<(Entity, &Hinted, Option<&Children>)>,
    mut unhinted: RemovedComponents<Hinted>,
    children: Query<&Children>,
    shown: Query<(), With<HintMarkShown>>,
    (mut meshes, mut materials): (ResMut<Assets<Mesh>>, ResMut<Assets<ColorMaterial>>),
) {
    let clear = |commands: &mut Commands, kids: Option<&Children>| {
        for kid in kids.into_iter().flat_map(|k| k.iter()) {
            if shown.contains(kid) {
                commands.entity(kid).despawn();
            }
        }
    };
    for cell in unhinted.read() {
        clear(&mut commands, children.get(cell).ok());
    }
    // A new theme redraws every mark in its colours.
    let redraw: Vec<_> = if settings.is_changed() { all.iter().collect() } else { hinted.iter().collect() };
    if redraw.is_empty() {
        return;
    }
    let Some(kind) = current.map(|m| m.position().kind()) else { return };
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    let eye_ring = meshes.add(Annulus::new(s * 0.13, s * 0.2));
    let flag = meshes.add(Circle::new((s * 0.12).max(4.0)));
    let font_size = (s * 0.2).clamp(8.0, 16.0);
    for (cell, hint, kids) in redraw {
        clear(&mut commands, kids);
        match hint.0 {
            HintMark::Eye(owner) => {
                let (fill, _) = pal.piece(kind, owner);
                commands.spawn((
                    HintMarkShown,
                    Mesh2d(eye_ring.clone()),
                    MeshMaterial2d(materials.add(rgb(fill).with_alpha(0.85))),
                    Transform::from_xyz(0.0, 0.0, 3.5),
                    Pickable::IGNORE,
                    ChildOf(cell),
                ));
            }
            HintMark::InDanger | HintMark::Threatened => {
                let corner = Vec2::new(-s * 0.3, s * 0.3);
                commands.spawn((
                    HintMarkShown,
                    Mesh2d(flag.clone()),
                    MeshMaterial2d(materials.add(DANGER)),
                    Transform::from_translation(corner.extend(4.2)),
                    Pickable::IGNORE,
                    ChildOf(cell),
                ));
                commands.spawn((
                    HintMarkShown,
                    BoardText::new("!", font_size, Color::WHITE),
                    Transform::from_translation(corner.extend(4.3)),
                    Pickable::IGNORE,
                    ChildOf(cell),
                ));
            }
        }
    }
}

/// The marks show with the hints on, and while a warning before a losing end of turn is up (the
/// warning names the spaces it marks, hints or not); never on the space a piece is being dragged
/// from (its flag goes with the piece, not with the emptied space).
fn hide_hint_marks(
    settings: Res<CurrentSettings>,
    warning: Res<TurnWarning>,
    drag: Res<PieceDrag>,
    cells: Query<&BoardCell>,
    mut marks: Query<(&mut Visibility, Ref<HintMarkShown>, &ChildOf)>,
) {
    let shown = settings.0.show_hints || warning.pending.is_some();
    for (mut v, mark, parent) in &mut marks {
        if settings.is_changed() || warning.is_changed() || drag.is_changed() || mark.is_added() {
            let dragged_from = drag.from.is_some() && cells.get(parent.parent()).ok().map(|c| c.index) == drag.from;
            v.set_if_neq(if shown && !dragged_from { Visibility::Inherited } else { Visibility::Hidden });
        }
    }
}
