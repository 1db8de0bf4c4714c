//! Uniformly random playouts: the benchmark workload and the simplest AI policy.

use super::{GameRng, Rules, Status, pick_index};

/// What one random playout did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Atomic decisions played.
    pub plies: u64,
    /// Sum over the visited states of their number of legal decisions.
    pub legal_total: u64,
}

/// Plays uniformly random legal decisions from `pos` until the game ends or `max_plies` decisions
/// were made; returns the final status. `moves` is scratch space reused across calls.
pub fn random_playout<R: Rules>(
    pos: &mut R,
    rng: &mut GameRng,
    moves: &mut Vec<R::Move>,
    max_plies: u64,
    stats: &mut PlayoutStats,
) -> Status {
    while !pos.status().is_over() && stats.plies < max_plies {
        pos.legal_moves(moves);
        if moves.is_empty() {
            break;
        }
        stats.legal_total += moves.len() as u64;
        let m = &moves[pick_index(rng, moves.len())];
        pos.play_unchecked(m);
        stats.plies += 1;
    }
    pos.status()
}
