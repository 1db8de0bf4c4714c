//! The store's players, ratings, challenges, seat grants and quick-play queue (schema version 4):
//! the queries behind names, the lobby, player pages and leaderboards. Keys and grants are kept
//! as hashes; passwords as argon2 strings.

use super::store::{Backend, GameStore, StoreError, side_of, unique_violation_is_false};
use crate::games::GameKind;
use crate::online::directory::{
    Challenge, LISTED_CHALLENGES, Leader, LiveGame, PROVISIONAL_DEVIATION, Rating, RatingChange, RatingPoint,
    RecentGame, START_DEVIATION, START_RATING, START_VOLATILITY,
};
use crate::online::protocol::Ending;
use crate::rules::Side;
use sqlx::Row;

/// A query on the store with its parameters bound so far.
type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// A player as the store has them.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRow {
    pub id: String,
    pub name: String,
    /// The argon2 hash of their password, once they have one.
    pub password: Option<String>,
    pub created_ms: i64,
}

/// A rating with its volatility (Glicko-2's third number).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
}

impl Default for Glicko {
    fn default() -> Self {
        Glicko { rating: START_RATING, deviation: START_DEVIATION, volatility: START_VOLATILITY, games: 0 }
    }
}

/// Games being played shown in the lobby.
pub const LIVE_GAMES: i64 = 10;
/// Finished games on a player page.
pub const RECENT_GAMES: i64 = 20;
/// Lines of a leaderboard.
pub const LEADERS: i64 = 50;
/// A player's games listed on a new device.
pub const PLAYER_GAMES: i64 = 100;

fn decode(e: impl std::error::Error + Send + Sync + 'static) -> StoreError {
    sqlx::Error::Decode(Box::new(e))
}

fn options_of(text: &str) -> Result<Vec<(String, String)>, StoreError> {
    serde_json::from_str(text).map_err(decode)
}

/// A `ratings` row's rating, deviation, volatility and games.
fn glicko_of(r: &sqlx::any::AnyRow) -> Result<Glicko, StoreError> {
    Ok(Glicko {
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get::<i64, _>("games")? as u32,
    })
}

fn kind_of(slug: &str) -> Result<GameKind, StoreError> {
    GameKind::from_slug(slug).ok_or_else(|| sqlx::Error::Protocol(format!("unknown game '{slug}' in the store")))
}

/// Whether a name was registered.
#[derive(Debug, PartialEq, Eq)]
pub enum Registered {
    Yes,
    Taken,
    /// Refused: it looks like this player's name.
    LooksLike(String),
}

