//! Gravel's rules (`Rules`): `place` applies one atomic decision, `end_check` hands the turn over
//! and runs the end-of-game-turn check (§8). Gravel has no capture sweep and no cascade:
//! removals are the player's own actions.

use super::moves::Action;
use super::notation::action_text;
use super::options::GravelOptions;
use super::position::{EndReason, GameResult, LossFlags, MAX_SPACES, Position, TurnProgress, WORDS, sign};
use crate::rules::{EffectKind, EffectSink, Notation, Outcome, PlayError, RemoveCause, Rules, Side, Status, ToMove};
use std::collections::HashSet;

impl Rules for Position {
    type Move = Action;
    type Options = GravelOptions;

    /// The empty board of these options, Light to move, game turn 1 (§5).
    fn new(options: &GravelOptions) -> Self {
        let p = options.pieces_per_player();
        let mut pos = Position {
            options: options.clone(),
            n: options.size,
            x: options.budget,
            stacks: [0; MAX_SPACES + 1],
            occ_bits: [[0; WORDS]; 2],
            full_bits: [[0; WORDS]; 2],
            pool: [p, p],
            lost: [0, 0],
            occupied: [0, 0],
            on_board: [0, 0],
            side: Side::First,
            turn: 1,
            progress: TurnProgress::default(),
            result: None,
            turn_ending: false,
        };
        pos.begin_turn();
        pos
    }

    fn options(&self) -> &GravelOptions {
        &self.options
    }

    fn to_move(&self) -> Option<ToMove> {
        match self.result {
            Some(_) => None,
            None => Some(ToMove::One(self.side)),
        }
    }

    fn status(&self) -> Status {
        match self.result {
            Some(r) => Status::Over(r.outcome),
            None => Status::Ongoing,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Action>) {
        self.generate(out);
    }

    fn mover(&self, _m: &Action) -> Side {
        self.side
    }

    fn check(&self, m: &Action) -> Result<(), PlayError> {
        if self.turn_ending {
            return Err(PlayError::new("the turn is ending; run the end check first"));
        }
        self.check_atomic(*m)
            .map(|_| ())
            .map_err(|reason| PlayError::new(format!("{}: {reason}", action_text(self.size(), *m))))
    }

    /// Phase 1: applies one action (all its effects in wave 0).
    fn place(&mut self, m: &Action, effects: &mut impl EffectSink) {
        self.apply_action(*m, 0, effects);
    }

    /// Phase 4: hands the turn over once it ended and runs the end-of-game-turn check.
    fn end_check(&mut self, effects: &mut impl EffectSink) {
        self.finish_turn(0, effects);
    }

    fn zobrist(&self) -> u64 {
        self.hash64()
    }
}

impl Position {
    /// Applies an action that passed the checks and reports it in `wave`. End-turn and pass only
    /// mark the turn as ending.
    pub(super) fn apply_action(&mut self, action: Action, wave: u16, effects: &mut impl EffectSink) {
        self.change_board(action);
        let p = self.side;
        let stacked = |pos: &Position, cell: u16, nobody: Side| {
            let (owner, height) = pos.stack(cell).unwrap_or((nobody, 0));
            EffectKind::Stacked { cell, owner, height: height as u16 }
        };
        match action {
            Action::Place(t) => {
                effects.emit(wave, || EffectKind::Placed { cell: t, by: p, piece: Position::side_char(p), count: 1 });
                effects.emit(wave, || stacked(self, t, p));
            }
            Action::Move { from, to } => {
                effects.emit(wave, || EffectKind::Moved { from, to, by: p, count: 1 });
                effects.emit(wave, || stacked(self, from, p));
                effects.emit(wave, || stacked(self, to, p));
            }
            Action::Return(t) => {
                effects.emit(wave, || EffectKind::Removed { cell: t, count: 1, cause: RemoveCause::Returned });
                effects.emit(wave, || stacked(self, t, p));
            }
            Action::Remove(t) => {
                effects.emit(wave, || EffectKind::Removed { cell: t, count: 1, cause: RemoveCause::Control });
                effects.emit(wave, || stacked(self, t, p.opponent()));
            }
            Action::EndTurn => {}
            Action::Pass => effects.emit(wave, || EffectKind::Passed { side: p }),
        }
    }

