//! The hub: the games this instance follows in memory (`room`), its connections and limits, and
//! each request handed to the concern that answers it — games followed (`following`), decisions
//! (`plies`), rematches, accounts, the lobby, clocks. Every change is stored first, then sent to
//! the followers (each seeing what its seat may), then announced to the other instances that
//! share a PostgreSQL store.

use super::announcements::Inbox;
use super::ids;
use super::listener::AddressSlots;
use super::lobby_feed::{LobbyFeed, PhraseTimes, SignedPlayer};
use super::outbox::{Out, Outbox};
use super::password_work::PasswordWork;
use super::rate_limit::{PerAddress, PerKey};
use super::room::{Room, TableGuard};
use super::smtp::SmtpOptions;
use super::store::GameStore;
use super::time::ServerClock;
use super::timeouts::table_deadline;
use crate::games::GameKind;
use crate::online::directory::TimeControl;
use crate::online::protocol::{ClientMessage, ErrorCode, ServerMessage};
use crate::online::table::Table;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::MutexGuard;

/// The most games one connection may follow at once.
pub const MAX_FOLLOWED: usize = 64;

/// Invites nobody has joined yet one client address may hold.
pub const INVITES_PER_ADDRESS: i64 = 20;

/// Every followed game of this instance.
pub struct Hub {
    pub store: GameStore,
    /// Tells this instance's own notifications from the others'.
    pub instance: String,
    rooms: Mutex<HashMap<String, Arc<Room>>>,
    next_conn: AtomicU64,
    /// Each connection's request rate limit.
    pub requests_per_second: f64,
    /// The invite codes each address may try.
    pub(super) joins: PerAddress,
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<IpAddr>,
    /// The connections open from each client address (the accept loop's count, which the
    /// WebSocket handler adds the clients of trusted proxies to).
    pub(super) connection_slots: AddressSlots,
    /// Names registered and passwords tried or set per address.
    pub(super) sign_ins: PerAddress,
    /// Passwords set per player (by id), from all their connections together.
    pub(super) password_changes: PerKey<String>,
    /// Addresses for the digest given per player (each sends a confirmation mail).
    pub(super) email_changes: PerKey<String>,
    /// The digest's links (confirm, unsubscribe) acted on per client address.
    pub(super) mail_links: PerAddress,
    /// Where mail goes out (`serve --smtp`), if anywhere.
    pub(super) smtp: Option<SmtpOptions>,
    /// The threads that hash and check passwords, for every connection.
    pub(super) passwords: PasswordWork,
    /// When each player (or nameless seat) last said a phrase.
    pub(super) phrases: PhraseTimes,
    /// The lobby's followers, its challenges and live games, and who is signed in here.
    pub(super) lobby: LobbyFeed,
    /// How long quick play waits for an opponent before it offers the computer.
    pub quick_play_wait: std::time::Duration,
    /// Rated games two players may play against each other in 24 hours.
    pub(super) rated_games_per_pair_per_day: u32,
    /// The time clocks, timeouts and vacations are measured by.
    pub clock: ServerClock,
    /// The idle live games the sweep looked at, and when each one's clock runs out next.
    pub(super) idle_games: Mutex<HashMap<String, i64>>,
}

/// One connection's view of the hub: who it is and what it follows.
pub struct Session {
    pub conn: u64,
    pub out: Outbox,
    /// The client's address (for the limits per address).
    pub address: IpAddr,
    pub(super) following: HashMap<String, Arc<Room>>,
    /// The signed-in player.
    pub(super) player: Option<SignedPlayer>,
    /// When quick play offers the computer, while this connection waits for an opponent.
    pub quick_play_until: Option<tokio::time::Instant>,
    pub(super) quick_play_game: Option<GameKind>,
}

pub(super) fn unavailable(e: impl std::fmt::Display) -> ServerMessage {
    eprintln!("stoneyard serve: store error: {e}");
    ServerMessage::error(ErrorCode::Unavailable, "the server could not reach its store; nothing was changed")
}

