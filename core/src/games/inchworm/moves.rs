//! Atomic decisions, their generation and legality (spec §6), and distribution enumeration.
//!
//! Drops, placements, collects, rescue, pass, and the staged distribution (choose the source,
//! then one cell at a time); plus exact enumeration and counting of whole distributions for the
//! referee, without ever listing paths in `legal_moves`.

use super::position::{CollectRun, DIRS, Geometry, MAX_HEIGHT, NO_SQ, Position, Spread, Sq, bit, bits, opposite};
use crate::rules::{PlayError, Side};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// One atomic decision (one click or button press).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// 6.1: a stone from stock onto an empty cell or an own stack.
    Drop(Sq),
    /// 6.6: a held enemy stone onto an empty cell (option `prisoner_drops`).
    Place(Sq),
    /// 6.2, first decision: one end of the run of own stacks to gather.
    CollectFrom(Sq),
    /// 6.2, each next decision: the next stack along the line (the second cell fixes the line).
    CollectStep(Sq),
    /// 6.2, last decision: the cell of the run that receives every stone; completes the action.
    CollectOnto(Sq),
    /// 6.3, first decision: spread the stack on this cell.
    SpreadFrom(Sq),
    /// 6.3, each next decision: the next cell of the path (the action completes when the path
    /// has as many cells as the stack has stones).
    SpreadStep(Sq),
    /// 6.4: take back every own stone the opponent holds.
    Rescue,
    /// 6.5: only when nothing else is legal.
    Pass,
}

/// A whole collect (record token `C…>t`) in canonical form (see [`canonical_line`]): equal
/// collects (same cells, same target) compare equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WholeCollect {
    pub start: Sq,
    pub dir: u8,
    pub len: u8,
    pub target: Sq,
}

/// The cells of a line of `len` cells from `start` in direction `dir`, or `None` if it leaves the
/// board or repeats a cell.
pub fn line_cells(geom: &Geometry, start: Sq, dir: usize, len: usize) -> Option<Vec<Sq>> {
    if start >= 64 || dir >= 8 || len > 8 {
        return None;
    }
    let mut cells = Vec::with_capacity(len);
    let mut seen = 0u64;
    let mut c = start;
    for i in 0..len {
        if i > 0 {
            c = geom.step[c as usize][dir];
            if c == NO_SQ {
                return None;
            }
        }
        if seen & bit(c) != 0 {
            return None;
        }
        seen |= bit(c);
        cells.push(c);
    }
    Some(cells)
}

/// The canonical start and direction of a line (spec §10.2): start at the end cell with the
/// smaller index; a closed ring of 8 starts at its smallest cell and runs towards its smaller
/// ring neighbour.
pub fn canonical_line(geom: &Geometry, start: Sq, dir: usize, len: usize) -> (Sq, usize) {
    let mut last = start;
    let mut min = start;
    for _ in 1..len {
        last = geom.step[last as usize][dir];
        min = min.min(last);
    }
    let is_ring = len == 8 && geom.step[last as usize][dir] == start;
    if is_ring {
        let forward = geom.step[min as usize][dir];
        let backward = geom.step[min as usize][opposite(dir)];
        if forward < backward { (min, dir) } else { (min, opposite(dir)) }
    } else if last < start {
        (last, opposite(dir))
    } else {
        (start, dir)
    }
}

/// A tiny multiplicative hasher for the u64 sets of distribution enumeration.
#[derive(Default)]
pub struct SetHasher(u64);

