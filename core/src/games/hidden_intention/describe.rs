//! Hidden Intention's staged decisions described from the typed move (`Notation::describe`).

use super::moves::Move;
use super::position::{Corner, FigureChoice, Position};
use super::view::{drawn_facing, drawn_figure};
use crate::rules::{Cell, DecisionInfo, DecisionKind, Figure, Notation, PieceView, Side};

impl Position {
    /// What one stage of a commitment does: the swap of two own figures, the figure (a choice with
    /// no space), its target square (a place) or a knight's facing (a choice, on the knight's
    /// target square). Nothing of it shows on the board until both commitments are revealed.
    pub(super) fn describe_move(&self, m: &Move) -> DecisionInfo {
        let token = self.format_move(m);
        let side = m.side();
        let staged = self.staged(side);
        match *m {
            Move::Swap { a, b, .. } => {
                let (a, b) = (Cell::from(a), Cell::from(b));
                DecisionInfo {
                    picks: vec![a, b],
                    from: Some(a),
                    to: Some(b),
                    ..DecisionInfo::new(token, DecisionKind::Swap, side)
                }
            }
            Move::Figure { choice, .. } => DecisionInfo {
                piece: Some(figure_piece(side, choice, None)),
                ..DecisionInfo::new(token, DecisionKind::Choose, side)
            },
            Move::Target { square, .. } => DecisionInfo {
                piece: staged.figure.map(|choice| figure_piece(side, choice, None)),
                ..DecisionInfo::on(token, DecisionKind::Place, side, Cell::from(square))
            },
            Move::Facing { corner, .. } => DecisionInfo {
                from: staged.target.map(Cell::from),
                piece: Some(figure_piece(side, FigureChoice::Knight, Some(corner))),
                ..DecisionInfo::new(token, DecisionKind::Choose, side)
            },
        }
    }
}

/// The figure `choice` of `side` as the board draws it, facing `facing` when it is a knight
/// whose facing is known (a knight without one yet is drawn facing nowhere).
fn figure_piece(side: Side, choice: FigureChoice, facing: Option<Corner>) -> PieceView {
    match choice.kind(facing) {
        Some(kind) => PieceView::figure(side, drawn_figure(kind), drawn_facing(kind)),
        None => PieceView::figure(side, Figure::Knight, None),
    }
}