    fn change_board(&mut self, action: Action) {
        let pr_phase = self.progress.phase;
        match action {
            Action::Place(t) => {
                self.pool[self.side.index()] -= 1;
                self.change_own(t as usize, 1);
            }
            Action::Move { from, to } => {
                self.change_own(from as usize, -1);
                self.change_own(to as usize, 1);
            }
            Action::Return(t) => {
                self.change_own(t as usize, -1);
                self.pool[self.side.index()] += 1;
            }
            Action::Remove(t) => {
                let q = self.side.opponent();
                let t = t as usize;
                // q's stack has q's sign; one piece less moves it one step towards zero.
                self.set_stack(t, self.stacks[t] - sign(q));
                let qi = q.index();
                self.on_board[qi] -= 1;
                self.lost[qi] += 1;
                if self.stacks[t] == 0 {
                    self.occupied[qi] -= 1;
                }
            }
            Action::EndTurn | Action::Pass => {
                self.turn_ending = true;
                return;
            }
        }
        let pr = &mut self.progress;
        pr.used += 1;
        if action.is_placement() {
            pr.placements += 1;
            pr.phase = pr_phase.after_placement().unwrap_or(pr_phase);
        } else {
            pr.phase = pr_phase.after_removal().unwrap_or(pr_phase);
        }
    }

    /// Hands the turn over once the mover ended it; after Dark's turn advances the game turn and
    /// runs the check of §8, reporting the end of the game in `wave`.
    pub(super) fn finish_turn(&mut self, wave: u16, effects: &mut impl EffectSink) {
        if !self.turn_ending {
            return;
        }
        self.turn_ending = false;
        match self.side {
            Side::First => self.side = Side::Second,
            Side::Second => {
                self.side = Side::First;
                self.turn += 1;
                self.result = self.end_of_game_turn_check();
                if let Some(result) = self.result {
                    effects.emit(wave, || EffectKind::GameOver { outcome: result.outcome });
                }
            }
        }
        self.begin_turn();
    }

    /// The loss conditions of `side` now (§8.2).
    pub fn loss_flags(&self, side: Side) -> LossFlags {
        let i = side.index();
        LossFlags {
            attrition: self.lost[i] > self.options.attrition_threshold(),
            territory: self.occupied[i] < self.lost[i],
        }
    }

    /// The check of §8.3, in its order, on the current position (turn already advanced).
    pub fn end_of_game_turn_check(&self) -> Option<GameResult> {
        let flags = [self.loss_flags(Side::First), self.loss_flags(Side::Second)];
        let result = |outcome, reason| Some(GameResult { outcome, reason, flags });
        match (flags[0].any(), flags[1].any()) {
            (true, true) => return result(Outcome::Draw, EndReason::MutualLoss),
            (true, false) => return result(Outcome::Winner(Side::Second), EndReason::LossCondition),
            (false, true) => return result(Outcome::Winner(Side::First), EndReason::LossCondition),
            (false, false) => {}
        }
        if self.stuck(Side::First) && self.stuck(Side::Second) {
            return result(Outcome::Draw, EndReason::Deadlock);
        }
        let limit = self.options.turn_limit;
        // The game turn just completed is `turn - 1`; it has reached the limit when `turn > limit`.
        if limit > 0 && self.turn > limit {
            return result(Outcome::Draw, EndReason::TurnLimit);
        }
        None
    }

    /// `stuck(x)` of §8.4: `x`, if it moved now, could neither remove a piece nor end with more
    /// occupied spaces.
    pub fn stuck(&self, x: Side) -> bool {
        !self.can_expand_cheaply(x) && !self.can_remove(x)
    }

    /// The exact expansion test of §8.4 when vacant spaces exist: a pool piece, or a stack of
    /// height ≥ 2 to return and re-place. With no vacant space expansion needs a removal first,
    /// which `can_remove` covers.
    fn can_expand_cheaply(&self, x: Side) -> bool {
        self.vacant() > 0 && (self.pool[x.index()] > 0 || (0..self.spaces()).any(|c| self.own_height(x, c) >= 2))
    }

    /// `canRemove(x)` of §8.4: some enemy space can come under x's control within `X − 1`
    /// placement actions, leaving one action for the removal.
    pub fn can_remove(&self, x: Side) -> bool {
        (0..self.spaces())
            .any(|s| self.own_height(x.opponent(), s) > 0 && self.control_cost(x, s, self.x - 1).is_some())
    }

