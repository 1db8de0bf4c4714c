//! Gravel's decisions described from the typed action (`Notation::describe`).

use super::moves::Action;
use super::notation::action_text;
use super::position::Position;
use crate::rules::{DecisionInfo, DecisionKind, PieceView};

impl Position {
    /// What `action` does: a place, move, return or remove of one piece, the end of the turn or
    /// the pass of a player with no pieces.
    pub(super) fn describe_action(&self, action: Action) -> DecisionInfo {
        let token = action_text(self.size(), action);
        let side = self.side;
        match action {
            Action::Place(at) => DecisionInfo {
                piece: Some(PieceView::stack(side, 1)),
                ..DecisionInfo::on(token, DecisionKind::Place, side, at)
            },
            Action::Move { from, to } => DecisionInfo {
                picks: vec![from, to],
                from: Some(from),
                to: Some(to),
                ..DecisionInfo::new(token, DecisionKind::Move, side)
            },
            Action::Return(at) => {
                DecisionInfo { removes: vec![at], ..DecisionInfo::on(token, DecisionKind::Return, side, at) }
            }
            Action::Remove(at) => DecisionInfo {
                removes: vec![at],
                captures: true,
                ..DecisionInfo::on(token, DecisionKind::Remove, side, at)
            },
            Action::EndTurn => DecisionInfo::new(token, DecisionKind::End, side),
            Action::Pass => DecisionInfo::new(token, DecisionKind::Pass, side),
        }
    }
}
