//! Game clocks, as the server keeps them and the clients show them: live (a base time and a
//! Fischer increment per turn) and correspondence (days for each move, paused while the seat's
//! player is on vacation). A clock follows from when each seat's decision became due and when it
//! was made, so the server rebuilds it from the stored decisions' times after a restart.

use super::directory::TimeControl;
use crate::rules::Side;
use serde::{Deserialize, Serialize};

pub const SECOND_MS: i64 = 1_000;
pub const DAY_MS: i64 = 86_400_000;
const HOUR_MS: i64 = 3_600_000;
const MINUTE_MS: i64 = 60_000;

/// How long a live player may be disconnected before the opponent may claim the game.
pub const LIVE_GRACE_MS: i64 = 30 * SECOND_MS;

/// The time controls a player may choose for a challenge: live, then correspondence.
pub const CHOICES: [TimeControl; 9] = [
    TimeControl::Live { base_seconds: 180, increment_seconds: 2 },
    TimeControl::Live { base_seconds: 300, increment_seconds: 3 },
    TimeControl::Live { base_seconds: 600, increment_seconds: 5 },
    TimeControl::Live { base_seconds: 900, increment_seconds: 10 },
    TimeControl::Correspondence { days_per_move: 1 },
    TimeControl::Correspondence { days_per_move: 2 },
    TimeControl::Correspondence { days_per_move: 3 },
    TimeControl::Correspondence { days_per_move: 7 },
    TimeControl::Correspondence { days_per_move: 14 },
];

/// Why a time control is refused, if it is.
pub fn check_time_control(control: &TimeControl) -> Result<(), String> {
    match *control {
        TimeControl::Live { base_seconds, increment_seconds } => {
            if !(60..=3 * 3600).contains(&base_seconds) {
                return Err("a live game's base time is 1 to 180 minutes".into());
            }
            if increment_seconds > 60 {
                return Err("a live game's increment is at most 60 seconds a move".into());
            }
        }
        TimeControl::Correspondence { days_per_move } => {
            if !(1..=14).contains(&days_per_move) {
                return Err("a correspondence game gives 1 to 14 days a move".into());
            }
        }
    }
    Ok(())
}

/// Spans of time a seat's clock stands still (its player's vacations), as `[from, to)` in
/// server milliseconds; `to` is `i64::MAX` while the vacation lasts.
pub type Pauses = [Vec<(i64, i64)>; 2];

/// No pauses (live games, or nobody on vacation).
pub fn no_pauses() -> Pauses {
    [Vec::new(), Vec::new()]
}

/// A game's two clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub control: TimeControl,
    /// Each seat's time left when its clock last stopped (correspondence: the time for a move).
    left_ms: [i64; 2],
    /// Since when each seat's clock runs (its decision is due), while it runs.
    since_ms: [Option<i64>; 2],
}

/// A clock as a follower is told it: the time each seat has left when the message was sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    pub control: TimeControl,
    pub left_ms: [i64; 2],
    /// Which clocks run (their seat's decision is due).
    pub running: [bool; 2],
    /// Which seats' clocks stand still for their player's vacation.
    #[serde(default)]
    pub paused: [bool; 2],
    /// For each seat, in how long its opponent may claim the game against it (`Some(0)`: now):
    /// a correspondence seat out of time, a live seat disconnected for the grace period.
    #[serde(default)]
    pub claimable_in_ms: [Option<i64>; 2],
}

impl GameClock {
    pub fn new(control: TimeControl) -> GameClock {
        let full = Self::full_time(&control);
        GameClock { control, left_ms: [full, full], since_ms: [None, None] }
    }

    fn full_time(control: &TimeControl) -> i64 {
        match *control {
            TimeControl::Live { base_seconds, .. } => i64::from(base_seconds) * SECOND_MS,
            TimeControl::Correspondence { days_per_move } => i64::from(days_per_move) * DAY_MS,
        }
    }

    pub fn is_live(&self) -> bool {
        matches!(self.control, TimeControl::Live { .. })
    }

    /// The seats whose decision is due are now `due` (at `now`): a seat no longer due stops
    /// (charged the time it took; live: plus the increment), a newly due seat starts
    /// (correspondence: with a whole move's time).
    pub fn set_due(&mut self, due: [bool; 2], now: i64, pauses: &Pauses) {
        for seat in Side::BOTH {
            let i = seat.index();
            match (self.since_ms[i], due[i]) {
                (Some(since), false) => {
                    self.left_ms[i] -= elapsed(since, now, &pauses[i]);
                    if let TimeControl::Live { increment_seconds, .. } = self.control {
                        self.left_ms[i] += i64::from(increment_seconds) * SECOND_MS;
                    }
                    self.since_ms[i] = None;
                }
                (None, true) => {
                    if !self.is_live() {
                        self.left_ms[i] = Self::full_time(&self.control);
                    }
                    self.since_ms[i] = Some(now);
                }
                _ => {}
            }
        }
    }

