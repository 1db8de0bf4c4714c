//! Gravel: territory slack (occupied − lost, the loss condition) and control of enemy stacks.

use super::{Knowledge, listed_playout_decision, prefer};
use crate::games::gravel::{Action, Position};
use crate::rules::{GameRng, Side};

impl Knowledge for Position {
    // Fitted by `stoneyard calibrate --game gravel` on 40 self-played games (medium); the data:
    // data/calibration/gravel.csv, the figures: docs/computer.md#calibrated-win-chances.
    const SHARPNESS: f32 = 0.528;
    const FIRST_SIDE_EDGE: f32 = -0.655;
    const TEMPO: f32 = 0.01;

    /// A side loses when `occupied < lost` (attrition implies it), so `occupied − lost` is how far
    /// each side stands from losing; enemy pieces a side controls are removals it threatens next.
    fn margin(&self, side: Side) -> f32 {
        let opponent = side.opponent();
        let slack = |s: Side| f32::from(self.occupied(s)) - f32::from(self.lost(s));
        let mut threatened = [0.0f32; 2];
        for cell in 0..self.spaces() {
            if let Some((owner, height)) = self.stack(cell as u16)
                && self.controls(owner.opponent(), cell)
            {
                threatened[owner.index()] += f32::from(height.min(self.budget()));
            }
        }
        let margin = slack(side) - slack(opponent) + 0.5 * (threatened[opponent.index()] - threatened[side.index()]);
        margin / 6.0
    }

    fn playout_decision(&self, moves: &mut Vec<Action>, rng: &mut GameRng) -> Option<Action> {
        listed_playout_decision(self, moves, rng, Self::playout_preference)
    }
}

/// How playouts choose (see `playout_decision`).
impl Position {
    /// Removals first (they are what wins), then placements from the pool (they gain territory);
    /// the many on-board moves and returns only get the leftover share.
    fn playout_preference(&self, moves: &[Action], rng: &mut GameRng) -> Option<usize> {
        prefer(moves, rng, 0.9, |m| matches!(m, Action::Remove(_)))
            .or_else(|| prefer(moves, rng, 0.6, |m| matches!(m, Action::Place(_))))
    }
}
