//! The arena: seeded series of games between two levels, summarised as an Elo difference.
//!
//! Sides alternate game by game; the Elo difference comes with a 95% interval. Games may run on
//! several threads: each game has its own seed, so the tally does not depend on their order.

use super::Strategy;
use super::alpha_beta::AlphaBeta;
use super::budget::Budget;
use super::knowledge::{GameEvaluator, GamePolicy, Knowledge};
use super::level::{Calibration, Level, LevelBudget, budget_for, strategy_for};
use super::mcts::Searcher;
use super::turn_search::TurnSearch;
use crate::rules::{Notation, Outcome, Rules, Side, Status, ToMove, commit_on_own_copy, derived_seed};
use crate::session::Seating;
use serde::Serialize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

/// A game longer than this many atomic decisions is scored a draw (a guard, not a rule).
pub const ARENA_DECISION_LIMIT: u64 = 100_000;

/// Wins, draws and losses of player A against player B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArenaTally {
    pub a_wins: u32,
    pub draws: u32,
    pub b_wins: u32,
}

impl ArenaTally {
    pub fn games(&self) -> u32 {
        self.a_wins + self.draws + self.b_wins
    }

    /// Counts one finished game.
    pub fn record(&mut self, game: &ArenaGame) {
        match game.outcome {
            Outcome::Winner(side) if side == game.a_side => self.a_wins += 1,
            Outcome::Winner(_) => self.b_wins += 1,
            Outcome::Draw => self.draws += 1,
        }
    }
}

/// One finished game of a series, reported as it ends (games on several threads end out of order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArenaGame {
    /// The game's number in the series, from 0; A plays `First` in even-numbered games.
    pub number: u32,
    pub a_side: Side,
    /// The outcome with sides as played (the winner is a side, not a player).
    pub outcome: Outcome,
    /// Atomic decisions played.
    pub decisions: u64,
    /// Decisions each player (A, B) was asked for, and the wall-clock seconds they took: the
    /// arena's budgets are iterations, so this is how equal thinking time is checked.
    pub asked: [u64; 2],
    pub seconds: [f64; 2],
}

/// A strategy that counts its decisions and the time they take.
struct Timed<'a, R: Rules> {
    inner: &'a mut dyn Strategy<R>,
    asked: u64,
    seconds: f64,
}

impl<'a, R: Rules> Timed<'a, R> {
    fn new(inner: &'a mut dyn Strategy<R>) -> Self {
        Timed { inner, asked: 0, seconds: 0.0 }
    }
}

impl<R: Rules> Strategy<R> for Timed<'_, R> {
    fn decide(&mut self, pos: &R, side: Side, budget: &Budget) -> Result<R::Move, super::DecideError> {
        let started = web_time::Instant::now();
        let decision = self.inner.decide(pos, side, budget);
        self.seconds += started.elapsed().as_secs_f64();
        self.asked += 1;
        decision
    }

    fn observe(&mut self, m: &R::Move) {
        self.inner.observe(m);
    }
}

impl ArenaGame {
    /// "A won", "B won" or "drawn".
    pub fn result_text(&self) -> &'static str {
        match self.outcome {
            Outcome::Winner(side) if side == self.a_side => "A won",
            Outcome::Winner(_) => "B won",
            Outcome::Draw => "drawn",
        }
    }
}

/// Called after each game with that game and the tally of all games finished so far.
pub type ArenaProgress<'a> = dyn Fn(&ArenaGame, &ArenaTally) + Sync + 'a;

/// A player of the arena: a level of the app on its iterations alone (one core, the same seed
/// the same game), the alpha-beta searcher with a node budget (written `alphabeta:NODES`), a
/// level as the app's opponent plays it (`timed:LEVEL`: its time limit, Hard on every core), or
/// a level of another Stoneyard program asked through its `think` command
/// (`external:LEVEL:PROGRAM`: an older build at the same time per decision), or the tree search
/// tuned by hand (`mcts:ITERATIONS:CAP:EXPLORATION`: Hard's playouts cut off after CAP decisions,
/// 0 scoring each new position at once, and the UCB constant), for trying a level's numbers, or a
/// search over whole turns (`turns:WIDTH:KEEP:DEPTH`, [`TurnSearch`]).
#[derive(Clone, Debug, PartialEq)]
pub enum ArenaPlayer {
    Level(Level),
    AlphaBeta { nodes: u64 },
    Mcts { iterations: u64, playout_cap: u32, exploration: f32 },
    Turns(TurnSearch),
    Timed(Level),
    External { level: Level, program: std::path::PathBuf },
}

