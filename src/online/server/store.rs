//! The server's store: games (setup, seats, ending, rematch) and their append-only decisions, in
//! SQLite (embedded, the default) or PostgreSQL (shared by several instances), through sqlx.

use crate::online::protocol::Ending;
use crate::rules::Side;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};

/// Why the store failed (the client gets `Unavailable`; nothing was changed).
pub type StoreError = sqlx::Error;

/// Which database is behind the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A game's row.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    pub options: Vec<(String, String)>,
    pub code: String,
    pub tokens: [Option<String>; 2],
    pub ending: Option<Ending>,
    pub rematch_offered_by: Option<Side>,
    pub rematch: Option<String>,
}

/// The store, cheap to clone.
#[derive(Clone)]
pub struct GameStore {
    pool: AnyPool,
    pub backend: Backend,
    pub url: String,
}

const SCHEMA: [&str; 3] = [
    "CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        code TEXT NOT NULL UNIQUE,
        token_first TEXT UNIQUE,
        token_second TEXT UNIQUE,
        created_ms BIGINT NOT NULL,
        ending TEXT,
        rematch_offered_by BIGINT,
        rematch TEXT
    )",
    "CREATE TABLE IF NOT EXISTS moves (
        game_id TEXT NOT NULL,
        ply BIGINT NOT NULL,
        seat BIGINT NOT NULL,
        decision TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, ply)
    )",
    "CREATE INDEX IF NOT EXISTS games_created ON games (created_ms)",
];

fn side_of(n: i64) -> Side {
    Side::from_index(n as usize)
}

