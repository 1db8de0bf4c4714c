//! Difficulty levels: presets of search iterations, playout quality and playout cap, per game.

use super::alpha_beta::AlphaBeta;
use super::budget::Budget;
pub use super::knowledge::PlayoutQuality;
use super::knowledge::{GameEvaluator, GamePolicy, Knowledge};
use super::mcts::{MctsConfig, Searcher};
use super::{RandomStrategy, Strategy};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How strong the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// A uniformly random legal decision (a baseline for the arena, not offered in the app).
    Random,
    Easy,
    Medium,
    Hard,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Hard];

    /// The name the CLI and settings use.
    pub const fn slug(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let wanted = s.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|l| l.slug() == wanted)
            .ok_or_else(|| format!("unknown level '{s}'; levels are random, easy, medium, hard"))
    }
}

/// The levels' preference for sooner results (see `MctsConfig::length_discount`): a win 100
/// decisions away counts about 0.82 of one found now.
const LENGTH_DISCOUNT: f32 = 0.002;

/// Which search a level uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Monte Carlo tree search ([`Searcher`]); iterations are playouts.
    Mcts,
    /// Alpha-beta ([`AlphaBeta`]); iterations are positions visited.
    AlphaBeta,
}

/// Everything a level fixes for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelBudget {
    pub engine: Engine,
    /// Iterations per decision (0 for `Random`). The arena uses these alone, so it is reproducible.
    pub iterations: u64,
    /// A wall-clock cap per decision for the app, so a slow machine still answers in time.
    pub time_limit: Option<Duration>,
    pub playouts: PlayoutQuality,
    pub playout_cap: u32,
    pub exploration: f32,
}

impl LevelBudget {
    /// The app's budget: iterations and the time limit.
    pub fn budget(&self) -> Budget {
        Budget { iterations: self.iterations, time_limit: self.time_limit, stop: None }
    }

    /// The arena's budget: iterations only, so that a seed always gives the same games.
    pub fn fixed_budget(&self) -> Budget {
        Budget::iterations(self.iterations)
    }

    pub fn config(&self) -> MctsConfig {
        MctsConfig {
            exploration: self.exploration,
            playout_cap: self.playout_cap,
            length_discount: LENGTH_DISCOUNT,
            ..MctsConfig::default()
        }
    }

    pub fn policy(&self) -> GamePolicy {
        GamePolicy { quality: self.playouts }
    }
}

/// The preset of `level` for the game with this slug: the game's row of [`CALIBRATION`], else the
/// generic numbers (fit for small games with cheap playouts). Hard's time limit keeps a decision
/// near 2 s on machines slower than the one the rows were measured on.
pub fn budget_for(level: Level, game_slug: &str) -> LevelBudget {
    let preset = |iterations, seconds: f64, playouts, playout_cap| LevelBudget {
        engine: Engine::Mcts,
        iterations,
        time_limit: Some(Duration::from_secs_f64(seconds)),
        playouts,
        playout_cap,
        exploration: std::f32::consts::SQRT_2,
    };
    let row = CALIBRATION.iter().find(|row| row.game == game_slug);
    let generic_playouts = [PlayoutQuality::Uniform, PlayoutQuality::Uniform, PlayoutQuality::Decisive];
    let numbers = |index: usize, generic: u64| match row {
        Some(r) => (r.iterations[index], r.playouts[index], r.playout_caps[index]),
        None => (generic, generic_playouts[index], 1_000),
    };
    let (index, seconds, generic) = match level {
        Level::Random => {
            let cap = row.map_or(1_000, |r| r.playout_caps[0]);
            return LevelBudget { time_limit: None, ..preset(0, 0.0, PlayoutQuality::Uniform, cap) };
        }
        Level::Easy => (0, 0.5, 300),
        Level::Medium => (1, 1.0, 3_000),
        Level::Hard => (2, 2.0, 30_000),
    };
    let (iterations, playouts, cap) = numbers(index, generic);
    let engine = row.map_or(Engine::Mcts, |r| r.engines[index]);
    LevelBudget { engine, ..preset(iterations, seconds, playouts, cap) }
}

