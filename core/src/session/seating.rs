//! Which side each seat plays. Seat `First` starts with the first side; a pie swap exchanges the
//! seats' colours. The only place that flip is written: the match and the arena both keep one.

use crate::rules::{Effect, EffectKind, Side};

/// The seats' colours now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seating {
    swapped: bool,
}

impl Seating {
    /// A pie swap exchanged the seats' colours.
    pub fn is_swapped(self) -> bool {
        self.swapped
    }

    /// The side `seat` plays.
    pub fn side_of(self, seat: Side) -> Side {
        Side::from_index(seat.index() ^ usize::from(self.swapped))
    }

    /// The seat playing `side`.
    pub fn seat_of(self, side: Side) -> Side {
        self.side_of(side)
    }

    /// The seating after a decision with these effects (a pie swap exchanges the colours).
    pub fn after<'a>(self, effects: impl IntoIterator<Item = &'a Effect>) -> Seating {
        let swaps = effects.into_iter().any(|e| matches!(e.kind, EffectKind::PieSwap { .. }));
        Seating { swapped: self.swapped ^ swaps }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pie_swap_exchanges_the_colours_and_another_exchanges_them_back() {
        let start = Seating::default();
        assert_eq!((start.side_of(Side::First), start.seat_of(Side::Second)), (Side::First, Side::Second));
        let swap = [Effect::new(0, EffectKind::PieSwap { by: Side::Second })];
        let swapped = start.after(&swap);
        assert!(swapped.is_swapped());
        assert_eq!((swapped.side_of(Side::First), swapped.seat_of(Side::First)), (Side::Second, Side::Second));
        assert_eq!(swapped.after(&[]), swapped, "other decisions keep the seating");
        assert_eq!(swapped.after(&swap), start);
    }
}
