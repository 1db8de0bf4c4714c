//! The lobby: open challenges (public, or direct to one player), accepting one (the first
//! acceptor gets the game, the others "already taken"), withdrawing one, the live list that
//! follows them and the games being played, quick play's pairing by rating with the computer
//! offered after a wait, and preset phrases. The store is the truth: every instance re-reads the
//! open challenges when any instance announces a change, and sends its followers the difference.

use super::accounts::signed_in;
use super::hub::{Hub, Session, unavailable};
use super::ids;
use super::lobby_feed::{LobbyFollower, SignedConnection};
use super::outbox::Out;
use super::room::Room;
use crate::games::GameKind;
use crate::online::clock::check_time_control;
use crate::online::directory::{Challenge, LISTED_CHALLENGES, Phrase, TimeControl, computer_level_for, name_key};
use crate::online::protocol::{ErrorCode, SeatChoice, ServerMessage};
use crate::rules::Side;
use std::sync::Arc;
use std::time::Duration;

/// The most open challenges one player may have at once.
pub const CHALLENGES_PER_PLAYER: i64 = 5;
/// Quick play pairs two players whose ratings differ by at most this much at first…
const QUICK_PLAY_BAND: f64 = 200.0;
/// Quick play's time control: ten minutes each and five seconds a move.
pub const QUICK_PLAY_CONTROL: TimeControl = TimeControl::Live { base_seconds: 600, increment_seconds: 5 };
/// …and by this much more for every second the one waiting has waited.
const QUICK_PLAY_WIDENING: f64 = 10.0;
/// A queued player is offered the computer after the wait and leaves the queue; one still there
/// this long after it is a ghost (their connection died with an instance) and is never paired.
const QUICK_PLAY_GHOST_MARGIN: Duration = Duration::from_secs(10);
/// The games being played are sent again for their move counts alone at most this often (every
/// move of every game would otherwise refresh every lobby follower's list).
const LIVE_MOVES_EVERY: Duration = Duration::from_secs(5);

/// The lobby's changes are gathered this long before the store is read again (a busy list is
/// re-read a few times a second, not once per change).
const LOBBY_GATHER: Duration = Duration::from_millis(50);

fn visible_to(challenge: &Challenge, viewer: Option<&str>) -> bool {
    match &challenge.to {
        None => true,
        Some(to) => viewer.is_some_and(|v| name_key(v) == name_key(to) || name_key(v) == name_key(&challenge.by)),
    }
}

/// Whether `challenge`, no longer among the `newest`, sorts after them in the lobby's order
/// (newest first, then by id): newer challenges filled the list, so it is still open, on the
/// older pages. (Taken at the same moment, it says so when someone tries to take it.)
fn pushed_out(challenge: &Challenge, newest: &[Challenge]) -> bool {
    let full = newest.len() as i64 >= LISTED_CHALLENGES;
    newest.last().is_some_and(|last| {
        full && (challenge.posted_ms, std::cmp::Reverse(&challenge.game_id))
            < (last.posted_ms, std::cmp::Reverse(&last.game_id))
    })
}

impl Hub {
    /// Something in the lobby changed here: this instance reads it again soon, and tells the others.
    pub(super) async fn lobby_changed(&self) {
        self.lobby.changed.notify_one();
        self.announce_json(serde_json::json!({ "i": self.instance, "lobby": true })).await;
    }

    /// Reads the lobby again whenever it changed (runs for the server's life).
    pub async fn refresh_lobby_forever(self: Arc<Hub>) {
        loop {
            self.lobby.changed.notified().await;
            tokio::time::sleep(LOBBY_GATHER).await;
            self.refresh_lobby().await;
        }
    }

