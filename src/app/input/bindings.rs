//! The keyboard keys of each action: the defaults, the player's changes (kept in the settings by
//! name), and rebinding one action to a new key without ever leaving an action keyless.

use super::{Action, DEFAULT_KEYS};
use crate::app::settings::CurrentSettings;
use crate::save::KeyBinding;
use bevy::prelude::*;

/// The keys in effect, as (action, key) pairs in the order they were bound.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct KeyBindings(pub Vec<(Action, KeyCode)>);

impl Default for KeyBindings {
    fn default() -> Self {
        KeyBindings(DEFAULT_KEYS.to_vec())
    }
}

/// Every button action (keys and gamepad buttons can trigger them), in the order the settings list
/// them; the stick is the one action that is not a button.
pub const BINDABLE: [Action; 13] = [
    Action::Up,
    Action::Down,
    Action::Left,
    Action::Right,
    Action::Select,
    Action::Back,
    Action::CycleOption,
    Action::Confirm,
    Action::Undo,
    Action::Redo,
    Action::Suggest,
    Action::Hints,
    Action::Menu,
];

/// Why a rebinding was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RebindError {
    /// The key is the last one of another action, which would be left without a key.
    OnlyKeyOf { key: KeyCode, action: Action },
    /// The key has no stable name to be saved under.
    Unnamed(KeyCode),
}

impl std::fmt::Display for RebindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RebindError::OnlyKeyOf { key, action } => write!(
                f,
                "{} is the only key of “{}”: give that action another key first",
                key_label(*key),
                action_slug(*action)
            ),
            RebindError::Unnamed(key) => write!(f, "{key:?} cannot be saved as a binding"),
        }
    }
}

/// The name an action is saved under.
pub fn action_slug(action: Action) -> &'static str {
    match action {
        Action::Up => "up",
        Action::Down => "down",
        Action::Left => "left",
        Action::Right => "right",
        Action::CursorAxis => "cursor-axis",
        Action::Select => "select",
        Action::Back => "back",
        Action::Confirm => "confirm",
        Action::Undo => "undo",
        Action::Redo => "redo",
        Action::CycleOption => "cycle-option",
        Action::Menu => "menu",
        Action::Hints => "hints",
        Action::Suggest => "suggest",
    }
}

fn action_from_slug(slug: &str) -> Option<Action> {
    BINDABLE.into_iter().find(|a| action_slug(*a) == slug)
}

/// The name a key is saved under: Bevy's own serialised name (`KeyZ`, `ArrowUp`), so the file
/// stays readable and every key with a name round-trips.
pub fn key_code_name(key: KeyCode) -> Option<String> {
    match serde_json::to_value(key).ok()? {
        serde_json::Value::String(name) => Some(name),
        _ => None, // keys without a name of their own (`Unidentified(..)`)
    }
}

pub fn key_code_from_name(name: &str) -> Option<KeyCode> {
    serde_json::from_value(serde_json::Value::String(name.to_string())).ok()
}

/// A key as people call it (`ArrowUp` → `Up`, `KeyW` → `W`, `Digit1` → `1`).
pub fn key_label(key: KeyCode) -> String {
    let raw = format!("{key:?}");
    ["Key", "Arrow", "Digit"]
        .iter()
        .find_map(|prefix| raw.strip_prefix(prefix).filter(|rest| !rest.is_empty()))
        .unwrap_or(&raw)
        .to_string()
}

impl KeyBindings {
    /// The defaults with the player's saved changes applied. Entries naming an unknown action or
    /// key are skipped and reported, so a hand-edited file never loses the other bindings.
    pub fn from_saved(saved: &[KeyBinding]) -> (KeyBindings, Vec<String>) {
        let mut bindings = KeyBindings::default();
        let mut problems = Vec::new();
        for entry in saved {
            let Some(action) = action_from_slug(&entry.action) else {
                problems.push(format!("unknown action '{}' in the key bindings", entry.action));
                continue;
            };
            let keys: Vec<KeyCode> = entry
                .keys
                .iter()
                .filter_map(|name| {
                    let key = key_code_from_name(name);
                    if key.is_none() {
                        problems.push(format!("unknown key '{name}' for '{}'", entry.action));
                    }
                    key
                })
                .collect();
            if keys.is_empty() {
                continue; // never leave an action without a key
            }
            bindings.0.retain(|(a, k)| *a != action && !keys.contains(k));
            bindings.0.extend(keys.into_iter().map(|k| (action, k)));
        }
        // A saved key taken by a later entry can leave an earlier action keyless: give it back
        // its defaults that are still free.
        for action in BINDABLE {
            if bindings.keys_of(action).is_empty() {
                let free: Vec<KeyCode> = DEFAULT_KEYS
                    .iter()
                    .filter(|(a, k)| *a == action && bindings.action_of(*k).is_none())
                    .map(|(_, k)| *k)
                    .collect();
                bindings.0.extend(free.into_iter().map(|k| (action, k)));
            }
        }
        (bindings, problems)
    }

    /// What to save: the keys of every action that differs from its defaults.
    pub fn to_saved(&self) -> Vec<KeyBinding> {
        BINDABLE
            .into_iter()
            .filter(|&action| {
                let defaults: Vec<KeyCode> =
                    DEFAULT_KEYS.iter().filter(|(a, _)| *a == action).map(|(_, k)| *k).collect();
                self.keys_of(action) != defaults
            })
            .map(|action| KeyBinding {
                action: action_slug(action).to_string(),
                keys: self.keys_of(action).into_iter().filter_map(key_code_name).collect(),
            })
            .collect()
    }

