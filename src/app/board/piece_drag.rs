//! The piece being dragged (its state only): where it was taken, where the pointer is, and
//! whether it was let go. The mouse's drags (`drag_ghost`) and the touches (`gestures`) write it.

use crate::app::match_state::CurrentMatch;
use bevy::prelude::*;

/// The piece being dragged now, if any.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct PieceDrag {
    /// The space (view index) the piece is dragged from.
    pub from: Option<usize>,
    /// Where the pointer took the piece and where it is now (window pixels, y down): the piece
    /// moves as far as the pointer did, so it does not jump to the pointer's tip.
    pub grab: Vec2,
    pub pointer: Vec2,
    /// The touch dragging it (a mouse drag has none).
    pub touch: Option<u64>,
    /// Let go: seconds on the clock when it was, and the match's version then.
    pub released: Option<(f32, (u64, u64))>,
}

impl PieceDrag {
    /// The pointer let the piece go now.
    pub fn let_go(&mut self, now: f32, current: Option<&CurrentMatch>) {
        self.released = Some((now, current.map_or((0, 0), |c| c.session.version())));
    }
}

/// How far above the board's pieces a dragged one is drawn.
pub(super) const LIFTED_Z: f32 = 30.0;
