//! Whose decision is next, and how a game stands or ended.

use super::Side;
use serde::{Deserialize, Serialize};

/// Who makes the next decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ToMove {
    /// A sequential node: this side decides.
    One(Side),
    /// A simultaneous node (Hidden Intention): every side that has not yet sealed its commitment
    /// decides, and the joint move is resolved once both have.
    Both,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    Winner(Side),
    Draw,
}

/// Whether a game goes on or how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status {
    Ongoing,
    Over(Outcome),
}

impl Status {
    pub fn is_over(self) -> bool {
        matches!(self, Status::Over(_))
    }

    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Status::Ongoing => None,
            Status::Over(o) => Some(o),
        }
    }
}

impl Outcome {
    /// +1 for a win of `side`, -1 for a loss, 0 for a draw: the reward search backs up.
    pub fn score_for(self, side: Side) -> f32 {
        match self {
            Outcome::Winner(w) if w == side => 1.0,
            Outcome::Winner(_) => -1.0,
            Outcome::Draw => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_zero_sum() {
        for o in [Outcome::Winner(Side::First), Outcome::Winner(Side::Second), Outcome::Draw] {
            assert_eq!(o.score_for(Side::First) + o.score_for(Side::Second), 0.0);
        }
        assert_eq!(Outcome::Winner(Side::Second).score_for(Side::Second), 1.0);
        assert!(Status::Over(Outcome::Draw).is_over());
        assert_eq!(Status::Ongoing.outcome(), None);
    }
}
