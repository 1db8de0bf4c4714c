//! The Inchworm position (spec §3) and the board geometry of each topology.
//!
//! Stacks are bitboards per colour plus a height per cell; then stocks, prisoners, scores and
//! counters, and a distribution being chosen cell by cell.

use super::options::{InchwormOptions, Topology};
use crate::rules::{FileLetters, Outcome, Side, cell_name};

/// `a1` … `h8` (the board's squares as the notation names them).
pub fn square_name(c: Sq) -> String {
    if c >= 64 {
        return "??".to_string();
    }
    cell_name(FileLetters::Lower, (c % 8) as usize, (c / 8) as usize)
}

/// Cell index `rank * 8 + file`: a1 = 0, h1 = 7, a8 = 56, h8 = 63.
pub type Sq = u8;

/// "No cell" in step tables.
pub const NO_SQ: Sq = u8::MAX;

/// The most stones one stack can hold (all 25 stones of a side).
pub const MAX_HEIGHT: usize = 25;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// King directions as (Δfile, Δrank): up, right, down, left, then the diagonals
/// (up-right, down-right, down-left, up-left). Direction `d` and `opposite(d)` point back to back.
pub const DIRS: [(i8, i8); 8] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];

/// The direction pointing the other way.
pub const fn opposite(d: usize) -> usize {
    if d < 4 { (d + 2) % 4 } else { 4 + (d - 4 + 2) % 4 }
}

/// Iterates the set bits of a mask as cells, lowest first.
#[inline]
pub fn bits(mut mask: u64) -> impl Iterator<Item = Sq> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let c = mask.trailing_zeros() as Sq;
            mask &= mask - 1;
            Some(c)
        }
    })
}

#[inline]
pub const fn bit(c: Sq) -> u64 {
    1u64 << c
}

/// Neighbourhoods and line steps of one topology.
#[derive(Debug)]
pub struct Geometry {
    pub topology: Topology,
    /// King neighbours of each cell.
    pub king: [u64; 64],
    /// `step[c][d]`: the cell one step from `c` in direction `d`, or `NO_SQ` off the board.
    pub step: [[Sq; 8]; 64],
}

impl Geometry {
    /// Cells sharing a side with a cell of `m` (the source cells themselves only if they neighbour
    /// another cell of `m`).
    #[inline]
    pub fn orth_spread(&self, m: u64) -> u64 {
        horizontal(self.topology, m) | vertical(self.topology, m)
    }

    /// Cells a king step away from a cell of `m`.
    #[inline]
    pub fn king_spread(&self, m: u64) -> u64 {
        let h = horizontal(self.topology, m);
        h | vertical(self.topology, m | h)
    }

    /// The cells of `within` connected to `seed` (also within) through steps of `spread`.
    #[inline]
    pub fn flood(&self, seed: u64, within: u64, king: bool) -> u64 {
        let mut region = seed & within;
        loop {
            let grown = (region | if king { self.king_spread(region) } else { self.orth_spread(region) }) & within;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

#[inline]
const fn horizontal(t: Topology, m: u64) -> u64 {
    let plain = ((m << 1) & !FILE_A) | ((m >> 1) & !FILE_H);
    match t {
        Topology::Flat => plain,
        Topology::Cylinder | Topology::Torus => plain | ((m & FILE_H) >> 7) | ((m & FILE_A) << 7),
    }
}

#[inline]
const fn vertical(t: Topology, m: u64) -> u64 {
    match t {
        Topology::Torus => m.rotate_left(8) | m.rotate_right(8),
        Topology::Flat | Topology::Cylinder => (m << 8) | (m >> 8),
    }
}

const fn build(topology: Topology) -> Geometry {
    let mut king = [0u64; 64];
    let mut step = [[NO_SQ; 8]; 64];
    let wrap_files = !matches!(topology, Topology::Flat);
    let wrap_ranks = matches!(topology, Topology::Torus);
    let mut c = 0;
    while c < 64 {
        let (file, rank) = ((c % 8) as i32, (c / 8) as i32);
        let mut d = 0;
        while d < 8 {
            let (mut f, mut r) = (file + DIRS[d].0 as i32, rank + DIRS[d].1 as i32);
            if wrap_files {
                f = f.rem_euclid(8);
            }
            if wrap_ranks {
                r = r.rem_euclid(8);
            }
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                let to = (r * 8 + f) as usize;
                step[c][d] = to as Sq;
                king[c] |= 1u64 << to;
            }
            d += 1;
        }
        c += 1;
    }
    Geometry { topology, king, step }
}

static GEOMETRIES: [Geometry; 3] = [build(Topology::Flat), build(Topology::Cylinder), build(Topology::Torus)];

impl Topology {
    pub fn geometry(self) -> &'static Geometry {
        &GEOMETRIES[self as usize]
    }
}

/// A distribution in progress (the staged sub-decisions of action 6.3): the path chosen so far,
/// source first. The board does not change until the path is complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spread {
    pub path: [Sq; MAX_HEIGHT],
    pub len: u8,
    /// The cells of `path`.
    pub visited: u64,
}

