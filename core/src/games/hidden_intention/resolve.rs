//! Hidden Intention's rules (`Rules`): an attempt (spec §6.4–6.6, §7) resolves in the named phases
//! `place` → `cascade` → `end_check`.
//!
//! `place` stages one decision and, when it seals the second commitment, reveals the attempt:
//! both swaps, then a burn or both placements. `cascade` removes unstable figures round by round
//! until the board is stable. `end_check` reopens burned squares, advances the turn or attempt,
//! and ends and scores the game. The game has no capture step apart from the cascade, so
//! `capture_sweep` keeps the trait's empty default.

use super::moves::{Move, Staged};
use super::options::HiddenIntentionOptions;
use super::position::{FULL_SUPPLY, Figure, Position, Reveal, SQUARES, SWAPS_PER_GAME, Square, sign};
use crate::rules::{EffectKind, EffectSink, PlayError, RemoveCause, Rules, Side, Status, ToMove};

/// More cascade rounds than figures on a full board cannot happen (every round removes one).
const CASCADE_ROUND_LIMIT: u16 = SQUARES as u16 + 1;

impl Rules for Position {
    type Move = Move;
    type Options = HiddenIntentionOptions;

    /// The starting position: empty board, full supplies, two swaps each, turn 1, attempt 1.
    fn new(options: &HiddenIntentionOptions) -> Self {
        Position {
            board: [None; SQUARES],
            occupied: [0; 2],
            influence: [0; SQUARES],
            controlled: [0; 2],
            supply: [FULL_SUPPLY; 2],
            swaps_left: [SWAPS_PER_GAME; 2],
            burned: 0,
            turn: 1,
            attempt: 1,
            outcome: None,
            staged: [Staged::default(); 2],
            reveal: None,
            options: *options,
        }
    }

    fn options(&self) -> &HiddenIntentionOptions {
        &self.options
    }

    fn to_move(&self) -> Option<ToMove> {
        self.outcome.is_none().then_some(ToMove::Both)
    }

    fn status(&self) -> Status {
        match self.outcome {
            Some(o) => Status::Over(o),
            None => Status::Ongoing,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        for side in Side::BOTH {
            self.push_moves_for(side, out);
        }
    }

    fn legal_moves_for(&self, side: Side, out: &mut Vec<Move>) {
        out.clear();
        self.push_moves_for(side, out);
    }

    fn mover(&self, m: &Move) -> Side {
        m.side()
    }

    fn check(&self, m: &Move) -> Result<(), PlayError> {
        self.check_move(m)
    }

    /// Phase 1: records one decision. When it seals the second commitment, reveals the attempt:
    /// both swaps (wave 0), then a burn or both placements (wave 0).
    fn place(&mut self, m: &Move, sink: &mut impl EffectSink) {
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
    fn cascade(&mut self, sink: &mut impl EffectSink) {
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
    fn end_check(&mut self, sink: &mut impl EffectSink) {
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

    fn zobrist(&self) -> u64 {
        self.hash()
    }
}

impl Position {
    /// Decides whether the game is over at the start of an attempt: both supplies empty, or a
    /// player without a legal commitment.
    pub(super) fn settle_status(&mut self) {
        let both_empty = self.supply[0].is_empty() && self.supply[1].is_empty();
        let over = both_empty || !self.has_legal_commitment(Side::First) || !self.has_legal_commitment(Side::Second);
        self.outcome = over.then(|| self.counted_outcome());
    }

    /// Whether the figure on `square` stands on enemy ground.
    pub fn is_unstable_at(&self, square: Square) -> bool {
        match self.figure_at(square) {
            Some(f) => self.influence_at(square) * sign(f.owner) < 0,
            None => false,
        }
    }
}
