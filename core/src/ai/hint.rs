//! Hints: the whole turn the computer would play in a person's place, and what it achieves.
//!
//! [`hint_turn`] asks the computer for the side's decision, plays it on a copy, and asks again
//! while the turn is still the side's: one decision in Red Stone, an action's several decisions
//! in Inchworm, every action up to `end` in Gravel, both parts in Throngs, and in Hidden
//! Intention the side's whole sealed commitment (swap, figure, square, facing). The copy is the
//! position the side may know: [`hint_turn_in_match`] takes it from the match without the
//! opponent's sealed decisions ([`Match::position_for`]), so a hint never depends on them. Every
//! decision is thought with the level's iterations only (no wall-clock limit), each with its own
//! seed derived from `seed`, so the same seed gives the same hint on any machine.
//!
//! The reason comes from a dry run of the engine on a copy ([`turn_reason`]): the effects of each
//! decision and the positions before and after the turn. In order of preference:
//!
//! 1. **wins the game** / **ends the game in a draw**: the turn ends the game (its status).
//! 2. **captures N stones** / **removes N enemy pieces**: enemy pieces the turn's effects take off
//!    the board (`Captured` cells holding the opponent's pieces before, counted by height;
//!    `Removed` counts by Gravel's control removals, which the words call removing).
//! 3. **saves the group on C4** / **saves the stack on d4**: a space of the side that was in
//!    danger before the turn (a group with one liberty, marked by the board view, or a space the
//!    game says the opponent could take next turn, `DynGame::threatened`) still holds the side's
//!    pieces and is out of danger after it.
//! 4. **threatens the group on e5**: an enemy space comes into such danger.
//! 5. Otherwise the game's own words for the decisions (`GameKind::decision_words`), such as
//!    "place a piece on d4 twice, then place a piece on e5".

use super::games::decide_timed;
use super::{DecideError, Level, Timing};
use crate::games::{DynGame, GameKind, plural};
use crate::rules::{
    BoardView, Cell, EffectKind, HintMark, PieceShape, RemoveCause, Side, Status, ToMove, splitmix64_nth,
};
use crate::session::{Match, Viewer};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// No turn of any game has more atomic decisions than this (a guard against a game that would
/// keep one side deciding for ever).
pub const MAX_TURN_DECISIONS: usize = 256;

/// What a hinted turn achieves, as the dry run tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintReason {
    /// The turn ends the game with the side as the winner.
    Wins,
    /// The turn ends the game in a draw.
    Draws,
    /// The turn takes `count` enemy pieces off the board: captures, or Gravel's removals
    /// (`removes`).
    Takes { count: u32, removes: bool },
    /// A space of the side in danger before the turn is safe after it: `what` is "group" (one
    /// liberty left) or "stack"/"piece" (the opponent could take it next turn), `on` names a
    /// space of it.
    Saves { what: &'static str, on: String },
    /// An enemy group or stack comes into danger.
    Threatens { what: &'static str, on: String },
    /// More spaces come under the side's control (Gravel, Hidden Intention): `spaces` in all
    /// after the turn, `more` than before it.
    Controls { spaces: u32, more: u32 },
    /// Nothing stands out: the game's own words for the turn.
    Plays(String),
}

impl HintReason {
    /// The reason in a player's words, starting in lower case ("captures 3 stones").
    pub fn words(&self) -> String {
        match self {
            HintReason::Wins => "wins the game".to_string(),
            HintReason::Draws => "ends the game in a draw".to_string(),
            HintReason::Takes { count, removes: false } => format!("captures {}", plural(*count as usize, "stone")),
            HintReason::Takes { count, removes: true } => format!("removes {}", plural(*count as usize, "enemy piece")),
            HintReason::Saves { what, on } => format!("saves the {what} on {on}"),
            HintReason::Threatens { what, on } => format!("threatens the {what} on {on}"),
            HintReason::Controls { spaces, more } => {
                let spaces_word = if *more == 1 { "space" } else { "spaces" };
                format!("brings {more} more {spaces_word} under your control ({spaces} in all)")
            }
            HintReason::Plays(words) => words.clone(),
        }
    }

    /// The reason as a sentence for the hint's "Why:" ("It captures 3 stones."); a turn where
    /// nothing stands out says so rather than repeating the turn.
    pub fn sentence(&self) -> String {
        match self {
            HintReason::Plays(_) => {
                "Nothing is taken, threatened or gained at once: the computer's search rates it best.".to_string()
            }
            reason => format!("It {}.", reason.words()),
        }
    }
}

/// The turn the computer would play for a side, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnHint {
    pub side: Side,
    /// The turn's atomic decisions in order, as `DynGame::legal_decisions` writes them.
    pub decisions: Vec<String>,
    pub reason: HintReason,
}

