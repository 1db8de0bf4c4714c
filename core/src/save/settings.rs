//! Player settings: volumes, animation speed, colour theme, overlays, the online server.

use serde::{Deserialize, Serialize};

/// How fast effects animate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnimationSpeed {
    Slow,
    #[default]
    Normal,
    Fast,
    Off,
}

impl AnimationSpeed {
    pub const ALL: [AnimationSpeed; 4] =
        [AnimationSpeed::Slow, AnimationSpeed::Normal, AnimationSpeed::Fast, AnimationSpeed::Off];

    pub fn label(self) -> &'static str {
        match self {
            AnimationSpeed::Slow => "Slow",
            AnimationSpeed::Normal => "Normal",
            AnimationSpeed::Fast => "Fast",
            AnimationSpeed::Off => "Off",
        }
    }
}

/// Colour theme of the board and pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// Warm wood and stone.
    #[default]
    Classic,
    /// Dark slate.
    Night,
    /// Okabe–Ito colours, distinguishable with every common colour-vision deficiency.
    ColourBlindSafe,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Classic, Theme::Night, Theme::ColourBlindSafe];

    pub fn label(self) -> &'static str {
        match self {
            Theme::Classic => "Classic",
            Theme::Night => "Night",
            Theme::ColourBlindSafe => "Colour-blind safe",
        }
    }
}

/// Everything the settings screen changes. Unknown or missing fields take their defaults, so an
/// older or newer settings file still loads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// File format version.
    pub version: u32,
    /// 0.0 ..= 1.0
    pub master_volume: f32,
    /// 0.0 ..= 1.0
    pub effects_volume: f32,
    /// 0.0 ..= 1.0
    pub music_volume: f32,
    pub muted: bool,
    pub animation_speed: AnimationSpeed,
    pub theme: Theme,
    pub show_coordinates: bool,
    pub show_hints: bool,
    /// Every space's number (influence, power) on the board, not only the one under the cursor.
    pub show_numbers: bool,
    /// The move list in the rule book's notation rather than in words.
    pub moves_in_notation: bool,
    /// The keyboard keys of each action the player changed (empty: the default keys). Actions and
    /// keys are names (`"undo"`, `"KeyZ"`) so this layer needs no input library.
    pub key_bindings: Vec<KeyBinding>,
    /// The online game server's WebSocket address (`ws://host:port/ws`); empty: the default one
    /// (this computer's natively, the page's own server in the browser).
    pub online_server: String,
    /// Online ratings are not shown to this player (their own and others'), only names.
    pub hide_ratings: bool,
    /// A system notification when an online game starts waiting for this player's move while
    /// the window is in the background.
    pub turn_notices: bool,
    /// The lessons each game's learner has solved: game slug → lesson ids.
    pub lessons_done: std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    /// The games whose lessons were offered once (on first choosing the game).
    pub lessons_offered: std::collections::BTreeSet<String>,
    /// The practice positions solved at the first try: game slug → position ids.
    pub practice_done: std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    /// Each game's practice streak now (right answers in a row) and the best one.
    pub practice_streak: std::collections::BTreeMap<String, u32>,
    pub practice_best: std::collections::BTreeMap<String, u32>,
}

/// The keys a player chose for one action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyBinding {
    pub action: String,
    pub keys: Vec<String>,
}

impl Settings {
    pub const VERSION: u32 = 1;

    /// Clamps values a hand-edited file may have pushed out of range.
    pub fn sanitised(mut self) -> Self {
        for v in [&mut self.master_volume, &mut self.effects_volume, &mut self.music_volume] {
            *v = if v.is_finite() { v.clamp(0.0, 1.0) } else { 1.0 };
        }
        self.version = Self::VERSION;
        self
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            version: Self::VERSION,
            master_volume: 0.8,
            effects_volume: 1.0,
            music_volume: 0.5,
            muted: false,
            animation_speed: AnimationSpeed::Normal,
            theme: Theme::Classic,
            show_coordinates: true,
            show_hints: true,
            show_numbers: false,
            moves_in_notation: false,
            key_bindings: Vec::new(),
            online_server: String::new(),
            hide_ratings: false,
            turn_notices: true,
            lessons_done: Default::default(),
            lessons_offered: Default::default(),
            practice_done: Default::default(),
            practice_streak: Default::default(),
            practice_best: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_missing_fields_default() {
        let s = Settings { theme: Theme::ColourBlindSafe, master_volume: 0.25, ..Settings::default() };
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Settings>(&text).unwrap(), s);
        let partial: Settings = serde_json::from_str(r#"{"theme":"night"}"#).unwrap();
        assert_eq!(partial.theme, Theme::Night);
        assert_eq!(partial.master_volume, Settings::default().master_volume);
    }

    #[test]
    fn sanitising_clamps_volumes() {
        let s = Settings { master_volume: 7.0, effects_volume: f32::NAN, ..Settings::default() }.sanitised();
        assert_eq!(s.master_volume, 1.0);
        assert_eq!(s.effects_volume, 1.0);
    }
}
