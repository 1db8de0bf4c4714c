//! Games a connection creates, joins, opens, lists and leaves: the seats it takes and the games
//! it follows.

use super::hub::{Hub, INVITES_PER_ADDRESS, MAX_FOLLOWED, Session, load_table, unavailable};
use super::ids;
use super::outbox::Out;
use super::rematches::rematch_ready;
use super::room::Follower;
use super::store::GameRow;
use crate::games::GameKind;
use crate::online::protocol::{ErrorCode, GameSummary, MAX_LISTED_GAMES, SeatChoice, ServerMessage};
use crate::online::table::Table;
use crate::rules::Side;
use std::collections::HashSet;

impl Hub {
    /// Creates a private game for an invite code. Each client address holds at most
    /// [`INVITES_PER_ADDRESS`] that nobody has joined (and those expire after a week).
    pub(super) async fn create(
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
    pub(super) async fn join(&self, session: &Session, typed: &str) -> Result<ServerMessage, ServerMessage> {
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

    pub(super) async fn open(
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
}
