//! Vacations: the spans a player's correspondence clocks stand still, 30 days a calendar year.
//! A player's vacation under way is kept on their row and started by one conditional update, so
//! requests from several devices at once start one period, never overlapping ones; each vacation
//! uses at least a day of the allowance, so a player has at most 30 a year.

use super::accounts::signed_in;
use super::hub::{Hub, Session, unavailable};
use super::store::{GameStore, StoreError};
use crate::online::clock::{DAY_MS, Pauses};
use crate::online::protocol::{ErrorCode, ServerMessage};
use sqlx::Row;

/// A player's vacation days each calendar year (UTC).
pub const VACATION_DAYS_PER_YEAR: i64 = 30;

/// The least of the allowance one vacation uses, however soon it is ended.
pub const LEAST_VACATION_MS: i64 = DAY_MS;

impl GameStore {
    /// Each player's vacations that end after `since_ms`, as `[from, to)` spans in order, spans
    /// that overlap (stored before version 6) merged.
    pub async fn vacations(&self, players: [Option<&str>; 2], since_ms: i64) -> Result<Pauses, StoreError> {
        let mut out = [Vec::new(), Vec::new()];
        for (i, player) in players.iter().enumerate() {
            let Some(player) = player else { continue };
            let rows = sqlx::query(
                "SELECT from_ms, to_ms FROM vacations WHERE player_id = $1 AND to_ms > $2
                 UNION SELECT vacation_from_ms, vacation_to_ms FROM players
                   WHERE id = $1 AND vacation_from_ms IS NOT NULL AND vacation_to_ms > $2",
            )
            .bind(*player)
            .bind(since_ms)
            .fetch_all(&self.pool)
            .await?;
            let mut spans = Vec::with_capacity(rows.len());
            for r in rows {
                spans.push((r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?));
            }
            out[i] = merged(spans);
        }
        Ok(out)
    }

