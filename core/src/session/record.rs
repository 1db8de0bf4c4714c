//! A match's record moves (the spec's numbered tokens), grown one decision at a time: each new
//! decision is grouped with the decisions of the move under way, never with the whole game.

use crate::games::DynGame;
use crate::rules::RecordMove;

/// The record moves closed so far and where the move under way begins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordBook {
    moves: Vec<RecordMove>,
    /// The index of the first decision of the move under way (all before it are in `moves`).
    open_from: usize,
}

/// Where a record book stood before a decision, to go back there on undo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BookMark {
    moves: usize,
    open_from: usize,
}

impl RecordBook {
    /// The closed moves, each with its token, side and end.
    pub fn moves(&self) -> &[RecordMove] {
        &self.moves
    }

    /// The first decision of the move under way.
    pub fn open_from(&self) -> usize {
        self.open_from
    }

    pub fn mark(&self) -> BookMark {
        BookMark { moves: self.moves.len(), open_from: self.open_from }
    }

    pub fn restore(&mut self, mark: BookMark) {
        self.moves.truncate(mark.moves);
        self.open_from = mark.open_from;
    }

    /// Takes in the decisions `open` played from `open_start` (the position before the move under
    /// way): the moves they complete are closed. Only the move under way is grouped again, so the
    /// work per decision does not grow with the game.
    pub fn extend(&mut self, open_start: &dyn DynGame, open: &[String]) {
        let Ok(grouped) = open_start.record_tokens(open) else { return };
        let closed = open.len() - grouped.pending;
        self.moves.extend(grouped.moves.into_iter().map(|m| RecordMove { end: m.end + self.open_from, ..m }));
        self.open_from += closed;
    }
}
