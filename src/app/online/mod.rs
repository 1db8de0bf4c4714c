//! Online play, the client's side (issues #26, #44): the "Play online" screen (a name, quick play,
//! open challenges, invites by code or link, games to watch, "My online games", player pages and
//! leaderboards), the connection to
//! `stoneyard serve`, the seats kept in the store, and the followed game played on the ordinary
//! board: the opponent's decisions enter the match as the computer's do, the person's go to the
//! server. The protocol and the game's state as the client knows it are the pure
//! `crate::online::{protocol, seat}`; this feature only carries them.
//!
//! Inside the feature, its parts talk through the messages and resources below; to the rest of
//! the app it shows `playing::OnlineStatus` and reads `playing::OnlineRequest`.

pub(crate) mod address;
mod catch_up;
mod clock_pace;
mod follow;
mod lobby;
mod lobby_state;
mod lobby_view;
mod lobby_widgets;
mod notices;
mod open_games;
mod people_view;
mod player;
mod seats;
mod socket;

pub use lobby_state::{LobbyRow, OnlineLobby, OnlineView, PlayComputerInstead};
pub use notices::{TurnNotice, YourTurn};
pub use open_games::{OpenGames, QuickPlayState};
pub use player::{OnlinePlayer, PlayerRequest};
pub use seats::KeptSeats;
pub use socket::{Connection, LinkState};

use crate::online::protocol::{ClientMessage, ServerMessage};
use bevy::prelude::*;

/// A message for the game server (sent as soon as the connection is open; requests made while it
/// is down wait for it, moves and follows are sent again by the game's seat on reconnection).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct ToServer(pub ClientMessage);

/// A message the game server sent.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct FromServer(pub ServerMessage);

/// The connection (re)opened: whatever follows a game says so again.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SocketOpened;

/// Follow this game (and, with `open_board`, show it on the board as soon as it is known).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct FollowGame {
    pub game_id: String,
    /// The seat's token; `None`: watch the game read-only.
    pub token: Option<String>,
    pub open_board: bool,
}

pub fn plugin(app: &mut App) {
    app.add_message::<ToServer>().add_message::<FromServer>().add_message::<SocketOpened>().add_message::<FollowGame>();
    app.add_message::<PlayComputerInstead>();
    app.add_plugins((socket::plugin, seats::plugin, player::plugin, open_games::plugin, lobby::plugin, follow::plugin));
    app.add_plugins(lobby_view::plugin);
    app.add_plugins((clock_pace::plugin, notices::plugin));
}
