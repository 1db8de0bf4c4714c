//! One computer decision as plain data (game, options, start, moves, side, level, seed), so that
//! another thread or module can think about it: the browser build sends it to its Web Worker.
//!
//! The receiver rebuilds the position by replaying the moves from the start (so everything the
//! rules remember, repetitions included, is the same as at the sender) and checks that it arrived
//! at the sender's position text before it thinks. The same job gives the same decision wherever
//! it runs: the levels' budgets are iterations and every random choice comes from `seed`.
//!
//! A receiver that thinks about one match decision after decision (the browser's workers) keeps
//! it between jobs ([`JobReceiver`]); its sender ([`JobFeed`]) then sends only the decisions it
//! lacks, so a job costs the same at decision 3,000 as at decision 10.

use super::games::{searchers_for, session_timed};
use super::{AiSession, DecideError, Level, Timing, decide_by_visits, merge_seed, searcher_seed};
use crate::games::{DynGame, GameError, GameKind};
use crate::rules::{Side, seeded};
use crate::session::Match;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Everything the computer needs to make one decision, without the game object itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionJob {
    /// The game's slug (`red-stone`).
    pub game: String,
    /// The game's options as `key=value` pairs.
    pub options: Vec<(String, String)>,
    /// The start's position text when the game did not start from the options' initial position.
    pub start: Option<String>,
    /// The decisions played since the start, in notation: all of them, or those after the first
    /// `from` when the receiver holds those already.
    pub moves: Vec<String>,
    /// How many of the match's first decisions the receiver holds from the sender's earlier jobs
    /// and does not get again (0: the job carries every decision).
    #[serde(default)]
    pub from: usize,
    /// Which of the sender's matches the decisions belong to (`Match::version().0`): a receiver
    /// holds one match, and a job that continues another is refused.
    #[serde(default)]
    pub line: u64,
    /// The position text the moves lead to (checked by the receiver).
    pub position: String,
    pub side: Side,
    pub level: Level,
    pub seed: u64,
}

