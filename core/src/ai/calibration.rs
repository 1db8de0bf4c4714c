//! Calibrating the computer's win chances: positions of self-play games with each one's margin
//! (`Knowledge::margin`) and the game's result, the steepness that turns margins into win chances
//! fitted to them by maximum likelihood, and how well a set of predicted chances matches the
//! results (Brier score, a reliability table of ten bins). `stoneyard calibrate` writes the data
//! to `data/calibration/<game>.csv` and prints the fit; each game's knowledge keeps the constant.

use crate::games::GameKind;
use crate::rules::{Outcome, Side, Status, ToMove};
use crate::session::Match;

/// One position of a self-played game: the first side's margin there, who is to move, and the
/// first side's result (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub game: u32,
    pub decision: u32,
    pub margin: f32,
    /// 1 when the first side is to move, −1 the second, 0 both (a simultaneous choice).
    pub to_move: i8,
    pub result: f32,
}

/// Every position of a finished `game` (the positions before each decision) as samples, the
/// margins from `margin` (the game's knowledge, for the first side); `None` for a game that did
/// not end.
pub fn samples_of(
    game: &Match,
    index: u32,
    margin: impl Fn(&dyn crate::games::DynGame) -> Option<f32>,
) -> Option<Vec<Sample>> {
    let Status::Over(outcome) = game.position().status() else { return None };
    let result = first_side_result(outcome);
    let mut position = game.start().clone_box();
    let mut samples = Vec::new();
    for (k, decision) in game.decisions().enumerate() {
        let to_move = match position.to_move() {
            Some(ToMove::One(Side::First)) => 1,
            Some(ToMove::One(Side::Second)) => -1,
            _ => 0,
        };
        if let Some(m) = margin(position.as_ref()) {
            samples.push(Sample { game: index, decision: k as u32, margin: m, to_move, result });
        }
        position.play_decision(decision).ok()?;
    }
    Some(samples)
}

/// The first side's result of `outcome`: 1, 0.5 or 0.
pub fn first_side_result(outcome: Outcome) -> f32 {
    (outcome.score_for(Side::First) + 1.0) / 2.0
}

/// How a game's margins turn into win chances: the first side wins from its margin `m` with
/// chance `(1 + tanh(sharpness · m + first_side_edge ± tempo)) / 2`, `+ tempo` when the first side
/// is to move and `− tempo` when the second is (the second side's margin is `−m`, its edge and
/// tempo the other way round).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fit {
    pub sharpness: f32,
    /// What being the first side is worth where the margins are even (negative: the second side
    /// wins more often), in the same units as `sharpness · m`.
    pub first_side_edge: f32,
    /// What being the side to move is worth: a margin counted just after a side moved flatters
    /// it (in Red Stone it has just put a stone down), so the same margin means less there.
    pub tempo: f32,
}

impl Fit {
    /// The first side's win chance from its margin `m`, `to_move` as in [`Sample`].
    pub fn chance(self, margin: f32, to_move: i8) -> f32 {
        (1.0 + libm::tanhf(self.sharpness * margin + self.first_side_edge + self.tempo * f32::from(to_move))) / 2.0
    }

    fn of(self, sample: &Sample) -> f32 {
        self.chance(sample.margin, sample.to_move)
    }
}

/// The mean cross-entropy of `samples`' results under `fit`.
pub fn log_loss(samples: &[Sample], fit: Fit) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = f64::from(fit.of(s)).clamp(1e-6, 1.0 - 1e-6);
            let y = f64::from(s.result);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The fit of least log loss: a logistic regression of the results on the margin, the side and
/// the side to move (the chance is the logistic function of twice the tanh's argument), by
/// Newton's method, which converges since the loss is convex in the three parameters.
pub fn fit(samples: &[Sample]) -> Fit {
    let mut w = [1.0f64, 0.0, 0.0];
    for _ in 0..100 {
        let mut g = [0.0f64; 3];
        // A little damping keeps the step finite where a feature never varies (no tempo in a
        // simultaneous game) or the data separate perfectly.
        let mut h = [[1e-6f64, 0.0, 0.0], [0.0, 1e-6, 0.0], [0.0, 0.0, 1e-6]];
        for s in samples {
            let x = [f64::from(s.margin), 1.0, f64::from(s.to_move)];
            let z: f64 = (0..3).map(|i| w[i] * x[i]).sum();
            let p = 1.0 / (1.0 + (-2.0 * z).exp());
            let residual = p - f64::from(s.result);
            let weight = 4.0 * p * (1.0 - p);
            for i in 0..3 {
                g[i] += 2.0 * residual * x[i];
                for j in 0..3 {
                    h[i][j] += weight * x[i] * x[j];
                }
            }
        }
        let Some(step) = solve3(h, g) else { break };
        w = [(w[0] - step[0]).clamp(0.0, 100.0), (w[1] - step[1]).clamp(-5.0, 5.0), (w[2] - step[2]).clamp(-5.0, 5.0)];
        if step.iter().all(|d| d.abs() < 1e-7) {
            break;
        }
    }
    Fit { sharpness: w[0] as f32, first_side_edge: w[1] as f32, tempo: w[2] as f32 }
}

/// `x` with `a · x = b` (Cramer's rule; `None` for a singular `a`).
fn solve3(a: [[f64; 3]; 3], b: [f64; 3]) -> Option<[f64; 3]> {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(a);
    if d.abs() < 1e-18 {
        return None;
    }
    let mut x = [0.0; 3];
    for (k, value) in x.iter_mut().enumerate() {
        let mut m = a;
        for (row, b) in m.iter_mut().zip(b) {
            row[k] = b;
        }
        *value = det(m) / d;
    }
    Some(x)
}

