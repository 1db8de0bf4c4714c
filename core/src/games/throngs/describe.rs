//! Throngs' decisions described from the typed move (`Notation::describe`), a started part's
//! destination with the route its stone travels.

use super::moves::Move;
use super::position::{PartKind, Position};
use crate::rules::{Cell, DecisionInfo, DecisionKind, Notation, PieceView, Rules};

impl Position {
    /// What `m` does: the start of a part (a placement, a capture by replacement, a friendly
    /// move), the destination of a started part, a pass, an offered pie stone or the pie choice.
    pub(super) fn describe_move(&self, m: &Move) -> DecisionInfo {
        let token = self.format_move(m);
        let side = self.mover(m);
        let own_stone = Some(PieceView::stone(Some(side)));
        match *m {
            Move::Pass => DecisionInfo::new(token, DecisionKind::Pass, side),
            Move::Place(at) => {
                DecisionInfo { piece: own_stone, ..DecisionInfo::on(token, DecisionKind::Place, side, at) }
            }
            Move::Capture(at) => DecisionInfo {
                removes: vec![at],
                captures: true,
                piece: own_stone,
                ..DecisionInfo::on(token, DecisionKind::Remove, side, at)
            },
            Move::Pick(at) => DecisionInfo::on(token, DecisionKind::Move, side, at),
            Move::To(to) => {
                let mut info = DecisionInfo {
                    picks: vec![to],
                    to: Some(to),
                    ..DecisionInfo::new(token, DecisionKind::Move, side)
                };
                // The part's start and kind are the position's: the destination completes it.
                if let Some(started) = self.started() {
                    info.from = Some(started.at);
                    info.through = self.landings_between(started.at, started.range, to);
                    match started.kind {
                        PartKind::Place => info.piece = own_stone,
                        PartKind::Capture => {
                            info.piece = own_stone;
                            info.removes = vec![started.at];
                            info.captures = true;
                        }
                        PartKind::Move => {}
                    }
                }
                info
            }
            Move::Offer(at) => DecisionInfo {
                piece: Some(PieceView::stone(Some(self.offer_colour()))),
                pie: true,
                ..DecisionInfo::on(token, DecisionKind::Place, side, at)
            },
            Move::Choose(colour) => DecisionInfo {
                piece: Some(PieceView::stone(Some(colour))),
                pie: true,
                ..DecisionInfo::new(token, DecisionKind::Choose, side)
            },
        }
    }

    /// The landings strictly between `at` and `to` on the route the `Hopped` effect will show
    /// (one shortest route); empty when `to` is `at` or out of reach.
    fn landings_between(&self, at: Cell, range: u8, to: Cell) -> Vec<Cell> {
        // `route` expects a reachable destination; `reach` also guards against sites off the board.
        if to == at || !self.reach(at, range).iter().any(|&(site, _)| site == to) {
            return Vec::new();
        }
        let route = self.route(at, range, to);
        match route.as_slice() {
            [_, between @ .., _] => between.to_vec(),
            _ => Vec::new(),
        }
    }
}
