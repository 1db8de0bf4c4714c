//! The shared conformance suite: seeded random playouts of any game, checking what every game
//! must satisfy (each game adds its own invariants through `check`).
#![allow(dead_code)]

use stoneyard::rules::{Notation, Rules, pick_index, seeded};

/// Plays `games` random games from `start` (seeds `0..games`), at most `max_plies` decisions each,
/// and checks at every state:
/// - the game is over exactly when nobody is to move, and an ongoing game has a legal decision;
/// - every generated decision is legal (`is_legal`), formats and parses back to itself, and `play`
///   accepts it; `play` and `play_unchecked` reach the same position;
/// - the position text round-trips (`parse(format(p))` formats the same);
/// - `check(&position)` holds (the game's own invariants).
///
/// Panics if a game does not end within `max_plies`. Returns the total number of decisions played.
pub fn random_playouts<G: Notation>(start: &G, games: u64, max_plies: usize, check: impl Fn(&G)) -> u64 {
    let mut total = 0;
    let mut moves = Vec::new();
    for seed in 0..games {
        let mut rng = seeded(seed);
        let mut pos = start.clone();
        let mut plies = 0;
        loop {
            check(&pos);
            let text = pos.format_position();
            let reparsed = G::parse_position(pos.options(), &text)
                .unwrap_or_else(|e| panic!("seed {seed} ply {plies}: own position text '{text}' rejected: {e}"));
            assert_eq!(reparsed.format_position(), text, "seed {seed} ply {plies}: position text does not round-trip");
            let over = pos.status().is_over();
            assert_eq!(
                over,
                pos.to_move().is_none(),
                "seed {seed} ply {plies}: to_move disagrees with status at {text}"
            );
            if over {
                break;
            }
            assert!(plies < max_plies, "seed {seed}: no end after {max_plies} decisions (at {text})");
            pos.legal_moves(&mut moves);
            assert!(!moves.is_empty(), "seed {seed} ply {plies}: ongoing game with no legal decision at {text}");
            let m = moves[pick_index(&mut rng, moves.len())].clone();
            assert!(pos.is_legal(&m), "seed {seed} ply {plies}: generated {m:?} is not is_legal at {text}");
            let token = pos.format_move(&m);
            assert_eq!(
                pos.parse_move(&token).as_ref(),
                Ok(&m),
                "seed {seed} ply {plies}: move '{token}' does not round-trip"
            );
            let mut fast = pos.clone();
            fast.play_unchecked(&m);
            pos.play(&m).unwrap_or_else(|e| panic!("seed {seed} ply {plies}: legal {token} refused: {e} at {text}"));
            assert_eq!(
                fast.format_position(),
                pos.format_position(),
                "seed {seed} ply {plies}: play_unchecked and play disagree after {token}"
            );
            plies += 1;
        }
        total += plies as u64;
    }
    total
}
