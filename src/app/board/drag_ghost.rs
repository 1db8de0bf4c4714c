//! A piece being dragged, by the mouse or a finger, follows the pointer over the board, lifted
//! above the others. Let go, it stays where it was dropped while the move is made (then the piece
//! of the new space sets off from there, `fx`), or goes home when no move goes there.

use super::gestures::BoardZoom;
use super::piece_drag::{LIFTED_Z, PieceDrag};
use super::project::{BoardCell, BoardState, Piece, Vanishing};
use crate::app::AppSystems;
use crate::app::match_state::CurrentMatch;
use crate::app::ui::ScreenLayout;
use bevy::picking::events::{Drag, DragEnd, DragStart, Pointer};
use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.init_resource::<PieceDrag>();
    app.add_systems(
        Update,
        mouse_drags.in_set(AppSystems::RecordInput).run_if(resource_exists::<Messages<Pointer<Drag>>>),
    );
    app.add_systems(Update, follow_the_pointer.in_set(AppSystems::Present));
}

/// Seconds a dropped piece waits where it was dropped for the move to be made before going home.
const WAIT_FOR_THE_MOVE: f32 = 0.25;

/// The mouse's drags of a space's piece (touches are read with the other gestures).
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn mouse_drags(
    mut starts: MessageReader<Pointer<DragStart>>,
    mut moves: MessageReader<Pointer<Drag>>,
    mut ends: MessageReader<Pointer<DragEnd>>,
    cells: Query<&BoardCell>,
    state: Res<BoardState>,
    current: Option<Res<CurrentMatch>>,
    time: Res<Time>,
    mut drag: ResMut<PieceDrag>,
) {
    for start in starts.read() {
        let Ok(cell) = cells.get(start.entity) else { continue };
        if start.pointer_id.is_mouse()
            && start.event.button == PointerButton::Primary
            && state.pieces.get(cell.index).is_some_and(Option::is_some)
        {
            let at = start.pointer_location.position;
            *drag = PieceDrag { from: Some(cell.index), grab: at, pointer: at, ..default() };
        }
    }
    for moved in moves.read() {
        if moved.pointer_id.is_mouse() && drag.from.is_some() && drag.touch.is_none() && drag.released.is_none() {
            drag.pointer = moved.pointer_location.position;
        }
    }
    for end in ends.read() {
        if end.pointer_id.is_mouse() && drag.from.is_some() && drag.touch.is_none() {
            drag.let_go(time.elapsed_secs(), current.as_deref());
        }
    }
}

/// The dragged piece where the pointer is; home again once the drop was answered.
fn follow_the_pointer(
    mut drag: ResMut<PieceDrag>,
    state: Res<BoardState>,
    layout: Res<ScreenLayout>,
    zoom: Res<BoardZoom>,
    current: Option<Res<CurrentMatch>>,
    time: Res<Time>,
    mut pieces: Query<(&mut Transform, Has<Vanishing>), With<Piece>>,
) {
    let Some(from) = drag.from else { return };
    let piece = state.pieces.get(from).copied().flatten();
    let version = current.as_ref().map_or((0, 0), |c| c.session.version());
    if let Some((at, then)) = drag.released
        && (version != then || time.elapsed_secs() - at > WAIT_FOR_THE_MOVE)
    {
        // The move was made (this piece lifts away where it is) or refused: home it goes.
        if let Some(Ok((mut transform, vanishing))) = piece.map(|p| pieces.get_mut(p))
            && !vanishing
        {
            transform.translation = Vec3::new(0.0, 0.0, 2.0);
        }
        *drag = PieceDrag::default();
        return;
    }
    let Some(Ok((mut transform, _))) = piece.map(|p| pieces.get_mut(p)) else { return };
    let offset = zoom.world_at(&layout, drag.pointer) - zoom.world_at(&layout, drag.grab);
    transform.translation = offset.extend(LIFTED_Z);
}
