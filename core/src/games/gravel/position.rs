//! The Gravel position: stacks, pools, lost counts, the turn in progress, and control (§7).

use super::options::GravelOptions;
use crate::rules::{Cell, Outcome, Side};
use std::sync::OnceLock;

/// The largest board (19×19) fixes the size of the stack array, so positions clone without
/// allocating.
pub const MAX_SPACES: usize = 19 * 19;

/// 64-bit words of a set of spaces on the largest board.
pub const WORDS: usize = MAX_SPACES.div_ceil(64);

/// A stack index that is always vacant: neighbour tables pad missing neighbours with it, so the
/// hot loops read four neighbours without branches.
pub const NO_SPACE: usize = MAX_SPACES;

/// For each board size N, each space's four neighbours (missing ones are `NO_SPACE`). Built once.
pub fn neighbour_table(n: u8) -> &'static [[u16; 4]] {
    static TABLES: OnceLock<Vec<Vec<[u16; 4]>>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        (0..=19usize)
            .map(|n| {
                (0..n * n)
                    .map(|c| {
                        let (rank, file) = (c / n, c % n);
                        let pick = |ok: bool, v: usize| if ok { v as u16 } else { NO_SPACE as u16 };
                        [
                            pick(rank + 1 < n, c + n),
                            pick(rank > 0, c.wrapping_sub(n)),
                            pick(file > 0, c.wrapping_sub(1)),
                            pick(file + 1 < n, c + 1),
                        ]
                    })
                    .collect()
            })
            .collect()
    });
    &tables[n as usize]
}

/// Each action touches at most two of the mover's spaces, and a turn has at most 9 actions.
const MAX_TOUCHED: usize = 2 * 9;

/// Where a player turn stands in the phase machine of §6.2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Phase {
    /// No action taken yet.
    #[default]
    Start,
    /// Placement actions first; removals may still follow.
    PlaceFirst,
    /// Removals first; placements must follow.
    RemoveFirst,
    /// Removals after the placement phase: only more removals.
    RemoveAfterPlace,
    /// Placements after the removal phase: only more placements.
    PlaceAfterRemove,
}

impl Phase {
    /// The phase after a placement action (Place, Move, Return), or `None` when the phase order
    /// forbids it.
    pub fn after_placement(self) -> Option<Phase> {
        match self {
            Phase::Start | Phase::PlaceFirst => Some(Phase::PlaceFirst),
            Phase::RemoveFirst | Phase::PlaceAfterRemove => Some(Phase::PlaceAfterRemove),
            Phase::RemoveAfterPlace => None,
        }
    }

    /// The phase after a Remove, or `None` when the phase order forbids it.
    pub fn after_removal(self) -> Option<Phase> {
        match self {
            Phase::Start | Phase::RemoveFirst => Some(Phase::RemoveFirst),
            Phase::PlaceFirst | Phase::RemoveAfterPlace => Some(Phase::RemoveAfterPlace),
            Phase::PlaceAfterRemove => None,
        }
    }
}

/// The bookkeeping of the player turn in progress: phase, budget used, and what is needed to
/// judge the net-change rule (§6.4) without copying the board at the start of each turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurnProgress {
    pub phase: Phase,
    /// Actions taken so far this turn.
    pub used: u8,
    /// Placement actions (Place, Move, Return) taken so far this turn.
    pub placements: u8,
    /// The mover's pool when the turn began.
    pub(super) start_pool: u16,
    /// Spaces the mover's placement actions touched, with the mover's height there at the start
    /// of the turn.
    pub(super) touched: [(u16, u8); MAX_TOUCHED],
    pub(super) touched_len: u8,
    /// How many touched spaces differ from their start height right now.
    pub(super) changed: u8,
}

/// Why a finished game ended (§8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Both players met a loss condition.
    MutualLoss,
    /// Exactly one player met a loss condition.
    LossCondition,
    /// Both players were stuck (§8.4).
    Deadlock,
    /// The turn limit was reached.
    TurnLimit,
}

/// The loss conditions of one player at a check (§8.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LossFlags {
    /// `lost > A`.
    pub attrition: bool,
    /// `occupied < lost`.
    pub territory: bool,
}

impl LossFlags {
    pub fn any(self) -> bool {
        self.attrition || self.territory
    }
}

