//! The server's upkeep over the whole store, not only the games in memory: live games nobody
//! follows any more end when a clock runs out (after a restart too), live challenges whose poster
//! has gone are withdrawn, and challenges and invites nobody took in time expire. On a PostgreSQL
//! cluster one instance at a time sweeps the store (an advisory lock), and every ending is stored
//! under its condition (`GameStore::mark_timeout`, `GameStore::end`), so each game ends once.

use super::hub::Hub;
use super::store::{Backend, GameStore, StoreError};
use crate::online::clock::DAY_MS;
use sqlx::Row;
use std::sync::Arc;

/// How often the store is swept.
pub const UPKEEP_EVERY_MS: i64 = 5_000;
/// A live game without a decision for this long is looked at by the sweep (one still followed
/// somewhere is flagged by its instance's own timer long before).
pub const IDLE_LIVE_GAME_MS: i64 = 60_000;
/// A live challenge's poster may be away this long (a page reloaded, a network changed) before it
/// is withdrawn.
pub const POSTER_GRACE_MS: i64 = 20_000;
/// A live challenge nobody accepts is withdrawn after an hour.
pub const LIVE_CHALLENGE_LIFETIME_MS: i64 = 3_600_000;
/// A correspondence or untimed challenge nobody accepts is withdrawn after two weeks.
pub const CHALLENGE_LIFETIME_MS: i64 = 14 * DAY_MS;
/// An invite nobody joins is dropped after a week.
pub const INVITE_LIFETIME_MS: i64 = 7 * DAY_MS;
/// Idle live games one sweep looks at (the longest idle first).
const IDLE_GAMES_PER_SWEEP: i64 = 500;
/// A lock number every instance agrees on, for the sweep ("SWEEP").
const UPKEEP_LOCK: i64 = 0x53_57_45_45_50;

/// A game that has not started: a seat is free, nothing was played, it has not ended.
const UNJOINED: &str = "ending IS NULL AND (token_first IS NULL OR token_second IS NULL)
     AND NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = games.id)";
/// A game on a live clock.
const LIVE: &str = "time_control LIKE '%\"kind\":\"live\"%'";
/// A game listed in the lobby (publicly, or for one player).
const LISTED: &str = "(public = 1 OR for_player IS NOT NULL)";

/// This instance's turn to sweep the store: PostgreSQL's advisory lock, held on one connection
/// until released (a SQLite store has one instance, always its turn).
pub struct UpkeepTurn(Option<sqlx::pool::PoolConnection<sqlx::Any>>);

impl UpkeepTurn {
    /// Gives the turn back. A connection that cannot unlock is closed, which unlocks too.
    async fn release(self) {
        if let Some(mut conn) = self.0
            && sqlx::query("SELECT pg_advisory_unlock($1)").bind(UPKEEP_LOCK).execute(&mut *conn).await.is_err()
        {
            drop(conn.detach());
        }
    }
}

impl GameStore {
    /// This instance's turn to sweep, or `None` while another instance sweeps.
    pub async fn upkeep_turn(&self) -> Result<Option<UpkeepTurn>, StoreError> {
        if self.backend == Backend::Sqlite {
            return Ok(Some(UpkeepTurn(None)));
        }
        let mut conn = self.pool.acquire().await?;
        let row = sqlx::query("SELECT pg_try_advisory_lock($1) AS got").bind(UPKEEP_LOCK).fetch_one(&mut *conn).await?;
        Ok(row.try_get::<bool, _>("got")?.then_some(UpkeepTurn(Some(conn))))
    }

