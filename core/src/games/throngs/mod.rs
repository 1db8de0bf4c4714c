//! Throngs (Dale W. Walton, 2020): double moves on a triangular grid, stones travel by power.
//!
//! # Rules in brief (spec: `shared/rules/throngs.md`)
//!
//! Stones sit on the points of a triangular board (T93 by default; R63, R87, R153, the perforated
//! P156 and the house torus are options). A turn is two move parts by the same player. The power of
//! a site is own − enemy stones among the site and its neighbours. A part is a placement on an empty
//! site (power ≥ 1, or 0 with every neighbour occupied; costs 1), a capture by replacement (power ≥ 2;
//! costs 2), a friendly move of an own stone (costs 0), or a pass. Leftover power lets the stone
//! travel along grid lines, jumping anything but landing and turning only on empty sites. Under the
//! default `progress` rule a player none of whose last three parts placed a stone must place or
//! capture if he can. Two consecutive fully passed turns end the game; most stones wins.
//!
//! # Engine structure
//!
//! - [`Move`] is one atomic decision: a start (`Place`, `Capture`, `Pick` for a friendly move)
//!   followed, when the stone may travel, by `To` its final site; `Pass`; the pie decisions
//!   `Offer` and `Choose`. A placement or capture whose remaining power is 0, or whose stone has
//!   nowhere to land, completes at once.
//! - The record notation has one token per part (`+k10`, `+j9>i8`, `xf6>g6`, `k9>j9`, `pass`) and
//!   the pie tokens (`pie B:g7 W:e4 W:h9`, `choose White`); `play_record_token` applies a whole
//!   token and `legal_record_tokens` lists whole part tokens.
//! - `Position::power`, `Position::reach` and `Position::destinations` expose the power overlay
//!   and the destinations of a started part to the app.
//! - Phases: `place` applies a decision; `end_check` advances part/turn and ends the game.
//!
//! # Decisions
//!
//! - The spec's decisions D1–D20 are followed (T93 default, `R = P − 2` after a capture, counters
//!   start at 0, forced pass is an ordinary pass, draw on equal counts, …).
//! - Atomic text forms (not given by the spec): `+f6`/`xf6` start a placement/capture, `f6>` starts
//!   a friendly move, `>g6` is the destination (`>f6` on the start site stops a placement or
//!   capture at once), `B:g7`/`W:e4` is one offered pie stone, `choose Black`/`choose White`.
//! - Position text extensions (the spec writes none for these states): a part whose destination
//!   is still open adds `started=+f6`, `started=xf6` or `started=f6>`; during the pie opening the
//!   side/part field is `pie` (offer being placed) or `choose` (chooser to decide).
//! - The board named in the position text must be the `board` option's; another is refused.
//! - Under the `legacy` pass rule there are no placement counters: `idle` stays `0,0`.
//! - Pie seats: the offerer is `Side::First` during the offer and the chooser `Side::Second`;
//!   `choose Black` emits `PieSwap` (the seats exchange colours), `choose White` keeps them.
//!   Black always moves first afterwards.
//! - Effects all belong to wave 0 (Throngs has no cascades): `Placed` (+ `Captured` first for a
//!   capture), then `Hopped` with one shortest route of landings when the stone travels, `Passed`,
//!   and at the end `Scored` for both sides and `GameOver`.
//! - With auto-adjudication on, a parsed position whose estimate already crosses the threshold is
//!   taken as finished; the estimate is tested after every completed part (before the pass end,
//!   which cannot disagree: passes do not change the stones) and right after the pie choice
//!   (Appendix A), so a large offer can end the game there and its printed text (Black's part 1
//!   of turn 1) loads back finished too.
//! - A position text at part 1 with `passrun=4` is a finished game (two fully passed turns).
//! - `idle` saturates at 65535 (only `idle ≥ 4` matters); texts with larger values are refused.
//! - The opening option is free text: `standard`, `pie` (= `pie-1`) or `pie-n` for any `n ≥ 1`
//!   whose `2n + 1` offered stones fit on the board (`Board::pie_max`: 31 on R63 and Torus-8, 46
//!   on T93, 112 on Torus-15), checked by `validate` once the board is known; `board` accepts
//!   `Torus` for `Torus-11`.
//! - Record tokens in a started part (only reachable click by click) are the atomic `>g6`
//!   tokens; during a partly placed pie offer, the atomic `B:g7` / `W:e4` tokens. The full pie
//!   offer has too many tokens to list, so the referee prints only their exact count,
//!   C(sites, n)·C(sites − n, n + 1), which passes 2^128 on the larger boards.
//! - Not implemented (optional in the spec): the "permitted shortcut" of §6.1, the 2000-turn
//!   safeguard of §6.2 (random games end on their own, about 370 decisions on T93), and
//!   resignation, which the app handles outside the rules engine.

mod about;
mod board;
mod describe;
mod moves;
mod notation;
mod options;
mod position;
mod record;
mod reference;
mod resolve;
mod view;

pub use board::{Board, Geometry, MAX_SITES};
pub use moves::Move;
pub use notation::record_header;
pub use options::{Adjudication, Opening, PassRule, ThrongsOptions};
pub use position::{PartKind, Phase, Position, Started};
pub use record::{ThrongsRecord, format_record, parse_record, parse_record_over, record_header_full};