    pub fn keys_of(&self, action: Action) -> Vec<KeyCode> {
        self.0.iter().filter(|(a, _)| *a == action).map(|(_, k)| *k).collect()
    }

    pub fn action_of(&self, key: KeyCode) -> Option<Action> {
        self.0.iter().find(|(_, k)| *k == key).map(|(a, _)| *a)
    }

    /// Every action `key` triggers (one, since a key is bound once).
    pub fn actions_of(&self, key: KeyCode) -> impl Iterator<Item = Action> + '_ {
        self.0.iter().filter(move |(_, k)| *k == key).map(|(a, _)| *a)
    }

    /// Makes `key` the only key of `action`. A key another action used moves over, unless it was
    /// that action's last key. Returns the action the key was taken from.
    pub fn rebind(&mut self, action: Action, key: KeyCode) -> Result<Option<Action>, RebindError> {
        key_code_name(key).ok_or(RebindError::Unnamed(key))?;
        let previous = self.action_of(key).filter(|a| *a != action);
        if let Some(other) = previous
            && self.keys_of(other).len() == 1
        {
            return Err(RebindError::OnlyKeyOf { key, action: other });
        }
        self.0.retain(|(a, k)| *a != action && *k != key);
        self.0.push((action, key));
        Ok(previous)
    }
}

pub fn plugin(app: &mut App) {
    let saved = app.world().get_resource::<CurrentSettings>().map(|s| s.0.key_bindings.clone()).unwrap_or_default();
    let (bindings, problems) = KeyBindings::from_saved(&saved);
    for p in problems {
        warn!("{p}");
    }
    app.insert_resource(bindings);
    app.add_systems(PreUpdate, follow_settings);
}

/// Settings are the source of truth (the settings screen edits them; they are saved from there).
fn follow_settings(settings: Res<CurrentSettings>, mut bindings: ResMut<KeyBindings>) {
    if settings.is_changed() {
        let (wanted, _) = KeyBindings::from_saved(&settings.0.key_bindings);
        bindings.set_if_neq(wanted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_save_as_nothing_and_every_default_key_has_a_name() {
        assert!(KeyBindings::default().to_saved().is_empty());
        for (_, key) in DEFAULT_KEYS {
            let name = key_code_name(key).expect("named");
            assert_eq!(key_code_from_name(&name), Some(key));
        }
    }

    #[test]
    fn a_rebinding_round_trips_through_the_saved_names() {
        let mut b = KeyBindings::default();
        assert_eq!(b.rebind(Action::Undo, KeyCode::KeyU), Ok(None));
        assert_eq!(b.keys_of(Action::Undo), vec![KeyCode::KeyU]);
        let saved = b.to_saved();
        assert_eq!(saved, vec![KeyBinding { action: "undo".into(), keys: vec!["KeyU".into()] }]);
        let (back, problems) = KeyBindings::from_saved(&saved);
        assert!(problems.is_empty());
        assert_eq!(back.keys_of(Action::Undo), vec![KeyCode::KeyU]);
        assert_eq!(back.action_of(KeyCode::KeyZ), None, "the old key is free");
    }

    #[test]
    fn a_key_moves_from_an_action_with_others_but_not_from_its_last() {
        let mut b = KeyBindings::default();
        // W was Up's second key: it moves, Up keeps the arrow.
        assert_eq!(b.rebind(Action::Confirm, KeyCode::KeyW), Ok(Some(Action::Up)));
        assert_eq!(b.keys_of(Action::Up), vec![KeyCode::ArrowUp]);
        // Z is Undo's only key: refused, nothing changes.
        let before = b.clone();
        assert_eq!(
            b.rebind(Action::Redo, KeyCode::KeyZ),
            Err(RebindError::OnlyKeyOf { key: KeyCode::KeyZ, action: Action::Undo })
        );
        assert_eq!(b, before);
    }

    #[test]
    fn bad_saved_entries_are_reported_and_skipped() {
        let saved = vec![
            KeyBinding { action: "fly".into(), keys: vec!["KeyF".into()] },
            KeyBinding { action: "undo".into(), keys: vec!["NoSuchKey".into()] },
        ];
        let (b, problems) = KeyBindings::from_saved(&saved);
        assert_eq!(problems.len(), 2);
        assert_eq!(b, KeyBindings::default());
    }

    #[test]
    fn a_saved_key_taken_later_leaves_no_action_keyless() {
        // Hand-edited: Undo gets H, then Hints gets Z. Each action keeps at least one key.
        let saved = vec![
            KeyBinding { action: "undo".into(), keys: vec!["KeyH".into()] },
            KeyBinding { action: "hints".into(), keys: vec!["KeyH".into()] },
        ];
        let (b, _) = KeyBindings::from_saved(&saved);
        for action in BINDABLE {
            assert!(!b.keys_of(action).is_empty(), "{action:?} has a key");
        }
    }

    #[test]
    fn labels_read_like_key_caps() {
        assert_eq!(key_label(KeyCode::KeyW), "W");
        assert_eq!(key_label(KeyCode::ArrowUp), "Up");
        assert_eq!(key_label(KeyCode::Digit1), "1");
        assert_eq!(key_label(KeyCode::Enter), "Enter");
    }
}
