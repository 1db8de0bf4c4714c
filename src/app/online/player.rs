//! The player this device is on the server: the name chosen the first time online (the server's
//! player key is kept in the store before anything else happens), signed in again with that key
//! whenever the connection opens, a password to add, and signing in by name and password on
//! another device. Ratings come with the sign-in and after each rated game.

use super::socket::Connection;
use super::{FromServer, SocketOpened, ToServer};
use crate::app::AppSystems;
use crate::app::settings::SaveStore;
use crate::online::directory::PlayerCard;
use crate::online::protocol::{ClientMessage, ErrorCode, ServerMessage};
use crate::save::{KeptPlayer, forget_player, keep_player, load_players};
use bevy::prelude::*;

/// This device's player on the current server.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct OnlinePlayer {
    /// The kept name and key for the current server (read from the store).
    pub kept: Option<KeptPlayer>,
    /// The server's card, once signed in on the open connection.
    pub card: Option<PlayerCard>,
    /// A sign-in, registration or login is on its way.
    pub asking: bool,
    /// The last refusal (a taken name, a wrong password), in words.
    pub problem: Option<String>,
    /// A password was just set.
    pub password_set: bool,
    /// The server the kept player was read for.
    server: String,
}

impl OnlinePlayer {
    pub fn signed_in(&self) -> bool {
        self.card.is_some()
    }

    pub fn name(&self) -> Option<&str> {
        self.card.as_ref().map(|c| c.name.as_str())
    }
}

/// A request about this device's player, from the online screen.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub enum PlayerRequest {
    Register(String),
    LogIn {
        name: String,
        password: String,
    },
    SetPassword(String),
    /// Forget this device's player on this server (another name can be chosen).
    SignOut,
}

/// The player's systems (before the lobby's, which follow the lobby once signed in).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlayerSystems;

/// The player just signed in (the lobby follows the lobby again with the player's view).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignedIn;

pub fn plugin(app: &mut App) {
    app.init_resource::<OnlinePlayer>().add_message::<PlayerRequest>().add_message::<SignedIn>();
    app.add_systems(
        Update,
        (read_kept_player, sign_in_on_open, hear_server, ask).chain().in_set(AppSystems::Menus).in_set(PlayerSystems),
    );
}

/// Reads the kept player whenever the server changes.
fn read_kept_player(connection: Res<Connection>, store: Res<SaveStore>, mut player: ResMut<OnlinePlayer>) {
    if player.server == connection.url {
        return;
    }
    let kept = match load_players(&store.0) {
        Ok(players) => players.into_iter().find(|p| p.server == connection.url),
        Err(e) => {
            player.problem = Some(format!("Your online name could not be read: {e}"));
            None
        }
    };
    *player = OnlinePlayer { kept, server: connection.url.clone(), problem: player.problem.take(), ..default() };
}

/// A fresh connection knows nobody: sign in with the kept key.
fn sign_in_on_open(
    mut opened: MessageReader<SocketOpened>,
    mut player: ResMut<OnlinePlayer>,
    mut out: MessageWriter<ToServer>,
) {
    if opened.read().count() == 0 {
        return;
    }
    player.card = None;
    if let Some(kept) = &player.kept {
        out.write(ToServer(ClientMessage::SignIn { key: kept.key.clone() }));
        player.asking = true;
    }
}

