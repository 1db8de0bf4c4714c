//! What Red Stone says about itself beyond its rules: names, decisions in words, the rules in
//! brief with the spec's worked examples, and its record text (`games::About`).

use super::{Position, RecordResult, RedStoneOptions, format_record, parse_record_over};
use crate::games::About;
use crate::rules::Rules;
use crate::rules::{Notation, ParseError, RulesHelp, Tone};

impl About for Position {
    const NAME: &'static str = "Red Stone";
    const DESIGNER: &'static str = "Mark Steere (2012)";
    const TAGLINE: &'static str = "Go played to annihilation: every capture is made with a permanent red stone.";
    const SIDE_NAMES: [&'static str; 2] = ["Black", "White"];
    const SIDE_TONES: [Tone; 2] = [Tone::Dark, Tone::Light];
    const RULES: RulesHelp = super::reference::RULES;
    const QUICK_OPTIONS: &'static [(&'static str, &'static str)] = &[("size", "5")];
    const PIE_TEXT: Option<&'static str> = Some(
        "Black has placed the first stone. Swap to take it as yours (you play Black and the other player White), or keep White and place a stone.",
    );

    fn decision_words(token: &str, mover: &str) -> Option<String> {
        if token.eq_ignore_ascii_case("swap") {
            return Some("Swap colours (take Black's stone)".into());
        }
        match token.strip_suffix('*') {
            Some(point) => Some(format!("Red stone on {point}")),
            None => Some(format!("{mover} stone on {token}")),
        }
    }

    fn end_reason(&self) -> Option<String> {
        use super::EndReason;
        let (winner, reason) = self.result()?;
        let (won, lost) = (Self::SIDE_NAMES[winner.index()], Self::SIDE_NAMES[winner.opponent().index()]);
        Some(match reason {
            EndReason::Annihilation => format!("{lost} has no stones left"),
            EndReason::DoubleAnnihilation => {
                format!("{won}'s red stone removed every black and white stone, and the mover wins")
            }
            EndReason::SelfAnnihilation => format!("{lost}'s red stone removed {lost}'s own last stones"),
            EndReason::NoLegalPlacement => format!("{lost} had no legal placement"),
        })
    }

    fn to_do(&self) -> Option<String> {
        use crate::rules::Rules;
        self.to_move()?;
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let swap = moves.iter().any(|m| self.format_move(m) == "swap");
        let red = moves.iter().any(|m| self.format_move(m).ends_with('*'));
        Some(match (swap, red) {
            (true, _) => "Swap colours, or place a stone".to_string(),
            (false, true) => "Place a stone — or a red stone where it captures".to_string(),
            (false, false) => "Place a stone of your colour".to_string(),
        })
    }

    fn why_nothing_at(&self, cell: crate::rules::Cell) -> Option<String> {
        use super::moves::{Move, PlacementChoice};
        if self.result.is_some() || self.placement_choice(cell) != PlacementChoice::None {
            return None;
        }
        self.why_illegal(&Move::stone(cell))
    }

    fn is_record_text(text: &str) -> bool {
        let head = text.trim_start();
        // Red Stone's `key: value` record; Stoneyard's own plain text has no `moves:` line.
        head.starts_with("game:") && text.lines().any(|l| l.trim_start().starts_with("moves:"))
    }

    fn read_record_text(text: &str, base: &RedStoneOptions) -> Result<(RedStoneOptions, Vec<String>), ParseError> {
        let r = parse_record_over(text, base)?;
        // A final `resign` is an app-level token (decision D13), not a move to replay.
        Ok((r.options, r.tokens.into_iter().filter(|t| t != "resign").collect()))
    }

    fn write_record_text(
        options: &RedStoneOptions,
        players: [&str; 2],
        tokens: &[String],
    ) -> Result<String, ParseError> {
        let mut end = Position::new(options);
        for token in tokens {
            end.play_record_token(token).map_err(|e| ParseError::new(e.to_string()))?;
        }
        Ok(format_record(options, (players[0], players[1]), tokens, RecordResult::of(&end)))
    }
}
