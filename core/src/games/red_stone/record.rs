//! Red Stone's game record (spec §6.3): `key: value` lines `game:`, `size:`, `p1:`, `p2:`,
//! `moves: 1. C3 2. swap …` and `result: B+ annihilation`, written and read back by replaying the
//! moves through the engine.

use super::options::RedStoneOptions;
use super::position::{EndReason, Position};
use crate::rules::{GameOptions, Notation, ParseError, RecordItem, RecordPiece, Rules, Side, lex_record};

/// Why a recorded game ended: by the rules (§5) or by resignation (decision D13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordReason {
    Rules(EndReason),
    Resignation,
}

/// A record's `result:` line: the winning colour (`Side::First` is Black) and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordResult {
    pub winner: Side,
    pub reason: RecordReason,
}

impl Position {
    /// The `result:` line of a game record (§6.3), e.g. `B+ annihilation`, once the game is over.
    pub fn record_result(&self) -> Option<String> {
        RecordResult::of(self).map(|r| r.text())
    }
}

impl RecordResult {
    /// The result a finished position has by the rules, if the game is over.
    pub fn of(position: &Position) -> Option<RecordResult> {
        position.result().map(|(winner, reason)| RecordResult { winner, reason: RecordReason::Rules(reason) })
    }

    /// The text of the `result:` line (`B+ annihilation`, `W+ resignation`).
    pub fn text(&self) -> String {
        let colour = Position::side_name(self.winner).to_ascii_uppercase();
        let reason = match self.reason {
            RecordReason::Rules(r) => r.record_name(),
            RecordReason::Resignation => "resignation",
        };
        format!("{colour}+ {reason}")
    }

    /// Reads the text of a `result:` line (case-insensitive).
    pub fn parse(text: &str) -> Result<RecordResult, ParseError> {
        let bad = || {
            ParseError::new(format!(
                "'{}' is not a result: write B+ or W+ then the reason (annihilation, double-annihilation, \
                 self-annihilation or resignation), e.g. 'B+ annihilation'",
                text.trim()
            ))
        };
        let lower = text.trim().to_ascii_lowercase();
        let (colour, reason) = lower.split_once('+').ok_or_else(bad)?;
        let winner = Position::side_from_letter(colour.trim()).ok_or_else(bad)?;
        let reason = match reason.trim() {
            "annihilation" => RecordReason::Rules(EndReason::Annihilation),
            "double-annihilation" => RecordReason::Rules(EndReason::DoubleAnnihilation),
            "self-annihilation" => RecordReason::Rules(EndReason::SelfAnnihilation),
            "no-legal-placement" => RecordReason::Rules(EndReason::NoLegalPlacement),
            "resignation" => RecordReason::Resignation,
            _ => return Err(bad()),
        };
        Ok(RecordResult { winner, reason })
    }
}

/// A game record read back and replayed.
#[derive(Clone, Debug)]
pub struct RedStoneRecord {
    pub options: RedStoneOptions,
    /// The players of seat 1 (moves first) and seat 2, as the `p1:` / `p2:` lines name them
    /// (empty when the record has no such line).
    pub players: (String, String),
    /// The move tokens in order, as written (a final `resign` included).
    pub tokens: Vec<String>,
    /// The position after replaying every token but `resign`.
    pub position: Position,
    /// The result: the one the rules give for a finished game, else the one of the `result:`
    /// line or of a final `resign`; `None` for a game in progress.
    pub result: Option<RecordResult>,
}

/// A player's name on one line (line breaks become spaces).
fn one_line(name: &str) -> String {
    name.replace(['\r', '\n'], " ").trim().to_string()
}

/// Writes a game record of §6.3. `tokens` are move tokens in order (`C3`, `swap`, `B5*`, and
/// optionally a final `resign`); the `result:` line is written when `result` is given.
pub fn format_record(
    options: &RedStoneOptions,
    players: (&str, &str),
    tokens: &[String],
    result: Option<RecordResult>,
) -> String {
    let mut out = format!(
        "game: {}\nsize: {}\np1: {}\np2: {}\nmoves:",
        Position::SLUG,
        options.size,
        one_line(players.0),
        one_line(players.1)
    );
    for (k, token) in tokens.iter().enumerate() {
        out.push_str(&format!(" {}. {}", k + 1, token.trim()));
    }
    if let Some(result) = result {
        out.push_str("\nresult: ");
        out.push_str(&result.text());
    }
    out
}

