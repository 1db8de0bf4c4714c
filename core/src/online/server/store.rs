//! The server's store: games (setup, seats, ending, rematch) and their append-only decisions, in
//! SQLite (embedded, the default) or PostgreSQL (shared by several instances), through sqlx. The
//! schema is versioned; instances starting together migrate it one at a time. Seats are kept as
//! hashes of their tokens (`ids::token_hash`), never as the tokens.

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
    /// Each seat's token hash, once taken.
    pub tokens: [Option<String>; 2],
    pub ending: Option<Ending>,
    pub rematch_offered_by: Option<Side>,
    /// The hash of the token the offerer will hold in the rematch (`ids::rematch_token`).
    pub rematch_offer_hash: Option<String>,
    pub rematch: Option<String>,
    /// Listed in the lobby for anyone to accept.
    pub public: bool,
    /// A direct challenge: only this player (an id) may accept.
    pub for_player: Option<String>,
    pub rated: bool,
    /// The challenge's time control as JSON (`directory::TimeControl`).
    pub time_control: Option<String>,
    /// Each seat's player (an id), when a signed-in player holds it.
    pub players: [Option<String>; 2],
    /// When a timed game's clocks started (both seats taken), and when it ended.
    pub clock_start_ms: Option<i64>,
    pub ended_ms: Option<i64>,
    /// Who created it, for the cap on invites nobody joined: a hash of the client's address.
    pub creator: Option<String>,
}

impl GameRow {
    /// A private game (an invite code), casual, untimed, nobody signed in.
    pub fn private(id: String, game: String, options: Vec<(String, String)>, code: String) -> GameRow {
        GameRow {
            id,
            game,
            options,
            code,
            tokens: [None, None],
            ending: None,
            rematch_offered_by: None,
            rematch_offer_hash: None,
            rematch: None,
            public: false,
            for_player: None,
            rated: false,
            time_control: None,
            players: [None, None],
            clock_start_ms: None,
            ended_ms: None,
            creator: None,
        }
    }
}

/// The store, cheap to clone.
#[derive(Clone)]
pub struct GameStore {
    pub(super) pool: AnyPool,
    pub backend: Backend,
    pub url: String,
}

/// The schema's first version (the tables as the first servers created them).
const VERSION_1: [&str; 3] = [
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

/// Version 2: seat tokens are kept as hashes, and an offered rematch keeps the offerer's seat.
const VERSION_2: [&str; 1] = ["ALTER TABLE games ADD COLUMN rematch_offer_hash TEXT"];

/// Version 4: players (names, hashed device keys, argon2 passwords), ratings and their history,
/// challenges (a game listed publicly or for one player, rated or not, with a time control), the
/// seats' players and results, seat grants for a player's other devices, and quick play's queue.
const VERSION_4: [&str; 17] = [
    "ALTER TABLE games ADD COLUMN public BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN for_player TEXT",
    "ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN time_control TEXT",
    "ALTER TABLE games ADD COLUMN player_first TEXT",
    "ALTER TABLE games ADD COLUMN player_second TEXT",
    "ALTER TABLE games ADD COLUMN ended_ms BIGINT",
    // The winning seat (0 or 1), or 2 for a draw.
    "ALTER TABLE games ADD COLUMN result_seat BIGINT",
    "CREATE INDEX IF NOT EXISTS games_player_first ON games (player_first)",
    "CREATE INDEX IF NOT EXISTS games_player_second ON games (player_second)",
    "CREATE INDEX IF NOT EXISTS games_listed ON games (public, for_player)",
    "CREATE TABLE IF NOT EXISTS players (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password TEXT,
        created_ms BIGINT NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS player_keys (
        key_hash TEXT PRIMARY KEY,
        player_id TEXT NOT NULL,
        created_ms BIGINT NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS ratings (
        player_id TEXT NOT NULL,
        game TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        PRIMARY KEY (player_id, game)
    )",
    "CREATE TABLE IF NOT EXISTS rating_history (
        player_id TEXT NOT NULL,
        game TEXT NOT NULL,
        game_id TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        rating_before DOUBLE PRECISION NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player_id, game_id)
    )",
    "CREATE TABLE IF NOT EXISTS seat_grants (
        hash TEXT PRIMARY KEY,
        game_id TEXT NOT NULL,
        seat BIGINT NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS quick_play (
        player_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        since_ms BIGINT NOT NULL
    )",
];

