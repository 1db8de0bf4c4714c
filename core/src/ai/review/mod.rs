//! Reviewing a game with the computer: each side's turns judged by how much they changed the
//! mover's chance of winning, the computer's preferred decisions and line at every position, the
//! largest swings as key moments, and a summary per side. Pure Rust: the app, its browser worker
//! and `stoneyard review` share it, so a record, budget and seed give the same review everywhere.
//!
//! A review is planned from the game's record moves ([`GameReview::plan`]): one [`ReviewedTurn`] per
//! side and record move (a turn of one side; in Hidden Intention each side's commitment of an
//! attempt). Each turn's position is one [`ProbeJob`] (plain data, for a task or the Web Worker);
//! a finished job's [`PositionAnalysis`] is given back with [`GameReview::record`]. A turn is judged
//! ([`GameReview::judgement`]) once the analyses it needs are in:
//!
//! - **win before**: the mover's win chance at the start of its turn with the computer's best play
//!   (the search's most-visited decision's mean reward, from −1…1 to 0…1);
//! - **win after**: the mover's win chance once its turn is played: from the next position's
//!   analysis (the opponent's chance turned round), the result when the game ended, or, where both
//!   sides seal a commitment, the search's value of the commitment actually played against the
//!   opponent's unknown choice (judged from what the mover knew, never from the other commitment);
//! - **label** by the drop (before − after), see [`Label`]; a turn equal to the computer's own
//!   preferred turn at this budget is always [`Label::Best`], and one after which the opponent's
//!   best answer wins the game at once is a [`Label::Blunder`] unless the drop is under [`BEST`]
//!   (every choice lost as fast).

mod analyse;
mod noise;
mod plan;

pub use analyse::PositionAnalysis;
pub(crate) use analyse::analyse_as;
pub use noise::{SeedNoise, seed_noise};
pub use plan::{Probe, ProbeJob, ReviewError, ReviewedTurn, decisions_text};

use crate::rules::Side;
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};

/// Drops of win chance (0…1) at or above which a turn is an inaccuracy, a mistake, a blunder:
/// lichess's 0.1 / 0.2 / 0.3 on its −1…1 scale. The win chances are calibrated on self-play
/// (`ai::calibration`) and a review's estimates move by well under these steps from one seed to
/// another (`stoneyard bench --review`).
pub const INACCURACY: f32 = 0.05;
pub const MISTAKE: f32 = 0.10;
pub const BLUNDER: f32 = 0.15;
/// A drop under this is as good as the computer's own choice.
pub const BEST: f32 = 0.02;
/// Key moments per side: its largest drops of at least [`INACCURACY`].
pub const KEY_MOMENTS: usize = 3;

/// How good a turn was, by the drop in the mover's win chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// The computer's own choice, or within [`BEST`] of it.
    Best,
    /// Loses less than [`INACCURACY`].
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Label {
    pub const ALL: [Label; 5] = [Label::Best, Label::Good, Label::Inaccuracy, Label::Mistake, Label::Blunder];

    /// The label of a drop in win chance (0…1) for a turn that is not the computer's own choice.
    pub fn of_drop(drop: f32) -> Label {
        match drop {
            d if d >= BLUNDER => Label::Blunder,
            d if d >= MISTAKE => Label::Mistake,
            d if d >= INACCURACY => Label::Inaccuracy,
            d if d >= BEST => Label::Good,
            _ => Label::Best,
        }
    }

    /// The word players read.
    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }

    /// The mark after a move in a list, as chess writes it (`?!`, `?`, `??`).
    pub fn glyph(self) -> &'static str {
        match self {
            Label::Best | Label::Good => "",
            Label::Inaccuracy => "?!",
            Label::Mistake => "?",
            Label::Blunder => "??",
        }
    }
}

/// How a review thinks: MCTS iterations per position, and the seed every position's seed comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewSettings {
    pub iterations: u64,
    pub seed: u64,
}

impl ReviewSettings {
    /// The game's review budget (`Calibration::review_iterations`) with `seed`.
    pub fn default_for(kind: crate::games::GameKind, seed: u64) -> Self {
        let iterations = crate::ai::games::ai_game(kind).map_or(3_000, |g| g.calibration.review_iterations);
        ReviewSettings { iterations, seed }
    }
}

/// What the review says of one turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// The mover's win chance before its turn, with the computer's best play (0…1).
    pub win_before: f32,
    /// The mover's win chance after the turn it played (0…1).
    pub win_after: f32,
    pub label: Label,
    /// The computer's preferred decisions for the mover here.
    pub best: Vec<String>,
    /// The line the computer expects after its preferred decisions.
    pub line: Vec<String>,
    /// The opponent's best answer to the turn played (its refutation, for a bad turn); empty when
    /// the game ended or the opponent's answer is not known (a commitment).
    pub reply: Vec<String>,
}

