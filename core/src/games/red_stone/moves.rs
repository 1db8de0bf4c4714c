//! Moves, the legality rule of §4.3 (a fast local check and the literal definition), move
//! generation, the eye classification of §4.5 and the capture preview for hover hints.

use super::point_sets::{PointSet, beside};
use super::position::{Position, Stone};
use crate::rules::{Cell, Side};

/// One atomic decision: a stone on a point (the mover's colour or red), or the pie swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A stone on `at` (public numbering `row * size + column`): red, or the mover's colour.
    Place { at: Cell, red: bool },
    /// White takes Black's opening stone by exchanging colours (spec §3).
    Swap,
}

impl Move {
    /// A stone of the mover's colour on `at`.
    pub const fn stone(at: Cell) -> Move {
        Move::Place { at, red: false }
    }

    /// A red stone on `at`.
    pub const fn red(at: Cell) -> Move {
        Move::Place { at, red: true }
    }
}

/// What an empty point is for one side, by its neighbours (spec §4.1 and the table of §4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointClass {
    /// A stone (of any kind) is on the point.
    Occupied,
    /// The point has an empty neighbour: not isolated, not an eye.
    Open,
    /// Isolated, and every neighbour is red: nothing may ever be placed here.
    RedEye,
    /// Isolated, with neighbours of this side's colour (and maybe red) only.
    OwnEye,
    /// Isolated, with neighbours of the opponent's colour (and maybe red) only.
    EnemyEye,
    /// Isolated, with neighbours of both colours: not an eye.
    Contested,
}

/// Which kinds of stone the side to move may put on a point (the BGA-style highlighting of §4.3):
/// a point with one legal kind plays on click, a point with both opens a chooser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlacementChoice {
    None,
    OwnOnly,
    RedOnly,
    Both,
}

/// A black or white group, found by flood fill from the stones alone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    pub colour: Side,
    /// Its stones, in increasing cell order.
    pub stones: Vec<Cell>,
    /// Its distinct liberties, in increasing cell order.
    pub liberties: Vec<Cell>,
}

impl Position {
    // ----- the fast local form of §4.3 -----

    /// An own-colour stone on the empty padded point `at` is legal for `side`: no opponent
    /// group loses its last liberty, and the joined group keeps one.
    #[inline]
    pub(crate) fn own_legal_at(&self, at: u16, side: Side) -> bool {
        self.legal_kinds_at(at, side).0
    }

    /// A red stone on the empty padded point `at` is legal for `side`: some neighbouring group
    /// has `at` as its only liberty, and `side` has placed before (the first-turn rule, §4.6).
    #[inline]
    pub(crate) fn red_legal_at(&self, at: u16, side: Side) -> bool {
        self.stones[side.index()] > 0 && self.legal_kinds_at(at, side).1
    }

    /// Both checks of §4.3 in one pass over the neighbours: (own-colour legal, red legal),
    /// red ignoring the first-turn rule.
    #[inline]
    fn legal_kinds_at(&self, at: u16, side: Side) -> (bool, bool) {
        let own = Stone::of(side);
        let (mut keeps_liberty, mut enemy_in_atari, mut any_in_atari) = (false, false, false);
        for q in self.around(at) {
            let stone = self.stone(q);
            if stone == Stone::Empty {
                keeps_liberty = true;
            } else if stone.is_coloured() {
                let in_atari = self.libs(self.group(q)).is_single();
                any_in_atari |= in_atari;
                if stone == own {
                    keeps_liberty |= !in_atari;
                } else {
                    enemy_in_atari |= in_atari;
                }
            }
        }
        (keeps_liberty && !enemy_in_atari, any_in_atari)
    }

