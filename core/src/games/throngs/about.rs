//! What Throngs says about itself beyond its rules: names, decisions in words, the rules in
//! brief with the spec's worked examples, and its record text (`games::About`).

use super::{Position, ThrongsOptions, format_record, parse_record_over};
use crate::games::{About, LineCounter};
use crate::rules::{ParseError, RulesHelp, Tone};

impl About for Position {
    const NAME: &'static str = "Throngs";
    const DESIGNER: &'static str = "Dale W. Walton (2020)";
    const TAGLINE: &'static str =
        "Double moves on a triangular board; stones hop along lines with power from their neighbours.";
    const SIDE_NAMES: [&'static str; 2] = ["Black", "White"];
    const SIDE_TONES: [Tone; 2] = [Tone::Dark, Tone::Light];
    const RULES: RulesHelp = super::reference::RULES;
    const QUICK_OPTIONS: &'static [(&'static str, &'static str)] = &[("board", "R63")];
    const PIE_TEXT: Option<&'static str> =
        Some("Your opponent laid out the opening. Take the colour you think is better: Black moves next.");

    fn decision_words(token: &str, _mover: &str) -> Option<String> {
        if token == "pass" {
            return Some("Pass".into());
        }
        if let Some(colour) = token.strip_prefix("choose ") {
            return Some(if colour.eq_ignore_ascii_case("black") {
                "Take Black (move first)".into()
            } else {
                "Take White (Black moves first)".into()
            });
        }
        if let Some(site) = token.strip_prefix("B:") {
            return Some(format!("Offer a black stone on {site}"));
        }
        if let Some(site) = token.strip_prefix("W:") {
            return Some(format!("Offer a white stone on {site}"));
        }
        if let Some(site) = token.strip_prefix('+') {
            return Some(format!("Place on {site}"));
        }
        if let Some(site) = token.strip_prefix('x') {
            return Some(format!("Capture on {site}"));
        }
        if let Some(site) = token.strip_prefix('>') {
            return Some(format!("Travel to {site}"));
        }
        token.strip_suffix('>').map(|site| format!("Move the stone on {site}"))
    }

    fn option_value_words(key: &str, value: &str) -> Option<String> {
        let words = |w: &str| Some(w.to_string());
        match (key.to_ascii_lowercase().as_str(), value) {
            ("opening", "standard") => return words("Standard: the fixed start"),
            ("opening", "pie") => {
                return words("Pie: 1 black and 2 white stones set by one, a colour chosen by the other");
            }
            ("opening", pie) => {
                let n: u32 = pie.strip_prefix("pie-")?.parse().ok()?;
                return Some(format!("Pie with {n} black and {} white stones set by one player", n + 1));
            }
            ("pass_rule", "progress") => {
                return words("Often: after three parts without placing, place or capture");
            }
            ("pass_rule", "legacy") => {
                return words("Older rule: after the opponent passes a whole turn, place or capture");
            }
            ("adjudication", "off") => return words("No: play until both players pass"),
            ("adjudication", "ludii") => return words("Yes: end once one side is sure to win"),
            ("board", _) => {}
            _ => return None,
        }
        Some(match value {
            "T93" => "Throngs 93: the original triangle (93 sites)".to_string(),
            "R63" => "R63: a small hexagon, quick games (63 sites)".to_string(),
            "R87" => "R87: a hexagon (87 sites)".to_string(),
            "R153" => "R153: a large polygon (153 sites)".to_string(),
            "P156" => "P156: perforated, a hole beside every site (156 sites)".to_string(),
            torus => {
                let n: u32 = torus.strip_prefix("Torus-")?.parse().ok()?;
                format!("Torus {n}: no edges, {n} × {n} ({} sites)", n * n)
            }
        })
    }

    fn end_reason(&self) -> Option<String> {
        use crate::rules::{Outcome, Rules, Side, Status};
        let Status::Over(outcome) = self.status() else { return None };
        let [black, white] = Side::BOTH.map(|s| self.stones_of(s));
        let count = format!("{} has {black} stones on the board, {} {white}", Self::SIDE_NAMES[0], Self::SIDE_NAMES[1]);
        if self.adjudicated().is_some() {
            let winner = match outcome {
                Outcome::Winner(side) => Self::SIDE_NAMES[side.index()],
                Outcome::Draw => return Some(format!("Ended early by Ludii's estimate: {count}")),
            };
            return Some(format!("{winner} is sure to hold more of the board (Ludii's estimate)"));
        }
        Some(format!("Both players passed a whole turn: {count}"))
    }

    fn next_line(counter: &mut LineCounter, token: &str) -> Option<String> {
        // §5: the pie lines (counted in `a` until the turns begin, `b` = 1), then a line per
        // turn, `1B`, `1W`, `2B`, … with its two parts.
        counter.tokens += 1;
        if counter.b == 0 && super::record::is_pie_token(token.trim()) {
            counter.a += 1;
            return Some(String::new());
        }
        counter.b = 1;
        let part = counter.tokens - 1 - counter.a as usize;
        let turn = part / 2;
        let side = if turn.is_multiple_of(2) { "B" } else { "W" };
        part.is_multiple_of(2).then(|| format!("{}{side}", turn / 2 + 1))
    }

    fn to_do(&self) -> Option<String> {
        use super::Phase;
        use crate::rules::Rules;
        self.to_move()?;
        Some(match (self.phase(), self.started()) {
            (Phase::PieOffer, _) => "Lay out the opening: the offered stones".to_string(),
            (Phase::PieChoice, _) => "Choose your colour".to_string(),
            (_, Some(started)) => {
                format!("Choose where the stone travels ({} power left), or stop where it is", started.range)
            }
            _ => format!("Part {} of 2: place, capture or move a stone", self.part()),
        })
    }

    fn why_nothing_at(&self, cell: crate::rules::Cell) -> Option<String> {
        Position::why_nothing_at(self, cell)
    }

    fn read_record_text(text: &str, base: &ThrongsOptions) -> Result<(ThrongsOptions, Vec<String>), ParseError> {
        parse_record_over(text, base).map(|record| (record.options, record.tokens))
    }

    fn write_record_text(
        options: &ThrongsOptions,
        _players: [&str; 2],
        tokens: &[String],
    ) -> Result<String, ParseError> {
        Ok(format_record(options, tokens))
    }
}
