//! The other instances' announcements (PostgreSQL's NOTIFY), handled off the LISTEN loop: each
//! game's in order by one task at a time, a decision taken from the announcement that carries it,
//! and the store read back only when an announcement cannot tell (once for all that waited).

use super::hub::{Hub, Room};
use crate::rules::Side;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// PostgreSQL refuses a NOTIFY payload of this many bytes or more (as it is built by default).
const NOTIFY_PAYLOAD_LIMIT: usize = 8000;

/// A decision as stored, in the announcement of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct StoredDecision {
    pub ply: u32,
    pub seat: Side,
    pub decision: String,
    /// When it was stored (server milliseconds): the clocks follow from it.
    pub at: i64,
}

/// The announcement of a decision just stored: with the decision when it fits in a NOTIFY, else
/// naming only the game (the other instances then read it from the store).
pub(super) fn decision_announcement(instance: &str, game_id: &str, stored: StoredDecision) -> serde_json::Value {
    let carried = serde_json::json!({ "i": instance, "g": game_id, "moved": stored });
    if carried.to_string().len() < NOTIFY_PAYLOAD_LIMIT {
        carried
    } else {
        serde_json::json!({ "i": instance, "g": game_id })
    }
}

/// The decision an announcement carries, if it carries one.
fn carried_decision(announcement: &serde_json::Value) -> Option<StoredDecision> {
    serde_json::from_value(announcement.get("moved")?.clone()).ok()
}

/// Which seats an instance has connected to a game and how many watch it there, when the
/// announcement tells.
fn remote_presence(announcement: &serde_json::Value) -> Option<(&str, [bool; 2], u32)> {
    let flags = announcement["online"].as_array()?;
    let instance = announcement["i"].as_str()?;
    let online = [0, 1].map(|i| flags.get(i).and_then(|v| v.as_bool()).unwrap_or(false));
    Some((instance, online, announcement["w"].as_u64().unwrap_or(0) as u32))
}

/// What a game heard from the other instances that is not handled yet.
#[derive(Default)]
pub(super) struct Inbox {
    waiting: Vec<News>,
    /// A task is handling this game's news; it takes what arrives meanwhile before it ends.
    busy: bool,
}

enum News {
    /// An announcement about this game.
    Announced(serde_json::Value),
    /// Announcements may have been missed (the LISTEN connection was lost): read the game again.
    Missed,
}

impl Hub {
    /// Another instance announced a change to a game or the lobby. The LISTEN loop calls this for
    /// every announcement, so it only parses and hands on: whatever needs the store runs in a task
    /// of its own.
    pub fn on_announcement(self: &Arc<Self>, payload: &str) {
        let Ok(announcement) = serde_json::from_str::<serde_json::Value>(payload) else { return };
        if announcement["i"].as_str() == Some(self.instance.as_str()) {
            return;
        }
        self.on_lobby_announcement(&announcement);
        if let Some(player) = announcement["vacation"].as_str() {
            let (hub, player) = (self.clone(), player.to_string());
            tokio::spawn(async move { hub.vacations_changed(&player).await });
            return;
        }
        let Some(game) = announcement["g"].as_str() else { return };
        // A game not in memory is read from the store when someone opens it.
        let Some(room) = self.loaded_room(game) else { return };
        self.hand_on(room, News::Announced(announcement));
    }

    /// The LISTEN connection was lost and has been made again: what was announced meanwhile is
    /// gone, so the lobby and every game in memory are read again.
    pub fn after_missed_announcements(self: &Arc<Self>) {
        self.lobby.changed.notify_one();
        for room in self.loaded_rooms() {
            self.hand_on(room, News::Missed);
        }
    }

    /// Queues news for a game, starting its task unless one runs.
    fn hand_on(self: &Arc<Self>, room: Arc<Room>, news: News) {
        let idle = {
            let mut inbox = room.inbox.lock().expect("inbox lock");
            inbox.waiting.push(news);
            !std::mem::replace(&mut inbox.busy, true)
        };
        if idle {
            tokio::spawn(self.clone().catch_up(room));
        }
    }