/// Splits the `moves:` value into tokens, checking the numbers `1.`, `2.`, … before each.
fn parse_moves(text: &str) -> Result<Vec<String>, ParseError> {
    let mut tokens = Vec::new();
    let mut items = lex_record(text).map_err(|e| ParseError::new(format!("moves: {e}")))?.into_iter();
    while let Some(item) = items.next() {
        let k = tokens.len() + 1;
        let numbered =
            matches!(item.piece, RecordPiece::MoveNumber { number, dots: 1, attempt: None } if number as usize == k);
        let written = text[item.span.start..].split_whitespace().next().unwrap_or_default();
        if !numbered || items.as_slice().first().is_some_and(|next| next.glued) {
            return Err(ParseError::new(format!(
                "moves: expected the move number '{k}.' but found '{written}' (moves are written '1. C3 2. swap …')"
            )));
        }
        match items.next() {
            Some(RecordItem { piece: RecordPiece::Token(token), .. }) => tokens.push(token.to_string()),
            Some(other) => {
                return Err(ParseError::new(format!("moves: '{}' is not a move", &text[other.span])));
            }
            None => return Err(ParseError::new(format!("moves: move number {k} has no move"))),
        }
    }
    Ok(tokens)
}

/// Reads a game record of §6.3 and replays it. The lines are `key: value` in any order, each at
/// most once; `game:` and `moves:` are required, `size:` defaults to 11, `p1:`, `p2:` and
/// `result:` are optional. A stated result must agree with the replay.
pub fn parse_record(text: &str) -> Result<RedStoneRecord, ParseError> {
    parse_record_over(text, &RedStoneOptions::default())
}

/// [`parse_record`] with the size a record without `size:` has given (the player's, not the
/// default). A text of numbered moves alone (`1. C3 2. swap`) is the `moves:` of a record under
/// `base`.
pub fn parse_record_over(text: &str, base: &RedStoneOptions) -> Result<RedStoneRecord, ParseError> {
    const KEYS: [&str; 6] = ["game", "size", "p1", "p2", "moves", "result"];
    let mut values: [Option<String>; 6] = Default::default();
    let moves_alone = !text.trim().is_empty() && !text.contains(':');
    if moves_alone {
        values[0] = Some(Position::SLUG.to_string());
        values[4] = Some(text.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !moves_alone) {
        let (key, value) =
            line.split_once(':').ok_or_else(|| ParseError::new(format!("record line '{line}' is not 'key: value'")))?;
        let key = key.trim().to_ascii_lowercase();
        let i = KEYS.iter().position(|k| *k == key).ok_or_else(|| {
            ParseError::new(format!("unknown record key '{key}' (the keys are game, size, p1, p2, moves, result)"))
        })?;
        if values[i].replace(value.trim().to_string()).is_some() {
            return Err(ParseError::new(format!("the record gives '{key}:' twice")));
        }
    }
    let [game, size, p1, p2, moves, result_text] = values;
    match game {
        None => return Err(ParseError::new("a Red Stone record starts with the line 'game: red-stone'")),
        Some(g) if !g.eq_ignore_ascii_case(Position::SLUG) && !g.eq_ignore_ascii_case("redstone") => {
            return Err(ParseError::new(format!("this is a record of '{g}', not of red-stone")));
        }
        Some(_) => {}
    }
    let mut options = *base;
    if let Some(size) = size {
        options.set("size", &size).map_err(|e| ParseError::new(format!("size: {e}")))?;
    }
    let moves = moves.ok_or_else(|| ParseError::new("the record has no 'moves:' line"))?;
    let tokens = parse_moves(&moves)?;
    let stated = result_text.as_deref().map(RecordResult::parse).transpose()?;

    let mut position = Position::new(&options);
    let mut resigned = None;
    for (i, token) in tokens.iter().enumerate() {
        let k = i + 1;
        if token.eq_ignore_ascii_case("resign") {
            if k != tokens.len() {
                return Err(ParseError::new(format!("move {k}: 'resign' can only be the last move")));
            }
            if position.result().is_some() {
                return Err(ParseError::new(format!("move {k}: 'resign' after the game is over")));
            }
            resigned = Some(position.side_to_move());
            break;
        }
        position.play_record_token(token).map_err(|e| ParseError::new(format!("move {k}: {e}")))?;
    }
    let result = match (RecordResult::of(&position), resigned) {
        (Some(by_rules), _) => Some(by_rules),
        (None, Some(loser)) => Some(RecordResult { winner: loser.opponent(), reason: RecordReason::Resignation }),
        (None, None) => stated,
    };
    if let Some(stated) = stated {
        if result != Some(stated) {
            let replayed = result.map_or("the game still in progress".to_string(), |r| format!("'{}'", r.text()));
            return Err(ParseError::new(format!(
                "the record says 'result: {}' but replaying the moves gives {replayed}",
                stated.text()
            )));
        }
        if stated.reason != RecordReason::Resignation && RecordResult::of(&position).is_none() {
            return Err(ParseError::new(format!(
                "the record says 'result: {}' but the moves do not end the game",
                stated.text()
            )));
        }
    }
    Ok(RedStoneRecord { options, players: (p1.unwrap_or_default(), p2.unwrap_or_default()), tokens, position, result })
}