    /// Reads the open challenges and live games from the store and sends each follower what
    /// changed for them.
    async fn refresh_lobby(&self) {
        let _one = self.lobby.refreshing.lock().await;
        let challenges = match self.store.open_challenges().await {
            Ok(c) => c,
            Err(e) => {
                eprintln!("stoneyard serve: reading the lobby: {e}");
                return;
            }
        };
        let live = match self.store.live_games().await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("stoneyard serve: reading the games being played: {e}");
                return;
            }
        };
        let mut state = self.lobby.state.lock().expect("lobby lock");
        // Each change is written once, however many followers it goes to (a busy lobby changes a
        // few times a second and has hundreds of followers).
        let added = challenges
            .iter()
            .filter(|c| !state.challenges.iter().any(|o| o.game_id == c.game_id))
            .map(|c| (c, ServerMessage::ChallengeAdded { challenge: Box::new(c.clone()) }.to_json()));
        let removed = state.challenges.iter().filter(|o| !challenges.iter().any(|c| c.game_id == o.game_id)).map(|c| {
            let game_id = c.game_id.clone();
            let gone = if pushed_out(c, &challenges) {
                ServerMessage::ChallengeAged { game_id }
            } else {
                ServerMessage::ChallengeRemoved { game_id }
            };
            (c, gone.to_json())
        });
        let changes: Vec<(&Challenge, String)> = added.chain(removed).collect();
        let same_games = live.len() == state.live.len()
            && live.iter().zip(&state.live).all(|(a, b)| a.game_id == b.game_id && a.names == b.names);
        let moves_due = state.live_sent.is_none_or(|at| at.elapsed() >= LIVE_MOVES_EVERY);
        let send_live = live != state.live && (!same_games || moves_due);
        let live_text = send_live.then(|| ServerMessage::LiveGames { live: live.clone() }.to_json());
        for follower in state.followers.values() {
            let viewer = follower.name.as_deref();
            for (_, text) in changes.iter().filter(|(c, _)| visible_to(c, viewer)) {
                follower.out.send(Out::Text(text.clone()));
            }
            if let Some(text) = &live_text {
                follower.out.send(Out::Text(text.clone()));
            }
        }
        state.challenges = challenges;
        if send_live || !state.loaded {
            state.live = live;
            state.live_sent = Some(std::time::Instant::now());
        }
        state.loaded = true;
    }

    /// Follows the lobby: what it holds now, then its changes. The list is sent before the
    /// follower is added, under the lobby's lock, so no change can reach the follower before the
    /// list it changes.
    pub(super) async fn watch_lobby(&self, session: &mut Session) {
        let loaded = self.lobby.state.lock().expect("lobby lock").loaded;
        if !loaded {
            self.refresh_lobby().await;
        }
        let _one = self.lobby.refreshing.lock().await;
        let mut state = self.lobby.state.lock().expect("lobby lock");
        let name = session.player.as_ref().map(|p| p.name.clone());
        let challenges =
            state.challenges.iter().filter(|c| visible_to(c, name.as_deref())).cloned().collect::<Vec<_>>();
        let live = state.live.clone();
        session.out.send(Out::Text(ServerMessage::Lobby { challenges, live }.to_json()));
        state.followers.insert(session.conn, LobbyFollower { out: session.out.clone(), name });
    }

    /// A page of the challenges older than the lobby's newest: read from the store each time,
    /// not followed (a crowded lobby's tail changes rarely and is seldom looked at).
    pub(super) async fn older_challenges(
        &self,
        before_ms: i64,
        before_id: &str,
        viewer: Option<&str>,
    ) -> Result<ServerMessage, ServerMessage> {
        let (challenges, more) =
            self.store.older_challenges(before_ms, before_id, viewer).await.map_err(unavailable)?;
        Ok(ServerMessage::OlderChallenges { challenges, more })
    }

    /// Posts a challenge: a game whose other seat waits in the lobby.
    #[allow(clippy::too_many_arguments)] // one parameter per field of the request
    pub(super) async fn challenge(
        &self,
        session: &mut Session,
        game: GameKind,
        options: &[(String, String)],
        seat: SeatChoice,
        rated: bool,
        time_control: Option<TimeControl>,
        to: Option<&str>,
    ) -> Result<ServerMessage, ServerMessage> {
        let me = signed_in(session).map_err(|e| *e)?;
        if let Some(control) = &time_control {
            check_time_control(control).map_err(|why| ServerMessage::error(ErrorCode::BadGame, why))?;
        }
        let for_player = match to {
            None => None,
            Some(name) => {
                let shown: String = name.chars().take(20).collect();
                let row = self.store.player_by_name(name).await.map_err(unavailable)?.ok_or_else(|| {
                    ServerMessage::error(ErrorCode::NoSuchPlayer, format!("no player is called '{shown}'"))
                })?;
                if row.id == me.id {
                    return Err(ServerMessage::error(ErrorCode::BadMessage, "you cannot challenge yourself"));
                }
                Some(row.id)
            }
        };
        if self.store.open_challenges_of(&me.id).await.map_err(unavailable)? >= CHALLENGES_PER_PLAYER {
            return Err(ServerMessage::error(
                ErrorCode::RateLimited,
                format!("you have {CHALLENGES_PER_PLAYER} open challenges; withdraw one first"),
            ));
        }
        let created = self
            .create_listed(game, options, seat, Some(&me.id), |row| {
                row.public = for_player.is_none();
                row.for_player = for_player.clone();
                row.rated = rated;
                row.time_control = time_control.map(|c| serde_json::to_string(&c).expect("time controls serialise"));
            })
            .await?;
        self.lobby_changed().await;
        Ok(created)
    }

    /// Accepts an open challenge (not one's own).
    pub(super) async fn accept(&self, session: &mut Session, id: &str) -> Result<ServerMessage, ServerMessage> {
        let me = signed_in(session).map_err(|e| *e)?;
        let row = self.store.game(id).await.map_err(unavailable)?;
        let taken =
            || ServerMessage::game_error(ErrorCode::Taken, id, "already taken: this challenge is no longer open");
        let row = row.ok_or_else(taken)?;
        if row.players.iter().flatten().any(|p| *p == me.id) {
            return Err(ServerMessage::game_error(ErrorCode::BadMessage, id, "this is your own challenge"));
        }
        if !row.public && row.for_player.as_deref() != Some(me.id.as_str()) {
            return Err(taken());
        }
        self.take_free_seat(session, id, true).await
    }

    /// Withdraws a game nobody has joined yet (a challenge or an invite).
    pub(super) async fn cancel(&self, id: &str, token: &str) -> Result<ServerMessage, ServerMessage> {
        let room = self.room(id);
        let result = async {
            let mut table = self.table(&room).await?;
            self.seat_for(&mut table, id, token).await?;
            if !self.store.cancel(id).await.map_err(unavailable)? {
                self.refresh_locked(&room, &mut table).await;
                return Err(ServerMessage::game_error(
                    ErrorCode::Taken,
                    id,
                    "already taken: your opponent joined before you withdrew it",
                ));
            }
            let cancelled = ServerMessage::Cancelled { game_id: id.to_string() };
            room.send_all(&cancelled);
            Ok(cancelled)
        }
        .await;
        if result.is_ok() {
            self.announce_json(serde_json::json!({ "i": self.instance, "g": id, "cancelled": true })).await;
            self.lobby_changed().await;
        }
        self.forget_if_unfollowed(&room);
        result
    }

    /// Quick play: pairs with the waiting player of the closest rating within the band (which
    /// widens while they wait), or waits.
    pub(super) async fn quick_play(
        &self,
        session: &mut Session,
        game: GameKind,
    ) -> Result<ServerMessage, ServerMessage> {
        let me = signed_in(session).map_err(|e| *e)?;
        self.stop_quick_play(session).await;
        let rating = self.store.rating(&me.id, game).await.map_err(unavailable)?.rating;
        // Quick play waits in real time (its wait is a tokio timer), whatever the server's clock.
        let now = super::time::system_ms();
        let oldest = now - (self.quick_play_wait + QUICK_PLAY_GHOST_MARGIN).as_millis() as i64;
        let mut waiting = self.store.quick_play_waiting(game, &me.id, oldest).await.map_err(unavailable)?;
        waiting.retain(|(_, theirs, since)| {
            let waited = (now - since).max(0) as f64 / 1000.0;
            (theirs - rating).abs() <= QUICK_PLAY_BAND + QUICK_PLAY_WIDENING * waited
        });
        waiting.sort_by(|a, b| (a.1 - rating).abs().total_cmp(&(b.1 - rating).abs()));
        for (opponent, _, _) in waiting {
            // Of two requests pairing with the same player, one takes them out of the queue.
            if !self.store.leave_quick_play(&opponent).await.map_err(unavailable)? {
                continue;
            }
            return self.pair(session, &me.id, &opponent, game).await;
        }
        self.store.queue_quick_play(&me.id, game, rating, now).await.map_err(unavailable)?;
        session.quick_play_until = Some(tokio::time::Instant::now() + self.quick_play_wait);
        session.quick_play_game = Some(game);
        Ok(ServerMessage::QuickPlayWaiting { game })
    }

    /// Starts a quick-play game between the asker and a player taken from the queue: seats at
    /// random, rated, the asker's seat answered here, the other's given to their connections
    /// (here or on the instance that has them) as a grant of their device key.
    async fn pair(
        &self,
        session: &mut Session,
        me: &str,
        opponent: &str,
        game: GameKind,
    ) -> Result<ServerMessage, ServerMessage> {
        let options = game.quick_pairs();
        let now = self.now();
        // Nobody knows the waiting seat's own token: it is held through grants only.
        let unknown = ids::token_hash(&ids::seat_token());
        let opponent_id = opponent.to_string();
        let created = self
            .create_listed(game, &options, SeatChoice::Random, Some(me), |row| {
                let theirs = if row.tokens[0].is_some() { 1 } else { 0 };
                row.tokens[theirs] = Some(unknown.clone());
                row.players[theirs] = Some(opponent_id.clone());
                row.rated = true;
                // Paired in public, watched in public.
                row.public = true;
                // Strangers play quick play on a live clock, so neither can stall the other.
                row.time_control = Some(serde_json::to_string(&QUICK_PLAY_CONTROL).expect("time controls serialise"));
                row.clock_start_ms = Some(now);
            })
            .await?;
        let ServerMessage::Created { game_id, seat, token, .. } = created else {
            return Err(unavailable("a quick-play game was not created"));
        };
        self.deliver_pairing(opponent, &game_id, seat.opponent()).await;
        self.announce_json(
            serde_json::json!({ "i": self.instance, "paired": opponent, "g": game_id, "seat": seat.opponent().index() }),
        )
        .await;
        self.lobby_changed().await;
        session.quick_play_until = None;
        session.quick_play_game = None;
        Ok(ServerMessage::Joined { game_id, seat, token })
    }

    /// Gives a paired player's connections here their seat.
    async fn deliver_pairing(&self, player: &str, game_id: &str, seat: Side) {
        for SignedConnection { out, key, .. } in self.lobby.connections_of(player) {
            let token = ids::grant_token(&key, game_id, seat);
            if let Err(e) = self.store.add_grant(&ids::token_hash(&token), game_id, seat).await {
                eprintln!("stoneyard serve: granting a quick-play seat: {e}");
                continue;
            }
            let joined = ServerMessage::Joined { game_id: game_id.to_string(), seat, token };
            out.send(Out::Text(joined.to_json()));
        }
    }

    /// Leaves quick play's queue.
    pub(super) async fn stop_quick_play(&self, session: &mut Session) {
        if session.quick_play_game.take().is_some()
            && let Some(player) = &session.player
            && let Err(e) = self.store.leave_quick_play(&player.id).await
        {
            eprintln!("stoneyard serve: leaving quick play: {e}");
        }
        session.quick_play_until = None;
    }

    /// Nobody came in time: offer the computer at the player's level (unless paired meanwhile).
    pub async fn quick_play_expired(&self, session: &mut Session) {
        session.quick_play_until = None;
        let Some(game) = session.quick_play_game.take() else { return };
        let Some(player) = session.player.clone() else { return };
        match self.store.leave_quick_play(&player.id).await {
            Ok(true) => {
                let rating = self.store.rating(&player.id, game).await.map(|g| g.rating).unwrap_or_default();
                let offer = ServerMessage::QuickPlayOffer { game, level: computer_level_for(rating).to_string() };
                Self::tell(session, &offer);
            }
            Ok(false) => {}
            Err(e) => eprintln!("stoneyard serve: ending a quick-play wait: {e}"),
        }
    }

    /// A seat says a preset phrase to everyone following the game.
    pub(super) async fn say(
        &self,
        session: &mut Session,
        id: &str,
        token: &str,
        phrase: Phrase,
    ) -> Result<ServerMessage, ServerMessage> {
        let room = self.room(id);
        let result = async {
            let mut table = self.table(&room).await?;
            let seat = self.seat_for(&mut table, id, token).await?;
            // One phrase every two seconds for each speaker: the player from all their devices
            // together, or the seat of a player without a name.
            let speaker = match &session.player {
                Some(player) => player.id.clone(),
                None => format!("{id}/{}", seat.index()),
            };
            if !self.phrases.may_speak(speaker) {
                return Err(ServerMessage::game_error(ErrorCode::RateLimited, id, "one phrase every two seconds"));
            }
            Ok(ServerMessage::Said { game_id: id.to_string(), by: seat, phrase })
        }
        .await;
        self.forget_if_unfollowed(&room);
        let said = result?;
        room.send_all(&said);
        if let ServerMessage::Said { by, .. } = &said {
            self.announce_json(serde_json::json!({ "i": self.instance, "g": id, "said": phrase, "by": by })).await;
        }
        Ok(said)
    }

    /// Another instance's news about the lobby or a pairing.
    pub(super) fn on_lobby_announcement(self: &Arc<Self>, value: &serde_json::Value) {
        if value["lobby"].as_bool() == Some(true) {
            self.lobby.changed.notify_one();
        }
        if let (Some(player), Some(game_id), Some(seat)) =
            (value["paired"].as_str(), value["g"].as_str(), value["seat"].as_u64())
        {
            // Granting the seat writes to the store: not on the LISTEN loop.
            let (hub, player, game_id) = (self.clone(), player.to_string(), game_id.to_string());
            tokio::spawn(async move {
                hub.deliver_pairing(&player, &game_id, Side::from_index(seat as usize & 1)).await;
            });
        }
    }

    /// Another instance's news about a followed game that is not a change of its moves: a
    /// phrase, a rating, a withdrawal. `true` when handled.
    pub(super) async fn on_room_announcement(&self, room: &Room, value: &serde_json::Value) -> bool {
        if let (Ok(phrase), Ok(by)) = (
            serde_json::from_value::<Phrase>(value["said"].clone()),
            serde_json::from_value::<Side>(value["by"].clone()),
        ) {
            room.send_all(&ServerMessage::Said { game_id: room.id.clone(), by, phrase });
            return true;
        }
        if let Ok(changes) = serde_json::from_value(value["rated"].clone()) {
            room.send_all(&ServerMessage::Rated { game_id: room.id.clone(), changes });
            return true;
        }
        if value["cancelled"].as_bool() == Some(true) {
            room.send_all(&ServerMessage::Cancelled { game_id: room.id.clone() });
            return true;
        }
        false
    }
}
