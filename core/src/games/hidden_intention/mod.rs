//! Hidden Intention: simultaneous secret placements of influence-radiating figures on a chessboard.
//!
//! # Rules summary (spec `hidden-intention.md`)
//!
//! Two players, A (White, positive influence) and B (Black, negative), each own 14 figures: 8
//! pawns (placed in orthogonal form `P` or diagonal form `X`), 2 rooks `R`, 2 bishops `B`, 1
//! knight `N` (facing a corner: ne, nw, se, sw) and 1 queen `Q`. Every figure gives a fixed
//! amount of influence to a fixed, never-blocked pattern of squares (§4); the net value of a
//! square is A's total minus B's; positive squares are A's, negative B's, zero neutral.
//!
//! Each attempt both players secretly commit an optional swap of two of their own figures (2
//! swaps per game, at most 1 per commitment) and the placement of one figure from their supply on
//! an empty, non-burned square that is neutral or their own after their own swap. Then both
//! swaps happen; if both named the same square it burns (closed to both until the next
//! successful attempt) and the attempt repeats; otherwise both figures are placed. After that,
//! figures standing on enemy ground are removed, all at once per round, until the board is
//! stable. The game ends when both supplies are empty or a player has no legal commitment; the
//! side controlling more squares wins, equal counts draw.
//!
//! # Engine shape
//!
//! The position is a simultaneous node: `to_move()` is `Both` while the game runs. A commitment
//! is entered as staged atomic decisions, each naming its side: an optional swap, the figure,
//! the square, and for a knight the facing. A decision is only offered if the commitment can
//! still be completed legally. When the second commitment is sealed, `place` reveals the attempt
//! (swaps, then burn or placements at wave 0), `cascade` removes unstable figures (round `n` at
//! wave `n`) and `end_check` reopens burned squares, advances the turn or attempt and ends the
//! game. A side's staged decisions never influence what the other side may do or see.
//!
//! The record token of one attempt is `<A's commitment>|<B's commitment>` (`Qd4|Re5`,
//! `c3<>f4 Pf6|Xc6`); the referee lists each side's complete commitments.
//!
//! # Decisions
//!
//! - Staged decisions are written `A:c3<>f4` (swap), `A:P` (figure), `A:f6` (square), `A:/ne`
//!   (knight facing); the spec defines only whole commitments.
//! - At the first stage a figure is offered only if some target is legal without a swap, and a
//!   swap only if some target is legal after it, so no staged path dead-ends.
//! - Effect waves: swaps, the burn and the placements are wave 0; removals of cascade round `n`
//!   are wave `n` (as the examples number the rounds); `Unburned`, the final `Scored` pair and
//!   `GameOver` carry the last wave of the attempt.
//! - The state string carries no staged decisions (the spec's has none), so it never reveals a
//!   sealed commitment. Parsing rejects texts that no game can reach: more figures of a kind on
//!   board and in supply than a player owns, unequal supply totals, a turn number other than
//!   placed figures + 1, a burned count other than attempt − 1, burned squares holding a figure,
//!   more than 2 swaps, and unstable positions.
//! - A record token replaces any partly entered staged decisions; the spaces around `|` are
//!   optional. The record's closing `-- | --` (spec §8.3) is accepted, as a no-op, only once the
//!   game is over.
//! - Game record (spec §8.3, `record.rs`): `format_record` replays the tokens, numbers each line
//!   `<turn>.<attempt>`, adds a `{burn c6}` comment to a burned attempt, the closing `-- | --`
//!   when the game ended with supplies left, and `[Result "A 30 B 25"]` once over (winner first,
//!   `draw a b` with A's count first; no Result tag while the game goes on). Tag values escape
//!   `"` and `\` with a backslash. `parse_record` replays and checks line numbers and the
//!   Result tag (`*` = unfinished) against the game.
//! - The game has no capture step apart from the cascade: `capture_sweep` is empty and every
//!   round of removals, the first included, belongs to `cascade`.

mod about;
mod commitment;
mod describe;
mod figures;
mod moves;
mod notation;
mod options;
mod position;
mod record;
mod reference;
mod resolve;
mod view;

pub use moves::{Commitment, Move, Staged};
pub use notation::{format_commitment, parse_commitment, parse_square, square_name};
pub use options::HiddenIntentionOptions;
pub use position::{
    Corner, FIGURES_PER_SIDE, FULL_SUPPLY, FieldCounts, Figure, FigureChoice, Kind, MAX_SWAPS_PER_COMMITMENT, PATTERNS,
    Pattern, Position, SQUARES, SWAPS_PER_GAME, Square, SquareSet, Stock, Supply, pattern, squares,
};
pub use record::{GameRecord, format_record, parse_record, result_text};

use crate::rules::splitmix64;

impl Position {
    /// The zobrist hash of the position (`Rules::zobrist`).
    pub(super) fn hash(&self) -> u64 {
        let mut h = 0u64;
        for square in squares(self.occupied[0] | self.occupied[1]) {
            if let Some(f) = self.board[square as usize] {
                let figure = (f.owner.index() * 9 + f.kind.pattern_index()) as u64;
                h ^= feature(1, figure << 6 | square as u64);
            }
        }
        h ^= feature(2, self.burned);
        let mut counters = 0u64;
        for side in 0..2 {
            for &c in &self.supply[side].counts {
                counters = counters << 4 | c as u64;
            }
            counters = counters << 2 | self.swaps_left[side] as u64;
        }
        h ^= feature(3, counters);
        h ^= feature(4, (self.turn as u64) << 16 | self.attempt as u64);
        for (side, s) in self.staged.iter().enumerate() {
            if !s.is_empty() {
                let packed = s.swap.map_or(0, |(a, b)| 1 << 12 | (a as u64) << 6 | b as u64) << 20
                    | s.figure.map_or(0, |f| f as u64 + 1) << 16
                    | s.target.map_or(0, |t| t as u64 + 1) << 8
                    | s.facing.map_or(0, |c| c as u64 + 1);
                h ^= feature(5 + side as u64, packed);
            }
        }
        h
    }
}

/// The hash key of `value` in one domain of the position (figures, burned squares, counters…).
fn feature(domain: u64, value: u64) -> u64 {
    splitmix64(splitmix64(domain) ^ value)
}
