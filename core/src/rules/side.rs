//! The two sides of a two-player game and per-side storage.

use serde::{Deserialize, Serialize};

/// One of the two players. `First` moves first in every game (Gravel's Light, Red Stone's Black,
/// Throngs' Black, Inchworm's Black, Hidden Intention's A); each game names its sides in its own
/// notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// The side with that index (0 or 1); any other index is `Second`.
    #[inline]
    pub const fn from_index(i: usize) -> Side {
        if i == 0 { Side::First } else { Side::Second }
    }
}

/// A value for each side, indexed by [`Side`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BySide<T> {
    pub first: T,
    pub second: T,
}

impl<T> BySide<T> {
    pub const fn new(first: T, second: T) -> Self {
        BySide { first, second }
    }

    /// Builds both values from a function of the side.
    pub fn new_with(mut f: impl FnMut(Side) -> T) -> Self {
        BySide { first: f(Side::First), second: f(Side::Second) }
    }

    #[inline]
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::First => &self.first,
            Side::Second => &self.second,
        }
    }

    #[inline]
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::First => &mut self.first,
            Side::Second => &mut self.second,
        }
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        BySide { first: f(self.first), second: f(self.second) }
    }
}

impl<T> std::ops::Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        self.get(side)
    }
}

impl<T> std::ops::IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        self.get_mut(side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_an_involution_and_indexes_are_distinct() {
        for s in Side::BOTH {
            assert_eq!(s.opponent().opponent(), s);
            assert_ne!(s.opponent(), s);
            assert_eq!(Side::from_index(s.index()), s);
        }
    }

    #[test]
    fn by_side_indexes_by_side() {
        let mut v = BySide::new_with(|s| s.index() * 10);
        assert_eq!(v[Side::First], 0);
        assert_eq!(v[Side::Second], 10);
        v[Side::Second] += 1;
        assert_eq!(*v.get(Side::Second), 11);
        assert_eq!(v.map(|x| x + 1), BySide::new(1, 12));
    }
}
