//! Inchworm's decisions described from the typed move (`Notation::describe`), a staged collect or
//! distribution with the cells chosen before it.

use super::moves::Move;
use super::position::{Position, Sq};
use crate::rules::{Cell, DecisionInfo, DecisionKind, Notation, PieceView};

impl Position {
    /// What `m` does: a drop from stock, a prisoner placed, a step of a collect or a
    /// distribution, the rescue or a pass.
    pub(super) fn describe_move(&self, m: &Move) -> DecisionInfo {
        let token = self.format_move(m);
        let side = self.side;
        let cell = Cell::from;
        match *m {
            Move::Drop(at) => DecisionInfo {
                piece: Some(PieceView::stack(side, 1)),
                ..DecisionInfo::on(token, DecisionKind::Place, side, cell(at))
            },
            Move::Place(at) => DecisionInfo {
                piece: Some(PieceView::stack(side.opponent(), 1)),
                ..DecisionInfo::on(token, DecisionKind::Place, side, cell(at))
            },
            Move::CollectFrom(at) | Move::SpreadFrom(at) => DecisionInfo::on(token, DecisionKind::Move, side, cell(at)),
            Move::CollectStep(at) | Move::CollectOnto(at) => {
                self.continuing(token, at, self.pending_collect().unwrap_or_default().as_slice())
            }
            Move::SpreadStep(at) => self.continuing(token, at, self.pending_spread().unwrap_or_default()),
            Move::Rescue => DecisionInfo::new(token, DecisionKind::Return, side),
            Move::Pass => DecisionInfo::new(token, DecisionKind::Pass, side),
        }
    }

    /// A decision picking `at` in an action whose cells `chosen` were picked before it, in order:
    /// the action runs from the first of them through the others to `at`.
    fn continuing(&self, token: String, at: Sq, chosen: &[Sq]) -> DecisionInfo {
        let at = Cell::from(at);
        let (from, through) = match chosen {
            [first, rest @ ..] => (Some(Cell::from(*first)), rest.iter().map(|&c| Cell::from(c)).collect()),
            [] => (None, Vec::new()),
        };
        DecisionInfo {
            picks: vec![at],
            from,
            through,
            to: Some(at),
            ..DecisionInfo::new(token, DecisionKind::Move, self.side)
        }
    }
}
