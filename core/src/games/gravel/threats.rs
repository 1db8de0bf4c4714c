//! Danger in Gravel: the pieces the opponent could remove next turn, and turn ends that lose.
//!
//! Issue #41: which of a side's pieces the opponent could remove in one turn, and whether ending a
//! turn now lets the opponent win at once.
//!
//! # Which pieces are threatened
//!
//! A space `s` holding side S's pieces is *threatened* when the opponent q, starting a turn on this
//! board (whatever turn is in progress now), has a legal turn that removes a piece from `s`. Such a
//! turn removes from `s` in one of two ways:
//!
//! 1. **Directly:** no piece of S next to `s` is removed before `s` in that turn. Then only q's
//!    placement actions before the removal matter, and the spec's `cost_x(s)` (§8.4: a
//!    breadth-first search over the local model of `s`'s neighbours, q's pool and q's pieces
//!    elsewhere — exact for control of one space) says whether q can control `s` within `X − 1`
//!    placement actions, leaving one for the removal. (With cost 0 the removal comes first and a
//!    Return follows as the turn's required placement; with cost ≥ 1 the placements already
//!    changed the board, so the turn passes the net-change rule.) **This part is exact.**
//! 2. **Through a chain:** q first removes pieces of S next to `s` (and, to control those, pieces
//!    next to them…), lowering the enemy count around `s` — the spec's Example 2. Searched in a
//!    *relaxed model* M (below) that over-estimates what q can do, so it **never misses** a
//!    chain a real turn can make; it may mark a space that only the relaxation can reach.
//!
//! # The relaxed model M
//!
//! A turn of q in M is a set of *additions* (one q piece more on a vacant or q-occupied space,
//! within the stack cap) followed by removals, each at an S space q controls at that moment. It
//! costs `max(1, additions) + removals` actions, where an addition to a vacant space costs 2 once
//! q's pool is used up. Every real turn maps onto an M turn that costs no more: each Place or
//! Move adds one piece to one space; a Place needs a pool piece, so a turn that fills more
//! vacant spaces than q's pool holds needs a Return per extra fill; removals are the same; a
//! removal-first turn is an M turn with no additions plus its required placement; and control is
//! monotone in q's pieces, so keeping the pieces a Move or Return takes away (what M ignores) can
//! only help q. What M can over-state is exactly that: **a chain that needs q to strip pieces from
//! a stack that matters** (a Move that leaves a hole, a Return from a space next to a target).
//!
//! The chain search for `s` looks only where a chain can reach: S's spaces joined to `s` through
//! S's spaces at most `X − 2` steps away (each link costs a removal, plus the removal at `s` and
//! one placement), and additions next to `s` or to those. It is a depth-first search over
//! additions (as multisets), each followed by a search over removal orders with memory of the
//! removal multisets seen, pruned by an admissible bound: additions and removals needed around
//! `s`, plus those needed around the cheapest neighbour of `s` to remove first (neighbourhoods of
//! adjacent spaces never overlap on a square board, so the two parts never count one action
//! twice).
//!
//! # Cost
//!
//! Per S space: one control test; the `cost_x` search only when the closed-form cost in M
//! (a lower bound) fits; the chain search only when `s` has an S neighbour and the bound at the
//! root fits. Each chain search stops after [`TARGET_NODES`] nodes and all of them together after
//! [`TOTAL_NODES`]; a space whose search stops there is marked (so nothing is missed) and listed
//! in [`ThreatReport::undecided`]. A node costs about a quarter of a microsecond in the tests'
//! build (neighbour scans and a hash set), so a report is bounded near 0.1 s whatever the
//! position; measured on random and crowded 19×19 boards with X up to 9, a report visits at most
//! a few hundred nodes and takes under half a millisecond, and no search reached its bound (the
//! test `the_danger_search_is_bounded_on_the_largest_board` prints the figures).
//!
//! # Ending a turn
//!
//! [`Position::end_turn_warning`] answers, for a turn in progress whose end is legal, whether
//! ending it now lets the opponent win at once. After Dark's turn the check of §8 runs at once,
//! so for Dark it plays the end on a copy and reads the result (exact). After Light's turn, Dark
//! moves before the check: Dark wins at once if some Dark turn leaves Light meeting a loss
//! condition (`lost > A`, or fewer spaces than pieces lost) while Dark meets none. That is
//! searched in M over the spaces M lets Dark remove, with Dark's own safety (placements that give
//! Dark enough spaces for its own lost pieces) counted in the budget — so it never misses a real
//! win, and may warn when only M's over-statement wins. The search is bounded by [`WIN_NODES`]
//! (under 0.1 s); past it the warning is given (as a possibility), never withheld. The worst
//! seen on 19×19 boards with X = 9 was about 130,000 nodes (33 ms).

