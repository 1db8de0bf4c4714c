//! One uniformly random legal decision without listing them all: what random playouts play.
//!
//! The cheap kinds (drops, placements, collect starts and steps, rescue) are whole bit sets whose
//! sizes are their counts; only a spread's start or step needs the costly "is there room" check,
//! so it is made for the one candidate drawn. A drawn candidate that fails is dropped from its
//! set and the draw repeated among those left: every legal decision keeps the same chance.

use super::moves::{Move, can_extend};
use super::position::{Position, Sq, bit};
use crate::rules::{GameRng, pick_index};

/// The `n`-th lowest set cell of `mask` (`n` < its count), found a byte at a time: clearing
/// the bits below it one by one cost a sixth of a playout's sampling.
fn nth_cell(mask: u64, n: usize) -> Sq {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = 0x8080_8080_8080_8080;
    // Set bits per byte, then (times ONES) byte i holds the set bits of bytes 0..=i.
    let mut per_byte = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    per_byte = (per_byte & 0x3333_3333_3333_3333) + ((per_byte >> 2) & 0x3333_3333_3333_3333);
    per_byte = (per_byte + (per_byte >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    let running = per_byte.wrapping_mul(ONES);
    // A byte's top bit stays set where its running count is at most n (no borrow crosses bytes:
    // counts are at most 64): those bytes come before the one holding the wanted cell.
    let before_bytes = (((n as u64 * ONES) | TOPS) - running) & TOPS;
    let byte = ((before_bytes >> 7).wrapping_mul(ONES) >> 56) as u32;
    let skipped = if byte == 0 { 0 } else { (running >> (8 * (byte - 1))) & 0xFF };
    let mut left = (mask >> (8 * byte)) & 0xFF;
    for _ in 0..(n as u64 - skipped) {
        left &= left - 1;
    }
    (8 * byte + left.trailing_zeros()) as Sq
}

/// How many cells `mask` holds.
fn count(mask: u64) -> usize {
    mask.count_ones() as usize
}

impl Position {
    /// The cells holding a stack of two or more stones: eight heights at a time, as the bytes of
    /// one word (playouts ask at every ply; a loop over the cells cost a tenth of their time).
    fn tall_mask(&self) -> u64 {
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // Moves bit 8·i to bit 56 + i: the eight byte flags side by side in the top byte.
        const GATHER: u64 = 0x0102_0408_1020_4080;
        let mut mask = 0;
        for (k, word) in self.height.chunks_exact(8).enumerate() {
            let w = u64::from_le_bytes(word.try_into().expect("eight heights"));
            let two_or_more = w & !0x0101_0101_0101_0101;
            // A byte's top bit set iff the byte is not zero (no carry crosses a byte).
            let nonzero = (((two_or_more & LOW7) + LOW7) | two_or_more) & HIGH;
            mask |= ((nonzero >> 7).wrapping_mul(GATHER) >> 56) << (8 * k);
        }
        mask
    }

    /// A uniformly random legal decision (the same choice as `generate` and one uniform index
    /// would make, by another draw); `None` once the game is over.
    pub(crate) fn random_decision(&self, rng: &mut GameRng) -> Option<Move> {
        if self.result.is_some() {
            return None;
        }
        let geom = self.geometry();
        let empty = self.empty_mask();
        if let Some(spread) = &self.spread {
            let (free, remaining, mut candidates) = self.spread_steps(spread);
            while candidates != 0 {
                let n = nth_cell(candidates, pick_index(rng, count(candidates)));
                if can_extend(geom, free & !bit(n), n, remaining - 1) {
                    return Some(Move::SpreadStep(n));
                }
                candidates &= !bit(n);
            }
            // A spread starts only with room to finish, so some step always has room.
            return None;
        }
        let me = self.side.index();
        let own = self.occupied[me];
        if let Some(run) = &self.collect {
            let steps = self.collect_steps(run);
            let targets = if run.len >= 2 { run.cells } else { 0 };
            let i = pick_index(rng, count(steps) + count(targets));
            return Some(if i < count(steps) {
                Move::CollectStep(nth_cell(steps, i))
            } else {
                Move::CollectOnto(nth_cell(targets, i - count(steps)))
            });
        }
        let drops = if self.stock[me] > 0 { empty | own } else { 0 };
        let places = if self.options.prisoner_drops && self.held[me] > 0 { empty } else { 0 };
        let collects = own & geom.king_spread(own);
        let mut tall = own & self.tall_mask();
        let rescue = usize::from(self.held[1 - me] > 0);
        loop {
            let kinds = [count(drops), count(places), count(collects), count(tall)];
            let total: usize = kinds.iter().sum::<usize>() + rescue;
            if total == 0 {
                return Some(Move::Pass);
            }
            let mut i = pick_index(rng, total);
            if i < kinds[0] {
                return Some(Move::Drop(nth_cell(drops, i)));
            }
            i -= kinds[0];
            if i < kinds[1] {
                return Some(Move::Place(nth_cell(places, i)));
            }
            i -= kinds[1];
            if i < kinds[2] {
                return Some(Move::CollectFrom(nth_cell(collects, i)));
            }
            i -= kinds[2];
            if i == kinds[3] {
                return Some(Move::Rescue);
            }
            let c = nth_cell(tall, i);
            if can_extend(geom, empty, c, self.height[c as usize] as u32 - 1) {
                return Some(Move::SpreadFrom(c));
            }
            tall &= !bit(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, Status, seeded};
    use std::collections::HashMap;

    #[test]
    fn nth_cell_counts_set_cells_from_the_lowest() {
        let mut rng = seeded(8);
        for _ in 0..2_000 {
            let mask: u64 = rand::RngExt::random(&mut rng);
            let mask = mask & rand::RngExt::random::<u64>(&mut rng);
            for (n, cell) in (0..64).filter(|&c| mask & (1 << c) != 0).enumerate() {
                assert_eq!(nth_cell(mask, n), cell as Sq, "{mask:#x} n {n}");
            }
        }
        assert_eq!(nth_cell(u64::MAX, 63), 63);
        assert_eq!(nth_cell(1 << 63, 0), 63);
    }

    #[test]
    fn the_tall_mask_holds_the_stacks_of_two_or_more() {
        let mut pos = Position::new(&Default::default());
        let mut rng = seeded(3);
        for c in 0..64 {
            pos.height[c] = [0, 1, 2, 3, 127, 128, 200, 255][pick_index(&mut rng, 8)];
        }
        let expected = (0..64).filter(|&c| pos.height[c] >= 2).fold(0u64, |m, c| m | 1 << c);
        assert_eq!(pos.tall_mask(), expected);
    }

    /// Along random games, on every state: the sampled decision is legal, and over many draws
    /// every legal decision comes up about equally often.
    #[test]
    fn random_decisions_are_legal_and_uniform() {
        let mut rng = seeded(11);
        let mut moves = Vec::new();
        let mut checked_uniform = 0;
        for options in ["", "topology=torus", "prisoner_drops=on"] {
            let mut start_options = super::super::InchwormOptions::default();
            for pair in options.split(',').filter(|p| !p.is_empty()) {
                let (k, v) = pair.split_once('=').unwrap();
                crate::rules::GameOptions::set(&mut start_options, k, v).unwrap();
            }
            let mut pos = Position::new(&start_options);
            for ply in 0..3_000 {
                if pos.status() != Status::Ongoing {
                    break;
                }
                pos.legal_moves(&mut moves);
                let drawn = pos.random_decision(&mut rng).expect("an ongoing game has a decision");
                assert!(moves.contains(&drawn), "{options} ply {ply}: {drawn:?} not in {moves:?}");
                if ply % 97 == 0 && moves.len() > 1 {
                    let draws = 400 * moves.len();
                    let mut seen: HashMap<Move, usize> = HashMap::new();
                    for _ in 0..draws {
                        *seen.entry(pos.random_decision(&mut rng).unwrap()).or_default() += 1;
                    }
                    for m in &moves {
                        let n = seen.get(m).copied().unwrap_or(0);
                        // 400 expected; six standard deviations either way.
                        assert!((280..=520).contains(&n), "{options} ply {ply}: {m:?} drawn {n} of {draws}");
                    }
                    checked_uniform += 1;
                }
                pos.play_unchecked(&drawn);
            }
        }
        assert!(checked_uniform >= 20, "only {checked_uniform} states checked for uniformity");
    }
}