/// Loads a stored game into a table (a timed game with its clocks and its players' vacations).
pub(super) async fn load_table(store: &GameStore, id: &str) -> Result<Table, ServerMessage> {
    let row = store.game(id).await.map_err(unavailable)?;
    let Some(row) = row else {
        return Err(ServerMessage::game_error(ErrorCode::NoSuchGame, id, "there is no such game"));
    };
    let kind = GameKind::from_slug(&row.game)
        .ok_or_else(|| unavailable(format!("game {id} is of unknown game '{}'", row.game)))?;
    let mut table =
        Table::new(row.id.clone(), kind, &row.options, row.code.clone()).map_err(|(_, e)| unavailable(e))?;
    table.tokens = row.tokens.clone();
    table.rematch_offered_by = row.rematch_offered_by;
    table.rematch_offer_hash = row.rematch_offer_hash.clone();
    table.rematch = row.rematch.clone();
    table.rated = row.rated;
    let names =
        store.player_names([row.players[0].as_deref(), row.players[1].as_deref()]).await.map_err(unavailable)?;
    table.players = [0, 1].map(|i| row.players[i].clone().zip(names[i].clone()));
    table.time_control =
        row.time_control.as_deref().map(serde_json::from_str).transpose().map_err(|e| unavailable(e.to_string()))?;
    if matches!(table.time_control, Some(TimeControl::Correspondence { .. })) {
        let players = [row.players[0].as_deref(), row.players[1].as_deref()];
        table.pauses = store.vacations(players, row.clock_start_ms.unwrap_or(0)).await.map_err(unavailable)?;
    }
    let moves = store.moves_from(id, 0).await.map_err(unavailable)?;
    Table::restore_timed(table, moves, row.ending, row.clock_start_ms, row.ended_ms).map_err(unavailable)
}

/// Passwords a player may set in a minute, from all their connections together (each costs a
/// hash: a tenth of a second of a core and 19 MiB).
pub const PASSWORD_CHANGES_PER_MINUTE: f64 = 3.0;

/// Addresses a player may give an hour (each sends a confirmation mail).
pub const EMAIL_CHANGES_PER_HOUR: f64 = 5.0;

/// Links of the mails a client address may act on a minute (a token is 128 random bits; this only
/// keeps the store from being asked thousands of times a second).
pub const MAIL_LINKS_PER_MINUTE: f64 = 30.0;

/// A hub's limits.
pub struct HubLimits {
    pub connection_slots: AddressSlots,
    pub requests_per_second: f64,
    pub joins_per_minute: f64,
    pub sign_ins_per_minute: f64,
    pub quick_play_wait: std::time::Duration,
    pub rated_games_per_pair_per_day: u32,
    pub clock: ServerClock,
    pub smtp: Option<SmtpOptions>,
}

impl Hub {
    pub fn new(store: GameStore, limits: HubLimits, trusted_proxies: Vec<IpAddr>) -> Hub {
        Hub {
            store,
            instance: ids::game_id(),
            rooms: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
            requests_per_second: limits.requests_per_second,
            joins: PerAddress::per_minute(limits.joins_per_minute),
            trusted_proxies,
            connection_slots: limits.connection_slots,
            sign_ins: PerAddress::per_minute(limits.sign_ins_per_minute),
            password_changes: PerKey::per_minute(PASSWORD_CHANGES_PER_MINUTE),
            email_changes: PerKey::per_hour(EMAIL_CHANGES_PER_HOUR),
            mail_links: PerAddress::per_minute(MAIL_LINKS_PER_MINUTE),
            smtp: limits.smtp,
            passwords: PasswordWork::default(),
            phrases: PhraseTimes::default(),
            lobby: LobbyFeed::default(),
            quick_play_wait: limits.quick_play_wait,
            rated_games_per_pair_per_day: limits.rated_games_per_pair_per_day,
            clock: limits.clock,
            idle_games: Mutex::new(HashMap::new()),
        }
    }

    /// The server's time now (a test's clock moved by hand, or the system's).
    pub(super) fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    pub fn session(&self, out: Outbox, address: IpAddr) -> Session {
        Session {
            conn: self.next_conn.fetch_add(1, Ordering::Relaxed),
            out,
            address,
            following: HashMap::new(),
            player: None,
            quick_play_until: None,
            quick_play_game: None,
        }
    }

    pub(super) fn room(&self, id: &str) -> Arc<Room> {
        let mut rooms = self.rooms.lock().expect("rooms lock");
        rooms
            .entry(id.to_string())
            .or_insert_with(|| {
                Arc::new(Room {
                    id: id.to_string(),
                    table: tokio::sync::Mutex::new(None),
                    followers: Mutex::new(Vec::new()),
                    remote_online: Mutex::new(HashMap::new()),
                    deadline: AtomicI64::new(i64::MAX),
                    away_since: Mutex::new([None, None]),
                    inbox: Mutex::new(Inbox::default()),
                })
            })
            .clone()
    }

    /// The game's room when it is in memory.
    pub(super) fn loaded_room(&self, id: &str) -> Option<Arc<Room>> {
        self.rooms.lock().expect("rooms lock").get(id).cloned()
    }

    /// Every game in memory.
    pub(super) fn loaded_rooms(&self) -> Vec<Arc<Room>> {
        self.rooms.lock().expect("rooms lock").values().cloned().collect()
    }

