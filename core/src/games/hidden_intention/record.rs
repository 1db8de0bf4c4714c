//! The game record of spec §8.3: header tags, one line `<turn>.<attempt> <A> | <B>` per attempt,
//! the closing `-- | --` when a player ran out of legal commitments, and `[Result "..."]`.

use super::notation::square_name;
use super::position::{Position, Square};
use crate::rules::{
    NoOptions, Notation, Outcome, ParseError, RecordItem, RecordPiece, Rules, Side, Status, lex_record,
};

/// A record read back and replayed from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Header tags in the order written, `Result` excluded (`("White", "Ann")`).
    pub tags: Vec<(String, String)>,
    /// One record token `A|B` per attempt, in order; the closing `-- | --` is not among them.
    pub tokens: Vec<String>,
    /// The position after the last attempt.
    pub position: Position,
}

/// The result tag's text for a finished game: winner first (`A 30 B 25`, `B 26 A 20`) or
/// `draw 23 23` (A's count first).
pub fn result_text(position: &Position) -> Option<String> {
    let Status::Over(outcome) = position.status() else { return None };
    let c = position.field_counts();
    let count = |side: Side| format!("{} {}", Position::side_name(side), if side == Side::First { c.a } else { c.b });
    Some(match outcome {
        Outcome::Winner(winner) => format!("{} {}", count(winner), count(winner.opponent())),
        Outcome::Draw => format!("draw {} {}", c.a, c.b),
    })
}

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a record: `[Game]`, `[White]`, `[Black]` tags, one line per attempt (a burn gets a
/// `{burn c6}` comment), the closing `-- | --` if the game ended because a player had no legal
/// commitment, and `[Result "..."]` once the game is over. The tokens are replayed; an illegal
/// one gives an error naming its attempt.
pub fn format_record(white: &str, black: &str, tokens: &[String]) -> Result<String, ParseError> {
    let mut out = format!("[Game \"Hidden Intention\"]\n[White \"{}\"]\n[Black \"{}\"]", quote(white), quote(black));
    let mut pos = Position::new(&NoOptions);
    for (k, token) in tokens.iter().enumerate() {
        if token.split_whitespace().collect::<String>() == "--|--" && pos.status().is_over() {
            continue; // the closing line is written below
        }
        let (turn, attempt) = (pos.turn(), pos.attempt());
        let burned_before = pos.burned();
        pos.play_record_token(token)
            .map_err(|e| ParseError::new(format!("attempt {turn}.{attempt} (token {}): {e}", k + 1)))?;
        let (a, b) = token.split_once('|').unwrap_or((token, ""));
        out.push_str(&format!("\n{turn}.{attempt} {} | {}", a.trim(), b.trim()));
        let burned = pos.burned() & !burned_before;
        if burned != 0 && pos.attempt() > attempt {
            out.push_str(&format!(" {{burn {}}}", square_name(burned.trailing_zeros() as Square)));
        }
    }
    if let Some(result) = result_text(&pos) {
        let supplies_empty = pos.supply(Side::First).is_empty() && pos.supply(Side::Second).is_empty();
        if !supplies_empty {
            out.push_str(&format!("\n{}.{} -- | --", pos.turn(), pos.attempt()));
        }
        out.push_str(&format!("\n[Result \"{result}\"]"));
    }
    Ok(out)
}

/// One line of a record: a tag, or an attempt with its label and record token (a trailing
/// comment dropped).
enum Line<'a> {
    Tag(&'a str, String),
    Attempt { turn: u16, attempt: u16, token: &'a str },
}

/// Reads one non-empty line: `[Key "value"]` alone, or `<turn>.<attempt> <A> | <B>` with at most one
/// `{comment}`, at its end.
fn read_line(line: &str, number: usize) -> Result<Line<'_>, ParseError> {
    let at_line = |e: ParseError| ParseError::new(format!("line {number}: {e}"));
    let not_a_tag = || ParseError::new(format!("line {number}: '{line}' is not a tag like [White \"name\"]"));
    let items = lex_record(line).map_err(|e| if line.starts_with('[') { not_a_tag() } else { at_line(e) })?;
    if line.starts_with('[') {
        return match &items[..] {
            [RecordItem { piece: RecordPiece::Tag { key, value, quoted: true }, .. }] => {
                Ok(Line::Tag(key, value.clone()))
            }
            _ => Err(not_a_tag()),
        };
    }
    let is_comment = |item: &RecordItem| matches!(item.piece, RecordPiece::Comment(_));
    let body = match &items[..] {
        [body @ .., last] if is_comment(last) => body,
        all => all,
    };
    if body.iter().any(is_comment) {
        return Err(at_line(ParseError::new("a comment is one {...} at the end of the line")));
    }
    let not_an_attempt = || ParseError::new(format!("line {number}: '{line}' is not an attempt like '1.1 Qd4 | Re5'"));
    let [label, first, ..] = body else { return Err(not_an_attempt()) };
    let clock = match label.piece {
        RecordPiece::MoveNumber { number: turn, dots: 1, attempt: Some(attempt) } if !first.glued => {
            u16::try_from(turn).ok().zip(u16::try_from(attempt).ok())
        }
        _ => None,
    };
    let (turn, attempt) = clock.ok_or_else(|| {
        let label = line.split_whitespace().next().unwrap_or_default();
        ParseError::new(format!("line {number}: '{label}' is not <turn>.<attempt> like 2.1"))
    })?;
    let end = body.last().map_or(first.span.end, |i| i.span.end);
    Ok(Line::Attempt { turn, attempt, token: &line[first.span.start..end] })
}

/// Reads a record of spec §8.3 and replays it from the start. Attempt numbers must follow the
/// game (a burn repeats the turn with the next attempt number); a `Result` tag must agree with
/// the replayed ending (`*` for an unfinished game). Errors name the line and the attempt.
pub fn parse_record(text: &str) -> Result<GameRecord, ParseError> {
    let mut tags = Vec::new();
    let mut tokens = Vec::new();
    let mut pos = Position::new(&NoOptions);
    let mut result: Option<(usize, String)> = None;
    let mut closed = false;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let (turn, attempt, token) = match read_line(line, number)? {
            Line::Tag(key, value) => {
                match key {
                    "Result" => {
                        if result.is_some() {
                            return Err(ParseError::new(format!("line {number}: a second Result tag")));
                        }
                        result = Some((number, value));
                    }
                    "Game" if value != "Hidden Intention" => {
                        return Err(ParseError::new(format!(
                            "line {number}: this is a record of '{value}', not of Hidden Intention"
                        )));
                    }
                    _ => tags.push((key.to_string(), value)),
                }
                continue;
            }
            Line::Attempt { turn, attempt, token } => (turn, attempt, token),
        };
        if let Some((n, _)) = &result {
            return Err(ParseError::new(format!("line {number}: an attempt after the Result tag of line {n}")));
        }
        if closed {
            return Err(ParseError::new(format!("line {number}: an attempt after the closing '-- | --'")));
        }
        let at = format!("{}.{}", pos.turn(), pos.attempt());
        if (turn, attempt) != (pos.turn(), pos.attempt()) {
            return Err(ParseError::new(format!(
                "line {number}: attempt {turn}.{attempt} is out of order; the game is at attempt {at}"
            )));
        }
        pos.play_record_token(token).map_err(|e| ParseError::new(format!("attempt {at} (line {number}): {e}")))?;
        if token.split_whitespace().collect::<String>() == "--|--" {
            closed = true;
        } else {
            tokens.push(token.to_string());
        }
    }
    if let Some((number, value)) = result {
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        match result_text(&pos) {
            Some(expected) if expected == value => {}
            Some(expected) => {
                return Err(ParseError::new(format!(
                    "line {number}: the Result tag says '{value}' but the moves give '{expected}'"
                )));
            }
            None if value == "*" => {}
            None => {
                return Err(ParseError::new(format!(
                    "line {number}: the Result tag says '{value}' but the game is not over after attempt {}.{}",
                    pos.turn(),
                    pos.attempt()
                )));
            }
        }
    }
    Ok(GameRecord { tags, tokens, position: pos })
}
