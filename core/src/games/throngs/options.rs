//! Throngs options (§3.3): board, opening, pass restriction and auto-adjudication.

use super::board::{Board, MAX_SITES};
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
    /// The largest `n` of `pie-n` on any board: the `2n + 1` offered stones fit on Torus-15's 225
    /// sites. Each board has its own, smaller maximum ([`Board::pie_max`]), which `validate` checks
    /// once the board is known (options are set in any order).
    pub const PIE_MAX_ANY_BOARD: u8 = ((MAX_SITES - 1) / 2) as u8;
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
        label: "Opening",
        help: "The fixed start, or the pie rule: one player sets the opening stones, the other picks which colour to play.",
        kind: OptionKind::Choice(&["standard", "pie", "pie-2", "pie-3", "pie-4", "pie-5", "pie-6"]),
    },
    OptionSpec {
        key: "pass_rule",
        label: "When you must place",
        help: "How often a player must place a stone (or capture) instead of passing or moving.",
        kind: OptionKind::Choice(&["progress", "legacy"]),
    },
    OptionSpec {
        key: "adjudication",
        label: "Early end",
        help: "Whether the game may end as soon as one side is sure to win, or only when both players pass.",
        kind: OptionKind::Choice(&["off", "ludii"]),
    },
];

impl GameOptions for ThrongsOptions {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    /// When a player must place, and the early end: the rule book's variants.
    const VARIANTS: usize = 2;

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let v = value.trim().to_ascii_lowercase();
        match key.to_ascii_lowercase().as_str() {
            "board" => self.board = Board::parse(value).map_err(|reason| OptionError::bad_value(key, value, reason))?,
            "opening" => {
                self.opening = match v.as_str() {
                    "standard" => Opening::Standard,
                    "pie" => Opening::Pie(1),
                    _ => {
                        let digits = v
                            .strip_prefix("pie-")
                            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                            .ok_or_else(|| {
                                OptionError::bad_value(
                                    key,
                                    value,
                                    "the openings are standard, pie and pie-n (e.g. pie-3)",
                                )
                            })?;
                        // Digits only, so a failed parse is a number past u64: far too many stones.
                        let n = digits.parse::<u64>().unwrap_or(u64::MAX);
                        if n == 0 {
                            return Err(OptionError::bad_value(key, value, "n must be at least 1"));
                        }
                        let largest = Opening::PIE_MAX_ANY_BOARD;
                        let n = u8::try_from(n).ok().filter(|&n| n <= largest).ok_or_else(|| {
                            OptionError::bad_value(
                                key,
                                value,
                                format!(
                                    "n is at most {largest}: the 2n + 1 offered stones must fit on the board, and \
                                     the largest (Torus-15) has {MAX_SITES} sites"
                                ),
                            )
                        })?;
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

    /// The pie offer must fit on the board chosen (§3.2 asks only n ≥ 1).
    fn validate(&self) -> Result<(), OptionError> {
        if let Opening::Pie(n) = self.opening {
            let max = self.board.pie_max();
            if n > max {
                let board = self.board.name();
                let sites = self.board.geometry().len();
                return Err(OptionError::bad_value(
                    "opening",
                    &format!("pie-{n}"),
                    format!(
                        "its {} offered stones do not fit on the {board} board ({sites} sites): n is at most {max} \
                         on {board}",
                        2 * n as usize + 1
                    ),
                ));
            }
        }
        Ok(())
    }
}