    /// Appends every legal decision of the side to move (`swap` first when offered).
    ///
    /// The rule of [`Self::legal_kinds_at`] on whole sets of points at once, from the sets the
    /// position keeps: an own-colour stone is legal on an empty point that is no enemy group's
    /// last liberty and has an empty neighbour (or, the rare rest, an own group beside it that
    /// keeps a liberty); a red stone on an empty point that is some group's last liberty.
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        if self.swap_open {
            out.push(Move::Swap);
        }
        let side = self.to_move;
        let empty = self.empty_points;
        let own = empty.and_not(self.last_liberty[side.opponent().index()]);
        let open = own.and(beside(empty, self.size));
        let red = if self.stones[side.index()] > 0 {
            empty.and(self.last_liberty[0].or(self.last_liberty[1]))
        } else {
            PointSet::NONE
        };
        for cell in own.or(red).cells() {
            let own_legal = open.contains(cell)
                || (own.contains(cell) && self.padded(cell).is_some_and(|at| self.own_legal_at(at, side)));
            if own_legal {
                out.push(Move::stone(cell));
            }
            if red.contains(cell) {
                out.push(Move::red(cell));
            }
        }
        debug_assert!(!out.is_empty(), "no legal placement in a running game (impossible by §4.7)");
        #[cfg(debug_assertions)]
        assert_eq!(*out, self.generate_point_by_point(), "the kept point sets went wrong");
    }

    /// The same list point by point (what the kept sets are checked against in tests).
    #[cfg(debug_assertions)]
    fn generate_point_by_point(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.swap_open {
            out.push(Move::Swap);
        }
        let side = self.to_move;
        for cell in self.cells() {
            let at = self.padded(cell).expect("a cell of the board");
            if self.stone(at) == Stone::Empty {
                let (own, red) = self.legal_kinds_at(at, side);
                if own {
                    out.push(Move::stone(cell));
                }
                if red && self.stones[side.index()] > 0 {
                    out.push(Move::red(cell));
                }
            }
        }
        out
    }

    /// Whether the side to move has any legal decision (stops at the first one found).
    pub(crate) fn has_legal_move(&self) -> bool {
        let side = self.to_move;
        self.swap_open
            || self.points().any(|at| {
                self.stone(at) == Stone::Empty && (self.own_legal_at(at, side) || self.red_legal_at(at, side))
            })
    }

    /// Whether `m` is legal here: the fast local check, without building a message.
    pub(crate) fn legal_fast(&self, m: &Move) -> bool {
        if self.result.is_some() {
            return false;
        }
        match *m {
            Move::Swap => self.swap_open,
            Move::Place { at, red } => match self.padded(at) {
                Some(at) if self.stone(at) == Stone::Empty => {
                    if red {
                        self.red_legal_at(at, self.to_move)
                    } else {
                        self.own_legal_at(at, self.to_move)
                    }
                }
                _ => false,
            },
        }
    }

    /// Why `m` is not legal here, in words a player understands; `None` when it is legal.
    pub fn why_illegal(&self, m: &Move) -> Option<String> {
        if self.result.is_some() {
            return Some("the game is over".to_string());
        }
        let side = self.to_move;
        let (colour, other) = (colour_name(side), colour_name(side.opponent()));
        let (cell, red) = match *m {
            Move::Swap if self.swap_open => return None,
            Move::Swap => {
                return Some("swap is only possible once, as White's answer to Black's first stone".to_string());
            }
            Move::Place { at, red } => (at, red),
        };
        let Some(at) = self.padded(cell) else {
            return Some(format!("point {cell} is not on this {0}×{0} board", self.size));
        };
        let name = self.point_name(at);
        if self.stone(at) != Stone::Empty {
            return Some(format!("{name} is occupied"));
        }
        if red {
            if self.stones[side.index()] == 0 {
                return Some(format!("{}'s first placement must be a {colour} stone, not a red one", title(colour)));
            }
            if !self.red_legal_at(at, side) {
                let hint = if self.own_legal_at(at, side) {
                    format!("; {name} without '*' places a {colour} stone")
                } else {
                    String::new()
                };
                return Some(format!("a red stone must capture, and no group has {name} as its last liberty{hint}"));
            }
            return None;
        }
        if self.own_legal_at(at, side) {
            return None;
        }
        let hint = if self.red_legal_at(at, side) { format!(" (a red stone, {name}*, would)") } else { String::new() };
        let captures_enemy = self
            .around(at)
            .into_iter()
            .any(|q| self.stone(q) == Stone::of(side.opponent()) && self.libs(self.group(q)).is_single());
        Some(if captures_enemy {
            format!(
                "a {colour} stone on {name} would take the last liberty of a {other} group, and only red stones may capture{hint}"
            )
        } else {
            format!(
                "a {colour} stone on {name} would leave its own group without liberties, and only red stones may capture{hint}"
            )
        })
    }

    // ----- hints for the UI -----

    /// Which kinds of stone the side to move may put on `cell`.
    pub fn placement_choice(&self, cell: Cell) -> PlacementChoice {
        let Some(at) = self.padded(cell) else { return PlacementChoice::None };
        if self.result.is_some() || self.stone(at) != Stone::Empty {
            return PlacementChoice::None;
        }
        let side = self.to_move;
        match (self.own_legal_at(at, side), self.red_legal_at(at, side)) {
            (true, true) => PlacementChoice::Both,
            (true, false) => PlacementChoice::OwnOnly,
            (false, true) => PlacementChoice::RedOnly,
            (false, false) => PlacementChoice::None,
        }
    }

    /// The eye classification of §4.1/§4.5 of `cell`, seen by `side`.
    pub fn point_class(&self, cell: Cell, side: Side) -> PointClass {
        let Some(at) = self.padded(cell) else { return PointClass::Occupied };
        if self.stone(at) != Stone::Empty {
            return PointClass::Occupied;
        }
        let (mut own, mut enemy) = (false, false);
        for q in self.around(at) {
            match self.stone(q) {
                Stone::Empty => return PointClass::Open,
                s if s == Stone::of(side) => own = true,
                s if s.is_coloured() => enemy = true,
                _ => {}
            }
        }
        match (own, enemy) {
            (true, true) => PointClass::Contested,
            (true, false) => PointClass::OwnEye,
            (false, true) => PointClass::EnemyEye,
            (false, false) => PointClass::RedEye,
        }
    }

    /// Dry run of any decision: the groups it would remove (only a red stone removes anything).
    pub fn would_remove(&self, m: &Move) -> Vec<Vec<Cell>> {
        match *m {
            Move::Place { at, red: true } => self.removal_preview(at),
            _ => Vec::new(),
        }
    }

    /// Dry run: the groups a red stone on `cell` would remove (each group's stones in increasing
    /// order), whether or not it is legal for the side to move. Empty when it captures nothing.
    pub fn removal_preview(&self, cell: Cell) -> Vec<Vec<Cell>> {
        let Some(at) = self.padded(cell) else { return Vec::new() };
        if self.stone(at) != Stone::Empty {
            return Vec::new();
        }
        let mut seen: Vec<u16> = Vec::new();
        let mut groups = Vec::new();
        for q in self.around(at) {
            if self.stone(q).is_coloured() {
                let g = self.group(q);
                if self.libs(g).is_single() && !seen.contains(&g) {
                    seen.push(g);
                    let mut stones: Vec<Cell> = self.group_stones(g).into_iter().map(|s| self.public(s)).collect();
                    stones.sort_unstable();
                    groups.push(stones);
                }
            }
        }
        groups
    }

    // ----- the literal rule, from the stones alone -----

    /// Every black and white group with its liberties, by flood fill over the stones (no
    /// incremental bookkeeping involved), in order of each group's lowest cell.
    pub fn groups(&self) -> Vec<Group> {
        let stones: Vec<Stone> = self.cells().map(|c| self.stone_at(c)).collect();
        flood_groups(self.size, &stones)
    }

    /// The literal legality rule of §4.3: put the stone on the point without removing anything,
    /// find the set Z of black/white groups without liberties on that board; an own stone is legal
    /// iff Z is empty, a red one iff Z is not (and the mover has placed before, §4.6).
    /// Slow (flood fill); for tests and cross-checks.
    pub fn legal_by_definition(&self, m: &Move) -> bool {
        if self.result.is_some() {
            return false;
        }
        let Move::Place { at, red } = *m else { return self.swap_open };
        let n = self.size * self.size;
        if at as usize >= n || self.stone_at(at) != Stone::Empty {
            return false;
        }
        let mut stones: Vec<Stone> = self.cells().map(|c| self.stone_at(c)).collect();
        stones[at as usize] = if red { Stone::Red } else { Stone::of(self.to_move) };
        let bounded = flood_groups(self.size, &stones).iter().any(|g| g.liberties.is_empty());
        if red { bounded && self.stone_count(self.to_move) > 0 } else { !bounded }
    }
}

