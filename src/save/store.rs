//! Where files live: the platform's data directory on native, the page's localStorage in the
//! browser, memory in tests. Names may have one folder (`saves/x.json`). Writes are atomic: a
//! temporary file, then a rename (localStorage replaces a value in one step by itself).

use std::collections::BTreeMap;
use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot read {name}: {reason}")]
    Read { name: String, reason: String },
    #[error("cannot write {name}: {reason}")]
    Write { name: String, reason: String },
}

/// A small key → text store.
#[derive(Clone, Debug)]
pub enum Store {
    /// Files in this directory.
    Dir(PathBuf),
    /// In memory only (tests; nothing persists).
    Memory(BTreeMap<String, String>),
    /// The browser's localStorage, every key prefixed with `stoneyard/`. (Fetched per call: a
    /// JavaScript handle cannot be kept in a value that crosses threads.)
    #[cfg(target_arch = "wasm32")]
    Browser,
}

/// The page's localStorage, if the browser offers it.
#[cfg(target_arch = "wasm32")]
fn local_storage(name: &str) -> Result<web_sys::Storage, StoreError> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten()).ok_or_else(|| StoreError::Read {
        name: name.to_string(),
        reason: "this browser offers no local storage (private mode?)".to_string(),
    })
}

/// The localStorage key of a name.
#[cfg(target_arch = "wasm32")]
fn browser_key(name: &str) -> String {
    format!("stoneyard/{name}")
}

impl Store {
    /// The platform's data directory for Stoneyard (e.g. `~/.local/share/stoneyard`), or memory
    /// when the platform has none.
    pub fn platform() -> Store {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(dirs) = directories::ProjectDirs::from("org", "Stoneyard", "stoneyard") {
            return Store::Dir(dirs.data_dir().to_path_buf());
        }
        #[cfg(target_arch = "wasm32")]
        if local_storage("").is_ok() {
            return Store::Browser;
        }
        Store::Memory(BTreeMap::new())
    }

    pub fn memory() -> Store {
        Store::Memory(BTreeMap::new())
    }

    /// Where `name` is kept, as a player can find it (`/home/ann/.local/share/stoneyard/x.txt`).
    pub fn location_of(&self, name: &str) -> String {
        match self {
            Store::Dir(dir) => dir.join(name).display().to_string(),
            Store::Memory(_) => format!("{name} (in memory only)"),
            #[cfg(target_arch = "wasm32")]
            Store::Browser => format!("{name} (in this browser's storage)"),
        }
    }