impl ArenaPlayer {
    /// The name the report gives: the level's slug or `alphabeta:NODES`.
    pub fn name(&self) -> String {
        match self {
            ArenaPlayer::Level(level) => level.slug().to_string(),
            ArenaPlayer::AlphaBeta { nodes } => format!("alphabeta:{nodes}"),
            ArenaPlayer::Mcts { iterations, playout_cap, exploration } => {
                format!("mcts:{iterations}:{playout_cap}:{exploration}")
            }
            ArenaPlayer::Turns(t) => format!("turns:{}:{}:{}", t.width, t.keep, t.depth),
            ArenaPlayer::Timed(level) => format!("timed:{}", level.slug()),
            ArenaPlayer::External { level, program } => format!("external:{}:{}", level.slug(), program.display()),
        }
    }
}

impl std::str::FromStr for ArenaPlayer {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(player) = super::arena_players::parse_session_player(s.trim()) {
            return player.map(|(level, program)| match program {
                Some(program) => ArenaPlayer::External { level, program },
                None => ArenaPlayer::Timed(level),
            });
        }
        if let Some(numbers) = s.trim().strip_prefix("mcts:") {
            return parse_mcts_player(numbers)
                .ok_or_else(|| format!("'{s}' is not mcts:ITERATIONS:CAP:EXPLORATION, as in mcts:100000:0:0.7"));
        }
        if let Some(numbers) = s.trim().strip_prefix("turns:") {
            let n: Vec<u64> = numbers.split(':').filter_map(|n| n.parse().ok()).collect();
            return match n[..] {
                [width, keep, depth] if width > 0 && keep > 0 && depth > 0 => Ok(ArenaPlayer::Turns(TurnSearch {
                    width: width as usize,
                    keep: keep as usize,
                    depth: depth as u32,
                })),
                _ => Err(format!("'{s}' is not turns:WIDTH:KEEP:DEPTH, as in turns:8:12:3")),
            };
        }
        let Some(nodes) = s.trim().strip_prefix("alphabeta:") else {
            return s.parse::<Level>().map(ArenaPlayer::Level).map_err(|e| {
                format!("{e}, or alphabeta:NODES, mcts:ITERATIONS:CAP:EXPLORATION, timed:LEVEL, external:LEVEL:PROGRAM")
            });
        };
        match nodes.parse::<u64>() {
            Ok(nodes) if nodes > 0 => Ok(ArenaPlayer::AlphaBeta { nodes }),
            _ => Err(format!("'{s}': alphabeta wants a node budget above 0, as in alphabeta:200000")),
        }
    }
}

/// `ITERATIONS:CAP:EXPLORATION` of an `mcts:` player (iterations above 0, a positive constant).
fn parse_mcts_player(numbers: &str) -> Option<ArenaPlayer> {
    let mut parts = numbers.split(':');
    let iterations = parts.next()?.parse::<u64>().ok().filter(|&n| n > 0)?;
    let playout_cap = parts.next()?.parse::<u32>().ok()?;
    let exploration = parts.next()?.parse::<f32>().ok().filter(|c| c.is_finite() && *c > 0.0)?;
    parts.next().is_none().then_some(ArenaPlayer::Mcts { iterations, playout_cap, exploration })
}

/// How a series is played: how many games, from which seed, on how many threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaSeries {
    pub games: u32,
    pub seed: u64,
    /// Games played at the same time (at least 1).
    pub jobs: usize,
}

/// The line `stoneyard arena` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaReport {
    pub game: String,
    pub a: String,
    pub b: String,
    pub games: u32,
    pub a_wins: u32,
    pub draws: u32,
    pub b_wins: u32,
    /// Elo of A minus Elo of B.
    pub elo: f64,
    pub elo_ci95: [f64; 2],
}

