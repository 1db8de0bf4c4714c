//! Perft: counts the leaves of the tree of atomic decisions to a fixed depth.

use super::Rules;

/// The number of decision sequences of length `depth` from `pos` (finished games count as
/// leaves where they end early).
pub fn perft<R: Rules>(pos: &R, depth: u32) -> u64 {
    if depth == 0 || pos.status().is_over() {
        return 1;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            perft(&next, depth - 1)
        })
        .sum()
}
