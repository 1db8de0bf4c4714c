//! Playout policies (how simulated games decide) and evaluators (how capped playouts score).

use crate::rules::{GameRng, Outcome, Rules, Side, Status, pick_index};

/// Chooses the decisions of a simulated game.
pub trait PlayoutPolicy<R: Rules>: Send + Sync {
    /// The decision to play at `pos` (at a simultaneous node: one of any side that has not
    /// sealed), or `None` when nobody can decide; `moves` is scratch.
    fn decide(&self, pos: &R, moves: &mut Vec<R::Move>, rng: &mut GameRng) -> Option<R::Move>;
}

/// Scores a position where a playout was cut off by its ply cap.
pub trait Evaluator<R: Rules>: Send + Sync {
    /// How good `pos` is for `side`, in [-1, 1] (1 = as good as a win). Values outside are clamped.
    fn evaluate(&self, pos: &R, side: Side) -> f32;
}

/// Uniformly random decisions: cheap and unbiased, the default.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformPolicy;

impl<R: Rules> PlayoutPolicy<R> for UniformPolicy {
    fn decide(&self, pos: &R, moves: &mut Vec<R::Move>, rng: &mut GameRng) -> Option<R::Move> {
        pos.random_move(rng, moves)
    }
}

/// Plays a decision that wins on the spot when it finds one among up to `tries` candidates
/// (sampled at random when there are more), otherwise a uniformly random one. Random playouts miss
/// obvious wins; this removes the worst of that noise at the cost of `tries` trial plays per ply.
#[derive(Clone, Copy, Debug)]
pub struct DecisivePolicy {
    pub tries: usize,
}

impl Default for DecisivePolicy {
    fn default() -> Self {
        DecisivePolicy { tries: 8 }
    }
}

impl<R: Rules> PlayoutPolicy<R> for DecisivePolicy {
    fn decide(&self, pos: &R, moves: &mut Vec<R::Move>, rng: &mut GameRng) -> Option<R::Move> {
        pos.legal_moves(moves);
        if moves.is_empty() {
            return None;
        }
        Some(moves[self.pick(pos, moves, rng)].clone())
    }
}

impl DecisivePolicy {
    /// The index in `moves` (every legal decision of `pos`, never empty) of the decision to play.
    fn pick<R: Rules>(&self, pos: &R, moves: &[R::Move], rng: &mut GameRng) -> usize {
        let n = moves.len();
        if n <= 1 {
            return 0;
        }
        let wins = |i: usize| {
            let m = &moves[i];
            let mover = pos.mover(m);
            let mut next = pos.clone();
            next.play_unchecked(m);
            next.status() == Status::Over(Outcome::Winner(mover))
        };
        if self.tries >= n {
            // Every candidate, from a random offset so ties between winning moves are not biased.
            let offset = pick_index(rng, n);
            if let Some(i) = (0..n).map(|k| (offset + k) % n).find(|&i| wins(i)) {
                return i;
            }
        } else {
            for _ in 0..self.tries {
                let i = pick_index(rng, n);
                if wins(i) {
                    return i;
                }
            }
        }
        pick_index(rng, n)
    }
}

/// The playout policy a level selects (one concrete type, so searchers built from levels share it).
#[derive(Clone, Copy, Debug)]
pub enum LevelPolicy {
    Uniform(UniformPolicy),
    Decisive(DecisivePolicy),
}

impl<R: Rules> PlayoutPolicy<R> for LevelPolicy {
    fn decide(&self, pos: &R, moves: &mut Vec<R::Move>, rng: &mut GameRng) -> Option<R::Move> {
        match self {
            LevelPolicy::Uniform(p) => p.decide(pos, moves, rng),
            LevelPolicy::Decisive(p) => p.decide(pos, moves, rng),
        }
    }
}

/// Scores every capped playout as a draw: the neutral choice when a game has no evaluation yet.
#[derive(Clone, Copy, Debug, Default)]
pub struct DrawEvaluator;

impl<R: Rules> Evaluator<R> for DrawEvaluator {
    fn evaluate(&self, _pos: &R, _side: Side) -> f32 {
        0.0
    }
}

/// Plays `pos` out with `policy` for at most `cap` decisions and returns its value for `First` in
/// [-1, 1]: the outcome's score if the game ended, else the evaluator's opinion. `moves` is scratch.
pub fn playout_value<R: Rules>(
    pos: &mut R,
    policy: &impl PlayoutPolicy<R>,
    evaluator: &impl Evaluator<R>,
    cap: u32,
    rng: &mut GameRng,
    moves: &mut Vec<R::Move>,
) -> f32 {
    playout_value_and_length(pos, policy, evaluator, cap, rng, moves).0
}

/// [`playout_value`] and the number of decisions the playout made.
pub fn playout_value_and_length<R: Rules>(
    pos: &mut R,
    policy: &impl PlayoutPolicy<R>,
    evaluator: &impl Evaluator<R>,
    cap: u32,
    rng: &mut GameRng,
    moves: &mut Vec<R::Move>,
) -> (f32, u32) {
    let mut plies = 0;
    while plies < cap {
        if let Status::Over(outcome) = pos.status() {
            return (outcome.score_for(Side::First), plies);
        }
        // An ongoing game with nobody able to decide is an engine bug; score it, don't spin.
        let Some(m) = policy.decide(pos, moves, rng) else { break };
        pos.play_unchecked(&m);
        plies += 1;
    }
    let value = match pos.status() {
        Status::Over(outcome) => outcome.score_for(Side::First),
        Status::Ongoing => {
            let value = evaluator.evaluate(pos, Side::First);
            // A broken evaluator (NaN) must not poison the tree's statistics.
            if value.is_finite() { value.clamp(-1.0, 1.0) } else { 0.0 }
        }
    };
    (value, plies)
}
