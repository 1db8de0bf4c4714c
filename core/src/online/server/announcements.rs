//! What the instances that share a PostgreSQL store announce to each other about a game (a
//! decision just stored, carried when it fits in a NOTIFY; who is connected there), and a game's
//! inbox of announcements not handled yet: the parts of the news the hub's core holds, apart from
//! their handling in `news`.

use crate::rules::Side;
use serde::{Deserialize, Serialize};

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
pub(super) fn carried_decision(announcement: &serde_json::Value) -> Option<StoredDecision> {
    serde_json::from_value(announcement.get("moved")?.clone()).ok()
}

/// Which seats an instance has connected to a game and how many watch it there, when the
/// announcement tells.
pub(super) fn remote_presence(announcement: &serde_json::Value) -> Option<(&str, [bool; 2], u32)> {
    let flags = announcement["online"].as_array()?;
    let instance = announcement["i"].as_str()?;
    let online = [0, 1].map(|i| flags.get(i).and_then(|v| v.as_bool()).unwrap_or(false));
    Some((instance, online, announcement["w"].as_u64().unwrap_or(0) as u32))
}

/// What a game heard from the other instances that is not handled yet.
#[derive(Default)]
pub(super) struct Inbox {
    pub(super) waiting: Vec<News>,
    /// A task is handling this game's news; it takes what arrives meanwhile before it ends.
    pub(super) busy: bool,
}

pub(super) enum News {
    /// An announcement about this game.
    Announced(serde_json::Value),
    /// Announcements may have been missed (the LISTEN connection was lost): read the game again.
    Missed,
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
