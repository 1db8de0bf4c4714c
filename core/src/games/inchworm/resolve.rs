//! Inchworm's rules (`Rules`): the named phases `place` → `capture_sweep` → `end_check` (spec §5–§8).
//!
//! `place` applies the action (spec §6), `capture_sweep` removes every liberty-less group
//! (spec §7), `end_check` updates the counters and ends the game (spec §8). Inchworm has no
//! cascade: one capture pass is enough. Wave 0 holds the action, wave 1 the captures; the
//! game-over effect closes the last wave.

use super::moves::{self, Move, direction_between, start_spread};
use super::notation::piece_char;
use super::options::InchwormOptions;
use super::position::{CollectRun, PendingResolution, Position, Sq, bit, bits};
use crate::rules::{Cell, EffectKind, EffectSink, GameRng, Outcome, PlayError, Rules, Side, Status, ToMove};

/// The wave of captures and scoring (after the action's wave 0).
const CAPTURE_WAVE: u16 = 1;

impl Rules for Position {
    type Move = Move;
    type Options = InchwormOptions;

    /// The start of a game (spec §4): empty board, full stocks, Black to move.
    fn new(options: &InchwormOptions) -> Self {
        Position {
            options: *options,
            height: [0; 64],
            occupied: [0; 2],
            stock: options.pieces,
            held: [0; 2],
            score: [0; 2],
            side: Side::First,
            quiet: 0,
            pass_streak: false,
            result: None,
            spread: None,
            collect: None,
            resolution: None,
        }
    }

    fn options(&self) -> &InchwormOptions {
        &self.options
    }

    fn to_move(&self) -> Option<ToMove> {
        if self.result.is_some() { None } else { Some(ToMove::One(self.side)) }
    }