    /// Live games on a clock, not ended, with no decision since `idle_since` (the longest idle
    /// first, at most `limit`).
    pub async fn idle_live_games(&self, idle_since: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        let sql = format!(
            "SELECT id FROM (
                SELECT g.id, COALESCE((SELECT MAX(m.at_ms) FROM moves m WHERE m.game_id = g.id), g.clock_start_ms) AS last_ms
                FROM games g WHERE g.ending IS NULL AND g.clock_start_ms < $1 AND g.{LIVE}
             ) idle WHERE last_ms < $1 ORDER BY last_ms, id LIMIT $2"
        );
        let rows = sqlx::query(&sql).bind(idle_since).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(|r| r.try_get("id")).collect()
    }

    /// Withdraws the games nobody joined in time: live challenges posted before `live_before`,
    /// other challenges before `listed_before`, invites before `invite_before`. Their ids.
    pub async fn withdraw_expired(
        &self,
        live_before: i64,
        listed_before: i64,
        invite_before: i64,
    ) -> Result<Vec<String>, StoreError> {
        // The first condition reads the games created before the latest of the three times
        // (through the index on `created_ms`), not every game.
        let sql = format!(
            "DELETE FROM games WHERE created_ms <= $4 AND {UNJOINED} AND created_ms <= CASE
                WHEN {LISTED} AND {LIVE} THEN $1 WHEN {LISTED} THEN $2 ELSE $3 END
             RETURNING id"
        );
        let latest = live_before.max(listed_before).max(invite_before);
        let rows = sqlx::query(&sql)
            .bind(live_before)
            .bind(listed_before)
            .bind(invite_before)
            .bind(latest)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| r.try_get("id")).collect()
    }

    /// Withdraws the open live challenges of `player`. Their ids.
    pub async fn withdraw_live_challenges_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let sql = format!(
            "DELETE FROM games WHERE {UNJOINED} AND {LISTED} AND {LIVE} AND (player_first = $1 OR player_second = $1)
             RETURNING id"
        );
        let rows = sqlx::query(&sql).bind(player).fetch_all(&self.pool).await?;
        rows.iter().map(|r| r.try_get("id")).collect()
    }

    /// Withdraws every open live challenge (a SQLite store's instance starting: their posters'
    /// connections ended with the last one).
    pub async fn withdraw_all_live_challenges(&self) -> Result<(), StoreError> {
        sqlx::query(&format!("DELETE FROM games WHERE {UNJOINED} AND {LISTED} AND {LIVE}")).execute(&self.pool).await?;
        Ok(())
    }
}

impl Hub {
    /// Sweeps the store every few seconds of the server's clock (runs for the server's life).
    pub async fn upkeep_forever(self: Arc<Hub>) {
        let mut last = i64::MIN;
        loop {
            let now = self.now();
            if now.saturating_sub(last) >= UPKEEP_EVERY_MS {
                self.upkeep(now).await;
                last = now;
            }
            self.clock.sleep((last + UPKEEP_EVERY_MS - now).clamp(1, 250)).await;
        }
    }

    /// One sweep: this instance's gone posters, then (on its turn) the whole store.
    pub async fn upkeep(&self, now: i64) {
        for player in self.lobby.gone_for(now - POSTER_GRACE_MS) {
            match self.store.withdraw_live_challenges_of(&player).await {
                Ok(ids) => self.withdrawn(&ids).await,
                Err(e) => eprintln!("stoneyard serve: withdrawing a gone poster's challenges: {e}"),
            }
        }
        let turn = match self.store.upkeep_turn().await {
            Ok(Some(turn)) => turn,
            Ok(None) => return,
            Err(e) => {
                eprintln!("stoneyard serve: sweeping the store: {e}");
                return;
            }
        };
        let expired = self.store.withdraw_expired(
            now - LIVE_CHALLENGE_LIFETIME_MS,
            now - CHALLENGE_LIFETIME_MS,
            now - INVITE_LIFETIME_MS,
        );
        match expired.await {
            Ok(ids) => self.withdrawn(&ids).await,
            Err(e) => eprintln!("stoneyard serve: withdrawing expired challenges: {e}"),
        }
        match self.store.idle_live_games(now - IDLE_LIVE_GAME_MS, IDLE_GAMES_PER_SWEEP).await {
            Ok(ids) => self.end_if_out_of_time(ids, now).await,
            Err(e) => eprintln!("stoneyard serve: reading idle live games: {e}"),
        }
        turn.release().await;
    }

    /// Tells whoever follows them that these games were withdrawn.
    pub(super) async fn withdrawn(&self, ids: &[String]) {
        for id in ids {
            if let Some(room) = self.loaded_room(id) {
                room.send_all(&crate::online::protocol::ServerMessage::Cancelled { game_id: id.clone() });
            }
            self.announce_json(serde_json::json!({ "i": self.instance, "g": id, "cancelled": true })).await;
        }
        if !ids.is_empty() {
            self.lobby_changed().await;
        }
    }

    /// Loads each idle live game this instance does not hold (those it holds, its timer flags)
    /// whose clock may have run out, and flags it.
    async fn end_if_out_of_time(&self, ids: Vec<String>, now: i64) {
        let mut due = Vec::new();
        {
            let mut checked = self.idle_games.lock().expect("idle games lock");
            checked.retain(|id, _| ids.contains(id));
            for id in ids {
                if self.loaded_room(&id).is_none() && checked.get(&id).is_none_or(|&next| next <= now) {
                    due.push(id);
                }
            }
        }
        for id in due {
            let room = self.room(&id);
            let deadline = self.flag_if_out_of_time(&room).await;
            self.idle_games.lock().expect("idle games lock").insert(id, deadline);
        }
    }
}
