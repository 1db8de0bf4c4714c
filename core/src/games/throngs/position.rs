//! The Throngs position: stones, vicinity counts, turn bookkeeping, power and Reach (§4.1).

use super::board::{Bits, Geometry, MAX_SITES, MAX_TRAVEL, NO_SITE, bit_clear, bit_set, for_each_bit};
use super::options::{PassRule, ThrongsOptions};
use crate::rules::{Cell, Outcome, Side, splitmix64};

/// What a site holds.
pub const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

/// The content code of a side's stone.
#[inline]
pub const fn stone_of(side: Side) -> u8 {
    match side {
        Side::First => BLACK,
        Side::Second => WHITE,
    }
}

/// The kind of a move part that starts on a site (§4.2 A–C).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartKind {
    Place,
    Capture,
    Move,
}

/// A part whose start is chosen and whose destination is not yet (§4.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Started {
    pub kind: PartKind,
    pub at: Cell,
    /// The remaining power `R` the stone may travel.
    pub range: u8,
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The pie offerer is placing stones (Black ones first, then White ones).
    PieOffer,
    /// The chooser picks a colour.
    PieChoice,
    /// Ordinary turns.
    Play,
    /// The game ended.
    Over(Outcome),
}

/// What a decision leaves for `end_check` (phase 4) once `place` has applied it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Settle {
    /// Nothing: a part was only started, or one pie stone offered.
    Nothing,
    /// A move part is complete: the next part or turn, then the end of the game (§4.3, §6.1).
    Part,
    /// The pie colour is chosen: the estimate of Appendix A is tested before the first turn, as it
    /// is when the position text printed there is read back.
    PieChoice,
}

/// A Throngs position: a plain value, cheap to clone (fixed arrays, a shared geometry).
#[derive(Clone)]
pub struct Position {
    pub(super) options: ThrongsOptions,
    pub(super) geo: &'static Geometry,
    /// Site → `EMPTY`, `BLACK` or `WHITE`.
    pub(super) stones: [u8; MAX_SITES],
    /// Per side, the number of its stones in the vicinity of each site (kept incrementally, so the
    /// power of a site is one subtraction).
    pub(super) near: [[u8; MAX_SITES]; 2],
    pub(super) count: [u16; 2],
    pub(super) phase: Phase,
    /// The colour on move (in play), or whose stone the pie offer places next.
    pub(super) mover: Side,
    /// 1 or 2.
    pub(super) part: u8,
    /// The placement-obligation counters (§4.4), by side index.
    pub(super) idle: [u16; 2],
    /// Consecutive passed parts just before now, at most 4.
    pub(super) passrun: u8,
    pub(super) turn: u32,
    /// Legacy pass rule: the opponent's previous turn was two passes.
    pub(super) legacy_after_passes: bool,
    /// Legacy pass rule: the mover already placed or captured this turn.
    pub(super) legacy_done: bool,
    pub(super) started: Option<Started>,
    /// What `place` left for `end_check` to settle.
    pub(super) to_settle: Settle,
    /// The empty sites as a bitboard (for travel checks and Reach).
    pub(super) empty_bits: Bits,
    /// Each side's stones as a bitboard, by side index.
    pub(super) side_bits: [Bits; 2],
    /// Zobrist hash of the stones alone (the rest is mixed in by `zobrist()`).
    pub(super) stone_hash: u64,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::rules::Notation::format_position(self))
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        crate::rules::Notation::format_position(self) == crate::rules::Notation::format_position(other)
    }
}

impl Position {
    /// An empty board of these options, Black to move in part 1 of turn 1 (`Rules::new` adds the
    /// opening; a position text fills it in).
    pub(super) fn empty_board(options: &ThrongsOptions) -> Position {
        Position {
            options: *options,
            geo: options.board.geometry(),
            stones: [EMPTY; MAX_SITES],
            near: [[0; MAX_SITES]; 2],
            count: [0; 2],
            phase: Phase::Play,
            mover: Side::First,
            part: 1,
            idle: [0; 2],
            passrun: 0,
            turn: 1,
            legacy_after_passes: false,
            legacy_done: false,
            started: None,
            to_settle: Settle::Nothing,
            empty_bits: options.board.geometry().all,
            side_bits: [[0; 4]; 2],
            stone_hash: 0,
        }
    }

    /// The board geometry (sites, neighbours, names).
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The side whose part it is (in play) — also during a started part.
    pub fn side_to_move(&self) -> Side {
        self.mover
    }

