//! Inchworm: the score race to the target and the liberties of each side's groups.

use super::Knowledge;
use super::{Calibration, Engine, PlayoutQuality};
use crate::games::inchworm::Position;
use crate::rules::{Rules, Side};

impl Knowledge for Position {
    // Fitted by `stoneyard calibrate --game inchworm` on 40 self-played games (easy); the data:
    // data/calibration/inchworm.csv, the figures: docs/computer.md#calibrated-win-chances.
    const SHARPNESS: f32 = 0.761;
    const FIRST_SIDE_EDGE: f32 = -0.015;
    const TEMPO: f32 = 0.012;
    // The levels' numbers: see `ai::games` for how they were measured.
    const CALIBRATION: Calibration = Calibration {
        engines: [Engine::Mcts; 3],
        iterations: [400, 12_000, 300_000],
        playouts: [PlayoutQuality::Informed; 3],
        playout_caps: [60; 3],
        review_iterations: 10_000,
        review_playout_cap: 0,
    };

    /// Points decide the game; stones in groups with a single liberty are points the opponent can
    /// take with one drop, and those with two are half as exposed.
    fn margin(&self, side: Side) -> f32 {
        let geometry = self.geometry();
        let empty = self.empty_mask();
        let mut occupied = [0u64; 2];
        for cell in 0..64u8 {
            if let Some((owner, _)) = self.stack(cell) {
                occupied[owner.index()] |= 1 << cell;
            }
        }
        let mut exposed = [0.0f32; 2];
        for owner in [Side::First, Side::Second] {
            let mut left = occupied[owner.index()];
            while left != 0 {
                let group = geometry.flood(left & left.wrapping_neg(), occupied[owner.index()], false);
                left &= !group;
                let liberties = (geometry.orth_spread(group) & empty).count_ones();
                let weight = match liberties {
                    0 | 1 => 1.0,
                    2 => 0.4,
                    _ => continue,
                };
                let stones: u32 = (0..64u8)
                    .filter(|&c| group & (1 << c) != 0)
                    .map(|c| self.stack(c).map_or(0, |(_, h)| u32::from(h)))
                    .sum();
                exposed[owner.index()] += weight * stones as f32;
            }
        }
        let opponent = side.opponent();
        let points = self.score(side) as f32 - self.score(opponent) as f32;
        let margin = points + 0.5 * (exposed[opponent.index()] - exposed[side.index()]);
        let target = self.options().target.max(1) as f32;
        margin / (target / 6.0).clamp(2.0, 10.0)
    }
}