    /// Stops both clocks where they stand (the game ended), without an increment.
    pub fn stop(&mut self, now: i64, pauses: &Pauses) {
        for seat in Side::BOTH {
            let i = seat.index();
            if let Some(since) = self.since_ms[i].take() {
                self.left_ms[i] -= elapsed(since, now, &pauses[i]);
            }
        }
    }

    pub fn running(&self) -> [bool; 2] {
        self.since_ms.map(|s| s.is_some())
    }

    /// The time `seat` has left at `now` (negative once it ran out).
    pub fn left_at(&self, seat: Side, now: i64, pauses: &Pauses) -> i64 {
        let i = seat.index();
        match self.since_ms[i] {
            Some(since) => self.left_ms[i] - elapsed(since, now, &pauses[i]),
            None => self.left_ms[i],
        }
    }

    /// The running seat whose time ran out first by `now`, if any.
    pub fn out_of_time(&self, now: i64, pauses: &Pauses) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .filter(|s| self.since_ms[s.index()].is_some() && self.left_at(*s, now, pauses) <= 0)
            .min_by_key(|s| self.deadline(*s, pauses))
    }

    /// When `seat`'s time runs out if nothing changes (`None`: its clock stands or is paused
    /// for good).
    pub fn deadline(&self, seat: Side, pauses: &Pauses) -> Option<i64> {
        let since = self.since_ms[seat.index()]?;
        let mut left = self.left_ms[seat.index()];
        let mut at = since;
        // Walk the pauses after `since` in order, spending the time left between them.
        let mut spans: Vec<(i64, i64)> = pauses[seat.index()].iter().copied().filter(|&(_, to)| to > since).collect();
        spans.sort();
        for (from, to) in spans {
            let from = from.max(at);
            if from - at >= left {
                break;
            }
            left -= from - at;
            if to == i64::MAX {
                return None;
            }
            at = to.max(at);
        }
        Some(at + left)
    }

    /// The earliest moment a live clock runs out, for the server's timer.
    pub fn next_deadline(&self, pauses: &Pauses) -> Option<i64> {
        Side::BOTH.into_iter().filter_map(|s| self.deadline(s, pauses)).min()
    }

    /// The clock as followers are told it at `now`.
    pub fn view(&self, now: i64, pauses: &Pauses) -> ClockView {
        let left_ms = [Side::First, Side::Second].map(|s| self.left_at(s, now, pauses).max(0));
        let paused = [0, 1].map(|i| pauses[i].iter().any(|&(from, to)| from <= now && now < to));
        let claimable_in_ms = if self.is_live() {
            [None, None]
        } else {
            [0, 1].map(|i| (self.since_ms[i].is_some() && left_ms[i] == 0).then_some(0))
        };
        ClockView { control: self.control, left_ms, running: self.running(), paused, claimable_in_ms }
    }
}

/// Time from `since` to `now` outside the pauses.
fn elapsed(since: i64, now: i64, pauses: &[(i64, i64)]) -> i64 {
    let paused: i64 =
        pauses.iter().map(|&(from, to)| (to.min(now) - from.max(since)).max(0)).sum::<i64>().min(now - since);
    (now - since - paused).max(0)
}

