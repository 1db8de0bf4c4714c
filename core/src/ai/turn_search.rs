//! Search over whole turns: for games whose side makes several decisions in a row (a Gravel turn
//! of actions and its end), the few most promising complete turns of each side are found by a
//! beam over the turn's decisions, then searched against each other with alpha-beta, turn by turn.
//!
//! An atomic alpha-beta at Gravel's budgets reaches 4–5 decisions: its own turn, never the
//! opponent's answer. Here each ply is a whole turn, so three plies weigh a turn, the opponent's
//! best answer found the same way, and the turn after it.

use super::budget::Budget;
use super::knowledge::Knowledge;
use super::{DecideError, Strategy, check_may_decide};
use crate::rules::{Outcome, Side, Status, ToMove};
use std::collections::HashSet;

/// A won game's value (evaluations stay within [-1, 1]).
const WIN: f32 = 10.0;
/// More decisions than any turn has: a beam stops there whatever it holds.
const LONGEST_TURN: usize = 32;

/// One complete turn: its decisions, the position after it and its value to its mover.
struct Turn<R: Knowledge> {
    decisions: Vec<R::Move>,
    after: R,
    value: f32,
}

/// The search's numbers: how many partial turns the beam keeps at each decision, how many
/// complete turns of each position are searched, and how many turns deep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnSearch {
    pub width: usize,
    pub keep: usize,
    pub depth: u32,
}

/// `side`'s value of `pos`: a finished game's result, or the evaluation.
fn value_for<R: Knowledge>(pos: &R, side: Side) -> f32 {
    match pos.status() {
        Status::Over(Outcome::Winner(winner)) if winner == side => WIN,
        Status::Over(Outcome::Winner(_)) => -WIN,
        Status::Over(Outcome::Draw) => 0.0,
        Status::Ongoing => pos.evaluate(side),
    }
}