/// How well predicted win chances match results.
#[derive(Clone, Debug, PartialEq)]
pub struct Reliability {
    pub count: usize,
    /// The mean squared difference between chance and result (0 perfect; 0.25 for always ½).
    pub brier: f64,
    /// Ten bins of predicted chance (0–0.1, …, 0.9–1): how many, their mean prediction and the
    /// mean result observed.
    pub bins: [(usize, f64, f64); 10],
}

/// The reliability of `(predicted chance, result)` pairs.
pub fn reliability(pairs: impl IntoIterator<Item = (f32, f32)>) -> Reliability {
    let mut bins = [(0usize, 0f64, 0f64); 10];
    let (mut count, mut squared) = (0usize, 0f64);
    for (p, y) in pairs {
        let (p, y) = (f64::from(p.clamp(0.0, 1.0)), f64::from(y));
        let bin = ((p * 10.0) as usize).min(9);
        bins[bin].0 += 1;
        bins[bin].1 += p;
        bins[bin].2 += y;
        count += 1;
        squared += (p - y).powi(2);
    }
    for bin in &mut bins {
        if bin.0 > 0 {
            bin.1 /= bin.0 as f64;
            bin.2 /= bin.0 as f64;
        }
    }
    Reliability { count, brier: squared / count.max(1) as f64, bins }
}

/// Samples as CSV text (`game,decision,margin,to_move,result`), after comment lines naming the game and
/// `source` (how the data were made).
pub fn to_csv(kind: GameKind, source: &str, samples: &[Sample]) -> String {
    let mut text = format!(
        "# {}: the first side's margin before each decision of self-played games, and its result\n# {source}\ngame,decision,margin,to_move,result\n",
        kind.slug()
    );
    for s in samples {
        text.push_str(&format!("{},{},{},{},{}\n", s.game, s.decision, s.margin, s.to_move, s.result));
    }
    text
}

/// Samples read from [`to_csv`]'s text.
pub fn from_csv(text: &str) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("game,") || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').collect();
        let bad = || format!("line {}: '{line}' is not game,decision,margin,to_move,result", n + 1);
        let [game, decision, margin, to_move, result] = fields[..] else { return Err(bad()) };
        samples.push(Sample {
            game: game.parse().map_err(|_| bad())?,
            decision: decision.parse().map_err(|_| bad())?,
            margin: margin.parse().map_err(|_| bad())?,
            to_move: to_move.parse().map_err(|_| bad())?,
            result: result.parse().map_err(|_| bad())?,
        });
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::seeded;
    use rand::RngExt;

    #[test]
    fn the_fit_finds_the_sharpness_and_edge_the_results_were_drawn_with() {
        let mut rng = seeded(3);
        for truth in [
            Fit { sharpness: 0.4, first_side_edge: 0.0, tempo: 0.0 },
            Fit { sharpness: 1.0, first_side_edge: -0.3, tempo: 0.25 },
            Fit { sharpness: 2.5, first_side_edge: 0.2, tempo: -0.1 },
        ] {
            let samples: Vec<Sample> = (0..30_000)
                .map(|i| {
                    let margin: f32 = rng.random_range(-3.0..3.0);
                    let to_move = [1, -1][i as usize % 2];
                    let win = rng.random_range(0.0..1.0) < truth.chance(margin, to_move);
                    Sample { game: i, decision: 0, margin, to_move, result: if win { 1.0 } else { 0.0 } }
                })
                .collect();
            let fitted = fit(&samples);
            assert!((fitted.sharpness / truth.sharpness - 1.0).abs() < 0.08, "drawn with {truth:?}, fitted {fitted:?}");
            assert!(
                (fitted.first_side_edge - truth.first_side_edge).abs() < 0.05,
                "drawn with {truth:?}, fitted {fitted:?}"
            );
            assert!((fitted.tempo - truth.tempo).abs() < 0.05, "drawn with {truth:?}, fitted {fitted:?}");
            assert!(log_loss(&samples, fitted) <= log_loss(&samples, truth) + 1e-9);
            let table = reliability(samples.iter().map(|s| (fitted.of(s), s.result)));
            for (count, predicted, observed) in table.bins {
                assert!(count < 200 || (predicted - observed).abs() < 0.06, "{table:?}");
            }
        }
    }

    #[test]
    fn samples_survive_their_csv_and_bad_lines_are_named() {
        let kind = GameKind::from_slug("gravel").unwrap();
        let samples = vec![
            Sample { game: 0, decision: 3, margin: -0.25, to_move: -1, result: 0.0 },
            Sample { game: 1, decision: 0, margin: 1.5, to_move: 0, result: 0.5 },
        ];
        assert_eq!(from_csv(&to_csv(kind, "a test", &samples)).unwrap(), samples);
        assert!(from_csv("1,2,x,1,1").unwrap_err().contains("line 1"));
    }

    #[test]
    fn reliability_of_perfect_and_coin_predictions() {
        let sure = reliability([(1.0, 1.0), (0.0, 0.0)]);
        assert_eq!((sure.count, sure.brier), (2, 0.0));
        let coin = reliability([(0.5, 1.0), (0.5, 0.0)]);
        assert!((coin.brier - 0.25).abs() < 1e-12);
        assert_eq!(coin.bins[5], (2, 0.5, 0.5));
    }
}
