//! Gravel's options (§3): layout, board size `N`, action budget `X` and the turn limit.

use crate::rules::{GameOptions, OptionError, OptionKind, OptionSpec, choice_name, choice_option, int_option};

/// How the board is drawn. Only the display differs: both are an N×N lattice with orthogonal
/// adjacency (spec D1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Pieces sit in square cells.
    #[default]
    Squares,
    /// Pieces sit on line crossings (N = n + 1 for an n×n drawn grid).
    Intersections,
}

impl Layout {
    /// Each layout with its name in options and records.
    pub const NAMED: [(&'static str, Layout); 2] =
        [("squares", Layout::Squares), ("intersections", Layout::Intersections)];

    pub fn name(self) -> &'static str {
        choice_name(&Layout::NAMED, &self)
    }
}

/// The options of one Gravel game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GravelOptions {
    pub layout: Layout,
    /// Spaces per side of the square board, 3..=19.
    pub size: u8,
    /// Actions per player turn and the stack cap, 2..=9.
    pub budget: u8,
    /// Game turns after which the game is drawn; 0 switches the limit off.
    pub turn_limit: u32,
}

pub const MIN_SIZE: u8 = 3;
pub const MAX_SIZE: u8 = 19;
pub const MIN_BUDGET: u8 = 2;
pub const MAX_BUDGET: u8 = 9;
pub const MAX_TURN_LIMIT: u32 = 10_000;

impl Default for GravelOptions {
    fn default() -> Self {
        GravelOptions { layout: Layout::Squares, size: 8, budget: 4, turn_limit: 200 }
    }
}

impl GravelOptions {
    /// `S = N*N`, the number of spaces.
    pub fn spaces(&self) -> u16 {
        self.size as u16 * self.size as u16
    }

    /// `P = S/2 + 1`, each player's starting pool.
    pub fn pieces_per_player(&self) -> u16 {
        self.spaces() / 2 + 1
    }

    /// `A = ceil(P/2)`: a player meets attrition when `lost > A`.
    pub fn attrition_threshold(&self) -> u16 {
        self.pieces_per_player().div_ceil(2)
    }
}

static SPECS: [OptionSpec; 4] = [
    OptionSpec {
        key: "N",
        label: "Spaces per side",
        help: "The board is N × N spaces; each player starts with N²/2 + 1 pieces.",
        kind: OptionKind::Int { min: MIN_SIZE as i64, max: MAX_SIZE as i64 },
    },
    OptionSpec {
        key: "X",
        label: "Actions per turn (and stack cap)",
        help: "Up to X actions a turn, and no stack grows taller than X.",
        kind: OptionKind::Int { min: MIN_BUDGET as i64, max: MAX_BUDGET as i64 },
    },
    OptionSpec {
        key: "layout",
        label: "Layout",
        help: "Pieces on squares or on the crossings of lines: the same board either way.",
        kind: OptionKind::Choice(&["squares", "intersections"]),
    },
    OptionSpec {
        key: "turn_limit",
        label: "Turn limit (0 = none)",
        help: "A draw after this many game turns; 0 plays on until a player loses.",
        kind: OptionKind::Int { min: 0, max: MAX_TURN_LIMIT as i64 },
    },
];

impl GameOptions for GravelOptions {
    fn specs() -> &'static [OptionSpec] {
        &SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        match key.trim().to_ascii_lowercase().as_str() {
            "n" => self.size = int_option("N", value, MIN_SIZE as i64, MAX_SIZE as i64)? as u8,
            "x" => self.budget = int_option("X", value, MIN_BUDGET as i64, MAX_BUDGET as i64)? as u8,
            "turn_limit" => self.turn_limit = int_option("turn_limit", value, 0, MAX_TURN_LIMIT as i64)? as u32,
            "layout" => self.layout = choice_option("layout", value, &Layout::NAMED)?,
            _ => return Err(OptionError::unknown_key(key, &SPECS)),
        }
        Ok(())
    }

    fn get(&self, key: &str) -> Option<String> {
        match key.trim().to_ascii_lowercase().as_str() {
            "n" => Some(self.size.to_string()),
            "x" => Some(self.budget.to_string()),
            "layout" => Some(self.layout.name().to_string()),
            "turn_limit" => Some(self.turn_limit.to_string()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_numbers_match_the_spec_table() {
        for (n, p, a) in [(3, 5, 3), (4, 9, 5), (5, 13, 7), (8, 33, 17), (9, 41, 21), (19, 181, 91)] {
            let o = GravelOptions { size: n, ..Default::default() };
            assert_eq!((o.pieces_per_player(), o.attrition_threshold()), (p, a), "N={n}");
        }
    }

    #[test]
    fn options_are_checked_and_round_trip() {
        let o = GravelOptions::from_pairs([("n", "5"), ("X", "3"), ("LAYOUT", "Intersections"), ("turn_limit", "0")])
            .unwrap();
        assert_eq!((o.size, o.budget, o.layout, o.turn_limit), (5, 3, Layout::Intersections, 0));
        assert!(GravelOptions::from_pairs([("N", "2")]).is_err());
        assert!(GravelOptions::from_pairs([("X", "10")]).is_err());
        assert!(GravelOptions::from_pairs([("turn_limit", "10001")]).is_err());
        assert!(GravelOptions::from_pairs([("layout", "hex")]).is_err());
        assert!(GravelOptions::from_pairs([("size", "8")]).is_err());
        let pairs = o.to_pairs();
        let back = GravelOptions::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
        assert_eq!(back, o);
    }
}
