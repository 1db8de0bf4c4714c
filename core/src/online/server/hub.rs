//! The games this instance follows in memory, who follows them, and what each request does to
//! them: every change is stored first, then sent to the followers (each seeing what its seat may),
//! then announced to the other instances that share a PostgreSQL store.

use super::announcements::{Inbox, StoredDecision, decision_announcement};
use super::ids;
use super::listener::AddressSlots;
use super::lobby_feed::{LobbyFeed, PhraseTimes, SignedPlayer};
use super::outbox::{Out, Outbox};
use super::password_work::PasswordWork;
use super::rate_limit::{PerAddress, PerKey};
use super::smtp::SmtpOptions;
use super::store::{Backend, GameRow, GameStore};
use super::time::ServerClock;
use super::timeouts::{Timeout, table_deadline};
use crate::games::GameKind;
use crate::online::directory::TimeControl;
use crate::online::protocol::{ClientMessage, ErrorCode, GameSummary, MAX_LISTED_GAMES, SeatChoice, ServerMessage};
use crate::online::table::{MoveCheck, StoredPly, Table};
use crate::rules::Side;
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{MappedMutexGuard, MutexGuard};

/// The most games one connection may follow at once.
pub const MAX_FOLLOWED: usize = 64;

/// Invites nobody has joined yet one client address may hold.
pub const INVITES_PER_ADDRESS: i64 = 20;

#[derive(Clone)]
struct Follower {
    conn: u64,
    seat: Option<Side>,
    /// The seat's token as the connection gave it (in memory only: the store keeps its hash), to
    /// hand the follower its token in a rematch.
    token: Option<String>,
    out: Outbox,
}

/// One game in memory.
pub(super) struct Room {
    pub(super) id: String,
    pub(super) table: tokio::sync::Mutex<Option<Table>>,
    followers: Mutex<Vec<Follower>>,
    /// Which seats other instances have connected and how many watch there (PostgreSQL only),
    /// by instance.
    remote_online: Mutex<HashMap<String, ([bool; 2], u32)>>,
    /// When a live clock of the loaded game runs out next (`i64::MAX`: none), for the timer.
    pub(super) deadline: AtomicI64,
    /// Since when each taken seat has been disconnected (a live game's grace period).
    pub(super) away_since: Mutex<[Option<i64>; 2]>,
    /// The other instances' announcements about this game not yet handled (PostgreSQL only).
    pub(super) inbox: Mutex<Inbox>,
}

pub(super) type TableGuard<'a> = MappedMutexGuard<'a, Table>;

impl Room {
    fn local_online(&self) -> [bool; 2] {
        let followers = self.followers.lock().expect("followers lock");
        let mut online = [false, false];
        for f in followers.iter() {
            if let Some(seat) = f.seat {
                online[seat.index()] = true;
            }
        }
        online
    }

    pub(super) fn online(&self) -> [bool; 2] {
        let mut online = self.local_online();
        for (remote, _) in self.remote_online.lock().expect("presence lock").values() {
            online[0] |= remote[0];
            online[1] |= remote[1];
        }
        online
    }

    /// Read-only followers on this instance.
    fn local_watchers(&self) -> u32 {
        self.followers.lock().expect("followers lock").iter().filter(|f| f.seat.is_none()).count() as u32
    }

    fn watchers(&self) -> u32 {
        self.local_watchers() + self.remote_online.lock().expect("presence lock").values().map(|(_, w)| w).sum::<u32>()
    }

    /// Another instance's seats connected to this game and watchers of it.
    pub(super) fn set_remote_online(&self, instance: &str, online: [bool; 2], watchers: u32) {
        self.remote_online.lock().expect("presence lock").insert(instance.to_string(), (online, watchers));
    }

    /// Who plays, whether rated, and how many watch.
    pub(super) fn players(&self, table: &Table) -> ServerMessage {
        ServerMessage::Players {
            game_id: self.id.clone(),
            names: table.names(),
            rated: table.rated,
            watchers: self.watchers(),
        }
    }

