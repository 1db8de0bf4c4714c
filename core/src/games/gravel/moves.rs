//! Gravel's atomic decisions (the four actions, end-turn, pass), their legality and generation.
//!
//! Two layers of legality:
//! - [`Position::check_action`] is the literal per-action check of §6.6, in the spec's order.
//!   Whole turn strings are judged with it (plus the end-turn checks), so a refused turn names
//!   the same action and reason as the spec's examples.
//! - An atomic decision played on its own must also leave the turn finishable
//!   ([`Position::keeps_turn_finishable`]): otherwise a player clicking one action at a time could
//!   walk into a dead end with no legal decision left (e.g. `+a1,-a1` with X = 2). So an atomic
//!   action is legal exactly when it is the start of some legal turn from here.

use super::position::{Phase, Position, WORDS, controls_with, neighbour_table, sign};
use crate::rules::{Cell, Side};
use std::fmt;

/// One atomic decision of a Gravel turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `+t`: a piece from the pool onto `t`.
    Place(Cell),
    /// `s>t`: one piece from `from` onto the mover's own stack on `to`.
    Move { from: Cell, to: Cell },
    /// `-s`: one piece from `s` back to the pool.
    Return(Cell),
    /// `xs`: one enemy piece off `s` for good.
    Remove(Cell),
    /// End the player turn.
    EndTurn,
    /// The empty turn of a player with no pieces at all (§6.5).
    Pass,
}

impl Action {
    /// Place, Move and Return are placement actions; Remove is not; end-turn and pass are not
    /// actions that cost budget.
    pub fn is_placement(self) -> bool {
        matches!(self, Action::Place(_) | Action::Move { .. } | Action::Return(_))
    }
}

/// Why an action, an end-turn or a whole turn is refused. The names are the spec's reasons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    GameOver,
    PassNotAllowed,
    OffBoard,
    PhaseOrder,
    BudgetExceeded,
    PoolEmpty,
    TargetEnemyOccupied,
    StackFull,
    SourceNotOwn,
    SameSpace,
    MoveTargetVacant,
    RemoveTargetNotEnemy,
    NotControlled,
    NoPlacement,
    NoNetChange,
    /// Atomic play only: the action is legal by itself but no legal turn can start with the
    /// actions taken so far followed by it.
    DeadEnd,
    /// A whole turn string was given while a turn was already under way.
    TurnInProgress,
}

impl Illegal {
    /// The reason as the spec names it (`"BudgetExceeded"`).
    pub fn code(self) -> &'static str {
        match self {
            Illegal::GameOver => "GameOver",
            Illegal::PassNotAllowed => "PassNotAllowed",
            Illegal::OffBoard => "OffBoard",
            Illegal::PhaseOrder => "PhaseOrder",
            Illegal::BudgetExceeded => "BudgetExceeded",
            Illegal::PoolEmpty => "PoolEmpty",
            Illegal::TargetEnemyOccupied => "TargetEnemyOccupied",
            Illegal::StackFull => "StackFull",
            Illegal::SourceNotOwn => "SourceNotOwn",
            Illegal::SameSpace => "SameSpace",
            Illegal::MoveTargetVacant => "MoveTargetVacant",
            Illegal::RemoveTargetNotEnemy => "RemoveTargetNotEnemy",
            Illegal::NotControlled => "NotControlled",
            Illegal::NoPlacement => "NoPlacement",
            Illegal::NoNetChange => "NoNetChange",
            Illegal::DeadEnd => "DeadEnd",
            Illegal::TurnInProgress => "TurnInProgress",
        }
    }

    /// A sentence a player understands.
    pub fn message(self) -> &'static str {
        match self {
            Illegal::GameOver => "the game is over",
            Illegal::PassNotAllowed => "you may pass only when you have no pieces at all",
            Illegal::OffBoard => "that space is not on the board",
            Illegal::PhaseOrder => {
                "placements and removals cannot be mixed: a turn is placements then removals, or removals then placements"
            }
            Illegal::BudgetExceeded => "the action budget of this turn is spent",
            Illegal::PoolEmpty => "your pool is empty",
            Illegal::TargetEnemyOccupied => "no piece may go onto a space the opponent occupies",
            Illegal::StackFull => "that stack already holds the most pieces a space may hold (X)",
            Illegal::SourceNotOwn => "there is none of your pieces on that space",
            Illegal::SameSpace => "a piece must move to a different space",
            Illegal::MoveTargetVacant => {
                "a piece on the board may only move onto one of your own stacks (return it and place it to reach a vacant space)"
            }
            Illegal::RemoveTargetNotEnemy => "there is no enemy piece on that space",
            Illegal::NotControlled => {
                "you do not control that space: you need at least 2 occupied neighbours and more pieces around it than the opponent"
            }
            Illegal::NoPlacement => "a turn must include at least one placement action (place, move or return)",
            Illegal::NoNetChange => "the turn must change your pieces: pool and stacks are as they were at its start",
            Illegal::DeadEnd => "after that action the turn could not be finished legally",
            Illegal::TurnInProgress => "a turn is already under way; finish it one action at a time",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message(), self.code())
    }
}

