//! Token buckets: one per connection for its requests, one per client address for the invite
//! codes it tries (so guessing from many connections at once gains nothing), one per player for
//! what costs the server most (setting a password).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// A token bucket: `burst` requests at once, `per_second` on average.
pub struct RateLimit {
    per_second: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    pub fn new(per_second: f64, burst: f64) -> RateLimit {
        RateLimit { per_second, burst, tokens: burst, last: Instant::now() }
    }

    fn refill(&mut self, now: Instant) {
        let refill = now.saturating_duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
    }

    /// Takes one request's token, if there is one.
    pub fn allow(&mut self) -> bool {
        self.refill(Instant::now());
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether the bucket has refilled completely (it can be forgotten).
    fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.burst
    }
}

/// Keys (addresses, players) kept before full buckets are forgotten.
const KEYS_KEPT: usize = 10_000;

/// One bucket per key: a client address, a player.
pub struct PerKey<K> {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<K, RateLimit>>,
}

/// One bucket per client address.
pub type PerAddress = PerKey<IpAddr>;

impl<K: Hash + Eq> PerKey<K> {
    /// `per_minute` on average, as many at once.
    pub fn per_minute(per_minute: f64) -> PerKey<K> {
        PerKey { per_second: per_minute / 60.0, burst: per_minute.max(1.0), buckets: Mutex::new(HashMap::new()) }
    }

    /// `per_hour` on average, as many at once.
    pub fn per_hour(per_hour: f64) -> PerKey<K> {
        PerKey { per_second: per_hour / 3600.0, burst: per_hour.max(1.0), buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one token of `key`'s bucket, if there is one.
    pub fn allow(&self, key: K) -> bool {
        let mut buckets = self.buckets.lock().expect("rate limit buckets lock");
        if buckets.len() >= KEYS_KEPT {
            let now = Instant::now();
            buckets.retain(|_, b| !b.is_full(now));
        }
        buckets.entry(key).or_insert_with(|| RateLimit::new(self.per_second, self.burst)).allow()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_refuses() {
        let mut limit = RateLimit::new(0.001, 3.0);
        assert!((0..3).all(|_| limit.allow()));
        assert!(!limit.allow());
    }

    #[test]
    fn each_address_has_its_own_bucket() {
        let joins = PerAddress::per_minute(2.0);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(joins.allow(a) && joins.allow(a));
        assert!(!joins.allow(a));
        assert!(joins.allow(b));
    }
}
