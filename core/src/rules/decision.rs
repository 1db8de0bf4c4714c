//! A typed description of one atomic decision, written by its game: what it does and which spaces
//! it picks, starts from, passes through, ends on and empties, so no one has to read its token.

use super::{Cell, PieceView, Side};

/// What a decision does, in the few words every game shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    /// Brings a piece onto the board at `from`: Gravel's `+c3` (one piece from the pool), a Red
    /// Stone stone or red stone, a Throngs placement `+f6` or offered pie stone `B:g7`, an
    /// Inchworm drop `Dd4` or prisoner placement `Pa1`, a Hidden Intention target square `A:f6`.
    Place,
    /// Moves pieces already on the board, starting at `from`: Gravel's `b2>c2`; Throngs' start of
    /// a friendly move `f6>` and the destination `>g6` of any started part (a placed or
    /// capturing stone travels too); every decision of an Inchworm collect or distribution.
    Move,
    /// Takes pieces off the board as the decision's own action (not as a capture the rules
    /// resolve afterwards): Gravel's remove `xc3` (one enemy piece), Throngs' capture by
    /// replacement `xf6` (the mover's stone takes the site).
    Remove,
    /// Puts the mover's pieces back into the mover's stock: Gravel's return `-c2` (one piece
    /// from `from`), Inchworm's rescue `R` (every own stone the opponent holds; no space).
    Return,
    /// Chooses something that is not a space: Throngs' pie colour (`choose White`), a Hidden
    /// Intention figure (`A:P`) or knight facing (`A:/ne`).
    Choose,
    /// Exchanges: Red Stone's pie swap (no space), a Hidden Intention swap of two own figures
    /// (`A:c3<>f4`, `from` and `to` the two squares).
    Swap,
    /// Passes: the whole turn or part (Gravel with no pieces, a Throngs part, Inchworm).
    Pass,
    /// Ends the turn: Gravel's `end` after its actions.
    End,
}

/// One legal (or readable) atomic decision as its game describes it. Cells are the game's own
/// numbering, the `cell` of the `CellView`s its board view draws (`Notation::cell_name` names them).
///
/// `picks` is what a person chooses on the board to make the decision; `from`, `through` and `to`
/// are the whole action the decision belongs to, as far as it is known once it is made. They are
/// the same spaces for a decision that is a whole action by itself (a Gravel move `b2>c2`, a Red
/// Stone stone, a Throngs placement that does not travel). They differ for a decision that
/// continues an action started by earlier decisions:
/// - Throngs' destination `>g6` of a started part: `picks` is `[g6]`; `from` is the started site,
///   `through` the landings of one shortest route there (the route the `Hopped` effect shows),
///   `to` is g6. Stopping on the start site (`>f6` after `+f6`) has `from == to` and no `through`.
/// - Inchworm's next cell `-a7` of a distribution or stack `-f3` of a collect, and a collect's
///   target `>f3`: `picks` is that one cell; `from` is the action's first cell, `through` the
///   cells chosen since, `to` the picked cell. So a collect's last decision spans what its whole
///   record token names (`Ce3-f3-g3>f3`: from e3, through f3 g3, to f3).
/// - Hidden Intention's knight facing `A:/ne`: no pick; `from` is the knight's target square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionInfo {
    /// The decision as `Notation::format_move` writes it (what `legal_decisions` lists and
    /// `play_decision` reads).
    pub token: String,
    pub kind: DecisionKind,
    /// The side that makes it (Throngs' pie offerer is the first side, its chooser the second).
    pub side: Side,
    /// The spaces a person picks (clicks or taps), in order, to make this decision: none for a
    /// decision with no space (pass, end, a choice, Red Stone's pie swap, Inchworm's rescue), two
    /// for a Gravel move and a Hidden Intention swap (a drag from the first to the second), else
    /// one.
    pub picks: Vec<Cell>,
    /// Where the action starts: the placed space of a place, the origin of a move (a Throngs
    /// part's start site, an Inchworm distribution's source or a collect's first stack), the
    /// emptied space of a removal or return, the first square of a swap, the square of a Hidden
    /// Intention knight whose facing is chosen.
    pub from: Option<Cell>,
    /// The spaces between `from` and `to`, in order: a travelling Throngs stone's landings, the
    /// cells an Inchworm distribution or collect chose between its first and its picked cell.
    pub through: Vec<Cell>,
    /// Where the action ends, when the decision names it: a Gravel move's destination, a Hidden
    /// Intention swap's second square, a Throngs part's destination, an Inchworm distribution's
    /// or collect's picked cell (a collect's target on its last decision). `None` when the
    /// destination is a later decision (Throngs' `f6>`, Inchworm's `Sb8` and `Ce3`).
    pub to: Option<Cell>,
    /// Spaces whose pieces the decision itself takes off the board (not captures that the rules
    /// resolve afterwards, which are effects): Gravel's remove and return (one piece each), a
    /// Throngs capture (on its start `xf6` and on its destination `>g6`, which completes it).
    pub removes: Vec<Cell>,
    /// The piece the decision brings onto the board or chooses, when it is not on the board
    /// already: a placed stone, piece or figure (its owner tells Red Stone's neutral red stone,
    /// `None`, and a Throngs offered stone's colour from the mover's), a Hidden Intention figure or
    /// facing, the colour a Throngs pie chooser takes (a stone of that colour). `None` for moves,
    /// removals, swaps, pass and end.
    pub piece: Option<PieceView>,
    /// Whether the decision is sure to take enemy pieces off the board: by its own action (its
    /// `removes`, unless it returns the mover's own piece), or by a capture its rules make certain
    /// (a Red Stone red stone is legal only where it captures). A decision that merely may capture
    /// (an Inchworm drop) is `false`.
    pub captures: bool,
    /// Part of the pie rule: Red Stone's swap, Throngs' offered stones and colour choice.
    pub pie: bool,
}

impl DecisionInfo {
    /// A decision of `kind` by `side` written `token`, naming no space yet.
    pub fn new(token: String, kind: DecisionKind, side: Side) -> Self {
        DecisionInfo {
            token,
            kind,
            side,
            picks: Vec::new(),
            from: None,
            through: Vec::new(),
            to: None,
            removes: Vec::new(),
            piece: None,
            captures: false,
            pie: false,
        }
    }

    /// A decision made on the one space `cell`, where its action also starts.
    pub fn on(token: String, kind: DecisionKind, side: Side, cell: Cell) -> Self {
        DecisionInfo { picks: vec![cell], from: Some(cell), ..DecisionInfo::new(token, kind, side) }
    }

    /// The action's spaces in order: `from`, `through`, then `to`.
    pub fn spaces(&self) -> Vec<Cell> {
        self.from.into_iter().chain(self.through.iter().copied()).chain(self.to).collect()
    }

    /// Whether the decision is made without a space (a button or key rather than the board).
    pub fn is_spaceless(&self) -> bool {
        self.picks.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_run_from_through_to() {
        let mut d = DecisionInfo::on("Sb8".into(), DecisionKind::Move, Side::First, 57);
        assert_eq!(d.spaces(), vec![57]);
        d.through = vec![48];
        d.to = Some(49);
        assert_eq!(d.spaces(), vec![57, 48, 49]);
        assert!(!d.is_spaceless());
        assert!(DecisionInfo::new("pass".into(), DecisionKind::Pass, Side::Second).is_spaceless());
    }
}