impl Position {
    /// Whether the side to move has no pieces at all (the only case where `pass` is legal).
    pub fn has_no_pieces(&self, side: Side) -> bool {
        self.pool[side.index()] == 0 && self.on_board[side.index()] == 0
    }

    /// The literal check of one action of §6.6 (squares already on the board), in the spec's
    /// order; returns the phase after the action. Does not look ahead.
    pub fn check_action(&self, action: Action) -> Result<Phase, Illegal> {
        if self.result.is_some() {
            return Err(Illegal::GameOver);
        }
        let s = self.spaces();
        let on_board = |c: Cell| (c as usize) < s;
        let p = self.side;
        let pr = &self.progress;
        match action {
            Action::Pass => {
                if pr.used > 0 || !self.has_no_pieces(p) {
                    return Err(Illegal::PassNotAllowed);
                }
                Ok(pr.phase)
            }
            Action::EndTurn => {
                if pr.placements == 0 {
                    return Err(Illegal::NoPlacement);
                }
                if !self.config_changed() {
                    return Err(Illegal::NoNetChange);
                }
                Ok(pr.phase)
            }
            Action::Place(t) | Action::Return(t) | Action::Remove(t) if !on_board(t) => Err(Illegal::OffBoard),
            Action::Move { from, to } if !on_board(from) || !on_board(to) => Err(Illegal::OffBoard),
            _ => {
                let next = if action.is_placement() { pr.phase.after_placement() } else { pr.phase.after_removal() };
                let next = next.ok_or(Illegal::PhaseOrder)?;
                if pr.used >= self.x {
                    return Err(Illegal::BudgetExceeded);
                }
                let sg = sign(p);
                match action {
                    Action::Place(t) => {
                        let v = self.stacks[t as usize] * sg;
                        if self.pool[p.index()] == 0 {
                            return Err(Illegal::PoolEmpty);
                        }
                        if v < 0 {
                            return Err(Illegal::TargetEnemyOccupied);
                        }
                        if v as u8 >= self.x {
                            return Err(Illegal::StackFull);
                        }
                    }
                    Action::Move { from, to } => {
                        if self.stacks[from as usize] * sg <= 0 {
                            return Err(Illegal::SourceNotOwn);
                        }
                        if from == to {
                            return Err(Illegal::SameSpace);
                        }
                        let v = self.stacks[to as usize] * sg;
                        if v == 0 {
                            return Err(Illegal::MoveTargetVacant);
                        }
                        if v < 0 {
                            return Err(Illegal::TargetEnemyOccupied);
                        }
                        if v as u8 >= self.x {
                            return Err(Illegal::StackFull);
                        }
                    }
                    Action::Return(t) => {
                        if self.stacks[t as usize] * sg <= 0 {
                            return Err(Illegal::SourceNotOwn);
                        }
                    }
                    Action::Remove(t) => {
                        if self.stacks[t as usize] * sg >= 0 {
                            return Err(Illegal::RemoveTargetNotEnemy);
                        }
                        if !self.controls(p, t as usize) {
                            return Err(Illegal::NotControlled);
                        }
                    }
                    Action::EndTurn | Action::Pass => {}
                }
                Ok(next)
            }
        }
    }

    /// Whether, after `action` (already known to pass [`check_action`](Self::check_action)), some
    /// legal end of the turn is still reachable.
    ///
    /// Why this simple test is exact: any single placement action changes the mover's own
    /// configuration, and one is always available to a player who has a piece (Return with a
    /// piece on the board; otherwise Place on a vacant space, which exists because the opponent
    /// holds at most P < S spaces). So a placement phase with budget left can always finish; a
    /// removal-first turn needs one action left for its placement (the remover has pieces on the
    /// board, since control needs two occupied neighbours); a removal after the placement phase
    /// can never change the configuration, so it needs the change to be there already; and the
    /// last action of the budget must itself leave the configuration changed.
    pub fn keeps_turn_finishable(&self, action: Action, next: Phase) -> bool {
        match action {
            Action::EndTurn | Action::Pass => true,
            Action::Remove(_) => match next {
                Phase::RemoveFirst => self.progress.used + 1 < self.x,
                _ => self.config_changed(),
            },
            _ => self.progress.used + 1 < self.x || self.changed_after(action),
        }
    }