impl Judgement {
    /// How much of its win chance the turn gave away (never negative).
    pub fn drop(&self) -> f32 {
        (self.win_before - self.win_after).max(0.0)
    }

    /// lichess's accuracy of one move from its drop in win chance (in percentage points),
    /// `103.1668 · e^(−0.04354 · drop) − 3.1669`, within 0…100.
    pub fn accuracy(&self) -> f32 {
        (103.1668 * (-0.04354 * self.drop() * 100.0).exp() - 3.1669).clamp(0.0, 100.0)
    }
}

/// One side's summary: how many turns got each label, and its accuracy (the mean of its turns'
/// [`Judgement::accuracy`], 0…100).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SideSummary {
    pub counts: [usize; 5],
    pub accuracy: Option<f32>,
    /// The turns (indexes into the review's turns) of the side's key moments, in game order.
    pub key_moments: Vec<usize>,
}

impl SideSummary {
    pub fn count(&self, label: Label) -> usize {
        self.counts[label as usize]
    }
}

/// A whole game's review, filled in as its positions are analysed; serialisable, so a finished
/// review is kept with its game and reopened without thinking again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameReview {
    pub settings: ReviewSettings,
    /// The game's slug, options and start, to rebuild the probes.
    pub game: String,
    pub options: Vec<(String, String)>,
    pub start: Option<String>,
    /// Every decision of the game, in order.
    pub decisions: Vec<String>,
    pub turns: Vec<ReviewedTurn>,
    /// The positions to analyse: one per turn, then the last position when the game goes on.
    pub probes: Vec<Probe>,
    /// The analysis of each probe, once done.
    pub analyses: Vec<Option<PositionAnalysis>>,
}

impl GameReview {
    /// How many positions are analysed so far, of how many.
    pub fn progress(&self) -> (usize, usize) {
        (self.analyses.iter().filter(|a| a.is_some()).count(), self.analyses.len())
    }

    pub fn is_complete(&self) -> bool {
        self.analyses.iter().all(Option::is_some)
    }

    /// The first probe not yet analysed.
    pub fn next_probe(&self) -> Option<usize> {
        self.analyses.iter().position(Option::is_none)
    }

    /// The job of probe `index`.
    pub fn job(&self, index: usize) -> Option<ProbeJob> {
        let probe = self.probes.get(index)?;
        let played = match probe.turn {
            Some(t) => self.turns.get(t)?.played.clone(),
            None => Vec::new(),
        };
        Some(ProbeJob {
            game: self.game.clone(),
            options: self.options.clone(),
            start: self.start.clone(),
            moves: self.decisions.get(..probe.prefix)?.to_vec(),
            side: probe.side,
            played,
            iterations: self.settings.iterations,
            seed: crate::rules::splitmix64_nth(self.settings.seed, index as u64),
        })
    }

    /// Takes in probe `index`'s analysis. A wrong index or an analysis of the wrong side is refused.
    pub fn record(&mut self, index: usize, analysis: PositionAnalysis) -> Result<(), String> {
        let probe = self.probes.get(index).ok_or_else(|| format!("the review has no position {index}"))?;
        if probe.side != analysis.side {
            return Err(format!("position {index} was analysed for the wrong side"));
        }
        self.analyses[index] = Some(analysis);
        Ok(())
    }

    /// Analyses every position left, one after another (the browser's fallback and tests; the app
    /// and the command line use [`GameReview::complete_on`]). `progress` hears each position done.
    pub fn complete(&mut self, progress: impl FnMut(usize, usize)) -> Result<(), String> {
        self.complete_on(1, progress)
    }

    /// Analyses every position left on `threads` threads at once, taking them in game order. Each
    /// position's analysis depends on its job alone (its own seed), so the review is the same
    /// whatever the thread count. `progress` hears each position done (done, total), in the order
    /// they finish; the first failure stops the review.
    pub fn complete_on(&mut self, threads: usize, mut progress: impl FnMut(usize, usize)) -> Result<(), String> {
        self.complete_with(threads, |review, _| {
            let (done, total) = review.progress();
            progress(done, total);
        })
    }

