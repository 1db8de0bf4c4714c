//! The judgement of a practice position: its one best turn, what it wins, and how tempting the
//! others are (`practice` judges turns, `commitments` simultaneous commitments).

use crate::rules::Side;

/// What a position offers the side to move: its unique best turn and what it wins, or why it is no
/// practice position.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub solution: Vec<String>,
    pub wins: Option<i32>,
    /// Other turns that take at once as much as the solution does (for a win: that take
    /// anything): how tempting the position is.
    pub tempting: usize,
    /// The side whose turn it is.
    pub learner: Side,
    /// Where both sides commit at once: how many commitments the learner had to choose from.
    pub choices: Option<usize>,
}