    /// 1 or 2.
    pub fn part(&self) -> u8 {
        self.part
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn idle(&self, side: Side) -> u16 {
        self.idle[side.index()]
    }

    pub fn passrun(&self) -> u8 {
        self.passrun
    }

    /// The legacy pass rule's flags (D5): the opponent's previous turn was two passes, and the
    /// mover already placed or captured this turn.
    pub fn legacy_flags(&self) -> (bool, bool) {
        (self.legacy_after_passes, self.legacy_done)
    }

    /// The part whose start is chosen but whose destination is not, if any.
    pub fn started(&self) -> Option<Started> {
        self.started
    }

    /// The stone on a site, if any.
    #[inline]
    pub fn stone(&self, site: Cell) -> Option<Side> {
        match self.stones[site as usize] {
            BLACK => Some(Side::First),
            WHITE => Some(Side::Second),
            _ => None,
        }
    }

    #[inline]
    pub(super) fn is_empty_site(&self, site: Cell) -> bool {
        self.stones[site as usize] == EMPTY
    }

    /// Number of stones of a side.
    pub fn stones_of(&self, side: Side) -> u16 {
        self.count[side.index()]
    }

    /// The sites holding stones of `side`, in site order.
    pub fn sites_of(&self, side: Side) -> impl Iterator<Item = Cell> + '_ {
        let code = stone_of(side);
        (0..self.geo.len() as Cell).filter(move |&s| self.stones[s as usize] == code)
    }

    /// Puts a stone of `side` on an empty site, keeping the vicinity counts.
    #[inline]
    pub(super) fn put(&mut self, site: Cell, side: Side) {
        debug_assert!(self.is_empty_site(site));
        self.stones[site as usize] = stone_of(side);
        bit_clear(&mut self.empty_bits, site);
        bit_set(&mut self.side_bits[side.index()], site);
        self.count[side.index()] += 1;
        let near = &mut self.near[side.index()];
        near[site as usize] += 1;
        for &n in &self.geo.neighbours[site as usize] {
            if n == NO_SITE {
                break;
            }
            near[n as usize] += 1;
        }
        self.stone_hash ^= splitmix64((site as u64) << 1 | side.index() as u64);
    }

    /// Takes the stone off a site (which must hold one).
    #[inline]
    pub(super) fn take(&mut self, site: Cell) -> Side {
        let side = if self.stones[site as usize] == BLACK { Side::First } else { Side::Second };
        self.stones[site as usize] = EMPTY;
        bit_set(&mut self.empty_bits, site);
        bit_clear(&mut self.side_bits[side.index()], site);
        self.count[side.index()] -= 1;
        let near = &mut self.near[side.index()];
        near[site as usize] -= 1;
        for &n in &self.geo.neighbours[site as usize] {
            if n == NO_SITE {
                break;
            }
            near[n as usize] -= 1;
        }
        self.stone_hash ^= splitmix64((site as u64) << 1 | side.index() as u64);
        side
    }

    /// The power `P(s) = own − enemy` in the vicinity of `site`, for `side` (§4.1).
    #[inline]
    pub fn power(&self, site: Cell, side: Side) -> i8 {
        self.near[side.index()][site as usize] as i8 - self.near[side.opponent().index()][site as usize] as i8
    }

    /// The power of every site for `side`, in site order (for the app's overlay).
    pub fn powers(&self, side: Side) -> Vec<i8> {
        (0..self.geo.len() as Cell).map(|s| self.power(s, side)).collect()
    }

    /// Whether every existing neighbour of an empty site is occupied.
    #[inline]
    pub(super) fn enclosed(&self, site: Cell) -> bool {
        let s = site as usize;
        (self.near[0][s] + self.near[1][s]) as usize == self.geo.degree[s] as usize
    }

    /// Whether the placement obligation of the progress rule binds the mover now (§4.4).
    #[inline]
    pub fn obliged_by_counter(&self) -> bool {
        self.options.pass_rule == PassRule::Progress && self.idle[self.mover.index()] >= 4
    }

    /// Whether a stone travelling from `at` with range `range` has any landing other than `at`.
    /// Every first leg is straight, so this is "an empty site on some ray within `range`".
    #[inline]
    pub(super) fn can_travel(&self, at: Cell, range: u8) -> bool {
        let star = &self.geo.star[at as usize][(range as usize).min(MAX_TRAVEL)];
        (0..4).any(|w| star[w] & self.empty_bits[w] != 0)
    }

    /// Reach(Q, at, range) of §4.1 as layers by cost: `layers[c]` holds the sites whose cheapest
    /// path costs exactly `c` (`layers[0]` is `at`). Cost `c` is reached from a landing of cost
    /// `d < c` by a straight leg of exactly `c − d`; building the layers in increasing `c` makes
    /// each site's first layer its cheapest cost (Dijkstra with bitboards).
    #[inline]
    pub(super) fn reach_layers(&self, at: Cell, range: u8) -> [Bits; MAX_TRAVEL + 1] {
        let range = (range as usize).min(MAX_TRAVEL);
        let mut layers = [[0u64; 4]; MAX_TRAVEL + 1];
        bit_set(&mut layers[0], at);
        let mut reached = layers[0];
        // The travelling stone's own site is never a landing.
        let mut landable = self.empty_bits;
        bit_clear(&mut landable, at);
        for c in 1..=range {
            let mut new = [0u64; 4];
            for (d, layer) in layers.iter().enumerate().take(c) {
                for_each_bit(layer, |u| {
                    let ring = &self.geo.ring[u as usize][c - d];
                    for w in 0..4 {
                        new[w] |= ring[w];
                    }
                });
            }
            for w in 0..4 {
                new[w] &= landable[w] & !reached[w];
                reached[w] |= new[w];
            }
            layers[c] = new;
        }
        layers
    }

