//! One game in memory: its table, who follows it here and on the other instances, and the
//! messages sent to them (each follower seeing what its seat may).

use super::announcements::Inbox;
use super::outbox::{Out, Outbox};
use crate::online::protocol::ServerMessage;
use crate::online::table::Table;
use crate::rules::Side;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::AtomicI64;
use tokio::sync::MappedMutexGuard;

#[derive(Clone)]
pub(super) struct Follower {
    pub(super) conn: u64,
    pub(super) seat: Option<Side>,
    /// The seat's token as the connection gave it (in memory only: the store keeps its hash), to
    /// hand the follower its token in a rematch.
    pub(super) token: Option<String>,
    pub(super) out: Outbox,
}

/// One game in memory.
pub(super) struct Room {
    pub(super) id: String,
    pub(super) table: tokio::sync::Mutex<Option<Table>>,
    pub(super) followers: Mutex<Vec<Follower>>,
    /// Which seats other instances have connected and how many watch there (PostgreSQL only),
    /// by instance.
    pub(super) remote_online: Mutex<HashMap<String, ([bool; 2], u32)>>,
    /// When a live clock of the loaded game runs out next (`i64::MAX`: none), for the timer.
    pub(super) deadline: AtomicI64,
    /// Since when each taken seat has been disconnected (a live game's grace period).
    pub(super) away_since: Mutex<[Option<i64>; 2]>,
    /// The other instances' announcements about this game not yet handled (PostgreSQL only).
    pub(super) inbox: Mutex<Inbox>,
}

pub(super) type TableGuard<'a> = MappedMutexGuard<'a, Table>;

impl Room {
    pub(super) fn local_online(&self) -> [bool; 2] {
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
    pub(super) fn local_watchers(&self) -> u32 {
        self.followers.lock().expect("followers lock").iter().filter(|f| f.seat.is_none()).count() as u32
    }

    pub(super) fn watchers(&self) -> u32 {
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
    pub(super) fn send_to_seat(&self, seat: Side, message: impl Fn(&str) -> ServerMessage) {
        let followers = self.followers.lock().expect("followers lock").clone();
        for f in followers.iter().filter(|f| f.seat == Some(seat)) {
            if let Some(token) = &f.token {
                f.out.send(Out::Text(message(token).to_json()));
            }
        }
    }

    pub(super) fn send_each(&self, message: impl Fn(Option<Side>) -> Option<ServerMessage>) {
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

    pub(super) fn send_others(&self, conn: u64, message: &ServerMessage) {
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
