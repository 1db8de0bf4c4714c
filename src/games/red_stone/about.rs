//! What Red Stone says about itself beyond its rules: names, decisions in words, the rules in
//! brief with the spec's worked examples, and its record text (`games::About`).

use super::{Position, RecordResult, RedStoneOptions, format_record, parse_record_over};
use crate::games::About;
use crate::rules::Rules;
use crate::rules::{Illustration, Notation, ParseError, RulesHelp, Tone};

impl About for Position {
    const NAME: &'static str = "Red Stone";
    const DESIGNER: &'static str = "Mark Steere (2012)";
    const TAGLINE: &'static str = "Go played to annihilation: every capture is made with a permanent red stone.";
    const SIDE_NAMES: [&'static str; 2] = ["Black", "White"];
    const SIDE_TONES: [Tone; 2] = [Tone::Dark, Tone::Light];
    const RULES: RulesHelp = RulesHelp { sections: SECTIONS, illustrations: ILLUSTRATIONS };
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

/// The rules in brief, in our own words (the contract is the spec in `shared/rules`).
const SECTIONS: &[(&str, &str)] = &[
    ("Goal", "Annihilate: win by leaving your opponent with no stones after your red stone captures."),
    (
        "A turn",
        "Place one stone on an empty point: your own colour, or a neutral red stone. An own stone may never leave a group without liberties; a red stone must do so, and every group of black or white stones left without liberties is removed, whoever owns it.",
    ),
    ("Pie rule", "After Black's first stone, White may swap: the players exchange colours and White moves next."),
    (
        "Here",
        "Click a point. When both your colour and red are possible, choose in the list. With hints on, the points a red stone would capture from are marked.",
    ),
];

/// The spec's worked examples that show the rules at work.
const ILLUSTRATIONS: &[Illustration] = &[
    Illustration {
        caption: "S3: White's red stone on C3 removes every group left without a liberty — two black \
                          groups and White's own C2–D2 as well.",
        options: &[("size", "5")],
        position: ".OXO./.OXO./.O.XR/.XOOR/..XX. w",
        play: "C3*",
    },
    Illustration {
        caption: "S5: A1 is Black's last eye. White may not fill it with white (that would capture), but a red \
                          stone there removes all nine black stones and wins.",
        options: &[("size", "5")],
        position: "XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w",
        play: "A1*",
    },
];