    /// Handles a game's news until none waits, all that waits at a time.
    async fn catch_up(self: Arc<Self>, room: Arc<Room>) {
        loop {
            let batch = {
                let mut inbox = room.inbox.lock().expect("inbox lock");
                if inbox.waiting.is_empty() {
                    inbox.busy = false;
                    break;
                }
                std::mem::take(&mut inbox.waiting)
            };
            self.take_news(&room, batch).await;
        }
        // Its last follower may have left while this held the room.
        self.forget_if_unfollowed(&room);
    }

    /// Handles news in the order it came, holding the game.
    async fn take_news(&self, room: &Room, batch: Vec<News>) {
        let mut guard = room.table.lock().await;
        // Everything announced in this batch was stored before the batch was taken, so one read
        // of the store covers it all.
        let mut read = false;
        let mut presence_changed = false;
        for news in batch {
            let announcement = match news {
                News::Announced(announcement) => Some(announcement),
                News::Missed => None,
            };
            if let Some(announcement) = &announcement {
                if let Some((instance, online, watchers)) = remote_presence(announcement) {
                    room.set_remote_online(instance, online, watchers);
                    presence_changed = true;
                    continue;
                }
                if self.on_room_announcement(room, announcement).await {
                    continue;
                }
            }
            // A table not loaded is read whole when it is.
            let Some(table) = guard.as_mut() else { continue };
            if read {
                continue;
            }
            let next = table.next_ply();
            let caught_up = match announcement.as_ref().and_then(carried_decision) {
                // This instance has it already (read with an earlier change).
                Some(stored) if stored.ply < next => true,
                Some(stored) if stored.ply == next => {
                    self.replay_stored(room, table, next, vec![(stored.seat, stored.decision, stored.at)])
                }
                // No decision, or one after a gap (an announcement lost with the instance that
                // stored the change, or while the LISTEN connection was down): the store tells.
                _ => false,
            };
            if !caught_up {
                self.refresh_locked(room, table).await;
                read = true;
            }
        }
        if presence_changed && let Some(table) = guard.as_ref() {
            room.send_all(&room.presence(table));
            room.send_all(&room.players(table));
            self.note_presence(room, table);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(decision: String) -> StoredDecision {
        StoredDecision { ply: 7, seat: Side::Second, decision, at: 1_795_867_200_000 }
    }

    #[test]
    fn a_decision_travels_in_its_announcement() {
        let announcement = decision_announcement("me", "game", stored("c3-c4".into()));
        assert_eq!(announcement["g"], "game");
        let parsed: serde_json::Value = serde_json::from_str(&announcement.to_string()).unwrap();
        assert_eq!(carried_decision(&parsed), Some(stored("c3-c4".into())));
        assert_eq!(remote_presence(&parsed), None);
    }

    #[test]
    fn a_decision_too_long_for_a_notify_is_left_to_the_store() {
        let long = "x".repeat(NOTIFY_PAYLOAD_LIMIT);
        let announcement = decision_announcement("me", "game", stored(long));
        assert!(announcement.to_string().len() < NOTIFY_PAYLOAD_LIMIT);
        assert_eq!(announcement["g"], "game");
        assert_eq!(carried_decision(&announcement), None);
        // The longest that fits is carried.
        let bare = decision_announcement("me", "game", stored(String::new())).to_string().len();
        let fits = "x".repeat(NOTIFY_PAYLOAD_LIMIT - 1 - bare);
        assert_eq!(carried_decision(&decision_announcement("me", "game", stored(fits.clone()))), Some(stored(fits)));
    }

    #[test]
    fn presence_is_told_apart_from_changes() {
        let presence = serde_json::json!({ "i": "other", "g": "game", "online": [true, false], "w": 3 });
        assert_eq!(remote_presence(&presence), Some(("other", [true, false], 3)));
        assert_eq!(carried_decision(&presence), None);
        assert_eq!(remote_presence(&serde_json::json!({ "i": "other", "g": "game" })), None);
    }
}
