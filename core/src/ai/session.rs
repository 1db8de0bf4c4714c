//! One computer decision thought about in slices, behind an object-safe handle.
//!
//! For callers that only hold a `DynGame` (through `ai::games::session`): the app thinks in a
//! background task natively and a slice per frame on the web.

use super::alpha_beta::AlphaBetaSearch;
use super::budget::{Budget, StopReason};
use super::knowledge::{GameEvaluator, GamePolicy, Knowledge};
use super::level::{Calibration, Engine, Level, LevelBudget, budget_for};
use super::mcts::Searcher;
use super::{DecideError, RandomStrategy, Strategy};
use crate::rules::{Notation, Side, seeded};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use web_time::Instant;

/// One decision of the computer in progress. Think in slices, then take the decision.
pub trait AiSession: Send {
    /// Thinks for at most `iterations` more iterations, within the level's budget. Returns `true`
    /// once the level has thought enough (iterations or time limit spent, stop flag raised, or the
    /// decision is forced): the caller should then take `decision`.
    fn think(&mut self, iterations: u64) -> bool;

    /// The decision now (at any time, even before thinking), in the game's move notation.
    fn decision(&mut self) -> String;

    /// Search iterations done so far (0 for levels that do not search).
    fn iterations(&self) -> u64 {
        0
    }
}

/// What a level's session has spent of its budget, over all the slices it thought in.
struct Spent {
    preset: LevelBudget,
    stop: Option<Arc<AtomicBool>>,
    iterations: u64,
    time: Duration,
    finished: bool,
}

impl Spent {
    fn new(preset: LevelBudget, stop: Option<Arc<AtomicBool>>) -> Self {
        Spent { preset, stop, iterations: 0, time: Duration::ZERO, finished: false }
    }

    /// The budget of the next slice: at most `iterations`, within what the level has left.
    fn slice(&self, iterations: u64) -> Budget {
        let left = self.preset.iterations.saturating_sub(self.iterations);
        let time_left = self.preset.time_limit.map(|limit| limit.saturating_sub(self.time));
        Budget { iterations: iterations.min(left), time_limit: time_left, stop: self.stop.clone() }
    }

    /// Counts a slice; returns whether the level has thought enough.
    fn record(&mut self, iterations: u64, time: Duration, stopped_by: StopReason) -> bool {
        self.iterations += iterations;
        self.time += time;
        self.finished = match stopped_by {
            StopReason::Iterations => self.iterations >= self.preset.iterations,
            StopReason::TimeLimit | StopReason::StopFlag | StopReason::Forced => true,
        };
        self.finished
    }
}

/// The session for an MCTS level.
struct SearchSession<G: Notation + Knowledge> {
    searcher: Searcher<G, GamePolicy, GameEvaluator>,
    position: G,
    spent: Spent,
}

impl<G: Notation + Knowledge> AiSession for SearchSession<G> {
    fn think(&mut self, iterations: u64) -> bool {
        if self.spent.finished {
            return true;
        }
        let report = self.searcher.think(&self.spent.slice(iterations));
        self.spent.record(report.iterations, Duration::from_secs_f64(report.seconds), report.stopped_by)
    }

    fn iterations(&self) -> u64 {
        self.spent.iterations
    }

    fn decision(&mut self) -> String {
        match self.searcher.choice() {
            Some(m) => self.position.format_move(&m),
            // `begin` succeeded, so the side has a decision; this cannot happen, but stay total.
            None => String::new(),
        }
    }
}

/// The session for an alpha-beta level.
struct AlphaBetaSession<G: Notation + Knowledge> {
    search: AlphaBetaSearch<G>,
    spent: Spent,
}

impl<G: Notation + Knowledge> AiSession for AlphaBetaSession<G> {
    fn think(&mut self, iterations: u64) -> bool {
        if self.spent.finished {
            return true;
        }
        let started = Instant::now();
        let (done, stopped_by) = self.search.think(&self.spent.slice(iterations));
        self.spent.record(done, started.elapsed(), stopped_by)
    }

    fn iterations(&self) -> u64 {
        self.spent.iterations
    }

    fn decision(&mut self) -> String {
        self.search.root_position().format_move(&self.search.choice())
    }
}

/// The session of the `random` level: decides at once.
struct RandomSession {
    decision: String,
}

impl AiSession for RandomSession {
    fn think(&mut self, _iterations: u64) -> bool {
        true
    }
    fn decision(&mut self) -> String {
        self.decision.clone()
    }
}

/// Starts the computer's decision for `side` in `position` at `level` (with the level's budget for
/// this game, including its time limit). Refuses like [`Searcher::begin`], in particular when the
/// opponent's sealed choice is already in `position`.
pub fn start_session<G: Notation + Knowledge>(
    position: &G,
    side: Side,
    level: Level,
    calibration: &Calibration,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Box<dyn AiSession>, DecideError> {
    start_session_timed(position, side, level, calibration, seed, stop, Timing::WallClock)
}

/// Whether a session keeps the level's wall-clock limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// The level's time limit too, so a slow machine still answers in time (the app's opponent).
    WallClock,
    /// Iterations only: the same seed gives the same decision on every machine (hints, tests).
    Reproducible,
}

/// [`start_session`] with the level's time limit kept or dropped.
pub fn start_session_timed<G: Notation + Knowledge>(
    position: &G,
    side: Side,
    level: Level,
    calibration: &Calibration,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
    timing: Timing,
) -> Result<Box<dyn AiSession>, DecideError> {
    let mut preset = budget_for(level, calibration);
    if timing == Timing::Reproducible {
        preset.time_limit = None;
    }
    if level == Level::Random {
        let m = RandomStrategy::new(seed).decide(position, side, &Budget::iterations(0))?;
        return Ok(Box::new(RandomSession { decision: position.format_move(&m) }));
    }
    if preset.engine == Engine::AlphaBeta {
        let search = AlphaBetaSearch::new(position, side, &mut seeded(seed))?;
        return Ok(Box::new(AlphaBetaSession { search, spent: Spent::new(preset, stop) }));
    }
    let mut searcher = Searcher::with_policy(preset.config(), preset.policy(), GameEvaluator, seed);
    searcher.begin(position, side)?;
    Ok(Box::new(SearchSession { searcher, position: position.clone(), spent: Spent::new(preset, stop) }))
}