/// The result of a finished game, kept beside the position (D21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub outcome: Outcome,
    pub reason: EndReason,
    /// The loss flags of Light (`[0]`) and Dark (`[1]`) at the final check.
    pub flags: [LossFlags; 2],
}

/// A Gravel position: the board, pools, lost counts, side to move, game turn, the turn in
/// progress and, once the game is over, its result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) options: GravelOptions,
    /// N, spaces per side.
    pub(super) n: u8,
    /// X, the budget and stack cap.
    pub(super) x: u8,
    /// Per space: +h for a Light stack of height h, -h for a Dark stack, 0 for vacant. Only the
    /// first `N*N` entries are used; index = `rank * N + file` (a1 = 0). The entry `NO_SPACE`
    /// past the largest board stays vacant.
    pub(super) stacks: [i8; MAX_SPACES + 1],
    /// The spaces each side occupies, as bits (kept in step with `stacks`), so the generator
    /// visits stacks instead of scanning the board.
    pub(super) occ_bits: [[u64; WORDS]; 2],
    /// The spaces where each side's stack is at the cap X.
    pub(super) full_bits: [[u64; WORDS]; 2],
    /// Pieces in each side's pool, indexed by `Side::index()`.
    pub(super) pool: [u16; 2],
    /// Pieces of each side removed by the opponent.
    pub(super) lost: [u16; 2],
    /// Spaces each side occupies (kept incrementally).
    pub(super) occupied: [u16; 2],
    /// Pieces each side has on the board (kept incrementally).
    pub(super) on_board: [u16; 2],
    pub(super) side: Side,
    /// The game turn, from 1.
    pub(super) turn: u32,
    pub(super) progress: TurnProgress,
    pub(super) result: Option<GameResult>,
    /// Set by `place` when the decision ended the player turn (end-turn or pass); `end_check`
    /// then hands the turn over and runs the end-of-game-turn check.
    pub(super) turn_ending: bool,
}

/// Control (§7) of the space whose neighbours are `nbs`, for the side whose stacks have sign
/// `sg`: branch-free, since missing neighbours point at the always-vacant `NO_SPACE`.
#[inline]
pub(super) fn controls_with(stacks: &[i8; MAX_SPACES + 1], nbs: &[u16; 4], sg: i8) -> bool {
    let (mut o, mut f, mut e) = (0u8, 0i8, 0i8);
    for &nb in nbs {
        let v = stacks[nb as usize] * sg;
        o += (v > 0) as u8;
        f += v.max(0);
        e += (-v).max(0);
    }
    o >= 2 && f > e
}

/// The sign of a side's stacks in `Position::stacks`.
#[inline]
pub(super) fn sign(side: Side) -> i8 {
    match side {
        Side::First => 1,
        Side::Second => -1,
    }
}

impl Position {
    /// N: spaces per side.
    pub fn size(&self) -> usize {
        self.n as usize
    }

    /// X: the action budget per turn and the stack cap.
    pub fn budget(&self) -> u8 {
        self.x
    }

    /// S = N*N.
    pub fn spaces(&self) -> usize {
        self.n as usize * self.n as usize
    }

    /// The space at `file`, `rank` (both 0-based; a1 = (0, 0)).
    pub fn cell_at(&self, file: usize, rank: usize) -> Cell {
        (rank * self.n as usize + file) as Cell
    }

    /// The owner and height of the stack on `cell` (`None` when vacant).
    pub fn stack(&self, cell: Cell) -> Option<(Side, u8)> {
        let v = self.stacks[cell as usize];
        match v.signum() {
            1 => Some((Side::First, v as u8)),
            -1 => Some((Side::Second, v.unsigned_abs())),
            _ => None,
        }
    }

    /// The height of `side`'s stack on `cell` (0 when vacant or the opponent's).
    #[inline]
    pub fn own_height(&self, side: Side, cell: usize) -> u8 {
        let v = self.stacks[cell] * sign(side);
        if v > 0 { v as u8 } else { 0 }
    }

    pub fn pool(&self, side: Side) -> u16 {
        self.pool[side.index()]
    }

    pub fn lost(&self, side: Side) -> u16 {
        self.lost[side.index()]
    }

    /// How many spaces hold `side`'s pieces.
    pub fn occupied(&self, side: Side) -> u16 {
        self.occupied[side.index()]
    }

    /// How many of `side`'s pieces are on the board.
    pub fn pieces_on_board(&self, side: Side) -> u16 {
        self.on_board[side.index()]
    }