/// A series between levels `a` and `b` from `start`; A plays `First` in even-numbered games.
/// Budgets of levels and alpha-beta are iterations only, so with them the same seed gives the same
/// report, on any number of threads; timed and external players think against the clock.
pub fn run_arena<R: Knowledge + Notation>(
    start: &R,
    game_slug: &str,
    calibration: &Calibration,
    a: ArenaPlayer,
    b: ArenaPlayer,
    series: ArenaSeries,
    progress: &ArenaProgress<'_>,
) -> ArenaReport {
    let player = |player: &ArenaPlayer| {
        let player = player.clone();
        move |player_seed: u64| -> (Box<dyn Strategy<R>>, Budget) {
            match &player {
                ArenaPlayer::Level(level) => (
                    strategy_for::<R>(*level, calibration, player_seed),
                    budget_for(*level, calibration).fixed_budget(),
                ),
                ArenaPlayer::AlphaBeta { nodes } => (Box::new(AlphaBeta::new(player_seed)), Budget::iterations(*nodes)),
                ArenaPlayer::Mcts { iterations, playout_cap, exploration } => {
                    let hard = LevelBudget {
                        playout_cap: *playout_cap,
                        exploration: *exploration,
                        ..budget_for(Level::Hard, calibration)
                    };
                    let searcher = Searcher::<R, GamePolicy, GameEvaluator>::with_policy(
                        hard.config(),
                        hard.policy(),
                        GameEvaluator,
                        player_seed,
                    );
                    (Box::new(searcher), Budget::iterations(*iterations))
                }
                ArenaPlayer::Turns(search) => (Box::new(*search), Budget::iterations(0)),
                #[cfg(not(target_arch = "wasm32"))]
                ArenaPlayer::Timed(level) => (
                    Box::new(super::arena_players::SessionPlayer::new(*level, calibration, player_seed)),
                    Budget::iterations(0),
                ),
                #[cfg(not(target_arch = "wasm32"))]
                ArenaPlayer::External { level, program } => (
                    Box::new(super::arena_players::ExternalPlayer::new(*level, program.clone(), player_seed, start)),
                    Budget::iterations(0),
                ),
                #[cfg(target_arch = "wasm32")]
                ArenaPlayer::Timed(_) | ArenaPlayer::External { .. } => unreachable!("the browser has no arena"),
            }
        }
    };
    let tally = run_arena_with(start, series, &player(&a), &player(&b), progress);
    let (elo, elo_ci95) = elo_estimate(&tally);
    let round = |x: f64| (x * 10.0).round() / 10.0;
    ArenaReport {
        game: game_slug.to_string(),
        a: a.name(),
        b: b.name(),
        games: tally.games(),
        a_wins: tally.a_wins,
        draws: tally.draws,
        b_wins: tally.b_wins,
        elo: round(elo),
        elo_ci95: elo_ci95.map(round),
    }
}

/// A player factory: given a seed, a fresh strategy and the budget it decides with.
pub type PlayerFactory<'a, R> = dyn Fn(u64) -> (Box<dyn Strategy<R>>, Budget) + Sync + 'a;

