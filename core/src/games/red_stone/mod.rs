//! Red Stone (Mark Steere, 2012): Go played to annihilation, every capture made with a red stone.
//!
//! # Rules in brief (the contract is `shared/rules/red-stone.md`)
//!
//! - An N×N board of points (5 ≤ N ≤ 19, default 11), orthogonal adjacency, empty at the start.
//!   Black places first. Columns `A…T` without `I`, row 1 at the bottom.
//! - A turn places one stone on an empty point: the mover's colour, or a neutral, permanent red
//!   stone. Groups are black or white only; red stones never join, never give liberties.
//! - Legality (§4.3): put the stone down without removing anything and let Z be the black/white
//!   groups with no liberty. An own-colour stone is legal iff Z is empty; a red stone iff Z is
//!   not (it must capture — the opponent's groups, the mover's, or both). Locally: red is legal
//!   iff some neighbouring group is in atari at the point; an own stone iff no enemy neighbour is
//!   in atari there and the point has an empty neighbour or an own neighbour group with two or
//!   more liberties. The seed's eye rules follow from this (§4.5, [`PointClass`]).
//! - A red stone removes every group of Z at once, whatever its colour (a group bounded by the
//!   red stone is removed even if another removal would give it a liberty back).
//! - Each colour's first placement must be of its own colour (§4.6).
//! - Pie rule (§3): right after Black's first stone, White may answer `swap`: the players
//!   exchange colours, the stone stays black, and White (now the first player) moves.
//! - After each red stone (§5): if the opponent has no stones left the mover wins (also when
//!   the mover has none either); otherwise, if the mover has none, the opponent wins. No passing,
//!   no draws; a legal placement always exists while the game runs (§4.7).
//!
//! Sides are colours: `Side::First` is Black, `Side::Second` is White; seats (which person plays
//! which colour after a swap) are app-level and shown by [`Position::swapped`].
//!
//! # Decisions
//!
//! The spec's decisions D1–D15 are implemented as written. On top of them:
//! - The first-turn rule (§4.6, D6) is enforced as "a side with no stone on the board may not
//!   place red". In a game this is exactly "the colour has not placed yet", because a colour's
//!   count can only drop to zero through a red stone, which ends the game at once.
//! - Position texts (§6.4) are checked for the spec's invariants: every group has a liberty;
//!   `swap` only with one black stone and White to move; a colour may lack stones only at the
//!   start (empty board with Black to move, one black stone with White to move) or after a red
//!   stone ended the game — a text with red stones and a colour without stones is read as a
//!   finished game whose last red stone was placed by the side not to move (§6.4), and its result
//!   is recomputed by §5. A text cannot tell whether a swap happened, so `swapped()` is `false`.
//! - Effects: wave 0 the placed stone (`Placed`, piece `X`/`O`/`R`) or the swap (`PieSwap`),
//!   wave 1 one `Captured` per removed group (all at once; `by` is the mover, also for his own
//!   groups), wave 2 `GameOver`.
//! - A red token may carry its removal count (`B5*x5`, §6.2); `play_record_token` checks it
//!   before playing. `parse_move` (atomic decisions) refuses a count, since it cannot check it.
//! - Resignation (D13) is an app action and has no engine move; a game record (§6.3, `record.rs`)
//!   may end with the token `resign` (the side to move resigns) and states `result: … resignation`.

mod about;
mod describe;
mod moves;
mod notation;
mod options;
mod point_sets;
mod position;
mod record;
mod reference;
mod resolve;
mod view;

pub use moves::{Group, Move, PlacementChoice, PointClass};
pub use options::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, RedStoneOptions, SIZE_PRESETS};
pub use position::{EndReason, Position, Stone};
pub use record::{RecordReason, RecordResult, RedStoneRecord, format_record, parse_record, parse_record_over};