    /// Sends each follower of a seat its own message (its place in a rematch).
    fn send_to_seat(&self, seat: Side, message: impl Fn(&str) -> ServerMessage) {
        let followers = self.followers.lock().expect("followers lock").clone();
        for f in followers.iter().filter(|f| f.seat == Some(seat)) {
            if let Some(token) = &f.token {
                f.out.send(Out::Text(message(token).to_json()));
            }
        }
    }

    fn send_each(&self, message: impl Fn(Option<Side>) -> Option<ServerMessage>) {
        let followers = self.followers.lock().expect("followers lock").clone();
        let mut by_view: [Option<Option<String>>; 3] = [None, None, None];
        for f in followers {
            let slot = f.seat.map_or(2, Side::index);
            let text = by_view[slot].get_or_insert_with(|| message(f.seat).map(|m| m.to_json()));
            if let Some(text) = text {
                f.out.send(Out::Text(text.clone()));
            }
        }
    }

    fn send_others(&self, conn: u64, message: &ServerMessage) {
        let text = message.to_json();
        for f in self.followers.lock().expect("followers lock").iter().filter(|f| f.conn != conn) {
            f.out.send(Out::Text(text.clone()));
        }
    }

    pub(super) fn send_all(&self, message: &ServerMessage) {
        self.send_each(|_| Some(message.clone()));
    }

