//! Gravel (Brian Train, 2025): place, move and remove stacks; neighbours decide who controls a space.
//!
//! # Rules in brief (spec: `shared/rules/gravel.md`)
//!
//! - An N×N board (3..=19, default 8; `squares` or `intersections` layout, the same lattice),
//!   orthogonal neighbours. Each player starts with `P = N²/2 + 1` pieces in a pool; Light moves
//!   first.
//! - A player turn is up to X actions (2..=9, default 4; X is also the stack cap), each costing 1:
//!   **Place** `+t` from the pool onto a vacant or own space, **Move** `s>t` one piece onto another
//!   own stack, **Return** `-s` one piece to the pool, **Remove** `xs` one enemy piece from a space
//!   the player controls. Placements and removals are not mixed: `P+ R*` or `R+ P+`. A turn needs
//!   at least one placement action and must change the player's own configuration (net-change
//!   rule). A player with no pieces at all plays `pass`.
//! - **Control** of a space: at least 2 own occupied neighbours and more own pieces than enemy
//!   pieces on the neighbours (the space itself does not count), judged afresh before each removal.
//! - After each of Dark's turns (end of the game turn): a player whose `lost > ceil(P/2)`
//!   (attrition) or whose `occupied < lost` (territory) loses; both → draw. Then both players
//!   stuck (neither can remove nor gain a space, §8.4) → draw; then the turn limit → draw.
//!
//! # Engine shape
//!
//! `Rules::Move` is [`Action`], one atomic decision: one of the four actions, end-turn or pass.
//! The record token (referee move) is a whole turn string such as `+d4*2,+e5,+d5`, judged by the
//! literal algorithm of §6.6 ([`Position::play_turn`]). `check` judges a decision, `place` applies it,
//! `end_check` hands the turn over and runs the check after Dark's turn; there is no capture sweep
//! or cascade. [`Position::control`] gives the control overlay.
//!
//! ## Decisions
//!
//! - **Atomic legality looks ahead.** An atomic action is legal only if some legal turn starts
//!   with the actions taken so far followed by it ([`Position::keeps_turn_finishable`]), so a
//!   player (or a random playout) can never reach a state with no legal decision, such as
//!   `+a1,-a1` with X = 2. Whole turn strings are still judged literally, so `+a1,-a1` is refused
//!   at the end-turn with NoNetChange as the spec's example says; an atomic `-a1` that would
//!   strand the turn is refused with `DeadEnd`. Referee `--legal` lists exactly the actions that
//!   can start a legal turn (every legal first action can, see `keeps_turn_finishable`).
//! - **Waves.** Atomic play reports everything in wave 0. A whole turn string reports its k-th
//!   action (0-based) in wave k and the end-of-turn effects (`GameOver`) in the next wave, so the
//!   presentation replays the turn action by action as the spec's examples narrate it.
//! - **Effects.** Place → `Placed` + `Stacked`; Move → `Moved` + `Stacked` for both spaces;
//!   Return → `Removed{cause: Returned}` + `Stacked`; Remove → `Removed{cause: Control}` +
//!   `Stacked`; pass → `Passed`; the end of the game → `GameOver`. `Stacked` with height 0 means
//!   the space became vacant.
//! - **Position text mid-turn.** The spec's text has no field for a turn in progress; in the middle
//!   of a turn it shows the board as it stands and reads back as the start of a turn.
//! - **Options vs text.** A position text whose N or X differs from the options is refused with a
//!   message saying which options to set (the options carry layout and turn limit too).
//! - **Off-board squares.** A syntactically valid square beyond the board (`+z9`) in a turn string
//!   fails at its action with OffBoard (§6.6), not as a parse error. Upper-case input is accepted.
//! - **Turn strings mid-turn.** A whole turn string is only accepted at the start of a turn.
//! - **Atomic tokens.** `parse_move`/`format_move` write one action as in a turn string (`+c3`,
//!   `b2>c2`, `-c2`, `xc3`), end-turn as `end` and the empty turn as `pass`; `*k` is for turn
//!   strings only. [`format_turn`] builds the canonical turn string from the atomic decisions of a
//!   turn, and [`format_record`]/[`parse_record`] write and read the game record of §9.3.
//! - **Pass.** `pass` is one decision that is the whole turn, legal only at the start of a turn of
//!   a player with no pieces; it is then that player's only legal decision.
//! - **Deadlock.** `stuck` uses the spec's exact formula; `cost_x(s)` is the spec's breadth-first
//!   search over the local abstract model (depth ≤ X − 1). It runs only when the cheap expansion
//!   test fails (no vacant space, or no pool piece and no stack taller than 1). A test checks both
//!   against a brute-force enumeration of every legal turn on small boards.
//! - **Danger.** [`Position::threatened`] lists a side's spaces the opponent could remove a piece
//!   from in one turn (exact for direct removals, never missing one through a chain of removals)
//!   and [`Position::end_turn_warning`] says when ending a turn now lets the opponent win at once;
//!   both reach the app through `About::threatened` / `About::warning_before` (`threats.rs`).
//! - **No contradictions found.** Every worked example of §11 holds under the rule text as written;
//!   no example needed a reading that departs from the rules.

mod about;
mod describe;
mod moves;
mod notation;
mod options;
mod position;
mod reference;
mod resolve;
mod threats;
mod view;

pub use moves::{Action, Illegal};
pub use notation::{
    Square, TurnError, TurnStep, TurnString, WrittenAction, action_text, format_record, format_turn, parse_action,
    parse_record, parse_record_over, parse_turn, record_header, square_name,
};
pub use options::{GravelOptions, Layout};
pub use position::{EndReason, GameResult, LossFlags, MAX_SPACES, Phase, Position, TurnProgress};
pub use threats::{TARGET_NODES, TOTAL_NODES, ThreatReport, WIN_NODES};

use crate::rules::Outcome;

impl Position {
    /// The result's outcome, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.result.map(|r| r.outcome)
    }
}

/// The rule book's Examples 1 and 2 (§11): the 5×5 position with Dark to move, for tests.
#[cfg(test)]
pub(crate) fn rule_book_example_2() -> Position {
    use crate::rules::Notation;
    let text = "5 4 ...../.D1D1../D2L1L1D1./.L1L1L1./..... D 8 8 0 0 3";
    let options = GravelOptions { size: 5, ..GravelOptions::default() };
    Position::parse_position(&options, text).expect("the rule book's position reads")
}
