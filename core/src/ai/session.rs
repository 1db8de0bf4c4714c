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
use crate::rules::{GameRng, Notation, Side, ToMove, seeded, splitmix64_nth};
use rand::RngExt;
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

    /// Each root decision's visits so far, in notation (empty for levels that do not search the
    /// tree): independent searchers of one position, elsewhere, sum them for their decision
    /// ([`decide_by_visits`]).
    fn root_visits(&self) -> Vec<(String, u64)> {
        Vec::new()
    }
}

/// The decision of independent searchers of one position (root parallelism) from their root
/// decisions' `visits`, summed: the most visited; at a simultaneous root (`simultaneous`) a
/// draw from the summed visits as one searcher draws from its own (those under a tenth of the
/// most visited's left out), the mixed strategy it would play. `None` without visits.
pub fn decide_by_visits<M: PartialEq + Clone>(
    visits: impl IntoIterator<Item = (M, u64)>,
    simultaneous: bool,
    rng: &mut GameRng,
) -> Option<M> {
    let summed = sum_visits(visits);
    let most = summed.iter().map(|(_, v)| *v).max().unwrap_or(0);
    if most == 0 {
        None
    } else if simultaneous {
        // As one searcher draws: decisions with a tenth of the most visited's visits or more.
        let weighed: Vec<(M, u64)> =
            summed.into_iter().map(|(mv, v)| (mv, super::mcts::drawn_weight(v, most))).collect();
        let total: u64 = weighed.iter().map(|(_, w)| w).sum();
        let mut roll = rng.random_range(0..total);
        weighed
            .into_iter()
            .find(|(_, w)| {
                let hit = roll < *w;
                roll = roll.saturating_sub(*w);
                hit
            })
            .map(|(mv, _)| mv)
    } else {
        summed.into_iter().max_by_key(|(_, v)| *v).map(|(mv, _)| mv)
    }
}

/// Each decision's visits summed, in the order first met (the first searcher's, so that ties
/// fall the same way everywhere).
fn sum_visits<M: PartialEq>(visits: impl IntoIterator<Item = (M, u64)>) -> Vec<(M, u64)> {
    let mut summed: Vec<(M, u64)> = Vec::new();
    for (mv, n) in visits {
        match summed.iter_mut().find(|(seen, _)| *seen == mv) {
            Some((_, total)) => *total += n,
            None => summed.push((mv, n)),
        }
    }
    summed
}

/// The seed of searcher `index` of several thinking about one decision from `seed` (the first
/// keeps it): the same in threads natively and in the browser's workers.
pub fn searcher_seed(seed: u64, index: u64) -> u64 {
    if index == 0 { seed } else { splitmix64_nth(seed, index) }
}

/// The seed of the draw at a simultaneous root among `searchers` searchers' summed visits.
pub fn merge_seed(seed: u64, searchers: u64) -> u64 {
    splitmix64_nth(seed, searchers)
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

    fn root_visits(&self) -> Vec<(String, u64)> {
        let arms = self.searcher.root_statistics().into_iter();
        arms.map(|arm| (self.position.format_move(&arm.mv), u64::from(arm.visits))).collect()
    }

    fn decision(&mut self) -> String {
        match self.searcher.choice() {
            Some(m) => self.position.format_move(&m),
            // `begin` succeeded, so the side has a decision; this cannot happen, but stay total.
            None => String::new(),
        }
    }
}

/// The session for an MCTS level on several cores (root parallelism): independent searchers of the
/// same position, each from its own seed on its own thread with the level's whole budget, their
/// root statistics summed for the decision. Each searcher's tree depends on its seed alone, so the
/// same seed and thread count give the same decision (without a wall-clock limit).
struct ParallelSearchSession<G: Notation + Knowledge> {
    searchers: Vec<Searcher<G, GamePolicy, GameEvaluator>>,
    position: G,
    spent: Spent,
    /// Draws the decision at a simultaneous root from the summed visits.
    rng: GameRng,
    /// Iterations of every searcher together.
    total: u64,
}