use super::notation::square_name;
use super::position::{MAX_SPACES, NO_SPACE, Position, neighbour_table, sign};
use super::{Action, EndReason};
use crate::games::Warning;
use crate::rules::{Cell, DiscardEffects, Outcome, Rules, Side};
use std::collections::HashSet;

/// Nodes one chain search may visit before its space is marked without a verdict.
pub const TARGET_NODES: u32 = 20_000;

/// Nodes all the chain searches of one report may visit together; past it every chain search
/// left marks its space without a verdict.
pub const TOTAL_NODES: u32 = 300_000;

/// Nodes the search for an immediate win may visit before the warning is given as a possibility.
pub const WIN_NODES: u32 = 300_000;

/// A cost no turn reaches.
const UNREACHABLE: u16 = u16::MAX / 4;

/// The pieces of one side that the opponent could remove in one turn (see the module text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreatReport {
    /// Every space of the side that the opponent could remove a piece from, in cell order.
    pub cells: Vec<Cell>,
    /// Those of `cells` marked because a search hit its bound rather than found a way: marked so
    /// that nothing is missed, but perhaps not really in reach.
    pub undecided: Vec<Cell>,
    /// Spaces the relaxed model M lets the opponent remove from, a superset of `cells` (the win
    /// search removes only there).
    pub relaxed: Vec<Cell>,
    /// Search nodes visited: the work done.
    pub nodes: u32,
}

/// The answer of a bounded search.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    /// Found, with the spaces removed from (in order, repeats for several pieces).
    Yes(Vec<usize>),
    No,
    /// The node bound was hit first.
    Unknown,
}

/// `(O, F, E)` of §7 and the vacant neighbours, from q's side of the normalised board.
#[derive(Clone, Copy)]
struct Around {
    own_spaces: u16,
    own_pieces: u16,
    enemy_pieces: u16,
    vacant: u16,
}

impl Around {
    fn controlled(self) -> bool {
        self.own_spaces >= 2 && self.own_pieces > self.enemy_pieces
    }
}

/// The relaxed model's board: q's heights positive, S's negative, with the additions and removals
/// of the plan being searched applied in place (and taken back on the way out).
struct Relaxed {
    board: [i8; MAX_SPACES + 1],
    neighbours: &'static [[u16; 4]],
    spaces: usize,
    /// X: the budget and the stack cap.
    x: u8,
    /// q's pool.
    pool: u16,
    /// Vacant spaces the additions so far gave q pieces.
    fills: u16,
    nodes: u32,
    limit: u32,
}

impl Relaxed {
    fn new(pos: &Position, q: Side) -> Relaxed {
        let mut board = [0i8; MAX_SPACES + 1];
        let sg = sign(q);
        for (c, v) in board.iter_mut().enumerate().take(pos.spaces()) {
            *v = pos.stacks[c] * sg;
        }
        Relaxed {
            board,
            neighbours: neighbour_table(pos.n),
            spaces: pos.spaces(),
            x: pos.x,
            pool: pos.pool[q.index()],
            fills: 0,
            nodes: 0,
            limit: 0,
        }
    }