/// A time left in words, as a clock shows it: "4:07", "0:09.3" under ten seconds, "2 d 4 h",
/// "5 h 12 min".
pub fn clock_words(left_ms: i64) -> String {
    let left = left_ms.max(0);
    // Days and hours, or hours and minutes, are rounded up: a correspondence move's fresh three
    // days read "3 d 0 h" (not "2 d 23 h" a millisecond later), and a clock reads 0 only at 0.
    let hours_up = (left + HOUR_MS - 1) / HOUR_MS * HOUR_MS;
    if hours_up >= DAY_MS {
        return format!("{} d {} h", hours_up / DAY_MS, hours_up % DAY_MS / HOUR_MS);
    }
    if left >= HOUR_MS {
        let minutes_up = (left + MINUTE_MS - 1) / MINUTE_MS * MINUTE_MS;
        return format!("{} h {} min", minutes_up / HOUR_MS, minutes_up % HOUR_MS / MINUTE_MS);
    }
    let seconds = left / 1000;
    if left < 10 * SECOND_MS {
        return format!("0:{:02}.{}", seconds, left % 1000 / 100);
    }
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    const THREE_PLUS_TWO: TimeControl = TimeControl::Live { base_seconds: 180, increment_seconds: 2 };
    const ONE_DAY: TimeControl = TimeControl::Correspondence { days_per_move: 1 };

    #[test]
    fn a_live_clock_charges_the_time_taken_and_adds_the_increment_per_turn() {
        let none = no_pauses();
        let mut clock = GameClock::new(THREE_PLUS_TWO);
        clock.set_due([true, false], 1_000, &none);
        assert_eq!(clock.left_at(Side::First, 11_000, &none), 170_000);
        // First takes 10 s: 170 s + 2 s; now Second's runs.
        clock.set_due([false, true], 11_000, &none);
        assert_eq!(clock.left_at(Side::First, 50_000, &none), 172_000);
        assert_eq!(clock.left_at(Side::Second, 14_000, &none), 177_000);
        assert_eq!(clock.running(), [false, true]);
        assert_eq!(clock.deadline(Side::Second, &none), Some(191_000));
        assert_eq!(clock.out_of_time(190_999, &none), None);
        assert_eq!(clock.out_of_time(191_000, &none), Some(Side::Second));
        let view = clock.view(200_000, &none);
        assert_eq!((view.left_ms, view.running), ([172_000, 0], [false, true]));
    }

    #[test]
    fn both_clocks_run_while_both_seats_commit_at_once() {
        let none = no_pauses();
        let mut clock = GameClock::new(THREE_PLUS_TWO);
        clock.set_due([true, true], 0, &none);
        clock.set_due([false, true], 5_000, &none);
        // Second's commitment completes the move: its turn ends, and both are due again.
        clock.set_due([false, false], 9_000, &none);
        clock.set_due([true, true], 9_000, &none);
        assert_eq!(clock.left_at(Side::First, 9_000, &none), 177_000);
        assert_eq!(clock.left_at(Side::Second, 9_000, &none), 173_000);
    }

    #[test]
    fn a_correspondence_clock_gives_each_move_its_days_and_stands_still_on_vacation() {
        let mut clock = GameClock::new(ONE_DAY);
        let none = no_pauses();
        clock.set_due([true, false], 0, &none);
        // Thirty hours later First is out of time: Second may claim.
        let late = 30 * 3_600_000;
        assert_eq!(clock.out_of_time(late, &none), Some(Side::First));
        assert_eq!(clock.view(late, &none).claimable_in_ms, [Some(0), None]);
        // With a vacation from hour 2 to hour 12, First has spent 20 of its 24 hours by hour 30.
        let pauses: Pauses = [vec![(2 * 3_600_000, 12 * 3_600_000)], Vec::new()];
        assert_eq!(clock.left_at(Side::First, late, &pauses), 4 * 3_600_000);
        assert_eq!(clock.deadline(Side::First, &pauses), Some(34 * 3_600_000));
        // A vacation still going on: no deadline, the clock shows paused.
        let ongoing: Pauses = [vec![(20 * 3_600_000, i64::MAX)], Vec::new()];
        assert_eq!(clock.deadline(Side::First, &ongoing), None);
        assert_eq!(clock.view(late, &ongoing).paused, [true, false]);
        assert_eq!(clock.left_at(Side::First, late, &ongoing), 4 * 3_600_000);
        // First moves at hour 20: Second gets a whole day; First's clock stands at a day again
        // once due.
        clock.set_due([false, true], 20 * 3_600_000, &none);
        assert_eq!(clock.left_at(Side::Second, 20 * 3_600_000, &none), DAY_MS);
        clock.set_due([true, false], 21 * 3_600_000, &none);
        assert_eq!(clock.left_at(Side::First, 21 * 3_600_000, &none), DAY_MS);
    }

    #[test]
    fn clocks_read_as_players_expect() {
        assert_eq!(clock_words(180_000), "3:00");
        assert_eq!(clock_words(61_999), "1:01");
        assert_eq!(clock_words(9_340), "0:09.3");
        assert_eq!(clock_words(-5), "0:00.0");
        assert_eq!(clock_words(DAY_MS + 5 * 3_600_000), "1 d 5 h");
        assert_eq!(clock_words(3 * 3_600_000 + 12 * 60_000), "3 h 12 min");
        // Long times round up: a fresh three days a millisecond later, an hour and a bit.
        assert_eq!(clock_words(3 * DAY_MS - 1), "3 d 0 h");
        assert_eq!(clock_words(DAY_MS - 1), "1 d 0 h");
        assert_eq!(clock_words(DAY_MS - 3_600_001), "23 h 0 min");
        assert_eq!(clock_words(3_600_001), "1 h 1 min");
        assert_eq!(clock_words(3_599_999), "59:59");
    }

    #[test]
    fn time_controls_are_checked() {
        for choice in CHOICES {
            assert_eq!(check_time_control(&choice), Ok(()));
        }
        assert!(check_time_control(&TimeControl::Correspondence { days_per_move: 15 }).is_err());
        assert!(check_time_control(&TimeControl::Correspondence { days_per_move: 0 }).is_err());
        assert!(check_time_control(&TimeControl::Live { base_seconds: 10, increment_seconds: 0 }).is_err());
        assert!(check_time_control(&TimeControl::Live { base_seconds: 300, increment_seconds: 61 }).is_err());
    }
}