impl Spread {
    pub fn new(source: Sq) -> Self {
        let mut path = [NO_SQ; MAX_HEIGHT];
        path[0] = source;
        Spread { path, len: 1, visited: bit(source) }
    }
    pub fn cells(&self) -> &[Sq] {
        &self.path[..self.len as usize]
    }
    pub fn source(&self) -> Sq {
        self.path[0]
    }
    pub fn end(&self) -> Sq {
        self.path[self.len as usize - 1]
    }
    pub fn push(&mut self, c: Sq) {
        self.path[self.len as usize] = c;
        self.len += 1;
        self.visited |= bit(c);
    }
}

/// A collect being chosen cell by cell along one line (the staged sub-decisions of action 6.2):
/// the run so far from the first chosen end; `dir` is fixed by the second cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CollectRun {
    pub start: Sq,
    /// Direction index into [`DIRS`]; meaningless while `len == 1`.
    pub dir: u8,
    pub len: u8,
    pub end: Sq,
    pub cells: u64,
}

impl CollectRun {
    pub fn new(start: Sq) -> Self {
        CollectRun { start, dir: 0, len: 1, end: start, cells: bit(start) }
    }
    /// The cells in order from the first chosen end.
    pub fn ordered(&self, geom: &Geometry) -> Vec<Sq> {
        let mut v = vec![self.start];
        let mut c = self.start;
        for _ in 1..self.len {
            c = geom.step[c as usize][self.dir as usize];
            v.push(c);
        }
        v
    }
}

/// What the action of this ply did, carried from `place` through `capture_sweep` to `end_check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PendingResolution {
    pub was_pass: bool,
    pub captured: u32,
    /// The cells the action filled (empty before it): only a group holding or touching one of
    /// them can have lost its last liberty.
    pub filled: u64,
}

/// A complete game state (spec §3). Side::First is Black, Side::Second is White.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) options: InchwormOptions,
    /// Stack height per cell (0 = empty); the colour is in `occupied`.
    pub(crate) height: [u8; 64],
    /// Cells holding a stack of each side (index `Side::index`).
    pub(crate) occupied: [u64; 2],
    pub(crate) stock: [u8; 2],
    /// `held[c]`: opponent stones that side `c` holds as prisoners.
    pub(crate) held: [u8; 2],
    pub(crate) score: [u32; 2],
    pub(crate) side: Side,
    pub(crate) quiet: u32,
    pub(crate) pass_streak: bool,
    pub(crate) result: Option<Outcome>,
    /// A distribution being chosen cell by cell (staged decisions), if any.
    pub(crate) spread: Option<Spread>,
    /// A collect being chosen cell by cell (staged decisions), if any.
    pub(crate) collect: Option<CollectRun>,
    /// Set by `place` when an action is complete; consumed by `end_check`.
    pub(crate) resolution: Option<PendingResolution>,
}