impl GameStore {
    /// A new player with their first device's key, unless the name is taken or looks like the
    /// name of another player (the same confusables skeleton).
    pub async fn register(&self, id: &str, name: &str, key_hash: &str, now_ms: i64) -> Result<Registered, StoreError> {
        let key = crate::online::directory::name_key(name);
        let skeleton = crate::online::directory::name_skeleton(name);
        let like = sqlx::query("SELECT name FROM players WHERE name_skeleton = $1 AND name_key <> $2 LIMIT 1")
            .bind(&skeleton)
            .bind(&key)
            .fetch_optional(&self.pool)
            .await?;
        if let Some(row) = like {
            return Ok(Registered::LooksLike(row.try_get("name")?));
        }
        let created = sqlx::query(
            "INSERT INTO players (id, name, name_key, name_skeleton, created_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(name)
        .bind(key)
        .bind(skeleton)
        .bind(now_ms)
        .execute(&self.pool)
        .await;
        if !unique_violation_is_false(created)? {
            return Ok(Registered::Taken);
        }
        self.add_key(id, key_hash, now_ms).await?;
        Ok(Registered::Yes)
    }

    /// Another device's key for a player.
    pub async fn add_key(&self, player: &str, key_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO player_keys (key_hash, player_id, created_ms) VALUES ($1, $2, $3)")
            .bind(key_hash)
            .bind(player)
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    fn player_row(r: &sqlx::any::AnyRow) -> Result<PlayerRow, StoreError> {
        Ok(PlayerRow {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            password: r.try_get("password")?,
            created_ms: r.try_get("created_ms")?,
        })
    }

    pub async fn player_by_key(&self, key_hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        let row = sqlx::query(
            "SELECT p.id, p.name, p.password, p.created_ms FROM player_keys k JOIN players p ON p.id = k.player_id WHERE k.key_hash = $1",
        )
        .bind(key_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(Self::player_row).transpose()
    }

    pub async fn player_by_name(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        let row = sqlx::query("SELECT id, name, password, created_ms FROM players WHERE name_key = $1")
            .bind(crate::online::directory::name_key(name))
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(Self::player_row).transpose()
    }

    pub async fn set_password(&self, player: &str, hash: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET password = $1 WHERE id = $2")
            .bind(hash)
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A player's ratings, one per game they have played rated.
    pub async fn ratings(&self, player: &str) -> Result<Vec<Rating>, StoreError> {
        let rows = sqlx::query("SELECT game, rating, deviation, games FROM ratings WHERE player_id = $1 ORDER BY game")
            .bind(player)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(Rating {
                    game: kind_of(&r.try_get::<String, _>("game")?)?,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    games: r.try_get::<i64, _>("games")? as u32,
                })
            })
            .collect()
    }

    /// A player's rating at one game (the starting one before any rated game).
    pub async fn rating(&self, player: &str, game: GameKind) -> Result<Glicko, StoreError> {
        let row =
            sqlx::query("SELECT rating, deviation, volatility, games FROM ratings WHERE player_id = $1 AND game = $2")
                .bind(player)
                .bind(game.slug())
                .fetch_optional(&self.pool)
                .await?;
        match row {
            None => Ok(Glicko::default()),
            Some(r) => glicko_of(&r),
        }
    }

    /// Rates a finished game between two players: reads both ratings, lets `rate` compute the new
    /// ones, writes them and the history in one transaction (PostgreSQL locks the two rows, so two
    /// games of one player ending at once on two instances are rated one after the other). `None`
    /// when the two players (ids and names, seat by seat) have had their rated games of the day.
    pub async fn rate_game(
        &self,
        game_id: &str,
        game: GameKind,
        seats: [(&str, &str); 2],
        now_ms: i64,
        per_pair_per_day: u32,
        rate: impl FnOnce([Glicko; 2]) -> [Glicko; 2],
    ) -> Result<Option<Vec<RatingChange>>, StoreError> {
        let (players, names) = (seats.map(|(id, _)| id), seats.map(|(_, name)| name));
        let mut tx = self.pool.begin().await?;
        if self.backend == Backend::Sqlite {
            // Take the write lock before reading (a deferred transaction could read, then fail to write).
            sqlx::query("UPDATE ratings SET games = games WHERE player_id = $1")
                .bind(players[0])
                .execute(&mut *tx)
                .await?;
        }
        let lock = if self.backend == Backend::Postgres { " FOR UPDATE" } else { "" };
        // The pair's rated games of the last 24 hours, counted in the transaction that rates (the
        // rows of the first player's ratings are locked above, so two endings cannot both pass).
        let (met,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM rating_history mine
             JOIN rating_history theirs ON theirs.game_id = mine.game_id AND theirs.player_id = $2
             WHERE mine.player_id = $1 AND mine.at_ms > $3",
        )
        .bind(players[0])
        .bind(players[1])
        .bind(now_ms - crate::online::clock::DAY_MS)
        .fetch_one(&mut *tx)
        .await?;
        if met >= i64::from(per_pair_per_day) {
            tx.rollback().await?;
            return Ok(None);
        }
        let mut before = [Glicko::default(); 2];
        for (i, player) in players.iter().enumerate() {
            let sql = format!(
                "SELECT rating, deviation, volatility, games FROM ratings WHERE player_id = $1 AND game = $2{lock}"
            );
            let row = sqlx::query(&sql).bind(*player).bind(game.slug()).fetch_optional(&mut *tx).await?;
            if let Some(r) = row {
                before[i] = glicko_of(&r)?;
            }
        }
        let after = rate(before);
        let mut changes = Vec::with_capacity(2);
        for i in 0..2 {
            sqlx::query(
                "INSERT INTO ratings (player_id, game, rating, deviation, volatility, games) VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (player_id, game) DO UPDATE SET rating = $3, deviation = $4, volatility = $5, games = $6",
            )
            .bind(players[i])
            .bind(game.slug())
            .bind(after[i].rating)
            .bind(after[i].deviation)
            .bind(after[i].volatility)
            .bind(i64::from(before[i].games + 1))
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (player_id, game, game_id, at_ms, rating_before, rating, deviation) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(players[i])
            .bind(game.slug())
            .bind(game_id)
            .bind(now_ms)
            .bind(before[i].rating)
            .bind(after[i].rating)
            .bind(after[i].deviation)
            .execute(&mut *tx)
            .await?;
            changes.push(RatingChange {
                name: names[i].to_string(),
                before: before[i].rating,
                after: after[i].rating,
                deviation: after[i].deviation,
            });
        }
        tx.commit().await?;
        Ok(Some(changes))
    }

    /// The newest open challenges: listed (public or direct), not ended, one seat free; newest first.
    pub async fn open_challenges(&self) -> Result<Vec<Challenge>, StoreError> {
        self.challenges_where("1 = 1", |q| q).await
    }

    /// A page of the open challenges after (`before_ms`, `before_id`) in the lobby's order,
    /// public or direct to or from `viewer` (a player id); and whether there may be more.
    pub async fn older_challenges(
        &self,
        before_ms: i64,
        before_id: &str,
        viewer: Option<&str>,
    ) -> Result<(Vec<Challenge>, bool), StoreError> {
        // No player id is empty: an empty viewer sees the public challenges only.
        let viewer = viewer.unwrap_or("");
        let page = self
            .challenges_where(
                "(g.created_ms < $2 OR (g.created_ms = $2 AND g.id > $3))
                 AND (g.public = 1 OR g.for_player = $4 OR g.player_first = $4 OR g.player_second = $4)",
                |q| q.bind(before_ms).bind(before_id.to_string()).bind(viewer.to_string()),
            )
            .await?;
        let more = page.len() as i64 == LISTED_CHALLENGES;
        Ok((page, more))
    }

    /// The lobby's open challenges that also meet `condition` (its parameters from `$2`, bound
    /// by `bind`), the newest `LISTED_CHALLENGES`.
    async fn challenges_where(
        &self,
        condition: &str,
        bind: impl for<'q> FnOnce(AnyQuery<'q>) -> AnyQuery<'q>,
    ) -> Result<Vec<Challenge>, StoreError> {
        let sql = format!(
            "SELECT g.id, g.game, g.options, g.token_first, g.rated, g.time_control, g.created_ms,
                    p.name AS by_name, t.name AS to_name, r.rating, r.deviation
             FROM games g
             JOIN players p ON p.id = COALESCE(g.player_first, g.player_second)
             LEFT JOIN players t ON t.id = g.for_player
             LEFT JOIN ratings r ON r.player_id = p.id AND r.game = g.game
             WHERE (g.public = 1 OR g.for_player IS NOT NULL) AND g.ending IS NULL
               AND (g.token_first IS NULL OR g.token_second IS NULL) AND {condition}
             ORDER BY g.created_ms DESC, g.id
             LIMIT $1"
        );
        let rows = bind(sqlx::query(&sql).bind(LISTED_CHALLENGES)).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                let first: Option<String> = r.try_get("token_first")?;
                let control: Option<String> = r.try_get("time_control")?;
                Ok(Challenge {
                    game_id: r.try_get("id")?,
                    game: kind_of(&r.try_get::<String, _>("game")?)?,
                    options: options_of(&r.try_get::<String, _>("options")?)?,
                    by: r.try_get("by_name")?,
                    rating: r.try_get::<Option<f64>, _>("rating")?.unwrap_or(START_RATING),
                    deviation: r.try_get::<Option<f64>, _>("deviation")?.unwrap_or(START_DEVIATION),
                    seat: if first.is_some() { Side::First } else { Side::Second },
                    rated: r.try_get::<i64, _>("rated")? != 0,
                    time_control: control.map(|c| serde_json::from_str(&c)).transpose().map_err(decode)?,
                    to: r.try_get("to_name")?,
                    posted_ms: r.try_get("created_ms")?,
                })
            })
            .collect()
    }

    /// A player's open challenges (to limit how many one player posts).
    pub async fn open_challenges_of(&self, player: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM games WHERE (player_first = $1 OR player_second = $1)
               AND (public = 1 OR for_player IS NOT NULL) AND ending IS NULL
               AND (token_first IS NULL OR token_second IS NULL)",
        )
        .bind(player)
        .fetch_one(&self.pool)
        .await?;
        row.try_get("n")
    }

    /// The newest public games being played between two signed-in players (a direct challenge's
    /// or an invite's game is private: its players share its watch link if they wish).
    pub async fn live_games(&self) -> Result<Vec<LiveGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.game, g.options, g.rated, a.name AS first_name, b.name AS second_name,
                    (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id AND m.decision NOT LIKE '!%') AS plies
             FROM games g
             JOIN players a ON a.id = g.player_first
             JOIN players b ON b.id = g.player_second
             WHERE g.ending IS NULL AND g.token_first IS NOT NULL AND g.token_second IS NOT NULL AND g.public = 1
             ORDER BY g.created_ms DESC, g.id
             LIMIT $1",
        )
        .bind(LIVE_GAMES)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(LiveGame {
                    game_id: r.try_get("id")?,
                    game: kind_of(&r.try_get::<String, _>("game")?)?,
                    options: options_of(&r.try_get::<String, _>("options")?)?,
                    names: [r.try_get("first_name")?, r.try_get("second_name")?],
                    rated: r.try_get::<i64, _>("rated")? != 0,
                    plies: r.try_get::<i64, _>("plies")? as u32,
                })
            })
            .collect()
    }

    /// Withdraws a game nobody has joined: `Ok(false)` when its second seat was taken meanwhile.
    pub async fn cancel(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "DELETE FROM games WHERE id = $1 AND ending IS NULL AND (token_first IS NULL OR token_second IS NULL)",
        )
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The names of players by id.
    pub async fn player_names(&self, ids: [Option<&str>; 2]) -> Result<[Option<String>; 2], StoreError> {
        let mut names = [None, None];
        for (i, id) in ids.iter().enumerate() {
            if let Some(id) = id {
                let row =
                    sqlx::query("SELECT name FROM players WHERE id = $1").bind(*id).fetch_optional(&self.pool).await?;
                names[i] = row.map(|r| r.try_get("name")).transpose()?;
            }
        }
        Ok(names)
    }

    /// A player's games and seats, newest first (for their other devices).
    pub async fn games_of_player(&self, player: &str) -> Result<Vec<(String, Side)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, player_first FROM games WHERE player_first = $1 OR player_second = $1 ORDER BY created_ms DESC LIMIT $2",
        )
        .bind(player)
        .bind(PLAYER_GAMES)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let first: Option<String> = r.try_get("player_first")?;
                let seat = if first.as_deref() == Some(player) { Side::First } else { Side::Second };
                Ok((r.try_get("id")?, seat))
            })
            .collect()
    }

    /// Lets a token's hash hold a seat too (a player's other device).
    pub async fn add_grant(&self, hash: &str, game_id: &str, seat: Side) -> Result<(), StoreError> {
        let added = sqlx::query("INSERT INTO seat_grants (hash, game_id, seat) VALUES ($1, $2, $3)")
            .bind(hash)
            .bind(game_id)
            .bind(seat.index() as i64)
            .execute(&self.pool)
            .await;
        unique_violation_is_false(added).map(|_| ())
    }

    /// The game and seat a granted token's hash holds.
    pub async fn grant(&self, hash: &str) -> Result<Option<(String, Side)>, StoreError> {
        let row = sqlx::query("SELECT game_id, seat FROM seat_grants WHERE hash = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get("game_id")?, side_of(r.try_get("seat")?)))).transpose()
    }

    /// A player page's finished games, newest first, with the page's player's rating change: the
    /// public ones, and for `viewer` (a player id) the private ones they played in too.
    pub async fn recent_games(&self, player: &str, viewer: Option<&str>) -> Result<Vec<RecentGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.game, g.options, g.player_first, g.ending, g.rated, g.ended_ms, g.result_seat,
                    o.name AS opponent, h.rating, h.rating_before
             FROM games g
             LEFT JOIN players o ON o.id = (CASE WHEN g.player_first = $1 THEN g.player_second ELSE g.player_first END)
             LEFT JOIN rating_history h ON h.player_id = $1 AND h.game_id = g.id
             WHERE (g.player_first = $1 OR g.player_second = $1) AND g.ending IS NOT NULL
               AND (g.public = 1 OR g.player_first = $3 OR g.player_second = $3)
             ORDER BY g.ended_ms DESC, g.id
             LIMIT $2",
        )
        .bind(player)
        .bind(RECENT_GAMES)
        .bind(viewer)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let first: Option<String> = r.try_get("player_first")?;
                let seat = if first.as_deref() == Some(player) { Side::First } else { Side::Second };
                let ending: Ending = serde_json::from_str(&r.try_get::<String, _>("ending")?).map_err(decode)?;
                let result: Option<i64> = r.try_get("result_seat")?;
                let outcome = match result {
                    Some(2) | None => "drawn",
                    Some(s) if s == seat.index() as i64 => "won",
                    Some(_) => "lost",
                };
                let after: Option<f64> = r.try_get("rating")?;
                let before: Option<f64> = r.try_get("rating_before")?;
                Ok(RecentGame {
                    game_id: r.try_get("id")?,
                    game: kind_of(&r.try_get::<String, _>("game")?)?,
                    options: options_of(&r.try_get::<String, _>("options")?)?,
                    seat,
                    opponent: r.try_get("opponent")?,
                    outcome: outcome.to_string(),
                    reason: ending.reason,
                    rated: r.try_get::<i64, _>("rated")? != 0,
                    change: after.zip(before).map(|(a, b)| a - b),
                    ended_ms: r.try_get::<Option<i64>, _>("ended_ms")?.unwrap_or(0),
                })
            })
            .collect()
    }

    /// A player's rating after each rated game, oldest first.
    pub async fn rating_history(&self, player: &str) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT game, at_ms, rating, deviation FROM rating_history WHERE player_id = $1 ORDER BY at_ms, game_id",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingPoint {
                    game: kind_of(&r.try_get::<String, _>("game")?)?,
                    at_ms: r.try_get("at_ms")?,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                })
            })
            .collect()
    }

    /// A game's leaderboard: established ratings first, then provisional ones, best first.
    pub async fn leaders(&self, game: GameKind) -> Result<Vec<Leader>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.name, r.rating, r.deviation, r.games FROM ratings r JOIN players p ON p.id = r.player_id
             WHERE r.game = $1
             ORDER BY CASE WHEN r.deviation < $2 THEN 0 ELSE 1 END, r.rating DESC, p.name_key
             LIMIT $3",
        )
        .bind(game.slug())
        .bind(PROVISIONAL_DEVIATION)
        .bind(LEADERS)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Leader {
                    name: r.try_get("name")?,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    games: r.try_get::<i64, _>("games")? as u32,
                })
            })
            .collect()
    }

    /// Puts a player in quick play's queue for `game` (or moves them there).
    pub async fn queue_quick_play(
        &self,
        player: &str,
        game: GameKind,
        rating: f64,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO quick_play (player_id, game, rating, since_ms) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player_id) DO UPDATE SET game = $2, rating = $3, since_ms = $4",
        )
        .bind(player)
        .bind(game.slug())
        .bind(rating)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Who waits at `game`, other than `player`, since `oldest_ms` or later: (id, rating, waiting since).
    pub async fn quick_play_waiting(
        &self,
        game: GameKind,
        player: &str,
        oldest_ms: i64,
    ) -> Result<Vec<(String, f64, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT player_id, rating, since_ms FROM quick_play WHERE game = $1 AND player_id <> $2 AND since_ms >= $3
             ORDER BY since_ms LIMIT 200",
        )
        .bind(game.slug())
        .bind(player)
        .bind(oldest_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get("player_id")?, r.try_get("rating")?, r.try_get("since_ms")?))).collect()
    }

    /// Empties quick play's queue.
    pub async fn clear_quick_play(&self) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM quick_play").execute(&self.pool).await?;
        Ok(())
    }

    /// Takes a player out of quick play's queue. `Ok(false)`: they were not in it (paired by
    /// another request, or gone) — so of two requests pairing with one player, one wins.
    pub async fn leave_quick_play(&self, player: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM quick_play WHERE player_id = $1").bind(player).execute(&self.pool).await?;
        Ok(done.rows_affected() == 1)
    }
}
