//! The Hidden Intention position: the figures on the board, supplies, swaps, burned squares, and
//! each side's staged commitment.

use super::commitment::Staged;
pub use super::figures::*;
use super::options::HiddenIntentionOptions;
use crate::rules::{Outcome, Side};

/// What the last revealed attempt did, between the `place` phase and `end_check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Reveal {
    /// Both named the same square: it burned and nothing was placed.
    Burned { wave: u16 },
    /// Both figures were placed.
    Placed { wave: u16 },
}

/// A Hidden Intention position: the public state of spec §6.1 plus each side's staged (sealed or
/// partly entered) commitment for the current attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) board: [Option<Figure>; SQUARES],
    /// Occupied squares per side (index `Side::index`).
    pub(super) occupied: [SquareSet; 2],
    /// Net influence per square, kept up to date on every change of the board.
    pub(super) influence: [i8; SQUARES],
    /// The squares with a positive value (A's) and with a negative value (B's), kept with
    /// `influence` so legality and stability are bit operations.
    pub(super) controlled: [SquareSet; 2],
    pub(super) supply: [Supply; 2],
    pub(super) swaps_left: [u8; 2],
    pub(super) burned: SquareSet,
    pub(super) turn: u16,
    pub(super) attempt: u16,
    pub(super) outcome: Option<Outcome>,
    /// The decisions each side has entered for the current attempt. Hidden information: only the
    /// owner may look at its own (see `Position::hidden_from`).
    pub(super) staged: [Staged; 2],
    pub(super) reveal: Option<Reveal>,
    pub(super) options: HiddenIntentionOptions,
}

impl Position {
    /// The figure on `square`, if any.
    pub fn figure_at(&self, square: Square) -> Option<Figure> {
        self.board.get(square as usize).copied().flatten()
    }

    /// The squares holding `side`'s figures.
    pub fn occupied_by(&self, side: Side) -> SquareSet {
        self.occupied[side.index()]
    }

    /// The net influence of every square (A positive, B negative): the app's overlay.
    pub fn influence_map(&self) -> [i8; SQUARES] {
        self.influence
    }

    /// The net influence of one square.
    pub fn influence_at(&self, square: Square) -> i8 {
        self.influence[square as usize & 63]
    }

    /// How many squares each side controls now (the score if the game ended here).
    pub fn field_counts(&self) -> FieldCounts {
        let a = self.controlled[0].count_ones() as u8;
        let b = self.controlled[1].count_ones() as u8;
        FieldCounts { a, b, neutral: SQUARES as u8 - a - b }
    }

    pub fn supply(&self, side: Side) -> Supply {
        self.supply[side.index()]
    }

    pub fn swaps_left(&self, side: Side) -> u8 {
        self.swaps_left[side.index()]
    }

    /// The burned squares (closed to both players until the next successful attempt).
    pub fn burned(&self) -> SquareSet {
        self.burned
    }

    pub fn turn(&self) -> u16 {
        self.turn
    }

    pub fn attempt(&self) -> u16 {
        self.attempt
    }

    /// The decisions `side` has entered in this attempt. Only `side` itself may be shown them.
    pub fn staged(&self, side: Side) -> Staged {
        self.staged[side.index()]
    }

    /// Whether `side` has sealed its commitment for this attempt (public: the other side may
    /// know that a commitment is locked in, never what it is).
    pub fn is_sealed(&self, side: Side) -> bool {
        self.staged[side.index()].is_sealed()
    }

    /// How many figures `side` has on the board.
    pub fn figure_count(&self, side: Side) -> u32 {
        self.occupied[side.index()].count_ones()
    }

    /// Forgets what `side` has entered in this attempt (an undo of a partly entered or sealed
    /// commitment before the reveal).
    pub fn clear_staged(&mut self, side: Side) {
        self.staged[side.index()] = Staged::default();
    }

    /// The position as `viewer` may see it: the opponent's staged decisions are dropped, so
    /// nothing of a sealed commitment leaks to the other side (for the AI and hot-seat play).
    pub fn hidden_from(&self, viewer: Side) -> Position {
        let mut view = self.clone();
        view.staged[viewer.opponent().index()] = Staged::default();
        view
    }

    /// Puts a figure on an empty square and adds its influence.
    #[inline]
    pub(super) fn put(&mut self, square: Square, figure: Figure) {
        self.board[square as usize] = Some(figure);
        self.occupied[figure.owner.index()] |= bit(square);
        self.add_influence(figure, square, 1);
    }

    /// Takes the figure off `square` and removes its influence.
    #[inline]
    pub(super) fn take(&mut self, square: Square) -> Option<Figure> {
        let figure = self.board[square as usize].take()?;
        self.occupied[figure.owner.index()] &= !bit(square);
        self.add_influence(figure, square, -1);
        Some(figure)
    }

    /// Exchanges the figures on two occupied squares.
    pub(super) fn exchange(&mut self, a: Square, b: Square) {
        if let (Some(fa), Some(fb)) = (self.take(a), self.take(b)) {
            self.put(a, fb);
            self.put(b, fa);
        }
    }

    #[inline]
    fn add_influence(&mut self, figure: Figure, square: Square, direction: i8) {
        let amount_sign = sign(figure.owner) * direction;
        let p = pattern(figure.kind, square);
        let [mut positive, mut negative] = self.controlled;
        for i in 0..p.len as usize {
            let cell = p.cells[i];
            let v = self.influence[cell as usize] + p.amounts[i] * amount_sign;
            self.influence[cell as usize] = v;
            let b = bit(cell);
            positive = (positive & !b) | (((v > 0) as u64) << cell);
            negative = (negative & !b) | (((v < 0) as u64) << cell);
        }
        self.controlled = [positive, negative];
    }

    /// The squares `side` controls (positive for A, negative for B).
    pub fn controlled_by(&self, side: Side) -> SquareSet {
        self.controlled[side.index()]
    }

    /// The figures standing on enemy ground: A's on negative squares, B's on positive ones.
    pub fn unstable(&self) -> SquareSet {
        (self.occupied[0] & self.controlled[1]) | (self.occupied[1] & self.controlled[0])
    }

    /// Recomputes every square's influence from the figures, without the incremental bookkeeping
    /// (for checks).
    pub fn influence_from_scratch(&self) -> [i8; SQUARES] {
        let mut map = [0i8; SQUARES];
        for (square, figure) in self.board.iter().enumerate() {
            if let Some(f) = figure {
                for (cell, amount) in pattern(f.kind, square as Square).iter() {
                    map[cell as usize] += amount * sign(f.owner);
                }
            }
        }
        map
    }

    /// The outcome of counting fields on the current board (spec §7.2).
    pub fn counted_outcome(&self) -> Outcome {
        let c = self.field_counts();
        match c.a.cmp(&c.b) {
            std::cmp::Ordering::Greater => Outcome::Winner(Side::First),
            std::cmp::Ordering::Less => Outcome::Winner(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}