/// Version 5: clocks and the daily digest. When a timed game's clocks started (its second seat
/// taken), players' vacations (the spans their correspondence clocks stand still), and players'
/// e-mail addresses for the digest. A timeout takes the place of
/// the ply it ended the game at, as a row of `moves` whose decision starts with `!`
/// ([`TIMEOUT_MARK`]), so a move and a timeout at the same ply cannot both be stored.
const VERSION_5: [&str; 5] = [
    "ALTER TABLE games ADD COLUMN clock_start_ms BIGINT",
    // The daily digest: a player's e-mail address, the token of its way out, the last digest.
    "ALTER TABLE players ADD COLUMN email TEXT",
    "ALTER TABLE players ADD COLUMN email_token TEXT",
    "ALTER TABLE players ADD COLUMN digest_ms BIGINT",
    "CREATE TABLE IF NOT EXISTS vacations (
        player_id TEXT NOT NULL,
        from_ms BIGINT NOT NULL,
        to_ms BIGINT NOT NULL,
        PRIMARY KEY (player_id, from_ms)
    )",
];

/// Version 6: a player's vacation under way (or their last) is kept on their row, so starting one
/// is one conditional update (two devices at once cannot store overlapping periods); `vacations`
/// keeps the finished ones. A name's confusables skeleton (`directory::name_skeleton`), so a name
/// like an existing one is refused. An address is confirmed before any digest goes to it, and the
/// store keeps hashes of the links' tokens (each digest's way out is a token of its own). Who
/// created a game (an address's hash), to cap the invites nobody joined per address.
const VERSION_6: [&str; 12] = [
    "ALTER TABLE players ADD COLUMN vacation_from_ms BIGINT",
    "ALTER TABLE players ADD COLUMN vacation_to_ms BIGINT",
    "ALTER TABLE players ADD COLUMN name_skeleton TEXT",
    "CREATE INDEX IF NOT EXISTS players_name_skeleton ON players (name_skeleton)",
    "ALTER TABLE players ADD COLUMN email_confirmed BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE players ADD COLUMN email_confirm_hash TEXT",
    "CREATE TABLE IF NOT EXISTS email_tokens (
        hash TEXT PRIMARY KEY,
        player_id TEXT NOT NULL,
        created_ms BIGINT NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS email_tokens_player ON email_tokens (player_id)",
    "ALTER TABLE games ADD COLUMN creator TEXT",
    "CREATE INDEX IF NOT EXISTS games_creator ON games (creator)",
    // The upkeep's sweep reads the games going on, not every game ever played.
    "CREATE INDEX IF NOT EXISTS games_going ON games (clock_start_ms) WHERE ending IS NULL",
    // An address given before addresses were confirmed is asked for again.
    "UPDATE players SET email = NULL",
];

/// Version 6's move of each player's latest vacation onto their row.
const VERSION_6_MOVES: [&str; 3] = [
    "UPDATE players SET vacation_from_ms = (SELECT MAX(v.from_ms) FROM vacations v WHERE v.player_id = players.id)",
    "UPDATE players SET vacation_to_ms = (SELECT MAX(v.to_ms) FROM vacations v WHERE v.player_id = players.id AND v.from_ms = players.vacation_from_ms)",
    "DELETE FROM vacations WHERE from_ms = (SELECT p.vacation_from_ms FROM players p WHERE p.id = vacations.player_id)",
];

/// How a timeout's row in `moves` starts (no decision of any game does).
pub const TIMEOUT_MARK: &str = "!";

/// The schema version this build writes. Version 3 changes no table: a Hidden Intention
/// commitment, stored as one row per decision before, becomes one row
/// (`online::table::COMMITMENT_SEPARATOR`), as the protocol now sends it.
pub const SCHEMA_VERSION: i64 = 6;

