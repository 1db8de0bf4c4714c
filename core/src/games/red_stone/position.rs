//! The Red Stone position: a padded board with incrementally kept groups and liberty sums.
//!
//! Groups are kept the way fast Go engines keep them: every stone names its group's
//! representative and sits on a cyclic list of the group's stones, and each representative holds
//! the group's *pseudo-liberties* (one entry per stone–empty-point adjacency) as a count, a sum
//! and a sum of squares. A group has no liberty iff the count is zero, and exactly one distinct
//! liberty iff `sum² == count · sumsq` (all entries equal, Cauchy–Schwarz), which is all the
//! legality rule of §4.3 needs. Nothing is recomputed by flood fill on the hot path.

use super::options::RedStoneOptions;
use super::point_sets::PointSet;
use crate::rules::{Cell, Rules, Side, splitmix64_nth};

/// What occupies a board point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Stone {
    Empty = 0,
    Black = 1,
    White = 2,
    /// The neutral, permanent red stone.
    Red = 3,
    /// Off the board (the padding ring around it); never a stone, never a liberty.
    Border = 4,
}

impl Stone {
    /// The stone colour of a side (`First` is Black).
    #[inline]
    pub const fn of(side: Side) -> Stone {
        match side {
            Side::First => Stone::Black,
            Side::Second => Stone::White,
        }
    }

    /// The side that owns this stone (none for empty, red, border).
    #[inline]
    pub const fn owner(self) -> Option<Side> {
        match self {
            Stone::Black => Some(Side::First),
            Stone::White => Some(Side::Second),
            _ => None,
        }
    }

    /// Black or white: stones that form groups.
    #[inline]
    pub const fn is_coloured(self) -> bool {
        matches!(self, Stone::Black | Stone::White)
    }

    /// The character the position text uses.
    pub const fn symbol(self) -> char {
        match self {
            Stone::Empty => '.',
            Stone::Black => 'X',
            Stone::White => 'O',
            Stone::Red => 'R',
            Stone::Border => '#',
        }
    }
}

/// Why a game ended (spec §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The mover removed the opponent's last stones.
    Annihilation,
    /// The mover removed every black and white stone at once, and wins (decision D8).
    DoubleAnnihilation,
    /// The mover removed his own last stones while the opponent kept some, and loses.
    SelfAnnihilation,
    /// The side to move had no legal placement and loses. Impossible by §4.7; this is only the
    /// deterministic fallback of decision D10.
    NoLegalPlacement,
}

impl EndReason {
    /// The reason as a game record's `result:` line writes it (spec §6.3).
    pub const fn record_name(self) -> &'static str {
        match self {
            EndReason::Annihilation => "annihilation",
            EndReason::DoubleAnnihilation => "double-annihilation",
            EndReason::SelfAnnihilation => "self-annihilation",
            EndReason::NoLegalPlacement => "no-legal-placement",
        }
    }
}

/// The pseudo-liberties of a group: one entry per (stone, empty neighbour) adjacency.
///
/// `single` caches "exactly one distinct liberty", refreshed on every update: updates touch a
/// handful of groups per move, while move generation asks the question hundreds of times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Liberties {
    count: u32,
    sum: u32,
    sum_sq: u32,
    single: bool,
}

impl Liberties {
    #[inline]
    fn add(&mut self, at: u16) {
        let at = at as u32;
        self.count += 1;
        self.sum += at;
        self.sum_sq += at * at;
        self.refresh();
    }

    #[inline]
    fn remove(&mut self, at: u16) {
        let at = at as u32;
        self.count -= 1;
        self.sum -= at;
        self.sum_sq -= at * at;
        self.refresh();
    }

