//! Exact whole numbers of any size, for the referee's counts of legal moves (a large Throngs pie
//! offer has more than 2^128 of them, so no machine integer holds every count).

use std::fmt;

/// A non-negative whole number of any size. The referee needs only products of binomials and
/// their decimal digits, so a few lines of limb arithmetic replace a big-integer crate.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct ExactCount {
    /// Base-2^32 digits, least significant first, without high zero limbs (zero has none), so
    /// equal numbers have equal limbs and the derived `==` compares values.
    limbs: Vec<u32>,
}

impl ExactCount {
    /// `n` choose `k`, exact for every `n` (0 when `k > n`).
    pub fn binomial(n: u32, k: u32) -> ExactCount {
        if k > n {
            return ExactCount::default();
        }
        let k = k.min(n - k);
        let mut r = ExactCount::from(1u64);
        for i in 0..k {
            // After this step r = C(n, i + 1): C(n, i)·(n − i) is a multiple of i + 1.
            r.multiply_by(n - i);
            let remainder = r.divide_by(i + 1);
            debug_assert_eq!(remainder, 0, "C({n}, {i})·({n} − {i}) is a multiple of {i} + 1");
        }
        r
    }

    /// The value, when it is below 2^64.
    pub fn to_u64(&self) -> Option<u64> {
        match self.limbs.as_slice() {
            [] => Some(0),
            [low] => Some(*low as u64),
            [low, high] => Some((*high as u64) << 32 | *low as u64),
            _ => None,
        }
    }

    /// `self *= factor`.
    fn multiply_by(&mut self, factor: u32) {
        let mut carry = 0u64;
        for limb in &mut self.limbs {
            // At most (2^32 − 1)² + 2^32 − 1 < 2^64.
            let t = *limb as u64 * factor as u64 + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry > 0 {
            self.limbs.push(carry as u32);
        }
        self.trim();
    }

    /// `self /= divisor` (`divisor` ≥ 1), returning the remainder.
    fn divide_by(&mut self, divisor: u32) -> u32 {
        let mut remainder = 0u64;
        for limb in self.limbs.iter_mut().rev() {
            let t = remainder << 32 | *limb as u64;
            *limb = (t / divisor as u64) as u32;
            remainder = t % divisor as u64;
        }
        self.trim();
        remainder as u32
    }

    /// Drops high zero limbs, keeping the representation unique.
    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }
}

impl From<u64> for ExactCount {
    fn from(n: u64) -> ExactCount {
        let mut count = ExactCount { limbs: vec![n as u32, (n >> 32) as u32] };
        count.trim();
        count
    }
}

impl std::ops::Mul for &ExactCount {
    type Output = ExactCount;

    /// Schoolbook multiplication (the numbers here have a dozen limbs at most).
    fn mul(self, other: &ExactCount) -> ExactCount {
        let mut limbs = vec![0u32; self.limbs.len() + other.limbs.len()];
        for (i, &a) in self.limbs.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.limbs.iter().enumerate() {
                // At most (2^32 − 1)² + 2·(2^32 − 1) = 2^64 − 1.
                let t = a as u64 * b as u64 + limbs[i + j] as u64 + carry;
                limbs[i + j] = t as u32;
                carry = t >> 32;
            }
            limbs[i + other.limbs.len()] = carry as u32;
        }
        let mut product = ExactCount { limbs };
        product.trim();
        product
    }
}

/// The decimal digits.
impl fmt::Display for ExactCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CHUNK: u32 = 1_000_000_000;
        let mut rest = self.clone();
        // Base-10^9 digits, least significant first.
        let mut chunks = Vec::new();
        loop {
            chunks.push(rest.divide_by(CHUNK));
            if rest.limbs.is_empty() {
                break;
            }
        }
        let mut chunks = chunks.iter().rev();
        if let Some(first) = chunks.next() {
            write!(f, "{first}")?;
        }
        chunks.try_for_each(|chunk| write!(f, "{chunk:09}"))
    }
}

/// Debug output is the number itself, so test failures read naturally.
impl fmt::Debug for ExactCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_numbers_print_and_convert_as_themselves() {
        for n in [0u64, 1, 9, 10, 999_999_999, 1_000_000_000, 1_000_000_001, u32::MAX as u64, 1 << 32, u64::MAX] {
            let count = ExactCount::from(n);
            assert_eq!(count.to_string(), n.to_string());
            assert_eq!(count.to_u64(), Some(n));
        }
    }

    #[test]
    fn binomials_agree_with_machine_arithmetic_where_it_suffices() {
        // C(n, k) by Pascal's rule in u128, which holds every value up to n = 120.
        let mut row = vec![1u128];
        for n in 0..=120u32 {
            for (k, &expected) in row.iter().enumerate() {
                assert_eq!(ExactCount::binomial(n, k as u32).to_string(), expected.to_string(), "C({n}, {k})");
            }
            assert_eq!(ExactCount::binomial(n, n + 1), ExactCount::default());
            let mut next = vec![1u128; row.len() + 1];
            for k in 1..row.len() {
                next[k] = row[k - 1] + row[k];
            }
            row = next;
        }
    }

    #[test]
    fn products_past_two_to_the_128_are_exact() {
        let two_to_64 = &ExactCount::from(u64::MAX) * &ExactCount::from(1);
        assert_eq!(two_to_64.to_u64(), Some(u64::MAX));
        let square = &ExactCount::from(1 << 63) * &ExactCount::from(1 << 63);
        assert_eq!(square.to_string(), (1u128 << 126).to_string());
        assert_eq!(square.to_u64(), None);
        // 2^64 · 2^64 · 2 = 2^129, one past u128.
        let two_to_64 = &ExactCount::from(1 << 32) * &ExactCount::from(1 << 32);
        let two_to_128 = &two_to_64 * &two_to_64;
        assert_eq!(two_to_128.to_string(), "340282366920938463463374607431768211456");
        assert_eq!((&two_to_128 * &ExactCount::from(2)).to_string(), "680564733841876926926749214863536422912");
        assert_eq!((&two_to_128 * &ExactCount::default()), ExactCount::default());
        // C(93, 21)·C(72, 22), the Throngs count that wrapped past 2^128 (issue 39).
        let pie = &ExactCount::binomial(93, 21) * &ExactCount::binomial(72, 22);
        assert_eq!(pie.to_string(), "662311935791196303706712459165445428880");
    }
}
