//! The game record of spec §10.4: PGN-like tags for the options, numbered move pairs (Black
//! first), optional `{comments}` and a result token (`1-0`, `0-1`, `1/2-1/2`, `*`).

use super::notation::piece_char;
use super::options::InchwormOptions;
use super::position::Position;
use crate::games::About;
use crate::rules::{
    GameOptions, Notation, Outcome, ParseError, RecordPiece, Rules, Side, Status, lex_record, strip_comments,
};

/// A record read back and replayed from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InchwormRecord {
    pub options: InchwormOptions,
    /// Tags that are not options (`Game`, player names, …), in the order written.
    pub tags: Vec<(String, String)>,
    /// The action tokens in order, comments removed.
    pub tokens: Vec<String>,
    /// The result token as written, if any.
    pub result: Option<String>,
    /// The position after the last action.
    pub position: Position,
}

/// The tags of the options, in the spec's order, with their option keys.
const OPTION_TAGS: [(&str, &str); 5] = [
    ("Topology", "topology"),
    ("Pieces", "pieces"),
    ("Target", "target"),
    ("PrisonerDrops", "prisoner_drops"),
    ("QuietLimit", "quiet_limit"),
];

/// The header line: `[Game "Inchworm"] [Topology "flat"] [Pieces "25/25"] …`.
pub fn record_header(options: &InchwormOptions) -> String {
    let mut out = String::from("[Game \"Inchworm\"]");
    for (tag, key) in OPTION_TAGS {
        out.push_str(&format!(" [{tag} \"{}\"]", options.get(key).unwrap_or_default()));
    }
    out
}

/// The result token of a position: `1-0` Black won, `0-1` White won, `1/2-1/2`, `*` unfinished.
pub fn result_token(position: &Position) -> &'static str {
    match position.status() {
        Status::Over(Outcome::Winner(Side::First)) => "1-0",
        Status::Over(Outcome::Winner(Side::Second)) => "0-1",
        Status::Over(Outcome::Draw) => "1/2-1/2",
        Status::Ongoing => "*",
    }
}

/// Who played the `ply`-th action (0-based) and its move label (`3.` Black, `3...` White).
fn ply_name(ply: usize) -> String {
    let side = if ply.is_multiple_of(2) { Side::First } else { Side::Second };
    format!("move {} for {}", ply / 2 + 1, Position::SIDE_NAMES[side.index()])
}

/// Writes a record (spec §10.4): the header line, then the numbered move pairs with a
/// `{B+n W+m}` comment after every capturing action, then the result token; lines are wrapped
/// near 80 characters. The tokens are replayed; an illegal one gives an error naming its move.
pub fn format_record(options: &InchwormOptions, tokens: &[String]) -> Result<String, ParseError> {
    let mut pos = Position::new(options);
    let mut units: Vec<String> = Vec::new();
    for (ply, token) in tokens.iter().enumerate() {
        let token = strip_comments(token);
        let before = [pos.score(Side::First), pos.score(Side::Second)];
        pos.play_record_token(&token).map_err(|e| ParseError::new(format!("{}: {e}", ply_name(ply))))?;
        let mut unit = if ply.is_multiple_of(2) { format!("{}. {token}", ply / 2 + 1) } else { token };
        let gains: Vec<String> = Side::BOTH
            .into_iter()
            .filter(|&side| pos.score(side) > before[side.index()])
            .map(|side| format!("{}+{}", piece_char(side), pos.score(side) - before[side.index()]))
            .collect();
        if !gains.is_empty() {
            unit.push_str(&format!(" {{{}}}", gains.join(" ")));
        }
        units.push(unit);
    }
    units.push(result_token(&pos).to_string());
    let mut out = record_header(options);
    let mut line = String::new();
    for unit in units {
        if !line.is_empty() && line.len() + 1 + unit.len() > 80 {
            out.push('\n');
            out.push_str(&line);
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&unit);
    }
    out.push('\n');
    out.push_str(&line);
    Ok(out)
}

/// Reads a record of spec §10.4 and replays it. Option tags set the options (missing ones keep
/// their defaults) and must come before the first move; move numbers must count the pairs; the
/// result token, if present, ends the record and must agree with the replayed game. Errors name
/// the move.
pub fn parse_record(text: &str) -> Result<InchwormRecord, ParseError> {
    parse_record_over(text, &InchwormOptions::default())
}

/// [`parse_record`] with the options a missing tag takes given (the player's, not the defaults).
pub fn parse_record_over(text: &str, base: &InchwormOptions) -> Result<InchwormRecord, ParseError> {
    let mut options = *base;
    let mut tags = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut result: Option<String> = None;
    for item in lex_record(text)? {
        // Only comments may follow the result token.
        if let (Some(r), false) = (&result, matches!(item.piece, RecordPiece::Comment(_))) {
            return Err(ParseError::new(format!("the record goes on after its result token '{r}'")));
        }
        match item.piece {
            RecordPiece::Tag { key, value, quoted } => {
                if !quoted {
                    return Err(ParseError::new(format!("tag [{key} …] is not written [Key \"value\"]")));
                }
                if let Some((_, option)) = OPTION_TAGS.iter().find(|(tag, _)| tag.eq_ignore_ascii_case(key)) {
                    if !moves.is_empty() {
                        return Err(ParseError::new(format!("tag [{key}] comes after the moves; tags go first")));
                    }
                    options.set(option, &value).map_err(|e| ParseError::new(format!("tag [{key}]: {e}")))?;
                } else if key == "Game" && value != "Inchworm" {
                    return Err(ParseError::new(format!("this is a record of '{value}', not of Inchworm")));
                } else {
                    tags.push((key.to_string(), value));
                }
            }
            RecordPiece::Comment(_) => {}
            RecordPiece::Result(marker) => result = Some(marker.to_string()),
            RecordPiece::MoveNumber { number, dots, attempt } => {
                let expected = moves.len() / 2 + 1;
                let white_next = moves.len() % 2 == 1;
                if attempt.is_some() || number as usize != expected || (dots >= 3) != white_next {
                    let want = if white_next { format!("{expected}...") } else { format!("{expected}.") };
                    let written = format!("{number}{}", ".".repeat(dots));
                    return Err(ParseError::new(format!(
                        "move number '{written}' is out of place; the next move is {want}"
                    )));
                }
            }
            RecordPiece::Token(word) if word.starts_with(|c: char| c.is_ascii_digit()) => {
                return Err(ParseError::new(format!("'{word}' is neither a move number like 3. nor an action")));
            }
            RecordPiece::Token(word) => moves.push(word.to_string()),
        }
    }
    let mut position = Position::new(&options);
    for (ply, token) in moves.iter().enumerate() {
        position.play_record_token(token).map_err(|e| ParseError::new(format!("{}: {e}", ply_name(ply))))?;
    }
    if let Some(r) = &result {
        let actual = result_token(&position);
        if r != actual {
            let what =
                if actual == "*" { "the game is not over".to_string() } else { format!("the moves give {actual}") };
            return Err(ParseError::new(format!("the result token is {r} but {what}")));
        }
    }
    Ok(InchwormRecord { options, tags, tokens: moves, result, position })
}