impl Hasher for SetHasher {
    fn finish(&self) -> u64 {
        // Fold the high bits down: the table indexes by the low bits.
        let z = self.0 ^ (self.0 >> 32);
        z ^ (z >> 17)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
}

pub type FastSet<T> = HashSet<T, BuildHasherDefault<SetHasher>>;
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<SetHasher>>;

/// Whether a chain of `remaining` more cells can continue from `end` through `free` cells
/// (king steps, each cell once). Exact; prunes with the size of the reachable area and
/// remembers dead ends once a search grows large.
pub fn can_extend(geom: &Geometry, free: u64, end: Sq, remaining: u32) -> bool {
    if remaining == 0 {
        return true;
    }
    if geom.king[end as usize] & free == 0 || free.count_ones() < remaining {
        return false;
    }
    if remaining == 1 {
        return true;
    }
    if remaining == 2 {
        // A free neighbour with a free neighbour of its own (no cell neighbours itself).
        return geom.king_spread(geom.king[end as usize] & free) & free != 0;
    }
    // The last chain found from this cell, if its cells are all still free: a game asks about the
    // same stacks ply after ply while the board changes elsewhere.
    let slot = witness_slot(geom, end, remaining);
    // A longer chain from the same cell holds this one (its first cells).
    let longest = (MAX_HEIGHT - 1).min(remaining as usize + 3) - remaining as usize;
    let walked = WITNESSES.with(|w| {
        let mut w = w.borrow_mut();
        if w[slot..=slot + longest].iter().any(|&chain| chain != 0 && chain & !free == 0) {
            return Walk::Found(0);
        }
        // Most positions have room: a short greedy walk (fewest onward exits first) settles them.
        let mut budget = 2 * remaining + 8;
        greedy_walk(geom, free, end, remaining, &mut budget, &mut w)
    });
    match walked {
        Walk::Found(_) => return true,
        Walk::None => return false,
        Walk::GaveUp => {}
    }
    // Crowded boards: too small a reachable area settles it at once.
    if geom.flood(geom.king[end as usize] & free, free, true).count_ones() < remaining {
        return false;
    }
    let mut search = ExtendSearch { geom, nodes: 0, dead_ends: None };
    search.run(free, end, remaining)
}

/// Chains found by [`can_extend`], one per (topology, end cell, length), as cell masks. Only a
/// shortcut: a chain is used again only while every cell of it is free, so answers never
/// depend on what is kept here.
type Witnesses = [u64; 3 * 64 * MAX_HEIGHT];

thread_local! {
    static WITNESSES: std::cell::RefCell<Box<Witnesses>> = std::cell::RefCell::new(Box::new([0; 3 * 64 * MAX_HEIGHT]));
}

#[inline]
fn witness_slot(geom: &Geometry, end: Sq, remaining: u32) -> usize {
    (geom.topology as usize * 64 + end as usize) * MAX_HEIGHT + (remaining as usize).min(MAX_HEIGHT - 1)
}

/// What a greedy walk settled.
enum Walk {
    /// A chain: its cells.
    Found(u64),
    /// No chain at all.
    None,
    /// The budget ran out first.
    GaveUp,
}

/// Depth-first search preferring the neighbour with the fewest free neighbours (Warnsdorff),
/// within `budget` nodes. A chain found is kept in `witnesses` for its end and for each of its
/// cells (the rest of it goes on from there): a spread's next steps ask about exactly those.
fn greedy_walk(
    geom: &Geometry,
    free: u64,
    end: Sq,
    remaining: u32,
    budget: &mut u32,
    witnesses: &mut Witnesses,
) -> Walk {
    if remaining == 0 {
        return Walk::Found(0);
    }
    if *budget == 0 {
        return Walk::GaveUp;
    }
    *budget -= 1;
    let mut next = geom.king[end as usize] & free;
    let mut gave_up = false;
    while next != 0 {
        // Pick the candidate with the fewest onward exits.
        let mut best = NO_SQ;
        let mut best_exits = u32::MAX;
        for n in bits(next) {
            let exits = (geom.king[n as usize] & free & !bit(n)).count_ones();
            if exits < best_exits {
                best = n;
                best_exits = exits;
            }
        }
        next &= !bit(best);
        if best_exits == 0 && remaining > 1 {
            continue;
        }
        match greedy_walk(geom, free & !bit(best), best, remaining - 1, budget, witnesses) {
            Walk::Found(chain) => {
                let chain = chain | bit(best);
                witnesses[witness_slot(geom, end, remaining)] = chain;
                return Walk::Found(chain);
            }
            Walk::None => {}
            Walk::GaveUp => gave_up = true,
        }
        if *budget == 0 {
            return Walk::GaveUp;
        }
    }
    if gave_up { Walk::GaveUp } else { Walk::None }
}

struct ExtendSearch<'a> {
    geom: &'a Geometry,
    nodes: u64,
    dead_ends: Option<FastSet<(u64, Sq)>>,
}

