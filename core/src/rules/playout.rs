//! Uniformly random playouts: the benchmark workload and the simplest AI policy.

use super::{GameRng, Rules, Status};

/// What random playouts did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Atomic decisions played.
    pub plies: u64,
    /// Sum over the visited states of their number of legal decisions (counted only by
    /// [`counted_random_playout`]: listing them is what the fast playout avoids).
    pub legal_total: u64,
}

/// Plays uniformly random legal decisions ([`Rules::random_move`]) from `pos` until the game ends
/// or `stats` counts `max_plies` decisions; returns the final status.
/// `moves` is scratch space reused across calls.
pub fn random_playout<R: Rules>(
    pos: &mut R,
    rng: &mut GameRng,
    moves: &mut Vec<R::Move>,
    max_plies: u64,
    stats: &mut PlayoutStats,
) -> Status {
    playout(pos, rng, moves, max_plies, stats, None)
}

/// [`random_playout`] listing every visited state's decisions to count them
/// (`stats.legal_total`); the same game for the same seed.
pub fn counted_random_playout<R: Rules>(
    pos: &mut R,
    rng: &mut GameRng,
    moves: &mut Vec<R::Move>,
    max_plies: u64,
    stats: &mut PlayoutStats,
) -> Status {
    playout(pos, rng, moves, max_plies, stats, Some(&mut Vec::new()))
}

/// The random playout, listing each state's decisions into `listed` when given.
fn playout<R: Rules>(
    pos: &mut R,
    rng: &mut GameRng,
    moves: &mut Vec<R::Move>,
    max_plies: u64,
    stats: &mut PlayoutStats,
    mut listed: Option<&mut Vec<R::Move>>,
) -> Status {
    while !pos.status().is_over() && stats.plies < max_plies {
        if let Some(listed) = listed.as_deref_mut() {
            pos.legal_moves(listed);
            stats.legal_total += listed.len() as u64;
        }
        let Some(m) = pos.random_move(rng, moves) else { break };
        pos.play_unchecked(&m);
        stats.plies += 1;
    }
    pos.status()
}
