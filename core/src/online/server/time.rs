//! The server's time, in milliseconds since 1970: the system's, the system's a fixed time ahead
//! (to show a correspondence timeout without waiting a day), or (in tests) a clock moved by hand,
//! so clocks, flags, claims and vacations are tested without waiting real minutes or days.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// Where the server reads the time.
#[derive(Clone, Default)]
pub enum ServerClock {
    #[default]
    System,
    /// The system's time this many milliseconds ahead (`serve --clock-ahead`).
    Ahead(i64),
    Manual(Arc<ManualClock>),
}

/// A clock that moves only when told to.
pub struct ManualClock {
    ms: AtomicI64,
    moved: tokio::sync::Notify,
}

impl ManualClock {
    pub fn starting_at(ms: i64) -> Arc<ManualClock> {
        Arc::new(ManualClock { ms: AtomicI64::new(ms), moved: tokio::sync::Notify::new() })
    }

    /// Moves the time on and wakes whatever waits for it (the server's timer).
    pub fn advance(&self, ms: i64) {
        self.ms.fetch_add(ms, Ordering::SeqCst);
        self.moved.notify_waiters();
    }

    pub fn now_ms(&self) -> i64 {
        self.ms.load(Ordering::SeqCst)
    }
}

impl std::fmt::Debug for ServerClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerClock::System => write!(f, "System"),
            ServerClock::Ahead(ms) => write!(f, "Ahead({ms})"),
            ServerClock::Manual(clock) => write!(f, "Manual({})", clock.now_ms()),
        }
    }
}

impl ServerClock {
    pub fn now_ms(&self) -> i64 {
        match self {
            ServerClock::System => system_ms(),
            ServerClock::Ahead(ms) => system_ms().saturating_add(*ms),
            ServerClock::Manual(clock) => clock.now_ms(),
        }
    }

    /// Waits until the time may have moved past `wait_ms` from now: real time for the system's
    /// clock; for a manual one, until it is moved (or the real wait passes).
    pub async fn sleep(&self, wait_ms: i64) {
        let real = std::time::Duration::from_millis(wait_ms.max(1) as u64);
        match self {
            ServerClock::System | ServerClock::Ahead(_) => tokio::time::sleep(real).await,
            ServerClock::Manual(clock) => {
                let _ = tokio::time::timeout(real, clock.moved.notified()).await;
            }
        }
    }
}

pub fn system_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_ahead_reads_the_system_time_that_far_on() {
        let day = 86_400_000;
        let before = system_ms();
        let ahead = ServerClock::Ahead(day).now_ms();
        let after = system_ms();
        assert!((before + day..=after + day).contains(&ahead), "{before} {ahead} {after}");
    }
}
