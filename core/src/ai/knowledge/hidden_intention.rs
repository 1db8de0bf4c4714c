//! Hidden Intention: influence (controlled squares decide the game) and the figures still to place.

use super::Knowledge;
use super::{Calibration, Engine, PlayoutQuality};
use crate::games::hidden_intention::Position;
use crate::rules::Side;

impl Knowledge for Position {
    // Fitted by `stoneyard calibrate --game hidden-intention` on 40 self-played games (medium); the data:
    // data/calibration/hidden-intention.csv, the figures: docs/computer.md#calibrated-win-chances.
    const SHARPNESS: f32 = 0.297;
    const FIRST_SIDE_EDGE: f32 = -0.121;
    const TEMPO: f32 = 0.0;
    // The levels' numbers: see `ai::games` for how they were measured.
    const CALIBRATION: Calibration = Calibration {
        engines: [Engine::Mcts; 3],
        iterations: [4_000, 20_000, 180_000],
        playouts: [PlayoutQuality::Uniform; 3],
        playout_caps: [1_000; 3],
        review_iterations: 20_000,
        review_playout_cap: 1_000,
    };

    /// The count of controlled squares is the score (A's squares are `First`'s); the summed
    /// influence breaks ties between equal counts, since it shows which side holds its ground more
    /// firmly against the next removals.
    fn margin(&self, side: Side) -> f32 {
        let counts = self.field_counts();
        let squares = f32::from(counts.a) - f32::from(counts.b);
        let influence: i32 = self.influence_map().iter().map(|&v| i32::from(v)).sum();
        let for_first = squares + 0.02 * influence as f32;
        let value = for_first / 8.0;
        if side == Side::First { value } else { -value }
    }
}
