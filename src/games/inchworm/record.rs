//! The game record of spec §10.4: PGN-like tags for the options, numbered move pairs (Black
//! first), optional `{comments}` and a result token (`1-0`, `0-1`, `1/2-1/2`, `*`).

use super::options::InchwormOptions;
use super::position::Position;
use crate::rules::{GameOptions, Notation, Outcome, ParseError, Rules, Side, Status};

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

/// Removes `{comments}` from a token.
fn without_comments(token: &str) -> String {
    let mut out = String::new();
    let mut depth = 0u32;
    for ch in token.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out.trim().to_string()
}

/// Who played the `ply`-th action (0-based) and its move label (`3.` Black, `3...` White).
fn ply_name(ply: usize) -> String {
    let side = if ply.is_multiple_of(2) { "Black" } else { "White" };
    format!("move {} for {side}", ply / 2 + 1)
}

/// Writes a record (spec §10.4): the header line, then the numbered move pairs with a
/// `{B+n W+m}` comment after every capturing action, then the result token; lines are wrapped
/// near 80 characters. The tokens are replayed; an illegal one gives an error naming its move.
pub fn format_record(options: &InchwormOptions, tokens: &[String]) -> Result<String, ParseError> {
    let mut pos = Position::new(options);
    let mut units: Vec<String> = Vec::new();
    for (ply, token) in tokens.iter().enumerate() {
        let token = without_comments(token);
        let before = [pos.score(Side::First), pos.score(Side::Second)];
        pos.play_record_token(&token).map_err(|e| ParseError::new(format!("{}: {e}", ply_name(ply))))?;
        let mut unit = if ply.is_multiple_of(2) { format!("{}. {token}", ply / 2 + 1) } else { token };
        let gains: Vec<String> = [(Side::First, "B"), (Side::Second, "W")]
            .into_iter()
            .filter(|&(side, _)| pos.score(side) > before[side.index()])
            .map(|(side, letter)| format!("{letter}+{}", pos.score(side) - before[side.index()]))
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

/// One lexical item of a record.
enum Item {
    Tag(String, String),
    Word(String),
}

/// Splits a record into tags and words; comments are dropped.
fn lex(text: &str) -> Result<Vec<Item>, ParseError> {
    let mut items = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&ch) = chars.peek() {
        if ch.is_whitespace() {
            chars.next();
        } else if ch == '{' {
            chars.next();
            loop {
                match chars.next() {
                    Some('}') => break,
                    Some('{') => return Err(ParseError::new("a comment may not contain '{'")),
                    Some(_) => {}
                    None => return Err(ParseError::new("a comment '{' is never closed with '}'")),
                }
            }
        } else if ch == '}' {
            return Err(ParseError::new("'}' without an opening '{'"));
        } else if ch == '[' {
            chars.next();
            let mut key = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_ascii_alphanumeric() || c == '_' {
                    key.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            let bad = |key: &str| ParseError::new(format!("tag [{key} …] is not written [Key \"value\"]"));
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            if key.is_empty() || chars.next() != Some('"') {
                return Err(bad(&key));
            }
            let mut value = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') => value.push(chars.next().ok_or_else(|| bad(&key))?),
                    Some(c) => value.push(c),
                    None => return Err(bad(&key)),
                }
            }
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            if chars.next() != Some(']') {
                return Err(bad(&key));
            }
            items.push(Item::Tag(key, value));
        } else {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || matches!(c, '{' | '}' | '[') {
                    break;
                }
                word.push(c);
                chars.next();
            }
            items.push(Item::Word(word));
        }
    }
    Ok(items)
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Reads a record of spec §10.4 and replays it. Option tags set the options (missing ones keep
/// their defaults) and must come before the first move; move numbers must count the pairs; the
/// result token, if present, ends the record and must agree with the replayed game. Errors name
/// the move.
pub fn parse_record(text: &str) -> Result<InchwormRecord, ParseError> {
    let items = lex(text)?;
    let mut options = InchwormOptions::default();
    let mut tags = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut result: Option<String> = None;
    for item in items {
        if let Some(r) = &result {
            return Err(ParseError::new(format!("the record goes on after its result token '{r}'")));
        }
        match item {
            Item::Tag(key, value) => {
                if let Some((_, option)) = OPTION_TAGS.iter().find(|(tag, _)| tag.eq_ignore_ascii_case(&key)) {
                    if !moves.is_empty() {
                        return Err(ParseError::new(format!("tag [{key}] comes after the moves; tags go first")));
                    }
                    options.set(option, &value).map_err(|e| ParseError::new(format!("tag [{key}]: {e}")))?;
                } else if key == "Game" && value != "Inchworm" {
                    return Err(ParseError::new(format!("this is a record of '{value}', not of Inchworm")));
                } else {
                    tags.push((key, value));
                }
            }
            Item::Word(word) if RESULTS.contains(&word.as_str()) => result = Some(word),
            Item::Word(word) => {
                let digits = word.find(|c: char| !c.is_ascii_digit()).unwrap_or(word.len());
                if digits == 0 {
                    moves.push(word);
                    continue;
                }
                let rest = &word[digits..];
                let dots = rest.find(|c: char| c != '.').unwrap_or(rest.len());
                if dots == 0 {
                    return Err(ParseError::new(format!("'{word}' is neither a move number like 3. nor an action")));
                }
                let expected = moves.len() / 2 + 1;
                let white_next = moves.len() % 2 == 1;
                let ok = word[..digits].parse::<usize>().ok() == Some(expected) && (dots >= 3) == white_next;
                if !ok {
                    let want = if white_next { format!("{expected}...") } else { format!("{expected}.") };
                    return Err(ParseError::new(format!(
                        "move number '{}' is out of place; the next move is {want}",
                        &word[..digits + dots]
                    )));
                }
                if dots < rest.len() {
                    moves.push(rest[dots..].to_string());
                }
            }
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