/// A lock number every instance agrees on, for PostgreSQL's advisory lock around migrations.
const MIGRATION_LOCK: i64 = 0x53_54_4f_4e_45_59; // "STONEY"

pub(super) fn side_of(n: i64) -> Side {
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
            // A store that cannot be reached is reported after 10 s (sqlx's default waits 30 s),
            // at start as for a request (which then gets `unavailable`).
            .acquire_timeout(std::time::Duration::from_secs(10))
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
        migrate(&pool, backend).await?;
        Ok(GameStore { pool, backend, url: url.to_string() })
    }

    /// Stores a new game. `Ok(false)`: its id or code is taken (draw new ones).
    pub async fn create(&self, row: &GameRow, now_ms: i64) -> Result<bool, StoreError> {
        let options = serde_json::to_string(&row.options).expect("options serialise");
        let result = sqlx::query(
            "INSERT INTO games (id, game, options, code, token_first, token_second, created_ms, public, for_player, rated, time_control, player_first, player_second, clock_start_ms, creator) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        )
        .bind(&row.id)
        .bind(&row.game)
        .bind(options)
        .bind(&row.code)
        .bind(row.tokens[0].clone())
        .bind(row.tokens[1].clone())
        .bind(now_ms)
        .bind(i64::from(row.public))
        .bind(row.for_player.clone())
        .bind(i64::from(row.rated))
        .bind(row.time_control.clone())
        .bind(row.players[0].clone())
        .bind(row.players[1].clone())
        .bind(row.clock_start_ms)
        .bind(row.creator.clone())
        .execute(&self.pool)
        .await;
        unique_violation_is_false(result)
    }

    /// Gives the free `seat` of a game that has not ended its token's hash (and its signed-in
    /// player). With `accepting`, only a listed challenge (public, or direct to `player`) is taken.
    /// `Ok(false)`: it was taken meanwhile, withdrawn, or the game ended. When the other seat is
    /// taken already, a timed game's clocks start at `now_ms`.
    pub async fn take_seat(
        &self,
        id: &str,
        seat: Side,
        hash: &str,
        player: Option<&str>,
        accepting: bool,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (token, owner) = [("token_first", "player_first"), ("token_second", "player_second")][seat.index()];
        let other = ["token_second", "token_first"][seat.index()];
        let listed = if accepting { " AND (public = 1 OR for_player = $2)" } else { "" };
        let sql = format!(
            "UPDATE games SET {token} = $1, {owner} = $2, clock_start_ms = CASE WHEN {other} IS NOT NULL THEN $4 ELSE NULL END WHERE id = $3 AND {token} IS NULL AND ending IS NULL{listed}"
        );
        let done = sqlx::query(&sql).bind(hash).bind(player).bind(id).bind(now_ms).execute(&self.pool).await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, game, options, code, token_first, token_second, ending, rematch_offered_by, rematch_offer_hash, rematch, public, for_player, rated, time_control, player_first, player_second, clock_start_ms, ended_ms FROM games WHERE id = $1",
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
                rematch_offer_hash: r.try_get("rematch_offer_hash")?,
                rematch: r.try_get("rematch")?,
                public: r.try_get::<i64, _>("public")? != 0,
                for_player: r.try_get("for_player")?,
                rated: r.try_get::<i64, _>("rated")? != 0,
                time_control: r.try_get("time_control")?,
                players: [r.try_get("player_first")?, r.try_get("player_second")?],
                clock_start_ms: r.try_get("clock_start_ms")?,
                ended_ms: r.try_get("ended_ms")?,
                creator: None,
            })
        })
        .transpose()
    }

    /// The games `creator` made that nobody has joined yet.
    pub async fn unjoined_games_of(&self, creator: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM games WHERE creator = $1 AND ending IS NULL AND (token_first IS NULL OR token_second IS NULL)",
        )
        .bind(creator)
        .fetch_one(&self.pool)
        .await?;
        row.try_get("n")
    }

    /// The game an invite code opens: one that has not ended and still has a free seat (a code
    /// expires once both seats are taken).
    pub async fn game_of_code(&self, code: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT id FROM games WHERE code = $1 AND ending IS NULL AND (token_first IS NULL OR token_second IS NULL)",
        )
        .bind(code)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| r.try_get("id")).transpose()
    }

    /// The game and seat a token's hash holds (a seat's own token, or a grant).
    pub async fn seat_of_token(&self, hash: &str) -> Result<Option<(String, Side)>, StoreError> {
        let row = sqlx::query("SELECT id, token_first FROM games WHERE token_first = $1 OR token_second = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        let Some(r) = row else { return self.grant(hash).await };
        let first: Option<String> = r.try_get("token_first")?;
        let seat = if first.as_deref() == Some(hash) { Side::First } else { Side::Second };
        Ok(Some((r.try_get("id")?, seat)))
    }

    /// The decisions of a game from `from` on, in ply order, with when each was stored (a
    /// timeout's row is not a decision: it is left out).
    pub async fn moves_from(&self, id: &str, from: u32) -> Result<Vec<(Side, String, i64)>, StoreError> {
        let rows =
            sqlx::query("SELECT ply, seat, decision, at_ms FROM moves WHERE game_id = $1 AND ply >= $2 ORDER BY ply")
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
            let decision: String = r.try_get("decision")?;
            if decision.starts_with(TIMEOUT_MARK) {
                break;
            }
            out.push((side_of(r.try_get("seat")?), decision, r.try_get("at_ms")?));
        }
        Ok(out)
    }

    /// Stores that `seat` timed out (`mark`, after [`TIMEOUT_MARK`]) in the place of ply `ply`.
    /// `Ok(false)`: a decision or another timeout holds that ply already.
    pub async fn mark_timeout(
        &self,
        id: &str,
        ply: u32,
        seat: Side,
        mark: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        self.append(id, ply, seat, &format!("{TIMEOUT_MARK}{mark}"), now_ms, None).await
    }

    /// A game's timeout, if one was stored: the seat that timed out and its mark.
    pub async fn timeout_of(&self, id: &str) -> Result<Option<(Side, String)>, StoreError> {
        let row = sqlx::query("SELECT seat, decision FROM moves WHERE game_id = $1 AND decision LIKE '!%'")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            let decision: String = r.try_get("decision")?;
            Ok((side_of(r.try_get("seat")?), decision.trim_start_matches(TIMEOUT_MARK).to_string()))
        })
        .transpose()
    }

    /// Appends a decision. On PostgreSQL `announcement` (when given) goes to the other instances in
    /// the same statement: they hear of the decision exactly when it is stored (a crash cannot come
    /// between the two), and one commit is waited for, not two. `Ok(false)`: that ply is already
    /// stored (by another instance), and nothing was announced.
    pub async fn append(
        &self,
        id: &str,
        ply: u32,
        seat: Side,
        decision: &str,
        now_ms: i64,
        announcement: Option<&str>,
    ) -> Result<bool, StoreError> {
        let announcement = announcement.filter(|_| self.backend == Backend::Postgres);
        let sql = match announcement {
            Some(_) => {
                "WITH stored AS (INSERT INTO moves (game_id, ply, seat, decision, at_ms) VALUES ($1, $2, $3, $4, $5) RETURNING ply) SELECT pg_notify('stoneyard', $6) FROM stored"
            }
            None => "INSERT INTO moves (game_id, ply, seat, decision, at_ms) VALUES ($1, $2, $3, $4, $5)",
        };
        let mut query =
            sqlx::query(sql).bind(id).bind(i64::from(ply)).bind(seat.index() as i64).bind(decision).bind(now_ms);
        if let Some(announcement) = announcement {
            query = query.bind(announcement);
        }
        unique_violation_is_false(query.execute(&self.pool).await)
    }

    /// Ends a game won by `winner`'s seat (`None`: a draw). `Ok(false)`: it had already ended.
    pub async fn end(&self, id: &str, ending: &Ending, winner: Option<Side>, now_ms: i64) -> Result<bool, StoreError> {
        let text = serde_json::to_string(ending).expect("endings serialise");
        let done = sqlx::query(
            "UPDATE games SET ending = $1, rematch_offered_by = NULL, ended_ms = $2, result_seat = $3 WHERE id = $4 AND ending IS NULL",
        )
        .bind(text)
        .bind(now_ms)
        .bind(winner.map_or(2, |s| s.index() as i64))
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records a rematch offer with the hash of the token the offerer will hold in it.
    pub async fn offer_rematch(&self, id: &str, by: Side, seat_hash: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE games SET rematch_offered_by = $1, rematch_offer_hash = $2 WHERE id = $3 AND rematch IS NULL",
        )
        .bind(by.index() as i64)
        .bind(seat_hash)
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

/// Brings the schema to [`SCHEMA_VERSION`], one instance at a time: PostgreSQL's advisory lock
/// (two instances started together on an empty database would otherwise both create the tables,
/// and one would fail), SQLite's write lock.
async fn migrate(pool: &AnyPool, backend: Backend) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    match backend {
        Backend::Postgres => {
            sqlx::query("SELECT pg_advisory_lock($1)").bind(MIGRATION_LOCK).execute(&mut *conn).await?;
        }
        Backend::Sqlite => {
            sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await?;
        }
    }
    let result = migrate_locked(&mut conn, backend).await;
    let release = match backend {
        Backend::Postgres => "SELECT pg_advisory_unlock_all()",
        Backend::Sqlite if result.is_ok() => "COMMIT",
        Backend::Sqlite => "ROLLBACK",
    };
    let released = sqlx::query(release).execute(&mut *conn).await;
    result?;
    released?;
    Ok(())
}

