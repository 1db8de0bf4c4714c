//! Difficulty levels: presets of search iterations and playout quality, tunable per game.

use super::budget::Budget;
use super::mcts::{MctsConfig, Searcher};
use super::policy::{DecisivePolicy, DrawEvaluator, LevelPolicy, UniformPolicy};
use super::{RandomStrategy, Strategy};
use crate::rules::Rules;
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

/// How simulated games choose their decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutQuality {
    /// Uniformly random: the most iterations per second.
    Uniform,
    /// Takes an immediately winning decision when a few trial plays find one (fewer, better
    /// playouts).
    Decisive,
}

/// Everything a level fixes for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelBudget {
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
        MctsConfig { exploration: self.exploration, playout_cap: self.playout_cap, ..MctsConfig::default() }
    }

    pub fn policy(&self) -> LevelPolicy {
        match self.playouts {
            PlayoutQuality::Uniform => LevelPolicy::Uniform(UniformPolicy),
            PlayoutQuality::Decisive => LevelPolicy::Decisive(DecisivePolicy::default()),
        }
    }
}

/// The preset of `level` for the game with this slug: the game's row of [`CALIBRATION`], else the
/// generic numbers (fit for small games with cheap playouts). Hard's time limit keeps a decision
/// near 2 s on machines slower than the one the rows were measured on.
pub fn budget_for(level: Level, game_slug: &str) -> LevelBudget {
    let preset = |iterations, seconds: f64, playouts, playout_cap| LevelBudget {
        iterations,
        time_limit: Some(Duration::from_secs_f64(seconds)),
        playouts,
        playout_cap,
        exploration: std::f32::consts::SQRT_2,
    };
    let row = CALIBRATION.iter().find(|row| row.game == game_slug);
    let iterations = |index: usize, generic: u64| row.map_or(generic, |r| r.iterations[index]);
    let cap = row.map_or(1_000, |r| r.playout_cap);
    match level {
        Level::Random => LevelBudget { time_limit: None, ..preset(0, 0.0, PlayoutQuality::Uniform, cap) },
        Level::Easy => preset(iterations(0, 300), 0.5, PlayoutQuality::Uniform, cap),
        Level::Medium => preset(iterations(1, 3_000), 1.0, PlayoutQuality::Uniform, cap),
        Level::Hard => {
            preset(iterations(2, 30_000), 2.0, row.map_or(PlayoutQuality::Decisive, |r| r.hard_playouts), cap)
        }
    }
}

/// One game's numbers.
struct Calibration {
    game: &'static str,
    /// Iterations per decision for Easy, Medium, Hard.
    iterations: [u64; 3],
    hard_playouts: PlayoutQuality,
    playout_cap: u32,
}

/// Per-game presets. Hard's iterations take about 2 s from the initial position, measured with the
/// engines of 2026-11-22 on the shared two-core build machine under load (MCTS iterations per
/// second with uniform playouts: gravel 2.3k, throngs 2.4k, inchworm 2.0k, red-stone 5.1k,
/// hidden-intention 60k–110k). Decisive playouts cost these games 2–3× the time and they seldom end
/// on a single decision, so they play out uniformly. Random games of Gravel (about 1,450 decisions)
/// and Inchworm (about 3,000) run past the generic cap of 1,000, and without an evaluator a capped
/// playout only says "draw", so their caps let most playouts finish (Inchworm's iterations are
/// fewer for it). Re-measure when the engines get faster or gain evaluators, and check the order of
/// the levels with `stoneyard arena` (Medium beat Easy 4–0 in hidden-intention, throngs and
/// red-stone and 3–1 in gravel, and Hard beat Medium 4–0 in hidden-intention, on 2026-11-22).
const CALIBRATION: &[Calibration] = &[
    Calibration {
        game: "gravel",
        iterations: [200, 1_000, 5_000],
        hard_playouts: PlayoutQuality::Uniform,
        playout_cap: 4_000,
    },
    Calibration {
        game: "red-stone",
        iterations: [300, 2_000, 10_000],
        hard_playouts: PlayoutQuality::Uniform,
        playout_cap: 1_000,
    },
    Calibration {
        game: "throngs",
        iterations: [200, 1_000, 5_000],
        hard_playouts: PlayoutQuality::Uniform,
        playout_cap: 1_000,
    },
    Calibration {
        game: "inchworm",
        iterations: [100, 500, 2_000],
        hard_playouts: PlayoutQuality::Uniform,
        playout_cap: 6_000,
    },
    Calibration {
        game: "hidden-intention",
        // Easy at 1,000 beat uniform random only 7 of 10 (2026-11-22): its games are short and
        // noisy, so even the easiest level needs a few thousand iterations (still ~40 ms).
        iterations: [4_000, 20_000, 150_000],
        hard_playouts: PlayoutQuality::Uniform,
        playout_cap: 1_000,
    },
];

/// A player of `level` for a game, seeded. `Random` needs no budget; the others are searchers
/// configured from [`budget_for`] (pass the level's budget to `decide`).
pub fn strategy_for<R: Rules>(level: Level, game_slug: &str, seed: u64) -> Box<dyn Strategy<R>> {
    if level == Level::Random {
        return Box::new(RandomStrategy::new(seed));
    }
    let preset = budget_for(level, game_slug);
    Box::new(Searcher::<R, LevelPolicy, DrawEvaluator>::with_policy(
        preset.config(),
        preset.policy(),
        DrawEvaluator,
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
