//! Commitments and their staged atomic decisions: legality (spec §6.3, §7.1) and generation.

pub use super::commitment::{Commitment, Move, Staged};
use super::position::{Corner, FigureChoice, Kind, Position, SQUARES, Square, SquareSet, bit, pattern, sign, squares};
use crate::rules::{Notation, PlayError, Side};

/// The squares that are neutral or `side`'s own on the values in `influence`.
#[inline]
fn friendly_squares(influence: &[i8; SQUARES], side: Side) -> SquareSet {
    let s = sign(side);
    let mut set = 0u64;
    for (square, &v) in influence.iter().enumerate() {
        set |= ((v * s >= 0) as u64) << square;
    }
    set
}

impl Position {
    /// Empty squares that are not burned: the only candidates for a target.
    #[inline]
    pub fn open_squares(&self) -> SquareSet {
        !(self.occupied[0] | self.occupied[1]) & !self.burned
    }

    /// The squares `side` may name as its target after its own swap `swap` (spec §6.3 rules 3–5).
    pub fn legal_targets(&self, side: Side, swap: Option<(Square, Square)>) -> SquareSet {
        let open = self.open_squares();
        match swap {
            None => open & !self.controlled[side.opponent().index()],
            Some((a, b)) => open & friendly_squares(&self.influence_after_swap(a, b), side),
        }
    }

    /// The influence map with the figures on `a` and `b` exchanged (no cascade): what a player
    /// sees while considering that swap.
    pub fn influence_after_swap(&self, a: Square, b: Square) -> [i8; SQUARES] {
        let mut map = self.influence;
        if let (Some(fa), Some(fb)) = (self.board[a as usize], self.board[b as usize]) {
            let mut shift = |kind: Kind, from: Square, to: Square, s: i8| {
                let p = pattern(kind, from);
                for i in 0..p.len as usize {
                    map[p.cells[i] as usize] -= p.amounts[i] * s;
                }
                let p = pattern(kind, to);
                for i in 0..p.len as usize {
                    map[p.cells[i] as usize] += p.amounts[i] * s;
                }
            };
            shift(fa.kind, a, b, sign(fa.owner));
            shift(fb.kind, b, a, sign(fb.owner));
        }
        map
    }

    /// Whether `side` has a legal target after swapping `a` and `b` (its own figures).
    pub(super) fn swap_has_target(&self, side: Side, a: Square, b: Square) -> bool {
        self.swap_has_target_given(side, a, b, self.legal_targets(side, None))
    }

    /// `swap_has_target` with the legal targets without a swap (`good_now`) already known, so
    /// a loop over all pairs computes them once.
    fn swap_has_target_given(&self, side: Side, a: Square, b: Square, good_now: SquareSet) -> bool {
        let (Some(fa), Some(fb)) = (self.board[a as usize], self.board[b as usize]) else { return false };
        let open = self.open_squares();
        // Only squares in the four moved patterns change value; a good square outside them
        // settles the question without recomputing anything.
        let touched =
            pattern(fa.kind, a).mask | pattern(fa.kind, b).mask | pattern(fb.kind, a).mask | pattern(fb.kind, b).mask;
        if good_now & !touched != 0 {
            return true;
        }
        let map = self.influence_after_swap(a, b);
        let s = sign(side);
        squares(open & touched).any(|square| map[square as usize] * s >= 0)
    }

    /// Every unordered pair of `side`'s figures, lower square first: the candidate swaps.
    pub fn own_pairs(&self, side: Side) -> impl Iterator<Item = (Square, Square)> {
        let own = self.occupied[side.index()];
        squares(own).flat_map(move |a| squares(own & (u64::MAX << a << 1)).map(move |b| (a, b)))
    }

    /// Every swap `side` may include: pairs of its own figures (lower square first) after which
    /// some target is legal. Empty when its swaps are used up.
    pub fn legal_swaps(&self, side: Side, out: &mut Vec<(Square, Square)>) {
        out.clear();
        if self.swaps_left[side.index()] == 0 {
            return;
        }
        let good_now = self.legal_targets(side, None);
        for (a, b) in self.own_pairs(side) {
            if self.swap_has_target_given(side, a, b, good_now) {
                out.push((a, b));
            }
        }
    }

    /// Whether `side` has at least one legal commitment (spec §7.1 `has_legal`).
    pub fn has_legal_commitment(&self, side: Side) -> bool {
        if self.supply[side.index()].is_empty() {
            return false;
        }
        if self.legal_targets(side, None) != 0 {
            return true;
        }
        if self.swaps_left[side.index()] == 0 {
            return false;
        }
        self.own_pairs(side).any(|(a, b)| self.swap_has_target_given(side, a, b, 0))
    }