/// The groups of a plain board (`stones[row * size + column]`).
pub(crate) fn flood_groups(size: usize, stones: &[Stone]) -> Vec<Group> {
    let mut seen = vec![false; stones.len()];
    let mut groups = Vec::new();
    for start in 0..stones.len() {
        let Some(colour) = stones[start].owner() else { continue };
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let (mut members, mut liberties, mut stack) = (Vec::new(), Vec::new(), vec![start]);
        while let Some(p) = stack.pop() {
            members.push(p as Cell);
            let (x, y) = (p % size, p / size);
            let mut visit = |q: usize| {
                if stones[q] == stones[start] && !seen[q] {
                    seen[q] = true;
                    stack.push(q);
                } else if stones[q] == Stone::Empty && !liberties.contains(&(q as Cell)) {
                    liberties.push(q as Cell);
                }
            };
            if x > 0 {
                visit(p - 1);
            }
            if x + 1 < size {
                visit(p + 1);
            }
            if y > 0 {
                visit(p - size);
            }
            if y + 1 < size {
                visit(p + size);
            }
        }
        members.sort_unstable();
        liberties.sort_unstable();
        groups.push(Group { colour, stones: members, liberties });
    }
    groups
}

/// "Black" from "black".
fn title(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// "black" / "white".
pub(crate) fn colour_name(side: Side) -> &'static str {
    match side {
        Side::First => "black",
        Side::Second => "white",
    }
}
