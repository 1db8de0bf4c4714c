//! How long a search may think: iterations, an optional wall-clock limit and a "move now" flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The limits of one search. The iteration count makes a search reproducible for a seed; the time
/// limit and the stop flag are for the app (a deadline per move, a "move now" button).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// MCTS iterations (one selection, expansion, playout and backup each).
    pub iterations: u64,
    /// Stop after this much wall-clock time, whatever the iterations left.
    pub time_limit: Option<Duration>,
    /// Stop as soon as this becomes true (checked every iteration).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// A budget of `iterations` only: deterministic.
    pub fn iterations(iterations: u64) -> Self {
        Budget { iterations, time_limit: None, stop: None }
    }

    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }

    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Whether the app asked to stop now.
    pub fn stop_requested(&self) -> bool {
        self.stop.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    Iterations,
    TimeLimit,
    StopFlag,
    /// The position at the root has only one decision for the side, or none at all to search.
    Forced,
}

/// What one call to `Searcher::think` did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchReport {
    pub iterations: u64,
    pub seconds: f64,
    pub stopped_by: StopReason,
    /// Nodes in the tree after the search (including those kept from earlier searches).
    pub nodes: usize,
}
