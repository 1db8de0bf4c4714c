//! Named saves: a game record kept under a name the player chose, listed newest first, loaded
//! and deleted by that name. Files live in the store's `saves/` folder.

use super::store::{Store, StoreError};
use super::{GameRecord, RecordLoadError};
use crate::games::GameKind;
use thiserror::Error;

/// The store folder of named saves.
pub const SAVES_FOLDER: &str = "saves";

/// The longest save name, in characters.
pub const MAX_NAME: usize = 60;

#[derive(Debug, Error)]
pub enum SaveError {
    #[error("a save needs a name")]
    EmptyName,
    #[error("a save name has at most {MAX_NAME} characters")]
    NameTooLong,
    #[error("'{0}' cannot be in a save name: use letters, digits, spaces and - _ . ( )")]
    BadCharacter(char),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the save '{name}' is damaged: {source}")]
    Damaged { name: String, source: RecordLoadError },
    #[error("there is no save named '{0}'")]
    Missing(String),
}

/// One named save as the list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveEntry {
    pub name: String,
    pub game: GameKind,
    pub moves: usize,
    pub started_unix: u64,
    /// The game ended (the result is not "ongoing").
    pub finished: bool,
}

/// The store key of a save name, after checking the name.
pub fn save_key(name: &str) -> Result<String, SaveError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(SaveError::EmptyName);
    }
    if name.chars().count() > MAX_NAME {
        return Err(SaveError::NameTooLong);
    }
    // Names are file names: no separators, no leading dot, nothing a file system could misread.
    if let Some(c) = name.chars().find(|c| !(c.is_alphanumeric() || " -_.()".contains(*c))) {
        return Err(SaveError::BadCharacter(c));
    }
    if name.starts_with('.') {
        return Err(SaveError::BadCharacter('.'));
    }
    Ok(format!("{SAVES_FOLDER}/{name}.json"))
}

/// Saves `record` under `name`, replacing a save of the same name.
pub fn save_named(store: &mut Store, name: &str, record: &GameRecord) -> Result<(), SaveError> {
    let key = save_key(name)?;
    store.write(&key, &record.to_json())?;
    Ok(())
}

/// The record saved under `name`.
pub fn load_named(store: &Store, name: &str) -> Result<GameRecord, SaveError> {
    let key = save_key(name)?;
    let text = store.read(&key)?.ok_or_else(|| SaveError::Missing(name.to_string()))?;
    GameRecord::from_json(&text).map_err(|source| SaveError::Damaged { name: name.to_string(), source })
}

/// Deletes the save `name`.
pub fn delete_named(store: &mut Store, name: &str) -> Result<(), SaveError> {
    let key = save_key(name)?;
    store.remove(&key)?;
    Ok(())
}

/// Every readable save, newest first, and a message for each one that could not be read.
pub fn list_saves(store: &Store) -> Result<(Vec<SaveEntry>, Vec<String>), SaveError> {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    for key in store.list(SAVES_FOLDER)? {
        let Some(name) = key.strip_prefix("saves/").and_then(|k| k.strip_suffix(".json")) else { continue };
        match load_named(store, name) {
            Ok(record) => entries.push(SaveEntry {
                name: name.to_string(),
                game: record.game,
                moves: super::numbered_move_count(&record),
                started_unix: record.started_unix,
                finished: record.result.as_ref().is_some_and(|r| r != "ongoing"),
            }),
            Err(e) => problems.push(e.to_string()),
        }
    }
    entries.sort_by(|a, b| b.started_unix.cmp(&a.started_unix).then_with(|| a.name.cmp(&b.name)));
    Ok((entries, problems))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::open;
    use crate::save::Player;

    fn record(moves: &[&str], started: u64) -> GameRecord {
        let mut game = open(GameKind::named("red-stone"), &[("size".into(), "5".into())], None).unwrap();
        let start = game.clone_box();
        for m in moves {
            game.play_decision(m).unwrap();
        }
        let mut r = GameRecord::new(start.as_ref(), [Player::Human, Player::Human], 7, started);
        r.moves = moves.iter().map(|m| crate::save::RecordedMove { decision: m.to_string(), at_ms: 0 }).collect();
        r.result = Some(crate::games::status_json(game.as_ref()));
        r
    }

    #[test]
    fn saves_round_trip_list_newest_first_and_delete() {
        let mut store = Store::memory();
        save_named(&mut store, "Evening game", &record(&["C3", "A1"], 100)).unwrap();
        save_named(&mut store, "Morning (2)", &record(&["C3"], 200)).unwrap();
        let (list, problems) = list_saves(&store).unwrap();
        assert!(problems.is_empty());
        assert_eq!(list.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["Morning (2)", "Evening game"]);
        assert_eq!(list[1].moves, 2);
        assert!(!list[1].finished);
        assert_eq!(load_named(&store, "Evening game").unwrap(), record(&["C3", "A1"], 100));
        delete_named(&mut store, "Evening game").unwrap();
        assert!(matches!(load_named(&store, "Evening game"), Err(SaveError::Missing(_))));
        assert_eq!(list_saves(&store).unwrap().0.len(), 1);
    }

    #[test]
    fn bad_names_are_refused_with_a_reason() {
        assert!(matches!(save_key("   "), Err(SaveError::EmptyName)));
        assert!(matches!(save_key("../../etc/passwd"), Err(SaveError::BadCharacter('/'))));
        assert!(matches!(save_key(".hidden"), Err(SaveError::BadCharacter('.'))));
        assert!(matches!(save_key(&"x".repeat(61)), Err(SaveError::NameTooLong)));
        assert_eq!(save_key("  Game 1 ").unwrap(), "saves/Game 1.json");
    }

    #[test]
    fn a_damaged_save_is_reported_and_the_others_still_listed() {
        let mut store = Store::memory();
        save_named(&mut store, "good", &record(&["C3"], 1)).unwrap();
        store.write("saves/bad.json", "{ \"format\": 1, \"game\": ").unwrap();
        let (list, problems) = list_saves(&store).unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("'bad' is damaged"), "{}", problems[0]);
    }
}
