//! Red Stone's decisions described from the typed move (`Notation::describe`).

use super::Position;
use super::moves::Move;
use crate::rules::{DecisionInfo, DecisionKind, Notation, PieceView};

impl Position {
    /// What `m` does: a stone of the mover's colour or a neutral red stone on a point (a red stone
    /// always captures: it is legal only where it does), or White's pie swap.
    pub(super) fn describe_move(&self, m: &Move) -> DecisionInfo {
        let token = self.format_move(m);
        let side = self.to_move;
        match *m {
            Move::Place { at, red } => DecisionInfo {
                piece: Some(PieceView::stone(if red { None } else { Some(side) })),
                captures: red,
                ..DecisionInfo::on(token, DecisionKind::Place, side, at)
            },
            Move::Swap => DecisionInfo { pie: true, ..DecisionInfo::new(token, DecisionKind::Swap, side) },
        }
    }
}