impl Position {
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.options.topology.geometry()
    }

    /// The stack on a cell: its owner and height.
    pub fn stack(&self, c: Sq) -> Option<(Side, u8)> {
        let h = self.height[c as usize];
        if h == 0 {
            None
        } else if self.occupied[0] & bit(c) != 0 {
            Some((Side::First, h))
        } else {
            Some((Side::Second, h))
        }
    }

    #[inline]
    pub fn empty_mask(&self) -> u64 {
        !(self.occupied[0] | self.occupied[1])
    }

    /// The side whose action it is (also after the game ended: who would move next).
    pub fn side_to_act(&self) -> Side {
        self.side
    }
    pub fn stock(&self, side: Side) -> u8 {
        self.stock[side.index()]
    }
    /// Enemy stones `side` holds as prisoners.
    pub fn held_by(&self, side: Side) -> u8 {
        self.held[side.index()]
    }
    pub fn score(&self, side: Side) -> u32 {
        self.score[side.index()]
    }
    pub fn quiet(&self) -> u32 {
        self.quiet
    }
    pub fn pass_streak(&self) -> bool {
        self.pass_streak
    }
    /// The path of a distribution being chosen, source first.
    pub fn pending_spread(&self) -> Option<&[Sq]> {
        self.spread.as_ref().map(|s| s.cells())
    }

    /// The cells of a collect being chosen, in the order chosen.
    pub fn pending_collect(&self) -> Option<Vec<Sq>> {
        self.collect.as_ref().map(|r| r.ordered(self.geometry()))
    }

    /// Whether an action is half chosen (a staged collect or distribution).
    pub fn action_under_way(&self) -> bool {
        self.spread.is_some() || self.collect.is_some()
    }

    /// Stones of `side` on the board.
    pub fn stones_on_board(&self, side: Side) -> u32 {
        bits(self.occupied[side.index()]).map(|c| self.height[c as usize] as u32).sum()
    }

    /// The conservation invariant of spec §3 for one side.
    pub fn conserves_stones(&self, side: Side) -> bool {
        self.stones_on_board(side) + self.stock(side) as u32 + self.held_by(side.opponent()) as u32
            == self.options.pieces_of(side) as u32
    }

    /// Stones of each side in groups with no liberty (spec §7 steps 1–2), as cell masks.
    pub fn dead_stones(&self) -> [u64; 2] {
        let geom = self.geometry();
        let empty = self.empty_mask();
        let touching_liberty = geom.orth_spread(empty);
        let mut dead = [0; 2];
        for (i, d) in dead.iter_mut().enumerate() {
            let own = self.occupied[i];
            let alive = geom.flood(own & touching_liberty, own, false);
            *d = own & !alive;
        }
        dead
    }

    /// [`Position::dead_stones`] after an action that filled the cells `filled` in a position
    /// where every group had a liberty: only the groups holding or touching a filled cell are looked at.
    pub(crate) fn dead_stones_after_filling(&self, filled: u64) -> [u64; 2] {
        let mut dead = [0; 2];
        if filled == 0 {
            return dead;
        }
        let geom = self.geometry();
        let near = filled | geom.orth_spread(filled);
        let touching_liberty = geom.orth_spread(self.empty_mask());
        for (i, d) in dead.iter_mut().enumerate() {
            let own = self.occupied[i];
            // A stone next to a liberty keeps its whole group alive.
            let suspects = own & near & !touching_liberty;
            if suspects != 0 {
                let groups = geom.flood(suspects, own, false);
                *d = groups & !geom.flood(groups & touching_liberty, groups, false);
            }
        }
        dead
    }

    /// The outcome when the game ends now: higher score wins, equal scores draw.
    pub(crate) fn outcome_by_score(&self) -> Outcome {
        use std::cmp::Ordering::*;
        match self.score[0].cmp(&self.score[1]) {
            Greater => Outcome::Winner(Side::First),
            Less => Outcome::Winner(Side::Second),
            Equal => Outcome::Draw,
        }
    }

    /// Whether the target or the quiet limit ends the game in this state (spec §8 rules 1–2).
    pub(crate) fn limit_reached(&self) -> bool {
        let target = self.options.target;
        self.score[0] >= target
            || self.score[1] >= target
            || (self.options.quiet_limit > 0 && self.quiet >= self.options.quiet_limit)
    }
}