/// Why a job cannot be thought about.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    #[error("the game cannot be opened: {0}")]
    Open(#[from] GameError),
    #[error("move {number} ({text}) cannot be replayed: {error}")]
    Replay { number: usize, text: String, error: String },
    #[error("replaying the moves leads to another position than the sender's")]
    OtherPosition,
    #[error(transparent)]
    Decide(#[from] DecideError),
    #[error("the job is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the job continues a match this receiver does not hold")]
    NotHeld,
}

impl DecisionJob {
    /// The job for `side`'s decision in `now`, reached from `start` (whose position text is
    /// `start_text` when it is not the options' initial position) by `moves`.
    pub fn new(
        start: &dyn DynGame,
        start_text: Option<&str>,
        moves: &[String],
        now: &dyn DynGame,
        side: Side,
        level: Level,
        seed: u64,
    ) -> Self {
        DecisionJob {
            game: start.kind().slug().to_string(),
            options: start.option_pairs(),
            start: start_text.map(str::to_string),
            moves: moves.to_vec(),
            from: 0,
            line: 0,
            position: now.position_text(),
            side,
            level,
            seed,
        }
    }

    /// The job for `side`'s decision in `game` now, with every decision of the match.
    pub fn of_match(game: &Match, side: Side, level: Level, seed: u64) -> Self {
        JobFeed::default().job(game, side, level, seed)
    }

    /// The job read from its JSON text.
    pub fn from_json(text: &str) -> Result<Self, JobError> {
        Ok(serde_json::from_str(text)?)
    }

    /// The job as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The position to decide in: the match loaded from the start and the moves (a job that
    /// carries every decision).
    pub fn position(&self) -> Result<Box<dyn DynGame>, JobError> {
        JobReceiver::default().position(self)
    }

    /// The match from the start, before any decision.
    fn open_start(&self) -> Result<Match, JobError> {
        let kind = GameKind::from_slug(&self.game).ok_or_else(|| JobError::UnknownGame(self.game.clone()))?;
        Ok(Match::new(kind.open(&self.options, self.start.as_deref())?))
    }

    /// The computer's session for this decision (`stop` is its "move now" flag).
    pub fn session(&self, stop: Option<Arc<AtomicBool>>) -> Result<Box<dyn AiSession>, JobError> {
        self.session_timed(stop, Timing::WallClock)
    }

    /// [`Self::session`] with the level's wall-clock limit kept or dropped.
    pub fn session_timed(&self, stop: Option<Arc<AtomicBool>>, timing: Timing) -> Result<Box<dyn AiSession>, JobError> {
        let game = self.position()?;
        Ok(session_timed(game.as_ref(), self.side, self.level, self.seed, stop, timing)?)
    }

    /// How many independent searchers think about this decision where `available` could (the
    /// browser's workers): Hard's tree search uses them all, as it uses every core natively;
    /// the other levels, and alpha-beta, one.
    pub fn searchers(&self, available: usize) -> usize {
        GameKind::from_slug(&self.game).map_or(1, |kind| searchers_for(kind, self.level, available))
    }

    /// The job of searcher `index` of several: the same decision from that searcher's seed.
    pub fn for_searcher(&self, index: usize) -> DecisionJob {
        DecisionJob { seed: searcher_seed(self.seed, index as u64), ..self.clone() }
    }

    /// The decision of the searchers of this job (`for_searcher(0)`, `for_searcher(1)`…) from
    /// their root visits, listed in that order (`simultaneous`: both sides decide here), as
    /// natively on that many threads. `None` without visits.
    pub fn decision_of_searchers(&self, visits: Vec<Vec<(String, u64)>>, simultaneous: bool) -> Option<String> {
        decision_of_searchers(self.seed, visits, simultaneous)
    }
}

/// The decision of the searchers of a job whose seed is `seed` (see
/// [`DecisionJob::decision_of_searchers`]).
pub fn decision_of_searchers(seed: u64, visits: Vec<Vec<(String, u64)>>, simultaneous: bool) -> Option<String> {
    let mut rng = seeded(merge_seed(seed, visits.len() as u64));
    decide_by_visits(visits.into_iter().flatten(), simultaneous, &mut rng)
}

/// What one receiver holds of a sender's match, kept by the sender: the next job for that
/// receiver carries only the decisions it lacks (and where it must go back to, after an undo).
#[derive(Clone, Debug, Default)]
pub struct JobFeed {
    line: Option<u64>,
    /// The serials (`Match::serial`) of the decisions the receiver holds.
    serials: Vec<u64>,
}

impl JobFeed {
    /// The job for `side`'s decision in `game` now, for this feed's receiver.
    pub fn job(&mut self, game: &Match, side: Side, level: Level, seed: u64) -> DecisionJob {
        let line = game.version().0;
        let from = if self.line == Some(line) { game.common_prefix(&self.serials) } else { 0 };
        self.line = Some(line);
        self.serials.truncate(from);
        self.serials.extend((from..game.len()).filter_map(|i| game.serial(i)));
        let start = game.start();
        DecisionJob {
            game: start.kind().slug().to_string(),
            options: start.option_pairs(),
            start: game.start_text().map(str::to_string),
            moves: game.played()[from..].iter().map(|p| p.decision.clone()).collect(),
            from,
            line,
            position: game.position().position_text(),
            side,
            level,
            seed,
        }
    }

    /// The receiver holds nothing now (it could not follow a job): the next job carries every
    /// decision.
    pub fn reset(&mut self) {
        *self = JobFeed::default();
    }
}

/// The match a receiver holds between jobs: each job's decisions are played on from where the
/// job says the receiver is.
#[derive(Default)]
pub struct JobReceiver {
    held: Option<(u64, Match)>,
}

impl JobReceiver {
    /// The position `job` decides in, reached from the match held (or from the start for a job
    /// with every decision); the match reached is held for the next job. On an error nothing is
    /// held (the sender must then send every decision again).
    pub fn position(&mut self, job: &DecisionJob) -> Result<Box<dyn DynGame>, JobError> {
        let held = self.held.take();
        let mut game = match held {
            _ if job.from == 0 => job.open_start()?,
            Some((line, mut game)) if line == job.line && game.kind().slug() == job.game && game.len() >= job.from => {
                game.go_to(job.from);
                game.drop_redo();
                game
            }
            _ => return Err(JobError::NotHeld),
        };
        game.play_on(job.moves.iter().map(|m| (m.as_str(), 0))).map_err(|e| JobError::Replay {
            number: e.index,
            text: e.decision,
            error: e.reason,
        })?;
        if game.position().position_text() != job.position {
            return Err(JobError::OtherPosition);
        }
        let position = game.position().clone_box();
        self.held = Some((job.line, game));
        Ok(position)
    }

    /// The computer's session for `job` (see [`DecisionJob::session`]), from the match held.
    pub fn session(
        &mut self,
        job: &DecisionJob,
        stop: Option<Arc<AtomicBool>>,
    ) -> Result<Box<dyn AiSession>, JobError> {
        let game = self.position(job)?;
        Ok(session_timed(game.as_ref(), job.side, job.level, job.seed, stop, Timing::WallClock)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::rules::{ToMove, seeded};
    use rand::RngExt;

    /// A side that has a decision to make in `game`.
    fn acting_side(game: &dyn DynGame) -> Option<Side> {
        match game.to_move()? {
            ToMove::One(side) => Some(side),
            ToMove::Both => Side::BOTH.into_iter().find(|&s| !game.legal_decisions(s).is_empty()),
        }
    }

    /// A game of `kind` after `plies` random decisions (and the decisions).
    fn random_game(kind: GameKind, plies: usize, seed: u64) -> (Box<dyn DynGame>, Box<dyn DynGame>, Vec<String>) {
        let start = kind.open(&kind.quick_pairs(), None).expect("quick options open");
        let mut game = start.clone_box();
        let mut moves = Vec::new();
        let mut rng = seeded(seed);
        for _ in 0..plies {
            let Some(side) = acting_side(game.as_ref()) else { break };
            let legal = game.legal_decisions(side);
            if legal.is_empty() {
                break;
            }
            let pick = legal[rng.random_range(0..legal.len())].clone();
            game.play_decision(&pick).expect("a legal decision plays");
            moves.push(pick);
        }
        (start, game, moves)
    }

    #[test]
    fn a_job_through_json_decides_what_the_direct_session_decides_in_every_game() {
        let mut decided = 0;
        for kind in GameKind::all() {
            for (plies, seed) in [(0, 1), (3, 2), (8, 3)] {
                let (start, now, moves) = random_game(kind, plies, seed);
                let Some(side) = acting_side(now.as_ref()) else {
                    // Eight random marks can end tic-tac-toe (the test-only sixth game).
                    assert!(now.status().is_over(), "{kind}: nobody acts, and the game goes on");
                    continue;
                };
                // (An error too must be the same: Hidden Intention's opponent may have sealed.)
                // On iterations alone: a busy machine must not cut one search short and not the other.
                let reproducible = crate::ai::Timing::Reproducible;
                let direct =
                    crate::ai::games::decide_timed(now.as_ref(), side, Level::Easy, 77 + seed, None, reproducible)
                        .map_err(|e| e.to_string());
                let job = DecisionJob::new(start.as_ref(), None, &moves, now.as_ref(), side, Level::Easy, 77 + seed);
                let received = DecisionJob::from_json(&job.to_json()).expect("the job reads back");
                assert_eq!(received, job);
                let through_job =
                    received.session_timed(None, reproducible).map_err(|e| e.to_string()).map(|mut session| {
                        while !session.think(u64::MAX) {}
                        session.decision()
                    });
                assert_eq!(through_job, direct, "{} after {moves:?}", kind.slug());
                decided += usize::from(direct.is_ok());
            }
        }
        assert!(decided >= 13, "only {decided} of 15 positions had a decision to compare");
    }

    #[test]
    fn hards_tree_search_splits_over_searchers_whose_summed_visits_decide() {
        let job_of = |slug: &str, level: Level| {
            let (start, now, moves) = random_game(GameKind::named(slug), 2, 5);
            let side = acting_side(now.as_ref()).unwrap();
            DecisionJob::new(start.as_ref(), None, &moves, now.as_ref(), side, level, 41)
        };
        let hard = job_of("red-stone", Level::Hard);
        assert_eq!(hard.searchers(3), 3);
        assert_eq!(hard.searchers(0), 1);
        assert_eq!(job_of("red-stone", Level::Medium).searchers(3), 1, "Medium keeps its ladder");
        assert_eq!(job_of("gravel", Level::Hard).searchers(3), 1, "Gravel's Hard is alpha-beta");
        // Each searcher is the same decision from its own seed, the first from the job's.
        assert_eq!(hard.for_searcher(0), hard);
        let second = hard.for_searcher(1);
        assert_eq!(second.seed, searcher_seed(41, 1));
        assert_ne!(second.seed, hard.seed);
        assert_eq!(DecisionJob { seed: hard.seed, ..second }, hard);
        let list = |pairs: &[(&str, u64)]| pairs.iter().map(|&(m, n)| (m.to_string(), n)).collect::<Vec<_>>();
        // Summed: b has 7 visits, a 6.
        let visits = || vec![list(&[("a", 5), ("b", 4)]), list(&[("b", 3), ("a", 1)])];
        assert_eq!(hard.decision_of_searchers(visits(), false).as_deref(), Some("b"));
        assert_eq!(hard.decision_of_searchers(vec![vec![], vec![]], false), None);
        // How often 2,000 seeds draw `wanted` at a simultaneous root from these visits.
        let times_drawn = |visits: &dyn Fn() -> Vec<Vec<(String, u64)>>, wanted: &str| {
            (0..2_000u64)
                .filter(|&seed| {
                    let job = DecisionJob { seed, ..hard.clone() };
                    job.decision_of_searchers(visits(), true).as_deref() == Some(wanted)
                })
                .count()
        };
        // At a simultaneous root, a draw in proportion to the summed visits, the same for a seed.
        let drawn = times_drawn(&visits, "b");
        assert!((1_000..1_150).contains(&drawn), "b drawn {drawn} times of 2000 (7/13 expected: 1077)");
        assert_eq!(hard.decision_of_searchers(visits(), true), hard.decision_of_searchers(visits(), true));
        // A decision the searchers only explored (under a tenth of the most visited's summed
        // visits) is never drawn, as one searcher never draws it.
        let explored = || vec![list(&[("a", 600), ("c", 40), ("b", 30)]), list(&[("a", 500), ("b", 150), ("c", 60)])];
        assert_eq!(times_drawn(&explored, "c"), 0, "c has 100 of a's 1,100 summed visits");
        let b_drawn = times_drawn(&explored, "b");
        assert!((200..340).contains(&b_drawn), "b drawn {b_drawn} of 2000 (180/1280 expected: 281)");
    }

    #[test]
    fn a_feed_sends_only_what_its_receiver_lacks_so_a_job_costs_the_same_at_decision_10_and_3000() {
        // Inchworm whose captures never end it: the game runs as long as the test wants.
        let options = [("target".to_string(), "1000000".to_string())];
        let mut game = Match::open(GameKind::named("inchworm"), &options, None).unwrap();
        let (mut feed, mut receiver) = (JobFeed::default(), JobReceiver::default());
        let mut rng = seeded(30);
        // The bytes sent for the jobs of decisions 1-100 and 2,901-3,000 (a job each).
        let (mut early, mut late) = (Vec::new(), Vec::new());
        while game.len() < 3_000 {
            let side = acting_side(game.position())
                .unwrap_or_else(|| panic!("the game stopped at {}: {:?}", game.len(), game.position().status()));
            let n = game.len();
            if !(100..2_900).contains(&n) {
                let sent = feed.job(&game, side, Level::Easy, 5).to_json();
                let job = DecisionJob::from_json(&sent).unwrap();
                assert_eq!(receiver.position(&job).unwrap().position_text(), game.position().position_text());
                if n < 100 {
                    early.push(sent.len());
                } else {
                    late.push(sent.len());
                }
                assert!(n == 2_900 || job.moves.len() == 1 || n == 0, "{n}: {} moves sent", job.moves.len());
            }
            let seat = game.seat_of(side);
            let legal = game.legal_for(seat);
            game.decide(seat, &legal[crate::rules::pick_index(&mut rng, legal.len())], 0).unwrap();
        }
        let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len() as f64;
        let full = DecisionJob::of_match(&game, Side::First, Level::Easy, 5).to_json().len();
        let (early, late) = (mean(&early[9..]), mean(&late[1..]));
        eprintln!("bytes a job: {early:.0} at decisions 10-100, {late:.0} at 2,902-3,000 (every decision: {full})");
        assert!(late <= early * 1.1, "a job grew from {early} to {late} bytes");
        // Decisions taken back: the receiver goes back too.
        game.go_to(2_990);
        game.drop_redo();
        let side = acting_side(game.position()).unwrap();
        let legal = game.legal_for(game.seat_of(side));
        game.decide(game.seat_of(side), &legal[0], 0).unwrap();
        let side = acting_side(game.position()).unwrap();
        let job = feed.job(&game, side, Level::Easy, 5);
        assert_eq!((job.from, job.moves.len()), (2_990, 1));
        assert_eq!(receiver.position(&job).unwrap().position_text(), game.position().position_text());
        // Another match starts from nothing; a receiver that holds nothing refuses to continue one.
        let other = Match::open(GameKind::named("inchworm"), &options, None).unwrap();
        assert_eq!(feed.job(&other, Side::First, Level::Easy, 5).from, 0);
        let mut fresh = JobReceiver::default();
        assert!(matches!(fresh.position(&job), Err(JobError::NotHeld)));
        feed.reset();
        let again = feed.job(&game, side, Level::Easy, 5);
        assert_eq!(again.moves.len(), game.len());
        assert_eq!(fresh.position(&again).unwrap().position_text(), game.position().position_text());
    }

    #[test]
    fn a_job_whose_moves_lead_elsewhere_is_refused() {
        let kind = GameKind::named("red-stone");
        let (start, now, moves) = random_game(kind, 4, 9);
        let mut job = DecisionJob::new(start.as_ref(), None, &moves, now.as_ref(), Side::First, Level::Easy, 1);
        job.moves.pop();
        assert!(matches!(job.position(), Err(JobError::OtherPosition)));
        job.moves.push("not a move".into());
        assert!(matches!(job.position(), Err(JobError::Replay { .. })));
        job.game = "chess".into();
        assert!(matches!(job.position(), Err(JobError::UnknownGame(_))));
        assert!(matches!(DecisionJob::from_json("{\"game\":"), Err(JobError::Json(_))));
    }
}
