//! SplitMix64, the one source of fixed pseudo-random values for hashing: zobrist keys of the
//! engines and the seeds the arena derives. Fixed functions, not a generator: the same input gives
//! the same key in every build, so hashes and derived seeds are reproducible.

/// SplitMix64's increment, 2⁶⁴ divided by the golden ratio.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: every bit of `z` reaches every bit of the result, so inputs
/// that differ in one bit give unrelated outputs.
pub const fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of `x`: the output SplitMix64 gives after one step from state `x`.
pub const fn splitmix64(x: u64) -> u64 {
    mix64(x.wrapping_add(GOLDEN_GAMMA))
}

/// The `n`-th output (from 0) of a SplitMix64 generator seeded with `seed`: a table of keys
/// without keeping the generator's state.
pub const fn splitmix64_nth(seed: u64, n: u64) -> u64 {
    splitmix64(seed.wrapping_add(n.wrapping_mul(GOLDEN_GAMMA)))
}

/// A seed derived from two numbers, so that games and players get unrelated seeds (the arena's
/// games and players; its recorded runs were made with exactly this derivation).
pub const fn derived_seed(a: u64, b: u64) -> u64 {
    mix64(a ^ b.wrapping_add(GOLDEN_GAMMA).wrapping_mul(0xBF58_476D_1CE4_E5B9))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_match_the_reference_generator() {
        // The first outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        assert_eq!(splitmix64_nth(0, 0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64_nth(0, 1), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(splitmix64_nth(0, 2), 0x06C4_5D18_8009_454F);
        let mut state = 0x5EED_u64;
        for n in 0..5 {
            state = state.wrapping_add(GOLDEN_GAMMA);
            assert_eq!(splitmix64_nth(0x5EED, n), mix64(state));
        }
    }
}