impl GameStore {
    /// Opens (creating if needed) the store at `url`: `sqlite://FILE` or `postgres://…`.
    pub async fn open(url: &str) -> Result<GameStore, StoreError> {
        install_default_drivers();
        let backend = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let connect_url = match backend {
            // WAL: readers never wait for the writer; NORMAL sync is still durable when the
            // process is killed (only a power cut can lose the last commits).
            Backend::Sqlite if !url.contains('?') => format!("{url}?mode=rwc"),
            _ => url.to_string(),
        };
        let pool = AnyPoolOptions::new()
            .max_connections(match backend {
                Backend::Sqlite => 4,
                Backend::Postgres => 16,
            })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        sqlx::query("PRAGMA journal_mode = WAL").execute(&mut *conn).await?;
                        sqlx::query("PRAGMA synchronous = NORMAL").execute(&mut *conn).await?;
                        sqlx::query("PRAGMA busy_timeout = 5000").execute(&mut *conn).await?;
                    }
                    Ok(())
                })
            })
            .connect(&connect_url)
            .await?;
        for statement in SCHEMA {
            sqlx::query(statement).execute(&pool).await?;
        }
        Ok(GameStore { pool, backend, url: url.to_string() })
    }

    /// Stores a new game. `Ok(false)`: its id or code is taken (draw new ones).
    pub async fn create(&self, row: &GameRow, now_ms: i64) -> Result<bool, StoreError> {
        let options = serde_json::to_string(&row.options).expect("options serialise");
        let result = sqlx::query(
            "INSERT INTO games (id, game, options, code, token_first, token_second, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&row.id)
        .bind(&row.game)
        .bind(options)
        .bind(&row.code)
        .bind(row.tokens[0].clone())
        .bind(row.tokens[1].clone())
        .bind(now_ms)
        .execute(&self.pool)
        .await;
        unique_violation_is_false(result)
    }

    /// Gives the free `seat` of a game its token. `Ok(false)`: it was taken meanwhile.
    pub async fn take_seat(&self, id: &str, seat: Side, token: &str) -> Result<bool, StoreError> {
        let column = ["token_first", "token_second"][seat.index()];
        let sql = format!("UPDATE games SET {column} = $1 WHERE id = $2 AND {column} IS NULL");
        let done = sqlx::query(&sql).bind(token).bind(id).execute(&self.pool).await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, game, options, code, token_first, token_second, ending, rematch_offered_by, rematch FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            let options: String = r.try_get("options")?;
            let ending: Option<String> = r.try_get("ending")?;
            let offered: Option<i64> = r.try_get("rematch_offered_by")?;
            Ok(GameRow {
                id: r.try_get("id")?,
                game: r.try_get("game")?,
                options: serde_json::from_str(&options).map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
                code: r.try_get("code")?,
                tokens: [r.try_get("token_first")?, r.try_get("token_second")?],
                ending: ending
                    .map(|e| serde_json::from_str(&e))
                    .transpose()
                    .map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
                rematch_offered_by: offered.map(side_of),
                rematch: r.try_get("rematch")?,
            })
        })
        .transpose()
    }

    /// The game an invite code belongs to.
    pub async fn game_of_code(&self, code: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT id FROM games WHERE code = $1").bind(code).fetch_optional(&self.pool).await?;
        row.map(|r| r.try_get("id")).transpose()
    }

    /// The game and seat a token holds.
    pub async fn seat_of_token(&self, token: &str) -> Result<Option<(String, Side)>, StoreError> {
        let row = sqlx::query("SELECT id, token_first FROM games WHERE token_first = $1 OR token_second = $1")
            .bind(token)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            let first: Option<String> = r.try_get("token_first")?;
            let seat = if first.as_deref() == Some(token) { Side::First } else { Side::Second };
            Ok((r.try_get("id")?, seat))
        })
        .transpose()
    }

    /// The decisions of a game from `from` on, in ply order.
    pub async fn moves_from(&self, id: &str, from: u32) -> Result<Vec<(Side, String)>, StoreError> {
        let rows = sqlx::query("SELECT ply, seat, decision FROM moves WHERE game_id = $1 AND ply >= $2 ORDER BY ply")
            .bind(id)
            .bind(i64::from(from))
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let ply: i64 = r.try_get("ply")?;
            if ply != i64::from(from) + i as i64 {
                break; // never happens with the primary key, but a gap must not shift plies
            }
            out.push((side_of(r.try_get("seat")?), r.try_get("decision")?));
        }
        Ok(out)
    }

    /// Appends a decision. `Ok(false)`: that ply is already stored (by another instance).
    pub async fn append(
        &self,
        id: &str,
        ply: u32,
        seat: Side,
        decision: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let result = sqlx::query("INSERT INTO moves (game_id, ply, seat, decision, at_ms) VALUES ($1, $2, $3, $4, $5)")
            .bind(id)
            .bind(i64::from(ply))
            .bind(seat.index() as i64)
            .bind(decision)
            .bind(now_ms)
            .execute(&self.pool)
            .await;
        unique_violation_is_false(result)
    }

    /// Ends a game. `Ok(false)`: it had already ended.
    pub async fn end(&self, id: &str, ending: &Ending) -> Result<bool, StoreError> {
        let text = serde_json::to_string(ending).expect("endings serialise");
        let done =
            sqlx::query("UPDATE games SET ending = $1, rematch_offered_by = NULL WHERE id = $2 AND ending IS NULL")
                .bind(text)
                .bind(id)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn offer_rematch(&self, id: &str, by: Side) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET rematch_offered_by = $1 WHERE id = $2 AND rematch IS NULL")
            .bind(by.index() as i64)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Links a game to its rematch. `Ok(false)`: it already has one.
    pub async fn set_rematch(&self, id: &str, rematch: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE games SET rematch = $1 WHERE id = $2 AND rematch IS NULL")
            .bind(rematch)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Tells every instance sharing a PostgreSQL store that a game changed (nothing with SQLite).
    pub async fn notify(&self, payload: &str) -> Result<(), StoreError> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify('stoneyard', $1)").bind(payload).execute(&self.pool).await?;
        }
        Ok(())
    }
}

/// `Ok(false)` for a unique-key violation, so the caller can tell "taken" from "failed".
fn unique_violation_is_false(result: Result<sqlx::any::AnyQueryResult, sqlx::Error>) -> Result<bool, StoreError> {
    match result {
        Ok(_) => Ok(true),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
        Err(e) => Err(e),
    }
}
