//! Red Stone: material (annihilation wins) and red stones that capture enemy groups.

use super::{Calibration, Engine, PlayoutQuality};
use super::{Knowledge, listed_playout_decision};
use crate::games::red_stone::{Move, Position};
use crate::rules::{GameRng, Side, pick_index};

impl Knowledge for Position {
    // Fitted by `stoneyard calibrate --game red-stone` on 40 self-played games (medium); the data:
    // data/calibration/red-stone.csv, the figures: docs/computer.md#calibrated-win-chances.
    const SHARPNESS: f32 = 1.292;
    const FIRST_SIDE_EDGE: f32 = 0.082;
    const TEMPO: f32 = 0.086;
    // The levels' numbers: see `ai::games` for how they were measured.
    const CALIBRATION: Calibration = Calibration {
        engines: [Engine::Mcts; 3],
        iterations: [300, 4_000, 80_000],
        playouts: [PlayoutQuality::Informed; 3],
        playout_caps: [40; 3],
        review_iterations: 16_000,
        review_playout_cap: 0,
    };

    /// The game is won by removing every enemy stone, so the stone margin leads; it is judged
    /// relative to the stones on the board, since one capture means more when few are left.
    fn margin(&self, side: Side) -> f32 {
        let own = self.stone_count(side) as f32;
        let enemy = self.stone_count(side.opponent()) as f32;
        (own - enemy) / (2.0 + 0.15 * (own + enemy))
    }

    fn playout_decision(&self, moves: &mut Vec<Move>, rng: &mut GameRng) -> Option<Move> {
        listed_playout_decision(self, moves, rng, Self::playout_preference)
    }
}

/// How playouts choose (see `playout_decision`).
impl Position {
    /// A red stone that removes more enemy stones than own ones is nearly always right, and
    /// uniform playouts mostly miss them (few of the many legal decisions are red); a red stone
    /// that removes own stones is seldom right. So: the best capturing red stone most of the time,
    /// otherwise a uniformly random own-colour stone.
    fn playout_preference(&self, moves: &[Move], rng: &mut GameRng) -> Option<usize> {
        let mover = self.side_to_move();
        let mut best: Option<(usize, i32)> = None;
        for (i, m) in moves.iter().enumerate() {
            if let Move::Place { at, red: true } = *m {
                let gain: i32 = self
                    .removal_preview(at)
                    .iter()
                    .map(|group| {
                        let size = group.len() as i32;
                        if self.stone_at(group[0]).owner() == Some(mover) { -size } else { size }
                    })
                    .sum();
                if best.is_none_or(|(_, g)| gain > g) {
                    best = Some((i, gain));
                }
            }
        }
        let roll = pick_index(rng, 10);
        if let Some((i, gain)) = best
            && gain > 0
            && roll < 9
        {
            return Some(i);
        }
        // Otherwise an own-colour stone (or the swap) when there is one: red stones that gain
        // nothing only throw stones away.
        let quiet = moves.iter().filter(|m| !matches!(m, Move::Place { red: true, .. })).count();
        if quiet == 0 {
            return None;
        }
        let nth = pick_index(rng, quiet);
        moves.iter().enumerate().filter(|(_, m)| !matches!(m, Move::Place { red: true, .. })).nth(nth).map(|(i, _)| i)
    }
}