    fn around(&self, c: usize) -> Around {
        let mut a = Around { own_spaces: 0, own_pieces: 0, enemy_pieces: 0, vacant: 0 };
        for &nb in &self.neighbours[c] {
            if nb as usize == NO_SPACE {
                continue;
            }
            let v = self.board[nb as usize];
            match v.signum() {
                1 => {
                    a.own_spaces += 1;
                    a.own_pieces += v as u16;
                }
                -1 => a.enemy_pieces += v.unsigned_abs() as u16,
                _ => a.vacant += 1,
            }
        }
        a
    }

    fn controls(&self, c: usize) -> bool {
        self.around(c).controlled()
    }

    fn is_enemy(&self, c: usize) -> bool {
        c < self.spaces && self.board[c] < 0
    }

    fn neighbours_of(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbours[c].iter().filter(|&&nb| nb as usize != NO_SPACE).map(|&nb| nb as usize)
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        self.neighbours[a].iter().any(|&nb| nb as usize == b)
    }

    /// Counts a node; false once the bound is passed.
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        self.nodes <= self.limit
    }

    /// What one more q piece on `c` costs: 1, or 2 for a vacant space once the pool is used up.
    fn addition_cost(&self, c: usize) -> u16 {
        if self.board[c] == 0 && self.fills >= self.pool { 2 } else { 1 }
    }

    fn add(&mut self, c: usize) {
        if self.board[c] == 0 {
            self.fills += 1;
        }
        self.board[c] += 1;
    }

    fn take_back_addition(&mut self, c: usize) {
        self.board[c] -= 1;
        if self.board[c] == 0 {
            self.fills -= 1;
        }
    }

    /// The least additions of M (a lower bound on real placement actions) after which q controls
    /// `s` with no removal next to it: fills to reach two own neighbours, then one piece per
    /// missing piece of majority, 2 for a fill once the pool is used up. `UNREACHABLE` if the
    /// neighbours cannot hold enough.
    fn direct_cost(&self, s: usize) -> u16 {
        let a = self.around(s);
        let x = self.x as u16;
        let fills = 2u16.saturating_sub(a.own_spaces);
        if fills > a.vacant {
            return UNREACHABLE;
        }
        let room_on_own: u16 =
            self.neighbours_of(s).filter(|&nb| self.board[nb] > 0).map(|nb| x - self.board[nb] as u16).sum();
        let missing = (a.enemy_pieces + 1).saturating_sub(a.own_pieces + fills);
        let room_after_fills = room_on_own + fills * (x - 1);
        let extra_fills = if missing > room_after_fills {
            let more = missing - room_after_fills;
            if more > (a.vacant - fills) * x {
                return UNREACHABLE;
            }
            more.div_ceil(x)
        } else {
            0
        };
        fills + missing + (fills + extra_fills).saturating_sub(self.pool)
    }

    /// What a neighbour `t` of the target needs before q can remove from it: additions (when
    /// `additions` is true) and removals around it, at least; `UNREACHABLE` if it can never be
    /// controlled. Removals at `t`'s neighbours other than the target count, the target itself
    /// cannot be removed before `t`.
    fn neighbour_bound(&self, t: usize, additions: bool) -> u16 {
        let a = self.around(t);
        if a.controlled() {
            return 0;
        }
        let fills = 2u16.saturating_sub(a.own_spaces);
        if (additions && fills > a.vacant) || (!additions && fills > 0) {
            return UNREACHABLE;
        }
        fills + (a.enemy_pieces + 1).saturating_sub(a.own_pieces + fills)
    }

    /// An admissible bound on the actions still needed to remove from `s` through a chain: around
    /// `s`, the fills for two own neighbours and one action per missing piece of majority (an
    /// addition, or a removal next to `s`, of which there must be at least one before `s` in a
    /// chain), then the removal at `s`; plus what the cheapest neighbour of `s` needs before a
    /// piece of it can go. The two parts never share an action: the neighbourhoods of two
    /// adjacent spaces are disjoint on a square board.
    fn chain_bound(&self, s: usize, additions: bool, removed_next_to: bool) -> u16 {
        let a = self.around(s);
        let fills = 2u16.saturating_sub(a.own_spaces);
        if (additions && fills > a.vacant) || (!additions && fills > 0) {
            return UNREACHABLE;
        }
        let missing = (a.enemy_pieces + 1).saturating_sub(a.own_pieces + fills);
        let around_s = missing.max(if removed_next_to { 0 } else { 1 });
        if around_s == 0 {
            return 1;
        }
        let first = self
            .neighbours_of(s)
            .filter(|&t| self.board[t] < 0)
            .map(|t| self.neighbour_bound(t, additions))
            .min()
            .unwrap_or(UNREACHABLE);
        (fills + around_s + 1).saturating_add(first)
    }

    // ------------------------------------------------------------------------------------------
    // Chains to one target

    /// Whether q can remove from `s` in M after removing at least one S piece next to it,
    /// additions only on `additions_at`, removals only on `chain` and `s`.
    fn chain_to(&mut self, s: usize, chain: &[usize], additions_at: &[usize], limit: u32) -> Verdict {
        self.limit = self.nodes.saturating_add(limit);
        if self.chain_bound(s, true, false) > self.x as u16 {
            return Verdict::No;
        }
        match self.chain_additions(s, chain, additions_at, 0, 0) {
            Some(true) => Verdict::Yes(Vec::new()),
            Some(false) => Verdict::No,
            None => Verdict::Unknown,
        }
    }

    /// Additions as a multiset (from `additions_at[first..]`, so each set is seen once), each set
    /// followed by the removal search. `None` when the node bound is hit.
    fn chain_additions(
        &mut self,
        s: usize,
        chain: &[usize],
        additions_at: &[usize],
        first: usize,
        cost: u16,
    ) -> Option<bool> {
        if !self.visit() {
            return None;
        }
        let x = self.x as u16;
        let removals = x - cost.max(1);
        if removals >= 2 {
            let mut seen = HashSet::new();
            if self.chain_removals(s, chain, removals, false, 0, &mut seen)? {
                return Some(true);
            }
        }
        for i in first..additions_at.len() {
            let c = additions_at[i];
            if self.board[c] >= self.x as i8 {
                continue;
            }
            let next = cost + self.addition_cost(c);
            self.add(c);
            let fits = next + self.chain_bound(s, true, false) <= x;
            let found = if fits { self.chain_additions(s, chain, additions_at, i, next) } else { Some(false) };
            self.take_back_addition(c);
            if found != Some(false) {
                return found;
            }
        }
        Some(false)
    }

    /// Removal orders with at most `left` removals, ending at `s` after at least one removal next
    /// to it. `key` identifies the removals made so far (as a multiset), so each is expanded once.
    fn chain_removals(
        &mut self,
        s: usize,
        chain: &[usize],
        left: u16,
        removed_next_to: bool,
        key: u64,
        seen: &mut HashSet<u64>,
    ) -> Option<bool> {
        if !self.visit() {
            return None;
        }
        if removed_next_to && self.controls(s) {
            return Some(left >= 1);
        }
        if self.chain_bound(s, false, removed_next_to) > left || !seen.insert(key) {
            return Some(false);
        }
        for &c in chain {
            if self.board[c] >= 0 || !self.controls(c) {
                continue;
            }
            self.board[c] += 1;
            let next_key = key.wrapping_add(removal_key(c));
            let found = self.chain_removals(s, chain, left - 1, removed_next_to || self.adjacent(c, s), next_key, seen);
            self.board[c] -= 1;
            if found != Some(false) {
                return found;
            }
        }
        Some(false)
    }

    /// S's spaces joined to `s` through S's spaces at most `depth` steps away (`s` excluded),
    /// nearest first, and the non-S spaces next to `s` or to any of them.
    fn chain_region(&self, s: usize, depth: u16) -> (Vec<usize>, Vec<usize>) {
        let mut chain = Vec::new();
        let mut frontier = vec![s];
        let mut in_chain = HashSet::from([s]);
        for _ in 0..depth {
            let mut next = Vec::new();
            for &c in &frontier {
                for nb in self.neighbours_of(c) {
                    if self.is_enemy(nb) && in_chain.insert(nb) {
                        next.push(nb);
                    }
                }
            }
            chain.extend(&next);
            frontier = next;
        }
        let mut additions = Vec::new();
        for &c in std::iter::once(&s).chain(&chain) {
            for nb in self.neighbours_of(c) {
                if self.board[nb] >= 0 && !additions.contains(&nb) {
                    additions.push(nb);
                }
            }
        }
        (chain, additions)
    }

    // ------------------------------------------------------------------------------------------
    // A win at once

    /// Whether some M turn of q removes enough of S's pieces to meet `goal`, additions on
    /// `additions_at`, removals on `targets`.
    fn win(&mut self, goal: &WinGoal, targets: &[usize], additions_at: &[usize]) -> Verdict {
        self.limit = self.nodes.saturating_add(WIN_NODES);
        let mut plan = Vec::new();
        match self.win_additions(goal, targets, additions_at, 0, 0, &mut plan) {
            Some(true) => Verdict::Yes(plan),
            Some(false) => Verdict::No,
            None => Verdict::Unknown,
        }
    }

    /// The removals M allows after additions costing `cost`, once q's own safety is paid for.
    fn removals_left(&self, goal: &WinGoal, cost: u16) -> Option<u16> {
        // The fills q still needs for its own spaces, charged on from the fills made so far.
        let short = goal.safety_fills.saturating_sub(self.fills);
        let beyond_pool = (self.fills + short).saturating_sub(self.pool) - self.fills.saturating_sub(self.pool);
        let placements = cost + short + beyond_pool;
        (self.x as u16).checked_sub(placements.max(1))
    }

    fn win_additions(
        &mut self,
        goal: &WinGoal,
        targets: &[usize],
        additions_at: &[usize],
        first: usize,
        cost: u16,
        plan: &mut Vec<usize>,
    ) -> Option<bool> {
        if !self.visit() {
            return None;
        }
        let Some(left) = self.removals_left(goal, cost) else { return Some(false) };
        let mut seen = HashSet::new();
        if self.win_removals(goal, targets, left, (0, 0), 0, &mut seen, plan)? {
            return Some(true);
        }
        for i in first..additions_at.len() {
            let c = additions_at[i];
            if self.board[c] >= self.x as i8 {
                continue;
            }
            let next = cost + self.addition_cost(c);
            self.add(c);
            let reachable = self.removals_left(goal, next).is_some_and(|left| goal.reachable(0, 0, left));
            let found =
                if reachable { self.win_additions(goal, targets, additions_at, i, next, plan) } else { Some(false) };
            self.take_back_addition(c);
            if found != Some(false) {
                return found;
            }
        }
        Some(false)
    }

    #[allow(clippy::too_many_arguments)]
    fn win_removals(
        &mut self,
        goal: &WinGoal,
        targets: &[usize],
        left: u16,
        (removed, emptied): (u16, u16),
        key: u64,
        seen: &mut HashSet<u64>,
        plan: &mut Vec<usize>,
    ) -> Option<bool> {
        if !self.visit() {
            return None;
        }
        if goal.met(removed, emptied) {
            return Some(true);
        }
        if !goal.reachable(removed, emptied, left) || !seen.insert(key) {
            return Some(false);
        }
        for &c in targets {
            if self.board[c] >= 0 || !self.controls(c) {
                continue;
            }
            self.board[c] += 1;
            plan.push(c);
            let done = (removed + 1, emptied + (self.board[c] == 0) as u16);
            let found = self.win_removals(goal, targets, left - 1, done, key.wrapping_add(removal_key(c)), seen, plan);
            self.board[c] -= 1;
            if found != Some(false) {
                return found;
            }
            plan.pop();
        }
        Some(false)
    }
}

