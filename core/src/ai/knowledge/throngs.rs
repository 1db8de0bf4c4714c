//! Throngs: stones (the final count), power over empty sites (territory) and capture threats.

use super::{Calibration, Engine, PlayoutQuality};
use super::{Knowledge, listed_playout_decision, prefer};
use crate::games::throngs::{Move, Position};
use crate::rules::{Cell, GameRng, Side};

impl Knowledge for Position {
    // Fitted by `stoneyard calibrate --game throngs` on 40 self-played games (medium); the data:
    // data/calibration/throngs.csv, the figures: docs/computer.md#calibrated-win-chances.
    const SHARPNESS: f32 = 2.99;
    const FIRST_SIDE_EDGE: f32 = 0.663;
    const TEMPO: f32 = 0.258;
    // The levels' numbers: see `ai::games` for how they were measured.
    const CALIBRATION: Calibration = Calibration {
        engines: [Engine::Mcts; 3],
        iterations: [400, 10_000, 140_000],
        playouts: [PlayoutQuality::Informed; 3],
        playout_caps: [40; 3],
        review_iterations: 30_000,
        review_playout_cap: 0,
    };

    /// Most stones wins at the end. Empty sites where a side has the power to place are its
    /// territory; enemy stones on sites where a side has power 2 can be captured next.
    fn margin(&self, side: Side) -> f32 {
        let mut territory = 0i32;
        let mut threats = 0i32;
        for site in 0..self.geometry().len() as Cell {
            let power = i32::from(self.power(site, side));
            match self.stone(site) {
                None => territory += power.signum(),
                Some(owner) if owner == side => threats -= i32::from(power <= -2),
                Some(_) => threats += i32::from(power >= 2),
            }
        }
        let stones = i32::from(self.stones_of(side)) - i32::from(self.stones_of(side.opponent()));
        (stones as f32 + 0.25 * territory as f32 + 0.5 * threats as f32) / 6.0
    }

    fn playout_decision(&self, moves: &mut Vec<Move>, rng: &mut GameRng) -> Option<Move> {
        listed_playout_decision(self, moves, rng, Self::playout_preference)
    }
}

/// How playouts choose (see `playout_decision`).
impl Position {
    /// Passing out a won game when the opponent has just passed a whole turn (the game then
    /// ends); otherwise captures first (each swings the count by two), then placements (passing
    /// and shuffling stones seldom change the count).
    fn playout_preference(&self, moves: &[Move], rng: &mut GameRng) -> Option<usize> {
        let mover = self.side_to_move();
        // Passing the rest of this turn ends the game when the parts passed in a row already
        // cover the opponent's whole turn and this turn so far (2 before part 1, 3 before part 2).
        let passes_end_the_game = self.passrun() > self.part();
        if passes_end_the_game && self.stones_of(mover) > self.stones_of(mover.opponent()) {
            return moves.iter().position(|m| *m == Move::Pass);
        }
        prefer(moves, rng, 0.8, |m| matches!(m, Move::Capture(_)))
            .or_else(|| prefer(moves, rng, 0.7, |m| matches!(m, Move::Place(_))))
    }
}
