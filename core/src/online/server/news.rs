//! The other instances' announcements (PostgreSQL's NOTIFY), handled off the LISTEN loop: each
//! game's in order by one task at a time, a decision taken from the announcement that carries it,
//! and the store read back only when an announcement cannot tell (once for all that waited).

use super::announcements::{News, carried_decision, remote_presence};
use super::hub::Hub;
use super::room::Room;
use std::sync::Arc;

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