    /// Whether the configuration would differ from the start of the turn after placement action
    /// `action`.
    fn changed_after(&self, action: Action) -> bool {
        // Fast paths: the pool alone settles it, or too many spaces differ for one action to
        // undo them all.
        let pool_now = self.pool[self.side.index()];
        let start_pool = self.progress.start_pool;
        match action {
            Action::Place(_) if pool_now != start_pool + 1 => return true,
            Action::Return(_) if pool_now + 1 != start_pool => return true,
            Action::Move { .. } if pool_now != start_pool || self.progress.changed > 2 => return true,
            _ => {}
        }
        let delta = |c: Cell, d: i8| -> i8 {
            let c = c as usize;
            let h = self.own_height(self.side, c) as i8;
            let s = self.start_height(c) as i8;
            (h + d != s) as i8 - (h != s) as i8
        };
        let pool = self.pool[self.side.index()] as i32;
        let (pool_after, cells) = match action {
            Action::Place(t) => (pool - 1, delta(t, 1)),
            Action::Return(t) => (pool + 1, delta(t, -1)),
            Action::Move { from, to } => (pool, delta(from, -1) + delta(to, 1)),
            _ => (pool, 0),
        };
        pool_after != self.progress.start_pool as i32 || self.progress.changed as i8 + cells > 0
    }

    /// Full legality of one atomic decision: the literal check plus the look-ahead.
    pub fn check_atomic(&self, action: Action) -> Result<Phase, Illegal> {
        let next = self.check_action(action)?;
        if !self.keeps_turn_finishable(action, next) {
            return Err(Illegal::DeadEnd);
        }
        Ok(next)
    }

    /// Appends every legal atomic decision (clears `out` first). Built straight from the rules
    /// for speed; `check_atomic` agrees with it (tested).
    pub fn generate(&self, out: &mut Vec<Action>) {
        out.clear();
        // Between `place` and `end_check` of an ending turn nobody has a decision yet.
        if self.result.is_some() || self.turn_ending {
            return;
        }
        let p = self.side;
        let pr = &self.progress;
        if pr.used == 0 && self.has_no_pieces(p) {
            out.push(Action::Pass);
            return;
        }
        let changed = self.config_changed();
        if pr.placements > 0 && changed {
            out.push(Action::EndTurn);
        }
        if pr.used >= self.x {
            return;
        }
        let last = pr.used + 1 == self.x;
        let sg = sign(p);

        if pr.phase.after_placement().is_some() {
            // A stack needs at least one piece, so a side has at most P ≤ 181 stacks; boards of
            // up to 8×8 fit in 64. The smaller list is cheaper to set up on every call.
            if self.spaces() <= 64 {
                self.push_placements::<64>(last, out);
            } else {
                self.push_placements::<192>(last, out);
            }
        }

        if let Some(next) = pr.phase.after_removal() {
            let viable = match next {
                Phase::RemoveFirst => !last,
                _ => changed,
            };
            if viable {
                self.push_removals(sg, out);
            }
        }
    }

    /// Pushes a Remove for every enemy space the mover controls, visiting only enemy stacks. On
    /// boards of one word (N ≤ 8) the stacks without two own neighbours are dropped first with a
    /// few shifts.
    #[inline]
    fn push_removals(&self, sg: i8, out: &mut Vec<Action>) {
        let nbt = neighbour_table(self.n);
        let me = self.side.index();
        let them = 1 - me;
        let mut candidates = self.occ_bits[them];
        if self.words() == 1 {
            let n = self.n as usize;
            let own = self.occ_bits[me][0];
            let (mut first_file, mut last_file) = (0u64, 0u64);
            for rank in 0..n {
                first_file |= 1 << (rank * n);
                last_file |= 1 << (rank * n + n - 1);
            }
            let above = own >> n;
            let below = own << n;
            let left = (own << 1) & !first_file;
            let right = (own >> 1) & !last_file;
            let two_or_more = (above & below) | (left & right) | ((above | below) & (left | right));
            candidates[0] &= two_or_more;
        }
        for_each_bit(&candidates, self.words(), |c| {
            if controls_with(&self.stacks, &nbt[c], sg) {
                out.push(Action::Remove(c as Cell));
            }
        });
    }