/// A removal's share of the key of a removal multiset (summed, so the order does not matter).
fn removal_key(c: usize) -> u64 {
    crate::rules::splitmix64(c as u64 + 1)
}

/// What q's turn must do to S for q to win at the check right after it.
struct WinGoal {
    /// Removed pieces plus emptied spaces needed for S's territory loss.
    territory: i32,
    /// Removed pieces needed for S's attrition.
    attrition: i32,
    /// Vacant spaces q must fill so that it does not meet a loss condition itself.
    safety_fills: u16,
}

impl WinGoal {
    fn met(&self, removed: u16, emptied: u16) -> bool {
        (removed + emptied) as i32 >= self.territory || removed as i32 >= self.attrition
    }

    /// Whether `left` more removals could still meet the goal (each empties a space at best).
    fn reachable(&self, removed: u16, emptied: u16, left: u16) -> bool {
        (removed + emptied + 2 * left) as i32 >= self.territory || (removed + left) as i32 >= self.attrition
    }
}

impl Position {
    /// Every space of `side` that the opponent could remove a piece from in one turn begun on this
    /// board (see the module text: exact for direct removals, never missing one through a chain).
    pub fn threatened(&self, side: Side) -> Vec<Cell> {
        self.threat_report(side).cells
    }

    /// [`threatened`](Self::threatened) with what the search could not decide and the work done.
    pub fn threat_report(&self, side: Side) -> ThreatReport {
        let q = side.opponent();
        let mut report = ThreatReport::default();
        if self.result.is_some() || self.has_no_pieces(q) {
            return report;
        }
        let mut relaxed = Relaxed::new(self, q);
        let x = self.x as u16;
        for s in 0..self.spaces() {
            if self.own_height(side, s) == 0 {
                continue;
            }
            let cell = s as Cell;
            let direct = relaxed.direct_cost(s);
            if direct < x && self.control_cost(q, s, self.x - 1).is_some() {
                report.cells.push(cell);
                report.relaxed.push(cell);
                continue;
            }
            let has_enemy_neighbour = relaxed.neighbours_of(s).any(|nb| relaxed.is_enemy(nb));
            let chain = if !has_enemy_neighbour || self.x < 3 {
                // A chain needs a removal next to `s`, the one at `s` and a placement.
                Verdict::No
            } else if relaxed.nodes >= TOTAL_NODES {
                Verdict::Unknown
            } else {
                let (chain, additions) = relaxed.chain_region(s, x - 2);
                let limit = TARGET_NODES.min(TOTAL_NODES - relaxed.nodes);
                relaxed.chain_to(s, &chain, &additions, limit)
            };
            match chain {
                Verdict::Yes(_) => report.cells.push(cell),
                Verdict::Unknown => {
                    report.cells.push(cell);
                    report.undecided.push(cell);
                }
                Verdict::No => {}
            }
            if chain != Verdict::No || direct < x {
                report.relaxed.push(cell);
            }
        }
        report.nodes = relaxed.nodes;
        report
    }

