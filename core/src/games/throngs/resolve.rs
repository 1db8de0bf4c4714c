//! Throngs' rules (`Rules`): `place` applies one atomic decision (the whole move part when it
//! completes), `end_check` does the part/turn bookkeeping and the end of game (§4.3, §6). Throngs has no
//! captures by enclosure and no cascades, so `capture_sweep` and `cascade` are the empty defaults.

use super::moves::Move;
use super::options::{Adjudication, Opening, PassRule, ThrongsOptions};
use super::position::{PartKind, Phase, Position, Settle, Started, stone_of};
use crate::rules::{
    Cell, EffectKind, EffectSink, Notation, Outcome, PlayError, Rules, Side, Status, ToMove, splitmix64,
};

/// What the completed part was, for the counters (§4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Done {
    Pass,
    Place,
    Capture,
    Move,
}

impl Rules for Position {
    type Move = Move;
    type Options = ThrongsOptions;

    /// The initial position of these options (§3.2).
    fn new(options: &ThrongsOptions) -> Self {
        let mut p = Position::empty_board(options);
        match options.opening {
            Opening::Standard => {
                for &s in &p.geo.start_black {
                    p.put(s, Side::First);
                }
                for &s in &p.geo.start_white {
                    p.put(s, Side::Second);
                }
            }
            Opening::Pie(_) => p.phase = Phase::PieOffer,
        }
        p
    }

    fn options(&self) -> &ThrongsOptions {
        &self.options
    }

    fn to_move(&self) -> Option<ToMove> {
        match self.phase {
            Phase::Over(_) => None,
            Phase::PieOffer => Some(ToMove::One(Side::First)),
            Phase::PieChoice => Some(ToMove::One(Side::Second)),
            Phase::Play => Some(ToMove::One(self.mover)),
        }
    }

