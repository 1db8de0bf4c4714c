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
pub use super::presets::{Calibration, Engine, PlayoutQuality};
use crate::rules::{GameRng, Rules, Side, ToMove, pick_index};

/// What a game tells the search about itself. Every method has a neutral default.
pub trait Knowledge: Rules {
    /// How far this ongoing position stands in `side`'s favour, on the game's own scale (0: even,
    /// and the opponent's margin is its negative): the material and threats the game counts.
    fn margin(&self, _side: Side) -> f32 {
        0.0
    }

    /// How steeply a margin turns into a win chance: the first side wins from its margin `m`
    /// with chance `(1 + tanh(SHARPNESS · m + FIRST_SIDE_EDGE ± TEMPO)) / 2` (`+` when it is to
    /// move). All three are fitted per game on the computer's self-play results (`stoneyard
    /// calibrate`, its data in `data/calibration/`), as lichess fitted its centipawns to games.
    const SHARPNESS: f32 = 1.0;
    /// What being the first side is worth where the margins are even (negative where the second
    /// side wins more often).
    const FIRST_SIDE_EDGE: f32 = 0.0;
    /// What being the side to move is worth (a margin counted just after a side moved flatters
    /// it).
    const TEMPO: f32 = 0.0;

    /// The game's numbers for Easy, Medium and Hard and for the review (measured in the arena:
    /// docs/arena.md); [`Calibration::GENERIC`] for a small game with cheap playouts.
    const CALIBRATION: Calibration = Calibration::GENERIC;

    /// How good this ongoing position is for `side`, in [-1, 1], for the levels' play: `tanh` of
    /// the margin. Called once per playout that reaches its ply cap, so a margin may cost about
    /// one decision's work. (The levels were tuned and measured in the arena with this shape;
    /// the review and the analysis board score with [`Knowledge::expected_result`].)
    fn evaluate(&self, side: Side) -> f32 {
        // Portable: the same bits natively and in the browser (see Cargo.toml's libm).
        libm::tanhf(self.margin(side))
    }

    /// `side`'s expected result here (−1 a loss … 1 a win) by the fitted calibration: twice its
    /// win chance minus one, so that the review's win chances are win chances.
    fn expected_result(&self, side: Side) -> f32 {
        let edge = if side == Side::First { Self::FIRST_SIDE_EDGE } else { -Self::FIRST_SIDE_EDGE };
        let tempo = match self.to_move() {
            Some(ToMove::One(mover)) if mover == side => Self::TEMPO,
            Some(ToMove::One(_)) => -Self::TEMPO,
            _ => 0.0,
        };
        libm::tanhf(Self::SHARPNESS * self.margin(side) + edge + tempo)
    }

    /// `side`'s margin in the middle of its own turn, with what the rest of the turn can still
    /// surely gain (a search over whole turns ranks its partial turns by it). The margin by default.
    fn partial_turn_margin(&self, side: Side) -> f32 {
        self.margin(side)
    }

    /// The decision an informed playout plays here (`None` when nobody can decide); `moves` is
    /// scratch. Uniformly random by default ([`Rules::random_move`]); a game that prefers some
    /// decisions lists them with [`listed_playout_decision`]. It must be cheap: it runs at every ply.
    fn playout_decision(&self, moves: &mut Vec<Self::Move>, rng: &mut GameRng) -> Option<Self::Move> {
        self.random_move(rng, moves)
    }
}

/// A playout decision from the list of every legal one: `preference`'s index into it, or a
/// uniformly random one when it has none. `None` when the list is empty.
pub fn listed_playout_decision<R: Rules>(
    pos: &R,
    moves: &mut Vec<R::Move>,
    rng: &mut GameRng,
    preference: impl FnOnce(&R, &[R::Move], &mut GameRng) -> Option<usize>,
) -> Option<R::Move> {
    pos.legal_moves(moves);
    if moves.is_empty() {
        return None;
    }
    let i = preference(pos, moves, rng).unwrap_or_else(|| pick_index(rng, moves.len()));
    moves.get(i).cloned()
}

/// The playout policy of a level for a game with [`Knowledge`].
#[derive(Clone, Copy, Debug)]
pub struct GamePolicy {
    pub quality: PlayoutQuality,
}

impl<R: Knowledge> PlayoutPolicy<R> for GamePolicy {
    fn decide(&self, pos: &R, moves: &mut Vec<R::Move>, rng: &mut GameRng) -> Option<R::Move> {
        match self.quality {
            PlayoutQuality::Uniform => UniformPolicy.decide(pos, moves, rng),
            PlayoutQuality::Decisive => DecisivePolicy::default().decide(pos, moves, rng),
            PlayoutQuality::Informed => pos.playout_decision(moves, rng),
        }
    }
}

/// Scores capped playouts with [`Knowledge::evaluate`] (the levels' play).
#[derive(Clone, Copy, Debug, Default)]
pub struct GameEvaluator;

impl<R: Knowledge> Evaluator<R> for GameEvaluator {
    fn evaluate(&self, pos: &R, side: Side) -> f32 {
        pos.evaluate(side)
    }
}

/// Scores capped playouts with [`Knowledge::expected_result`], the calibrated win chance (the
/// review and the analysis board, which show it).
#[derive(Clone, Copy, Debug, Default)]
pub struct CalibratedEvaluator;

impl<R: Knowledge> Evaluator<R> for CalibratedEvaluator {
    fn evaluate(&self, pos: &R, side: Side) -> f32 {
        pos.expected_result(side)
    }
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

/// Tic-tac-toe, the tests' toy game: no knowledge, uniform playouts and the generic levels.
impl Knowledge for crate::games::tic_tac_toe::Position {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Status, seeded};

    /// Along random games of `R`: the evaluation and the expected result are zero-sum, inside
    /// [-1, 1], and the playout policy only picks listed decisions.
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
                let (first, second) = (pos.expected_result(Side::First), pos.expected_result(Side::Second));
                assert!((-1.0..=1.0).contains(&first), "game {game} ply {ply}: {first}");
                assert!((first + second).abs() < 1e-5, "game {game} ply {ply}: {first} vs {second}");
                let mut listed = Vec::new();
                pos.legal_moves(&mut listed);
                let m = pos.playout_decision(&mut moves, &mut rng).expect("an ongoing game has a decision");
                assert!(listed.contains(&m), "game {game} ply {ply}: {m:?} is not legal");
                pos.play_unchecked(&m);
            }
        }
    }

    #[test]
    fn every_game_evaluates_zero_sum_and_picks_listed_decisions() {
        macro_rules! check_each {
            ($($game:ty),* $(,)?) => {
                $(check(<$game as Rules>::new(&Default::default()));)*
            };
        }
        crate::for_each_game!(check_each);
    }
}
