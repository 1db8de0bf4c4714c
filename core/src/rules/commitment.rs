//! A commitment at a simultaneous node, chosen on the side's own copy of the position: the one
//! way every caller (the arena, practice self-play, the review) lets a side seal its decisions
//! without seeing the opponent's.

use super::{Rules, Side, ToMove};

/// `side`'s commitment at `pos`'s simultaneous node: `start` (decisions already chosen), then one
/// decision at a time from `choose` on a copy of `pos` that holds only this side's decisions,
/// until the node is behind the side, it has nothing left to decide, or `most` decisions are made.
/// `choose` sees the copy, the side's legal decisions there (never none) and the decisions made
/// so far. `None` when `choose` gives up or chooses what the copy does not allow.
pub fn commit_on_own_copy<R: Rules>(
    pos: &R,
    side: Side,
    start: &[R::Move],
    most: usize,
    mut choose: impl FnMut(&R, &[R::Move], &[R::Move]) -> Option<R::Move>,
) -> Option<Vec<R::Move>> {
    let mut own = pos.clone();
    for m in start {
        own.play(m).ok()?;
    }
    let mut made = start.to_vec();
    let mut legal = Vec::new();
    while own.to_move() == Some(ToMove::Both) && made.len() < most {
        own.legal_moves_for(side, &mut legal);
        if legal.is_empty() {
            break;
        }
        let m = choose(&own, &legal, &made)?;
        own.play(&m).ok()?;
        made.push(m);
    }
    Some(made)
}