    pub(super) fn presence(&self, table: &Table) -> ServerMessage {
        ServerMessage::Presence { game_id: self.id.clone(), joined: table.joined(), online: self.online() }
    }
}

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
    joins: PerAddress,
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
    following: HashMap<String, Arc<Room>>,
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
async fn load_table(store: &GameStore, id: &str) -> Result<Table, ServerMessage> {
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

/// The place of the holder of `token` (seat `seat` of game `id`) in the rematch `new_id`: the
/// other seat, with the token derived from this one.
fn rematch_ready(id: &str, new_id: &str, seat: Side, token: &str) -> ServerMessage {
    ServerMessage::RematchReady {
        game_id: id.to_string(),
        new_game_id: new_id.to_string(),
        seat: seat.opponent(),
        token: ids::rematch_token(token),
    }
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

    /// Creates a private game for an invite code. Each client address holds at most
    /// [`INVITES_PER_ADDRESS`] that nobody has joined (and those expire after a week).
    async fn create(
        &self,
        session: &Session,
        game: GameKind,
        options: &[(String, String)],
        seat: SeatChoice,
    ) -> Result<ServerMessage, ServerMessage> {
        let creator = ids::token_hash(&session.address.to_string());
        if self.store.unjoined_games_of(&creator).await.map_err(unavailable)? >= INVITES_PER_ADDRESS {
            return Err(ServerMessage::error(
                ErrorCode::RateLimited,
                format!(
                    "{INVITES_PER_ADDRESS} invites from your address wait for a friend already; withdraw one first"
                ),
            ));
        }
        let player = session.player.as_ref().map(|p| p.id.clone());
        self.create_listed(game, options, seat, player.as_deref(), |row| row.creator = Some(creator.clone())).await
    }

    /// Creates a game whose `seat` the asker holds (as `player` when signed in); `listing` sets
    /// how the lobby lists it.
    pub(super) async fn create_listed(
        &self,
        game: GameKind,
        options: &[(String, String)],
        seat: SeatChoice,
        player: Option<&str>,
        listing: impl Fn(&mut GameRow),
    ) -> Result<ServerMessage, ServerMessage> {
        let seat = match seat {
            SeatChoice::First => Side::First,
            SeatChoice::Second => Side::Second,
            SeatChoice::Random if ids::coin() => Side::Second,
            SeatChoice::Random => Side::First,
        };
        let table = Table::new(String::new(), game, options, String::new())
            .map_err(|(code, why)| ServerMessage::error(code, why))?;
        let token = ids::seat_token();
        for _ in 0..5 {
            let mut row =
                GameRow::private(ids::game_id(), game.slug().to_string(), table.options.clone(), ids::invite_code());
            row.tokens[seat.index()] = Some(ids::token_hash(&token));
            row.players[seat.index()] = player.map(str::to_string);
            listing(&mut row);
            if self.store.create(&row, self.now()).await.map_err(unavailable)? {
                return Ok(ServerMessage::Created { game_id: row.id, seat, token, code: row.code });
            }
        }
        Err(unavailable("five random ids or codes in a row were taken"))
    }

    /// Takes the free seat of the game an invite code opens. A wrong code, a taken one and one of
    /// an ended game get the same answer, without the game's id; each address may try so many
    /// codes a minute.
    async fn join(&self, session: &Session, typed: &str) -> Result<ServerMessage, ServerMessage> {
        if !self.joins.allow(session.address) {
            return Err(ServerMessage::error(
                ErrorCode::RateLimited,
                "too many invite codes tried from your address; wait a minute and try again",
            ));
        }
        let no_code = || {
            let shown: String = typed.chars().take(20).collect();
            ServerMessage::error(ErrorCode::NoSuchCode, format!("no open game has the invite code '{shown}'"))
        };
        let code = ids::normalise_code(typed).ok_or_else(no_code)?;
        let id = self.store.game_of_code(&code).await.map_err(unavailable)?.ok_or_else(no_code)?;
        self.take_free_seat(session, &id, false).await.map_err(|e| match e {
            ServerMessage::Error { code: ErrorCode::Taken, .. } => no_code(),
            other => other,
        })
    }

    /// Gives the asker the free seat of game `id` (as its player when signed in): by its invite
    /// code, or (`accepting`) as a listed challenge. `Taken` when it was not free.
    pub(super) async fn take_free_seat(
        &self,
        session: &Session,
        id: &str,
        accepting: bool,
    ) -> Result<ServerMessage, ServerMessage> {
        let taken = || {
            ServerMessage::game_error(ErrorCode::Taken, id, "already taken: someone else accepted this challenge first")
        };
        let player = session.player.as_ref().map(|p| (p.id.clone(), p.name.clone()));
        let room = self.room(id);
        let result = async {
            let mut table = self.table(&room).await?;
            if table.ending.is_some() {
                return Err(taken());
            }
            let seat = Side::BOTH.into_iter().find(|s| table.tokens[s.index()].is_none()).ok_or_else(taken)?;
            let token = ids::seat_token();
            let hash = ids::token_hash(&token);
            let player_id = player.as_ref().map(|(id, _)| id.as_str());
            let now = self.now();
            if !self.store.take_seat(id, seat, &hash, player_id, accepting, now).await.map_err(unavailable)? {
                self.refresh_locked(&room, &mut table).await;
                return Err(taken());
            }
            table.tokens[seat.index()] = Some(hash);
            table.players[seat.index()] = player.clone();
            if table.joined() == [true, true] {
                table.start_clock(now);
            }
            room.send_all(&room.presence(&table));
            room.send_all(&room.players(&table));
            self.clock_changed(&room, &table);
            Ok(ServerMessage::Joined { game_id: id.to_string(), seat, token })
        }
        .await;
        if result.is_ok() {
            self.announce(id, None).await;
            self.lobby_changed().await;
        }
        self.forget_if_unfollowed(&room);
        result
    }

    async fn open(
        &self,
        session: &mut Session,
        id: &str,
        token: Option<&str>,
        have: u32,
    ) -> Result<ServerMessage, ServerMessage> {
        if session.following.len() >= MAX_FOLLOWED && !session.following.contains_key(id) {
            return Err(ServerMessage::game_error(
                ErrorCode::BadMessage,
                id,
                format!("a connection follows at most {MAX_FOLLOWED} games"),
            ));
        }
        let room = self.room(id);
        let table = match self.table(&room).await {
            Ok(t) => t,
            Err(e) => {
                self.forget_if_unfollowed(&room);
                return Err(e);
            }
        };
        let mut table = table;
        let seat = match token {
            Some(t) => self.seat_or_grant(&mut table, t).await,
            None => None,
        };
        {
            let mut followers = room.followers.lock().expect("followers lock");
            followers.retain(|f| f.conn != session.conn);
            let token = seat.and(token).map(str::to_string);
            followers.push(Follower { conn: session.conn, seat, token, out: session.out.clone() });
        }
        session.following.insert(id.to_string(), room.clone());
        let from = have.min(table.next_ply());
        let state = ServerMessage::State {
            game_id: id.to_string(),
            game: table.kind,
            options: table.options.clone(),
            seat,
            from,
            moves: table.view(seat, from),
            joined: table.joined(),
            online: room.online(),
            ended: table.ending.clone(),
            rematch_offered_by: table.rematch_offered_by,
        };
        session.out.send(Out::Text(state.to_json()));
        if let (Some(seat), Some(token), Some(rematch)) = (seat, token, table.rematch.clone()) {
            session.out.send(Out::Text(rematch_ready(id, &rematch, seat, token).to_json()));
        }
        let presence = room.presence(&table);
        let players = room.players(&table);
        drop(table);
        if seat.is_some() {
            room.send_others(session.conn, &presence);
        } else {
            // One more watches: everyone's count changes.
            room.send_others(session.conn, &players);
        }
        self.announce(id, Some((room.local_online(), room.local_watchers()))).await;
        session.out.send(Out::Text(players.to_json()));
        self.presence_changed(&room).await;
        Ok(presence)
    }

    /// `seat_or_grant`, refused with the player's error when the token holds no seat of game `id`.
    pub(super) async fn seat_for(&self, table: &mut Table, id: &str, token: &str) -> Result<Side, ServerMessage> {
        self.seat_or_grant(table, token)
            .await
            .ok_or_else(|| ServerMessage::game_error(ErrorCode::BadToken, id, "this token holds no seat of this game"))
    }

    /// The seat a token holds in a loaded game: its own token, or a grant (a player's other
    /// device) read from the store once and kept.
    pub(super) async fn seat_or_grant(&self, table: &mut Table, token: &str) -> Option<Side> {
        let hash = ids::token_hash(token);
        if let Some(seat) = table.seat_of(&hash) {
            return Some(seat);
        }
        match self.store.grant(&hash).await {
            Ok(Some((game, seat))) if game == table.id => {
                table.grants.push((hash, seat));
                Some(seat)
            }
            Ok(_) => None,
            Err(e) => {
                eprintln!("stoneyard serve: reading a seat grant: {e}");
                None
            }
        }
    }

    /// Stops following one game.
    pub async fn unfollow(&self, session: &mut Session, id: &str) {
        let Some(room) = session.following.remove(id) else { return };
        let seat = {
            let mut followers = room.followers.lock().expect("followers lock");
            let seat = followers.iter().find(|f| f.conn == session.conn).and_then(|f| f.seat);
            followers.retain(|f| f.conn != session.conn);
            seat
        };
        let guard = room.table.lock().await;
        if let Some(table) = guard.as_ref() {
            if seat.is_some() {
                room.send_all(&room.presence(table));
            } else {
                room.send_all(&room.players(table));
            }
        }
        drop(guard);
        self.announce(id, Some((room.local_online(), room.local_watchers()))).await;
        if seat.is_some() {
            self.presence_changed(&room).await;
        }
        self.forget_if_unfollowed(&room);
    }

    /// The connection closed: it follows nothing any more.
    pub async fn disconnect(&self, session: &mut Session) {
        let ids: Vec<String> = session.following.keys().cloned().collect();
        for id in ids {
            self.unfollow(session, &id).await;
        }
        self.stop_quick_play(session).await;
        self.lobby.leave(session.conn);
        self.lobby.sign_out(session.conn, session.player.as_ref(), self.now());
    }

    async fn play(&self, id: &str, token: &str, ply: u32, decision: &str) -> Result<ServerMessage, ServerMessage> {
        let room = self.room(id);
        let result = self.play_in(&room, id, token, ply, decision).await;
        self.forget_if_unfollowed(&room);
        result
    }

    async fn play_in(
        &self,
        room: &Room,
        id: &str,
        token: &str,
        ply: u32,
        decision: &str,
    ) -> Result<ServerMessage, ServerMessage> {
        let mut table = self.table(room).await?;
        let seat = self.seat_for(&mut table, id, token).await?;
        if ply > table.next_ply() {
            // Another instance may have stored decisions this one has not heard of yet.
            self.refresh_locked(room, &mut table).await;
        }
        let refuse = |table: &Table, (code, why): (ErrorCode, String)| ServerMessage::Error {
            code,
            message: why,
            game_id: Some(id.to_string()),
            next_ply: (code == ErrorCode::StalePly).then(|| table.next_ply()),
        };
        match table.check_move(seat, ply, decision).map_err(|r| refuse(&table, r))? {
            MoveCheck::Repeat => return Ok(ServerMessage::Ack { game_id: id.to_string(), ply }),
            MoveCheck::New => {}
        }
        let now = self.now();
        if let Some(flagged) = table.flagged(now) {
            // Out of time before this decision came: the clock decides, not the decision.
            self.time_out(room, &mut table, flagged, Timeout::Flag, now).await?;
            return Err(ServerMessage::game_error(ErrorCode::GameOver, id, "the game has ended: time ran out"));
        }
        // The other instances hear of the decision as it is stored (a retry, stored already, was
        // announced then), with it (they need not read it back), in ply order (this holds the game).
        let stored = StoredDecision { ply, seat, decision: decision.to_string(), at: now };
        let announcement = (self.store.backend == Backend::Postgres)
            .then(|| decision_announcement(&self.instance, id, stored).to_string());
        if !self.store.append(id, ply, seat, decision, now, announcement.as_deref()).await.map_err(unavailable)? {
            // Another instance stored this ply first: the very same decision (a retry sent to
            // both) is acknowledged, anything else is stale.
            self.refresh_locked(room, &mut table).await;
            return match table.check_move(seat, ply, decision) {
                Ok(MoveCheck::Repeat) => Ok(ServerMessage::Ack { game_id: id.to_string(), ply }),
                _ => Err(refuse(&table, (ErrorCode::StalePly, format!("ply {ply} was just played")))),
            };
        }
        let was_over = table.ending.is_some();
        let revealed = table.apply_at(seat, decision.to_string(), now);
        self.send_new_plies(room, &table, ply as usize, revealed);
        self.clock_changed(room, &table);
        if !was_over && let Some(ending) = table.ending.clone() {
            let ended = self.store.end(id, &ending, table.winner_seat(&ending), now).await.map_err(unavailable)?;
            room.send_all(&ServerMessage::Ended { game_id: id.to_string(), ending: ending.clone() });
            if ended {
                self.after_ending(room, &table, &ending).await;
            }
        }
        Ok(ServerMessage::Ack { game_id: id.to_string(), ply })
    }

    /// Sends stored plies from `from` on to every follower as its seat may see them. A decision
    /// that completes sealed commitments goes out inside the `Revealed` message with them, so no
    /// client ever holds the completed move without the commitments it reveals.
    fn send_new_plies(
        &self,
        room: &Room,
        table: &Table,
        from: usize,
        revealed: Option<Vec<crate::online::protocol::WireMove>>,
    ) {
        let until = table.next_ply() as usize - usize::from(revealed.is_some());
        for ply in from..until {
            room.send_each(|viewer| {
                Some(ServerMessage::Moved { game_id: room.id.clone(), mv: table.wire(ply, viewer) })
            });
        }
        if let Some(moves) = revealed {
            room.send_all(&ServerMessage::Revealed { game_id: room.id.clone(), moves });
        }
    }

    async fn resign(&self, id: &str, token: &str) -> Result<ServerMessage, ServerMessage> {
        let room = self.room(id);
        let result = async {
            let mut table = self.table(&room).await?;
            let seat = self.seat_for(&mut table, id, token).await?;
            if table.ending.is_some() {
                return Err(ServerMessage::game_error(ErrorCode::GameOver, id, "the game has already ended"));
            }
            let ending = table.resignation(seat);
            let winner = table.winner_seat(&ending);
            let now = self.now();
            if !self.store.end(id, &ending, winner, now).await.map_err(unavailable)? {
                self.refresh_locked(&room, &mut table).await;
                return Err(ServerMessage::game_error(ErrorCode::GameOver, id, "the game has already ended"));
            }
            table.ending = Some(ending.clone());
            table.rematch_offered_by = None;
            table.stop_clock(now);
            let ended = ServerMessage::Ended { game_id: id.to_string(), ending: ending.clone() };
            room.send_all(&ended);
            self.clock_changed(&room, &table);
            self.after_ending(&room, &table, &ending).await;
            Ok(ended)
        }
        .await;
        if result.is_ok() {
            self.announce(id, None).await;
        }
        self.forget_if_unfollowed(&room);
        result
    }

    async fn rematch(&self, id: &str, token: &str) -> Result<ServerMessage, ServerMessage> {
        let room = self.room(id);
        let result = self.rematch_in(&room, id, token).await;
        if result.is_ok() {
            self.announce(id, None).await;
        }
        self.forget_if_unfollowed(&room);
        result
    }

    async fn rematch_in(&self, room: &Room, id: &str, token: &str) -> Result<ServerMessage, ServerMessage> {
        let mut table = self.table(room).await?;
        let seat = self.seat_for(&mut table, id, token).await?;
        if table.ending.is_none() {
            return Err(ServerMessage::game_error(
                ErrorCode::BadMessage,
                id,
                "a rematch is offered once the game has ended",
            ));
        }
        // The seat's token in the rematch follows from its token here; the store keeps its hash.
        let new_hash = ids::token_hash(&ids::rematch_token(token));
        if table.rematch.is_none() && table.rematch_offered_by.is_none_or(|by| by == seat) {
            self.store.offer_rematch(id, seat, &new_hash).await.map_err(unavailable)?;
            table.rematch_offered_by = Some(seat);
            table.rematch_offer_hash = Some(new_hash);
            let offered = ServerMessage::RematchOffered { game_id: id.to_string(), by: seat };
            room.send_all(&offered);
            return Ok(offered);
        }
        if table.rematch.is_none() {
            // Both asked: the new game, seats swapped.
            let offerer = seat.opponent();
            let offer_hash = table.rematch_offer_hash.clone().ok_or_else(|| unavailable("the offer has no seat"))?;
            let mut row = GameRow::private(
                ids::game_id(),
                table.kind.slug().to_string(),
                table.options.clone(),
                ids::invite_code(),
            );
            row.tokens[offerer.opponent().index()] = Some(offer_hash);
            row.tokens[seat.opponent().index()] = Some(new_hash);
            // The players keep their names in the rematch, seats swapped, rated and listed as before.
            row.players = [table.players[1].clone().map(|p| p.0), table.players[0].clone().map(|p| p.0)];
            row.rated = table.rated;
            row.public = self.store.game(id).await.map_err(unavailable)?.is_some_and(|g| g.public);
            if !self.store.create(&row, self.now()).await.map_err(unavailable)? {
                return Err(unavailable("a random game id was taken"));
            }
            if !self.store.set_rematch(id, &row.id).await.map_err(unavailable)? {
                self.refresh_locked(room, &mut table).await;
            } else {
                table.rematch = Some(row.id.clone());
                for old_seat in Side::BOTH {
                    room.send_to_seat(old_seat, |token| rematch_ready(id, &row.id, old_seat, token));
                }
            }
        }
        let new_id = table.rematch.clone().ok_or_else(|| unavailable("the rematch vanished"))?;
        Ok(rematch_ready(id, &new_id, seat, token))
    }

    /// Summaries of the games of these tokens: each token and each game once, however often named.
    pub(super) async fn list(&self, tokens: &[String]) -> Result<ServerMessage, ServerMessage> {
        if tokens.len() > MAX_LISTED_GAMES {
            return Err(ServerMessage::error(
                ErrorCode::BadMessage,
                format!("at most {MAX_LISTED_GAMES} games per list"),
            ));
        }
        let mut games: Vec<GameSummary> = Vec::new();
        let mut seen_tokens = HashSet::new();
        let mut seen_games = HashSet::new();
        for token in tokens.iter().filter(|t| seen_tokens.insert(t.as_str())) {
            let found = self.store.seat_of_token(&ids::token_hash(token)).await.map_err(unavailable)?;
            let Some((id, seat)) = found else { continue };
            if !seen_games.insert((id.clone(), seat)) {
                continue;
            }
            let summary = match self.loaded_room(&id) {
                Some(room) => self.table(&room).await.map(|t| t.summary(seat, token)),
                None => load_table(&self.store, &id).await.map(|t| t.summary(seat, token)),
            };
            match summary {
                Ok(s) => games.push(s),
                Err(e) => eprintln!("stoneyard serve: listing game {id}: {e:?}"),
            }
        }
        Ok(ServerMessage::Games { games })
    }

    /// Applies decisions stored from ply `from` on to a loaded table and sends them (and the ending
    /// they reach) to this instance's followers. `false` when one does not replay (it and those
    /// after it are left out).
    pub(super) fn replay_stored(&self, room: &Room, table: &mut Table, from: u32, moves: Vec<StoredPly>) -> bool {
        let was_over = table.ending.is_some();
        let mut replayed = true;
        let any = !moves.is_empty();
        for (ply, (seat, decision, at)) in moves.into_iter().enumerate() {
            let ply = from + ply as u32;
            if table.check_move(seat, ply, &decision) != Ok(MoveCheck::New) {
                eprintln!("stoneyard serve: stored ply {ply} of game {} does not replay", room.id);
                replayed = false;
                break;
            }
            let revealed = table.apply_at(seat, decision, at);
            self.send_new_plies(room, table, ply as usize, revealed);
        }
        if any {
            self.clock_changed(room, table);
        }
        if !was_over && let Some(ending) = table.ending.clone() {
            room.send_all(&ServerMessage::Ended { game_id: room.id.clone(), ending });
        }
        replayed
    }

    /// Brings a loaded table up to the store (another instance changed the game) and tells this
    /// instance's followers what changed.
    pub(super) async fn refresh_locked(&self, room: &Room, table: &mut Table) {
        let row = match self.store.game(&room.id).await {
            Ok(Some(row)) => row,
            Ok(None) => return,
            Err(e) => {
                eprintln!("stoneyard serve: refreshing game {}: {e}", room.id);
                return;
            }
        };
        if row.tokens != table.tokens {
            table.tokens = row.tokens.clone();
            match self.store.player_names([row.players[0].as_deref(), row.players[1].as_deref()]).await {
                Ok(names) => table.players = [0, 1].map(|i| row.players[i].clone().zip(names[i].clone())),
                Err(e) => eprintln!("stoneyard serve: refreshing game {}: {e}", room.id),
            }
            room.send_all(&room.presence(table));
            room.send_all(&room.players(table));
        }
        let from = table.next_ply();
        match self.store.moves_from(&room.id, from).await {
            Ok(moves) => {
                self.replay_stored(room, table, from, moves);
            }
            Err(e) => eprintln!("stoneyard serve: refreshing game {}: {e}", room.id),
        }
        if table.clock.is_none() && row.clock_start_ms.is_some() && table.joined() == [true, true] {
            table.start_clock(row.clock_start_ms.unwrap_or_default());
            self.clock_changed(room, table);
        }
        if table.ending.is_none()
            && let Some(ending) = row.ending
        {
            table.ending = Some(ending.clone());
            table.stop_clock(row.ended_ms.unwrap_or_else(|| self.now()));
            room.send_all(&ServerMessage::Ended { game_id: room.id.clone(), ending });
            self.clock_changed(room, table);
        }
        if row.rematch_offered_by != table.rematch_offered_by && row.rematch.is_none() {
            table.rematch_offered_by = row.rematch_offered_by;
            table.rematch_offer_hash = row.rematch_offer_hash.clone();
            if let Some(by) = row.rematch_offered_by {
                room.send_all(&ServerMessage::RematchOffered { game_id: room.id.clone(), by });
            }
        }
        if table.rematch.is_none()
            && let Some(new_id) = row.rematch
        {
            table.rematch = Some(new_id.clone());
            for old_seat in Side::BOTH {
                room.send_to_seat(old_seat, |token| rematch_ready(&room.id, &new_id, old_seat, token));
            }
        }
    }
}