    fn status(&self) -> Status {
        match self.phase {
            Phase::Over(o) => Status::Over(o),
            _ => Status::Ongoing,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn mover(&self, _m: &Move) -> Side {
        match self.phase {
            Phase::PieOffer => Side::First,
            Phase::PieChoice => Side::Second,
            _ => self.mover,
        }
    }

    fn check(&self, m: &Move) -> Result<(), PlayError> {
        let mut legal = Vec::new();
        self.generate(&mut legal);
        if legal.contains(m) { Ok(()) } else { Err(self.explain_illegal(m)) }
    }

    /// Phase 1: applies one atomic decision (the whole part when it completes).
    fn place(&mut self, m: &Move, fx: &mut impl EffectSink) {
        let me = self.mover;
        match *m {
            Move::Offer(s) => {
                let colour = self.offer_colour();
                self.put(s, colour);
                fx.emit(0, || EffectKind::Placed { cell: s, by: colour, piece: Position::side_char(colour), count: 1 });
                let n = self.pie_size() as u16;
                if self.count[0] == n && self.count[1] == n + 1 {
                    self.phase = Phase::PieChoice;
                    self.mover = Side::Second;
                }
            }
            Move::Choose(colour) => {
                // The chooser sits in the second seat; taking Black swaps the seats.
                if colour == Side::First {
                    fx.emit(0, || EffectKind::PieSwap { by: Side::Second });
                }
                self.phase = Phase::Play;
                self.mover = Side::First;
                self.part = 1;
                self.turn = 1;
                self.to_settle = Settle::PieChoice;
            }
            Move::Pass => {
                fx.emit(0, || EffectKind::Passed { side: me });
                self.complete(Done::Pass);
            }
            Move::Place(s) | Move::Capture(s) | Move::Pick(s) => {
                let kind = match m {
                    Move::Place(_) => PartKind::Place,
                    Move::Capture(_) => PartKind::Capture,
                    _ => PartKind::Move,
                };
                let range = self.range_of(kind, s);
                if kind == PartKind::Move || (range >= 1 && self.can_travel(s, range)) {
                    self.started = Some(Started { kind, at: s, range });
                } else {
                    self.land(Started { kind, at: s, range }, s, fx);
                }
            }
            Move::To(t) => {
                if let Some(st) = self.started.take() {
                    self.land(st, t, fx);
                }
            }
        }
    }

    /// Phase 4: after a completed part, the next part or turn and the end of the game (§4.3, §6);
    /// after the pie choice, the estimate's early end (Appendix A).
    fn end_check(&mut self, fx: &mut impl EffectSink) {
        let turn_ended_in_passes = match std::mem::replace(&mut self.to_settle, Settle::Nothing) {
            Settle::Nothing => return,
            Settle::PieChoice => false,
            Settle::Part => {
                let two_passed_turns = self.part == 2 && self.passrun == 4;
                self.advance();
                two_passed_turns
            }
        };
        let outcome = if let Some(o) = self.adjudicated() {
            Some((o, true))
        } else if turn_ended_in_passes {
            Some((self.count_outcome(), false))
        } else {
            None
        };
        if let Some((outcome, by_estimate)) = outcome {
            if fx.records() {
                for side in Side::BOTH {
                    let score = if by_estimate { self.estimate(side) } else { self.count[side.index()] as u32 };
                    fx.emit(0, || EffectKind::Scored { side, score: score as i32 });
                }
            }
            fx.emit(0, || EffectKind::GameOver { outcome });
            self.phase = Phase::Over(outcome);
        }
    }

    fn zobrist(&self) -> u64 {
        self.hash()
    }
}

impl Position {
    /// Completes a part that started on `st.at` by putting the stone on `to`.
    fn land(&mut self, st: Started, to: Cell, fx: &mut impl EffectSink) {
        let me = self.mover;
        let path = if fx.records() && to != st.at { self.route(st.at, st.range, to) } else { Vec::new() };
        let done = match st.kind {
            PartKind::Place => {
                fx.emit(0, || EffectKind::Placed { cell: st.at, by: me, piece: Position::side_char(me), count: 1 });
                Done::Place
            }
            PartKind::Capture => {
                self.take(st.at);
                fx.emit(0, || EffectKind::Captured { cells: vec![st.at], by: me });
                fx.emit(0, || EffectKind::Placed { cell: st.at, by: me, piece: Position::side_char(me), count: 1 });
                Done::Capture
            }
            PartKind::Move => {
                self.take(st.at);
                Done::Move
            }
        };
        self.put(to, me);
        if to != st.at {
            fx.emit(0, || EffectKind::Hopped { path, by: me });
        }
        self.complete(done);
    }

    /// The counters after a completed part (§4.4, D5).
    fn complete(&mut self, done: Done) {
        let i = self.mover.index();
        if self.options.pass_rule == PassRule::Progress {
            self.idle[i] = if done == Done::Place { 1 } else { self.idle[i].saturating_add(1) };
        }
        self.passrun = if done == Done::Pass { (self.passrun + 1).min(4) } else { 0 };
        if self.options.pass_rule == PassRule::Legacy && matches!(done, Done::Place | Done::Capture) {
            self.legacy_done = true;
        }
        self.to_settle = Settle::Part;
    }

    /// Moves on to the next part, or to the opponent's turn after part 2.
    fn advance(&mut self) {
        if self.part == 1 {
            self.part = 2;
        } else {
            self.part = 1;
            self.mover = self.mover.opponent();
            if self.mover == Side::First {
                self.turn = self.turn.saturating_add(1);
            }
            self.legacy_after_passes = self.options.pass_rule == PassRule::Legacy && self.passrun >= 2;
            self.legacy_done = false;
        }
    }

    /// Most stones wins; equal counts draw (§6.2).
    pub(super) fn count_outcome(&self) -> Outcome {
        match self.count[0].cmp(&self.count[1]) {
            std::cmp::Ordering::Greater => Outcome::Winner(Side::First),
            std::cmp::Ordering::Less => Outcome::Winner(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Appendix A: the early end by Ludii's estimate, when the option is on and it fires.
    pub(super) fn adjudicated(&self) -> Option<Outcome> {
        if self.options.adjudication != Adjudication::Ludii {
            return None;
        }
        let (b, w) = (self.estimate(Side::First) as i64, self.estimate(Side::Second) as i64);
        let sites = self.geo.len() as i64;
        if 2 * (b - 3) > sites || 2 * (w - 3) > sites {
            Some(match b.cmp(&w) {
                std::cmp::Ordering::Greater => Outcome::Winner(Side::First),
                std::cmp::Ordering::Less => Outcome::Winner(Side::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            })
        } else {
            None
        }
    }

    /// The position hash: stones plus everything else that decides the future.
    pub(super) fn hash(&self) -> u64 {
        let started = self.started.map_or(0, |st| 1 + ((st.at as u64) << 2 | st.kind as u64));
        let phase = match self.phase {
            Phase::PieOffer => 1,
            Phase::PieChoice => 2,
            Phase::Play => 3,
            Phase::Over(_) => 4,
        };
        let state = (self.mover.index() as u64)
            | (self.part as u64) << 1
            | (self.idle[0].min(4) as u64) << 3
            | (self.idle[1].min(4) as u64) << 6
            | (self.passrun as u64) << 9
            | (self.legacy_after_passes as u64) << 12
            | (self.legacy_done as u64) << 13
            | phase << 14
            | started << 17;
        self.stone_hash ^ splitmix64(state ^ 0xA5A5_0000_0000_0000 ^ (stone_of(self.mover) as u64) << 60)
    }
}
