//! What Hidden Intention says about itself beyond its rules: names, decisions in words, the rules in
//! brief with the spec's worked examples, and its record text (`games::About`).

use super::{HiddenIntentionOptions, Position, format_record, parse_record};
use crate::games::{About, LineCounter};
use crate::rules::{Illustration, NoOptions, ParseError, RulesHelp, Tone};

impl About for Position {
    const NAME: &'static str = "Hidden Intention";
    const DESIGNER: &'static str = "the author of the yaloalo blog";
    const TAGLINE: &'static str =
        "Both players secretly commit a figure at once; clashing influence burns squares and topples figures.";
    // The spec's display names (§1): A is White with the light figures, B Black with the dark.
    const SIDE_NAMES: [&'static str; 2] = ["White", "Black"];
    const SIDE_TONES: [Tone; 2] = [Tone::Light, Tone::Dark];
    const RULES: RulesHelp = RulesHelp { sections: SECTIONS, illustrations: ILLUSTRATIONS };

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
        Some(format!("Both supplies are empty: {a} controls {} squares, {b} {}", counts.a, counts.b))
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

/// The rules in brief, in our own words (the contract is the spec in `shared/rules`).
const SECTIONS: &[(&str, &str)] = &[
    (
        "Goal",
        "Control more squares when both supplies are empty: each square's influence is White's total minus Black's.",
    ),
    (
        "A turn",
        "Both players secretly choose at the same time: optionally swap two of their figures (twice per game), then a figure from supply and an empty square that is neutral or their own (a knight also faces a corner).",
    ),
    (
        "Burn",
        "If both chose the same square, it burns: closed to both until the next successful attempt, and both choose again.",
    ),
    (
        "Cascade",
        "After placing, figures standing on enemy ground are removed, round after round, until the board is stable.",
    ),
    (
        "Here",
        "Build your choice in the list, then hand the device over: the board hides until the other player is ready. Both choices are revealed together.",
    ),
];

/// The spec's worked examples that show the rules at work.
const ILLUSTRATIONS: &[Illustration] = &[Illustration {
    caption: "Example 3: White's pawn on d5 holds only thanks to White's knight on d4. Black's new knight on c4 \
                      pulls the d4 square below zero: White's knight falls in the first round of the cascade, and then its pawn in \
                      the second.",
    options: &[],
    position: "Nd4/ne Pd5 ; Ra5 Rh5 ; P7R2B2N0Q1 P8R0B2N1Q1 ; 2 2 ; - ; 3.1",
    play: "Pg2|Nc4/ne",
}];

/// Whether both commitments of an attempt token (`Pc6|Xc6`) name the same target square: it
/// burned (§6.6), and the same turn is tried again.
fn burned_target(token: &str) -> bool {
    let target = |commitment: &str| crate::rules::cells_in_token(commitment).last().map(|c| c.to_string());
    token.split_once('|').is_some_and(|(a, b)| target(a).is_some() && target(a) == target(b))
}
