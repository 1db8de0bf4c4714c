//! A commitment and the atomic decisions that write it: an optional swap, the figure, the target
//! square, a knight's facing.

use super::figures::{Corner, FigureChoice, Kind, Square};
use crate::rules::Side;

/// One atomic decision of one side while it writes its commitment. A commitment is entered in
/// stages: an optional `Swap`, then the `Figure`, then the `Target` square, then (knights only)
/// the `Facing`. The last decision seals the commitment; when both are sealed the attempt is
/// revealed and resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Exchange two of the side's own figures (`a` < `b`).
    Swap { side: Side, a: Square, b: Square },
    /// Take this figure (and pawn form) from the supply.
    Figure { side: Side, choice: FigureChoice },
    /// Place it on this square.
    Target { side: Side, square: Square },
    /// Point the knight toward this corner.
    Facing { side: Side, corner: Corner },
}

impl Move {
    /// The side making this decision.
    pub fn side(&self) -> Side {
        match *self {
            Move::Swap { side, .. }
            | Move::Figure { side, .. }
            | Move::Target { side, .. }
            | Move::Facing { side, .. } => side,
        }
    }
}

/// A complete commitment (spec §6.2): optional swap and the placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Commitment {
    /// The two squares of the swap, lower index first.
    pub swap: Option<(Square, Square)>,
    pub kind: Kind,
    pub target: Square,
}

/// The decisions a side has entered so far in the current attempt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Staged {
    pub swap: Option<(Square, Square)>,
    pub figure: Option<FigureChoice>,
    pub target: Option<Square>,
    pub facing: Option<Corner>,
}

impl Staged {
    /// The complete commitment, once every needed decision is made.
    pub fn commitment(&self) -> Option<Commitment> {
        let kind = self.figure?.kind(self.facing)?;
        Some(Commitment { swap: self.swap, kind, target: self.target? })
    }

    /// Whether the commitment is complete (sealed).
    pub fn is_sealed(&self) -> bool {
        self.commitment().is_some()
    }

    /// Whether nothing has been entered yet.
    pub fn is_empty(&self) -> bool {
        *self == Staged::default()
    }

    /// The decisions that build `c`, in stage order.
    pub fn decisions(side: Side, c: &Commitment) -> impl Iterator<Item = Move> {
        let swap = c.swap.map(|(a, b)| Move::Swap { side, a, b });
        let figure = Some(Move::Figure { side, choice: c.kind.choice() });
        let target = Some(Move::Target { side, square: c.target });
        let facing = match c.kind {
            Kind::Knight(corner) => Some(Move::Facing { side, corner }),
            _ => None,
        };
        [swap, figure, target, facing].into_iter().flatten()
    }
}
