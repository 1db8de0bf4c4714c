//! Players on the server: choosing a name (the device gets a player key), signing in with the key
//! or by name and password on another device, adding a password, a player's games on any device,
//! player pages, leaderboards, and rating a game when it ends.

use super::hub::{Hub, Session, unavailable};
use super::ids;
use super::lobby_feed::SignedPlayer;
use super::outbox::Out;
use super::people::{PlayerRow, Registered};
use super::room::Room;
use crate::games::GameKind;
use crate::online::directory::{PlayerCard, PlayerPage, check_name, check_password};
use crate::online::protocol::{Ending, ErrorCode, ServerMessage};
use crate::online::table::Table;
use crate::rules::Side;

type Reply<T = ServerMessage> = Result<T, ServerMessage>;

fn refuse(code: ErrorCode, why: impl Into<String>) -> ServerMessage {
    ServerMessage::error(code, why)
}

/// The signed-in player (a clone), or the error that says a name is needed first (boxed: the
/// error is a whole server message).
pub(super) fn signed_in(session: &Session) -> Result<SignedPlayer, Box<ServerMessage>> {
    match &session.player {
        Some(player) => Ok(player.clone()),
        None => Err(Box::new(refuse(ErrorCode::NotSignedIn, "choose a name (or sign in) to play with others online"))),
    }
}

/// Why a game posted as rated changes no rating when it ends: the same player on both seats, or a
/// seat that never decided (an abort, as lichess counts it: a game left or lost on time before both
/// sides moved rewards nobody).
pub(super) fn not_rated_because(table: &Table) -> Option<&'static str> {
    let [Some((first, _)), Some((second, _))] = &table.players else {
        return Some("a seat has no player");
    };
    if first == second {
        return Some("the same player on both seats");
    }
    let moved = |seat: Side| table.game.played().iter().any(|played| played.seat == seat);
    if !Side::BOTH.into_iter().all(moved) {
        return Some("aborted: a side never moved");
    }
    None
}

/// The answer to a password that found the server's password workers and their queue full.
fn busy() -> ServerMessage {
    refuse(ErrorCode::RateLimited, "the server is busy with other passwords; try again in a moment")
}

impl Hub {
    async fn card(&self, row: &PlayerRow) -> Result<PlayerCard, ServerMessage> {
        let ratings = self.store.ratings(&row.id).await.map_err(unavailable)?;
        let (vacation_until_ms, vacation_left_ms) = self.vacation_state(&row.id, self.now()).await?;
        let (email, email_confirmed) = self.store.email_of(&row.id).await.map_err(unavailable)?;
        Ok(PlayerCard {
            name: row.name.clone(),
            ratings,
            has_password: row.password.is_some(),
            vacation_until_ms,
            vacation_left_ms,
            email,
            email_confirmed,
        })
    }

    /// Signs the connection in as `row`, holding this device's `key`.
    async fn sign_session_in(&self, session: &mut Session, row: &PlayerRow, key: String, new_key: bool) -> Reply {
        let player = self.card(row).await?;
        let signed = SignedPlayer { id: row.id.clone(), name: row.name.clone(), key: key.clone() };
        self.lobby.sign_out(session.conn, session.player.as_ref(), self.now());
        self.lobby.sign_in(session.conn, &session.out, &signed);
        session.player = Some(signed);
        Ok(ServerMessage::SignedIn { player, key: new_key.then_some(key) })
    }

    /// The error for an address that tried too many names, keys or passwords (`None`: go on).
    fn over_the_limit(&self, session: &Session) -> Option<ServerMessage> {
        (!self.sign_ins.allow(session.address)).then(|| {
            refuse(ErrorCode::RateLimited, "too many names or passwords tried from your address; wait a minute")
        })
    }

    pub(super) async fn register(&self, session: &mut Session, typed: &str) -> Reply {
        let name = check_name(typed).map_err(|why| refuse(ErrorCode::BadName, why))?;
        if let Some(refused) = self.over_the_limit(session) {
            return Err(refused);
        }
        let key = ids::seat_token();
        let id = ids::game_id();
        let now = self.now();
        match self.store.register(&id, &name, &ids::token_hash(&key), now).await.map_err(unavailable)? {
            Registered::Yes => {}
            Registered::Taken => {
                return Err(refuse(ErrorCode::NameTaken, format!("'{name}' is taken; choose another name")));
            }
            Registered::LooksLike(other) => {
                return Err(refuse(
                    ErrorCode::NameTaken,
                    format!("'{name}' looks too much like the name of the player '{other}'; choose another name"),
                ));
            }
        }
        let row = PlayerRow { id, name, password: None, created_ms: now };
        self.sign_session_in(session, &row, key, true).await
    }

