//! Alpha-beta search over atomic decisions: Gravel's levels, and a rival to MCTS in the arena.
//!
//! Minimax with alpha-beta pruning and iterative deepening, scored at the horizon by the game's
//! [`Knowledge::evaluate`]. Atomic decisions do not alternate sides (a Gravel turn, an Inchworm
//! distribution), so each node maximises or minimises by who decides there rather than negating.
//! A transposition table (for games with a Zobrist key) gives bounds and the first decision to
//! try. The search keeps its own stack instead of recursing, so it can stop after any number of
//! positions and go on later: the browser thinks a few milliseconds per frame. Its budget counts
//! visited positions (the budget's "iterations"), so a seed gives the same decision however the
//! thinking is sliced. Sequential games only: at a simultaneous node it declines
//! ([`DecideError::Simultaneous`]).

use super::budget::{Budget, StopReason};
use super::knowledge::Knowledge;
use super::{DecideError, Strategy, check_may_decide};
use crate::rules::{GameRng, Outcome, Side, Status, ToMove, seeded};
use rand::seq::SliceRandom;
use web_time::Instant;

/// A won game's value (evaluations stay within [-1, 1]); a win sooner scores a little more.
const WIN: f32 = 10.0;
/// Deeper than any search here gets; iterative deepening stops at it.
const MAX_DEPTH: u32 = 64;
/// Transposition-table slots (a power of two): 2^18 × 24 bytes = 6 MB, small enough for a browser.
const TABLE_SLOTS: usize = 1 << 18;

/// What the transposition table remembers of a searched position.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    depth: u32,
    value: f32,
    bound: Bound,
    /// Index of the best decision in the position's legal-decision list.
    best: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The value is at least this (the search was cut off above).
    Lower,
    /// The value is at most this.
    Upper,
}

/// A position being searched: its decisions, which ones are done, and the window.
struct Frame<R: Knowledge> {
    pos: R,
    moves: Vec<R::Move>,
    /// Indexes into `moves` in the order they are tried.
    order: Vec<u32>,
    next: usize,
    depth: u32,
    ply: u32,
    maximising: bool,
    alpha: f32,
    beta: f32,
    window: (f32, f32),
    best_value: f32,
    best: u32,
    key: u64,
}

/// One decision's search, resumable: [`AlphaBetaSearch::think`] runs it for a number of positions.
pub struct AlphaBetaSearch<R: Knowledge> {
    root: R,
    root_side: Side,
    /// The root's decisions; the best of the last finished iteration is kept first.
    root_moves: Vec<R::Move>,
    /// Empty until the first store; a slot with key 0 is empty.
    table: Vec<Entry>,
    stack: Vec<Frame<R>>,
    /// A child's value waiting to be taken by the frame below it.
    returned: Option<f32>,
    depth: u32,
    reached_horizon: bool,
    /// The best root decision so far: of the deepest finished iteration, or of the current one
    /// once it has searched the previous best and found better.
    best: usize,
    finished: bool,
    /// The deepest iteration finished.
    pub depth_done: u32,
}

impl<R: Knowledge> AlphaBetaSearch<R> {
    /// A search for `side` in `pos`; the root's decisions are shuffled by `rng` so that equal
    /// values are broken differently from game to game.
    pub fn new(pos: &R, side: Side, rng: &mut GameRng) -> Result<Self, DecideError> {
        let mut moves = Vec::new();
        check_may_decide(pos, side, &mut moves)?;
        if pos.to_move() == Some(ToMove::Both) {
            return Err(DecideError::Simultaneous);
        }
        moves.shuffle(rng);
        let forced = moves.len() == 1;
        Ok(AlphaBetaSearch {
            root: pos.clone(),
            root_side: side,
            root_moves: moves,
            table: Vec::new(),
            stack: Vec::new(),
            returned: None,
            depth: 0,
            reached_horizon: false,
            best: 0,
            finished: forced,
            depth_done: 0,
        })
    }

    /// The position searched.
    pub fn root_position(&self) -> &R {
        &self.root
    }

