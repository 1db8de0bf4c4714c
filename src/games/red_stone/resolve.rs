//! The named phases of a Red Stone move: `place` → `capture_sweep` → `end_check` (no cascade:
//! removal is one simultaneous sweep, §4.4). `Rules::play` is their composition.
//!
//! Effect waves: wave 0 is the placed stone (or the swap), wave 1 every group removed by a red
//! stone — all in the same wave because they leave at the same time — and wave 2 the end of the
//! game.

use super::moves::Move;
use super::position::{EndReason, Pending, Position, Stone};
use crate::rules::{Effect, EffectKind, Effects, Outcome, PlayError, Side};

/// The wave of the placement itself.
const WAVE_PLACE: u16 = 0;
/// The wave in which every bounded group leaves the board at once.
const WAVE_REMOVE: u16 = 1;
/// The wave of the game-over announcement.
const WAVE_END: u16 = 2;

impl Position {
    /// Phase 1: checks the move and puts the stone down (or takes the swap). Nothing is removed
    /// yet: after a red stone the board is the B′ of §4.3, with the bounded groups still on it.
    pub(crate) fn place_phase(&mut self, m: &Move) -> Result<Effects, PlayError> {
        if let Some(reason) = self.why_illegal(m) {
            return Err(PlayError::new(reason));
        }
        let by = self.to_move;
        let effect = match *m {
            Move::Swap => {
                self.pending = Pending::Swapped;
                EffectKind::PieSwap { by }
            }
            Move::Place { at: cell, red } => {
                let at = self.padded(cell).expect("why_illegal checked the point");
                self.put_stone(at, red);
                let piece = if red { Stone::Red } else { Stone::of(by) };
                EffectKind::Placed { cell, by, piece: piece.symbol(), count: 1 }
            }
        };
        Ok(vec![Effect::new(WAVE_PLACE, effect)])
    }

    /// Phase 2: after a red stone, removes every group left without liberties, all at once.
    pub(crate) fn capture_sweep_phase(&mut self) -> Effects {
        let Pending::Placed { at, red: true } = self.pending else { return Effects::new() };
        let (groups, n) = self.bounded_around(at);
        let by = self.to_move;
        let effects = groups[..n]
            .iter()
            .map(|&g| {
                let mut cells: Vec<_> = self.group_stones(g).into_iter().map(|s| self.public(s)).collect();
                cells.sort_unstable();
                Effect::new(WAVE_REMOVE, EffectKind::Captured { cells, by })
            })
            .collect();
        self.remove_groups(&groups[..n]);
        effects
    }

    /// Phase 4: decides whether the game ended (only a red stone can end it, §5) and whose
    /// decision is next; opens or closes the pie offer.
    pub(crate) fn end_check_phase(&mut self) -> Effects {
        let mut effects = Effects::new();
        if let Some((winner, _)) = self.finish_turn() {
            effects.push(Effect::new(WAVE_END, EffectKind::GameOver { outcome: Outcome::Winner(winner) }));
        } else if !self.has_legal_move() {
            // Impossible by §4.7; decision D10 keeps release builds from hanging if it ever happens.
            debug_assert!(false, "no legal placement in a running game");
            let winner = self.to_move.opponent();
            self.result = Some((winner, EndReason::NoLegalPlacement));
            effects.push(Effect::new(WAVE_END, EffectKind::GameOver { outcome: Outcome::Winner(winner) }));
        }
        effects
    }

    /// The whole move without checks or effects, for search and playouts.
    #[inline]
    pub(crate) fn play_fast(&mut self, m: &Move) {
        match *m {
            Move::Swap => self.pending = Pending::Swapped,
            Move::Place { at: cell, red } => {
                let Some(at) = self.padded(cell) else { return };
                self.put_stone(at, red);
                if red {
                    let (groups, n) = self.bounded_around(at);
                    self.remove_groups(&groups[..n]);
                }
            }
        }
        self.finish_turn();
    }

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
