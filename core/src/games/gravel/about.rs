//! What Gravel says about itself beyond its rules: names, decisions in words, the rules in
//! brief with the spec's worked examples, and its record text (`games::About`).

use super::{GravelOptions, Position, format_record, parse_record_over};
use crate::games::{About, LineCounter, Warning, plural};
use crate::rules::{Cell, ParseError, RulesHelp, Side, Tone};

impl About for Position {
    const NAME: &'static str = "Gravel";
    const DESIGNER: &'static str = "Brian Train (2025)";
    const TAGLINE: &'static str =
        "Place, move and remove stacks to control the board; neighbours decide who owns a space.";
    const SIDE_NAMES: [&'static str; 2] = ["Light", "Dark"];
    const SIDE_TONES: [Tone; 2] = [Tone::Light, Tone::Dark];
    const RULES: RulesHelp = super::reference::RULES;
    const QUICK_OPTIONS: &'static [(&'static str, &'static str)] = &[("N", "4")];

    fn decision_words(token: &str, _mover: &str) -> Option<String> {
        Some(match token {
            "end" => "End turn".into(),
            "pass" => "Pass".into(),
            _ => {
                if let Some(t) = token.strip_prefix('+') {
                    format!("Place a piece on {t}")
                } else if let Some(s) = token.strip_prefix('-') {
                    format!("Return a piece from {s} to the pool")
                } else if let Some(s) = token.strip_prefix('x') {
                    format!("Remove an enemy piece from {s}")
                } else {
                    let (from, to) = token.split_once('>')?;
                    format!("Move a piece {from} → {to}")
                }
            }
        })
    }

    fn option_value_words(key: &str, value: &str) -> Option<String> {
        if !key.eq_ignore_ascii_case("layout") {
            return None;
        }
        Some(
            match value {
                "squares" => "Squares (a board of squares)",
                "intersections" => "Intersections (points where lines cross)",
                _ => return None,
            }
            .to_string(),
        )
    }

    fn end_reason(&self) -> Option<String> {
        use super::EndReason;
        let result = self.result()?;
        Some(match result.reason {
            EndReason::LossCondition => {
                let loser = if result.flags[0].any() { 0 } else { 1 };
                let name = Self::SIDE_NAMES[loser];
                match (result.flags[loser].attrition, result.flags[loser].territory) {
                    (true, true) => {
                        format!("{name} lost more than half of their pieces, and holds fewer spaces than pieces lost")
                    }
                    (true, false) => format!("{name} lost more than half of their pieces"),
                    _ => format!("{name} holds fewer spaces than pieces lost"),
                }
            }
            EndReason::MutualLoss => "Both players met a loss condition at once: a draw".to_string(),
            EndReason::Deadlock => "Neither player can remove a piece or gain a space: a draw".to_string(),
            EndReason::TurnLimit => "The turn limit was reached: a draw".to_string(),
        })
    }

    fn next_line(counter: &mut LineCounter, _token: &str) -> Option<String> {
        // §9.3: a numbered line per game turn, Light's turn then Dark's.
        let i = counter.tokens;
        counter.tokens += 1;
        i.is_multiple_of(2).then(|| format!("{}.", i / 2 + 1))
    }

    const MOVE_JOINER: &'static str = " ; ";

    fn to_do(&self) -> Option<String> {
        use super::Phase;
        use crate::rules::{Rules, ToMove};
        let Some(ToMove::One(side)) = self.to_move() else { return None };
        let progress = self.progress();
        let left = self.budget().saturating_sub(progress.used);
        Some(match progress.phase {
            Phase::Start if self.pool(side) == 0 && self.pieces_on_board(side) == 0 => {
                "You have no pieces left: pass".to_string()
            }
            Phase::Start => {
                format!("Place, move or return up to {} — or remove enemy pieces first", plural(left.into(), "piece"))
            }
            Phase::RemoveFirst => format!("{} left: remove more, then place", plural(left.into(), "action")),
            _ if left == 0 => "No actions left: end the turn".to_string(),
            _ => format!("{} left — or end the turn", plural(left.into(), "action")),
        })
    }

    fn threatened(&self, side: Side) -> Vec<Cell> {
        Position::threatened(self, side)
    }

    fn warning_before(&self, decision: &str) -> Option<Warning> {
        if decision != "end" {
            return None;
        }
        self.end_turn_warning()
    }

    fn is_record_text(text: &str) -> bool {
        text.trim_start().starts_with("[Gravel")
    }

    fn read_record_text(text: &str, base: &GravelOptions) -> Result<(GravelOptions, Vec<String>), ParseError> {
        parse_record_over(text, base)
    }

    fn write_record_text(
        options: &GravelOptions,
        _players: [&str; 2],
        tokens: &[String],
    ) -> Result<String, ParseError> {
        Ok(format_record(options, tokens))
    }
}
