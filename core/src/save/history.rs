//! Finished games: every game that ended, kept in the store's `history/` folder (the newest few
//! hundred), with its result in words, players, date and move count, to list, replay and delete.
//!
//! Each entry is one JSON file: a summary (format, when the game finished, the result in words,
//! the move count) beside the whole [`GameRecord`]. The list reads the summaries without replaying
//! (hundreds of games list at once); opening one replays its record, so a damaged or hand-edited
//! entry is refused with a reason. A file that cannot be read is reported and left where it is,
//! never removed or written over, like the games in progress.
//!
//! Keys are `history/<finished ms, 13 digits>-<game>-<fingerprint>.json`: in key order oldest
//! first, and the fingerprint (of the game's options, start, seed, start time and decisions) makes
//! keeping the same finished game twice a no-op, while a game finished, taken back and finished
//! differently is a second entry.

use super::in_progress::{numbered_move_count, record_finished};
use super::store::{Store, StoreError};
use super::{GameRecord, Player, RECORD_FORMAT, RecordLoadError};
use crate::games::{DynGame, GameKind};
use crate::rules::{Outcome, Side, Status};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The store folder of finished games.
pub const HISTORY_FOLDER: &str = "history";

/// How many finished games are kept: past this, the games that finished longest ago go.
pub const KEEP_FINISHED: usize = 300;

/// The entry format this build writes; it reads this and every older version.
pub const HISTORY_FORMAT: u32 = 1;

/// Why a finished game could not be kept or opened.
#[derive(Debug, Error)]
pub enum HistoryError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the game's record does not replay: {0}")]
    Record(#[from] RecordLoadError),
    #[error("{key} is not a finished game of the history")]
    NotInHistory { key: String },
    #[error("the finished game {key} is no longer kept")]
    Missing { key: String },
    #[error("the finished game {key} is damaged: {reason}")]
    Damaged { key: String, reason: String },
}

/// One entry as it is stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Entry {
    format: u32,
    finished_unix_ms: u64,
    /// The result in words ("Black wins: White has no stones left").
    result: String,
    /// Moves as the game's record numbers them.
    moves: usize,
    record: GameRecord,
}

/// One finished game as the history list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// Its store key (`history/….json`).
    pub key: String,
    pub game: GameKind,
    /// Who played the first side and the second (the opponent is among them).
    pub players: [Player; 2],
    /// The result in words: "Black wins: White has no stones left", "Light wins: Dark resigned",
    /// "The turn limit was reached: a draw".
    pub result: String,
    /// Milliseconds since 1970 when the game finished (when it was kept).
    pub finished_unix_ms: u64,
    /// Moves as the game's record numbers them.
    pub moves: usize,
}

/// Keeps `record` if its game is finished (its result says so), as finished at `now_unix_ms`,
/// and returns its key; `None` for a game still going on. The record is replayed first (a record
/// that does not replay is refused, and nothing is written). Keeping the same finished game again
/// changes nothing. Past [`KEEP_FINISHED`] readable entries, those that finished longest ago go.
pub fn keep_finished(store: &mut Store, record: &GameRecord, now_unix_ms: u64) -> Result<Option<String>, HistoryError> {
    if !record_finished(record) {
        return Ok(None);
    }
    let final_position = record.replay(None)?;
    let fingerprint = format!("-{:016x}.json", fingerprint(record));
    let keys = store.list(HISTORY_FOLDER)?;
    if let Some(kept) = keys.iter().find(|k| k.ends_with(&fingerprint)) {
        return Ok(Some(kept.clone()));
    }
    let entry = Entry {
        format: HISTORY_FORMAT,
        finished_unix_ms: now_unix_ms,
        result: result_words(record, final_position.as_ref()),
        moves: numbered_move_count(record),
        record: record.clone(),
    };
    let key = format!("{HISTORY_FOLDER}/{now_unix_ms:013}-{}{fingerprint}", record.game.slug());
    // Compact JSON: hundreds of records share the browser's few megabytes of local storage.
    let text =
        serde_json::to_string(&entry).map_err(|e| StoreError::Write { name: key.clone(), reason: e.to_string() })?;
    store.write(&key, &text)?;
    if keys.len() + 1 > KEEP_FINISHED {
        drop_oldest(store)?;
    }
    Ok(Some(key))
}

