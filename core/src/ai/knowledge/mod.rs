//! Per-game knowledge for the search: how a cut-off playout is scored and how playouts choose.
//!
//! A game implements [`Knowledge`] (in this folder, one file per game) to give the search an
//! evaluation of ongoing positions and, optionally, a playout policy better than uniform. Both
//! read the engines' own data (control, power, influence, liberties, scores). Toy games of the
//! tests implement it with the defaults: uniform playouts and "draw" at the cap.

mod gravel;
mod hidden_intention;
mod inchworm;
mod red_stone;
mod throngs;

use super::policy::{DecisivePolicy, Evaluator, PlayoutPolicy, UniformPolicy};
use crate::rules::{GameRng, Rules, Side, pick_index};

/// What a game tells the search about itself. Every method has a neutral default.
pub trait Knowledge: Rules {
    /// How good this ongoing position is for `side`, in [-1, 1]; 0 gives no opinion (a draw).
    /// Called once per playout that reaches its ply cap, so it may cost about one decision's work.
    fn evaluate(&self, _side: Side) -> f32 {
        0.0
    }

    /// The index in `moves` (every legal decision here, never empty) of the decision a playout
    /// plays, or `None` for a uniformly random one. It must be cheap: it runs at every ply.
    fn playout_pick(&self, _moves: &[Self::Move], _rng: &mut GameRng) -> Option<usize> {
        None
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
    /// The game's own playout policy ([`Knowledge::playout_pick`]), uniform where it has none.
    Informed,
}

/// The playout policy of a level for a game with [`Knowledge`].
#[derive(Clone, Copy, Debug)]
pub struct GamePolicy {
    pub quality: PlayoutQuality,
}

impl<R: Knowledge> PlayoutPolicy<R> for GamePolicy {
    fn pick(&self, pos: &R, moves: &[R::Move], rng: &mut GameRng) -> usize {
        match self.quality {
            PlayoutQuality::Uniform => UniformPolicy.pick(pos, moves, rng),
            PlayoutQuality::Decisive => DecisivePolicy::default().pick(pos, moves, rng),
            PlayoutQuality::Informed => pos.playout_pick(moves, rng).unwrap_or_else(|| pick_index(rng, moves.len())),
        }
    }
}

/// Scores capped playouts with [`Knowledge::evaluate`].
#[derive(Clone, Copy, Debug, Default)]
pub struct GameEvaluator;

impl<R: Knowledge> Evaluator<R> for GameEvaluator {
    fn evaluate(&self, pos: &R, side: Side) -> f32 {
        pos.evaluate(side)
    }
}

/// A margin squashed into (-1, 1): `scale` is the margin worth about three quarters of a win.
pub fn squash(margin: f32, scale: f32) -> f32 {
    // Portable: the same bits natively and in the browser (see Cargo.toml's libm).
    libm::tanhf(margin / scale)
}

/// With probability `share`, a uniformly random index among those of `moves` that `preferred`
/// accepts (if any); else `None` (the caller then picks uniformly). Epsilon-greedy playouts: the
/// preferred decisions get most of the play without making the playouts deterministic.
pub fn prefer<M>(moves: &[M], rng: &mut GameRng, share: f32, preferred: impl Fn(&M) -> bool) -> Option<usize> {
    let roll: f32 = rand::RngExt::random_range(rng, 0.0..1.0);
    if roll >= share {
        return None;
    }
    let count = moves.iter().filter(|m| preferred(m)).count();
    if count == 0 {
        return None;
    }
    let nth = pick_index(rng, count);
    moves.iter().enumerate().filter(|(_, m)| preferred(m)).nth(nth).map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{gravel, hidden_intention, inchworm, red_stone, throngs};
    use crate::rules::{Status, seeded};

    /// Along random games of `R`: the evaluation is zero-sum, inside [-1, 1], and the playout
    /// policy only picks listed decisions.
    fn check<R: Knowledge>(start: R) {
        let mut rng = seeded(5);
        let mut moves = Vec::new();
        for game in 0..3 {
            let mut pos = start.clone();
            for ply in 0..400 {
                if pos.status() != Status::Ongoing {
                    break;
                }
                let (first, second) = (pos.evaluate(Side::First), pos.evaluate(Side::Second));
                assert!((-1.0..=1.0).contains(&first), "game {game} ply {ply}: {first}");
                assert!((first + second).abs() < 1e-5, "game {game} ply {ply}: {first} vs {second}");
                pos.legal_moves(&mut moves);
                let i = pos.playout_pick(&moves, &mut rng).unwrap_or_else(|| pick_index(&mut rng, moves.len()));
                assert!(i < moves.len());
                pos.play_unchecked(&moves[i]);
            }
        }
    }

    #[test]
    fn every_game_evaluates_zero_sum_and_picks_listed_decisions() {
        check(gravel::Position::new(&Default::default()));
        check(red_stone::Position::new(&Default::default()));
        check(throngs::Position::new(&Default::default()));
        check(inchworm::Position::new(&Default::default()));
        check(hidden_intention::Position::new(&Default::default()));
    }

    #[test]
    fn squash_is_odd_and_bounded() {
        assert_eq!(squash(0.0, 3.0), 0.0);
        assert!((squash(2.0, 3.0) + squash(-2.0, 3.0)).abs() < 1e-6);
        assert!(squash(1e6, 1.0) <= 1.0 && squash(3.0, 3.0) > 0.7);
    }
}
