//! Seeded random play for tests that need games to read, write or fuzz (no Bevy).

use stoneyard::games::DynGame;
use stoneyard::rules::{Side, ToMove, pick_index, seeded};

/// Plays up to `decisions` seeded random decisions on a copy of `start` (at a simultaneous node,
/// the first side that still has a choice to seal); returns them.
pub fn random_decisions(start: &dyn DynGame, decisions: usize, seed: u64) -> Vec<String> {
    let mut game = start.clone_box();
    let mut rng = seeded(seed);
    let mut played = Vec::new();
    for _ in 0..decisions {
        let legal: Vec<String> = match game.to_move() {
            None => break,
            Some(ToMove::One(side)) => game.legal_decisions(side),
            Some(ToMove::Both) => {
                Side::BOTH.into_iter().map(|s| game.legal_decisions(s)).find(|l| !l.is_empty()).unwrap_or_default()
            }
        };
        if legal.is_empty() {
            break;
        }
        let d = legal[pick_index(&mut rng, legal.len())].clone();
        game.play_decision(&d).expect("a legal decision plays");
        played.push(d);
    }
    played
}