/// Removes the readable entries beyond the newest [`KEEP_FINISHED`] (unreadable ones stay).
fn drop_oldest(store: &mut Store) -> Result<(), StoreError> {
    let (games, _) = list_finished(store)?;
    for old in games.iter().skip(KEEP_FINISHED) {
        store.remove(&old.key)?;
    }
    Ok(())
}

/// Every finished game kept, the one that finished last first, and a message for each entry that
/// could not be read (left where it is). Reads the summaries only: opening one replays it.
pub fn list_finished(store: &Store) -> Result<(Vec<FinishedGame>, Vec<String>), StoreError> {
    let mut games = Vec::new();
    let mut problems = Vec::new();
    for key in store.list(HISTORY_FOLDER)? {
        if !key.ends_with(".json") {
            continue;
        }
        match read_entry(store, &key) {
            Ok(entry) => games.push(FinishedGame {
                key,
                game: entry.record.game,
                players: entry.record.players,
                result: entry.result,
                finished_unix_ms: entry.finished_unix_ms,
                moves: entry.moves,
            }),
            Err(e) => problems.push(format!("{}: {e}", store.location_of(&key))),
        }
    }
    games.sort_by(|a, b| b.finished_unix_ms.cmp(&a.finished_unix_ms).then_with(|| b.key.cmp(&a.key)));
    Ok((games, problems))
}

/// The record of the finished game kept under `key`, replayed to check it still plays (open it in
/// the replay with `GameRecord::load`).
pub fn load_finished(store: &Store, key: &str) -> Result<GameRecord, HistoryError> {
    let entry = read_entry(store, key)?;
    entry.record.replay(None)?;
    Ok(entry.record)
}

/// Deletes the finished game kept under `key` (nothing happens if it is already gone).
pub fn delete_finished(store: &mut Store, key: &str) -> Result<(), HistoryError> {
    check_key(key)?;
    store.remove(key)?;
    Ok(())
}

fn check_key(key: &str) -> Result<(), HistoryError> {
    let inside = key.strip_prefix(HISTORY_FOLDER).and_then(|k| k.strip_prefix('/'));
    match inside {
        Some(name) if name.ends_with(".json") && !name.contains('/') && !name.starts_with('.') => Ok(()),
        _ => Err(HistoryError::NotInHistory { key: key.to_string() }),
    }
}

/// The entry under `key`, its format checked before anything else.
fn read_entry(store: &Store, key: &str) -> Result<Entry, HistoryError> {
    check_key(key)?;
    let text = store.read(key)?.ok_or_else(|| HistoryError::Missing { key: key.to_string() })?;
    let damaged = |reason: String| HistoryError::Damaged { key: key.to_string(), reason };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| damaged(format!("not JSON: {e}")))?;
    let format = value.get("format").and_then(serde_json::Value::as_u64);
    match format {
        None => return Err(damaged("it has no format version".to_string())),
        Some(f) if f > u64::from(HISTORY_FORMAT) => {
            return Err(damaged(format!("it was written by a newer Stoneyard (format {f})")));
        }
        Some(_) => {}
    }
    let entry: Entry = serde_json::from_value(value).map_err(|e| damaged(e.to_string()))?;
    if u64::from(entry.record.format) > u64::from(RECORD_FORMAT) {
        return Err(damaged(format!("its record was written by a newer Stoneyard (format {})", entry.record.format)));
    }
    Ok(entry)
}

/// The result in words: who won and why ("Black wins: White has no stones left"), a resignation
/// ("Light wins: Dark resigned"), or why it was drawn.
fn result_words(record: &GameRecord, final_position: &dyn DynGame) -> String {
    let kind = record.game;
    let name = |side: Side| {
        let name = kind.side_name(side);
        name.split(" (").next().unwrap_or(name).to_string()
    };
    let result = record.result.as_ref();
    let resigned = result.and_then(|r| r.get("reason")).and_then(|r| r.as_str()) == Some("resignation");
    let winner = result
        .and_then(|r| r.get("winner"))
        .and_then(|w| w.as_str())
        .and_then(|w| Side::BOTH.into_iter().find(|&s| final_position.side_name(s) == w));
    if resigned && let Some(winner) = winner {
        return format!("{} wins: {} resigned", name(winner), name(winner.opponent()));
    }
    let reason = final_position.end_reason();
    match (final_position.status(), reason) {
        (Status::Over(Outcome::Winner(w)), Some(reason)) => format!("{} wins: {reason}", name(w)),
        (Status::Over(Outcome::Winner(w)), None) => format!("{} wins", name(w)),
        (Status::Over(Outcome::Draw), Some(reason)) if reason.contains("draw") => reason,
        (Status::Over(Outcome::Draw), Some(reason)) => format!("Draw: {reason}"),
        (Status::Over(Outcome::Draw), None) => "Draw".to_string(),
        // The record says it ended although its moves do not end it (an older build's result).
        (Status::Ongoing, _) => match winner {
            Some(w) => format!("{} wins", name(w)),
            None => "Finished".to_string(),
        },
    }
}