/// The arena with any players: fresh players every game, seeded from the series' seed and the
/// game number. `series.jobs` threads take the games in turn; `progress` hears each game as it ends.
pub fn run_arena_with<R: Rules>(
    start: &R,
    series: ArenaSeries,
    make_a: &PlayerFactory<'_, R>,
    make_b: &PlayerFactory<'_, R>,
    progress: &ArenaProgress<'_>,
) -> ArenaTally {
    let next_game = AtomicU32::new(0);
    let tally = Mutex::new(ArenaTally::default());
    let worker = || {
        loop {
            let number = next_game.fetch_add(1, Ordering::Relaxed);
            if number >= series.games {
                break;
            }
            let game = play_arena_game(start, series.seed, number, make_a, make_b);
            // A poisoned lock means another game's thread panicked; its panic is re-raised below.
            let Ok(mut tally) = tally.lock() else { break };
            tally.record(&game);
            progress(&game, &tally);
        }
    };
    let jobs = series.jobs.clamp(1, series.games.max(1) as usize);
    std::thread::scope(|scope| {
        for _ in 1..jobs {
            scope.spawn(worker);
        }
        worker();
    });
    tally.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Game `number` of a series: fresh players seeded from the series' seed and the number.
fn play_arena_game<R: Rules>(
    start: &R,
    seed: u64,
    number: u32,
    make_a: &PlayerFactory<'_, R>,
    make_b: &PlayerFactory<'_, R>,
) -> ArenaGame {
    let game_seed = derived_seed(seed, u64::from(number));
    let (mut a, a_budget) = make_a(derived_seed(game_seed, 1));
    let (mut b, b_budget) = make_b(derived_seed(game_seed, 2));
    let (mut a, mut b) = (Timed::new(a.as_mut()), Timed::new(b.as_mut()));
    let a_side = if number.is_multiple_of(2) { Side::First } else { Side::Second };
    let (outcome, decisions) = if a_side == Side::First {
        play_game(start, [&mut a, &mut b], [&a_budget, &b_budget], ARENA_DECISION_LIMIT)
    } else {
        play_game(start, [&mut b, &mut a], [&b_budget, &a_budget], ARENA_DECISION_LIMIT)
    };
    ArenaGame { number, a_side, outcome, decisions, asked: [a.asked, b.asked], seconds: [a.seconds, b.seconds] }
}

/// Plays one game from `start`: `players[i]` sits in seat `i`, which plays `Side::from_index(i)`
/// until a pie swap exchanges the seats' colours; the outcome names the winning seat as a side.
/// Every decision played is shown to both players. At a simultaneous node each side chooses its
/// whole commitment from a position without the other's, then both are applied. A player that
/// fails to give a legal decision loses; a game longer than `max_decisions` is a draw. Returns the
/// outcome and the number of atomic decisions played.
pub fn play_game<R: Rules>(
    start: &R,
    mut players: [&mut dyn Strategy<R>; 2],
    budgets: [&Budget; 2],
    max_decisions: u64,
) -> (Outcome, u64) {
    let mut pos = start.clone();
    let mut decisions = 0u64;
    let mut seating = Seating::default();
    let forfeit = |side: Side, seating: Seating| Outcome::Winner(seating.seat_of(side.opponent()));
    loop {
        if let Status::Over(outcome) = pos.status() {
            let outcome = match outcome {
                Outcome::Winner(side) => Outcome::Winner(seating.seat_of(side)),
                draw => draw,
            };
            return (outcome, decisions);
        }
        if decisions >= max_decisions {
            return (Outcome::Draw, decisions);
        }
        let played: Vec<R::Move> = match pos.to_move() {
            None => return (Outcome::Draw, decisions),
            Some(ToMove::One(side)) => {
                let i = seating.seat_of(side).index();
                let Ok(m) = players[i].decide(&pos, side, budgets[i]) else {
                    return (forfeit(side, seating), decisions);
                };
                match pos.play(&m) {
                    Ok(effects) => {
                        seating = seating.after(&effects);
                        vec![m]
                    }
                    Err(_) => return (forfeit(side, seating), decisions),
                }
            }
            Some(ToMove::Both) => {
                let mut commitments: [Vec<R::Move>; 2] = [Vec::new(), Vec::new()];
                for side in Side::BOTH {
                    let i = seating.seat_of(side).index();
                    // The side sees the public position plus its own earlier decisions only.
                    let player = &mut players[i];
                    let made = commit_on_own_copy(&pos, side, &[], usize::MAX, |own, _, _| {
                        player.decide(own, side, budgets[i]).ok()
                    });
                    match made {
                        Some(made) => commitments[side.index()] = made,
                        None => return (forfeit(side, seating), decisions),
                    }
                }
                for side in Side::BOTH {
                    for m in &commitments[side.index()] {
                        match pos.play(m) {
                            Ok(effects) => seating = seating.after(&effects),
                            Err(_) => return (forfeit(side, seating), decisions),
                        }
                    }
                }
                commitments.into_iter().flatten().collect()
            }
        };
        if played.is_empty() {
            return (Outcome::Draw, decisions);
        }
        decisions += played.len() as u64;
        for m in &played {
            for player in players.iter_mut() {
                player.observe(m);
            }
        }
    }
}

/// The Elo difference for an expected score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Elo of A over B from the tally, with a 95% interval from the score's standard error. Scores of
/// 0% or 100% are pulled half a game inside so the numbers stay finite; when every game had the
/// same result (no observed spread) the spread of a win/loss coin at that score is used instead.
pub fn elo_estimate(tally: &ArenaTally) -> (f64, [f64; 2]) {
    let n = f64::from(tally.games());
    if n == 0.0 {
        return (0.0, [0.0, 0.0]);
    }
    let score = (f64::from(tally.a_wins) + 0.5 * f64::from(tally.draws)) / n;
    let eps = 0.5 / n;
    let clamped = score.clamp(eps, 1.0 - eps);
    let mean_square = (f64::from(tally.a_wins) + 0.25 * f64::from(tally.draws)) / n;
    let observed_variance = (mean_square - score * score).max(0.0);
    let variance = if observed_variance > 1e-12 { observed_variance } else { clamped * (1.0 - clamped) };
    let half_width = 1.96 * (variance / n).sqrt();
    let bound = |s: f64| elo_from_score(s.clamp(eps / 2.0, 1.0 - eps / 2.0));
    (elo_from_score(clamped), [bound(clamped - half_width), bound(clamped + half_width)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(a_wins: u32, draws: u32, b_wins: u32) -> ArenaTally {
        ArenaTally { a_wins, draws, b_wins }
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(elo_from_score(0.5).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!((elo_from_score(0.25) + 190.85).abs() < 0.01);
        let (elo, [lo, hi]) = elo_estimate(&tally(30, 40, 30));
        assert!(elo.abs() < 1e-9);
        assert!(lo < 0.0 && hi > 0.0 && (lo + hi).abs() < 1e-6, "{lo} {hi}");
        let (elo, [lo, hi]) = elo_estimate(&tally(75, 0, 25));
        assert!((elo - 190.85).abs() < 0.01);
        // Score 0.75 ± 1.96 * sqrt(0.1875 / 100) = [0.665, 0.835].
        assert!((lo - elo_from_score(0.75 - 1.96 * 0.043_301)).abs() < 0.5, "{lo}");
        assert!((hi - elo_from_score(0.75 + 1.96 * 0.043_301)).abs() < 0.5, "{hi}");
    }

    #[test]
    fn perfect_and_empty_scores_stay_finite() {
        for t in [tally(20, 0, 0), tally(0, 0, 20), tally(0, 20, 0), tally(1, 0, 0), tally(0, 0, 0)] {
            let (elo, [lo, hi]) = elo_estimate(&t);
            assert!(elo.is_finite() && lo.is_finite() && hi.is_finite(), "{t:?}");
            assert!(lo <= elo && elo <= hi, "{t:?}: {lo} {elo} {hi}");
        }
        let (elo, [lo, hi]) = elo_estimate(&tally(20, 0, 0));
        assert!(elo > 400.0 && lo > 200.0 && hi > elo, "{lo} {elo} {hi}");
        let (elo, _) = elo_estimate(&tally(0, 0, 20));
        assert!(elo < -400.0);
    }

    #[test]
    fn players_read_from_their_names_and_name_themselves_back() {
        for name in ["hard", "alphabeta:200000", "mcts:100000:0:0.7", "mcts:5000:40:1.41"] {
            let player: ArenaPlayer = name.parse().unwrap();
            assert_eq!(player.name(), name);
        }
        assert_eq!(
            "mcts:100000:0:0.7".parse::<ArenaPlayer>(),
            Ok(ArenaPlayer::Mcts { iterations: 100_000, playout_cap: 0, exploration: 0.7 })
        );
        for wrong in ["mcts:0:0:0.7", "mcts:100:0", "mcts:100:0:-1", "mcts:100:0:0.7:9", "mcts:x:0:1"] {
            let why = wrong.parse::<ArenaPlayer>().unwrap_err();
            assert!(why.contains("mcts:ITERATIONS:CAP:EXPLORATION"), "{wrong}: {why}");
        }
    }
}
