//! How sure a review is: the same game reviewed with several seeds, and how far its labels and
//! win chances move from one seed to another (`stoneyard bench --review`, and the tests).

use super::{GameReview, Label, ReviewSettings};
use crate::session::Match;
use web_time::Instant;

/// What several seeds' reviews of one game say about each other.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedNoise {
    pub seeds: usize,
    pub turns: usize,
    /// Turns whose label is the same in every seed's review.
    pub agreeing_turns: usize,
    /// Turns whose mark (none, `?!`, `?`, `??`: best and good are both unmarked, as in lichess)
    /// is the same in every seed's review.
    pub agreeing_marks: usize,
    /// The standard deviation across seeds of each position's win chance, averaged over the
    /// positions, and the largest.
    pub mean_sd: f32,
    pub max_sd: f32,
    /// The first seed's whole review, in seconds.
    pub seconds: f64,
    /// Every seed's labels, turn by turn.
    pub labels: Vec<Vec<Label>>,
}

impl SeedNoise {
    /// The share of turns all seeds label alike (1 for a game without turns).
    pub fn agreement(&self) -> f32 {
        if self.turns == 0 { 1.0 } else { self.agreeing_turns as f32 / self.turns as f32 }
    }

    /// The share of turns all seeds mark alike (1 for a game without turns).
    pub fn mark_agreement(&self) -> f32 {
        if self.turns == 0 { 1.0 } else { self.agreeing_marks as f32 / self.turns as f32 }
    }
}

/// Reviews `game` with `seeds` seeds (1, 2, …) at `iterations` a position (`None`: the game's
/// review budget), each review on `threads` threads.
pub fn seed_noise(game: &Match, iterations: Option<u64>, seeds: usize, threads: usize) -> Result<SeedNoise, String> {
    let mut reviews = Vec::new();
    let mut seconds = 0.0;
    for seed in 1..=seeds as u64 {
        let mut settings = ReviewSettings::default_for(game.kind(), seed);
        if let Some(iterations) = iterations {
            settings.iterations = iterations;
        }
        let mut review = GameReview::plan(game, settings).map_err(|e| e.to_string())?;
        let started = Instant::now();
        review.complete_on(threads, |_, _| {})?;
        if seed == 1 {
            seconds = started.elapsed().as_secs_f64();
        }
        reviews.push(review);
    }
    let turns = reviews.first().map_or(0, |r| r.turns.len());
    let labels: Vec<Vec<Label>> =
        reviews.iter().map(|r| (0..turns).map(|t| r.judgement(t).map_or(Label::Best, |j| j.label)).collect()).collect();
    let agreeing_turns = (0..turns).filter(|&t| labels.iter().all(|l| l[t] == labels[0][t])).count();
    let agreeing_marks = (0..turns).filter(|&t| labels.iter().all(|l| l[t].glyph() == labels[0][t].glyph())).count();
    let probes = reviews.first().map_or(0, |r| r.probes.len());
    let sds: Vec<f32> = (0..probes)
        .map(|p| {
            let wins: Vec<f32> = reviews.iter().filter_map(|r| r.analyses[p].as_ref().map(|a| a.win)).collect();
            standard_deviation(&wins)
        })
        .collect();
    let mean_sd = if sds.is_empty() { 0.0 } else { sds.iter().sum::<f32>() / sds.len() as f32 };
    let max_sd = sds.iter().copied().fold(0.0, f32::max);
    Ok(SeedNoise { seeds, turns, agreeing_turns, agreeing_marks, mean_sd, max_sd, seconds, labels })
}

/// The population standard deviation of `values` (0 for fewer than two).
fn standard_deviation(values: &[f32]) -> f32 {
    if values.len() < 2 {
        return 0.0;
    }
    let mean = values.iter().sum::<f32>() / values.len() as f32;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / values.len() as f32).sqrt()
}
