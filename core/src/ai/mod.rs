//! Computer opponents: Monte Carlo tree search over the `Rules` trait, difficulty levels and the arena.
//!
//! Pure Rust, no Bevy. Everything is generic over [`Rules`]: a strategy is given a position and the
//! side to decide for and returns one atomic decision (`Rules::Move`).
//!
//! - [`Searcher`]: MCTS with UCT over atomic decisions, pluggable playouts ([`PlayoutPolicy`]) and a
//!   static evaluation when a playout hits its ply cap ([`Evaluator`]), tree reuse between decisions
//!   ([`Strategy::observe`]), transpositions for games with a Zobrist key, and decoupled selection
//!   at simultaneous nodes (`ToMove::Both`).
//! - [`Knowledge`] (`core/src/ai/knowledge/<game>.rs`): what each game tells the search — an evaluation
//!   of ongoing positions for capped playouts and a playout policy ([`GameEvaluator`],
//!   [`GamePolicy`]). Toy games implement it with the defaults (uniform playouts, draw at the cap).
//! - [`AlphaBeta`] / [`AlphaBetaSearch`]: alpha-beta with iterative deepening and a transposition
//!   table over the same evaluation, resumable in slices; Gravel's Medium and Hard use it
//!   ([`Engine`]), since it beat MCTS there (`docs/arena.md`).
//! - [`Budget`]: iterations (deterministic for a seed; positions visited for alpha-beta), an
//!   optional wall-clock limit and a "move now" flag.
//! - [`Level`] and [`budget_for`]: the `random`, `easy`, `medium`, `hard` presets (iterations,
//!   playout quality and playout cap), tunable per game.
//! - [`games`]: the computer's table of games (each game's knowledge and calibration) and the
//!   functions that think about a game behind a `DynGame` handle: [`games::session`] (an
//!   [`AiSession`], one decision thought about in slices, for the app), [`games::decide`],
//!   [`games::arena`].
//! - [`hint_turn`] / [`hint_turn_in_match`]: the whole turn the computer would play in a person's
//!   place (every atomic decision up to the end of the side's turn, or its sealed commitment) with
//!   a reason from a dry run of the engine ([`turn_reason`]: "wins the game", "captures 3 stones",
//!   "saves the group on C4"), reproducible for a seed.
//! - [`job`]: one decision as plain data ([`job::DecisionJob`]), for the browser's Web Worker.
//! - [`run_arena`]: levels against each other with an Elo estimate (`stoneyard arena`).
//!
//! # For the app
//!
//! ```ignore
//! // Natively in an AsyncComputeTaskPool task, or a slice per frame on the web:
//! let stop = Arc::new(AtomicBool::new(false)); // raise it for "move now"
//! let mut session = ai::games::session(game.as_ref(), side, Level::Hard, seed, Some(stop.clone()))?;
//! while !session.think(500) { /* web: return and continue next frame */ }
//! let token = session.decision(); // one atomic decision in the game's move notation
//! ```
//!
//! Generic code holding a concrete position uses a [`Searcher`] (or [`strategy_for`]) directly:
//! `searcher.decide(&pos, side, &budget_for(level, &calibration).budget())`, then `searcher.observe(&m)` for
//! every decision played so that the next search keeps the subtree it already built.
//!
//! # Simultaneous nodes and sealed decisions
//!
//! At a `ToMove::Both` node each side seals a commitment made of one or more atomic decisions. The
//! search never uses a side's sealed choice when deciding for the other side:
//!
//! - The position handed to [`Searcher::begin`] / [`Strategy::decide`] / [`games::session`] must
//!   be the *public* one: the opponent's sealed decisions are not in it. If the opponent has already
//!   sealed (at a `Both` node it has no legal decision left) the AI refuses with
//!   [`DecideError::OpponentSealed`] instead of searching a position that holds the secret. The app
//!   keeps a human's sealed choice outside the position until both sides have chosen (as
//!   `CurrentMatch::sealed` does) and asks the AI from the position without it; the arena does the
//!   same ([`play_game`]).
//! - Inside the tree, a simultaneous node is one joint step: each side walks its own *commitment
//!   tree* (its sequence of atomic decisions up to sealing), with legal decisions generated from a
//!   position holding only its own earlier decisions, choosing by its own statistics. The joint
//!   child is keyed by the pair of completed commitments. So the opponent's choice is sampled by the
//!   search itself, and neither side's statistics are conditioned on the other side's pick.
//! - Selection there is EXP3 (each side draws from its own softmax of importance-weighted rewards
//!   plus uniform exploration), not UCB1: deterministic UCB1 on both sides can fall into lockstep
//!   (the same pairs of picks repeating), which makes one side look as if it read the other.
//! - At a simultaneous root the decision is drawn from the search's mixed strategy (visit counts),
//!   not the single most-visited decision, so the AI is not a pure, exploitable player there.

