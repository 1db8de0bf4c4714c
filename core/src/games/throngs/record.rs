//! Throngs' game record (§5): a header of `[Key "value"]` tags, then the pie lines (`pie B:g7
//! W:e4 W:h9`, `choose White`) when the opening is a pie, then one line per turn `<n><B|W>
//! <part1> <part2>`; written from record tokens and read back by replaying them.

use super::notation::record_header;
use super::options::{Adjudication, ThrongsOptions};
use super::position::Position;
use crate::rules::{GameOptions, Notation, ParseError, RecordPiece, Rules, Side, lex_record};

/// A game record read back and replayed.
#[derive(Clone, Debug)]
pub struct ThrongsRecord {
    pub options: ThrongsOptions,
    /// The record tokens in order: the pie offer and choice (pie openings), then one per part.
    pub tokens: Vec<String>,
    /// The position after replaying every token.
    pub position: Position,
}

/// The header of a record: the spec's four tags, plus `[Adjudication "ludii"]` when that option
/// is on (the spec's header has no tag for it; without it the option is off).
pub fn record_header_full(options: &ThrongsOptions) -> String {
    let mut out = record_header(options);
    if options.adjudication != Adjudication::Off {
        out.push_str(&format!(" [Adjudication \"{}\"]", options.get("adjudication").unwrap_or_default()));
    }
    out
}

pub(super) fn is_pie_token(token: &str) -> bool {
    let lower = token.trim().to_ascii_lowercase();
    lower.starts_with("pie ") || lower.starts_with("choose ")
}

/// Writes a game record (§5). `tokens` are whole record tokens as `play_record_token` takes
/// them: the pie offer (`pie B:g7 W:e4 W:h9`) and choice (`choose White`) first in a pie game,
/// then one token per move part (`+k10`, `+j9>i8`, `xf6>g6`, `k9>j9`, `pass`). Parts pair into
/// turns, Black's first (a forced pass is an ordinary part, D7); a last turn may have one part.
pub fn format_record(options: &ThrongsOptions, tokens: &[String]) -> String {
    let mut out = record_header_full(options);
    let parts: Vec<&str> = tokens.iter().map(|t| t.trim()).filter(|t| !is_pie_token(t)).collect();
    for token in tokens.iter().map(|t| t.trim()).filter(|t| is_pie_token(t)) {
        out.push('\n');
        out.push_str(token);
    }
    for (k, pair) in parts.chunks(2).enumerate() {
        let colour = Position::side_char(Side::from_index(k % 2));
        out.push_str(&format!("\n{}{colour} {}", k / 2 + 1, pair.join(" ")));
    }
    out
}

/// Reads the header tags `[Key "value"]` of one line into the options.
fn read_tags(line: &str, options: &mut ThrongsOptions, seen: &mut Vec<String>) -> Result<(), ParseError> {
    let items = lex_record(line).map_err(|e| ParseError::new(format!("header: {e}")))?;
    for item in items {
        let RecordPiece::Tag { key, value, quoted } = item.piece else {
            let rest = &line[item.span.start..];
            return Err(ParseError::new(format!("header: '{rest}' is not a tag; tags are written [Board \"T93\"]")));
        };
        if !quoted {
            return Err(ParseError::new(format!("header: the value of '{key}' must be in quotes: [{key} \"…\"]")));
        }
        let lower = key.to_ascii_lowercase();
        if seen.contains(&lower) {
            return Err(ParseError::new(format!("header: the tag '{key}' is given twice")));
        }
        seen.push(lower.clone());
        let option = match lower.as_str() {
            "game" => {
                if !value.eq_ignore_ascii_case("throngs") {
                    return Err(ParseError::new(format!("this is a record of '{value}', not of Throngs")));
                }
                continue;
            }
            "board" => "board",
            "opening" => "opening",
            "passrule" => "pass_rule",
            "adjudication" => "adjudication",
            _ => {
                return Err(ParseError::new(format!(
                    "header: unknown tag '{key}' (the tags are Game, Board, Opening, PassRule, Adjudication)"
                )));
            }
        };
        options.set(option, value.trim()).map_err(|e| ParseError::new(format!("header: {e}")))?;
    }
    Ok(())
}

/// Reads a game record (§5) and replays it. A header must include `[Game "Throngs"]`; missing
/// option tags take their defaults. Errors name the line and part that failed.
pub fn parse_record(text: &str) -> Result<ThrongsRecord, ParseError> {
    parse_record_over(text, &ThrongsOptions::default())
}

/// [`parse_record`] with the options of a missing tag given (the player's, not the defaults); a
/// record without a header is its turn lines under `base`.
pub fn parse_record_over(text: &str, base: &ThrongsOptions) -> Result<ThrongsRecord, ParseError> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty()).peekable();
    let mut options = *base;
    let mut seen = Vec::new();
    while let Some(line) = lines.next_if(|l| l.starts_with('[')) {
        read_tags(line, &mut options, &mut seen)?;
    }
    let headerless_moves = seen.is_empty() && lines.peek().is_some();
    if !headerless_moves && !seen.iter().any(|k| k == "game") {
        return Err(ParseError::new("a Throngs record starts with a header like [Game \"Throngs\"] [Board \"T93\"]"));
    }
    options.validate().map_err(|e| ParseError::new(format!("header: {e}")))?;
    let mut position = Position::new(&options);
    let mut tokens = Vec::new();
    let mut turn_lines = 0usize;
    let mut last_short: Option<String> = None;
    for line in lines {
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("pie ") || lower.starts_with("choose ") {
            if turn_lines > 0 {
                return Err(ParseError::new(format!("'{line}': the pie lines come before the first turn")));
            }
            position.play_record_token(line).map_err(|e| ParseError::new(format!("'{line}': {e}")))?;
            tokens.push(line.to_string());
            continue;
        }
        if let Some(label) = &last_short {
            return Err(ParseError::new(format!(
                "turn {label} has only one part, which is allowed only on the last line"
            )));
        }
        let expected = format!("{}{}", turn_lines / 2 + 1, Position::side_char(Side::from_index(turn_lines % 2)));
        let mut words = line.split_whitespace();
        let label = words.next().unwrap_or_default();
        if !label.trim_end_matches(':').eq_ignore_ascii_case(&expected) {
            return Err(ParseError::new(format!(
                "record line '{line}' should start with the turn {expected} (turns are written '1B +k10 +j9>i8')"
            )));
        }
        let parts: Vec<&str> = words.collect();
        if parts.is_empty() || parts.len() > 2 {
            return Err(ParseError::new(format!(
                "turn {expected} has {} parts; a turn line has two (one only on the last line)",
                parts.len()
            )));
        }
        for (i, part) in parts.iter().enumerate() {
            position
                .play_record_token(part)
                .map_err(|e| ParseError::new(format!("turn {expected}, part {}: {e}", i + 1)))?;
            tokens.push(part.to_string());
        }
        if parts.len() == 1 {
            last_short = Some(expected);
        }
        turn_lines += 1;
    }
    Ok(ThrongsRecord { options, tokens, position })
}