    /// Checks a complete commitment of `side` against the current public state (spec §6.3).
    pub fn check_commitment(&self, side: Side, c: &Commitment) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::new("the game is over"));
        }
        let name = Position::side_name(side);
        if let Some((a, b)) = c.swap {
            self.check_swap(side, a, b)?;
        }
        let supply = self.supply[side.index()];
        if !supply.has(c.kind.choice()) {
            return Err(PlayError::new(format!(
                "{name} has no {} left in its supply",
                super::figures::figure_name(c.kind.choice())
            )));
        }
        self.check_target(side, c.swap, c.target)
    }

    fn check_swap(&self, side: Side, a: Square, b: Square) -> Result<(), PlayError> {
        let name = Position::side_name(side);
        let cell = |s: Square| super::figures::square_name(s);
        if self.swaps_left[side.index()] == 0 {
            return Err(PlayError::new(format!("{name} has no swaps left")));
        }
        if a == b || a as usize >= SQUARES || b as usize >= SQUARES {
            return Err(PlayError::new(format!("a swap needs two different squares, not {}<>{}", cell(a), cell(b))));
        }
        for s in [a, b] {
            match self.board[s as usize] {
                None => return Err(PlayError::new(format!("{name} cannot swap with the empty square {}", cell(s)))),
                Some(f) if f.owner != side => {
                    return Err(PlayError::new(format!("{name} cannot swap the enemy figure on {}", cell(s))));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    fn check_target(&self, side: Side, swap: Option<(Square, Square)>, target: Square) -> Result<(), PlayError> {
        let name = Position::side_name(side);
        let cell = super::figures::square_name(target);
        if target as usize >= SQUARES {
            return Err(PlayError::new("that square is not on the board"));
        }
        if self.board[target as usize].is_some() {
            return Err(PlayError::new(format!("{cell} is occupied")));
        }
        if self.burned & bit(target) != 0 {
            return Err(PlayError::new(format!(
                "{cell} is burned and closed to both players until the next placement"
            )));
        }
        if self.legal_targets(side, swap) & bit(target) == 0 {
            let view = if swap.is_some() { "after its swap " } else { "" };
            return Err(PlayError::new(format!("{cell} belongs to the opponent {view}so {name} cannot place there")));
        }
        Ok(())
    }

    /// Checks one staged decision against the public state and `side`'s own earlier decisions.
    pub fn check_move(&self, m: &Move) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::new("the game is over"));
        }
        let side = m.side();
        let name = Position::side_name(side);
        let staged = self.staged[side.index()];
        if staged.is_sealed() {
            return Err(PlayError::new(format!("{name} has already sealed its commitment for this attempt")));
        }
        match *m {
            Move::Swap { a, b, .. } => {
                if staged.swap.is_some() || staged.figure.is_some() {
                    return Err(PlayError::new(format!(
                        "{name} can only swap as the first decision of a commitment, and at most once"
                    )));
                }
                self.check_swap(side, a, b)?;
                if a > b {
                    return Err(PlayError::new("write a swap with the lower square first"));
                }
                if !self.swap_has_target(side, a, b) {
                    return Err(PlayError::new(format!("after that swap {name} would have no square to place on")));
                }
                Ok(())
            }
            Move::Figure { choice, .. } => {
                if staged.figure.is_some() {
                    return Err(PlayError::new(format!("{name} has already chosen its figure")));
                }
                if !self.supply[side.index()].has(choice) {
                    return Err(PlayError::new(format!(
                        "{name} has no {} left in its supply",
                        super::figures::figure_name(choice)
                    )));
                }
                if staged.swap.is_none() && self.legal_targets(side, None) == 0 {
                    return Err(PlayError::new(format!(
                        "{name} has no square to place on without a swap; it must swap first"
                    )));
                }
                Ok(())
            }
            Move::Target { square, .. } => {
                if staged.figure.is_none() {
                    return Err(PlayError::new(format!("{name} must choose a figure before its square")));
                }
                if staged.target.is_some() {
                    return Err(PlayError::new(format!("{name} has already chosen its square")));
                }
                self.check_target(side, staged.swap, square)
            }
            Move::Facing { .. } => {
                if staged.figure != Some(FigureChoice::Knight) || staged.target.is_none() {
                    return Err(PlayError::new(format!("{name} chooses a facing only for a knight, after its square")));
                }
                Ok(())
            }
        }
    }

    /// Appends the legal decisions of `side` (none once it has sealed or the game is over).
    pub fn push_moves_for(&self, side: Side, out: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        let staged = self.staged[side.index()];
        let supply = self.supply[side.index()];
        match (staged.figure, staged.target) {
            (None, _) => {
                let good_now = self.legal_targets(side, None);
                let can_place_without_swap = staged.swap.is_some() || good_now != 0;
                if can_place_without_swap {
                    for choice in FigureChoice::ALL {
                        if supply.has(choice) {
                            out.push(Move::Figure { side, choice });
                        }
                    }
                }
                if staged.swap.is_none() && self.swaps_left[side.index()] > 0 {
                    for (a, b) in self.own_pairs(side) {
                        if self.swap_has_target_given(side, a, b, good_now) {
                            out.push(Move::Swap { side, a, b });
                        }
                    }
                }
            }
            (Some(_), None) => {
                for square in squares(self.legal_targets(side, staged.swap)) {
                    out.push(Move::Target { side, square });
                }
            }
            (Some(FigureChoice::Knight), Some(_)) if staged.facing.is_none() => {
                for corner in Corner::ALL {
                    out.push(Move::Facing { side, corner });
                }
            }
            (Some(_), Some(_)) => {}
        }
    }

    /// Every complete legal commitment of `side` on the public state (ignores staged decisions).
    pub fn legal_commitments(&self, side: Side) -> Vec<Commitment> {
        let mut out = Vec::new();
        if self.outcome.is_some() {
            return out;
        }
        let supply = self.supply[side.index()];
        let mut swaps = vec![None];
        let mut pairs = Vec::new();
        self.legal_swaps(side, &mut pairs);
        swaps.extend(pairs.into_iter().map(Some));
        for swap in swaps {
            for target in squares(self.legal_targets(side, swap)) {
                for choice in FigureChoice::ALL {
                    if !supply.has(choice) {
                        continue;
                    }
                    if choice == FigureChoice::Knight {
                        for corner in Corner::ALL {
                            out.push(Commitment { swap, kind: Kind::Knight(corner), target });
                        }
                    } else if let Some(kind) = choice.kind(None) {
                        out.push(Commitment { swap, kind, target });
                    }
                }
            }
        }
        out
    }
}
