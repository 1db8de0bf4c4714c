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

use super::position::{MAX_SPACES, Phase, Position, sign};
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
        if self.result.is_some() {
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
            self.push_placements(sg, last, out);
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

    /// Pushes a Remove for every enemy space the mover controls. Walks ranks and files so the
    /// neighbours come without divisions (this is the hot loop of random playouts).
    #[inline]
    fn push_removals(&self, sg: i8, out: &mut Vec<Action>) {
        let n = self.n as usize;
        let st = &self.stacks;
        for rank in 0..n {
            let row = rank * n;
            for file in 0..n {
                let c = row + file;
                if st[c] * sg >= 0 {
                    continue;
                }
                let (mut o, mut f, mut e) = (0u8, 0i8, 0i8);
                let mut look = |v: i8| {
                    let v = v * sg;
                    if v > 0 {
                        o += 1;
                        f += v;
                    } else {
                        e -= v;
                    }
                };
                if rank + 1 < n {
                    look(st[c + n]);
                }
                if rank > 0 {
                    look(st[c - n]);
                }
                if file > 0 {
                    look(st[c - 1]);
                }
                if file + 1 < n {
                    look(st[c + 1]);
                }
                if o >= 2 && f > e {
                    out.push(Action::Remove(c as Cell));
                }
            }
        }
    }

    /// Pushes every legal Place, Move and Return. The spaces are sorted into lists first (written
    /// unconditionally, advanced conditionally, so the scan has no unpredictable branches), then
    /// the actions are appended slice by slice; this is the hot loop of random playouts.
    fn push_placements(&self, sg: i8, last: bool, out: &mut Vec<Action>) {
        let x = self.x as i8;
        let stacks = &self.stacks[..self.spaces()];
        // Spaces that take a pool piece, the mover's stacks, and those with room (sorted).
        let mut place = [0u16; MAX_SPACES];
        let mut own = [0u16; MAX_SPACES];
        let mut room = [0u16; MAX_SPACES];
        let (mut n_place, mut n_own, mut n_room) = (0, 0, 0);
        for (c, &v) in stacks.iter().enumerate() {
            let h = v * sg;
            place[n_place] = c as u16;
            n_place += (h >= 0 && h < x) as usize;
            own[n_own] = c as u16;
            n_own += (h > 0) as usize;
            room[n_room] = c as u16;
            n_room += (h > 0 && h < x) as usize;
        }
        let (place, own, room) = (&place[..n_place], &own[..n_own], &room[..n_room]);
        out.reserve(place.len() + own.len() * room.len() + own.len());

        let pool_now = self.pool[self.side.index()];
        let start_pool = self.progress.start_pool;
        // On the last action of the budget the result must differ from the start of the turn;
        // the pool alone settles that for most candidates (see `changed_after`).
        if pool_now > 0 {
            if !last || pool_now != start_pool + 1 {
                out.extend(place.iter().map(|&c| Action::Place(c)));
            } else {
                out.extend(place.iter().map(|&c| Action::Place(c)).filter(|&a| self.changed_after(a)));
            }
        }
        if !last || pool_now != start_pool || self.progress.changed > 2 {
            for &from in own {
                let k = room.partition_point(|&t| t < from);
                let skip = (room.get(k) == Some(&from)) as usize;
                out.extend(room[..k].iter().map(|&to| Action::Move { from, to }));
                out.extend(room[k + skip..].iter().map(|&to| Action::Move { from, to }));
            }
        } else {
            for &from in own {
                out.extend(
                    room.iter()
                        .filter(|&&to| to != from)
                        .map(|&to| Action::Move { from, to })
                        .filter(|&a| self.changed_after(a)),
                );
            }
        }
        if !last || pool_now + 1 != start_pool {
            out.extend(own.iter().map(|&c| Action::Return(c)));
        } else {
            out.extend(own.iter().map(|&c| Action::Return(c)).filter(|&a| self.changed_after(a)));
        }
    }
}