    /// `cost_x(s)` of §8.4: the fewest placement actions after which `x` controls `s` (at most
    /// `max_cost`), found by breadth-first search over the local abstract model: the non-enemy
    /// neighbour slots of `s` (vacant or x's height), x's pool `a` and x's pieces `m` on the board
    /// away from the neighbours. `None` if more than `max_cost` are needed.
    pub fn control_cost(&self, x: Side, s: usize, max_cost: u8) -> Option<u8> {
        let cap = self.x;
        let (nbs, len) = self.neighbours(s);
        let mut slots = [0u8; 4];
        let mut n_slots = 0;
        let mut enemy = 0u8;
        let mut near = 0u16;
        for &nb in &nbs[..len] {
            let v = self.stacks[nb] * sign(x);
            if v < 0 {
                enemy += (-v) as u8;
            } else {
                slots[n_slots] = v as u8;
                n_slots += 1;
                near += v as u16;
            }
        }
        if n_slots < 2 {
            return None;
        }
        // More than `max_cost` spare pieces never matter within `max_cost` steps.
        let limit = |v: u16| v.min(max_cost as u16) as u8;
        let pool = limit(self.pool[x.index()]);
        let outside = limit(self.on_board[x.index()] - near);
        let goal = |sl: &[u8]| {
            let occupied = sl.iter().filter(|&&h| h > 0).count();
            let total: u16 = sl.iter().map(|&h| h as u16).sum();
            occupied >= 2 && total > enemy as u16
        };
        // The slots are interchangeable (all touch s), so states keep them sorted.
        let encode = |sl: &[u8], a: u8, m: u8| {
            let mut sorted = [0u8; 4];
            sorted[..sl.len()].copy_from_slice(sl);
            sorted[..sl.len()].sort_unstable();
            sorted.iter().fold(0u32, |acc, &h| acc << 4 | h as u32) << 8 | (a as u32) << 4 | m as u32
        };
        let decode = |code: u32| {
            let (a, m) = ((code >> 4 & 15) as u8, (code & 15) as u8);
            let mut sl = [0u8; 4];
            for (k, h) in sl.iter_mut().enumerate() {
                *h = (code >> (8 + 4 * (3 - k)) & 15) as u8;
            }
            (sl, a, m)
        };
        if goal(&slots[..n_slots]) {
            return Some(0);
        }
        let start = encode(&slots[..n_slots], pool, outside);
        let mut seen: HashSet<u32> = HashSet::from([start]);
        let mut frontier = vec![start];
        for depth in 1..=max_cost {
            let mut next = Vec::new();
            for &code in &frontier {
                let (sl, a, m) = decode(code);
                let mut push = |sl: &[u8], a: u8, m: u8| -> bool {
                    if goal(sl) {
                        return true;
                    }
                    let c = encode(sl, a.min(max_cost), m.min(max_cost));
                    if seen.insert(c) {
                        next.push(c);
                    }
                    false
                };
                for i in 0..n_slots {
                    let h = sl[i];
                    if h < cap && a > 0 {
                        let mut t = sl;
                        t[i] += 1;
                        if push(&t[..n_slots], a - 1, m) {
                            return Some(depth);
                        }
                    }
                    if h > 0 && h < cap && m > 0 {
                        let mut t = sl;
                        t[i] += 1;
                        if push(&t[..n_slots], a, m - 1) {
                            return Some(depth);
                        }
                    }
                    if h > 0 {
                        let mut t = sl;
                        t[i] -= 1;
                        if push(&t[..n_slots], a + 1, m) {
                            return Some(depth);
                        }
                        for j in 0..n_slots {
                            if j != i && sl[j] > 0 && sl[j] < cap {
                                let mut t = sl;
                                t[i] -= 1;
                                t[j] += 1;
                                if push(&t[..n_slots], a, m) {
                                    return Some(depth);
                                }
                            }
                        }
                    }
                }
                if m > 0 && push(&sl[..n_slots], a + 1, m - 1) {
                    return Some(depth);
                }
            }
            if next.is_empty() {
                return None;
            }
            frontier = next;
        }
        None
    }
}
