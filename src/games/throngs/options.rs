//! Throngs options (§3.3): board, opening, pass restriction and auto-adjudication.

use super::board::Board;
use crate::rules::{GameOptions, OptionError, OptionKind, OptionSpec, choice_name, choice_option};

/// How the game starts (§3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Opening {
    /// The three stones of the board's table are on the board; Black moves first.
    #[default]
    Standard,
    /// Pie with `n` Black and `n + 1` White stones placed by the offerer (`n = 1`: the standard pie).
    Pie(u8),
}

impl Opening {
    /// The largest `n` of `pie-n`: `2n + 1` stones must fit on the smallest board (R63).
    pub const PIE_MAX: u8 = 31;
}

/// Which placement obligation applies (§4.4 / D5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PassRule {
    /// The counter rule of Ludii 1.3 (default).
    #[default]
    Progress,
    /// After a fully passed opponent turn, place or capture if you can.
    Legacy,
}

impl PassRule {
    /// Each rule with its name in options and records.
    pub const NAMED: [(&'static str, PassRule); 2] = [("progress", PassRule::Progress), ("legacy", PassRule::Legacy)];
}

/// Whether Ludii's estimated-territory early end (Appendix A) is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Adjudication {
    #[default]
    Off,
    Ludii,
}

impl Adjudication {
    /// Each setting with its name in options and records.
    pub const NAMED: [(&'static str, Adjudication); 2] = [("off", Adjudication::Off), ("ludii", Adjudication::Ludii)];
}

/// All options of a Throngs game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ThrongsOptions {
    pub board: Board,
    pub opening: Opening,
    pub pass_rule: PassRule,
    pub adjudication: Adjudication,
}

const BOARDS: &[&str] = &[
    "T93", "R63", "R87", "R153", "P156", "Torus-8", "Torus-9", "Torus-10", "Torus-11", "Torus-12", "Torus-13",
    "Torus-14", "Torus-15",
];

const SPECS: &[OptionSpec] = &[
    OptionSpec {
        key: "board",
        label: "Board",
        help: "The original triangle, smaller or larger shapes, a board with holes, or a torus without edges.",
        kind: OptionKind::Choice(BOARDS),
    },
    OptionSpec {
        key: "opening",
        label: "Opening (standard, pie, pie-n)",
        help: "standard: the fixed start. pie: one player sets the opening stones, the other picks a colour. pie-3: the same with 3 black and 4 white.",
        kind: OptionKind::Text,
    },
    OptionSpec {
        key: "pass_rule",
        label: "Pass restriction",
        help: "progress: after three parts without a placement you must place or capture. legacy: the older rule after a passed turn.",
        kind: OptionKind::Choice(&["progress", "legacy"]),
    },
    OptionSpec {
        key: "adjudication",
        label: "Auto-adjudication",
        help: "ludii: the game ends early once one side is sure to win, as in Ludii. off: play until both pass.",
        kind: OptionKind::Choice(&["off", "ludii"]),
    },
];

impl GameOptions for ThrongsOptions {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let v = value.trim().to_ascii_lowercase();
        match key.to_ascii_lowercase().as_str() {
            "board" => self.board = Board::parse(value).map_err(|reason| OptionError::bad_value(key, value, reason))?,
            "opening" => {
                self.opening = match v.as_str() {
                    "standard" => Opening::Standard,
                    "pie" => Opening::Pie(1),
                    _ => {
                        let n = v.strip_prefix("pie-").and_then(|n| n.parse::<u8>().ok()).ok_or_else(|| {
                            OptionError::bad_value(key, value, "the openings are standard, pie and pie-n")
                        })?;
                        if !(1..=Opening::PIE_MAX).contains(&n) {
                            return Err(OptionError::bad_value(
                                key,
                                value,
                                format!("n must be between 1 and {}", Opening::PIE_MAX),
                            ));
                        }
                        Opening::Pie(n)
                    }
                }
            }
            "pass_rule" | "passrule" => self.pass_rule = choice_option(key, value, &PassRule::NAMED)?,
            "adjudication" => self.adjudication = choice_option(key, value, &Adjudication::NAMED)?,
            _ => return Err(OptionError::unknown_key(key, SPECS)),
        }
        Ok(())
    }

    fn get(&self, key: &str) -> Option<String> {
        Some(match key.to_ascii_lowercase().as_str() {
            "board" => self.board.name(),
            "opening" => match self.opening {
                Opening::Standard => "standard".into(),
                Opening::Pie(1) => "pie".into(),
                Opening::Pie(n) => format!("pie-{n}"),
            },
            "pass_rule" | "passrule" => choice_name(&PassRule::NAMED, &self.pass_rule).into(),
            "adjudication" => choice_name(&Adjudication::NAMED, &self.adjudication).into(),
            _ => return None,
        })
    }

    fn validate(&self) -> Result<(), OptionError> {
        if let Opening::Pie(n) = self.opening {
            let sites = self.board.geometry().len();
            if 2 * n as usize + 1 > sites {
                return Err(OptionError::bad_value(
                    "opening",
                    &format!("pie-{n}"),
                    format!("{} stones do not fit", 2 * n + 1),
                ));
            }
        }
        Ok(())
    }
}