    #[inline]
    fn absorb(&mut self, other: Liberties) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.refresh();
    }

    /// All entries name the same point iff `sum² == count · sumsq` (equality in Cauchy–Schwarz).
    #[inline]
    fn refresh(&mut self) {
        self.single =
            self.count > 0 && (self.sum as u64) * (self.sum as u64) == (self.count as u64) * (self.sum_sq as u64);
    }

    /// No liberty at all: the group is bounded.
    #[inline]
    pub(crate) fn is_empty(self) -> bool {
        self.count == 0
    }

    /// Exactly one distinct liberty (every entry names the same point).
    #[inline]
    pub(crate) fn is_single(self) -> bool {
        self.single
    }

    /// The one liberty, when there is exactly one (every entry names it, so it is their mean).
    #[inline]
    pub(crate) fn single_point(self) -> Option<u16> {
        self.single.then(|| (self.sum / self.count) as u16)
    }
}

/// Everything the board keeps about one point (group fields are meaningful on representatives).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub(crate) stone: Stone,
    /// The representative point of the stone's group.
    pub(crate) group: u16,
    /// The next stone of the same group (a cyclic list).
    pub(crate) next: u16,
    /// Stones in the group (on the representative).
    pub(crate) size: u16,
    /// Pseudo-liberties of the group (on the representative).
    pub(crate) libs: Liberties,
}

impl Slot {
    pub(super) const EMPTY: Slot = Slot {
        stone: Stone::Empty,
        group: 0,
        next: 0,
        size: 0,
        libs: Liberties { count: 0, sum: 0, sum_sq: 0, single: false },
    };
    pub(super) const BORDER: Slot = Slot { stone: Stone::Border, ..Slot::EMPTY };
}

/// What `place` left for the later phases of the same move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    Nothing,
    /// A stone was placed on this padded point.
    Placed {
        at: u16,
        red: bool,
    },
    /// The pie swap was taken.
    Swapped,
}

/// A Red Stone position: the board, the colour to move, whether the pie offer is open, the result.
///
/// Sides are colours: `Side::First` is Black, `Side::Second` is White. Seats (who plays which
/// colour after a swap) are not part of the rules; see `swapped` for the record.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) options: RedStoneOptions,
    pub(crate) size: usize,
    /// Padded row length (`size + 2`).
    pub(crate) stride: usize,
    pub(crate) board: Vec<Slot>,
    pub(crate) to_move: Side,
    /// White may answer Black's first stone with `swap` (spec §3).
    pub(crate) swap_open: bool,
    /// The swap was taken in this game (P2 plays Black). Not part of the position text.
    pub(crate) swapped: bool,
    /// Black and white stones on the board.
    pub(crate) stones: [u16; 2],
    pub(crate) reds: u16,
    pub(crate) result: Option<(Side, EndReason)>,
    pub(crate) hash: u64,
    pub(crate) pending: Pending,
    /// The empty points, and for each colour the points that are the last liberty of one of its
    /// groups: kept move by move for the move generator (only the points a move touches change).
    pub(crate) empty_points: PointSet,
    pub(crate) last_liberty: [PointSet; 2],
}

impl PartialEq for Position {
    /// Equal positions are those with equal position text (group bookkeeping is history-dependent).
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size
            && self.to_move == other.to_move
            && self.swap_open == other.swap_open
            && self.result == other.result
            && self.board.iter().zip(&other.board).all(|(a, b)| a.stone == b.stone)
    }
}

impl Eq for Position {}

/// Zobrist keys: one per (padded point, stone kind) of the largest board, plus side and swap keys.
const ZOBRIST_POINTS: usize = MAX_PADDED * 3;
/// Padded points of the largest board (19 + 2 border rows and columns).
const MAX_PADDED: usize = 21 * 21;
static ZOBRIST: [u64; ZOBRIST_POINTS + 2] = zobrist_table();

/// The keys are the outputs of one seeded SplitMix64 stream, in order.
const fn zobrist_table() -> [u64; ZOBRIST_POINTS + 2] {
    let mut table = [0u64; ZOBRIST_POINTS + 2];
    let mut i = 0;
    while i < table.len() {
        table[i] = splitmix64_nth(0x5EED_0F2E_D570_AE11, i as u64);
        i += 1;
    }
    table
}

const ZOBRIST_WHITE_TO_MOVE: u64 = ZOBRIST[ZOBRIST_POINTS];
const ZOBRIST_SWAP_OPEN: u64 = ZOBRIST[ZOBRIST_POINTS + 1];