    /// For a turn in progress whose end is legal: whether ending it now lets the opponent win at
    /// once (see the module text), in one sentence with the spaces the opponent would take pieces
    /// from (none when the end itself loses, or when the player already holds fewer spaces than
    /// pieces lost). `None` when it does not, or when `end` is not legal now.
    pub fn end_turn_warning(&self) -> Option<Warning> {
        self.check_action(Action::EndTurn).ok()?;
        let p = self.side;
        let q = p.opponent();
        let mut ended = self.clone();
        ended.place(&Action::EndTurn, &mut DiscardEffects);
        ended.end_check(&mut DiscardEffects);
        if let Some(result) = ended.result {
            if result.outcome != Outcome::Winner(q) {
                return None;
            }
            let (held, lost) = (self.occupied(p), self.lost(p));
            let text = if result.reason == EndReason::LossCondition && result.flags[p.index()].attrition {
                format!("Ending your turn now loses the game: you have lost {lost} pieces, more than half of them.")
            } else {
                format!(
                    "Ending your turn now loses the game: you would hold {} but have lost {}.",
                    count(held, "space"),
                    count(lost, "piece")
                )
            };
            return Some(Warning { text, cells: Vec::new() });
        }
        if ended.side != Side::Second {
            // Only Dark's turn is followed by the check (§8.1).
            return None;
        }
        self.immediate_win_of(q).map(|(plan, sure)| self.win_warning(q, plan, sure))
    }