    /// Reach(Q, at, range) of §4.1 on this board with the travelling stone on `at` (so `at` is
    /// never a landing; it may be jumped over). Writes the cost of every reachable site into
    /// `cost` (`u8::MAX` = unreachable) and calls `visit` for the reachable sites other than
    /// `at`, by cost then site.
    pub(super) fn reach_into(&self, at: Cell, range: u8, cost: &mut [u8; MAX_SITES], mut visit: impl FnMut(Cell)) {
        cost[..self.geo.len()].fill(u8::MAX);
        cost[at as usize] = 0;
        let layers = self.reach_layers(at, range);
        for (c, layer) in layers.iter().enumerate().skip(1) {
            for_each_bit(layer, |v| {
                cost[v as usize] = c as u8;
                visit(v);
            });
        }
    }

    /// The reachable sites other than `at` with their costs, sorted by cost then site
    /// (the app's highlight of a started part's destinations).
    pub fn reach(&self, at: Cell, range: u8) -> Vec<(Cell, u8)> {
        if at as usize >= self.geo.len() {
            return Vec::new();
        }
        let mut cost = [0u8; MAX_SITES];
        let mut sites = Vec::new();
        self.reach_into(at, range, &mut cost, |v| sites.push(v));
        let mut out: Vec<(Cell, u8)> = sites.into_iter().map(|s| (s, cost[s as usize])).collect();
        out.sort_by_key(|&(s, c)| (c, s));
        out
    }

    /// The destinations a started part may choose now (`at` itself included for placements and
    /// captures), or an empty list when no part is started.
    pub fn destinations(&self) -> Vec<Cell> {
        let Some(st) = self.started else { return Vec::new() };
        let mut out: Vec<Cell> = self.reach(st.at, st.range).into_iter().map(|(s, _)| s).collect();
        if st.kind != PartKind::Move {
            out.push(st.at);
        }
        out.sort_unstable();
        out
    }

    /// One shortest route of landings from `at` to `to` (start and end included) for the
    /// `Hopped` effect; the route is not part of the move, only an animation aid.
    pub(super) fn route(&self, at: Cell, range: u8, to: Cell) -> Vec<Cell> {
        let mut cost = [0u8; MAX_SITES];
        self.reach_into(at, range, &mut cost, |_| {});
        let mut path = vec![to];
        let mut here = to;
        while here != at {
            let c = cost[here as usize];
            // Find a landing (or the start) one straight leg back whose cost plus the leg is c;
            // lines are symmetric, so walking the rays out of `here` finds the leg's origin.
            let mut prev = None;
            'dirs: for d in 0..6 {
                for (step, &v) in self.geo.rays[here as usize][d].iter().enumerate() {
                    if v == NO_SITE {
                        break;
                    }
                    let leg = step as u8 + 1;
                    if leg > c {
                        break;
                    }
                    let is_landing = v == at || self.stones[v as usize] == EMPTY;
                    if is_landing && cost[v as usize] != u8::MAX && cost[v as usize] + leg == c {
                        prev = Some(v);
                        break 'dirs;
                    }
                }
            }
            match prev {
                Some(v) => {
                    path.push(v);
                    here = v;
                }
                None => break,
            }
        }
        if *path.last().unwrap_or(&to) != at {
            path.push(at);
        }
        path.reverse();
        path
    }

    /// Ludii's estimated score of `side` (Appendix A).
    pub fn estimate(&self, side: Side) -> u32 {
        let geo = self.geo;
        let x_code = stone_of(side);
        let y_code = stone_of(side.opponent());
        let counts = |s: Cell| {
            let (mut x, mut y, mut e) = (0u32, 0u32, 0u32);
            for n in geo.neighbours_of(s) {
                match self.stones[n as usize] {
                    c if c == x_code => x += 1,
                    c if c == y_code => y += 1,
                    _ => e += 1,
                }
            }
            (x, y, e)
        };
        let edge = |s: Cell| geo.degree[s as usize] < 5;
        let y_adjacent = |s: Cell| geo.neighbours_of(s).any(|n| self.stones[n as usize] == y_code);
        let mut score = 0;
        for s in 0..geo.len() as Cell {
            let (x, y, e) = counts(s);
            let content = self.stones[s as usize];
            let counted = if content == x_code {
                if edge(s) { x >= 1 || e >= 3 } else { x >= 2 || y as i64 - x as i64 <= 1 }
            } else if content == EMPTY {
                let mut empties = geo.neighbours_of(s).filter(|&n| self.stones[n as usize] == EMPTY);
                if edge(s) {
                    x >= 3 && empties.all(|n| !y_adjacent(n) && !edge(n))
                } else {
                    (x >= 4 && empties.all(|n| !y_adjacent(n))) || (x >= 3 && y == 0)
                }
            } else {
                (2 + geo.degree[s as usize] as u32) < 2 * x
            };
            score += counted as u32;
        }
        score
    }
}