fn hear_server(
    mut heard: MessageReader<FromServer>,
    mut player: ResMut<OnlinePlayer>,
    mut store: ResMut<SaveStore>,
    connection: Res<Connection>,
    mut signed: MessageWriter<SignedIn>,
    mut out: MessageWriter<ToServer>,
) {
    for FromServer(message) in heard.read() {
        match message {
            ServerMessage::SignedIn { player: card, key } => {
                if let Some(key) = key {
                    // The key is the only way back to this player: kept before it is used.
                    let kept = KeptPlayer { server: connection.url.clone(), name: card.name.clone(), key: key.clone() };
                    if let Err(e) = keep_player(&mut store.0, kept.clone()) {
                        player.problem = Some(format!("Your online name could not be kept on this device: {e}"));
                    }
                    player.kept = Some(kept);
                }
                player.card = Some(card.clone());
                player.asking = false;
                player.problem = None;
                signed.write(SignedIn);
            }
            ServerMessage::EmailSet { address, confirmed } => {
                if let Some(card) = player.card.as_mut() {
                    card.email = address.clone();
                    card.email_confirmed = *confirmed;
                }
            }
            ServerMessage::Vacation { until_ms, left_ms } => {
                if let Some(card) = player.card.as_mut() {
                    card.vacation_until_ms = *until_ms;
                    card.vacation_left_ms = *left_ms;
                }
            }
            ServerMessage::PasswordSet {} => {
                player.password_set = true;
                if let Some(card) = player.card.as_mut() {
                    card.has_password = true;
                }
            }
            ServerMessage::Rated { .. } => {
                // Signing in again brings the card's new ratings.
                if let Some(kept) = &player.kept {
                    out.write(ToServer(ClientMessage::SignIn { key: kept.key.clone() }));
                }
            }
            ServerMessage::Error { code, message, .. } => match code {
                ErrorCode::NoSuchPlayer if player.asking && player.card.is_none() => {
                    // The server forgot this device's player (a new server at the same address).
                    if let Err(e) = forget_player(&mut store.0, &connection.url) {
                        warn!("online: {e}");
                    }
                    player.kept = None;
                    player.asking = false;
                    player.problem = Some("This server does not know your name any more: choose one.".to_string());
                }
                ErrorCode::BadName | ErrorCode::NameTaken | ErrorCode::BadPassword | ErrorCode::NotSignedIn => {
                    player.asking = false;
                    player.problem = Some(capitalised(message));
                }
                ErrorCode::RateLimited if player.asking => {
                    player.asking = false;
                    player.problem = Some(capitalised(message));
                }
                _ => {}
            },
            _ => {}
        }
    }
}

/// "wrong name or password" → "Wrong name or password."
fn capitalised(message: &str) -> String {
    let mut chars = message.chars();
    let mut text: String = chars.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    text.push_str(chars.as_str());
    if !text.ends_with('.') {
        text.push('.');
    }
    text
}

fn ask(
    mut requests: MessageReader<PlayerRequest>,
    mut player: ResMut<OnlinePlayer>,
    mut store: ResMut<SaveStore>,
    connection: Res<Connection>,
    mut out: MessageWriter<ToServer>,
) {
    for request in requests.read() {
        player.problem = None;
        match request {
            PlayerRequest::Register(name) => match crate::online::directory::check_name(name) {
                Ok(name) => {
                    player.asking = true;
                    out.write(ToServer(ClientMessage::Register { name }));
                }
                Err(why) => player.problem = Some(why),
            },
            PlayerRequest::LogIn { name, password } => {
                player.asking = true;
                out.write(ToServer(ClientMessage::Login { name: name.trim().to_string(), password: password.clone() }));
            }
            PlayerRequest::SetPassword(password) => match crate::online::directory::check_password(password) {
                Ok(()) => {
                    player.password_set = false;
                    out.write(ToServer(ClientMessage::SetPassword { password: password.clone() }));
                }
                Err(why) => player.problem = Some(why),
            },
            PlayerRequest::SignOut => {
                if let Err(e) = forget_player(&mut store.0, &connection.url) {
                    player.problem = Some(e.to_string());
                    continue;
                }
                player.kept = None;
                player.card = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn server_refusals_read_as_sentences() {
        assert_eq!(super::capitalised("wrong name or password"), "Wrong name or password.");
        assert_eq!(super::capitalised("'Ada' is taken; choose another name"), "'Ada' is taken; choose another name.");
        assert_eq!(super::capitalised("A name has at least 3 characters."), "A name has at least 3 characters.");
    }
}