/// One game's numbers.
struct Calibration {
    game: &'static str,
    /// The search of Easy, Medium, Hard.
    engines: [Engine; 3],
    /// Iterations per decision for Easy, Medium, Hard (positions visited for alpha-beta).
    iterations: [u64; 3],
    /// How the playouts of Easy, Medium, Hard choose.
    playouts: [PlayoutQuality; 3],
    /// Decisions a playout of Easy, Medium, Hard makes before the game's evaluation scores it.
    playout_caps: [u32; 3],
}

use Engine::{AlphaBeta as Ab, Mcts};
use PlayoutQuality::{Informed, Uniform};

/// Per-game presets, measured on 2026-11-23 on the shared two-core build machine under load (see
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
/// Hidden Intention's games are short (about 60 decisions), so its
/// playouts run to the end: a cap of 24 with the influence evaluation lost 6–2–12 to full
/// playouts at equal iterations.
const CALIBRATION: &[Calibration] = &[
    Calibration {
        game: "gravel",
        engines: [Mcts, Ab, Ab],
        iterations: [100, 150_000, 8_000_000],
        playouts: [Informed; 3],
        playout_caps: [60; 3],
    },
    Calibration {
        game: "red-stone",
        engines: [Mcts; 3],
        iterations: [300, 4_000, 45_000],
        playouts: [Informed; 3],
        playout_caps: [40; 3],
    },
    Calibration {
        game: "throngs",
        engines: [Mcts; 3],
        iterations: [400, 10_000, 140_000],
        playouts: [Informed; 3],
        playout_caps: [40; 3],
    },
    Calibration {
        game: "inchworm",
        engines: [Mcts; 3],
        iterations: [400, 12_000, 220_000],
        playouts: [Informed; 3],
        playout_caps: [60; 3],
    },
    Calibration {
        game: "hidden-intention",
        engines: [Mcts; 3],
        // Easy at 1,000 beat uniform random only 7 of 10 (2026-11-22): its games are short and
        // noisy, so even the easiest level needs a few thousand iterations (still ~40 ms).
        iterations: [4_000, 20_000, 180_000],
        playouts: [Uniform; 3],
        playout_caps: [1_000; 3],
    },
];

/// A player of `level` for a game, seeded. `Random` needs no budget; the others are searchers
/// configured from [`budget_for`] (pass the level's budget to `decide`).
pub fn strategy_for<R: Knowledge>(level: Level, game_slug: &str, seed: u64) -> Box<dyn Strategy<R>> {
    if level == Level::Random {
        return Box::new(RandomStrategy::new(seed));
    }
    let preset = budget_for(level, game_slug);
    if preset.engine == Engine::AlphaBeta {
        return Box::new(AlphaBeta::new(seed));
    }
    Box::new(Searcher::<R, GamePolicy, GameEvaluator>::with_policy(
        preset.config(),
        preset.policy(),
        GameEvaluator,
        seed,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_grow_stronger() {
        for level in Level::ALL {
            assert_eq!(level.slug().parse::<Level>(), Ok(level));
        }
        assert_eq!(" Hard ".parse::<Level>(), Ok(Level::Hard));
        assert!("expert".parse::<Level>().unwrap_err().contains("medium"));
        let iterations: Vec<u64> = Level::ALL.iter().map(|&l| budget_for(l, "gravel").iterations).collect();
        assert!(iterations.windows(2).all(|w| w[0] < w[1]), "{iterations:?}");
        assert_eq!(budget_for(Level::Random, "anything").fixed_budget().iterations, 0);
        assert!(budget_for(Level::Hard, "red-stone").fixed_budget().time_limit.is_none());
    }

    #[test]
    fn every_game_is_calibrated_with_levels_in_order() {
        for kind in crate::games::GameKind::ALL {
            let row = CALIBRATION.iter().find(|r| r.game == kind.slug());
            assert!(row.is_some(), "{kind} has no calibration row");
            let levels = [Level::Easy, Level::Medium, Level::Hard].map(|l| budget_for(l, kind.slug()).iterations);
            assert!(levels.windows(2).all(|w| w[0] < w[1]), "{kind}: {levels:?}");
        }
        assert_eq!(budget_for(Level::Hard, "tic-tac-toe").playouts, PlayoutQuality::Decisive);
    }
}