impl ExtendSearch<'_> {
    fn run(&mut self, free: u64, end: Sq, remaining: u32) -> bool {
        if remaining == 0 {
            return true;
        }
        let next = self.geom.king[end as usize] & free;
        if next == 0 {
            return false;
        }
        if remaining == 1 {
            return true;
        }
        if self.geom.flood(next, free, true).count_ones() < remaining {
            return false;
        }
        self.nodes += 1;
        if self.nodes > 256 {
            let memo = self.dead_ends.get_or_insert_with(FastSet::default);
            if memo.contains(&(free, end)) {
                return false;
            }
        }
        for n in bits(next) {
            if self.run(free & !bit(n), n, remaining - 1) {
                return true;
            }
        }
        if let Some(memo) = self.dead_ends.as_mut() {
            memo.insert((free, end));
        }
        false
    }
}

/// Every distinct cell set of a full distribution of the stack on `source` (height `h`), as
/// masks (source included), sorted. Enumerates sets level by level, each with the mask of cells
/// a path through exactly that set can end on — never individual paths.
pub fn distribution_sets(geom: &Geometry, empty: u64, source: Sq, h: u32) -> Vec<u64> {
    distribution_sets_within(geom, empty, source, h, usize::MAX).unwrap_or_default()
}

/// Whole distributions' cell sets, per source stack.
pub(crate) type SetsBySource = Vec<(Sq, Vec<u64>)>;

/// The partial cell sets [`distribution_sets_within`] may hold at once in the referee's listing:
/// enough for spec S13's height-10 stack in the centre (1,326,564 sets, about 50 MB at peak); a
/// height of 11 there has 4.9 million and 13 far more, which no listing could show anyway.
pub const MAX_PARTIAL_SETS: usize = 1_500_000;

/// [`distribution_sets`], giving up (`None`) as soon as one level holds more than `cap` sets.
pub fn distribution_sets_within(geom: &Geometry, empty: u64, source: Sq, h: u32, cap: usize) -> Option<Vec<u64>> {
    if h < 2 {
        return Some(Vec::new());
    }
    path_sets_grown_within(geom, empty, bit(source), source, h - 1, cap)
}

/// Every distinct cell set of the ways to finish the distribution under way (`spread`, of a stack
/// of height `h`), as masks (the cells chosen so far included), sorted; `None` as soon as one
/// level holds more than `cap` sets.
pub fn distribution_completions_within(
    geom: &Geometry,
    empty: u64,
    spread: &Spread,
    h: u32,
    cap: usize,
) -> Option<Vec<u64>> {
    let remaining = h.saturating_sub(spread.len as u32);
    if remaining == 0 {
        return Some(Vec::new());
    }
    path_sets_grown_within(geom, empty, spread.visited, spread.end(), remaining, cap)
}

/// The cell sets of paths that start at `end` (in `set`) and take `steps` more king steps through
/// distinct `empty` cells outside `set`, each with `set` added; `None` past `cap` sets in a level.
fn path_sets_grown_within(geom: &Geometry, empty: u64, set: u64, end: Sq, steps: u32, cap: usize) -> Option<Vec<u64>> {
    let mut level: FastMap<u64, u64> = FastMap::default();
    level.insert(set, bit(end));
    for _ in 0..steps {
        let mut next: FastMap<u64, u64> =
            FastMap::with_capacity_and_hasher((level.len() * 4).min(cap.saturating_add(1)), Default::default());
        for (&set, &ends) in &level {
            for n in bits(geom.king_spread(ends) & empty & !set) {
                if geom.king[n as usize] & ends != 0 {
                    *next.entry(set | bit(n)).or_insert(0) |= bit(n);
                }
            }
            if next.len() > cap {
                return None;
            }
        }
        level = next;
    }
    let mut sets: Vec<u64> = level.into_keys().collect();
    sets.sort_unstable();
    Some(sets)
}