    /// Whether `q`, starting a turn on this board, can end it with the check making it the winner:
    /// the spaces it would remove from (in order) and whether the search decided it (`false`: it
    /// hit its bound, so the win is only possible).
    fn immediate_win_of(&self, q: Side) -> Option<(Vec<Cell>, bool)> {
        let s = q.opponent();
        let threshold = self.options.attrition_threshold();
        if self.lost(q) > threshold || self.has_no_pieces(q) {
            // q meets attrition whatever it does: at best a draw.
            return None;
        }
        let goal = WinGoal {
            territory: self.occupied(s) as i32 - self.lost(s) as i32 + 1,
            attrition: threshold as i32 + 1 - self.lost(s) as i32,
            safety_fills: self.lost(q).saturating_sub(self.occupied(q)),
        };
        let report = self.threat_report(s);
        let mut relaxed = Relaxed::new(self, q);
        let targets: Vec<usize> = report.relaxed.iter().map(|&c| c as usize).collect();
        let mut additions = Vec::new();
        for &t in &targets {
            for nb in relaxed.neighbours_of(t) {
                if relaxed.board[nb] >= 0 && !additions.contains(&nb) {
                    additions.push(nb);
                }
            }
        }
        match relaxed.win(&goal, &targets, &additions) {
            Verdict::Yes(plan) => Some((plan.into_iter().map(|c| c as Cell).collect(), true)),
            Verdict::No => None,
            Verdict::Unknown => Some((report.cells, false)),
        }
    }

