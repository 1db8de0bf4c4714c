//! Where files live: the platform's data directory on native, memory in tests (and, until the web
//! storage lands, in the browser). Writes are atomic: a temporary file, then a rename.

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
}

impl Store {
    /// The platform's data directory for Stoneyard (e.g. `~/.local/share/stoneyard`), or memory
    /// when the platform has none.
    pub fn platform() -> Store {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(dirs) = directories::ProjectDirs::from("org", "Stoneyard", "stoneyard") {
            return Store::Dir(dirs.data_dir().to_path_buf());
        }
        Store::Memory(BTreeMap::new())
    }

    pub fn memory() -> Store {
        Store::Memory(BTreeMap::new())
    }

    /// The text stored under `name`, or `None` when there is none.
    pub fn read(&self, name: &str) -> Result<Option<String>, StoreError> {
        match self {
            Store::Memory(map) => Ok(map.get(name).cloned()),
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
            Store::Dir(dir) => {
                let err = |e: std::io::Error| StoreError::Write { name: name.to_string(), reason: e.to_string() };
                std::fs::create_dir_all(&*dir).map_err(err)?;
                let tmp = dir.join(format!(".{name}.tmp"));
                std::fs::write(&tmp, text).map_err(err)?;
                std::fs::rename(&tmp, dir.join(name)).map_err(err)
            }
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
