//! Gravel: territory slack (occupied − lost, the loss condition) and control of enemy stacks.

use super::{Calibration, Engine, PlayoutQuality};
use super::{Knowledge, listed_playout_decision, prefer};
use crate::games::gravel::{Action, Position};
use crate::rules::Rules;
use crate::rules::{GameRng, Side};

impl Knowledge for Position {
    // Fitted by `stoneyard calibrate --game gravel` on 40 self-played games (medium); the data:
    // data/calibration/gravel.csv, the figures: docs/computer.md#calibrated-win-chances.
    const SHARPNESS: f32 = 0.528;
    const FIRST_SIDE_EDGE: f32 = -0.655;
    const TEMPO: f32 = 0.01;
    // The levels' numbers: see `ai::games` for how they were measured.
    const CALIBRATION: Calibration = Calibration {
        engines: [Engine::Mcts, Engine::AlphaBeta, Engine::AlphaBeta],
        iterations: [100, 150_000, 8_000_000],
        playouts: [PlayoutQuality::Informed; 3],
        playout_caps: [60; 3],
        review_iterations: 40_000,
        review_playout_cap: 0,
    };

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

    /// With the best run of removals the actions left this turn can make from here (one kept
    /// for the placement a removal-first turn still owes).
    fn partial_turn_margin(&self, side: Side) -> f32 {
        if self.side_to_move() != side || self.result().is_some() {
            return self.margin(side);
        }
        let progress = self.progress();
        let owed = u8::from(progress.placements == 0);
        let left = self.budget().saturating_sub(progress.used + owed);
        self.best_removals(side, left, &mut Vec::new())
    }

    fn playout_decision(&self, moves: &mut Vec<Action>, rng: &mut GameRng) -> Option<Action> {
        listed_playout_decision(self, moves, rng, Self::playout_preference)
    }
}

/// How playouts choose (see `playout_decision`).
impl Position {
    /// `side`'s best margin after at most `left` removals in a row from here (none: the margin).
    fn best_removals(&self, side: Side, left: u8, moves: &mut Vec<Action>) -> f32 {
        let mut best = self.margin(side);
        if left == 0 {
            return best;
        }
        self.legal_moves(moves);
        let removals: Vec<Action> = moves.iter().copied().filter(|m| matches!(m, Action::Remove(_))).collect();
        for removal in removals {
            let mut after = self.clone();
            after.play_unchecked(&removal);
            best = best.max(after.best_removals(side, left - 1, moves));
        }
        best
    }

    /// Removals first (they are what wins), then placements from the pool (they gain territory);
    /// the many on-board moves and returns only get the leftover share.
    fn playout_preference(&self, moves: &[Action], rng: &mut GameRng) -> Option<usize> {
        prefer(moves, rng, 0.9, |m| matches!(m, Action::Remove(_)))
            .or_else(|| prefer(moves, rng, 0.6, |m| matches!(m, Action::Place(_))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::knowledge::Knowledge;
    use crate::games::gravel::rule_book_example_2;
    use crate::rules::{Notation, Side};

    #[test]
    fn a_partial_turn_counts_the_removals_its_actions_left_can_make() {
        // The rule book's Example 2 after Dark's +d1: nothing is removed yet, but d2 is now
        // Dark's to take, which opens b3 and then c3 with the three actions left.
        let mut pos = rule_book_example_2();
        let play = |pos: &mut Position, token: &str| pos.play_unchecked(&pos.parse_move(token).unwrap());
        play(&mut pos, "+d1");
        let mut after = pos.clone();
        for token in ["xd2", "xb3", "xc3"] {
            play(&mut after, token);
        }
        let dark = Side::Second;
        assert_eq!(pos.partial_turn_margin(dark), after.margin(dark));
        assert!(pos.partial_turn_margin(dark) > pos.margin(dark));
        // Once the turn is over, nothing more is counted (Light's removals are not Dark's).
        play(&mut after, "end");
        assert_eq!(after.partial_turn_margin(dark), after.margin(dark));
    }
}
