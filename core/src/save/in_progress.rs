//! Games in progress: every unfinished game kept in the store's `games/` folder, one file per game,
//! the newest few dozen, listed under Continue; a finished game leaves the list by itself.
//!
//! A game's file is a journal, so that keeping a decision costs the same at move 3,000 as at move
//! 3: its first line is the game's record as it was first kept (compact JSON), and each later
//! line says what happened since (a decision, decisions taken back, when it was last played).
//! Files of earlier versions (one pretty-printed record) read as before.

use super::store::{Store, StoreError};
use super::{GameRecord, Player, RecordedMove};
use crate::games::GameKind;
use serde::{Deserialize, Serialize};

/// The store folder of games in progress.
pub const GAMES_FOLDER: &str = "games";

/// How many games in progress are kept: the oldest beyond this are dropped.
pub const KEEP_GAMES: usize = 36;

/// The single slot of earlier versions, taken into the folder on first start.
pub const OLD_AUTOSAVE: &str = "autosave.json";

/// One game in progress as the Continue list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameInProgress {
    /// Its store key (`games/….json`).
    pub key: String,
    pub game: GameKind,
    pub players: [Player; 2],
    /// Its moves as its record numbers them.
    pub moves: usize,
    /// Milliseconds since 1970 when it was last played.
    pub played_unix_ms: u64,
}

/// The result of a record says the game ended (by the rules or a resignation).
pub fn record_finished(record: &GameRecord) -> bool {
    record.result.as_ref().is_some_and(|r| r != "ongoing")
}

/// How many moves the record of the game numbers (Gravel's "1. t ; t" is one, a Throngs turn of
/// two parts is one): the count the move list, the replay and the saves list all show.
pub fn numbered_move_count(record: &GameRecord) -> usize {
    let decisions: Vec<String> = record.moves.iter().map(|m| m.decision.clone()).collect();
    let Ok(start) = record.replay(Some(0)) else { return decisions.len() };
    match start.record_tokens(&decisions) {
        Ok(tokens) => {
            let tokens: Vec<String> = tokens.moves.into_iter().map(|m| m.token).collect();
            record.game.numbered_moves(&tokens).len()
        }
        Err(_) => decisions.len(),
    }
}

/// Milliseconds since 1970 when the game was last played: when it was last kept, or (for a record
/// never kept) its start plus its last decision's time.
fn played_unix_ms(record: &GameRecord) -> u64 {
    if record.saved_unix_ms > 0 {
        return record.saved_unix_ms;
    }
    let last_ms = record.moves.last().map_or(0, |m| m.at_ms);
    record.started_unix.saturating_mul(1000).saturating_add(last_ms)
}

/// A fresh key for a game that has none yet: its start time and game, numbered past any key in use.
pub fn new_game_key(store: &Store, record: &GameRecord) -> Result<String, StoreError> {
    let taken = store.list(GAMES_FOLDER)?;
    let base = format!("{GAMES_FOLDER}/{}-{}", record.started_unix, record.game.slug());
    let key = (1..)
        .map(|i| if i == 1 { format!("{base}.json") } else { format!("{base}-{i}.json") })
        .find(|k| !taken.contains(k))
        .expect("a free key");
    Ok(key)
}

/// One line of a game's journal after the first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum JournalLine {
    /// A decision was made.
    Move(RecordedMove),
    /// Decisions were taken back: the game keeps its first this many.
    Keep(usize),
    /// When the game was last played (milliseconds since 1970).
    Saved(u64),
}

/// Keeps `record` under `key`, played at `now_unix_ms`: written whole while the game goes on
/// (later decisions are added by [`add_to_game`]), removed once it is finished (a finished game
/// is never offered as Continue). Past [`KEEP_GAMES`], the games played longest ago go.
pub fn keep_game(store: &mut Store, key: &str, record: &GameRecord, now_unix_ms: u64) -> Result<(), StoreError> {
    if record_finished(record) {
        return store.remove(key);
    }
    let mut kept = record.clone();
    kept.saved_unix_ms = now_unix_ms;
    let first_line = serde_json::to_string(&kept).expect("records serialise");
    store.write(key, &(first_line + "\n"))?;
    // Reading every game is only worth it when there are too many (this runs after each decision).
    if store.list(GAMES_FOLDER)?.len() > KEEP_GAMES {
        let (games, _) = list_games(store)?;
        for old in games.iter().skip(KEEP_GAMES) {
            store.remove(&old.key)?;
        }
    }
    Ok(())
}

