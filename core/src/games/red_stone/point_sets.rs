//! Sets of board points as bits in public cell order, for Red Stone's move generation.
//!
//! Bit `cell` stands for the point numbered `cell` (`row * size + column`), so the bits of a set
//! come out in the order the legal decisions are listed, and "the points beside a set" is four
//! shifts and the column edges of the board's size.

use super::options::{MAX_SIZE, MIN_SIZE};
use crate::rules::Cell;

/// Words of the largest board (19 × 19 = 361 points).
const WORDS: usize = (MAX_SIZE as usize * MAX_SIZE as usize).div_ceil(64);

/// A set of points of one board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct PointSet([u64; WORDS]);

impl PointSet {
    pub(crate) const NONE: PointSet = PointSet([0; WORDS]);

    #[inline]
    pub(crate) fn insert(&mut self, cell: Cell) {
        let cell = cell as usize;
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    #[inline]
    pub(crate) fn remove(&mut self, cell: Cell) {
        let cell = cell as usize;
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    #[inline]
    pub(crate) fn set(&mut self, cell: Cell, member: bool) {
        if member { self.insert(cell) } else { self.remove(cell) }
    }

    #[inline]
    pub(crate) fn contains(&self, cell: Cell) -> bool {
        let cell = cell as usize;
        self.0[cell / 64] & (1 << (cell % 64)) != 0
    }

    #[inline]
    fn zip(self, other: PointSet, f: impl Fn(u64, u64) -> u64) -> PointSet {
        PointSet(std::array::from_fn(|i| f(self.0[i], other.0[i])))
    }

    #[inline]
    pub(crate) fn and(self, other: PointSet) -> PointSet {
        self.zip(other, |a, b| a & b)
    }

    #[inline]
    pub(crate) fn or(self, other: PointSet) -> PointSet {
        self.zip(other, |a, b| a | b)
    }

    #[inline]
    pub(crate) fn and_not(self, other: PointSet) -> PointSet {
        self.zip(other, |a, b| a & !b)
    }

    /// Every point moved `k` places up the numbering (`0 < k < 64`).
    #[inline]
    fn shifted_up(self, k: u32) -> PointSet {
        PointSet(std::array::from_fn(|i| (self.0[i] << k) | if i > 0 { self.0[i - 1] >> (64 - k) } else { 0 }))
    }

    /// Every point moved `k` places down the numbering (`0 < k < 64`).
    #[inline]
    fn shifted_down(self, k: u32) -> PointSet {
        PointSet(std::array::from_fn(|i| (self.0[i] >> k) | if i + 1 < WORDS { self.0[i + 1] << (64 - k) } else { 0 }))
    }

    /// The points, lowest first.
    #[inline]
    pub(crate) fn cells(self) -> impl Iterator<Item = Cell> {
        self.0.into_iter().enumerate().flat_map(|(i, mut word)| {
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let bit = word.trailing_zeros() as usize;
                    word &= word - 1;
                    (i * 64 + bit) as Cell
                })
            })
        })
    }
}

/// The board's points and its column edges, for one size.
struct Edges {
    on_board: PointSet,
    not_first_column: PointSet,
    not_last_column: PointSet,
}

const fn edges(size: usize) -> Edges {
    let mut on_board = [0u64; WORDS];
    let mut not_first_column = [0u64; WORDS];
    let mut not_last_column = [0u64; WORDS];
    let mut cell = 0;
    while cell < size * size {
        let bit = 1u64 << (cell % 64);
        on_board[cell / 64] |= bit;
        if cell % size != 0 {
            not_first_column[cell / 64] |= bit;
        }
        if cell % size != size - 1 {
            not_last_column[cell / 64] |= bit;
        }
        cell += 1;
    }
    Edges {
        on_board: PointSet(on_board),
        not_first_column: PointSet(not_first_column),
        not_last_column: PointSet(not_last_column),
    }
}

const SIZES: usize = (MAX_SIZE - MIN_SIZE) as usize + 1;

static EDGES: [Edges; SIZES] = {
    let mut all = [const { edges(0) }; SIZES];
    let mut i = 0;
    while i < SIZES {
        all[i] = edges(MIN_SIZE as usize + i);
        i += 1;
    }
    all
};

/// The points of a `size` board with at least one orthogonal neighbour in `set`.
#[inline]
pub(crate) fn beside(set: PointSet, size: usize) -> PointSet {
    let edges = &EDGES[size - MIN_SIZE as usize];
    let size = size as u32;
    let left_of = set.shifted_down(1).and(edges.not_last_column);
    let right_of = set.shifted_up(1).and(edges.not_first_column);
    let below = set.shifted_down(size);
    let above = set.shifted_up(size);
    left_of.or(right_of).or(below).or(above).and(edges.on_board)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the neighbours counted one by one, on every size, for scattered sets.
    #[test]
    fn beside_matches_the_neighbours_of_each_point() {
        for size in MIN_SIZE as usize..=MAX_SIZE as usize {
            for seed in 0..8u64 {
                let mut set = PointSet::NONE;
                for cell in 0..(size * size) as Cell {
                    if crate::rules::splitmix64_nth(seed, cell as u64).is_multiple_of(5) {
                        set.insert(cell);
                    }
                }
                let got = beside(set, size);
                for cell in 0..(size * size) as Cell {
                    let (row, column) = (cell as usize / size, cell as usize % size);
                    let mut want = false;
                    want |= column > 0 && set.contains(cell - 1);
                    want |= column + 1 < size && set.contains(cell + 1);
                    want |= row > 0 && set.contains(cell - size as Cell);
                    want |= row + 1 < size && set.contains(cell + size as Cell);
                    assert_eq!(got.contains(cell), want, "size {size} cell {cell}");
                }
                assert!(got.cells().all(|c| (c as usize) < size * size));
            }
        }
    }
}