    pub(super) async fn sign_in(&self, session: &mut Session, key: &str) -> Reply {
        if let Some(refused) = self.over_the_limit(session) {
            return Err(refused);
        }
        let row = self.store.player_by_key(&ids::token_hash(key)).await.map_err(unavailable)?;
        let row = row.ok_or_else(|| {
            refuse(ErrorCode::NoSuchPlayer, "this server does not know this device's player; choose a name or sign in")
        })?;
        self.sign_session_in(session, &row, key.to_string(), false).await
    }

    pub(super) async fn log_in(&self, session: &mut Session, name: &str, password: String) -> Reply {
        if let Some(refused) = self.over_the_limit(session) {
            return Err(refused);
        }
        let wrong = || refuse(ErrorCode::BadPassword, "wrong name or password");
        let row = self.store.player_by_name(name).await.map_err(unavailable)?.ok_or_else(wrong)?;
        let stored = row.password.clone().ok_or_else(wrong)?;
        if password.len() > *crate::online::directory::PASSWORD_LENGTH.end()
            || !self.passwords.matches(password, stored).await.map_err(|_| busy())?
        {
            return Err(wrong());
        }
        let key = ids::seat_token();
        self.store.add_key(&row.id, &ids::token_hash(&key), self.now()).await.map_err(unavailable)?;
        self.sign_session_in(session, &row, key, true).await
    }

    pub(super) async fn set_password(&self, session: &mut Session, password: String) -> Reply {
        let player = signed_in(session).map_err(|e| *e)?;
        check_password(&password).map_err(|why| refuse(ErrorCode::BadPassword, why))?;
        if let Some(refused) = self.over_the_limit(session) {
            return Err(refused);
        }
        if !self.password_changes.allow(player.id.clone()) {
            return Err(refuse(ErrorCode::RateLimited, "your password was changed just now; wait a minute"));
        }
        let hash = self.passwords.hash(password).await.map_err(|_| busy())?.map_err(unavailable)?;
        self.store.set_password(&player.id, &hash).await.map_err(unavailable)?;
        Ok(ServerMessage::PasswordSet {})
    }

    /// The signed-in player's games, each with a seat token for this device.
    pub(super) async fn my_games(&self, session: &mut Session) -> Reply {
        let player = signed_in(session).map_err(|e| *e)?;
        let games = self.store.games_of_player(&player.id).await.map_err(unavailable)?;
        let mut tokens = Vec::with_capacity(games.len());
        for (game_id, seat) in games {
            let token = ids::grant_token(&player.key, &game_id, seat);
            self.store.add_grant(&ids::token_hash(&token), &game_id, seat).await.map_err(unavailable)?;
            tokens.push(token);
        }
        self.list(&tokens).await
    }

    /// A player's page as `viewer` (a player id) may see it.
    pub(super) async fn player_page(&self, name: &str, viewer: Option<&str>) -> Reply {
        let row = self.store.player_by_name(name).await.map_err(unavailable)?;
        let shown: String = name.chars().take(20).collect();
        let row = row.ok_or_else(|| refuse(ErrorCode::NoSuchPlayer, format!("no player is called '{shown}'")))?;
        let page = PlayerPage {
            name: row.name.clone(),
            ratings: self.store.ratings(&row.id).await.map_err(unavailable)?,
            history: self.store.rating_history(&row.id).await.map_err(unavailable)?,
            recent: self.store.recent_games(&row.id, viewer).await.map_err(unavailable)?,
            joined_ms: row.created_ms,
        };
        Ok(ServerMessage::Page { page })
    }

    pub(super) async fn leaderboard(&self, game: GameKind) -> Reply {
        let leaders = self.store.leaders(game).await.map_err(unavailable)?;
        Ok(ServerMessage::Leaders { game, leaders })
    }

    /// A game ended here (stored once, whichever instance): rates it when it was rated between two
    /// players who both played, tells its followers and the other instances, and refreshes the lobby.
    pub(super) async fn after_ending(&self, room: &Room, table: &Table, ending: &Ending) {
        if table.rated
            && not_rated_because(table).is_none()
            && let [Some((first, first_name)), Some((second, second_name))] = &table.players
        {
            let winner = table.winner_seat(ending);
            let rated = self
                .store
                .rate_game(
                    &table.id,
                    table.kind,
                    [(first, first_name), (second, second_name)],
                    self.now(),
                    self.rated_games_per_pair_per_day,
                    |before| super::rating::rate(before, winner),
                )
                .await;
            match rated {
                Ok(Some(changes)) => {
                    let message = ServerMessage::Rated { game_id: table.id.clone(), changes: changes.clone() };
                    room.send_all(&message);
                    self.announce_json(serde_json::json!({ "i": self.instance, "g": table.id, "rated": changes }))
                        .await;
                }
                // The pair's rated games of the day were played already: this one counts for nothing.
                Ok(None) => {}
                Err(e) => eprintln!("stoneyard serve: rating game {}: {e}", table.id),
            }
        }
        self.lobby_changed().await;
    }

    /// Sends a message to one connection.
    pub(super) fn tell(session: &Session, message: &ServerMessage) {
        session.out.send(Out::Text(message.to_json()));
    }
}