    fn status(&self) -> Status {
        match self.result {
            Some(o) => Status::Over(o),
            None => Status::Ongoing,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn random_move(&self, rng: &mut GameRng, _scratch: &mut Vec<Move>) -> Option<Move> {
        self.random_decision(rng)
    }

    fn mover(&self, _m: &Move) -> Side {
        moves::mover(self)
    }

    fn check(&self, m: &Move) -> Result<(), PlayError> {
        self.check_move(m)
    }

    /// Phase 1 (spec §6): applies one atomic decision; a staged step of a collect or a
    /// distribution changes nothing on the board until its last step.
    fn place(&mut self, m: &Move, effects: &mut impl EffectSink) {
        let me = self.side;
        let i = me.index();
        let occupied_before = self.occupied[0] | self.occupied[1];
        // Staged steps of a collect or a distribution change nothing on the board until the
        // action is complete; only a complete action goes on to the capture sweep.
        let complete = match *m {
            Move::Drop(c) => {
                self.stock[i] -= 1;
                self.add_stones(me, c, 1);
                effects.emit(0, || EffectKind::Placed { cell: c as Cell, by: me, piece: piece_char(me), count: 1 });
                if self.height[c as usize] > 1 {
                    effects.emit(0, || EffectKind::Stacked {
                        cell: c as Cell,
                        owner: me,
                        height: self.height[c as usize] as u16,
                    });
                }
                true
            }
            Move::Place(c) => {
                self.held[i] -= 1;
                self.add_stones(me.opponent(), c, 1);
                effects.emit(0, || EffectKind::Placed {
                    cell: c as Cell,
                    by: me,
                    piece: piece_char(me.opponent()),
                    count: 1,
                });
                true
            }
            Move::CollectFrom(c) => {
                self.collect = Some(CollectRun::new(c));
                false
            }
            Move::CollectStep(n) => {
                self.extend_collect(n);
                false
            }
            Move::CollectOnto(target) => self.finish_collect(target, effects),
            Move::SpreadFrom(c) => {
                self.spread = Some(start_spread(c));
                false
            }
            Move::SpreadStep(n) => self.extend_spread(n, effects),
            Move::Rescue => {
                let o = 1 - i;
                let n = self.held[o];
                self.stock[i] += n;
                self.held[o] = 0;
                effects.emit(0, || EffectKind::Rescued { side: me, count: n as u16 });
                true
            }
            Move::Pass => {
                effects.emit(0, || EffectKind::Passed { side: me });
                true
            }
        };
        if complete {
            let filled = (self.occupied[0] | self.occupied[1]) & !occupied_before;
            self.resolution = Some(PendingResolution { was_pass: *m == Move::Pass, captured: 0, filled });
        }
    }

    /// Phase 2 (spec §7): marks every liberty-less group of both colours, then removes them all;
    /// the opponent of each removed group holds its stones and scores one point per stone.
    fn capture_sweep(&mut self, effects: &mut impl EffectSink) {
        let Some(resolution) = &self.resolution else { return };
        let dead = self.dead_stones_after_filling(resolution.filled);
        if dead == [0, 0] {
            return;
        }
        if effects.records() {
            let geom = self.geometry();
            for side in Side::BOTH {
                let mut left = dead[side.index()];
                while left != 0 {
                    let group = geom.flood(left & left.wrapping_neg(), left, false);
                    left &= !group;
                    effects.emit(CAPTURE_WAVE, || EffectKind::Captured {
                        cells: bits(group).map(|c| c as Cell).collect(),
                        by: side.opponent(),
                    });
                }
            }
            self.remove_dead(dead);
            for side in Side::BOTH {
                if dead[side.index()] != 0 {
                    let capturer = side.opponent();
                    let score = self.score[capturer.index()] as i32;
                    effects.emit(CAPTURE_WAVE, || EffectKind::Scored { side: capturer, score });
                }
            }
        } else {
            self.remove_dead(dead);
        }
    }

    /// Phase 4 (spec §5 steps 2–4, §8): counters, end of game, next player.
    fn end_check(&mut self, effects: &mut impl EffectSink) {
        let Some(res) = self.resolution.take() else { return };
        // Spec §13's invariants: stones are conserved and no group is left without a liberty.
        debug_assert!(Side::BOTH.iter().all(|&s| self.conserves_stones(s)), "stones not conserved");
        debug_assert_eq!(self.dead_stones(), [0, 0], "a liberty-less group survived the sweep");
        self.quiet = if res.captured > 0 { 0 } else { self.quiet.saturating_add(1) };
        let blocked = res.was_pass && self.pass_streak;
        self.pass_streak = res.was_pass;
        if self.limit_reached() || blocked {
            let outcome: Outcome = self.outcome_by_score();
            self.result = Some(outcome);
            let wave = if res.captured > 0 { CAPTURE_WAVE } else { 0 };
            effects.emit(wave, || EffectKind::GameOver { outcome });
        }
        self.side = self.side.opponent();
    }

    fn zobrist(&self) -> u64 {
        self.hash()
    }
}

impl Position {
    /// Adds the next stack `n` to the collect under way.
    fn extend_collect(&mut self, n: Sq) {
        let geom = self.geometry();
        let Some(run) = self.collect.as_mut() else { return };
        if run.len == 1 {
            run.dir = direction_between(geom, run.start, n).unwrap_or(0) as u8;
        }
        run.len += 1;
        run.end = n;
        run.cells |= bit(n);
    }

    /// Gathers the collected stacks onto `target`; whether a collect was under way.
    fn finish_collect(&mut self, target: Sq, effects: &mut impl EffectSink) -> bool {
        let Some(run) = self.collect.take() else { return false };
        let me = self.side;
        let mut total = 0u8;
        let mut from = Vec::new();
        for c in bits(run.cells) {
            total += self.height[c as usize];
            if c != target {
                self.height[c as usize] = 0;
                self.occupied[me.index()] &= !bit(c);
                // The list is built only when effects are kept (not in search).
                if effects.records() {
                    from.push(c as Cell);
                }
            }
        }
        self.height[target as usize] = total;
        effects.emit(0, || EffectKind::Collected { from, to: target as Cell, by: me });
        effects.emit(0, || EffectKind::Stacked { cell: target as Cell, owner: me, height: total as u16 });
        true
    }

    /// Adds cell `n` to the distribution under way and spreads the stack once the path is as long
    /// as the stack is high; whether the distribution is complete.
    fn extend_spread(&mut self, n: Sq, effects: &mut impl EffectSink) -> bool {
        let Some(spread) = self.spread.as_mut() else { return false };
        spread.push(n);
        let source = spread.source();
        if spread.len < self.height[source as usize] {
            return false;
        }
        let Some(spread) = self.spread.take() else { return false };
        let me = self.side;
        self.height[source as usize] = 1;
        for &c in &spread.cells()[1..] {
            self.add_stones(me, c, 1);
        }
        effects
            .emit(0, || EffectKind::Distributed { path: spread.cells().iter().map(|&c| c as Cell).collect(), by: me });
        true
    }

    fn add_stones(&mut self, owner: Side, c: Sq, n: u8) {
        self.height[c as usize] += n;
        self.occupied[owner.index()] |= bit(c);
    }

    fn remove_dead(&mut self, dead: [u64; 2]) {
        let mut captured = 0;
        for (i, &dead_cells) in dead.iter().enumerate() {
            let mut stones = 0u32;
            for c in bits(dead_cells) {
                stones += self.height[c as usize] as u32;
                self.height[c as usize] = 0;
            }
            self.occupied[i] &= !dead_cells;
            // Stones of side i go to the opponent's keeping and score for the opponent.
            self.held[1 - i] += stones as u8;
            self.score[1 - i] += stones;
            captured += stones;
        }
        if let Some(r) = self.resolution.as_mut() {
            r.captured += captured;
        }
    }
}
