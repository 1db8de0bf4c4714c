//! Inchworm's options (spec §9): topology, prisoner drops, handicap pieces, target and quiet limit.

use crate::rules::{GameOptions, OptionError, OptionKind, OptionSpec, Side, choice_name, choice_option, int_option};

/// How the board's edges join (spec §9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Topology {
    /// Plain 8×8 board.
    #[default]
    Flat,
    /// Files a and h are adjacent on every rank (orthogonally and diagonally).
    Cylinder,
    /// Additionally ranks 1 and 8 are adjacent (the author's "sphere").
    Torus,
}

impl Topology {
    pub const NAMES: [&'static str; 3] = ["flat", "cylinder", "torus"];
    /// The names options accept: the three of `NAMES` and the author's "sphere" for the torus.
    const NAMED: [(&'static str, Topology); 4] = [
        ("flat", Topology::Flat),
        ("cylinder", Topology::Cylinder),
        ("torus", Topology::Torus),
        ("sphere", Topology::Torus),
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// The words that switch prisoner drops on or off.
const SWITCH: [(&str, bool); 8] = [
    ("on", true),
    ("off", false),
    ("true", true),
    ("false", false),
    ("yes", true),
    ("no", false),
    ("1", true),
    ("0", false),
];

/// Every option of spec §9 with its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InchwormOptions {
    pub topology: Topology,
    /// Action 6.6: a player may put a held enemy stone on an empty cell.
    pub prisoner_drops: bool,
    /// Starting stones for Black and White (1–25 each; fewer = handicap).
    pub pieces: [u8; 2],
    /// Points that end the game.
    pub target: u32,
    /// Plies without a capture that end the game (0 = never).
    pub quiet_limit: u32,
}

impl Default for InchwormOptions {
    fn default() -> Self {
        InchwormOptions {
            topology: Topology::Flat,
            prisoner_drops: false,
            pieces: [25, 25],
            target: 60,
            quiet_limit: 200,
        }
    }
}

/// Largest accepted target and quiet limit: generous, but keeps counters in range.
const MAX_TARGET: i64 = 1_000_000;
const MAX_QUIET_LIMIT: i64 = 1_000_000;

static SPECS: [OptionSpec; 5] = [
    OptionSpec {
        key: "topology",
        label: "Board edges",
        help: "flat: an ordinary board. cylinder: the a and h files touch. torus: every edge touches the opposite one.",
        kind: OptionKind::Choice(&Topology::NAMES),
    },
    OptionSpec {
        key: "prisoner_drops",
        label: "Place prisoners",
        help: "on: you may also drop the enemy stones you hold as prisoners.",
        kind: OptionKind::Choice(&["off", "on"]),
    },
    OptionSpec {
        key: "pieces",
        label: "Stones Black/White",
        help: "Stones each side starts with, Black/White (a handicap: 23/25 gives Black two fewer).",
        kind: OptionKind::Text,
    },
    OptionSpec {
        key: "target",
        label: "Points to win",
        help: "The first to capture this many stones wins.",
        kind: OptionKind::Int { min: 1, max: MAX_TARGET },
    },
    OptionSpec {
        key: "quiet_limit",
        label: "Plies without capture (0 = off)",
        help: "The game ends after this many actions without a capture, higher score winning; 0: never.",
        kind: OptionKind::Int { min: 0, max: MAX_QUIET_LIMIT },
    },
];

impl InchwormOptions {
    /// Starting stones of one side.
    pub fn pieces_of(&self, side: Side) -> u8 {
        self.pieces[side.index()]
    }
}

fn parse_pieces(value: &str) -> Result<[u8; 2], OptionError> {
    let reason = "expected Black/White stone counts, each 1 to 25, e.g. 25/23";
    let bad = || OptionError::bad_value("pieces", value, reason);
    let (b, w) = value.split_once('/').ok_or_else(bad)?;
    let one = |t: &str| -> Result<u8, OptionError> {
        let n: u8 = t.trim().parse().map_err(|_| bad())?;
        if (1..=25).contains(&n) { Ok(n) } else { Err(bad()) }
    };
    Ok([one(b)?, one(w)?])
}

impl GameOptions for InchwormOptions {
    fn specs() -> &'static [OptionSpec] {
        &SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        match key.trim().to_ascii_lowercase().as_str() {
            "topology" => self.topology = choice_option("topology", value, &Topology::NAMED)?,
            "prisoner_drops" => self.prisoner_drops = choice_option("prisoner_drops", value, &SWITCH)?,
            "pieces" => self.pieces = parse_pieces(value)?,
            "target" => self.target = int_option("target", value, 1, MAX_TARGET)? as u32,
            "quiet_limit" => self.quiet_limit = int_option("quiet_limit", value, 0, MAX_QUIET_LIMIT)? as u32,
            _ => return Err(OptionError::unknown_key(key, &SPECS)),
        }
        Ok(())
    }

    fn get(&self, key: &str) -> Option<String> {
        Some(match key.trim().to_ascii_lowercase().as_str() {
            "topology" => self.topology.name().to_string(),
            "prisoner_drops" => choice_name(&SWITCH, &self.prisoner_drops).to_string(),
            "pieces" => format!("{}/{}", self.pieces[0], self.pieces[1]),
            "target" => self.target.to_string(),
            "quiet_limit" => self.quiet_limit.to_string(),
            _ => return None,
        })
    }
}
