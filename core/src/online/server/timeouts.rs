//! How a timed game times out (stored as a mark in the place of the ply it ends the game at) and
//! when a table's next live clock runs out: the clocks' parts the hub's core needs, apart from
//! the handlers in `clocks`.

use crate::online::table::Table;
use crate::rules::Side;

/// How a timed game timed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeout {
    /// A live clock ran out (the server's timer, or a decision that came too late).
    Flag,
    /// The opponent claimed: this seat's correspondence time ran out.
    ClaimedTime,
    /// The opponent claimed: this seat left a live game for the grace period.
    ClaimedGone,
}

impl Timeout {
    /// The mark stored in the place of the ply.
    pub(super) fn mark(self) -> &'static str {
        match self {
            Timeout::Flag => "flag",
            Timeout::ClaimedTime => "claim-time",
            Timeout::ClaimedGone => "claim-gone",
        }
    }

    pub(super) fn from_mark(mark: &str) -> Timeout {
        match mark {
            "claim-time" => Timeout::ClaimedTime,
            "claim-gone" => Timeout::ClaimedGone,
            _ => Timeout::Flag,
        }
    }

    /// Why the game ended, in words.
    pub(super) fn words(self, table: &Table, seat: Side) -> String {
        let side = table.game.side_of(seat);
        let (loser, other) = (table.kind.side_name(side), table.kind.side_name(side.opponent()));
        match self {
            Timeout::Flag => format!("{loser} ran out of time"),
            Timeout::ClaimedTime => format!("{loser} ran out of time; {other} claimed the game"),
            Timeout::ClaimedGone => format!("{loser} left the game; {other} claimed it"),
        }
    }
}

/// When the table's next live clock runs out (`i64::MAX`: none).
pub(super) fn table_deadline(table: &Table) -> i64 {
    match &table.clock {
        Some(clock) if clock.is_live() && table.ending.is_none() => {
            clock.next_deadline(&table.pauses).unwrap_or(i64::MAX)
        }
        _ => i64::MAX,
    }
}
