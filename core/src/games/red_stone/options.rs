//! Red Stone's options: the board size (spec §2), 5..=19 points a side, default 11.

use crate::rules::{GameOptions, OptionError, OptionKind, OptionSpec};

/// The smallest board the engine accepts (spec §2).
pub const MIN_SIZE: u8 = 5;
/// The largest board the engine accepts (spec §2).
pub const MAX_SIZE: u8 = 19;
/// The designer's BGA default (spec §2, decision D11).
pub const DEFAULT_SIZE: u8 = 11;
/// The sizes the setup screen offers (the designer's BGA option set).
pub const SIZE_PRESETS: [u8; 5] = [9, 11, 13, 15, 19];

/// How a game of Red Stone is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RedStoneOptions {
    /// Points per side of the square board.
    pub size: u8,
}

impl Default for RedStoneOptions {
    fn default() -> Self {
        RedStoneOptions { size: DEFAULT_SIZE }
    }
}

impl RedStoneOptions {
    /// Options for an `size` × `size` board; sizes outside 5..=19 are refused.
    pub fn with_size(size: u8) -> Result<Self, OptionError> {
        let mut options = RedStoneOptions::default();
        options.set("size", &size.to_string())?;
        Ok(options)
    }
}

const SPECS: &[OptionSpec] = &[OptionSpec {
    key: "size",
    label: "Board size",
    help: "N × N points: 11 is the usual board, 7 a quick game, 19 a long one.",
    kind: OptionKind::Int { min: MIN_SIZE as i64, max: MAX_SIZE as i64 },
}];

impl GameOptions for RedStoneOptions {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        if !key.trim().eq_ignore_ascii_case("size") {
            return Err(OptionError::unknown_key(key, SPECS));
        }
        let bad = |reason: &str| OptionError::bad_value("size", value, reason);
        // "11x11" is how players often write a board size; accept it when both sides agree.
        let text = value.trim().to_ascii_lowercase();
        let number = match text.split_once('x') {
            Some((a, b)) if a.trim() == b.trim() => a.trim().to_string(),
            Some(_) => return Err(bad("the board is square: both sides must be equal")),
            None => text,
        };
        let size: u32 = number.parse().map_err(|_| bad("the board size is a whole number from 5 to 19"))?;
        if !(MIN_SIZE as u32..=MAX_SIZE as u32).contains(&size) {
            return Err(bad("the board size must be from 5 to 19"));
        }
        self.size = size as u8;
        Ok(())
    }

    fn get(&self, key: &str) -> Option<String> {
        key.trim().eq_ignore_ascii_case("size").then(|| self.size.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_range_and_default() {
        assert_eq!(RedStoneOptions::default().size, 11);
        assert_eq!(RedStoneOptions::from_pairs([("SIZE", "7")]).unwrap().size, 7);
        assert_eq!(RedStoneOptions::from_pairs([("size", "9x9")]).unwrap().size, 9);
        assert!(RedStoneOptions::from_pairs([("size", "4")]).is_err());
        assert!(RedStoneOptions::from_pairs([("size", "20")]).is_err());
        assert!(RedStoneOptions::from_pairs([("size", "9x11")]).is_err());
        assert!(RedStoneOptions::from_pairs([("komi", "7")]).is_err());
        assert_eq!(RedStoneOptions::default().to_pairs(), vec![("size".to_string(), "11".to_string())]);
    }
}