    /// V: the number of vacant spaces.
    pub fn vacant(&self) -> usize {
        self.spaces() - self.occupied[0] as usize - self.occupied[1] as usize
    }

    /// The player to move (also while the game is over: Light after the final check, D21).
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The game turn (from 1).
    pub fn game_turn(&self) -> u32 {
        self.turn
    }

    /// The turn in progress.
    pub fn progress(&self) -> &TurnProgress {
        &self.progress
    }

    /// How the game ended, once it has.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The orthogonal neighbours of `cell` (2 to 4 of them) and how many there are.
    #[inline]
    pub fn neighbours(&self, cell: usize) -> ([usize; 4], usize) {
        let n = self.n as usize;
        let (rank, file) = (cell / n, cell % n);
        let mut out = [0; 4];
        let mut len = 0;
        if rank + 1 < n {
            out[len] = cell + n;
            len += 1;
        }
        if rank > 0 {
            out[len] = cell - n;
            len += 1;
        }
        if file > 0 {
            out[len] = cell - 1;
            len += 1;
        }
        if file + 1 < n {
            out[len] = cell + 1;
            len += 1;
        }
        (out, len)
    }

    /// `(O, F, E)` of §7 for `side` judging `cell`: `side`'s occupied neighbours, their total
    /// height, and the opponent's total height on the neighbours. `cell` itself never counts.
    #[inline]
    pub fn control_counts(&self, side: Side, cell: usize) -> (u8, u8, u8) {
        let s = sign(side);
        let (nbs, len) = self.neighbours(cell);
        let (mut o, mut f, mut e) = (0u8, 0u8, 0u8);
        for &nb in &nbs[..len] {
            let v = self.stacks[nb] * s;
            if v > 0 {
                o += 1;
                f += v as u8;
            } else {
                e += (-v) as u8;
            }
        }
        (o, f, e)
    }

    /// Whether `side` controls `cell` right now: `O ≥ 2` and `F > E` (§7).
    #[inline]
    pub fn controls(&self, side: Side, cell: usize) -> bool {
        controls_with(&self.stacks, &neighbour_table(self.n)[cell], sign(side))
    }

    /// Who controls each space (index = cell), for the app's overlay. At most one side controls
    /// a space, since `F > E` cannot hold both ways.
    pub fn control(&self) -> Vec<Option<Side>> {
        (0..self.spaces())
            .map(|c| {
                if self.controls(Side::First, c) {
                    Some(Side::First)
                } else if self.controls(Side::Second, c) {
                    Some(Side::Second)
                } else {
                    None
                }
            })
            .collect()
    }

    /// Resets the turn bookkeeping for the side to move.
    pub(super) fn begin_turn(&mut self) {
        self.progress = TurnProgress { start_pool: self.pool[self.side.index()], ..TurnProgress::default() };
    }

    /// The mover's height on `cell` at the start of the turn.
    #[inline]
    pub(super) fn start_height(&self, cell: usize) -> u8 {
        let pr = &self.progress;
        for &(c, h) in &pr.touched[..pr.touched_len as usize] {
            if c as usize == cell {
                return h;
            }
        }
        self.own_height(self.side, cell)
    }

    /// Whether the mover's own configuration (pool and own heights) differs from the start of
    /// the turn (§6.4 rule 2).
    #[inline]
    pub fn config_changed(&self) -> bool {
        self.pool[self.side.index()] != self.progress.start_pool || self.progress.changed > 0
    }

    /// Changes the mover's stack on `cell` by `delta` pieces, keeping counts and the net-change
    /// bookkeeping up to date.
    #[inline]
    pub(super) fn change_own(&mut self, cell: usize, delta: i8) {
        let side = self.side;
        let before = self.own_height(side, cell);
        let after = (before as i8 + delta) as u8;
        let start = {
            let pr = &mut self.progress;
            let len = pr.touched_len as usize;
            match pr.touched[..len].iter().find(|(c, _)| *c as usize == cell) {
                Some(&(_, h)) => h,
                None => {
                    if len < MAX_TOUCHED {
                        pr.touched[len] = (cell as u16, before);
                        pr.touched_len += 1;
                    }
                    before
                }
            }
        };
        let pr = &mut self.progress;
        pr.changed = pr.changed + (after != start) as u8 - (before != start) as u8;
        self.set_stack(cell, after as i8 * sign(side));
        let i = side.index();
        if before == 0 {
            self.occupied[i] += 1;
        }
        if after == 0 {
            self.occupied[i] -= 1;
        }
        self.on_board[i] = (self.on_board[i] as i16 + delta as i16) as u16;
    }