    /// The warning for a turn end after which `q` can win at once by removing from `plan`.
    fn win_warning(&self, q: Side, plan: Vec<Cell>, sure: bool) -> Warning {
        use crate::games::About;
        let p = q.opponent();
        let them = Self::SIDE_NAMES[q.index()];
        let removals = plan.len() as u16;
        let mut cells = plan;
        cells.sort_unstable();
        cells.dedup();
        let names: Vec<String> = cells.iter().map(|&c| square_name(self.size(), c)).collect();
        let (held, lost) = (self.occupied(p), self.lost(p));
        let text = if held < lost {
            format!(
                "If you end your turn now, {them} wins after its turn: you hold {} but have lost {}.",
                count(held, "space"),
                count(lost, "piece")
            )
        } else if !sure {
            format!(
                "If you end your turn now, {them} may be able to win at once by removing pieces from {}.",
                join_names(&names)
            )
        } else {
            let consequence = if lost + removals > self.options.attrition_threshold() {
                "you would have lost more than half of your pieces"
            } else {
                "you would hold fewer spaces than pieces lost"
            };
            format!(
                "If you end your turn now, {them} can win at once by removing pieces from {}: {consequence}.",
                join_names(&names)
            )
        };
        Warning { text, cells }
    }
}

/// "1 space", "3 spaces".
fn count(n: u16, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// "d4", "d4 and e5", "c3, d4 and e5"; many are left to the marks on the board.
fn join_names(names: &[String]) -> String {
    match names {
        [] => "your spaces".to_string(),
        _ if names.len() > 4 => "the marked spaces".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
