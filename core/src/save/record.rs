//! Game records: the game, its options, who played, the start position and every decision in the
//! game's notation, with times and the result. JSON with a format version; loading replays every
//! decision through the rules, so a damaged or hand-edited record is refused with a clear reason.

use crate::games::{self, DynGame, GameKind};
use crate::rules::Side;
use crate::session::Match;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The record format this build writes; it reads this and every older version.
pub const RECORD_FORMAT: u32 = 1;

/// Who played a side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    Human,
    /// The computer at a level (`easy`, `medium`, `hard`).
    Computer(String),
}

/// One decision and when it was made (milliseconds since the game started).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedMove {
    pub decision: String,
    #[serde(default)]
    pub at_ms: u64,
}

/// A whole game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub format: u32,
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    /// The seed of every random choice made for this game (the computer's).
    pub seed: u64,
    /// First side, then second side.
    pub players: [Player; 2],
    /// The position text the game started from (`None`: the initial position of the options).
    #[serde(default)]
    pub start: Option<String>,
    pub moves: Vec<RecordedMove>,
    /// Seconds since 1970 when the game started.
    #[serde(default)]
    pub started_unix: u64,
    /// Milliseconds since 1970 when it was last kept as a game in progress (orders the Continue
    /// list; 0 when never kept).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub saved_unix_ms: u64,
    /// The result as the referee writes it (`"ongoing"`, `"draw"`, `{"winner":"b"}`).
    #[serde(default)]
    pub result: Option<serde_json::Value>,
}

