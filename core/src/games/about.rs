//! `About`: what a game says about itself beyond its rules — its names, its words for people, its
//! rules in brief and its record text. Each game's folder implements it (`about.rs`), and the
//! registry (`registry.rs`) turns every implementation into one row of the list of games.

use crate::rules::{Cell, DrawBoard, Notation, ParseError, RecordPiece, RulesHelp, Side, Tone, lex_record};

/// What a game tells a player before a decision that would hurt at once (Gravel: an end of turn
/// that lets the opponent win on its next turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// One sentence in a player's words.
    pub text: String,
    /// The spaces the sentence is about (the pieces the opponent would take), for marks.
    pub cells: Vec<Cell>,
}

/// A game's record moves grouped as its record numbers them: each number as the record writes it
/// ("1.", "3B", "2.1") with the indices of the tokens it holds.
pub type NumberedMoves = Vec<(String, Vec<usize>)>;

/// Where a record's numbering stands after some of its tokens, so that the numbering goes on
/// one token at a time (a move list kept up decision by decision). Each game uses what it needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineCounter {
    /// Tokens numbered so far.
    pub tokens: usize,
    /// The game's own counters (Hidden Intention's turn and attempt; Throngs' pie tokens and
    /// whether the turns have begun).
    pub a: u32,
    pub b: u32,
}

/// The numbered moves of `tokens`, one token at a time through a game's `next_line`.
pub fn number_tokens(next_line: fn(&mut LineCounter, &str) -> Option<String>, tokens: &[String]) -> NumberedMoves {
    let mut counter = LineCounter::default();
    let mut moves: NumberedMoves = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match (next_line(&mut counter, token), moves.last_mut()) {
            (None, Some((_, line))) => line.push(i),
            (label, _) => moves.push((label.unwrap_or_default(), vec![i])),
        }
    }
    moves
}

/// Everything about a game that is not its rules, as data and plain functions.
pub trait About: Notation + DrawBoard {
    /// The game's name for people ("Red Stone").
    const NAME: &'static str;
    /// Who designed it and when.
    const DESIGNER: &'static str;
    /// One line about the game.
    const TAGLINE: &'static str;
    /// The sides as people name them, the first side first ("Black", "Light", "White").
    const SIDE_NAMES: [&'static str; 2];
    /// The colour each side's pieces are drawn in, the first side first.
    const SIDE_TONES: [Tone; 2];
    /// The rules in brief, with illustrations from the spec's worked examples.
    const RULES: RulesHelp;
    /// What the pie choice means, for a game with a pie rule.
    const PIE_TEXT: Option<&'static str> = None;
    /// Options for a short game (a small board, a low target), as `key=value` pairs: what the
    /// tests and the gallery play when a whole game has to fit in seconds.
    const QUICK_OPTIONS: &'static [(&'static str, &'static str)] = &[];

    /// An atomic decision in words ("Red stone on C3"); `mover` names the side that makes it.
    /// `None` when the token is not one of this game's decisions.
    fn decision_words(token: &str, mover: &str) -> Option<String>;

    /// A value of option `key` in words for the setup screen ("T93" → "Throngs 93: the original
    /// triangle, 93 sites"); `None` to show the value as it is.
    fn option_value_words(_key: &str, _value: &str) -> Option<String> {
        None
    }

    /// Why the game ended, in words ("Black has no stones left", "A controls 34 squares to 27");
    /// `None` while it goes on.
    fn end_reason(&self) -> Option<String>;

    /// How the game's record numbers its moves, one token at a time: `Some(label)` when `token`
    /// opens a new numbered move, with its number as the record writes it ("1.", "3B", "2.1");
    /// `None` when it joins the numbered move before (Gravel's second side of a round). By
    /// default every token is a numbered move of its own.
    fn next_line(counter: &mut LineCounter, _token: &str) -> Option<String> {
        counter.tokens += 1;
        Some(format!("{}.", counter.tokens))
    }

    /// What stands between the tokens of one numbered move in the record (" ; " in Gravel).
    const MOVE_JOINER: &'static str = " ";

    /// What the side to act can do now, in words for the status line ("Place a stone, or a red
    /// stone where it captures"); `None` once the game is over.
    fn to_do(&self) -> Option<String>;

    /// Why the side to act can do nothing at `cell` now, in words a player understands ("placing
    /// on f6 needs power 1 or more …"); `None` when something can be done there, or when the game
    /// has no more to say than the status line's [`About::to_do`]. By default `None`.
    fn why_nothing_at(&self, _cell: Cell) -> Option<String> {
        None
    }

    /// The spaces holding `side`'s pieces that the opponent could take on its next turn, for the
    /// board's danger marks. By default none (games whose danger the board view already marks,
    /// such as a group with one liberty, need nothing here).
    fn threatened(&self, _side: Side) -> Vec<Cell> {
        Vec::new()
    }

    /// A warning to show before the side to act makes `decision` (a token as `legal_decisions`
    /// writes it), when making it now would let the opponent win at once. By default none.
    fn warning_before(&self, _decision: &str) -> Option<Warning> {
        None
    }

    /// Whether `text` is written in this game's record notation (its header says so). By
    /// default: among the PGN-like tags it opens with is `[Game "<NAME>"]`, in any place.
    fn is_record_text(text: &str) -> bool {
        leading_tags(text).iter().any(|(key, value)| *key == "Game" && value.eq_ignore_ascii_case(Self::NAME))
    }

    /// The options and the record moves (tokens of the spec's notation) of a record text.
    /// `base` are the options of everything the record's tags leave unsaid: the defaults, or
    /// what the player asked for; a record without a header is its moves under `base`.
    fn read_record_text(text: &str, base: &Self::Options) -> Result<(Self::Options, Vec<String>), ParseError>;

    /// The record text of a game played from the initial position of `options`: `players` name
    /// the players of the first and second side, `tokens` are its record moves.
    fn write_record_text(options: &Self::Options, players: [&str; 2], tokens: &[String]) -> Result<String, ParseError>;
}

/// The `[Key "value"]` tags on the lines a text opens with (lines that start with `[`), in order;
/// none when those lines do not read as tags.
pub fn leading_tags(text: &str) -> Vec<(&str, String)> {
    let head_end = text
        .lines()
        .map(str::trim)
        .take_while(|line| line.is_empty() || line.starts_with('['))
        .last()
        .map_or(0, |last| last.as_ptr() as usize - text.as_ptr() as usize + last.len());
    let Ok(items) = lex_record(&text[..head_end]) else { return Vec::new() };
    items
        .into_iter()
        .map_while(|item| match item.piece {
            RecordPiece::Tag { key, value, .. } => Some((key, value)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_tags_are_read_from_the_header_lines_only() {
        let text = "\n[Topology \"flat\"] [Game \"Inchworm\"]\n[White \"x\"]\n1. Da1 [Game \"Gravel\"]";
        let tags = leading_tags(text);
        assert_eq!(tags, vec![("Topology", "flat".into()), ("Game", "Inchworm".into()), ("White", "x".into())]);
        assert!(leading_tags("1. Da1").is_empty());
        assert!(leading_tags("[Game \"Inchworm\"").is_empty(), "a broken tag is no header");
    }
}
