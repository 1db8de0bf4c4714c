//! Where files live: the platform's data directory on native, the page's localStorage in the
//! browser, memory in tests. Names may have one folder (`saves/x.json`). Writes are atomic and
//! durable: a temporary file synced to disk, then a rename and a sync of its folder
//! (localStorage replaces a value in one step by itself).

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

/// The largest file the store reads: far above any settings file or game record (a long game's
/// JSON record is tens of kilobytes), small enough that a wrong or hostile file costs little.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Writes `bytes` to `path` so that a crash or power cut leaves either the old file or the new
/// one whole: a temporary file, synced to the disk, renamed over the old one, then the folder
/// synced so the rename itself is kept (where the platform lets a folder be synced).
fn write_durably(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let folder = path.parent().unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(folder)?;
    let file_name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = folder.join(format!(".{file_name}.tmp"));
    {
        // Closed at the end of this block, before the rename.
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    // Windows cannot open a folder as a file; there the rename is as durable as it gets.
    if let Ok(folder) = std::fs::File::open(folder) {
        let _ = folder.sync_all();
    }
    Ok(())
}

thread_local! {
    /// Bytes handed to [`Store::write`] and [`Store::append`] on this thread.
    static WRITTEN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn count_written(bytes: usize) {
    WRITTEN.with(|w| w.set(w.get() + bytes as u64));
}

/// How many bytes this thread has written to stores (a test's measure of what saving costs).
pub fn bytes_written_on_this_thread() -> u64 {
    WRITTEN.with(std::cell::Cell::get)
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

    /// The text stored under `name`, or `None` when there is none. A file bigger than
    /// [`MAX_FILE_BYTES`] or not UTF-8 is refused (and left as it is).
    pub fn read(&self, name: &str) -> Result<Option<String>, StoreError> {
        match self.read_bytes(name)? {
            None => Ok(None),
            Some(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| StoreError::Read {
                name: name.to_string(),
                reason: "it is not text (not UTF-8)".to_string(),
            }),
        }
    }

    /// The bytes stored under `name`, as they are, or `None` when there is none; at most
    /// [`MAX_FILE_BYTES`] (a bigger file is refused without being read).
    pub fn read_bytes(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        match self {
            Store::Memory(map) => Ok(map.get(name).map(|t| t.as_bytes().to_vec())),
            #[cfg(target_arch = "wasm32")]
            Store::Browser => local_storage(name)?
                .get_item(&browser_key(name))
                .map(|t| t.map(String::into_bytes))
                .map_err(|e| StoreError::Read { name: name.to_string(), reason: format!("{e:?}") }),
            Store::Dir(dir) => {
                let err = |e: std::io::Error| StoreError::Read { name: name.to_string(), reason: e.to_string() };
                let path = dir.join(name);
                let size = match std::fs::metadata(&path) {
                    Ok(meta) => meta.len(),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                    Err(e) => return Err(err(e)),
                };
                if size > MAX_FILE_BYTES {
                    return Err(StoreError::Read {
                        name: name.to_string(),
                        reason: format!("it is {size} bytes, more than the {MAX_FILE_BYTES} a Stoneyard file can be"),
                    });
                }
                // Read through a limit too: the file may grow after its size was looked at.
                let mut bytes = Vec::new();
                let file = std::fs::File::open(&path).map_err(err)?;
                std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_FILE_BYTES + 1), &mut bytes)
                    .map_err(err)?;
                if bytes.len() as u64 > MAX_FILE_BYTES {
                    return Err(StoreError::Read { name: name.to_string(), reason: "it kept growing".to_string() });
                }
                Ok(Some(bytes))
            }
        }
    }

    /// Keeps a copy of a damaged or newer file's `bytes` beside it as `<name>.corrupt` (or
    /// `.corrupt-2`, `-3`, … when that is taken: an earlier copy is never written over) and
    /// returns the name of the copy.
    pub fn keep_aside(&mut self, name: &str, bytes: &[u8]) -> Result<String, StoreError> {
        let copy = (1..)
            .map(|n| if n == 1 { format!("{name}.corrupt") } else { format!("{name}.corrupt-{n}") })
            .find(|copy| matches!(self.read_bytes(copy), Ok(None)))
            .expect("a free name");
        match self {
            // Bytes that are not text cannot go into a text store as they are.
            Store::Memory(_) => self.write(&copy, &String::from_utf8_lossy(bytes))?,
            #[cfg(target_arch = "wasm32")]
            Store::Browser => self.write(&copy, &String::from_utf8_lossy(bytes))?,
            Store::Dir(dir) => write_durably(&dir.join(&copy), bytes)
                .map_err(|e| StoreError::Write { name: copy.clone(), reason: e.to_string() })?,
        }
        Ok(copy)
    }

    /// Stores `text` under `name`, replacing what was there only once the new text is complete.
    pub fn write(&mut self, name: &str, text: &str) -> Result<(), StoreError> {
        count_written(text.len());
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
            Store::Dir(dir) => write_durably(&dir.join(name), text.as_bytes())
                .map_err(|e| StoreError::Write { name: name.to_string(), reason: e.to_string() }),
        }
    }

    /// Adds `text` at the end of what is stored under `name` (which must exist), durably: a cut
    /// power leaves the old text followed by at most part of `text`, which a reader must be ready
    /// to find. Files take only the new bytes; the browser's localStorage cannot append, so there
    /// the browser rewrites the value.
    pub fn append(&mut self, name: &str, text: &str) -> Result<(), StoreError> {
        let missing = || StoreError::Write { name: name.to_string(), reason: "there is nothing to add to".to_string() };
        count_written(text.len());
        match self {
            Store::Memory(map) => {
                map.get_mut(name).ok_or_else(missing)?.push_str(text);
                Ok(())
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => {
                let storage = local_storage(name)?;
                let key = browser_key(name);
                let old = storage.get_item(&key).ok().flatten().ok_or_else(missing)?;
                storage.set_item(&key, &(old + text)).map_err(|e| StoreError::Write {
                    name: name.to_string(),
                    reason: format!("the browser refused to store it ({e:?}); its storage may be full"),
                })
            }
            Store::Dir(dir) => {
                use std::io::Write;
                let err = |e: std::io::Error| StoreError::Write { name: name.to_string(), reason: e.to_string() };
                let path = dir.join(name);
                let mut file = std::fs::OpenOptions::new().append(true).open(&path).map_err(|e| match e.kind() {
                    std::io::ErrorKind::NotFound => missing(),
                    _ => err(e),
                })?;
                file.write_all(text.as_bytes()).map_err(err)?;
                file.sync_data().map_err(err)
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

    /// Loads the settings; a missing file gives defaults, and an unreadable, corrupt or not-UTF-8
    /// one gives defaults too after keeping a copy of it aside (see [`Store::keep_aside`]; the
    /// warning names the copy).
    pub fn load_settings(&mut self) -> (super::Settings, Option<String>) {
        const NAME: &str = "settings.json";
        let bytes = match self.read_bytes(NAME) {
            Ok(None) => return (super::Settings::default(), None),
            Ok(Some(bytes)) => bytes,
            Err(e) => return (super::Settings::default(), Some(e.to_string())),
        };
        let problem = match std::str::from_utf8(&bytes) {
            Err(_) => "it is not text (not UTF-8)".to_string(),
            Ok(text) => match serde_json::from_str::<super::Settings>(text) {
                Ok(s) => return (s.sanitised(), None),
                Err(e) => e.to_string(),
            },
        };
        let note = match self.keep_aside(NAME, &bytes) {
            Ok(copy) => format!(" (a copy was kept as {copy})"),
            Err(e) => format!(" (no copy could be kept: {e})"),
        };
        (super::Settings::default(), Some(format!("settings file was unreadable ({problem}); using defaults{note}")))
    }

    /// Saves the settings. Fields this version does not know (written by a newer one) are kept
    /// as they were in the file, so going back to an older version and forward loses nothing.
    pub fn save_settings(&mut self, settings: &super::Settings) -> Result<(), StoreError> {
        const NAME: &str = "settings.json";
        let mut value = serde_json::to_value(settings).expect("settings serialise");
        let previous = self.read(NAME).ok().flatten().and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
        if let (Some(serde_json::Value::Object(old)), serde_json::Value::Object(new)) = (previous, &mut value) {
            for (key, old_value) in old {
                new.entry(key).or_insert(old_value);
            }
        }
        let text = serde_json::to_string_pretty(&value).expect("settings serialise");
        self.write(NAME, &text)
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
    fn a_second_corruption_is_kept_beside_the_first_copy_and_bytes_stay_as_they_were() {
        let dir = temp_dir("corrupt-twice");
        let mut store = Store::Dir(dir.clone());
        store.write("settings.json", "{ first damage").unwrap();
        let (_, first) = store.load_settings();
        assert!(first.unwrap().contains("settings.json.corrupt"));
        std::fs::write(dir.join("settings.json"), [b'{', 0xff, 0xfe, b'}']).unwrap();
        let (s, second) = store.load_settings();
        assert_eq!(s, Settings::default());
        assert!(second.as_deref().unwrap().contains("UTF-8"), "{second:?}");
        assert!(second.as_deref().unwrap().contains("settings.json.corrupt-2"), "{second:?}");
        assert_eq!(store.read("settings.json.corrupt").unwrap().as_deref(), Some("{ first damage"));
        assert_eq!(std::fs::read(dir.join("settings.json.corrupt-2")).unwrap(), [b'{', 0xff, 0xfe, b'}']);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn settings_of_a_newer_version_keep_their_unknown_fields() {
        let mut store = Store::memory();
        let mut newer = serde_json::to_value(Settings::default()).unwrap();
        newer["haptics"] = serde_json::json!({"strength": 3});
        store.write("settings.json", &newer.to_string()).unwrap();
        let (mut s, warning) = store.load_settings();
        assert_eq!(warning, None);
        s.theme = Theme::Night;
        store.save_settings(&s).unwrap();
        let saved: serde_json::Value = serde_json::from_str(&store.read("settings.json").unwrap().unwrap()).unwrap();
        assert_eq!(saved["haptics"]["strength"], 3);
        assert_eq!(store.load_settings().0.theme, Theme::Night);
    }

    #[test]
    fn a_file_too_big_is_refused_unread_and_left_alone() {
        let dir = temp_dir("too-big");
        std::fs::create_dir_all(&dir).unwrap();
        let file = std::fs::File::create(dir.join("settings.json")).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        let mut store = Store::Dir(dir.clone());
        let err = store.read("settings.json").unwrap_err().to_string();
        assert!(err.contains("bytes"), "{err}");
        let (s, warning) = store.load_settings();
        assert_eq!((s, warning.is_some()), (Settings::default(), true));
        assert_eq!(std::fs::metadata(dir.join("settings.json")).unwrap().len(), MAX_FILE_BYTES + 1);
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
