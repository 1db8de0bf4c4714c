//! Inchworm (Clark D. Rodeffer, 2000): stacking, spreading and Go-style capture to 60 points.
//!
//! Drop, collect and spread stacks on an 8×8 board; groups without a liberty are captured for
//! points; first to 60 wins. Spec: `shared/rules/inchworm.md`.
//!
//! # Rules summary
//! Each turn one action: **Drop** a stone from stock on an empty cell or an own stack (`Dd4`);
//! **Collect** a straight run of own stacks (rank, file or diagonal) onto one of its cells
//! (`Ce3-f3-g3>f3`); **Distribute** a stack of height h along a king-step path of h distinct
//! cells, all but the source empty (`Sb8-a7-b7`); **Rescue** every own stone the opponent holds
//! (`R`); with option `prisoner_drops`, **Place** a held enemy stone on an empty cell (`Pa1`);
//! **pass** only when nothing else is legal. After every action all liberty-less groups of both
//! colours are removed at once; each stone scores one point for the capturer, who holds it as a
//! prisoner. The game ends at the target score (higher score wins, ties draw), after
//! `quiet_limit` plies without a capture, or after two passes in a row.
//!
//! # Atomic decisions
//! A `Move` is one decision: `Drop`, `Place`, `Rescue`, `Pass`; a collect staged as
//! `CollectFrom(first stack)`, one `CollectStep(cell)` per further stack along the line (the
//! second fixes the line), then `CollectOnto(target)`; a distribution staged as
//! `SpreadFrom(source)` followed by one `SpreadStep(cell)` per further cell, completing with the
//! last cell. Captures and the end check run only when an action completes. Only steps that can
//! still be completed are offered, so a staged action never dead-ends. Atomic tokens: `Ce3`,
//! `-f3`, `>f3` (collect); `Sb8`, `-a7` (distribution); they concatenate to the record token. Records and the referee use the spec's one-token-per-action
//! notation; `--legal` lists whole actions (distributions by source and cell set, canonical path)
//! or, above 100,000, only their exact count.
//!
//! # Decisions
//! - Effects: the action is wave 0; captures (`Captured` per group, `Scored` per capturer) are
//!   wave 1; `GameOver` closes the last wave used.
//! - A half-chosen action is shown in the position text as a trailing ` S<path so far>` or
//!   ` C<stacks so far>` (the spec's text has no field for it; positions between whole actions
//!   never show it). From such a position the referee lists and takes the spec's tokens of the
//!   whole actions that finish it (`Sd4-d5-d6` after `Sd4-d5`; a collect whose line has the
//!   first chosen stack at one end and goes on past the last), never bare decisions such as
//!   `-d6`, which the spec's notation does not have; a record from there writes them so too.
//! - Staged actions cannot be abandoned once started (no cancel decision): the UI's undo covers
//!   that, and it keeps the decision tree free of no-op loops.
//! - The position text cannot say that a game ended by two passes (the spec's format has no
//!   result field); such a text reads back as an ongoing game. Target and quiet-limit endings are
//!   recovered from the numbers.
//! - Game record (spec §10.4, `record.rs`): the header is one line of tags in the spec's order
//!   (`Game`, `Topology`, `Pieces`, `Target`, `PrisonerDrops`, `QuietLimit`); `format_record`
//!   replays the tokens, writes a `{B+n W+m}` comment after every capturing action and wraps
//!   the move text near 80 characters. `parse_record` takes option tags before the first move
//!   (missing ones default), keeps other tags, checks move numbers (`3.`, or `3...` before a
//!   White move) and that a result token ends the record and matches the replayed game.
//! - Position texts must satisfy: stone conservation, no liberty-less group, prisoners held ≤
//!   points scored, heights 1–25, and quiet ≥ 1 after a pass.

mod about;
mod describe;
mod moves;
mod notation;
mod options;
mod position;
mod record;
mod reference;
mod resolve;
mod sample;
mod view;

pub use moves::{Move, all_candidate_moves, can_extend, canonical_path, distribution_sets};
pub use notation::{MAX_LISTED_TOKENS, parse_square, square_name};
pub use options::{InchwormOptions, Topology};
pub use position::{Geometry, Position, Sq};
pub use record::{InchwormRecord, format_record, parse_record, parse_record_over, record_header, result_token};

use crate::rules::Side;

impl Position {
    /// The zobrist hash of the position (`Rules::zobrist`).
    pub(crate) fn hash(&self) -> u64 {
        let mut h = if self.side == Side::First { 0 } else { ZOBRIST_SIDE };
        for i in 0..2 {
            for c in position::bits(self.occupied[i]) {
                h ^= zobrist_key((i * 64 + c as usize) * 32 + self.height[c as usize] as usize);
            }
        }
        let counters = [self.stock[0], self.stock[1], self.held[0], self.held[1]];
        for (k, &n) in counters.iter().enumerate() {
            h ^= zobrist_key(ZOBRIST_COUNTERS + k * 32 + n as usize);
        }
        if let Some(spread) = &self.spread {
            for (k, &c) in spread.cells().iter().enumerate() {
                h ^= zobrist_key(c as usize + 64 * k).rotate_left(17);
            }
        }
        if let Some(cells) = self.pending_collect() {
            for (k, &c) in cells.iter().enumerate() {
                h ^= zobrist_key(c as usize + 64 * k).rotate_left(41);
            }
        }
        // Scores and the quiet counter decide the end, so they are part of the position.
        let counters = (self.score[0] as u64) | (self.score[1] as u64) << 24 | (self.quiet.min(0xffff) as u64) << 48;
        h ^= zobrist_key(ZOBRIST_COUNTERS + 200).wrapping_mul(counters | 1).rotate_left(7) ^ counters;
        if self.pass_streak {
            h ^= zobrist_key(ZOBRIST_COUNTERS + 201);
        }
        h
    }
}

const ZOBRIST_SIDE: u64 = crate::rules::GOLDEN_GAMMA;
const ZOBRIST_COUNTERS: usize = 2 * 64 * 32;

/// The zobrist key number `i`: the `i`-th output of SplitMix64 seeded with 0.
#[inline]
fn zobrist_key(i: usize) -> u64 {
    crate::rules::splitmix64_nth(0, i as u64)
}
