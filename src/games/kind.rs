//! Which game: slugs, display names, designers and one-line descriptions.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One of the five games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    Gravel,
    RedStone,
    Throngs,
    Inchworm,
    HiddenIntention,
}

impl GameKind {
    pub const ALL: [GameKind; 5] =
        [GameKind::Gravel, GameKind::RedStone, GameKind::Throngs, GameKind::Inchworm, GameKind::HiddenIntention];

    /// The name the CLI, saves and options use.
    pub const fn slug(self) -> &'static str {
        match self {
            GameKind::Gravel => "gravel",
            GameKind::RedStone => "red-stone",
            GameKind::Throngs => "throngs",
            GameKind::Inchworm => "inchworm",
            GameKind::HiddenIntention => "hidden-intention",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Gravel => "Gravel",
            GameKind::RedStone => "Red Stone",
            GameKind::Throngs => "Throngs",
            GameKind::Inchworm => "Inchworm",
            GameKind::HiddenIntention => "Hidden Intention",
        }
    }

    pub const fn designer(self) -> &'static str {
        match self {
            GameKind::Gravel => "Brian Train (2025)",
            GameKind::RedStone => "Mark Steere (2012)",
            GameKind::Throngs => "Dale W. Walton (2020)",
            GameKind::Inchworm => "Clark D. Rodeffer (2000)",
            GameKind::HiddenIntention => "the author of the yaloalo blog",
        }
    }

    pub const fn tagline(self) -> &'static str {
        match self {
            GameKind::Gravel => {
                "Place, move and remove stacks to control the board; neighbours decide who owns a space."
            }
            GameKind::RedStone => "Go played to annihilation: every capture is made with a permanent red stone.",
            GameKind::Throngs => {
                "Double moves on a triangular board; stones hop along lines with power from their neighbours."
            }
            GameKind::Inchworm => {
                "Drop, collect and spread stacks; surround enemy groups to capture them. First to 60 wins."
            }
            GameKind::HiddenIntention => {
                "Both players secretly commit a figure at once; clashing influence burns squares and topples figures."
            }
        }
    }

    /// Every slug, comma-separated, for error messages.
    pub fn all_slugs() -> String {
        GameKind::ALL.iter().map(|k| k.slug()).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

impl FromStr for GameKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        GameKind::ALL
            .into_iter()
            .find(|k| k.slug() == wanted || k.slug().replace('-', "") == wanted)
            .ok_or_else(|| format!("unknown game '{s}'; the games are: {}", GameKind::all_slugs()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_parse_back() {
        for k in GameKind::ALL {
            assert_eq!(k.slug().parse::<GameKind>(), Ok(k));
        }
        assert_eq!("Red_Stone".parse::<GameKind>(), Ok(GameKind::RedStone));
        assert!("chess".parse::<GameKind>().unwrap_err().contains("gravel"));
    }
}