    /// Writes the stack value of `cell` and keeps the bit sets in step (counts are the caller's).
    #[inline]
    pub(super) fn set_stack(&mut self, cell: usize, value: i8) {
        self.stacks[cell] = value;
        let (w, bit) = (cell / 64, 1u64 << (cell % 64));
        let x = self.x as i8;
        for (i, v) in [(0, value), (1, -value)] {
            if v > 0 {
                self.occ_bits[i][w] |= bit;
            } else {
                self.occ_bits[i][w] &= !bit;
            }
            if v >= x {
                self.full_bits[i][w] |= bit;
            } else {
                self.full_bits[i][w] &= !bit;
            }
        }
    }

    /// Checks the invariants every position keeps: conservation (`pool + board + lost = P`),
    /// heights within `1..=X`, and the incremental counts. Returns a description of the first
    /// broken one.
    pub fn check_invariants(&self) -> Result<(), String> {
        let p = self.options.pieces_per_player();
        for side in Side::BOTH {
            let i = side.index();
            let (mut board, mut occ) = (0u16, 0u16);
            for c in 0..self.spaces() {
                let h = self.own_height(side, c);
                if h > self.x {
                    return Err(format!("space {c} holds {h} pieces, more than X={}", self.x));
                }
                board += h as u16;
                occ += (h > 0) as u16;
            }
            if self.pool[i] as u32 + board as u32 + self.lost[i] as u32 != p as u32 {
                return Err(format!(
                    "conservation broken for side {side:?}: pool {} + board {board} + lost {} != {p}",
                    self.pool[i], self.lost[i]
                ));
            }
            if board != self.on_board[i] || occ != self.occupied[i] {
                return Err(format!("stale counts for side {side:?}"));
            }
        }
        if self.stacks[self.spaces()..].iter().any(|&v| v != 0) {
            return Err("pieces outside the board".to_string());
        }
        for c in 0..MAX_SPACES {
            let (w, bit) = (c / 64, 1u64 << (c % 64));
            for side in Side::BOTH {
                let h = if c < self.spaces() { self.own_height(side, c) } else { 0 };
                let i = side.index();
                if (self.occ_bits[i][w] & bit != 0) != (h > 0) || (self.full_bits[i][w] & bit != 0) != (h >= self.x) {
                    return Err(format!("stale bit sets at space {c}"));
                }
            }
        }
        Ok(())
    }

    /// A 64-bit hash of everything that decides the future of the game (board, pools, lost
    /// counts, side, turn and the turn in progress), for transposition tables.
    pub fn hash64(&self) -> u64 {
        const K: u64 = crate::rules::GOLDEN_GAMMA;
        let mut h: u64 = 0xA076_1D64_78BD_642F ^ self.n as u64 ^ ((self.x as u64) << 8);
        let mut mix = |v: u64| {
            h = (h ^ v).wrapping_mul(K);
            h ^= h >> 29;
        };
        for chunk in self.stacks[..self.spaces()].chunks(8) {
            let mut word = 0u64;
            for (k, &v) in chunk.iter().enumerate() {
                word |= (v as u8 as u64) << (8 * k);
            }
            mix(word);
        }
        mix(self.pool[0] as u64
            | (self.pool[1] as u64) << 16
            | (self.lost[0] as u64) << 32
            | (self.lost[1] as u64) << 48);
        mix(self.side.index() as u64 | (self.turn as u64) << 1);
        let pr = &self.progress;
        mix(pr.phase as u64 | (pr.used as u64) << 8 | (pr.placements as u64) << 16 | (pr.start_pool as u64) << 24);
        // Only the spaces that differ from their start height matter for the rest of the turn;
        // summing makes the hash independent of the order in which they were touched.
        let mut differing = 0u64;
        for &(c, s) in &pr.touched[..pr.touched_len as usize] {
            if self.own_height(self.side, c as usize) != s {
                differing = differing.wrapping_add((c as u64 | (s as u64) << 16).wrapping_mul(K).rotate_left(23));
            }
        }
        mix(differing);
        mix(self.result.is_some() as u64);
        h
    }
}