/// FNV-1a over what makes a game this game: game, options, start, seed, start time, decisions.
fn fingerprint(record: &GameRecord) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes.iter().chain(&[0xff]) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(record.game.slug().as_bytes());
    for (k, v) in &record.options {
        eat(k.as_bytes());
        eat(v.as_bytes());
    }
    eat(record.start.as_deref().unwrap_or("").as_bytes());
    eat(&record.seed.to_le_bytes());
    eat(&record.started_unix.to_le_bytes());
    for m in &record.moves {
        eat(m.decision.as_bytes());
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::open;
    use crate::rules::{Side, ToMove};
    use crate::save::RecordedMove;

    /// A game of `kind` (quick options) played by first legal decisions: to its end when it ends
    /// within `limit` decisions, else resigned by the side to act.
    fn finished(kind: &str, limit: usize, started: u64) -> GameRecord {
        let kind = GameKind::named(kind);
        let mut game = open(kind, &kind.quick_pairs(), None).unwrap();
        let start = game.clone_box();
        let mut played = Vec::new();
        for i in 0..limit {
            let Some(d) = Side::BOTH.into_iter().find_map(|s| game.legal_decisions(s).first().cloned()) else { break };
            game.play_decision(&d).unwrap();
            played.push(RecordedMove { decision: d, at_ms: 1000 * i as u64 });
        }
        let mut r = GameRecord::new(start.as_ref(), [Player::Human, Player::Computer("medium".into())], 1, started);
        r.moves = played;
        r.result = Some(match game.status() {
            Status::Over(_) => crate::games::status_json(game.as_ref()),
            Status::Ongoing => {
                let loser = match game.to_move() {
                    Some(ToMove::One(side)) => side,
                    _ => Side::First,
                };
                serde_json::json!({ "winner": game.side_name(loser.opponent()), "reason": "resignation" })
            }
        });
        r
    }

    #[test]
    fn every_finished_game_is_kept_and_listed_newest_first() {
        let mut store = Store::memory();
        for (i, kind) in GameKind::all().enumerate() {
            let r = finished(kind.slug(), 40, 100 + i as u64);
            let key = keep_finished(&mut store, &r, 1_000 + i as u64).unwrap().expect("a finished game is kept");
            assert!(key.starts_with("history/"), "{key}");
        }
        let (games, problems) = list_finished(&store).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(games.len(), GameKind::all().count());
        assert_eq!(games[0].game, GameKind::all().last().unwrap(), "the newest first");
        assert!(games.windows(2).all(|w| w[0].finished_unix_ms > w[1].finished_unix_ms));
        for g in &games {
            assert_eq!(g.players, [Player::Human, Player::Computer("medium".into())]);
            assert!(g.moves > 0 && g.moves <= 40, "{g:?}");
            assert!(g.result.contains("wins") || g.result.contains("draw"), "{g:?}");
            // Each reads back as a record that replays to its end.
            let record = load_finished(&store, &g.key).unwrap();
            let replayed = record.load().unwrap();
            assert_eq!(replayed.len(), record.moves.len());
            assert_eq!(record.game, g.game);
        }
    }

    #[test]
    fn the_result_says_who_won_and_why() {
        // Red Stone on 5×5 played by first legal stones ends by the rules within 40 decisions.
        let ended = finished("red-stone", 200, 1);
        let position = ended.replay(None).unwrap();
        assert!(position.status().is_over(), "the test game should end by the rules");
        let mut store = Store::memory();
        let key = keep_finished(&mut store, &ended, 5).unwrap().unwrap();
        let listed = list_finished(&store).unwrap().0;
        let reason = position.end_reason().unwrap();
        assert!(listed[0].result.ends_with(&reason), "{} / {reason}", listed[0].result);
        assert!(listed[0].result.starts_with("Black wins: ") || listed[0].result.starts_with("White wins: "));
        assert_eq!(listed[0].key, key);
        // A resignation says who resigned.
        let resigned = finished("gravel", 3, 2);
        keep_finished(&mut store, &resigned, 6).unwrap();
        let listed = list_finished(&store).unwrap().0;
        assert_eq!(listed[0].result, "Light wins: Dark resigned");
    }

    #[test]
    fn a_game_still_going_on_is_not_kept() {
        let mut store = Store::memory();
        let mut r = finished("inchworm", 3, 1);
        r.result = Some(serde_json::json!("ongoing"));
        assert_eq!(keep_finished(&mut store, &r, 1).unwrap(), None);
        r.result = None;
        assert_eq!(keep_finished(&mut store, &r, 1).unwrap(), None);
        assert!(store.list(HISTORY_FOLDER).unwrap().is_empty());
    }

    #[test]
    fn keeping_the_same_game_twice_keeps_it_once_and_another_ending_is_another_game() {
        let mut store = Store::memory();
        let r = finished("throngs", 6, 7);
        let first = keep_finished(&mut store, &r, 10).unwrap();
        let again = keep_finished(&mut store, &r, 20).unwrap();
        assert_eq!(first, again);
        assert_eq!(list_finished(&store).unwrap().0.len(), 1);
        // The same start with one decision fewer: another finished game.
        let shorter = finished("throngs", 5, 7);
        keep_finished(&mut store, &shorter, 30).unwrap();
        assert_eq!(list_finished(&store).unwrap().0.len(), 2);
    }

    #[test]
    fn only_the_newest_few_hundred_stay() {
        let mut store = Store::memory();
        for i in 0..KEEP_FINISHED + 3 {
            let r = finished("red-stone", 1, 1_000 + i as u64);
            keep_finished(&mut store, &r, 1_000_000 + i as u64).unwrap();
        }
        let (games, _) = list_finished(&store).unwrap();
        assert_eq!(games.len(), KEEP_FINISHED);
        assert!(games.iter().all(|g| g.finished_unix_ms >= 1_000_003), "the three that finished first went");
    }

    #[test]
    fn a_finished_game_can_be_deleted() {
        let mut store = Store::memory();
        let a = keep_finished(&mut store, &finished("red-stone", 2, 1), 1).unwrap().unwrap();
        let b = keep_finished(&mut store, &finished("inchworm", 2, 2), 2).unwrap().unwrap();
        delete_finished(&mut store, &a).unwrap();
        let keys: Vec<String> = list_finished(&store).unwrap().0.into_iter().map(|g| g.key).collect();
        assert_eq!(keys, vec![b]);
        assert!(matches!(load_finished(&store, &a), Err(HistoryError::Missing { .. })));
        assert!(matches!(delete_finished(&mut store, "settings.json"), Err(HistoryError::NotInHistory { .. })));
        assert!(matches!(
            delete_finished(&mut store, "history/../settings.json"),
            Err(HistoryError::NotInHistory { .. })
        ));
    }

    #[test]
    fn a_damaged_entry_is_reported_and_left_alone() {
        let mut store = Store::memory();
        keep_finished(&mut store, &finished("red-stone", 2, 1), 1).unwrap();
        store.write("history/0000000000001-red-stone-bad.json", "{ not json").unwrap();
        store.write("history/0000000000002-red-stone-future.json", "{\"format\": 9}").unwrap();
        let (games, problems) = list_finished(&store).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("newer Stoneyard")), "{problems:?}");
        assert_eq!(store.read("history/0000000000001-red-stone-bad.json").unwrap().as_deref(), Some("{ not json"));
        // An entry whose moves no longer play lists, but does not open.
        let mut broken = finished("red-stone", 3, 3);
        let key = keep_finished(&mut store, &broken, 3).unwrap().unwrap();
        let text = store.read(&key).unwrap().unwrap();
        broken.moves[1].decision = broken.moves[0].decision.clone();
        let mut entry: Entry = serde_json::from_str(&text).unwrap();
        entry.record = broken;
        store.write(&key, &serde_json::to_string(&entry).unwrap()).unwrap();
        assert!(list_finished(&store).unwrap().0.iter().any(|g| g.key == key));
        assert!(matches!(load_finished(&store, &key), Err(HistoryError::Record(_))));
        // Trimming never removes what it cannot read.
        for i in 0..KEEP_FINISHED + 1 {
            keep_finished(&mut store, &finished("red-stone", 1, 10_000 + i as u64), 10_000 + i as u64).unwrap();
        }
        assert_eq!(store.read("history/0000000000001-red-stone-bad.json").unwrap().as_deref(), Some("{ not json"));
    }
}