    /// The text stored under `name`, or `None` when there is none.
    pub fn read(&self, name: &str) -> Result<Option<String>, StoreError> {
        match self {
            Store::Memory(map) => Ok(map.get(name).cloned()),
            #[cfg(target_arch = "wasm32")]
            Store::Browser => local_storage(name)?
                .get_item(&browser_key(name))
                .map_err(|e| StoreError::Read { name: name.to_string(), reason: format!("{e:?}") }),
            Store::Dir(dir) => match std::fs::read_to_string(dir.join(name)) {
                Ok(text) => Ok(Some(text)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(StoreError::Read { name: name.to_string(), reason: e.to_string() }),
            },
        }
    }

    /// Stores `text` under `name`, replacing what was there only once the new text is complete.
    pub fn write(&mut self, name: &str, text: &str) -> Result<(), StoreError> {
        match self {
            Store::Memory(map) => {
                map.insert(name.to_string(), text.to_string());
                Ok(())
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => local_storage(name)?.set_item(&browser_key(name), text).map_err(|e| StoreError::Write {
                name: name.to_string(),
                reason: format!("the browser refused to store it ({e:?}); its storage may be full"),
            }),
            Store::Dir(dir) => {
                let err = |e: std::io::Error| StoreError::Write { name: name.to_string(), reason: e.to_string() };
                let path = dir.join(name);
                let folder = path.parent().unwrap_or(dir).to_path_buf();
                std::fs::create_dir_all(&folder).map_err(err)?;
                let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
                let tmp = folder.join(format!(".{file}.tmp"));
                std::fs::write(&tmp, text).map_err(err)?;
                std::fs::rename(&tmp, path).map_err(err)
            }
        }
    }

    /// The names stored in `folder` (`"saves"`), sorted; temporary files are not listed.
    pub fn list(&self, folder: &str) -> Result<Vec<String>, StoreError> {
        let prefix = format!("{folder}/");
        let mut names: Vec<String> = match self {
            Store::Memory(map) => map.keys().filter(|k| k.starts_with(&prefix)).cloned().collect(),
            #[cfg(target_arch = "wasm32")]
            Store::Browser => {
                let storage = local_storage(folder)?;
                let len = storage.length().unwrap_or(0);
                (0..len)
                    .filter_map(|i| storage.key(i).ok().flatten())
                    .filter_map(|k| k.strip_prefix("stoneyard/").map(str::to_string))
                    .filter(|k| k.starts_with(&prefix))
                    .collect()
            }
            Store::Dir(dir) => match std::fs::read_dir(dir.join(folder)) {
                Ok(entries) => entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|f| !f.starts_with('.'))
                    .map(|f| format!("{prefix}{f}"))
                    .collect(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
                Err(e) => return Err(StoreError::Read { name: folder.to_string(), reason: e.to_string() }),
            },
        };
        names.sort();
        Ok(names)
    }

    /// Deletes `name` (nothing happens when it does not exist).
    pub fn remove(&mut self, name: &str) -> Result<(), StoreError> {
        match self {
            Store::Memory(map) => {
                map.remove(name);
                Ok(())
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => local_storage(name)?
                .remove_item(&browser_key(name))
                .map_err(|e| StoreError::Write { name: name.to_string(), reason: format!("{e:?}") }),
            Store::Dir(dir) => match std::fs::remove_file(dir.join(name)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(StoreError::Write { name: name.to_string(), reason: e.to_string() })
                }
                _ => Ok(()),
            },
        }
    }

    /// Loads the settings; a missing file gives defaults, and an unreadable or corrupt one gives
    /// defaults too after keeping a copy of it as `<name>.corrupt` (returned as a warning).
    pub fn load_settings(&mut self) -> (super::Settings, Option<String>) {
        const NAME: &str = "settings.json";
        match self.read(NAME) {
            Ok(None) => (super::Settings::default(), None),
            Ok(Some(text)) => match serde_json::from_str::<super::Settings>(&text) {
                Ok(s) => (s.sanitised(), None),
                Err(e) => {
                    let kept = self.write("settings.json.corrupt", &text).is_ok();
                    let note = if kept { " (a copy was kept as settings.json.corrupt)" } else { "" };
                    (
                        super::Settings::default(),
                        Some(format!("settings file was unreadable ({e}); using defaults{note}")),
                    )
                }
            },
            Err(e) => (super::Settings::default(), Some(e.to_string())),
        }
    }

    pub fn save_settings(&mut self, settings: &super::Settings) -> Result<(), StoreError> {
        let text = serde_json::to_string_pretty(settings).expect("settings serialise");
        self.write("settings.json", &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::save::{Settings, Theme};

    #[test]
    fn an_interrupted_write_leaves_the_previous_text_whole() {
        let dir = temp_dir("interrupted");
        let mut store = Store::Dir(dir.clone());
        store.write("saves/game.json", "first complete text").unwrap();
        // A crash during the next write leaves a partial temporary file and never touches the
        // real one (the rename is the last step).
        std::fs::write(dir.join("saves/.game.json.tmp"), "second, cut o").unwrap();
        assert_eq!(store.read("saves/game.json").unwrap().as_deref(), Some("first complete text"));
        assert_eq!(store.list("saves").unwrap(), vec!["saves/game.json".to_string()], "no temporary files listed");
        // A write that cannot finish (its folder is a file) fails cleanly and keeps the old text.
        std::fs::write(dir.join("blocked"), "a file, not a folder").unwrap();
        assert!(store.write("blocked/x.json", "text").is_err());
        // The next write after the crash replaces the leftover and succeeds.
        store.write("saves/game.json", "second complete text").unwrap();
        assert_eq!(store.read("saves/game.json").unwrap().as_deref(), Some("second complete text"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn folders_list_and_remove_in_memory_and_on_disk() {
        let dir = temp_dir("list");
        for mut store in [Store::memory(), Store::Dir(dir.clone())] {
            store.write("saves/b.json", "b").unwrap();
            store.write("saves/a.json", "a").unwrap();
            store.write("autosave.json", "x").unwrap();
            assert_eq!(store.list("saves").unwrap(), vec!["saves/a.json".to_string(), "saves/b.json".to_string()]);
            store.remove("saves/a.json").unwrap();
            store.remove("saves/missing.json").unwrap();
            assert_eq!(store.list("saves").unwrap(), vec!["saves/b.json".to_string()]);
            assert_eq!(store.list("nothing-here").unwrap(), Vec::<String>::new());
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("stoneyard-store-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn settings_persist_in_a_directory() {
        let dir = temp_dir("persist");
        let mut store = Store::Dir(dir.clone());
        let s = Settings { theme: Theme::Night, ..Settings::default() };
        store.save_settings(&s).unwrap();
        assert_eq!(Store::Dir(dir.clone()).load_settings(), (s, None));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn corrupt_settings_fall_back_to_defaults_and_keep_a_copy() {
        let dir = temp_dir("corrupt");
        let mut store = Store::Dir(dir.clone());
        store.write("settings.json", "{ this is not json").unwrap();
        let (s, warning) = store.load_settings();
        assert_eq!(s, Settings::default());
        assert!(warning.unwrap().contains("defaults"));
        assert_eq!(store.read("settings.json.corrupt").unwrap().as_deref(), Some("{ this is not json"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
