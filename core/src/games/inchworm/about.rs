//! What Inchworm says about itself beyond its rules: names, decisions in words, the rules in
//! brief with the spec's worked examples, and its record text (`games::About`).

use super::{InchwormOptions, Position, format_record, parse_record_over};
use crate::games::{About, LineCounter};
use crate::rules::{ParseError, RulesHelp, Tone};

impl About for Position {
    const NAME: &'static str = "Inchworm";
    const DESIGNER: &'static str = "Clark D. Rodeffer (2000)";
    const TAGLINE: &'static str =
        "Drop, collect and spread stacks; surround enemy groups to capture them. First to 60 wins.";
    const SIDE_NAMES: [&'static str; 2] = ["Black", "White"];
    const SIDE_TONES: [Tone; 2] = [Tone::Dark, Tone::Light];
    const RULES: RulesHelp = super::reference::RULES;
    const QUICK_OPTIONS: &'static [(&'static str, &'static str)] = &[("target", "4")];

    fn decision_words(token: &str, _mover: &str) -> Option<String> {
        let (head, rest) = token.split_at(token.chars().next().map_or(0, char::len_utf8));
        Some(match head {
            _ if token == "pass" => "Pass".into(),
            "R" if rest.is_empty() => "Rescue all your stones the opponent holds".into(),
            "D" => format!("Drop a stone on {rest}"),
            "P" => format!("Place a stone on {rest}"),
            "C" => format!("Collect, starting at {rest}"),
            "S" => format!("Distribute from {rest}"),
            "-" => format!("Continue through {rest}"),
            ">" => format!("Collect onto {rest}"),
            _ => return None,
        })
    }

    fn option_value_words(key: &str, value: &str) -> Option<String> {
        if !key.eq_ignore_ascii_case("topology") {
            return None;
        }
        Some(
            match value {
                "flat" => "Flat: an ordinary board",
                "cylinder" => "Cylinder: the a and h files touch",
                "torus" => "Torus: every edge touches the opposite one",
                _ => return None,
            }
            .to_string(),
        )
    }

    fn end_reason(&self) -> Option<String> {
        use crate::rules::{Rules, Side, Status};
        let Status::Over(_) = self.status() else { return None };
        let [black, white] = Side::BOTH.map(|s| self.score(s));
        let (b, w) = (Self::SIDE_NAMES[0], Self::SIDE_NAMES[1]);
        let target = self.options.target;
        Some(if black >= target || white >= target {
            let (winner, score) = if black >= white { (b, black) } else { (w, white) };
            format!("{winner} reached {score} points (the target is {target})")
        } else if self.options.quiet_limit > 0 && self.quiet() >= self.options.quiet_limit {
            format!("{} actions without a capture: {b} {black}, {w} {white}", self.quiet())
        } else {
            format!("Both players passed in a row: {b} {black}, {w} {white}")
        })
    }

    fn next_line(counter: &mut LineCounter, _token: &str) -> Option<String> {
        // §10.4: `1. Da1 Db1 2. …`, Black's action then White's under one number.
        let i = counter.tokens;
        counter.tokens += 1;
        i.is_multiple_of(2).then(|| format!("{}.", i / 2 + 1))
    }

    fn to_do(&self) -> Option<String> {
        use crate::rules::Rules;
        self.to_move()?;
        Some(if self.pending_spread().is_some() {
            "Distribute: choose the next cell of its path".to_string()
        } else if self.pending_collect().is_some() {
            "Collect: take in the next stack of the line, or choose a cell of the line to gather all there".to_string()
        } else {
            "Drop a stone, collect, distribute — or rescue your prisoners".to_string()
        })
    }

    fn read_record_text(text: &str, base: &InchwormOptions) -> Result<(InchwormOptions, Vec<String>), ParseError> {
        parse_record_over(text, base).map(|record| (record.options, record.tokens))
    }

    fn write_record_text(
        options: &InchwormOptions,
        _players: [&str; 2],
        tokens: &[String],
    ) -> Result<String, ParseError> {
        format_record(options, tokens)
    }
}