/// The whole turn the computer at `level` would play for `side` in `game`, which must be the
/// position `side` may know (at a simultaneous node, without the opponent's sealed decisions:
/// otherwise the computer refuses with [`DecideError::OpponentSealed`]). Refuses like
/// `ai::games::decide` when `side` has no decision. Raising `stop` makes each decision answer at
/// once (the hint is then no longer reproducible).
pub fn hint_turn(
    game: &dyn DynGame,
    side: Side,
    level: Level,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Result<TurnHint, DecideError> {
    let mut position = game.clone_box();
    let mut decisions = Vec::new();
    while decisions.is_empty() || still_deciding(position.as_ref(), side) {
        if decisions.len() >= MAX_TURN_DECISIONS {
            break;
        }
        let decision_seed = splitmix64_nth(seed, decisions.len() as u64);
        let decision = decide_timed(position.as_ref(), side, level, decision_seed, stop.clone(), Timing::Reproducible)?;
        // The computer only answers with a legal decision; if it ever did not, the hint stops
        // at the decisions that played rather than showing one that cannot.
        if position.play_decision(&decision).is_err() {
            break;
        }
        decisions.push(decision);
    }
    if decisions.is_empty() {
        return Err(DecideError::NotYourTurn);
    }
    let reason = turn_reason(game, side, &decisions).unwrap_or_else(|_| HintReason::Plays(String::new()));
    Ok(TurnHint { side, decisions, reason })
}

/// [`hint_turn`] for `side` in a match: from the position its seat may know, so the opponent's
/// sealed decisions never reach the computer.
pub fn hint_turn_in_match(
    game: &Match,
    side: Side,
    level: Level,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Result<TurnHint, DecideError> {
    if game.is_over() {
        return Err(DecideError::GameOver);
    }
    let known = game.position_for(Viewer::Seat(game.seat_of(side)));
    hint_turn(known.as_ref(), side, level, seed, stop)
}

/// Whether `side` still has a decision of the same turn in `position`.
pub fn still_deciding(position: &dyn DynGame, side: Side) -> bool {
    match position.to_move() {
        Some(ToMove::One(s)) => s == side,
        // At a simultaneous node the side is done once its commitment is sealed.
        Some(ToMove::Both) => !position.legal_decisions(side).is_empty(),
        None => false,
    }
}

/// Why a turn could not be dry-run: its decision `index` (0-based) does not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("decision {index} of the turn does not play: {reason}")]
pub struct DryRunError {
    pub index: usize,
    pub reason: String,
}

/// What `decisions`, played by `side` from `game`, achieve: a dry run of the engine on a copy
/// (see the module text for the order of preference).
pub fn turn_reason(game: &dyn DynGame, side: Side, decisions: &[String]) -> Result<HintReason, DryRunError> {
    let kind = game.kind();
    let start_view = game.board_view();
    let mut position = game.clone_box();
    let (mut taken, mut removes) = (0u32, false);
    for (index, decision) in decisions.iter().enumerate() {
        let before = position.board_view();
        let effects = position.play_decision(decision).map_err(|e| DryRunError { index, reason: e.to_string() })?;
        for effect in &effects {
            match &effect.kind {
                EffectKind::Removed { cell, count, cause }
                    if *cause != RemoveCause::Returned && owner_on(&before, *cell) == Some(side.opponent()) =>
                {
                    taken += u32::from(*count);
                    removes |= *cause == RemoveCause::Control;
                }
                EffectKind::Captured { cells, .. } => {
                    for &cell in cells {
                        if let Some(piece) = piece_on(&before, cell).filter(|p| p.owner == Some(side.opponent())) {
                            taken += u32::from(piece.height());
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if let Status::Over(outcome) = position.status() {
        return Ok(match outcome {
            crate::rules::Outcome::Winner(winner) if winner == side => HintReason::Wins,
            crate::rules::Outcome::Draw => HintReason::Draws,
            // A turn that loses says what it does in the game's words.
            crate::rules::Outcome::Winner(_) => HintReason::Plays(plain_words(kind, side, decisions)),
        });
    }
    if taken > 0 {
        return Ok(HintReason::Takes { count: taken, removes });
    }
    let end_view = position.board_view();
    let before_own = endangered(game, &start_view, side);
    let after_own = endangered(position.as_ref(), &end_view, side);
    let saved = before_own
        .iter()
        .find(|(cell, _)| owner_on(&end_view, *cell) == Some(side) && !after_own.iter().any(|(c, _)| c == cell));
    if let Some(&(cell, what)) = saved {
        return Ok(HintReason::Saves { what, on: cell_name(&end_view, cell) });
    }
    let them = side.opponent();
    let before_enemy = endangered(game, &start_view, them);
    let threatened = endangered(position.as_ref(), &end_view, them)
        .into_iter()
        .find(|(cell, _)| !before_enemy.iter().any(|(c, _)| c == cell));
    if let Some((cell, what)) = threatened {
        return Ok(HintReason::Threatens { what, on: cell_name(&end_view, cell) });
    }
    let controlled = |view: &BoardView| view.cells.iter().filter(|c| c.marks.control == Some(side)).count() as u32;
    let (before, after) = (controlled(&start_view), controlled(&end_view));
    if after > before {
        return Ok(HintReason::Controls { spaces: after, more: after - before });
    }
    Ok(HintReason::Plays(plain_words(kind, side, decisions)))
}

/// The spaces of `side` in danger in `position` (whose view is `view`), with what stands there:
/// stones of a group with one liberty (the view's mark), or spaces the game says the opponent
/// could take next turn. In cell order, a space once.
fn endangered(position: &dyn DynGame, view: &BoardView, side: Side) -> Vec<(Cell, &'static str)> {
    let mut cells: Vec<(Cell, &'static str)> = view
        .cells
        .iter()
        .filter(|c| c.marks.hint == Some(HintMark::InDanger) && c.piece.is_some_and(|p| p.owner == Some(side)))
        .map(|c| (c.cell, "group"))
        .collect();
    for cell in position.threatened(side) {
        if !cells.iter().any(|(c, _)| *c == cell) {
            let what = match piece_on(view, cell).map(|p| p.shape) {
                Some(PieceShape::Stack { height }) if height > 1 => "stack",
                _ => "piece",
            };
            cells.push((cell, what));
        }
    }
    cells.sort_unstable();
    cells
}

fn piece_on(view: &BoardView, cell: Cell) -> Option<crate::rules::PieceView> {
    view.cells.get(usize::from(cell)).and_then(|c| c.piece)
}

fn owner_on(view: &BoardView, cell: Cell) -> Option<Side> {
    piece_on(view, cell).and_then(|p| p.owner)
}

fn cell_name(view: &BoardView, cell: Cell) -> String {
    view.cells.get(usize::from(cell)).map_or_else(|| cell.to_string(), |c| c.name.clone())
}

/// The game's words for the decisions, in lower case: a repeated decision once with how often,
/// a closing "end turn" left out, and a part that only names where ("On d4", after a figure)
/// joined to the part before ("queen on d4").
fn plain_words(kind: GameKind, side: Side, decisions: &[String]) -> String {
    let mover = kind.side_name(side);
    let mut words: Vec<(String, usize)> = Vec::new();
    for decision in decisions {
        let said = kind.decision_words(decision, mover).unwrap_or_else(|| decision.clone());
        match words.last_mut() {
            Some((last, times)) if *last == said => *times += 1,
            _ => words.push((said, 1)),
        }
    }
    if words.len() > 1 && words.last().is_some_and(|(w, _)| w == "End turn") {
        words.pop();
    }
    let mut out = String::new();
    for (i, (said, times)) in words.iter().enumerate() {
        let said = lower_first(said);
        if i > 0 {
            out.push_str(if said.starts_with("on ") { " " } else { ", then " });
        }
        out.push_str(&said);
        match times {
            1 => {}
            2 => out.push_str(" twice"),
            n => out.push_str(&format!(" {n} times")),
        }
    }
    out
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_lowercase().chain(chars).collect())
}
