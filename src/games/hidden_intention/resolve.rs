//! Resolution of an attempt (spec §6.4–6.6, §7) as the named phases `place` → `cascade` → `end_check`.
//!
//! `place` stages one decision and, when it seals the second commitment, reveals the attempt:
//! both swaps, then a burn or both placements. `cascade` removes unstable figures round by round
//! until the board is stable. `end_check` reopens burned squares, advances the turn or attempt,
//! and ends and scores the game. The game has no capture step apart from the cascade, so
//! `capture_sweep` keeps the trait's empty default.

use super::moves::{Move, Staged};
use super::position::{Figure, Position, Reveal, SQUARES, Square, sign};
use crate::rules::{Effect, EffectKind, Effects, PlayError, RemoveCause, Side};

/// Where the phases report what happened: a list of effects for `play`, nothing for search.
pub(super) trait Sink {
    fn emit(&mut self, wave: u16, kind: impl FnOnce() -> EffectKind);
}

impl Sink for Effects {
    #[inline]
    fn emit(&mut self, wave: u16, kind: impl FnOnce() -> EffectKind) {
        self.push(Effect::new(wave, kind()));
    }
}

/// A sink that drops every effect (`play_unchecked`).
pub(super) struct Discard;

impl Sink for Discard {
    #[inline]
    fn emit(&mut self, _wave: u16, _kind: impl FnOnce() -> EffectKind) {}
}

/// More cascade rounds than figures on a full board cannot happen (every round removes one).
const CASCADE_ROUND_LIMIT: u16 = SQUARES as u16 + 1;

impl Position {
    /// Phase 1: checks and records one decision. When it seals the second commitment, reveals
    /// the attempt: both swaps (wave 0), then a burn or both placements (wave 0).
    pub fn place_phase(&mut self, m: &Move) -> Result<Effects, PlayError> {
        self.check_move(m)?;
        let mut effects = Effects::new();
        self.apply_decision(m, &mut effects);
        Ok(effects)
    }

    /// Records a decision known to be legal and reveals the attempt once both are sealed.
    pub(super) fn apply_decision<S: Sink>(&mut self, m: &Move, sink: &mut S) {
        let side = m.side();
        let staged = &mut self.staged[side.index()];
        match *m {
            Move::Swap { a, b, .. } => staged.swap = Some((a, b)),
            Move::Figure { choice, .. } => staged.figure = Some(choice),
            Move::Target { square, .. } => staged.target = Some(square),
            Move::Facing { corner, .. } => staged.facing = Some(corner),
        }
        if let (Some(a), Some(b)) = (self.staged[0].commitment(), self.staged[1].commitment()) {
            self.staged = [Staged::default(); 2];
            // Step 4: both swaps; they involve disjoint figures, so order does not matter.
            for (side, c) in [(Side::First, &a), (Side::Second, &b)] {
                if let Some((x, y)) = c.swap {
                    self.exchange(x, y);
                    self.swaps_left[side.index()] -= 1;
                    sink.emit(0, || EffectKind::Swapped { a: x as u16, b: y as u16, by: side });
                }
            }
            if a.target == b.target {
                // Step 5: the same square burns; the swaps stay in force.
                self.burned |= 1u64 << a.target;
                sink.emit(0, || EffectKind::Burned { cell: a.target as u16 });
                self.reveal = Some(Reveal::Burned { wave: 0 });
            } else {
                // Step 6a: both figures arrive together, with no evaluation in between.
                for (side, c) in [(Side::First, &a), (Side::Second, &b)] {
                    self.put(c.target, Figure { owner: side, kind: c.kind });
                    self.supply[side.index()].take(c.kind.stock());
                    sink.emit(0, || EffectKind::Placed {
                        cell: c.target as u16,
                        by: side,
                        piece: c.kind.code(),
                        count: 1,
                    });
                }
                self.reveal = Some(Reveal::Placed { wave: 0 });
            }
        }
    }

    /// Phase 3: removes every figure on enemy ground, all at once per round, until the board is
    /// stable. Round `n` removals carry wave `n`. Does nothing unless an attempt was revealed.
    pub(super) fn run_cascade<S: Sink>(&mut self, sink: &mut S) {
        let Some(reveal) = self.reveal else { return };
        let mut round: u16 = 0;
        let mut last_wave = 0;
        loop {
            round += 1;
            assert!(round <= CASCADE_ROUND_LIMIT, "cascade did not settle after {CASCADE_ROUND_LIMIT} rounds");
            let mut unstable = self.unstable();
            if unstable == 0 {
                break;
            }
            last_wave = round;
            while unstable != 0 {
                let square = unstable.trailing_zeros() as Square;
                unstable &= unstable - 1;
                self.take(square);
                sink.emit(round, || EffectKind::Removed {
                    cell: square as u16,
                    count: 1,
                    cause: RemoveCause::Unstable,
                });
            }
        }
        self.reveal = Some(match reveal {
            Reveal::Burned { .. } => Reveal::Burned { wave: last_wave },
            Reveal::Placed { .. } => Reveal::Placed { wave: last_wave },
        });
    }

    /// Phase 4: after a successful attempt reopens the burned squares and starts the next turn;
    /// after a burn starts the next attempt; then checks the end condition (spec §7.1) at the
    /// start of the new attempt and scores a finished game.
    pub(super) fn run_end_check<S: Sink>(&mut self, sink: &mut S) {
        let Some(reveal) = self.reveal.take() else { return };
        let wave = match reveal {
            Reveal::Burned { wave } => {
                self.attempt += 1;
                wave
            }
            Reveal::Placed { wave } => {
                let mut reopened = self.burned;
                self.burned = 0;
                while reopened != 0 {
                    let square = reopened.trailing_zeros() as u16;
                    reopened &= reopened - 1;
                    sink.emit(wave, || EffectKind::Unburned { cell: square });
                }
                self.turn += 1;
                self.attempt = 1;
                wave
            }
        };
        self.settle_status();
        if let Some(outcome) = self.outcome {
            let counts = self.field_counts();
            sink.emit(wave, || EffectKind::Scored { side: Side::First, score: counts.a as i32 });
            sink.emit(wave, || EffectKind::Scored { side: Side::Second, score: counts.b as i32 });
            sink.emit(wave, || EffectKind::GameOver { outcome });
        }
    }

    /// Decides whether the game is over at the start of an attempt: both supplies empty, or a
    /// player without a legal commitment.
    pub(super) fn settle_status(&mut self) {
        let both_empty = self.supply[0].is_empty() && self.supply[1].is_empty();
        let over = both_empty || !self.has_legal_commitment(Side::First) || !self.has_legal_commitment(Side::Second);
        self.outcome = over.then(|| self.counted_outcome());
    }

    /// Plays a legal decision with all phases and no effects (search and playouts).
    pub(super) fn play_fast(&mut self, m: &Move) {
        let mut sink = Discard;
        self.apply_decision(m, &mut sink);
        if self.reveal.is_some() {
            self.run_cascade(&mut sink);
            self.run_end_check(&mut sink);
        }
    }

    /// Whether the figure on `square` stands on enemy ground.
    pub fn is_unstable_at(&self, square: Square) -> bool {
        match self.figure_at(square) {
            Some(f) => self.influence_at(square) * sign(f.owner) < 0,
            None => false,
        }
    }
}