    /// The room's table, loaded from the store the first time.
    pub(super) async fn table<'a>(&self, room: &'a Room) -> Result<TableGuard<'a>, ServerMessage> {
        let mut guard = room.table.lock().await;
        if guard.is_none() {
            let mut table = load_table(&self.store, &room.id).await?;
            self.finish_marked_timeout(room, &mut table).await;
            room.deadline.store(table_deadline(&table), Ordering::Relaxed);
            *guard = Some(table);
        }
        Ok(MutexGuard::map(guard, |t| t.as_mut().expect("loaded above")))
    }

    /// Games followed by nobody leave memory (the store has them).
    pub(super) fn forget_if_unfollowed(&self, room: &Arc<Room>) {
        let mut rooms = self.rooms.lock().expect("rooms lock");
        if room.followers.lock().expect("followers lock").is_empty() && Arc::strong_count(room) <= 2 {
            rooms.remove(&room.id);
        }
    }

    pub(super) async fn announce(&self, game_id: &str, online: Option<([bool; 2], u32)>) {
        let payload = match online {
            Some((online, watchers)) => {
                serde_json::json!({ "i": self.instance, "g": game_id, "online": online, "w": watchers })
            }
            None => serde_json::json!({ "i": self.instance, "g": game_id }),
        };
        self.announce_json(payload).await;
    }

    /// Tells the other instances something (a game or the lobby changed, a phrase, a pairing).
    pub(super) async fn announce_json(&self, payload: serde_json::Value) {
        let payload = payload.to_string();
        if let Err(e) = self.store.notify(&payload).await {
            eprintln!("stoneyard serve: could not notify other instances: {e}");
        }
    }

    /// Handles one request of a connection.
    pub async fn handle(&self, session: &mut Session, message: ClientMessage) {
        let reply = match message {
            ClientMessage::Ping {} => Ok(ServerMessage::Pong),
            ClientMessage::Create { game, options, seat } => self.create(session, game, &options, seat).await,
            ClientMessage::Join { code } => self.join(session, &code).await,
            ClientMessage::Open { game_id, token, have } => self.open(session, &game_id, token.as_deref(), have).await,
            ClientMessage::Close { game_id } => {
                self.unfollow(session, &game_id).await;
                return;
            }
            ClientMessage::Move { game_id, token, ply, decision } => self.play(&game_id, &token, ply, &decision).await,
            ClientMessage::Resign { game_id, token } => self.resign(&game_id, &token).await,
            ClientMessage::Rematch { game_id, token } => self.rematch(&game_id, &token).await,
            ClientMessage::List { tokens } => self.list(&tokens).await,
            ClientMessage::Register { name } => self.register(session, &name).await,
            ClientMessage::SignIn { key } => self.sign_in(session, &key).await,
            ClientMessage::Login { name, password } => self.log_in(session, &name, password).await,
            ClientMessage::SetPassword { password } => self.set_password(session, password).await,
            ClientMessage::Challenge { game, options, seat, rated, time_control, to } => {
                self.challenge(session, game, &options, seat, rated, time_control, to.as_deref()).await
            }
            ClientMessage::Accept { game_id } => self.accept(session, &game_id).await,
            ClientMessage::Cancel { game_id, token } => self.cancel(&game_id, &token).await,
            ClientMessage::WatchLobby {} => {
                self.watch_lobby(session).await;
                return;
            }
            ClientMessage::LeaveLobby {} => {
                self.lobby.leave(session.conn);
                return;
            }
            ClientMessage::OlderChallenges { before_ms, before_id } => {
                let viewer = session.player.as_ref().map(|p| p.id.clone());
                self.older_challenges(before_ms, &before_id, viewer.as_deref()).await
            }
            ClientMessage::QuickPlay { game } => self.quick_play(session, game).await,
            ClientMessage::StopQuickPlay {} => {
                self.stop_quick_play(session).await;
                return;
            }
            ClientMessage::Say { game_id, token, phrase } => self.say(session, &game_id, &token, phrase).await,
            ClientMessage::PlayerPage { name } => {
                let viewer = session.player.as_ref().map(|p| p.id.clone());
                self.player_page(&name, viewer.as_deref()).await
            }
            ClientMessage::Leaderboard { game } => self.leaderboard(game).await,
            ClientMessage::MyGames {} => self.my_games(session).await,
            ClientMessage::Claim { game_id, token } => self.claim(&game_id, &token).await,
            ClientMessage::Vacation { on } => self.vacation(session, on).await,
            ClientMessage::SetEmail { address } => self.set_email(session, &address).await,
        };
        let message = match reply {
            Ok(m) | Err(m) => m,
        };
        session.out.send(Out::Text(message.to_json()));
    }
}