/// Why a record could not be used. Loading never changes anything when it fails.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RecordError {
    #[error("this is not a Stoneyard game record ({0})")]
    NotARecord(String),
    #[error("this record was written by a newer Stoneyard (format {found}, this one reads up to {RECORD_FORMAT})")]
    FutureFormat { found: u64 },
    #[error("this record is a game of {found}, not {expected}")]
    WrongGame { found: GameKind, expected: GameKind },
    #[error("the record cannot be set up: {0}")]
    Setup(String),
    #[error("move {index} ('{decision}') of the record cannot be played: {reason}")]
    BadMove { index: usize, decision: String, reason: String },
    #[error("the record's game was played with {key}={record}, but {key}={given} was asked for")]
    OptionConflict { key: String, record: String, given: String },
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl GameRecord {
    /// A new record of a game about to start.
    pub fn new(game: &dyn DynGame, players: [Player; 2], seed: u64, started_unix: u64) -> Self {
        GameRecord {
            format: RECORD_FORMAT,
            game: game.kind(),
            options: game.option_pairs(),
            seed,
            players,
            start: None,
            moves: Vec::new(),
            started_unix,
            saved_unix_ms: 0,
            result: None,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("records serialise")
    }

    /// Reads a record, checking its format version before anything else.
    pub fn from_json(text: &str) -> Result<GameRecord, RecordError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RecordError::NotARecord(format!("not JSON: {e}")))?;
        let format = match value.get("format") {
            None => return Err(RecordError::NotARecord("it has no format version".to_string())),
            // Read whole, never narrowed: a format of 2^32 + 1 is a future one, not format 1.
            Some(f) => f
                .as_u64()
                .ok_or_else(|| RecordError::NotARecord(format!("its format version {f} is not a whole number")))?,
        };
        if format > u64::from(RECORD_FORMAT) {
            return Err(RecordError::FutureFormat { found: format });
        }
        serde_json::from_value(value).map_err(|e| RecordError::NotARecord(e.to_string()))
    }

    /// The position after the first `upto` decisions (all of them with `None`), replayed through
    /// the rules.
    pub fn replay(&self, upto: Option<usize>) -> Result<Box<dyn DynGame>, RecordError> {
        let n = upto.unwrap_or(self.moves.len()).min(self.moves.len());
        Ok(self.load_first(n)?.position().clone_box())
    }

    /// The record as a match at its last move (its decisions' times included).
    pub fn load(&self) -> Result<Match, RecordError> {
        let mut loaded = self.load_first(self.moves.len())?;
        // A resignation is not a decision: the result says who won by it, and the loser's seat
        // resigns again, so the match ends as it ended.
        let result = self.result.as_ref().filter(|r| r.get("reason").is_some_and(|r| r == "resignation"));
        let winner = result.and_then(|r| r.get("winner")).and_then(|w| w.as_str());
        let position = loaded.position();
        if let Some(winner) = Side::BOTH.into_iter().find(|&s| Some(position.side_name(s)) == winner)
            && !loaded.is_over()
        {
            let seat = loaded.seat_of(winner.opponent());
            loaded.resign(seat).map_err(|e| RecordError::Setup(e.0))?;
        }
        Ok(loaded)
    }

    /// The match of the record's first `n` decisions.
    fn load_first(&self, n: usize) -> Result<Match, RecordError> {
        let start = games::open(self.game, &self.options, self.start.as_deref())
            .map_err(|e| RecordError::Setup(e.to_string()))?;
        let moves = self.moves[..n.min(self.moves.len())].iter().map(|m| (m.decision.as_str(), m.at_ms));
        Match::load(start, moves).map_err(|e| RecordError::BadMove {
            index: e.index,
            decision: e.decision,
            reason: e.reason,
        })
    }

    /// Reads any form of a record: JSON (it starts with `{`), a game's own record notation (with
    /// its header, or the moves alone of the one game they read as), or Stoneyard's plain text;
    /// every move is replayed. See [`super::read_record`], which also checks a record against a
    /// game and options named beside it.
    pub fn from_file_text(text: &str) -> Result<GameRecord, RecordError> {
        super::read_record(text, None, &[])
    }

    /// The record as plain text: a header of `key: value` lines, then one decision per line.
    pub fn to_text(&self) -> String {
        let mut out = format!("game: {}\n", self.game.slug());
        for (k, v) in &self.options {
            out.push_str(&format!("option: {k}={v}\n"));
        }
        if let Some(start) = &self.start {
            out.push_str(&format!("start: {start}\n"));
        }
        out.push('\n');
        for m in &self.moves {
            out.push_str(&m.decision);
            out.push('\n');
        }
        out
    }

    /// Reads the plain text form (players default to two humans, seed 0).
    pub fn from_text(text: &str) -> Result<GameRecord, RecordError> {
        let mut game = None;
        let mut options = Vec::new();
        let mut start = None;
        let mut moves = Vec::new();
        let mut in_header = true;
        for line in text.lines().map(str::trim) {
            if in_header {
                if line.is_empty() {
                    in_header = false;
                    continue;
                }
                let (key, value) = line
                    .split_once(':')
                    .ok_or_else(|| RecordError::NotARecord(format!("header line '{line}' is not 'key: value'")))?;
                let value = value.trim();
                match key.trim() {
                    "game" => game = Some(value.parse::<GameKind>().map_err(RecordError::NotARecord)?),
                    "option" => {
                        let (k, v) = value
                            .split_once('=')
                            .ok_or_else(|| RecordError::NotARecord(format!("option '{value}' is not key=value")))?;
                        options.push((k.to_string(), v.to_string()));
                    }
                    "start" => start = Some(value.to_string()),
                    other => return Err(RecordError::NotARecord(format!("unknown header '{other}'"))),
                }
            } else if !line.is_empty() {
                moves.push(RecordedMove { decision: line.to_string(), at_ms: 0 });
            }
        }
        let game = game.ok_or_else(|| RecordError::NotARecord("no 'game:' line".to_string()))?;
        let record = GameRecord {
            format: RECORD_FORMAT,
            game,
            options,
            seed: 0,
            players: [Player::Human, Player::Human],
            start,
            moves,
            started_unix: 0,
            saved_unix_ms: 0,
            result: None,
        };
        record.replay(None)?;
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red_stone_record() -> GameRecord {
        let game = games::open(GameKind::named("red-stone"), &[("size".into(), "5".into())], None).unwrap();
        let mut r = GameRecord::new(game.as_ref(), [Player::Human, Player::Computer("easy".into())], 42, 1_700_000_000);
        for d in ["C3", "B2", "D4"] {
            r.moves.push(RecordedMove { decision: d.into(), at_ms: 10 });
        }
        r
    }

    #[test]
    fn records_round_trip_through_json_and_text() {
        let r = red_stone_record();
        assert_eq!(GameRecord::from_json(&r.to_json()).unwrap(), r);
        let t = GameRecord::from_text(&r.to_text()).unwrap();
        assert_eq!(t.moves, r.moves.iter().map(|m| RecordedMove { at_ms: 0, ..m.clone() }).collect::<Vec<_>>());
        assert_eq!(t.options, r.options);
    }

    #[test]
    fn replay_reaches_every_step() {
        let r = red_stone_record();
        let full = r.replay(None).unwrap();
        let two = r.replay(Some(2)).unwrap();
        assert_ne!(full.position_text(), two.position_text());
        let mut again = r.replay(Some(2)).unwrap();
        again.play_decision("D4").unwrap();
        assert_eq!(again.position_text(), full.position_text());
    }

    #[test]
    fn a_format_beyond_32_bits_is_refused_as_the_future_format_it_names() {
        let json = red_stone_record().to_json();
        for format in [4_294_967_297u64, u64::MAX] {
            let future = json.replacen("\"format\": 1", &format!("\"format\": {format}"), 1);
            let err = GameRecord::from_json(&future).unwrap_err();
            assert_eq!(err, RecordError::FutureFormat { found: format });
            assert!(err.to_string().contains(&format!("format {format},")), "{err}");
        }
        let fractional = json.replacen("\"format\": 1", "\"format\": 1.5", 1);
        let err = GameRecord::from_json(&fractional).unwrap_err();
        assert!(err.to_string().contains("format version 1.5 is not a whole number"), "{err}");
    }

    #[test]
    fn damaged_records_are_refused_with_a_reason() {
        let r = red_stone_record();
        let json = r.to_json();
        assert!(matches!(GameRecord::from_json(&json[..json.len() / 2]), Err(RecordError::NotARecord(_))));
        assert!(matches!(GameRecord::from_json("[1,2]"), Err(RecordError::NotARecord(_))));
        let future = json.replacen("\"format\": 1", "\"format\": 99", 1);
        assert_eq!(GameRecord::from_json(&future), Err(RecordError::FutureFormat { found: 99 }));
        let mut bad = r.clone();
        bad.moves[1].decision = "C3".into();
        let err = bad.replay(None).err().unwrap();
        assert!(matches!(err, RecordError::BadMove { index: 2, .. }), "{err}");
        assert!(GameRecord::from_text("game: chess\n\nC3").is_err());
    }
}