impl Position {
    /// Points per side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The colour to move (also after the game ended: the side that would move next).
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// Whether White may answer Black's first stone with `swap` now.
    pub fn swap_open(&self) -> bool {
        self.swap_open
    }

    /// Whether the pie swap was taken in this game (then the second player plays Black).
    /// Positions read from text do not know this and say `false`.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// The winner and the reason, once the game is over.
    pub fn result(&self) -> Option<(Side, EndReason)> {
        self.result
    }

    /// Black or white stones of `side` on the board.
    pub fn stone_count(&self, side: Side) -> usize {
        self.stones[side.index()] as usize
    }

    /// Red stones on the board.
    pub fn red_count(&self) -> usize {
        self.reds as usize
    }

    /// The point `cell` (public numbering `row * size + column`, row 0 at the bottom).
    pub fn stone_at(&self, cell: Cell) -> Stone {
        match self.padded(cell) {
            Some(at) => self.board[at as usize].stone,
            None => Stone::Border,
        }
    }

    /// The public cell number of column `x`, row `y` (both 0-based, row 0 at the bottom).
    pub fn cell(&self, x: usize, y: usize) -> Option<Cell> {
        (x < self.size && y < self.size).then(|| (y * self.size + x) as Cell)
    }

    /// Every point of the board in public numbering.
    pub fn cells(&self) -> std::ops::Range<Cell> {
        0..(self.size * self.size) as Cell
    }

    /// The on-board orthogonal neighbours of a cell.
    pub fn neighbours(&self, cell: Cell) -> Vec<Cell> {
        let Some(at) = self.padded(cell) else { return Vec::new() };
        self.around(at)
            .into_iter()
            .filter(|&q| self.board[q as usize].stone != Stone::Border)
            .map(|q| self.public(q))
            .collect()
    }

    // ----- internal numbering -----

    /// Public cell → padded index, or `None` off the board.
    #[inline]
    pub(crate) fn padded(&self, cell: Cell) -> Option<u16> {
        let cell = cell as usize;
        (cell < self.size * self.size).then(|| ((cell / self.size + 1) * self.stride + cell % self.size + 1) as u16)
    }

    /// Padded index (on the board) → public cell.
    #[inline]
    pub(crate) fn public(&self, at: u16) -> Cell {
        let at = at as usize;
        ((at / self.stride - 1) * self.size + at % self.stride - 1) as Cell
    }

    /// The four padded neighbours (border slots included).
    #[inline]
    pub(crate) fn around(&self, at: u16) -> [u16; 4] {
        let s = self.stride as u16;
        [at + s, at + 1, at - s, at - 1]
    }

    #[inline]
    pub(crate) fn stone(&self, at: u16) -> Stone {
        self.board[at as usize].stone
    }

    /// The representative of the group on `at` (a coloured stone).
    #[inline]
    pub(crate) fn group(&self, at: u16) -> u16 {
        self.board[at as usize].group
    }

    #[inline]
    pub(crate) fn libs(&self, group: u16) -> Liberties {
        self.board[group as usize].libs
    }

