//! What Hidden Intention says about itself beyond its rules: names, decisions in words, the rules in
//! brief with the spec's worked examples, and its record text (`games::About`).

use super::{HiddenIntentionOptions, Position, format_record, parse_record};
use crate::games::{About, LineCounter};
use crate::rules::{NoOptions, ParseError, RulesHelp, Tone};

impl About for Position {
    const NAME: &'static str = "Hidden Intention";
    const DESIGNER: &'static str = "the author of the yaloalo blog";
    const TAGLINE: &'static str =
        "Both players secretly commit a figure at once; clashing influence burns squares and topples figures.";
    // The spec's display names (§1): A is White with the light figures, B Black with the dark.
    const SIDE_NAMES: [&'static str; 2] = ["White", "Black"];
    const SIDE_TONES: [Tone; 2] = [Tone::Light, Tone::Dark];
    const RULES: RulesHelp = super::reference::RULES;

    fn decision_words(token: &str, _mover: &str) -> Option<String> {
        let (_, stage) = token.split_once(':')?;
        if let Some((a, b)) = stage.split_once("<>") {
            return Some(format!("Swap the figures on {a} and {b}"));
        }
        if let Some(facing) = stage.strip_prefix('/') {
            return Some(format!("Knight facing {}", facing.to_uppercase()));
        }
        let figure = match stage {
            "P" => "Pawn",
            "X" => "Pawn (diagonal)",
            "R" => "Rook",
            "B" => "Bishop",
            "N" => "Knight",
            "Q" => "Queen",
            square => return Some(format!("On {square}")),
        };
        Some(figure.to_string())
    }

    fn end_reason(&self) -> Option<String> {
        use crate::rules::{Rules, Status};
        let Status::Over(_) = self.status() else { return None };
        let counts = self.field_counts();
        let (a, b) = (Self::SIDE_NAMES[0], Self::SIDE_NAMES[1]);
        use crate::rules::Side;
        // The game also ends, supplies or not, when a side has no square it may place on.
        let why = if self.supply(Side::First).is_empty() && self.supply(Side::Second).is_empty() {
            "Both supplies are empty"
        } else {
            "A player has no square left to place on"
        };
        Some(format!("{why}: {a} controls {} squares, {b} {}", counts.a, counts.b))
    }

    fn next_line(counter: &mut LineCounter, token: &str) -> Option<String> {
        // §8.3: `turn.attempt` (`a` and `b`, from 1); an attempt that burned a square is tried
        // again in the same turn.
        counter.tokens += 1;
        let (turn, attempt) = (counter.a.max(1), counter.b.max(1));
        if burned_target(token) {
            (counter.a, counter.b) = (turn, attempt + 1);
        } else {
            (counter.a, counter.b) = (turn + 1, 1);
        }
        Some(format!("{turn}.{attempt}"))
    }

    fn to_do(&self) -> Option<String> {
        use crate::rules::{Rules, Side, ToMove};
        let Some(ToMove::Both) = self.to_move() else { return None };
        // Said without reading a sealed choice: only how far the side to act has got.
        let side = if self.is_sealed(Side::First) { Side::Second } else { Side::First };
        let staged = self.staged(side);
        Some(match (staged.figure, staged.target) {
            (None, _) => "Choose a figure — and a swap first if you like — in secret".to_string(),
            (Some(_), None) => "Now choose an empty square for it".to_string(),
            (Some(_), Some(_)) => "Choose which corner the knight faces".to_string(),
        })
    }

    fn read_record_text(
        text: &str,
        _base: &HiddenIntentionOptions,
    ) -> Result<(HiddenIntentionOptions, Vec<String>), ParseError> {
        // The game has no options: a record is its attempts.
        parse_record(text).map(|record| (NoOptions, record.tokens))
    }

    fn write_record_text(
        _options: &HiddenIntentionOptions,
        players: [&str; 2],
        tokens: &[String],
    ) -> Result<String, ParseError> {
        format_record(players[0], players[1], tokens)
    }
}

/// Whether both commitments of an attempt token (`Pc6|Xc6`) name the same target square: it
/// burned (§6.6), and the same turn is tried again.
fn burned_target(token: &str) -> bool {
    let target = |commitment: &str| crate::rules::cells_in_token(commitment).last().map(|c| c.to_string());
    token.split_once('|').is_some_and(|(a, b)| target(a).is_some() && target(a) == target(b))
}