impl<G: Notation + Knowledge> AiSession for ParallelSearchSession<G> {
    fn think(&mut self, iterations: u64) -> bool {
        if self.spent.finished {
            return true;
        }
        let budget = self.spent.slice(iterations);
        let reports: Vec<_> = std::thread::scope(|scope| {
            let running: Vec<_> =
                self.searchers.iter_mut().map(|searcher| scope.spawn(|| searcher.think(&budget))).collect();
            running.into_iter().filter_map(|thread| thread.join().ok()).collect()
        });
        let Some(slowest) = reports.iter().min_by_key(|r| r.iterations) else {
            self.spent.finished = true;
            return true;
        };
        let seconds = reports.iter().map(|r| r.seconds).fold(0.0, f64::max);
        self.total += reports.iter().map(|r| r.iterations).sum::<u64>();
        self.spent.record(slowest.iterations, Duration::from_secs_f64(seconds), slowest.stopped_by)
    }

    fn iterations(&self) -> u64 {
        self.total
    }

    fn root_visits(&self) -> Vec<(String, u64)> {
        let arms = self.searchers.iter().flat_map(|searcher| searcher.root_statistics());
        let summed = sum_visits(arms.map(|arm| (arm.mv, u64::from(arm.visits))));
        summed.into_iter().map(|(mv, n)| (self.position.format_move(&mv), n)).collect()
    }

    fn decision(&mut self) -> String {
        let arms = self.searchers.iter().flat_map(|searcher| searcher.root_statistics());
        let simultaneous = self.position.to_move() == Some(ToMove::Both);
        let visits = arms.map(|arm| (arm.mv, u64::from(arm.visits)));
        let chosen = decide_by_visits(visits, simultaneous, &mut self.rng).or_else(|| self.searchers[0].choice());
        chosen.map_or_else(String::new, |m| self.position.format_move(&m))
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

/// Whether a session keeps the level's wall-clock limit, and how many cores it thinks on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// The level's time limit too, so a slow machine still answers in time, and (Hard's MCTS,
    /// natively) a searcher on every core: the app's opponent.
    WallClock,
    /// Iterations only, on one core: the same seed gives the same decision on every machine
    /// (hints, tests).
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
    // Easy and Medium answer well within their time at one core's iterations (and keep their
    // ladder); Hard's 2 s buy more search on every core.
    let threads = match timing {
        Timing::WallClock if level == Level::Hard => super::cores(),
        _ => 1,
    };
    if threads > 1 {
        let mut searchers = Vec::with_capacity(threads);
        for thread in 0..threads as u64 {
            let seed = searcher_seed(seed, thread);
            let mut searcher = Searcher::with_policy(preset.config(), preset.policy(), GameEvaluator, seed);
            searcher.begin(position, side)?;
            searchers.push(searcher);
        }
        return Ok(Box::new(ParallelSearchSession {
            searchers,
            position: position.clone(),
            spent: Spent::new(preset, stop),
            rng: seeded(merge_seed(seed, threads as u64)),
            total: 0,
        }));
    }
    let mut searcher = Searcher::with_policy(preset.config(), preset.policy(), GameEvaluator, seed);
    searcher.begin(position, side)?;
    Ok(Box::new(SearchSession { searcher, position: position.clone(), spent: Spent::new(preset, stop) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameKind, red_stone};

    /// Red Stone's spec example S5: White's only winning decision is the red stone on A1.
    fn s5() -> red_stone::Position {
        let options = [("size".to_string(), "5".to_string())];
        let game = GameKind::from_slug("red-stone").unwrap().open(&options, Some("XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w"));
        game.unwrap().as_any().downcast_ref::<red_stone::Position>().unwrap().clone()
    }

    #[test]
    fn hard_thinks_on_every_core_and_the_same_seed_gives_the_same_decision() {
        let calibration = Calibration { iterations: [100, 300, 2_000], ..Calibration::GENERIC };
        let decide = || {
            let mut session =
                start_session_timed(&s5(), Side::Second, Level::Hard, &calibration, 7, None, Timing::WallClock)
                    .unwrap();
            while !session.think(u64::MAX) {}
            (session.decision(), session.iterations())
        };
        let (decision, iterations) = decide();
        assert_eq!(decide().0, decision);
        assert_eq!(decision, "A1*");
        // Each core's searcher spends the whole budget (the time limit is far off here).
        assert_eq!(iterations, 2_000 * super::super::cores() as u64);
    }
}