impl TurnSearch {
    /// The best `keep` complete turns of the side to move (by its own evaluation after each),
    /// best first; empty where no single side is to move.
    fn turns<R: Knowledge>(&self, pos: &R, moves: &mut Vec<R::Move>) -> Vec<Turn<R>> {
        let Some(ToMove::One(mover)) = pos.to_move() else { return Vec::new() };
        let mut frontier = vec![Turn { decisions: Vec::new(), after: pos.clone(), value: 0.0 }];
        let mut complete: Vec<Turn<R>> = Vec::new();
        let mut seen = HashSet::new();
        for _ in 0..LONGEST_TURN {
            let mut next = Vec::new();
            for partial in &frontier {
                partial.after.legal_moves(moves);
                for decision in moves.iter() {
                    let mut after = partial.after.clone();
                    after.play_unchecked(decision);
                    // Decisions in another order often reach the same position: keep one.
                    let key = after.zobrist();
                    if key != 0 && !seen.insert(key) {
                        continue;
                    }
                    let mut decisions = partial.decisions.clone();
                    decisions.push(decision.clone());
                    let turn = Turn { value: value_for(&after, mover), decisions, after };
                    if turn.after.to_move() == Some(ToMove::One(mover)) && turn.after.status() == Status::Ongoing {
                        // Ranked with what the rest of the turn can surely still gain from here.
                        let value = libm::tanhf(turn.after.partial_turn_margin(mover));
                        next.push(Turn { value, ..turn });
                    } else {
                        complete.push(turn);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            // Stable: equal values keep the order the decisions were listed in.
            next.sort_by(|a, b| b.value.total_cmp(&a.value));
            next.truncate(self.width);
            frontier = next;
        }
        complete.sort_by(|a, b| b.value.total_cmp(&a.value));
        complete.truncate(self.keep);
        complete
    }

    /// `root`'s value of `pos` searched `depth` turns deep within (`alpha`, `beta`).
    fn value<R: Knowledge>(
        &self,
        pos: &R,
        root: Side,
        depth: u32,
        mut alpha: f32,
        mut beta: f32,
        moves: &mut Vec<R::Move>,
    ) -> f32 {
        if depth == 0 || pos.status() != Status::Ongoing {
            return value_for(pos, root);
        }
        let Some(ToMove::One(mover)) = pos.to_move() else { return value_for(pos, root) };
        let turns = self.turns(pos, moves);
        if turns.is_empty() {
            return value_for(pos, root);
        }
        let maximising = mover == root;
        if depth == 1 {
            // The beam has already valued each turn from its mover's side.
            let best = turns[0].value;
            return if maximising { best } else { -best };
        }
        let mut best = if maximising { f32::NEG_INFINITY } else { f32::INFINITY };
        for turn in &turns {
            let value = self.value(&turn.after, root, depth - 1, alpha, beta, moves);
            if maximising {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The first decision of the best turn for `side` in `pos`. Sequential games only: at a
    /// simultaneous node it declines ([`DecideError::Simultaneous`]), as alpha-beta does.
    pub fn decide<R: Knowledge>(&self, pos: &R, side: Side) -> Result<R::Move, DecideError> {
        let mut moves = Vec::new();
        check_may_decide(pos, side, &mut moves)?;
        if pos.to_move() == Some(ToMove::Both) {
            return Err(DecideError::Simultaneous);
        }
        if moves.len() == 1 {
            return Ok(moves.swap_remove(0));
        }
        let turns = self.turns(pos, &mut moves);
        let mut best: Option<(f32, &Turn<R>)> = None;
        let mut alpha = f32::NEG_INFINITY;
        for turn in &turns {
            let value = self.value(&turn.after, side, self.depth.saturating_sub(1), alpha, f32::INFINITY, &mut moves);
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, turn));
                alpha = alpha.max(value);
            }
        }
        match best {
            Some((_, turn)) => Ok(turn.decisions[0].clone()),
            None => {
                pos.legal_moves_for(side, &mut moves);
                moves.into_iter().next().ok_or(DecideError::NotYourTurn)
            }
        }
    }
}

impl<R: Knowledge> Strategy<R> for TurnSearch {
    fn decide(&mut self, pos: &R, side: Side, _budget: &Budget) -> Result<R::Move, DecideError> {
        TurnSearch::decide(self, pos, side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gravel::rule_book_example_2;
    use crate::games::hidden_intention;
    use crate::rules::{Notation, Rules};

    #[test]
    fn a_turn_search_finds_the_turn_that_removes_most() {
        // The rule book's Example 2: Dark removes b3, which gives it c3 (two pieces). Placing on
        // d1 first gives it d2 too, and then b3 and c3: three, a plan a search of single decisions
        // never sees at the first one (the placement removes nothing by itself).
        let pos = rule_book_example_2();
        let search = TurnSearch { width: 8, keep: 8, depth: 1 };
        let mut moves = Vec::new();
        let best = &search.turns(&pos, &mut moves)[0];
        let turn: Vec<String> = best.decisions.iter().map(|d| pos.format_move(d)).collect();
        assert_eq!(turn, ["+d1", "xd2", "xb3", "xc3", "end"]);
        assert_eq!(best.after.lost(Side::First), 3);
        assert_eq!(pos.format_move(&search.decide(&pos, Side::Second).unwrap()), "+d1");
        // Two turns deep it still plays it: Light has no answer that wins as much back.
        let deeper = TurnSearch { depth: 2, ..search };
        assert_eq!(pos.format_move(&deeper.decide(&pos, Side::Second).unwrap()), "+d1");
        // Where both sides commit at once there are no turns to search: it declines.
        let sealed = hidden_intention::Position::new(&Default::default());
        assert_eq!(sealed.to_move(), Some(ToMove::Both));
        assert_eq!(search.decide(&sealed, Side::First), Err(DecideError::Simultaneous));
    }
}
