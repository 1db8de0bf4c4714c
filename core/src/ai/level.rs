//! Difficulty levels: presets of search iterations, playout quality and playout cap, per game.

use super::alpha_beta::AlphaBeta;
use super::budget::Budget;
use super::knowledge::{GameEvaluator, GamePolicy, Knowledge};
use super::mcts::{MctsConfig, Searcher};
pub use super::presets::{Calibration, Engine, PlayoutQuality};
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

/// The preset of `level` for a game calibrated by `calibration` (see `ai::games` for the games'
/// rows). Hard's time limit keeps a decision near 2 s on machines slower than the one the rows
/// were measured on.
pub fn budget_for(level: Level, calibration: &Calibration) -> LevelBudget {
    let (index, seconds) = match level {
        Level::Random => {
            return LevelBudget {
                engine: Engine::Mcts,
                iterations: 0,
                time_limit: None,
                playouts: PlayoutQuality::Uniform,
                playout_cap: calibration.playout_caps[0],
                exploration: std::f32::consts::SQRT_2,
            };
        }
        Level::Easy => (0, 0.5),
        Level::Medium => (1, 1.0),
        Level::Hard => (2, 2.0),
    };
    LevelBudget {
        engine: calibration.engines[index],
        iterations: calibration.iterations[index],
        time_limit: Some(Duration::from_secs_f64(seconds)),
        playouts: calibration.playouts[index],
        playout_cap: calibration.playout_caps[index],
        exploration: std::f32::consts::SQRT_2,
    }
}

/// A player of `level` for a game, seeded. `Random` needs no budget; the others are searchers
/// configured from [`budget_for`] (pass the level's budget to `decide`).
pub fn strategy_for<R: Knowledge>(level: Level, calibration: &Calibration, seed: u64) -> Box<dyn Strategy<R>> {
    if level == Level::Random {
        return Box::new(RandomStrategy::new(seed));
    }
    let preset = budget_for(level, calibration);
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
        let generic = Calibration::GENERIC;
        let iterations: Vec<u64> = Level::ALL.iter().map(|&l| budget_for(l, &generic).iterations).collect();
        assert!(iterations.windows(2).all(|w| w[0] < w[1]), "{iterations:?}");
        assert_eq!(budget_for(Level::Random, &generic).fixed_budget().iterations, 0);
        assert!(budget_for(Level::Hard, &generic).fixed_budget().time_limit.is_none());
        assert_eq!(budget_for(Level::Hard, &generic).playouts, PlayoutQuality::Decisive);
    }
}
