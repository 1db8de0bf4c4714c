//! The computer's table of games: for every game of the registry (built from the same list,
//! `for_each_game!`) its calibration (the levels' numbers, `Knowledge::CALIBRATION` in
//! `knowledge/<game>.rs`) and the functions that think about a game held behind a `DynGame`
//! handle.

use super::DecideError;
#[cfg(not(target_arch = "wasm32"))]
use super::arena::{ArenaPlayer, ArenaProgress, ArenaReport, ArenaSeries, run_arena};
use super::knowledge::Knowledge;
use super::level::{Calibration, Engine, Level, budget_for};
use super::review::{PositionAnalysis, analyse_as};
use super::session::{AiSession, Timing, start_session_timed};
use crate::games::{About, DynGame, GameKind};
use crate::rules::Side;
use Engine::Mcts;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// One game as the computer knows it.
pub struct AiGame {
    pub slug: &'static str,
    pub calibration: Calibration,
    /// How the game's margins turn into win chances (`Knowledge::SHARPNESS`, `FIRST_SIDE_EDGE`,
    /// `TEMPO`).
    pub fit: super::calibration::Fit,
    session: SessionFn,
    analyse: AnalyseFn,
    margin: MarginFn,
    /// The command line's arena (the browser has none: its download leaves it out).
    #[cfg(not(target_arch = "wasm32"))]
    arena: ArenaFn,
}

type SessionResult = Result<Box<dyn AiSession>, DecideError>;
type MarginFn = fn(&dyn DynGame, Side) -> Option<f32>;
type AnalyseFn = fn(&dyn DynGame, Side, &[String], &Calibration, u64, u64) -> Result<PositionAnalysis, DecideError>;
type SessionFn = fn(&dyn DynGame, Side, Level, &Calibration, u64, Option<Arc<AtomicBool>>, Timing) -> SessionResult;
#[cfg(not(target_arch = "wasm32"))]
type ArenaFn =
    fn(&dyn DynGame, &Calibration, ArenaPlayer, ArenaPlayer, ArenaSeries, &ArenaProgress<'_>) -> Option<ArenaReport>;

impl AiGame {
    const fn of<G: About + Knowledge>() -> AiGame {
        AiGame {
            slug: G::SLUG,
            calibration: G::CALIBRATION,
            fit: super::calibration::Fit {
                sharpness: G::SHARPNESS,
                first_side_edge: G::FIRST_SIDE_EDGE,
                tempo: G::TEMPO,
            },
            session: session_as::<G>,
            analyse: analyse_as::<G>,
            margin: margin_as::<G>,
            #[cfg(not(target_arch = "wasm32"))]
            arena: arena_as::<G>,
        }
    }
}

fn session_as<G: About + Knowledge>(
    game: &dyn DynGame,
    side: Side,
    level: Level,
    calibration: &Calibration,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
    timing: Timing,
) -> SessionResult {
    let position = game.as_any().downcast_ref::<G>().ok_or(DecideError::UnknownGame)?;
    start_session_timed(position, side, level, calibration, seed, stop, timing)
}

fn margin_as<G: Knowledge>(game: &dyn DynGame, side: Side) -> Option<f32> {
    Some(game.as_any().downcast_ref::<G>()?.margin(side))
}

#[cfg(not(target_arch = "wasm32"))]
fn arena_as<G: About + Knowledge>(
    game: &dyn DynGame,
    calibration: &Calibration,
    a: ArenaPlayer,
    b: ArenaPlayer,
    series: ArenaSeries,
    progress: &ArenaProgress<'_>,
) -> Option<ArenaReport> {
    let start = game.as_any().downcast_ref::<G>()?;
    Some(run_arena(start, G::SLUG, calibration, a, b, series, progress))
}

/// The computer's rows of the games `for_each_game!` lists.
macro_rules! ai_rows {
    ($($game:ty),* $(,)?) => {
        &[$(AiGame::of::<$game>()),*]
    };
}

/// Every game's row. The per-game presets (each game's `Knowledge::CALIBRATION`), measured on 2026-11-23 on the shared two-core build machine under load (see
/// `docs/arena.md`). Hard's iterations take about 2 s per decision there: playouts stop after a
/// few dozen decisions and the game's evaluation scores them, so iterations are cheap (Hard's
/// search runs at roughly 15k–30k iterations per second in Red Stone, 50k–110k in Gravel and
/// Throngs, 100k–200k in Inchworm and Hidden Intention). Each level has about ten times the
/// iterations of the one below; Gravel's Easy has 100, since with 400 it was too close to Medium
/// on 5×5 (Medium won 13–2–5; with 100 it won 20–0–0, and Easy still beat random play 20–0–0).
/// Gravel's Medium and Hard are alpha-beta, since it beat the MCTS levels there by far: 150,000
/// positions beat MCTS Medium 9–1–0 and 2,000,000 beat MCTS Hard 10–0–0 on 5×5 in less than half
/// Hard's time (MCTS gained little past a few thousand iterations: its Hard drew level with 8,000).
/// Hard's 8,000,000 positions take about 2 s; it beat Medium 8–1–1 on 5×5. Easy stays a small
/// MCTS, which plays like a beginner.
/// Hidden Intention's games are short (about 60 decisions), so its playouts run to the end: a cap
/// of 24 with the influence evaluation lost 6–2–12 to full playouts at equal iterations. Its Easy
/// at 1,000 iterations beat uniform random only 7 of 10 (2026-11-22): its games are short and
/// noisy, so even the easiest level needs a few thousand iterations (still ~40 ms).
/// Red Stone's and Inchworm's Hard rose on 2026-12-07 (from 45,000 and 220,000) once their engines
/// were faster (issue 61): each searcher's iterations take about 1.8 s again at the start of a
/// game on the two-core machine with both searchers running (`stoneyard think`), as the old
/// budgets did with the old engines; Throngs', Hidden Intention's and Gravel's already did.
/// The review (2026-12-06) scores each new position of its tree at once (`review_playout_cap` 0)
/// with the calibrated evaluation, except Hidden Intention, which plays out to the end: its
/// iterations are chosen so that five seeds' reviews of a game label at least 95% of its turns
/// alike (`stoneyard bench --review`; docs/computer.md), each whole review a few seconds.
pub static AI_GAMES: &[AiGame] = crate::for_each_game!(ai_rows);

/// The computer's row for a game.
pub fn ai_game(kind: GameKind) -> Option<&'static AiGame> {
    AI_GAMES.iter().find(|g| g.slug == kind.slug)
}