async fn migrate_locked(conn: &mut sqlx::AnyConnection, backend: Backend) -> Result<(), StoreError> {
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)").execute(&mut *conn).await?;
    let row = sqlx::query("SELECT MAX(version) AS version FROM schema_version").fetch_one(&mut *conn).await?;
    let mut version: i64 = row.try_get::<Option<i64>, _>("version")?.unwrap_or(0);
    if version > SCHEMA_VERSION {
        return Err(sqlx::Error::Protocol(format!(
            "the store's schema is version {version}, newer than this server's {SCHEMA_VERSION}; update the server"
        )));
    }
    while version < SCHEMA_VERSION {
        version += 1;
        // PostgreSQL runs each step in a transaction (SQLite's whole migration already is one).
        if backend == Backend::Postgres {
            sqlx::query("BEGIN").execute(&mut *conn).await?;
        }
        let step = migrate_step(conn, version).await;
        let step = match step {
            Ok(()) => sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
                .bind(version)
                .execute(&mut *conn)
                .await
                .map(|_| ()),
            Err(e) => Err(e),
        };
        if backend == Backend::Postgres {
            let end = if step.is_ok() { "COMMIT" } else { "ROLLBACK" };
            sqlx::query(end).execute(&mut *conn).await?;
        }
        step?;
    }
    Ok(())
}