/// Adds to the game kept under `key` (by [`keep_game`]) what happened since: of the decisions
/// it had, the first `kept` stay (the others were taken back), then `new` follow; played at
/// `now_unix_ms`. Only these lines are written, whatever the game's length.
pub fn add_to_game(
    store: &mut Store,
    key: &str,
    had: usize,
    kept: usize,
    new: &[RecordedMove],
    now_unix_ms: u64,
) -> Result<(), StoreError> {
    let lines = (kept < had)
        .then_some(JournalLine::Keep(kept))
        .into_iter()
        .chain(new.iter().cloned().map(JournalLine::Move))
        .chain([JournalLine::Saved(now_unix_ms)]);
    let text: String =
        lines.map(|line| serde_json::to_string(&line).expect("journal lines serialise") + "\n").collect();
    store.append(key, &text)
}

/// The record a game's file holds: a journal (the record, then a line for each change) or an
/// earlier version's single record. A last line cut short (the power went during a write) is
/// left out; any other line that cannot be read makes the file damaged.
fn read_kept(text: &str) -> Result<GameRecord, String> {
    let Some((first, rest)) = text.split_once('\n') else {
        return GameRecord::from_json(text).map_err(|e| e.to_string());
    };
    let Ok(mut record) = GameRecord::from_json(first) else {
        return GameRecord::from_json(text).map_err(|e| e.to_string());
    };
    for (i, line) in rest.split_inclusive('\n').enumerate() {
        let Some(line) = line.strip_suffix('\n') else { break };
        let entry: JournalLine =
            serde_json::from_str(line).map_err(|e| format!("line {} of the game cannot be read: {e}", i + 2))?;
        match entry {
            JournalLine::Move(m) => record.moves.push(m),
            JournalLine::Keep(n) => record.moves.truncate(n),
            JournalLine::Saved(ms) => record.saved_unix_ms = ms,
        }
    }
    Ok(record)
}

/// The record kept under `key`, replayed to check it still plays.
pub fn load_game(store: &Store, key: &str) -> Result<GameRecord, String> {
    let text = store.read(key).map_err(|e| e.to_string())?.ok_or_else(|| "this game is no longer kept".to_string())?;
    let record = read_kept(&text)?;
    record.replay(None).map_err(|e| e.to_string())?;
    Ok(record)
}

/// Every unfinished game, last played first, and a message for each file that could not be read
/// (left where it is: a damaged file is never removed or written over).
pub fn list_games(store: &Store) -> Result<(Vec<GameInProgress>, Vec<String>), StoreError> {
    let mut games = Vec::new();
    let mut problems = Vec::new();
    for key in store.list(GAMES_FOLDER)? {
        if !key.ends_with(".json") {
            continue;
        }
        match load_game(store, &key) {
            Ok(record) if !record_finished(&record) => games.push(GameInProgress {
                key,
                game: record.game,
                players: record.players.clone(),
                moves: numbered_move_count(&record),
                played_unix_ms: played_unix_ms(&record),
            }),
            Ok(_) => {}
            Err(e) => problems.push(format!("{}: {e}", store.location_of(&key))),
        }
    }
    games.sort_by(|a, b| b.played_unix_ms.cmp(&a.played_unix_ms).then_with(|| b.key.cmp(&a.key)));
    Ok((games, problems))
}

