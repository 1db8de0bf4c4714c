//! What a timeout does to a game: a player out of time (a live flag, or a correspondence claim)
//! or gone (a live player disconnected past the grace period) loses, unless the opponent could
//! not possibly win from the position, which is then a draw. The same rule for all five games,
//! read from each game's own rules: the opponent "could not win" when every way the game can
//! still go ends without the opponent winning, found by trying them all (a few thousand
//! positions at most); where there are more, the opponent could still win.

use crate::games::DynGame;
use crate::rules::{Outcome, Side, Status, ToMove};

/// Positions tried before concluding the opponent could still win.
pub const SEARCH_BUDGET: usize = 20_000;

/// Whether `side` wins in some way the game can still go from `position` (within `budget`
/// positions; past it, yes).
pub fn could_still_win(position: &dyn DynGame, side: Side, budget: usize) -> bool {
    let mut left = budget;
    search(position, side, &mut left)
}

fn search(position: &dyn DynGame, side: Side, left: &mut usize) -> bool {
    if *left == 0 {
        return true;
    }
    *left -= 1;
    match position.status() {
        Status::Over(Outcome::Winner(w)) => return w == side,
        Status::Over(Outcome::Draw) => return false,
        Status::Ongoing => {}
    }
    let deciders: Vec<Side> = match position.to_move() {
        Some(ToMove::One(s)) => vec![s],
        // Both commit: either may seal first; every order is tried.
        Some(ToMove::Both) => Side::BOTH.to_vec(),
        None => return false,
    };
    for decider in deciders {
        for decision in position.legal_decisions(decider) {
            let mut next = position.clone_box();
            if next.play_decision(&decision).is_err() {
                continue;
            }
            if search(next.as_ref(), side, left) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;

    #[test]
    fn an_opening_position_can_be_won_by_either_side() {
        for kind in GameKind::all() {
            let game = kind.open(&kind.quick_pairs(), None).unwrap();
            assert!(could_still_win(game.as_ref(), Side::First, SEARCH_BUDGET), "{}", kind.slug());
            assert!(could_still_win(game.as_ref(), Side::Second, SEARCH_BUDGET), "{}", kind.slug());
        }
    }
}
