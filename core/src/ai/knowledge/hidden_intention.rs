//! Hidden Intention: influence (controlled squares decide the game) and the figures still to place.

use super::{Knowledge, squash};
use crate::games::hidden_intention::Position;
use crate::rules::Side;

impl Knowledge for Position {
    /// The count of controlled squares is the score (A's squares are `First`'s); the summed
    /// influence breaks ties between equal counts, since it shows which side holds its ground more
    /// firmly against the next removals.
    fn evaluate(&self, side: Side) -> f32 {
        let counts = self.field_counts();
        let squares = f32::from(counts.a) - f32::from(counts.b);
        let influence: i32 = self.influence_map().iter().map(|&v| i32::from(v)).sum();
        let for_first = squares + 0.02 * influence as f32;
        let value = squash(for_first, 8.0);
        if side == Side::First { value } else { -value }
    }
}