    /// The decision now: the best found so far (a legal one even before any thinking).
    pub fn choice(&self) -> R::Move {
        self.root_moves[self.best].clone()
    }

    /// Searches at most `budget.iterations` more positions (and within its time limit and stop
    /// flag). Returns why it stopped; `Forced` means the search is complete (the decision is
    /// forced, proven, or the deepest iteration is done).
    pub fn think(&mut self, budget: &Budget) -> (u64, StopReason) {
        let started = Instant::now();
        let mut done = 0u64;
        loop {
            if self.finished {
                return (done, StopReason::Forced);
            }
            if done >= budget.iterations {
                return (done, StopReason::Iterations);
            }
            if done.is_multiple_of(1_024) {
                if budget.stop_requested() {
                    return (done, StopReason::StopFlag);
                }
                if budget.time_limit.is_some_and(|limit| started.elapsed() >= limit) {
                    return (done, StopReason::TimeLimit);
                }
            }
            if self.step() {
                done += 1;
            }
        }
    }

    /// One step: enters a position (returns `true`: one position visited), or finishes a frame or
    /// an iteration (returns `false`).
    fn step(&mut self) -> bool {
        let Some(top) = self.stack.last_mut() else {
            self.start_iteration();
            return false;
        };
        if let Some(value) = self.returned.take() {
            let index = top.order[top.next - 1];
            if (top.maximising && value > top.best_value) || (!top.maximising && value < top.best_value) {
                top.best_value = value;
                top.best = index;
            }
            if top.maximising {
                top.alpha = top.alpha.max(value);
            } else {
                top.beta = top.beta.min(value);
            }
            if top.alpha >= top.beta {
                top.next = top.order.len();
            }
            if self.stack.len() == 1 {
                self.root_progress();
            }
            return false;
        }
        let Some(&index) = top.order.get(top.next) else {
            self.finish_frame();
            return false;
        };
        top.next += 1;
        let mut child = top.pos.clone();
        child.play_unchecked(&top.moves[index as usize]);
        let (depth, ply, alpha, beta) = (top.depth - 1, top.ply + 1, top.alpha, top.beta);
        self.enter(child, depth, ply, alpha, beta);
        true
    }

    /// Starts the next iteration one decision deeper, or ends the search.
    fn start_iteration(&mut self) {
        if self.depth == MAX_DEPTH {
            self.finished = true;
            return;
        }
        self.depth += 1;
        self.reached_horizon = false;
        let moves = self.root_moves.clone();
        let order = (0..moves.len() as u32).collect();
        let maximising = true;
        let frame = Frame {
            pos: self.root.clone(),
            moves,
            order,
            next: 0,
            depth: self.depth,
            ply: 0,
            maximising,
            alpha: f32::NEG_INFINITY,
            beta: f32::INFINITY,
            window: (f32::NEG_INFINITY, f32::INFINITY),
            best_value: f32::NEG_INFINITY,
            best: 0,
            key: 0,
        };
        self.stack.push(frame);
    }

    /// After each root decision of an unfinished iteration: its best counts once the previous best
    /// (tried first) is searched, since then a better decision is truly better.
    fn root_progress(&mut self) {
        let root = &self.stack[0];
        if root.best_value > f32::NEG_INFINITY {
            self.best = root.best as usize;
        }
    }