    /// The padded points of the board, row by row from the bottom.
    pub(crate) fn points(&self) -> impl Iterator<Item = u16> + '_ {
        let (size, stride) = (self.size, self.stride);
        (0..size).flat_map(move |y| (0..size).map(move |x| ((y + 1) * stride + x + 1) as u16))
    }

    /// The stones of the group whose representative is `group`.
    pub(crate) fn group_stones(&self, group: u16) -> Vec<u16> {
        let mut out = Vec::with_capacity(self.board[group as usize].size as usize);
        let mut at = group;
        loop {
            out.push(at);
            at = self.board[at as usize].next;
            if at == group {
                break;
            }
        }
        out
    }

    #[inline]
    fn zobrist_key(&self, at: u16, stone: Stone) -> u64 {
        ZOBRIST[at as usize * 3 + stone as usize - 1]
    }

    /// The Zobrist hash of the board, side to move and swap offer.
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for at in self.points() {
            let stone = self.stone(at);
            if stone != Stone::Empty {
                h ^= self.zobrist_key(at, stone);
            }
        }
        h ^ self.turn_hash()
    }

    /// The part of the hash that depends on the side to move and the swap offer.
    #[inline]
    pub(crate) fn turn_hash(&self) -> u64 {
        let side = if self.to_move == Side::Second { ZOBRIST_WHITE_TO_MOVE } else { 0 };
        let swap = if self.swap_open { ZOBRIST_SWAP_OPEN } else { 0 };
        side ^ swap
    }

    // ----- incremental board updates -----

    /// Puts a black or white stone on the empty point `at`, joining it with its own-colour
    /// neighbours and taking `at` from the pseudo-liberties of every neighbouring group.
    /// Never removes anything.
    pub(crate) fn put_coloured(&mut self, at: u16, side: Side) {
        let mut touched = Touched::new(at);
        touched.last_liberties_around(self, at);
        self.put_coloured_groups(at, side);
        touched.last_liberties_around(self, at);
        touched.last_liberty_of(self, self.group(at));
        self.empty_points.remove(self.public(at));
        touched.refresh(self);
    }

    /// `put_coloured`'s groups and liberties.
    fn put_coloured_groups(&mut self, at: u16, side: Side) {
        let stone = Stone::of(side);
        let mut slot = Slot { stone, group: at, next: at, size: 1, libs: Liberties::default() };
        for q in self.around(at) {
            if self.stone(q) == Stone::Empty {
                slot.libs.add(q);
            }
        }
        self.board[at as usize] = slot;
        for q in self.around(at) {
            let neighbour = self.stone(q);
            if neighbour.is_coloured() {
                let g = self.group(q);
                self.board[g as usize].libs.remove(at);
                if neighbour == stone {
                    let mine = self.group(at);
                    if g != mine {
                        self.merge(mine, g);
                    }
                }
            }
        }
        self.stones[side.index()] += 1;
        self.hash ^= self.zobrist_key(at, stone);
    }

    /// Joins two distinct groups of one colour: the smaller is relabelled, the lists spliced.
    fn merge(&mut self, a: u16, b: u16) {
        let (big, small) = if self.board[a as usize].size >= self.board[b as usize].size { (a, b) } else { (b, a) };
        let mut at = small;
        loop {
            self.board[at as usize].group = big;
            at = self.board[at as usize].next;
            if at == small {
                break;
            }
        }
        let (big_next, small_next) = (self.board[big as usize].next, self.board[small as usize].next);
        self.board[big as usize].next = small_next;
        self.board[small as usize].next = big_next;
        let (small_size, small_libs) = (self.board[small as usize].size, self.board[small as usize].libs);
        let rep = &mut self.board[big as usize];
        rep.size += small_size;
        rep.libs.absorb(small_libs);
    }

    /// Puts a red stone on the empty point `at`, taking `at` from the neighbouring groups'
    /// pseudo-liberties. Removes nothing: that is the capture sweep's job.
    pub(crate) fn put_red(&mut self, at: u16) {
        let mut touched = Touched::new(at);
        touched.last_liberties_around(self, at);
        self.board[at as usize].stone = Stone::Red;
        for q in self.around(at) {
            if self.stone(q).is_coloured() {
                let g = self.group(q);
                self.board[g as usize].libs.remove(at);
            }
        }
        self.reds += 1;
        self.hash ^= self.zobrist_key(at, Stone::Red);
        // A group beside it may be left with one liberty elsewhere.
        touched.last_liberties_around(self, at);
        self.empty_points.remove(self.public(at));
        touched.refresh(self);
    }

    /// The distinct groups next to `at` that have no liberty (at most four), as representatives.
    #[inline]
    pub(crate) fn bounded_around(&self, at: u16) -> ([u16; 4], usize) {
        let mut found = [0u16; 4];
        let mut n = 0;
        for q in self.around(at) {
            if self.stone(q).is_coloured() {
                let g = self.group(q);
                if self.libs(g).is_empty() && !found[..n].contains(&g) {
                    found[n] = g;
                    n += 1;
                }
            }
        }
        (found, n)
    }

    /// Removes the given groups all at once (the set Z of §4.4), then gives the freed points back
    /// as liberties to the groups that remain.
    pub(crate) fn remove_groups(&mut self, groups: &[u16]) {
        for &g in groups {
            let mut at = g;
            loop {
                let stone = self.stone(at);
                self.hash ^= self.zobrist_key(at, stone);
                if let Some(side) = stone.owner() {
                    self.stones[side.index()] -= 1;
                }
                self.board[at as usize].stone = Stone::Empty;
                at = self.board[at as usize].next;
                if at == g {
                    break;
                }
            }
        }
        // Only now, with every bounded stone gone, do neighbours gain liberties: a group in Z
        // must not be "saved" by another's removal (the temporarily-bounded rule).
        let mut touched = Vec::new();
        for &g in groups {
            let mut at = g;
            loop {
                touched.push(at);
                self.empty_points.insert(self.public(at));
                for q in self.around(at) {
                    if self.stone(q).is_coloured() {
                        let h = self.group(q);
                        touched.extend(self.libs(h).single_point());
                        self.board[h as usize].libs.add(at);
                        touched.extend(self.libs(h).single_point());
                    }
                }
                at = self.board[at as usize].next;
                if at == g {
                    break;
                }
            }
        }
        for at in touched {
            self.refresh_last_liberty(at);
        }
    }

    /// Whether the empty point `at` is the last liberty of a group of each colour, again.
    fn refresh_last_liberty(&mut self, at: u16) {
        let cell = self.public(at);
        for side in [Side::First, Side::Second] {
            let colour = Stone::of(side);
            let last = self.stone(at) == Stone::Empty
                && self.around(at).into_iter().any(|q| self.stone(q) == colour && self.libs(self.group(q)).is_single());
            self.last_liberty[side.index()].set(cell, last);
        }
    }

    /// Both kinds of point set from the board alone.
    pub(crate) fn recompute_point_sets(&mut self) {
        self.empty_points = PointSet::NONE;
        self.last_liberty = [PointSet::NONE; 2];
        for at in self.points().collect::<Vec<_>>() {
            if self.stone(at) == Stone::Empty {
                self.empty_points.insert(self.public(at));
            }
            self.refresh_last_liberty(at);
        }
    }

    /// Rebuilds every group, liberty and count from the stones alone (after reading a text).
    pub(crate) fn rebuild_groups(&mut self) {
        let mut fresh = Position::new(&self.options);
        for at in self.points() {
            if self.stone(at) == Stone::Red {
                fresh.board[at as usize].stone = Stone::Red;
                fresh.reds += 1;
            }
        }
        // Placing the coloured stones one by one through the incremental path builds exactly the
        // bookkeeping a game would have built.
        for at in self.points() {
            if let Some(side) = self.stone(at).owner() {
                fresh.put_coloured(at, side);
            }
        }
        self.board = fresh.board;
        self.stones = fresh.stones;
        self.reds = fresh.reds;
        self.hash = self.compute_hash();
        self.recompute_point_sets();
    }
}

/// The points whose "last liberty" membership a placement may change: the point itself and the
/// single liberties of the groups beside it, before and after (at most 1 + 4 + 4 + 1).
struct Touched {
    points: [u16; 10],
    len: usize,
}

impl Touched {
    fn new(at: u16) -> Self {
        Touched { points: [at; 10], len: 1 }
    }

    fn last_liberty_of(&mut self, pos: &Position, group: u16) {
        if let Some(point) = pos.libs(group).single_point() {
            self.points[self.len] = point;
            self.len += 1;
        }
    }

    fn last_liberties_around(&mut self, pos: &Position, at: u16) {
        for q in pos.around(at) {
            if pos.stone(q).is_coloured() {
                self.last_liberty_of(pos, pos.group(q));
            }
        }
    }

    fn refresh(&self, pos: &mut Position) {
        for &at in &self.points[..self.len] {
            pos.refresh_last_liberty(at);
        }
    }
}