    /// Starts a vacation from `from_ms` planned to end at `to_ms`, unless one is under way then.
    /// `Ok(false)`: one is (started meanwhile from another device).
    pub async fn start_vacation(&self, player: &str, from_ms: i64, to_ms: i64) -> Result<bool, StoreError> {
        // The last vacation, finished, joins the others (twice is harmless: the key refuses it).
        sqlx::query(
            "INSERT INTO vacations (player_id, from_ms, to_ms)
             SELECT id, vacation_from_ms, vacation_to_ms FROM players WHERE id = $1 AND vacation_to_ms <= $2
             ON CONFLICT DO NOTHING",
        )
        .bind(player)
        .bind(from_ms)
        .execute(&self.pool)
        .await?;
        let done = sqlx::query(
            "UPDATE players SET vacation_from_ms = $2, vacation_to_ms = $3
             WHERE id = $1 AND (vacation_to_ms IS NULL OR vacation_to_ms <= $2)",
        )
        .bind(player)
        .bind(from_ms)
        .bind(to_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends the player's vacation under way at `now_ms` (its unused days stay in the allowance,
    /// but for the least a vacation uses).
    pub async fn end_vacation(&self, player: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE players SET vacation_to_ms = $2 WHERE id = $1 AND vacation_from_ms <= $2 AND vacation_to_ms > $2",
        )
        .bind(player)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

/// Spans in order, those that overlap joined (those that only touch stay two vacations).
fn merged(mut spans: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    spans.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(spans.len());
    for (from, to) in spans {
        match out.last_mut() {
            Some(last) if from < last.1 => last.1 = last.1.max(to),
            _ => out.push((from, to)),
        }
    }
    out
}

/// The allowance the vacations `spans` use in the year starting at `year_start`: each what it
/// lasts in the year, and at least [`LEAST_VACATION_MS`] when it started in the year.
fn allowance_used(spans: &[(i64, i64)], year_start: i64) -> i64 {
    spans
        .iter()
        .map(
            |&(from, to)| {
                if from >= year_start { (to - from).max(LEAST_VACATION_MS) } else { (to - year_start).max(0) }
            },
        )
        .sum()
}

/// The start of the calendar year (UTC) of `ms`.
fn year_start(ms: i64) -> i64 {
    // Days since 1970 to a civil year (Howard Hinnant's algorithm), then back to its 1 January.
    let days = ms.div_euclid(DAY_MS);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    days_from_civil(year) * DAY_MS
}

/// Days from 1970-01-01 to 1 January of `year`.
fn days_from_civil(year: i64) -> i64 {
    let y = year - 1;
    let (m, d) = (10, 1); // 1 January is month 10 of the March-based year before
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

impl Hub {
    /// Starts or ends the signed-in player's vacation; their loaded correspondence games' clocks
    /// follow (here, and on the other instances through the announcement).
    pub(super) async fn vacation(&self, session: &Session, on: bool) -> Result<ServerMessage, ServerMessage> {
        let me = signed_in(session).map_err(|e| *e)?;
        let now = self.now();
        let (until, left) = self.vacation_state(&me.id, now).await?;
        if on && until.is_none() {
            if left <= 0 {
                return Err(ServerMessage::error(ErrorCode::BadMessage, "no vacation days are left this year"));
            }
            let year_end = year_start(year_start(now) + 400 * DAY_MS);
            // Refused when another device started one meanwhile: that one stands.
            self.store.start_vacation(&me.id, now, (now + left).min(year_end)).await.map_err(unavailable)?;
        } else if !on && until.is_some() {
            self.store.end_vacation(&me.id, now).await.map_err(unavailable)?;
        }
        self.vacations_changed(&me.id).await;
        self.announce_json(serde_json::json!({ "i": self.instance, "vacation": me.id })).await;
        let (until_ms, left_ms) = self.vacation_state(&me.id, now).await?;
        Ok(ServerMessage::Vacation { until_ms, left_ms })
    }

    /// A player's vacation under way (its end) and the allowance left this year.
    pub(super) async fn vacation_state(&self, player: &str, now: i64) -> Result<(Option<i64>, i64), ServerMessage> {
        let start = year_start(now);
        let spans = self.store.vacations([Some(player), None], start).await.map_err(unavailable)?;
        let until = spans[0].iter().find(|&&(from, to)| from <= now && to > now).map(|&(_, to)| to);
        Ok((until, (VACATION_DAYS_PER_YEAR * DAY_MS - allowance_used(&spans[0], start)).max(0)))
    }

    /// A player's vacations changed: their loaded correspondence games read them again.
    pub(super) async fn vacations_changed(&self, player: &str) {
        for room in self.loaded_rooms() {
            let mut guard = room.table.lock().await;
            let Some(table) = guard.as_mut() else { continue };
            let Some(clock) = table.clock.as_ref() else { continue };
            if clock.is_live() || !table.players.iter().flatten().any(|(id, _)| id == player) {
                continue;
            }
            let players = table.players.clone().map(|p| p.map(|(id, _)| id));
            match self.store.vacations([players[0].as_deref(), players[1].as_deref()], 0).await {
                Ok(pauses) => table.pauses = pauses,
                Err(e) => eprintln!("stoneyard serve: reading vacations: {e}"),
            }
            self.clock_changed(&room, table);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_year_starts_on_the_first_of_january() {
        // 2026-11-28 12:00 UTC, 2024-02-29, 1970 and 2000.
        assert_eq!(year_start(1_795_867_200_000), 1_767_225_600_000);
        assert_eq!(year_start(1_709_164_800_000), 1_704_067_200_000);
        assert_eq!(year_start(0), 0);
        assert_eq!(year_start(946_684_800_000 + 5), 946_684_800_000);
        assert_eq!(year_start(946_684_800_000 - 1), 915_148_800_000);
    }

    #[test]
    fn overlapping_vacations_count_once() {
        assert_eq!(merged(vec![(50, 80), (0, 10), (5, 20), (20, 30)]), vec![(0, 20), (20, 30), (50, 80)]);
    }

    #[test]
    fn a_vacation_uses_at_least_a_day_of_the_allowance_unless_it_began_last_year() {
        let year = 1_000 * DAY_MS;
        let hour = DAY_MS / 24;
        assert_eq!(allowance_used(&[(year + hour, year + 2 * hour)], year), DAY_MS);
        assert_eq!(allowance_used(&[(year + hour, year + hour)], year), DAY_MS, "ended as it began");
        assert_eq!(allowance_used(&[(year, year + 3 * DAY_MS)], year), 3 * DAY_MS);
        assert_eq!(allowance_used(&[(year - DAY_MS, year + hour)], year), hour);
        assert_eq!(allowance_used(&[(year - DAY_MS, year)], year), 0);
    }
}
