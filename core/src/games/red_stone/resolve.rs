//! Red Stone's rules (`Rules`): the named phases of a move, `place` → `capture_sweep` →
//! `end_check` (no cascade: removal is one simultaneous sweep, §4.4).
//!
//! Effect waves: wave 0 is the placed stone (or the swap), wave 1 every group removed by a red
//! stone — all in the same wave because they leave at the same time — and wave 2 the end of the
//! game.

use super::moves::Move;
use super::options::RedStoneOptions;
use super::position::{EndReason, Pending, Position, Slot, Stone};
use crate::rules::{EffectKind, EffectSink, Outcome, PlayError, Rules, Side, Status, ToMove};

/// The wave of the placement itself.
const WAVE_PLACE: u16 = 0;
/// The wave in which every bounded group leaves the board at once.
const WAVE_REMOVE: u16 = 1;
/// The wave of the game-over announcement.
const WAVE_END: u16 = 2;

impl Rules for Position {
    type Move = Move;
    type Options = RedStoneOptions;

    /// The empty board, Black to move.
    fn new(options: &RedStoneOptions) -> Self {
        let size = options.size as usize;
        let stride = size + 2;
        let mut board = vec![Slot::BORDER; stride * stride];
        for y in 0..size {
            for x in 0..size {
                board[(y + 1) * stride + x + 1] = Slot::EMPTY;
            }
        }
        let mut pos = Position {
            options: *options,
            size,
            stride,
            board,
            to_move: Side::First,
            swap_open: false,
            swapped: false,
            stones: [0, 0],
            reds: 0,
            result: None,
            hash: 0,
            pending: Pending::Nothing,
            empty_points: Default::default(),
            last_liberty: Default::default(),
        };
        pos.hash = pos.compute_hash();
        pos.recompute_point_sets();
        pos
    }

    fn options(&self) -> &RedStoneOptions {
        &self.options
    }

    fn to_move(&self) -> Option<ToMove> {
        self.result.is_none().then_some(ToMove::One(self.to_move))
    }

    fn status(&self) -> Status {
        match self.result {
            None => Status::Ongoing,
            Some((winner, _)) => Status::Over(Outcome::Winner(winner)),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn mover(&self, _m: &Move) -> Side {
        self.to_move
    }

    fn check(&self, m: &Move) -> Result<(), PlayError> {
        self.why_illegal(m).map_or(Ok(()), |reason| Err(PlayError::new(reason)))
    }

    fn is_legal(&self, m: &Move) -> bool {
        self.legal_fast(m)
    }

    /// Phase 1: puts the stone down (or takes the swap). Nothing is removed yet: after a red
    /// stone the board is the B′ of §4.3, with the bounded groups still on it.
    fn place(&mut self, m: &Move, effects: &mut impl EffectSink) {
        let by = self.to_move;
        match *m {
            Move::Swap => {
                self.pending = Pending::Swapped;
                effects.emit(WAVE_PLACE, || EffectKind::PieSwap { by });
            }
            Move::Place { at: cell, red } => {
                let Some(at) = self.padded(cell) else { return };
                self.put_stone(at, red);
                let piece = if red { Stone::Red } else { Stone::of(by) };
                effects.emit(WAVE_PLACE, || EffectKind::Placed { cell, by, piece: piece.symbol(), count: 1 });
            }
        }
    }

    /// Phase 2: after a red stone, removes every group left without liberties, all at once.
    fn capture_sweep(&mut self, effects: &mut impl EffectSink) {
        let Pending::Placed { at, red: true } = self.pending else { return };
        let (groups, n) = self.bounded_around(at);
        let by = self.to_move;
        for &g in &groups[..n] {
            effects.emit(WAVE_REMOVE, || {
                let mut cells: Vec<_> = self.group_stones(g).into_iter().map(|s| self.public(s)).collect();
                cells.sort_unstable();
                EffectKind::Captured { cells, by }
            });
        }
        self.remove_groups(&groups[..n]);
    }

    /// Phase 4: decides whether the game ended (only a red stone can end it, §5) and whose
    /// decision is next; opens or closes the pie offer.
    fn end_check(&mut self, effects: &mut impl EffectSink) {
        if let Some((winner, _)) = self.finish_turn() {
            effects.emit(WAVE_END, || EffectKind::GameOver { outcome: Outcome::Winner(winner) });
        } else if effects.records() && !self.has_legal_move() {
            // Impossible by §4.7; decision D10 keeps release builds from hanging if it ever
            // happens. Search keeps no effects and skips this scan: it would find no move anyway.
            debug_assert!(false, "no legal placement in a running game");
            let winner = self.to_move.opponent();
            self.result = Some((winner, EndReason::NoLegalPlacement));
            effects.emit(WAVE_END, || EffectKind::GameOver { outcome: Outcome::Winner(winner) });
        }
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }
}

impl Position {
    fn put_stone(&mut self, at: u16, red: bool) {
        if red {
            self.put_red(at);
        } else {
            self.put_coloured(at, self.to_move);
        }
        self.pending = Pending::Placed { at, red };
    }

    /// Applies §5 after a red stone, passes the turn and keeps the pie offer and the hash right.
    /// Returns the result when the game just ended.
    fn finish_turn(&mut self) -> Option<(Side, EndReason)> {
        let mover = self.to_move;
        let pending = std::mem::replace(&mut self.pending, Pending::Nothing);
        self.hash ^= self.turn_hash();
        match pending {
            Pending::Nothing => {}
            Pending::Swapped => {
                // The players exchange colours; the board stays, and White (now P1) moves.
                self.swap_open = false;
                self.swapped = true;
            }
            Pending::Placed { red, .. } => {
                self.swap_open =
                    !red && mover == Side::First && self.stones == [1, 0] && self.reds == 0 && !self.swapped;
                if red {
                    self.result = end_of_game(mover, self.stones);
                }
                self.to_move = mover.opponent();
            }
        }
        self.hash ^= self.turn_hash();
        self.result
    }
}

/// Rule §5 after a red placement by `mover`, given the black and white stones left.
pub(crate) fn end_of_game(mover: Side, stones: [u16; 2]) -> Option<(Side, EndReason)> {
    let (mine, theirs) = (stones[mover.index()], stones[mover.opponent().index()]);
    match (mine, theirs) {
        (0, 0) => Some((mover, EndReason::DoubleAnnihilation)),
        (_, 0) => Some((mover, EndReason::Annihilation)),
        (0, _) => Some((mover.opponent(), EndReason::SelfAnnihilation)),
        _ => None,
    }
}