/// The lexicographically smallest path (by cell index) from `source` through exactly the cells
/// of `set` (spec §10.2's canonical distribution), if there is one.
pub fn canonical_path(geom: &Geometry, set: u64, source: Sq) -> Option<Vec<Sq>> {
    fn go(geom: &Geometry, left: u64, end: Sq, path: &mut Vec<Sq>) -> bool {
        if left == 0 {
            return true;
        }
        for n in bits(geom.king[end as usize] & left) {
            path.push(n);
            if go(geom, left & !bit(n), n, path) {
                return true;
            }
            path.pop();
        }
        false
    }
    if set & bit(source) == 0 {
        return None;
    }
    let mut path = vec![source];
    go(geom, set & !bit(source), source, &mut path).then_some(path)
}

/// The four directions that, with their opposites, cover every line: up, right, up-right,
/// down-right.
const FORWARD: [usize; 4] = [0, 1, 4, 5];

impl Position {
    /// The side to move and its opponent, as indexes.
    #[inline]
    fn me_opp(&self) -> (usize, usize) {
        let me = self.side.index();
        (me, 1 - me)
    }

    /// Appends every legal atomic decision (spec §6; staged distributions).
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let geom = self.geometry();
        let empty = self.empty_mask();
        if let Some(spread) = &self.spread {
            let (free, remaining, candidates) = self.spread_steps(spread);
            for n in bits(candidates) {
                if can_extend(geom, free & !bit(n), n, remaining - 1) {
                    out.push(Move::SpreadStep(n));
                }
            }
            return;
        }
        let (me, opp) = self.me_opp();
        let own = self.occupied[me];
        if let Some(run) = &self.collect {
            out.extend(bits(self.collect_steps(run)).map(Move::CollectStep));
            if run.len >= 2 {
                out.extend(bits(run.cells).map(Move::CollectOnto));
            }
            return;
        }
        if self.stock[me] > 0 {
            out.extend(bits(empty | own).map(Move::Drop));
        }
        if self.options.prisoner_drops && self.held[me] > 0 {
            out.extend(bits(empty).map(Move::Place));
        }
        out.extend(bits(own & geom.king_spread(own)).map(Move::CollectFrom));
        for c in bits(own) {
            let h = self.height[c as usize] as u32;
            if h >= 2 && can_extend(geom, empty, c, h - 1) {
                out.push(Move::SpreadFrom(c));
            }
        }
        if self.held[opp] > 0 {
            out.push(Move::Rescue);
        }
        if out.is_empty() {
            out.push(Move::Pass);
        }
    }

    /// For the distribution under way: the cells still free for its path, how many more cells it
    /// needs, and the free king neighbours of its last cell (the next steps to check for room).
    pub(crate) fn spread_steps(&self, spread: &Spread) -> (u64, u32, u64) {
        let h = self.height[spread.source() as usize] as u32;
        let free = self.empty_mask() & !spread.visited;
        (free, h - spread.len as u32, self.geometry().king[spread.end() as usize] & free)
    }

    /// The cells that can extend a collect under way: any own neighbour of the first cell, then
    /// only the next own cell along the line (at most 8 cells, each once).
    pub(crate) fn collect_steps(&self, run: &CollectRun) -> u64 {
        let geom = self.geometry();
        let own = self.occupied[self.side.index()] & !run.cells;
        if run.len == 1 {
            geom.king[run.start as usize] & own
        } else if run.len >= 8 {
            0
        } else {
            let n = geom.step[run.end as usize][run.dir as usize];
            if n != NO_SQ && own & bit(n) != 0 { bit(n) } else { 0 }
        }
    }

    /// Every whole collect of the side to move, canonical, each (cell set, target) once.
    pub(crate) fn whole_collects(&self) -> Vec<WholeCollect> {
        let mut out = Vec::new();
        let geom = self.geometry();
        let own = self.occupied[self.side.index()];
        if own & geom.king_spread(own) == 0 {
            return out;
        }
        let mut cells = [0 as Sq; 8];
        for c in bits(own) {
            for d in FORWARD {
                cells[0] = c;
                let mut len = 1;
                let mut seen = bit(c);
                loop {
                    let n = geom.step[cells[len - 1] as usize][d];
                    if n == NO_SQ || own & bit(n) == 0 || seen & bit(n) != 0 {
                        break;
                    }
                    cells[len] = n;
                    seen |= bit(n);
                    len += 1;
                    let is_ring = len == 8 && geom.step[n as usize][d] == c;
                    if is_ring && bits(seen).next() != Some(c) {
                        // The whole ring is listed once, from its smallest cell.
                        break;
                    }
                    let (start, dir) = canonical_line(geom, c, d, len);
                    for &t in &cells[..len] {
                        out.push(WholeCollect { start, dir: dir as u8, len: len as u8, target: t });
                    }
                }
            }
        }
        out
    }

    /// Whether any action other than pass is legal (spec §6.5).
    pub(crate) fn has_action(&self) -> bool {
        let (me, opp) = self.me_opp();
        let own = self.occupied[me];
        let empty = self.empty_mask();
        let geom = self.geometry();
        (self.stock[me] > 0 && (empty | own) != 0)
            || (self.options.prisoner_drops && self.held[me] > 0 && empty != 0)
            || self.held[opp] > 0
            || own & geom.king_spread(own) != 0
            || bits(own).any(|c| {
                let h = self.height[c as usize] as u32;
                h >= 2 && can_extend(geom, empty, c, h - 1)
            })
    }

    /// Checks one atomic decision against spec §6; the error says why it is refused.
    pub(crate) fn check_move(&self, m: &Move) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::new("the game is over"));
        }
        if let Some(run) = &self.collect {
            return self.check_collect_continues(run, m);
        }
        if let Some(spread) = &self.spread {
            return self.check_spread_continues(spread, m);
        }
        self.check_action_start(m)
    }

    /// While a collect is under way: the next stack of the line, or the target.
    fn check_collect_continues(&self, run: &CollectRun, m: &Move) -> Result<(), PlayError> {
        let name = |c: Sq| super::position::square_name(c);
        match *m {
            Move::CollectStep(n) => {
                if n < 64 && self.collect_steps(run) & bit(n) != 0 {
                    Ok(())
                } else if run.len >= 8 {
                    Err(PlayError::new("a collect line has at most 8 cells; choose the target"))
                } else {
                    Err(PlayError::new(format!(
                        "{} does not continue the line of your stacks from {}",
                        name(n),
                        name(run.start)
                    )))
                }
            }
            Move::CollectOnto(t) => {
                if run.len < 2 {
                    Err(PlayError::new("a collect needs at least two stacks; choose the next one first"))
                } else if t >= 64 || run.cells & bit(t) == 0 {
                    Err(PlayError::new(format!("the target {} is not one of the collected cells", name(t))))
                } else {
                    Ok(())
                }
            }
            _ => Err(PlayError::new(format!(
                "finish the collect started on {} first: choose the next stack or the target",
                name(run.start)
            ))),
        }
    }

    /// While a distribution is under way: the next empty cell of a path that can still reach its
    /// full length.
    fn check_spread_continues(&self, spread: &Spread, m: &Move) -> Result<(), PlayError> {
        let geom = self.geometry();
        let name = |c: Sq| super::position::square_name(c);
        let Move::SpreadStep(n) = *m else {
            return Err(PlayError::new(format!(
                "finish spreading the stack from {} first: choose the next cell of the path",
                name(spread.source())
            )));
        };
        if n >= 64 {
            return Err(PlayError::new("that cell is not on the board"));
        }
        if spread.visited & bit(n) != 0 {
            return Err(PlayError::new(format!("{} is already on the path", name(n))));
        }
        if geom.king[spread.end() as usize] & bit(n) == 0 {
            return Err(PlayError::new(format!("{} is not next to {}", name(n), name(spread.end()))));
        }
        if self.height[n as usize] != 0 {
            return Err(PlayError::new(format!("{} is occupied; a path only uses empty cells", name(n))));
        }
        let h = self.height[spread.source() as usize] as u32;
        let free = self.empty_mask() & !spread.visited & !bit(n);
        if !can_extend(geom, free, n, h - spread.len as u32 - 1) {
            return Err(PlayError::new(format!(
                "after {} the path cannot reach its full length of {h} cells",
                name(n)
            )));
        }
        Ok(())
    }

    /// With no action under way: the first (often the only) decision of an action.
    fn check_action_start(&self, m: &Move) -> Result<(), PlayError> {
        let name = |c: Sq| super::position::square_name(c);
        let (me, opp) = self.me_opp();
        match *m {
            Move::Drop(c) => {
                if c >= 64 {
                    return Err(PlayError::new("that cell is not on the board"));
                }
                if self.stock[me] == 0 {
                    return Err(PlayError::new("you have no stones left in your stock"));
                }
                if self.occupied[opp] & bit(c) != 0 {
                    return Err(PlayError::new(format!(
                        "{} holds an enemy stack; drop on an empty cell or on your own stack",
                        name(c)
                    )));
                }
                Ok(())
            }
            Move::Place(c) => {
                if !self.options.prisoner_drops {
                    return Err(PlayError::new("placing prisoners is not allowed (option prisoner_drops is off)"));
                }
                if c >= 64 {
                    return Err(PlayError::new("that cell is not on the board"));
                }
                if self.held[me] == 0 {
                    return Err(PlayError::new("you hold no prisoners to place"));
                }
                if self.height[c as usize] != 0 {
                    return Err(PlayError::new(format!("{} is occupied; prisoners go on empty cells", name(c))));
                }
                Ok(())
            }
            Move::CollectFrom(c) => self.check_collect_start(c),
            Move::CollectStep(_) | Move::CollectOnto(_) => {
                Err(PlayError::new("choose the first stack of the collect first"))
            }
            Move::SpreadFrom(c) => self.check_spread_start(c),
            Move::SpreadStep(_) => Err(PlayError::new("choose the stack to spread first")),
            Move::Rescue => {
                if self.held[opp] == 0 {
                    Err(PlayError::new("your opponent holds none of your stones; there is nothing to rescue"))
                } else {
                    Ok(())
                }
            }
            Move::Pass => {
                if self.has_action() {
                    Err(PlayError::new("you may pass only when no other action is legal"))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// The first stack of a collect: one of the mover's, with a neighbouring one to collect with.
    fn check_collect_start(&self, c: Sq) -> Result<(), PlayError> {
        let geom = self.geometry();
        let name = |c: Sq| super::position::square_name(c);
        let (me, _) = self.me_opp();
        if c >= 64 {
            return Err(PlayError::new("that cell is not on the board"));
        }
        let own = self.occupied[me];
        if own & bit(c) == 0 {
            return Err(PlayError::new(if self.height[c as usize] == 0 {
                format!("{} is empty; a collect gathers a run of your own stacks", name(c))
            } else {
                format!("{} holds an enemy stack; a collect gathers only your own stacks", name(c))
            }));
        }
        if geom.king[c as usize] & own == 0 {
            return Err(PlayError::new(format!("{} has no neighbouring stack of yours to collect with", name(c))));
        }
        Ok(())
    }

    /// The stack to distribute: the mover's, two or more high, with room for its whole path.
    fn check_spread_start(&self, c: Sq) -> Result<(), PlayError> {
        let geom = self.geometry();
        let name = |c: Sq| super::position::square_name(c);
        if c >= 64 {
            return Err(PlayError::new("that cell is not on the board"));
        }
        match self.stack(c) {
            None => Err(PlayError::new(format!("{} is empty; there is nothing to spread", name(c)))),
            Some((owner, _)) if owner != self.side => Err(PlayError::new(format!("{} is not your stack", name(c)))),
            Some((_, h)) if h < 2 => {
                Err(PlayError::new(format!("{} is a single stone; only a stack of two or more can be spread", name(c))))
            }
            Some((_, h)) => {
                if can_extend(geom, self.empty_mask(), c, h as u32 - 1) {
                    Ok(())
                } else {
                    Err(PlayError::new(format!(
                        "there is no room to spread {}: it needs a chain of {h} cells",
                        name(c)
                    )))
                }
            }
        }
    }

    /// Checks a whole collect (record token `C…>t`), with the spec's reasons.
    pub(crate) fn check_whole_collect(&self, collect: &WholeCollect) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::new("the game is over"));
        }
        let name = |c: Sq| super::position::square_name(c);
        let Some(cells) = line_cells(self.geometry(), collect.start, collect.dir as usize, collect.len as usize) else {
            return Err(PlayError::new("the collected cells must be distinct neighbours on one straight line"));
        };
        if cells.len() < 2 {
            return Err(PlayError::new("a collect needs at least two stacks"));
        }
        for &c in &cells {
            if self.occupied[self.side.index()] & bit(c) == 0 {
                return Err(PlayError::new(if self.height[c as usize] == 0 {
                    format!("{} is empty; a collect gathers a run of your own stacks", name(c))
                } else {
                    format!("{} holds an enemy stack; a collect gathers only your own stacks", name(c))
                }));
            }
        }
        if !cells.contains(&collect.target) {
            return Err(PlayError::new(format!(
                "the target {} is not one of the collected cells",
                name(collect.target)
            )));
        }
        Ok(())
    }

    /// Checks a whole distribution path (record token `S…`), with the spec's reasons.
    pub(crate) fn check_distribution_path(&self, path: &[Sq]) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::new("the game is over"));
        }
        if self.spread.is_some() {
            return Err(PlayError::new("a distribution is already being chosen"));
        }
        let geom = self.geometry();
        let name = |c: Sq| super::position::square_name(c);
        let source = path[0];
        let h = match self.stack(source) {
            None => return Err(PlayError::new(format!("{} is empty; there is nothing to spread", name(source)))),
            Some((owner, _)) if owner != self.side => {
                return Err(PlayError::new(format!("{} is not your stack", name(source))));
            }
            Some((_, h)) => h as usize,
        };
        if h < 2 {
            return Err(PlayError::new(format!(
                "{} is a single stone; only a stack of two or more can be spread",
                name(source)
            )));
        }
        if path.len() != h {
            return Err(PlayError::new(format!(
                "the path has {} cells but the stack on {} has {h} stones; it needs exactly {h}",
                path.len(),
                name(source)
            )));
        }
        let mut seen = bit(source);
        for w in path.windows(2) {
            let (a, b) = (w[0], w[1]);
            if seen & bit(b) != 0 {
                return Err(PlayError::new(format!("{} is visited twice", name(b))));
            }
            if geom.king[a as usize] & bit(b) == 0 {
                return Err(PlayError::new(format!("{} is not a neighbour of {}", name(b), name(a))));
            }
            if self.height[b as usize] != 0 {
                return Err(PlayError::new(format!("{} is occupied; a path only uses empty cells", name(b))));
            }
            seen |= bit(b);
        }
        Ok(())
    }

    /// How many distinct whole distributions (by source and cell set) there are, with their sets
    /// per source while there are at most `keep` of them (none kept beyond); `Err` with the number
    /// found so far when one stack's would take more than [`MAX_PARTIAL_SETS`] to find.
    pub(crate) fn distribution_sets_by_source(&self, keep: u64) -> Result<(u64, SetsBySource), u64> {
        let geom = self.geometry();
        let empty = self.empty_mask();
        let mut out = Vec::new();
        let mut found = 0u64;
        for c in bits(self.occupied[self.side.index()]).filter(|&c| self.height[c as usize] >= 2) {
            let h = self.height[c as usize] as u32;
            let sets = distribution_sets_within(geom, empty, c, h, MAX_PARTIAL_SETS).ok_or(found)?;
            found += sets.len() as u64;
            if found > keep {
                out.clear();
            } else if !sets.is_empty() {
                out.push((c, sets));
            }
        }
        Ok((found, out))
    }

    /// The literal legality of an atomic decision, by brute force over whole actions: for the
    /// cross-check of the fast generator in tests. Slow.
    pub fn literal_is_legal(&self, m: &Move) -> bool {
        fn any_path(geom: &Geometry, free: u64, end: Sq, remaining: u32) -> bool {
            remaining == 0
                || bits(geom.king[end as usize] & free).any(|n| any_path(geom, free & !bit(n), n, remaining - 1))
        }
        if self.result.is_some() {
            return false;
        }
        let geom = self.geometry();
        let empty = self.empty_mask();
        let (me, opp) = self.me_opp();
        let own_at = |c: Sq| c < 64 && self.occupied[me] & bit(c) != 0;
        if let Some(run) = &self.collect {
            // Literal 6.2: the chosen cells plus the new one must be a prefix of some legal line:
            // distinct own stacks, consecutive steps in one fixed direction, at most 8.
            let cells = run.ordered(geom);
            return match *m {
                Move::CollectStep(n) => {
                    own_at(n)
                        && !cells.contains(&n)
                        && cells.len() < 8
                        && (0..8).any(|d| {
                            let mut line = cells.clone();
                            line.push(n);
                            line.windows(2).all(|w| geom.step[w[0] as usize][d] == w[1])
                        })
                }
                Move::CollectOnto(t) => cells.len() >= 2 && cells.contains(&t),
                _ => false,
            };
        }
        if let Some(spread) = &self.spread {
            let Move::SpreadStep(n) = *m else { return false };
            let h = self.height[spread.source() as usize] as u32;
            let free = empty & !spread.visited;
            return n < 64
                && geom.king[spread.end() as usize] & free & bit(n) != 0
                && any_path(geom, free & !bit(n), n, h - spread.len as u32 - 1);
        }
        match *m {
            Move::Drop(c) => self.stock[me] >= 1 && c < 64 && (self.height[c as usize] == 0 || own_at(c)),
            Move::Place(c) => {
                self.options.prisoner_drops && self.held[me] >= 1 && c < 64 && self.height[c as usize] == 0
            }
            Move::CollectFrom(c) => {
                // Literal 6.2: c is an end of some run of at least two own stacks on a line.
                own_at(c) && (0..8).any(|d| own_at(geom.step[c as usize][d]))
            }
            Move::CollectStep(_) | Move::CollectOnto(_) => false,
            Move::SpreadFrom(c) => {
                own_at(c)
                    && self.height[c as usize] >= 2
                    && any_path(geom, empty, c, self.height[c as usize] as u32 - 1)
            }
            Move::SpreadStep(_) => false,
            Move::Rescue => self.held[opp] >= 1,
            Move::Pass => {
                let mut others = all_candidate_moves(self);
                others.retain(|x| *x != Move::Pass && self.literal_is_legal(x));
                others.is_empty()
            }
        }
    }
}

/// Every syntactically possible atomic decision (for the literal cross-check): every kind on
/// every cell, rescue and pass.
pub fn all_candidate_moves(_pos: &Position) -> Vec<Move> {
    let mut v = Vec::new();
    for c in 0..64u8 {
        v.push(Move::Drop(c));
        v.push(Move::Place(c));
        v.push(Move::SpreadFrom(c));
        v.push(Move::SpreadStep(c));
        v.push(Move::CollectFrom(c));
        v.push(Move::CollectStep(c));
        v.push(Move::CollectOnto(c));
    }
    v.push(Move::Rescue);
    v.push(Move::Pass);
    v
}

/// Which side a move belongs to is always the side to act (sequential game).
pub(crate) fn mover(pos: &Position) -> Side {
    pos.side
}

/// Directions as a public constant for the notation module.
pub(crate) fn direction_between(geom: &Geometry, a: Sq, b: Sq) -> Option<usize> {
    (0..DIRS.len()).find(|&d| geom.step[a as usize][d] == b)
}

/// Starts a staged distribution (used by `place`).
pub(crate) fn start_spread(source: Sq) -> Spread {
    Spread::new(source)
}