    /// As [`GameReview::complete_on`], `recorded` hearing the review and the index of each position
    /// as it is recorded (the command line prints the turns it judges).
    pub fn complete_with(
        &mut self,
        threads: usize,
        mut recorded: impl FnMut(&GameReview, usize),
    ) -> Result<(), String> {
        let pending: Vec<usize> = (0..self.analyses.len()).filter(|&i| self.analyses[i].is_none()).collect();
        let jobs: Vec<(usize, ProbeJob)> =
            pending.iter().map(|&i| self.job(i).map(|job| (i, job)).ok_or("no job")).collect::<Result<_, _>>()?;
        let run = |job: &ProbeJob, index: usize| job.run().map_err(|e| format!("position {index}: {e}"));
        if threads <= 1 || jobs.len() <= 1 {
            for (index, job) in &jobs {
                self.record(*index, run(job, *index)?)?;
                recorded(self, *index);
            }
            return Ok(());
        }
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let (send, answers) = std::sync::mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..threads.min(jobs.len()) {
                let send = send.clone();
                let (jobs, next, stop) = (&jobs, &next, &stop);
                scope.spawn(move || {
                    while !stop.load(Relaxed) {
                        let Some((index, job)) = jobs.get(next.fetch_add(1, Relaxed)) else {
                            break;
                        };
                        if send.send((*index, run(job, *index))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(send);
            for (index, answer) in answers {
                if let Err(e) = answer.and_then(|analysis| self.record(index, analysis)) {
                    stop.store(true, Relaxed);
                    return Err(e);
                }
                recorded(self, index);
            }
            Ok(())
        })
    }

    /// Turn `t`'s judgement, once the analyses it needs are done.
    pub fn judgement(&self, t: usize) -> Option<Judgement> {
        let turn = self.turns.get(t)?;
        let own = self.analyses.get(turn.probe)?.as_ref()?;
        let (win_after, reply, loses_at_once) = match (turn.simultaneous, turn.over_after) {
            // A commitment is judged by what its side knew, not by the other side's choice.
            (true, _) => (own.played_win.unwrap_or(own.win), Vec::new(), false),
            (false, Some(score)) => (score, Vec::new(), false),
            (false, None) => {
                let next = self.analyses.get(turn.next_probe?)?.as_ref()?;
                if next.side == turn.side {
                    (next.win, Vec::new(), false)
                } else {
                    (1.0 - next.win, next.best.clone(), next.wins_at_once)
                }
            }
        };
        let win_before = own.win;
        let drop = (win_before - win_after).max(0.0);
        let label = match Label::of_drop(drop) {
            _ if own.best == turn.played => Label::Best,
            // Handing the opponent a win at once is a blunder even from a lost-looking position,
            // unless every choice did (then the drop is nothing).
            label if loses_at_once && label > Label::Best => Label::Blunder,
            label => label,
        };
        Some(Judgement { win_before, win_after, label, best: own.best.clone(), line: own.line.clone(), reply })
    }

    /// The first side's win chance after each turn judged so far, with the start first: the
    /// graph's points (`None` where a turn is not judged yet).
    pub fn first_side_curve(&self) -> Vec<Option<f32>> {
        let mut curve = Vec::with_capacity(self.turns.len() + 1);
        let for_first = |side: Side, win: f32| if side == Side::First { win } else { 1.0 - win };
        let start = self.turns.first().and_then(|t| {
            let a = self.analyses.get(t.probe)?.as_ref()?;
            Some(for_first(a.side, a.win))
        });
        curve.push(start);
        for (t, turn) in self.turns.iter().enumerate() {
            curve.push(self.judgement(t).map(|j| for_first(turn.side, j.win_after)));
        }
        curve
    }

    /// The summary of `side` over the turns judged so far.
    pub fn summary(&self, side: Side) -> SideSummary {
        let mut summary = SideSummary::default();
        let mut accuracy = Vec::new();
        let mut swings = Vec::new();
        for (t, _) in self.turns.iter().enumerate().filter(|(_, turn)| turn.side == side) {
            let Some(j) = self.judgement(t) else { continue };
            summary.counts[j.label as usize] += 1;
            accuracy.push(j.accuracy());
            if j.label >= Label::Inaccuracy {
                swings.push((j.drop(), t));
            }
        }
        summary.accuracy = (!accuracy.is_empty()).then(|| accuracy.iter().sum::<f32>() / accuracy.len() as f32);
        swings.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        summary.key_moments = swings.into_iter().take(KEY_MOMENTS).map(|(_, t)| t).collect();
        summary.key_moments.sort_unstable();
        summary
    }

    /// Both sides' key moments in game order.
    pub fn key_moments(&self) -> Vec<usize> {
        let mut all: Vec<usize> = Side::BOTH.into_iter().flat_map(|s| self.summary(s).key_moments).collect();
        all.sort_unstable();
        all
    }

    /// The review as JSON text (kept with the game).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A review read from its JSON text.
    pub fn from_json(text: &str) -> Result<GameReview, String> {
        let review: GameReview = serde_json::from_str(text).map_err(|e| format!("not a review: {e}"))?;
        let probes = review.probes.len();
        if review.analyses.len() != probes
            || review.turns.iter().any(|t| t.probe >= probes || t.next_probe.is_some_and(|p| p >= probes))
            || review
                .probes
                .iter()
                .any(|p| p.prefix > review.decisions.len() || p.turn.is_some_and(|t| t >= review.turns.len()))
        {
            return Err("the review's positions do not match its turns".to_string());
        }
        if review.analyses.iter().zip(&review.probes).any(|(a, p)| a.as_ref().is_some_and(|a| a.side != p.side)) {
            return Err("the review holds an analysis of the wrong side".to_string());
        }
        Ok(review)
    }
}

#[cfg(test)]
mod tests;