/// How many independent searchers think about one decision of `kind` at `level` where
/// `available` could (cores natively, workers in the browser): Hard's tree search uses them all;
/// Easy and Medium (which keep their ladder at one core's iterations) and alpha-beta, one.
pub fn searchers_for(kind: GameKind, level: Level, available: usize) -> usize {
    let tree_search = ai_game(kind).is_some_and(|row| budget_for(level, &row.calibration).engine == Mcts);
    if level == Level::Hard && tree_search { available.max(1) } else { 1 }
}

/// Starts the computer's next atomic decision for `side` at `level`: think in slices with
/// `AiSession::think` (per frame on the web, in a task natively), then take `decision()` in the
/// game's move notation. At a simultaneous node call it before the opponent's sealed choice is
/// applied to this position (see the `ai` module). Raising `stop` makes it answer at once.
pub fn session(
    game: &dyn DynGame,
    side: Side,
    level: Level,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Box<dyn AiSession>, DecideError> {
    session_timed(game, side, level, seed, stop, Timing::WallClock)
}

/// [`session`] with the level's wall-clock limit kept or dropped.
pub fn session_timed(
    game: &dyn DynGame,
    side: Side,
    level: Level,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
    timing: Timing,
) -> Result<Box<dyn AiSession>, DecideError> {
    let row = ai_game(game.kind()).ok_or(DecideError::UnknownGame)?;
    (row.session)(game, side, level, &row.calibration, seed, stop, timing)
}

/// A reviewed position analysed for `side` (`played`: the decisions it played there) with MCTS
/// of `iterations` iterations from `seed` (see `ai::review`). Blocking: run it off the frame.
pub fn analyse(
    game: &dyn DynGame,
    side: Side,
    played: &[String],
    iterations: u64,
    seed: u64,
) -> Result<PositionAnalysis, DecideError> {
    let row = ai_game(game.kind()).ok_or(DecideError::UnknownGame)?;
    (row.analyse)(game, side, played, &row.calibration, iterations, seed)
}

/// How far `game`'s position stands in `side`'s favour, on the game's own scale
/// (`Knowledge::margin`); `None` for a game the computer does not know.
pub fn margin(game: &dyn DynGame, side: Side) -> Option<f32> {
    (ai_game(game.kind())?.margin)(game, side)
}

/// [`session`] thought through to the end in one blocking call (run it off the frame).
pub fn decide(
    game: &dyn DynGame,
    side: Side,
    level: Level,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Result<String, DecideError> {
    decide_timed(game, side, level, seed, stop, Timing::WallClock)
}

/// [`decide`] with the level's wall-clock limit kept or dropped: with [`Timing::Reproducible`]
/// the same seed gives the same decision on any machine (a raised `stop` still answers at once).
pub fn decide_timed(
    game: &dyn DynGame,
    side: Side,
    level: Level,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
    timing: Timing,
) -> Result<String, DecideError> {
    let mut session = session_timed(game, side, level, seed, stop, timing)?;
    while !session.think(u64::MAX) {}
    Ok(session.decision())
}

/// A whole game of `kind` (from `options`) played by the computer at `level` against itself after
/// `opening` uniformly random decisions (so that a seeded level's games differ), each decision
/// reproducible from `seed` (no wall clock), stopped after `limit` decisions: the records the
/// review's measurements and the calibration are made on.
pub fn self_play(
    kind: GameKind,
    options: &[(String, String)],
    (opening, level): (usize, Level),
    seed: u64,
    limit: usize,
) -> Result<crate::session::Match, String> {
    use crate::rules::ToMove;
    use crate::session::{Match, Viewer};
    let mut game = Match::open(kind, options, None).map_err(|e| e.to_string())?;
    while !game.is_over() && game.len() < limit {
        let position = game.position();
        let side = match position.to_move() {
            Some(ToMove::One(side)) => side,
            // Both commit: the first side's commitment, then the second's, each from the public
            // position (the second does not see the first's).
            Some(ToMove::Both) if position.legal_decisions(Side::First).is_empty() => Side::Second,
            Some(ToMove::Both) => Side::First,
            None => break,
        };
        let public = game.position_for(Viewer::Seat(game.seat_of(side)));
        let decision_seed = crate::rules::splitmix64_nth(seed, game.len() as u64);
        let level = if game.len() < opening { Level::Random } else { level };
        let d = decide_timed(public.as_ref(), side, level, decision_seed, None, Timing::Reproducible)
            .map_err(|e| e.to_string())?;
        let seat = game.seat_for(&d).ok_or_else(|| format!("the computer's '{d}' has no seat"))?;
        game.decide(seat, &d, 0).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// `stoneyard arena`: a seeded series from this position between `a` and `b`, sides alternating
/// game by game (A plays the first side in game 0); `progress` hears each game.
#[cfg(not(target_arch = "wasm32"))]
pub fn arena(
    game: &dyn DynGame,
    a: ArenaPlayer,
    b: ArenaPlayer,
    series: ArenaSeries,
    progress: &ArenaProgress<'_>,
) -> Result<ArenaReport, DecideError> {
    let row = ai_game(game.kind()).ok_or(DecideError::UnknownGame)?;
    (row.arena)(game, &row.calibration, a, b, series, progress).ok_or(DecideError::UnknownGame)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::budget_for;

    #[test]
    fn every_game_of_the_registry_is_calibrated_with_levels_in_order() {
        for kind in GameKind::all() {
            let row = ai_game(kind).unwrap_or_else(|| panic!("{kind} has no row in ai::games"));
            let levels = [Level::Easy, Level::Medium, Level::Hard].map(|l| budget_for(l, &row.calibration).iterations);
            assert!(levels.windows(2).all(|w| w[0] < w[1]), "{kind}: {levels:?}");
        }
        assert_eq!(AI_GAMES.len(), GameKind::all().count(), "a row for a game the registry does not list");
    }

    #[test]
    fn every_game_gets_a_legal_decision_through_its_handle() {
        for kind in GameKind::all() {
            let game = kind.open(&[], None).unwrap();
            let Some(crate::rules::ToMove::One(side)) = game.to_move() else {
                let d = decide(game.as_ref(), Side::First, Level::Random, 1, None).unwrap();
                assert!(game.legal_decisions(Side::First).contains(&d), "{kind}: {d}");
                continue;
            };
            let d = decide(game.as_ref(), side, Level::Random, 1, None).unwrap();
            assert!(game.legal_decisions(side).contains(&d), "{kind}: {d}");
        }
    }
}
