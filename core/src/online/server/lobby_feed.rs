//! What the hub's core keeps of the lobby: the lobby as this instance last read it and who follows
//! it, the players signed in here and their connections, and when each speaker last said a phrase
//! (apart from the lobby's handlers in `lobby`).

use super::outbox::{Out, Outbox};
use crate::online::directory::{Challenge, LiveGame};
use crate::online::protocol::ServerMessage;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// A phrase per connection at most this often.
const PHRASE_INTERVAL: Duration = Duration::from_secs(2);
/// Speakers kept before those who may speak again are forgotten.
const SPEAKERS_KEPT: usize = 10_000;

/// When each speaker last said a phrase.
#[derive(Default)]
pub(super) struct PhraseTimes(Mutex<HashMap<String, std::time::Instant>>);

impl PhraseTimes {
    /// Whether `speaker` may say a phrase now (then counted as said), or said one too recently.
    pub(super) fn may_speak(&self, speaker: String) -> bool {
        let now = std::time::Instant::now();
        let mut last = self.0.lock().expect("phrase times lock");
        if last.len() >= SPEAKERS_KEPT {
            last.retain(|_, at| now.duration_since(*at) < PHRASE_INTERVAL);
        }
        match last.get(&speaker) {
            Some(at) if now.duration_since(*at) < PHRASE_INTERVAL => false,
            _ => {
                last.insert(speaker, now);
                true
            }
        }
    }
}
/// A signed-in connection's player.
#[derive(Clone, Debug)]
pub struct SignedPlayer {
    pub id: String,
    pub name: String,
    /// The device's player key (in memory only: the store keeps its hash), to give the device
    /// seat tokens of its own (`ids::grant_token`).
    pub key: String,
}

pub(super) struct LobbyFollower {
    pub(super) out: Outbox,
    /// The follower's name, compared as `name_key` (direct challenges show to their two players only).
    pub(super) name: Option<String>,
}

#[derive(Default)]
pub(super) struct LobbyState {
    pub(super) followers: HashMap<u64, LobbyFollower>,
    pub(super) challenges: Vec<Challenge>,
    pub(super) live: Vec<LiveGame>,
    /// When the games being played were last sent (a game's move count alone refreshes them at
    /// most every `LIVE_MOVES_EVERY`).
    pub(super) live_sent: Option<std::time::Instant>,
    pub(super) loaded: bool,
}

/// The lobby as this instance last read it, who follows it, and who is signed in here.
#[derive(Default)]
pub struct LobbyFeed {
    pub(super) state: Mutex<LobbyState>,
    /// Set when something changed; the refresher reads the store again.
    pub(super) changed: tokio::sync::Notify,
    /// One refresh at a time.
    pub(super) refreshing: tokio::sync::Mutex<()>,
    /// The connections of each signed-in player here, by player id.
    pub(super) signed_in: Mutex<HashMap<String, Vec<SignedConnection>>>,
    /// Since when each player whose last connection here closed has been gone (until the sweep
    /// withdraws their live challenges, or they come back).
    pub(super) gone: Mutex<HashMap<String, i64>>,
}

/// A connection of a signed-in player.
#[derive(Clone)]
pub(super) struct SignedConnection {
    pub(super) conn: u64,
    pub(super) out: Outbox,
    /// The device's player key.
    pub(super) key: String,
}

impl LobbyFeed {
    pub fn leave(&self, conn: u64) {
        self.state.lock().expect("lobby lock").followers.remove(&conn);
    }

    /// Connection `conn` (sending through `out`) signs in as `player`.
    pub(super) fn sign_in(&self, conn: u64, out: &Outbox, player: &SignedPlayer) {
        let mut signed = self.signed_in.lock().expect("signed-in lock");
        let connection = SignedConnection { conn, out: out.clone(), key: player.key.clone() };
        signed.entry(player.id.clone()).or_default().push(connection);
        self.gone.lock().expect("gone lock").remove(&player.id);
        if let Some(follower) = self.state.lock().expect("lobby lock").followers.get_mut(&conn) {
            follower.name = Some(player.name.clone());
        }
    }

    /// Connection `conn`, signed in as `player` if anyone, signs out (closed, or signs in as
    /// someone else) at `now`.
    pub(super) fn sign_out(&self, conn: u64, player: Option<&SignedPlayer>, now: i64) {
        let Some(player) = player else { return };
        let mut signed = self.signed_in.lock().expect("signed-in lock");
        if let Some(connections) = signed.get_mut(&player.id) {
            connections.retain(|c| c.conn != conn);
            if connections.is_empty() {
                signed.remove(&player.id);
                self.gone.lock().expect("gone lock").insert(player.id.clone(), now);
            }
        }
    }

    /// The players gone since `since` or earlier (each named once: they are forgotten here).
    pub(super) fn gone_for(&self, since: i64) -> Vec<String> {
        let mut gone = self.gone.lock().expect("gone lock");
        let players: Vec<String> = gone.iter().filter(|(_, at)| **at <= since).map(|(p, _)| p.clone()).collect();
        for p in &players {
            gone.remove(p);
        }
        players
    }

    /// The connections of a player signed in here.
    pub(super) fn connections_of(&self, player: &str) -> Vec<SignedConnection> {
        self.signed_in.lock().expect("signed-in lock").get(player).cloned().unwrap_or_default()
    }

    /// Tells every connection of a player signed in here.
    pub(super) fn tell_player(&self, player: &str, message: &ServerMessage) {
        let text = message.to_json();
        for connection in self.connections_of(player) {
            connection.out.send(Out::Text(text.clone()));
        }
    }
}