    /// The number of 64-bit words the board's bit sets use.
    #[inline]
    fn words(&self) -> usize {
        self.spaces().div_ceil(64)
    }

    /// Pushes every legal Place, Move and Return, walking the bit sets of the mover's stacks;
    /// this is the hot loop of random playouts.
    ///
    /// On the last action of the budget the result must differ from the start of the turn. A
    /// placement action changes the mover's configuration by one pool piece and one or two
    /// spaces; an untouched space always ends up different from its start, so only spaces
    /// touched earlier in the turn need the exact test (`changed_after`).
    fn push_placements<const MAX_STACKS: usize>(&self, last: bool, out: &mut Vec<Action>) {
        let me = self.side.index();
        let them = 1 - me;
        let words = self.words();
        let s = self.spaces();
        let mut room = [0u64; WORDS];
        let mut touched = [0u64; WORDS];
        for (w, bits) in room.iter_mut().enumerate().take(words) {
            *bits = self.occ_bits[me][w] & !self.full_bits[me][w];
        }
        let pr = &self.progress;
        for &(c, _) in &pr.touched[..pr.touched_len as usize] {
            touched[c as usize / 64] |= 1 << (c % 64);
        }
        let is_touched = |c: usize| touched[c / 64] & (1 << (c % 64)) != 0;
        let n_room: u32 = room.iter().map(|w| w.count_ones()).sum();
        let n_own = self.occupied[me] as usize;
        out.reserve(s + n_own * n_room as usize + n_own);

        let pool_now = self.pool[me];
        let start_pool = pr.start_pool;
        if pool_now > 0 {
            let exact = last && pool_now == start_pool + 1;
            for w in 0..words {
                let board = if (w + 1) * 64 <= s { u64::MAX } else { (1u64 << (s - w * 64)) - 1 };
                let mut b = board & !self.occ_bits[them][w] & !self.full_bits[me][w];
                if exact {
                    while b != 0 {
                        let c = w * 64 + b.trailing_zeros() as usize;
                        b &= b - 1;
                        let a = Action::Place(c as Cell);
                        if !is_touched(c) || self.changed_after(a) {
                            out.push(a);
                        }
                    }
                } else {
                    // Listed first, then appended as one slice.
                    let mut cells = [0u16; 64];
                    let mut m = 0;
                    while b != 0 {
                        cells[m & 63] = (w * 64 + b.trailing_zeros() as usize) as Cell;
                        m += 1;
                        b &= b - 1;
                    }
                    out.extend(cells[..m].iter().map(|&c| Action::Place(c)));
                }
            }
        }
        // The targets of moves as a sorted list, so each source appends its moves as slices
        // (one bounds check and length update per slice instead of per move).
        let mut room_list = [0u16; MAX_STACKS];
        let mut n_room = 0;
        for_each_bit(&room, words, |c| {
            room_list[n_room] = c as Cell;
            n_room += 1;
        });
        let room_list = &room_list[..n_room];
        let exact_moves = last && pool_now == start_pool && pr.changed <= 2;
        let exact_returns = last && pool_now + 1 == start_pool;
        let mut k = 0;
        for_each_bit(&self.occ_bits[me], words, |from| {
            let from_touched = is_touched(from);
            let from = from as Cell;
            if exact_moves {
                for &to in room_list {
                    let a = Action::Move { from, to };
                    if to != from && ((!from_touched && !is_touched(to as usize)) || self.changed_after(a)) {
                        out.push(a);
                    }
                }
            } else {
                // Sources come in increasing order, so `k` walks `room_list` to `from` once.
                while k < room_list.len() && room_list[k] < from {
                    k += 1;
                }
                let skip = (room_list.get(k) == Some(&from)) as usize;
                out.extend(room_list[..k].iter().map(|&to| Action::Move { from, to }));
                out.extend(room_list[k + skip..].iter().map(|&to| Action::Move { from, to }));
            }
            let a = Action::Return(from);
            if !exact_returns || !from_touched || self.changed_after(a) {
                out.push(a);
            }
        });
    }
}

/// Calls `f` with the index of every set bit of the first `words` words, in increasing order.
#[inline]
fn for_each_bit(bits: &[u64; WORDS], words: usize, mut f: impl FnMut(usize)) {
    for (w, &word) in bits.iter().enumerate().take(words) {
        let mut b = word;
        while b != 0 {
            f(w * 64 + b.trailing_zeros() as usize);
            b &= b - 1;
        }
    }
}