async fn migrate_step(conn: &mut sqlx::AnyConnection, version: i64) -> Result<(), StoreError> {
    match version {
        1 => {
            for statement in VERSION_1 {
                sqlx::query(statement).execute(&mut *conn).await?;
            }
        }
        2 => {
            for statement in VERSION_2 {
                sqlx::query(statement).execute(&mut *conn).await?;
            }
            // The tokens a first-version store kept as they are become their hashes.
            let rows = sqlx::query("SELECT id, token_first, token_second FROM games").fetch_all(&mut *conn).await?;
            for r in rows {
                let id: String = r.try_get("id")?;
                let first: Option<String> = r.try_get("token_first")?;
                let second: Option<String> = r.try_get("token_second")?;
                sqlx::query("UPDATE games SET token_first = $1, token_second = $2 WHERE id = $3")
                    .bind(first.as_deref().map(super::ids::token_hash))
                    .bind(second.as_deref().map(super::ids::token_hash))
                    .bind(id)
                    .execute(&mut *conn)
                    .await?;
            }
        }
        3 => {
            let games = sqlx::query("SELECT id, options FROM games WHERE game = 'hidden-intention'")
                .fetch_all(&mut *conn)
                .await?;
            for g in games {
                let id: String = g.try_get("id")?;
                let options: String = g.try_get("options")?;
                let rows = sqlx::query("SELECT seat, decision, at_ms FROM moves WHERE game_id = $1 ORDER BY ply")
                    .bind(&id)
                    .fetch_all(&mut *conn)
                    .await?;
                let mut stored = Vec::with_capacity(rows.len());
                for r in rows {
                    stored.push((
                        side_of(r.try_get("seat")?),
                        r.try_get::<String, _>("decision")?,
                        r.try_get("at_ms")?,
                    ));
                }
                let Some(plies) = whole_commitments(&options, &stored) else {
                    eprintln!("stoneyard serve: game {id} does not replay; its decisions are left as they are");
                    continue;
                };
                sqlx::query("DELETE FROM moves WHERE game_id = $1").bind(&id).execute(&mut *conn).await?;
                for (ply, (seat, decision, at_ms)) in plies.into_iter().enumerate() {
                    sqlx::query("INSERT INTO moves (game_id, ply, seat, decision, at_ms) VALUES ($1, $2, $3, $4, $5)")
                        .bind(&id)
                        .bind(ply as i64)
                        .bind(seat.index() as i64)
                        .bind(decision)
                        .bind(at_ms)
                        .execute(&mut *conn)
                        .await?;
                }
            }
        }
        4 => {
            for statement in VERSION_4 {
                sqlx::query(statement).execute(&mut *conn).await?;
            }
        }
        5 => {
            for statement in VERSION_5 {
                sqlx::query(statement).execute(&mut *conn).await?;
            }
        }
        6 => {
            for statement in VERSION_6.iter().chain(&VERSION_6_MOVES) {
                sqlx::query(statement).execute(&mut *conn).await?;
            }
            let players = sqlx::query("SELECT id, name FROM players").fetch_all(&mut *conn).await?;
            for p in players {
                let (id, name): (String, String) = (p.try_get("id")?, p.try_get("name")?);
                sqlx::query("UPDATE players SET name_skeleton = $1 WHERE id = $2")
                    .bind(crate::online::directory::name_skeleton(&name))
                    .bind(id)
                    .execute(&mut *conn)
                    .await?;
            }
            sqlx::query("UPDATE players SET email_token = NULL").execute(&mut *conn).await?;
        }
        _ => unreachable!("no schema step {version}"),
    }
    Ok(())
}