    /// A frame has tried its decisions: remember it, and hand its value to the frame below.
    fn finish_frame(&mut self) {
        let Some(frame) = self.stack.pop() else { return };
        if self.stack.is_empty() {
            // An iteration is done: its best decision goes first next time.
            self.root_moves.swap(0, frame.best as usize);
            self.best = 0;
            self.depth_done = self.depth;
            if frame.best_value.abs() >= WIN - 1.0 || !self.reached_horizon {
                self.finished = true; // a forced result, or the whole game searched
            }
            return;
        }
        if frame.key != 0 {
            let bound = if frame.best_value <= frame.window.0 {
                Bound::Upper
            } else if frame.best_value >= frame.window.1 {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let entry = Entry { key: frame.key, depth: frame.depth, value: frame.best_value, bound, best: frame.best };
            self.store(entry);
        }
        self.returned = Some(frame.best_value);
    }

    /// Looks at a new position: a game's end, the horizon or a table hit gives its value at once;
    /// otherwise it becomes a frame to search.
    fn enter(&mut self, pos: R, depth: u32, ply: u32, mut alpha: f32, mut beta: f32) {
        let sooner = ply as f32 * 1e-3;
        let value = match pos.status() {
            Status::Over(Outcome::Winner(side)) if side == self.root_side => Some(WIN - sooner),
            Status::Over(Outcome::Winner(_)) => Some(-WIN + sooner),
            Status::Over(Outcome::Draw) => Some(0.0),
            Status::Ongoing => None,
        };
        if let Some(value) = value {
            self.returned = Some(value);
            return;
        }
        let maximising = match pos.to_move() {
            Some(ToMove::One(side)) if depth > 0 => side == self.root_side,
            _ => {
                self.reached_horizon = true;
                self.returned = Some(pos.evaluate(self.root_side));
                return;
            }
        };
        let key = pos.zobrist();
        let remembered = self.lookup(key);
        if let Some(entry) = remembered
            && entry.depth >= depth
        {
            let settled = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.value >= beta,
                Bound::Upper => entry.value <= alpha,
            };
            if settled {
                // A value from an earlier horizon may stand behind this one.
                self.reached_horizon = true;
                self.returned = Some(entry.value);
                return;
            }
            match entry.bound {
                Bound::Lower => alpha = alpha.max(entry.value),
                Bound::Upper => beta = beta.min(entry.value),
                Bound::Exact => {}
            }
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.reached_horizon = true;
            self.returned = Some(pos.evaluate(self.root_side));
            return;
        }
        let mut order: Vec<u32> = (0..moves.len() as u32).collect();
        if let Some(entry) = remembered
            && (entry.best as usize) < moves.len()
        {
            order.swap(0, entry.best as usize);
        }
        let best = order[0];
        self.stack.push(Frame {
            pos,
            moves,
            order,
            next: 0,
            depth,
            ply,
            maximising,
            alpha,
            beta,
            window: (alpha, beta),
            best_value: if maximising { f32::NEG_INFINITY } else { f32::INFINITY },
            best,
            key,
        });
    }

    fn slot(key: u64) -> usize {
        (key as usize) & (TABLE_SLOTS - 1)
    }

    fn lookup(&self, key: u64) -> Option<Entry> {
        if key == 0 {
            return None;
        }
        self.table.get(Self::slot(key)).copied().filter(|entry| entry.key == key)
    }

    /// Keeps the deeper of two entries that share a slot.
    fn store(&mut self, entry: Entry) {
        if self.table.is_empty() {
            let empty = Entry { key: 0, depth: 0, value: 0.0, bound: Bound::Exact, best: 0 };
            self.table = vec![empty; TABLE_SLOTS];
        }
        let slot = &mut self.table[Self::slot(entry.key)];
        if slot.key == 0 || slot.key == entry.key || slot.depth <= entry.depth {
            *slot = entry;
        }
    }
}

/// The alpha-beta player: a fresh [`AlphaBetaSearch`] for each decision.
pub struct AlphaBeta {
    rng: GameRng,
    /// The deepest iteration finished by the last decision (for reports and tests).
    pub last_depth: u32,
}

impl AlphaBeta {
    pub fn new(seed: u64) -> Self {
        AlphaBeta { rng: seeded(seed), last_depth: 0 }
    }
}

impl<R: Knowledge> Strategy<R> for AlphaBeta {
    fn decide(&mut self, pos: &R, side: Side, budget: &Budget) -> Result<R::Move, DecideError> {
        let mut search = AlphaBetaSearch::new(pos, side, &mut self.rng)?;
        search.think(budget);
        self.last_depth = search.depth_done;
        Ok(search.choice())
    }
}