mod alpha_beta;
mod arena;
#[cfg(not(target_arch = "wasm32"))]
mod arena_players;
mod budget;
pub mod calibration;
pub mod games;
mod hint;
pub mod job;
mod knowledge;
mod level;
mod mcts;
mod policy;
mod presets;
pub mod review;
mod session;
mod turn_search;

pub use alpha_beta::{AlphaBeta, AlphaBetaSearch};
pub use arena::{
    ARENA_DECISION_LIMIT, ArenaGame, ArenaPlayer, ArenaProgress, ArenaReport, ArenaSeries, ArenaTally, PlayerFactory,
    elo_estimate, elo_from_score, play_game, run_arena, run_arena_with,
};
pub use budget::{Budget, SearchReport, StopReason};
pub use hint::{
    DryRunError, HintReason, MAX_TURN_DECISIONS, TurnHint, hint_turn, hint_turn_in_match, still_deciding, turn_reason,
};
pub use knowledge::{CalibratedEvaluator, GameEvaluator, GamePolicy, Knowledge, PlayoutQuality, prefer};
pub use level::{Calibration, Engine, Level, LevelBudget, budget_for, strategy_for};
pub use mcts::{ArmStats, LineStep, MctsConfig, Searcher};
pub use policy::{
    DecisivePolicy, DrawEvaluator, Evaluator, LevelPolicy, PlayoutPolicy, UniformPolicy, playout_value,
    playout_value_and_length,
};
pub use session::{AiSession, Timing, decide_by_visits, merge_seed, searcher_seed, start_session, start_session_timed};

use crate::rules::{GameRng, Rules, Side, ToMove, pick_index, seeded};
use thiserror::Error;

/// The cores this machine offers the computer (1 where it cannot tell, and in the browser, whose
/// workers are counted by the page).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Why a strategy could not give a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum DecideError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not this side's decision")]
    NotYourTurn,
    /// At a simultaneous node the opponent's sealed choice is already in the position; searching it
    /// would read the secret. Ask before the opponent's choice is applied.
    #[error("the opponent has already sealed its choice in this position; ask the computer before applying it")]
    OpponentSealed,
    /// The strategy plays sequential games only (alpha-beta) and this is a simultaneous node.
    #[error("this player does not make simultaneous decisions")]
    Simultaneous,
    /// An arena player (another program) gave no legal decision.
    #[error("the player gave no legal decision")]
    NoAnswer,
    /// A game without a row in the computer's table (`ai::games`).
    #[error("the computer does not know how to play this game")]
    UnknownGame,
}

/// Something that picks one atomic decision for a side.
pub trait Strategy<R: Rules>: Send {
    /// One atomic decision for `side` in `pos`, within `budget`.
    fn decide(&mut self, pos: &R, side: Side, budget: &Budget) -> Result<R::Move, DecideError>;

    /// Tells the strategy that `m` was played in the real game (by either side, its own decisions
    /// included), so a search can keep the matching part of its tree. Optional.
    fn observe(&mut self, _m: &R::Move) {}
}

/// Checks that `side` may decide in `pos` without reading a sealed choice of the opponent.
pub fn check_may_decide<R: Rules>(pos: &R, side: Side, moves: &mut Vec<R::Move>) -> Result<(), DecideError> {
    match pos.to_move() {
        None => Err(DecideError::GameOver),
        Some(ToMove::One(s)) if s != side => Err(DecideError::NotYourTurn),
        Some(ToMove::One(_)) => {
            pos.legal_moves_for(side, moves);
            if moves.is_empty() { Err(DecideError::NotYourTurn) } else { Ok(()) }
        }
        Some(ToMove::Both) => {
            pos.legal_moves_for(side.opponent(), moves);
            let opponent_pending = !moves.is_empty();
            pos.legal_moves_for(side, moves);
            if moves.is_empty() {
                Err(DecideError::NotYourTurn)
            } else if !opponent_pending {
                Err(DecideError::OpponentSealed)
            } else {
                Ok(())
            }
        }
    }
}

/// The `random` level: a uniformly random legal decision, seeded.
#[derive(Clone, Debug)]
pub struct RandomStrategy {
    rng: GameRng,
}

impl RandomStrategy {
    pub fn new(seed: u64) -> Self {
        RandomStrategy { rng: seeded(seed) }
    }
}

impl<R: Rules> Strategy<R> for RandomStrategy {
    fn decide(&mut self, pos: &R, side: Side, _budget: &Budget) -> Result<R::Move, DecideError> {
        let mut moves = Vec::new();
        check_may_decide(pos, side, &mut moves)?;
        Ok(moves.swap_remove(pick_index(&mut self.rng, moves.len())))
    }
}
