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
    /// `max_cost`), found by breadth-first search over the local abstract model (see
    /// [`ControlModel`]). `None` if more than `max_cost` are needed.
    pub fn control_cost(&self, x: Side, s: usize, max_cost: u8) -> Option<u8> {
        let (model, start) = self.control_model(x, s, max_cost)?;
        if model.goal(&start.slots[..model.n_slots]) {
            return Some(0);
        }
        let start = model.encode(&start.slots[..model.n_slots], start.pool, start.outside);
        let mut seen: HashSet<u32> = HashSet::from([start]);
        let mut frontier = vec![start];
        for depth in 1..=max_cost {
            let mut next = Vec::new();
            for &code in &frontier {
                let reached = model.for_each_step(model.decode(code), |slots, pool, outside| {
                    if model.goal(slots) {
                        return true;
                    }
                    let c = model.encode(slots, pool.min(max_cost), outside.min(max_cost));
                    if seen.insert(c) {
                        next.push(c);
                    }
                    false
                });
                if reached {
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

    /// The model of `cost_x(s)` and its start: `x`'s heights on the non-enemy neighbours of `s`,
    /// the enemy pieces next to `s`, `x`'s pool and `x`'s pieces away from the neighbours. `None`
    /// when fewer than two neighbours can ever be `x`'s.
    fn control_model(&self, x: Side, s: usize, max_cost: u8) -> Option<(ControlModel, ControlState)> {
        let (nbs, len) = self.neighbours(s);
        let mut start = ControlState { slots: [0; 4], pool: 0, outside: 0 };
        let mut n_slots = 0;
        let mut enemy = 0u8;
        let mut near = 0u16;
        for &nb in &nbs[..len] {
            let v = self.stacks[nb] * sign(x);
            if v < 0 {
                enemy += (-v) as u8;
            } else {
                start.slots[n_slots] = v as u8;
                n_slots += 1;
                near += v as u16;
            }
        }
        if n_slots < 2 {
            return None;
        }
        // More than `max_cost` spare pieces never matter within `max_cost` steps.
        let limit = |v: u16| v.min(max_cost as u16) as u8;
        start.pool = limit(self.pool[x.index()]);
        start.outside = limit(self.on_board[x.index()] - near);
        Some((ControlModel { n_slots, enemy, cap: self.x }, start))
    }
}

/// The local abstract model of §8.4 around one space `s`: only the non-enemy neighbours of `s`
/// (its slots) change, and `x` wins control once two slots are occupied and hold more pieces than
/// the enemy has next to `s`.
struct ControlModel {
    n_slots: usize,
    enemy: u8,
    /// X, the stack cap.
    cap: u8,
}

/// A state of the model: `x`'s height on each slot, its pool, its pieces elsewhere on the board.
#[derive(Clone, Copy)]
struct ControlState {
    slots: [u8; 4],
    pool: u8,
    outside: u8,
}

impl ControlModel {
    fn goal(&self, slots: &[u8]) -> bool {
        let occupied = slots.iter().filter(|&&h| h > 0).count();
        let total: u16 = slots.iter().map(|&h| h as u16).sum();
        occupied >= 2 && total > self.enemy as u16
    }

    /// The slots are interchangeable (all touch `s`), so a state keeps them sorted.
    fn encode(&self, slots: &[u8], pool: u8, outside: u8) -> u32 {
        let mut sorted = [0u8; 4];
        sorted[..slots.len()].copy_from_slice(slots);
        sorted[..slots.len()].sort_unstable();
        sorted.iter().fold(0u32, |acc, &h| acc << 4 | h as u32) << 8 | (pool as u32) << 4 | outside as u32
    }

    fn decode(&self, code: u32) -> ControlState {
        let mut slots = [0u8; 4];
        for (k, h) in slots.iter_mut().enumerate() {
            *h = (code >> (8 + 4 * (3 - k)) & 15) as u8;
        }
        ControlState { slots, pool: (code >> 4 & 15) as u8, outside: (code & 15) as u8 }
    }

    /// Calls `visit` with every state one action away from `state` (place from the pool, move a
    /// piece in from elsewhere or between slots, return one to the pool); stops and says so as
    /// soon as `visit` returns true.
    fn for_each_step(&self, state: ControlState, mut visit: impl FnMut(&[u8], u8, u8) -> bool) -> bool {
        let (n, cap) = (self.n_slots, self.cap);
        let ControlState { slots: sl, pool: a, outside: m } = state;
        for i in 0..n {
            let h = sl[i];
            if h < cap && a > 0 {
                let mut t = sl;
                t[i] += 1;
                if visit(&t[..n], a - 1, m) {
                    return true;
                }
            }
            if h > 0 && h < cap && m > 0 {
                let mut t = sl;
                t[i] += 1;
                if visit(&t[..n], a, m - 1) {
                    return true;
                }
            }
            if h > 0 {
                let mut t = sl;
                t[i] -= 1;
                if visit(&t[..n], a + 1, m) {
                    return true;
                }
                for j in 0..n {
                    if j != i && sl[j] > 0 && sl[j] < cap {
                        let mut t = sl;
                        t[i] -= 1;
                        t[j] += 1;
                        if visit(&t[..n], a, m) {
                            return true;
                        }
                    }
                }
            }
        }
        m > 0 && visit(&sl[..n], a + 1, m - 1)
    }
}