/// A Hidden Intention game's decisions, one per row as the first protocol stored them, as plies:
/// each seat's commitment joined into one, in the order they were completed (a commitment still
/// under way is left out: its player enters it again). `None`: they do not replay.
fn whole_commitments(options: &str, stored: &[(Side, String, i64)]) -> Option<Vec<(Side, String, i64)>> {
    let options: Vec<(String, String)> = serde_json::from_str(options).ok()?;
    let mut position = crate::games::GameKind::named("hidden-intention").open(&options, None).ok()?;
    let mut staged: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut plies = Vec::new();
    for (seat, decision, at_ms) in stored {
        let open = crate::online::table::leaves_commitment_open(position.as_ref(), decision);
        position.play_decision(decision).ok()?;
        staged[seat.index()].push(decision.clone());
        if !open {
            let parts = std::mem::take(&mut staged[seat.index()]);
            plies.push((*seat, parts.join(&crate::online::table::COMMITMENT_SEPARATOR.to_string()), *at_ms));
        }
    }
    Some(plies)
}

/// `Ok(false)` for a unique-key violation, so the caller can tell "taken" from "failed".
pub(super) fn unique_violation_is_false(
    result: Result<sqlx::any::AnyQueryResult, sqlx::Error>,
) -> Result<bool, StoreError> {
    match result {
        Ok(_) => Ok(true),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
        Err(e) => Err(e),
    }
}