/// Moves the single autosave of earlier versions into the folder when it holds an unfinished game
/// (a damaged one is left where it is, for the player to inspect).
pub fn adopt_old_autosave(store: &mut Store) -> Result<(), StoreError> {
    let Some(text) = store.read(OLD_AUTOSAVE)? else { return Ok(()) };
    let Ok(record) = GameRecord::from_json(&text) else { return Ok(()) };
    if !record_finished(&record) && record.replay(None).is_ok() {
        let key = new_game_key(store, &record)?;
        store.write(&key, &text)?;
    }
    store.remove(OLD_AUTOSAVE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::open;
    use crate::rules::Side;
    use crate::save::RecordedMove;

    fn record(kind: &str, moves: usize, started: u64) -> GameRecord {
        let kind = GameKind::named(kind);
        let mut game = open(kind, &kind.quick_pairs(), None).unwrap();
        let start = game.clone_box();
        let mut played = Vec::new();
        for i in 0..moves {
            let d = Side::BOTH.into_iter().find_map(|s| game.legal_decisions(s).first().cloned()).unwrap();
            game.play_decision(&d).unwrap();
            played.push(RecordedMove { decision: d, at_ms: 1000 * i as u64 });
        }
        let mut r = GameRecord::new(start.as_ref(), [Player::Human, Player::Computer("medium".into())], 1, started);
        r.moves = played;
        r.result = Some(crate::games::status_json(game.as_ref()));
        r
    }

    #[test]
    fn every_unfinished_game_is_kept_and_listed_last_played_first() {
        let mut store = Store::memory();
        for (i, kind) in GameKind::all().enumerate() {
            let r = record(kind.slug(), 3, 100 + i as u64);
            let key = new_game_key(&store, &r).unwrap();
            keep_game(&mut store, &key, &r, r.started_unix * 1000).unwrap();
        }
        let (games, problems) = list_games(&store).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(games.len(), GameKind::all().count());
        assert_eq!(games[0].game, GameKind::all().last().unwrap(), "the newest first");
        // Playing the oldest game again puts it first.
        let oldest = games.last().unwrap().clone();
        let record = load_game(&store, &oldest.key).unwrap();
        keep_game(&mut store, &oldest.key, &record, 1_000_000).unwrap();
        assert_eq!(list_games(&store).unwrap().0[0].key, oldest.key);
        for g in &games {
            assert_eq!(load_game(&store, &g.key).unwrap().moves.len(), 3);
        }
    }

    #[test]
    fn a_decision_adds_a_line_of_the_same_size_at_move_3_and_at_move_300() {
        let mut store = Store::memory();
        let full = record("gravel", 300, 7);
        let mut r = full.clone();
        r.moves.truncate(2);
        let key = new_game_key(&store, &r).unwrap();
        keep_game(&mut store, &key, &r, 1).unwrap();
        let written = |store: &mut Store, had: usize, kept: usize, new: &[RecordedMove]| {
            let before = super::super::store::bytes_written_on_this_thread();
            add_to_game(store, &key, had, kept, new, 1_000_000).unwrap();
            super::super::store::bytes_written_on_this_thread() - before
        };
        let at_move_3 = written(&mut store, 2, 2, &full.moves[2..3]);
        for n in 3..299 {
            written(&mut store, n, n, &full.moves[n..n + 1]);
        }
        let at_move_300 = written(&mut store, 299, 299, &full.moves[299..300]);
        let (short, long) = (full.moves[2].decision.len(), full.moves[299].decision.len());
        let digits = |ms: u64| ms.to_string().len();
        let times = digits(full.moves[2].at_ms).abs_diff(digits(full.moves[299].at_ms));
        assert_eq!(
            at_move_300.abs_diff(at_move_3) as usize,
            short.abs_diff(long) + times,
            "{at_move_3} and {at_move_300}"
        );
        let kept = load_game(&store, &key).unwrap();
        assert_eq!(kept.moves, full.moves);
        assert_eq!(kept.saved_unix_ms, 1_000_000);
        // Taking two back and playing another is two lines more, and reads as that game.
        written(&mut store, 300, 298, &full.moves[298..299]);
        assert_eq!(load_game(&store, &key).unwrap().moves, full.moves[..299]);
    }

    #[test]
    fn a_last_line_cut_short_is_left_out_and_a_damaged_one_refused() {
        let mut store = Store::memory();
        let full = record("red-stone", 3, 7);
        let mut r = full.clone();
        r.moves.truncate(2);
        let key = new_game_key(&store, &r).unwrap();
        keep_game(&mut store, &key, &r, 1).unwrap();
        add_to_game(&mut store, &key, 2, 2, &full.moves[2..], 2).unwrap();
        let whole = store.read(&key).unwrap().unwrap();
        store.write(&key, &whole[..whole.len() - 3]).unwrap();
        let kept = load_game(&store, &key).unwrap();
        assert_eq!(kept.moves, full.moves, "the cut line was the time of the last save");
        store.write(&key, &format!("{whole}{{\"move\": 12}}\n")).unwrap();
        let err = load_game(&store, &key).unwrap_err();
        assert!(err.contains("line 4"), "{err}");
        // An earlier version's file: one record, pretty-printed.
        store.write(&key, &full.to_json()).unwrap();
        assert_eq!(load_game(&store, &key).unwrap().moves, full.moves);
    }

    #[test]
    fn two_games_started_in_the_same_second_get_two_keys() {
        let mut store = Store::memory();
        let r = record("red-stone", 1, 5);
        let first = new_game_key(&store, &r).unwrap();
        keep_game(&mut store, &first, &r, 1).unwrap();
        let second = new_game_key(&store, &r).unwrap();
        assert_ne!(first, second);
    }

    #[test]
    fn a_finished_game_leaves_the_list() {
        let mut store = Store::memory();
        let mut r = record("red-stone", 2, 5);
        let key = new_game_key(&store, &r).unwrap();
        keep_game(&mut store, &key, &r, r.started_unix * 1000).unwrap();
        r.result = Some(serde_json::json!({"winner": "black", "reason": "resignation"}));
        keep_game(&mut store, &key, &r, r.started_unix * 1000).unwrap();
        assert!(list_games(&store).unwrap().0.is_empty());
        assert_eq!(store.read(&key).unwrap(), None);
    }

    #[test]
    fn only_the_newest_few_dozen_stay() {
        let mut store = Store::memory();
        for i in 0..KEEP_GAMES + 3 {
            let r = record("red-stone", 1, 1000 + i as u64);
            let key = new_game_key(&store, &r).unwrap();
            keep_game(&mut store, &key, &r, r.started_unix * 1000).unwrap();
        }
        let (games, _) = list_games(&store).unwrap();
        assert_eq!(games.len(), KEEP_GAMES);
        assert!(games.iter().all(|g| g.played_unix_ms >= 1_003_000), "the three played longest ago went");
    }

    #[test]
    fn a_damaged_file_is_reported_and_left_alone() {
        let mut store = Store::memory();
        store.write("games/1-red-stone.json", "{ not json").unwrap();
        let (games, problems) = list_games(&store).unwrap();
        assert!(games.is_empty());
        assert_eq!(problems.len(), 1);
        assert_eq!(store.read("games/1-red-stone.json").unwrap().as_deref(), Some("{ not json"));
    }

    #[test]
    fn the_old_single_autosave_is_adopted() {
        let mut store = Store::memory();
        store.write(OLD_AUTOSAVE, &record("inchworm", 2, 9).to_json()).unwrap();
        adopt_old_autosave(&mut store).unwrap();
        assert_eq!(store.read(OLD_AUTOSAVE).unwrap(), None);
        let (games, _) = list_games(&store).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].game, GameKind::named("inchworm"));
    }

    #[test]
    fn moves_are_counted_as_the_record_numbers_them() {
        // Gravel's record writes a turn of several actions as one token, both sides' on one line.
        let r = record("gravel", 12, 1);
        let count = numbered_move_count(&r);
        assert!(count > 0 && count < 12, "{count}");
        let r = record("red-stone", 4, 1);
        assert_eq!(numbered_move_count(&r), 4);
    }
}
