//! Typed errors with messages a player can read.

use super::OptionSpec;
use thiserror::Error;

/// A move was refused. The position it was tried on is unchanged: `play` validates before it
/// mutates, so the caller keeps the position it had.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{reason}")]
pub struct PlayError {
    /// Why, in words a player understands ("c3 is occupied", "the game is over").
    pub reason: String,
}

impl PlayError {
    pub fn new(reason: impl Into<String>) -> Self {
        PlayError { reason: reason.into() }
    }
}

/// Text (a move token, a position, a cell name) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{reason}")]
pub struct ParseError {
    pub reason: String,
}

impl ParseError {
    pub fn new(reason: impl Into<String>) -> Self {
        ParseError { reason: reason.into() }
    }
}

/// An option key or value was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    #[error("unknown option '{key}'; this game's options are: {known}")]
    UnknownKey { key: String, known: String },
    #[error("option {key}={value} is not allowed: {reason}")]
    BadValue { key: String, value: String, reason: String },
}

impl OptionError {
    /// `value` is not allowed for `key`, for `reason`.
    pub fn bad_value(key: &str, value: &str, reason: impl Into<String>) -> Self {
        OptionError::BadValue { key: key.to_string(), value: value.to_string(), reason: reason.into() }
    }

    /// The game has no option `key`; the message lists the keys of `specs` (or says there are none).
    pub fn unknown_key(key: &str, specs: &[OptionSpec]) -> Self {
        let known = if specs.is_empty() {
            "(none)".to_string()
        } else {
            specs.iter().map(|s| s.key).collect::<Vec<_>>().join(", ")
        };
        OptionError::UnknownKey { key: key.to_string(), known }
    }
}

/// A record token could not be applied: either unreadable or illegal here.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    #[error("cannot read '{token}': {source}")]
    Parse { token: String, source: ParseError },
    #[error("'{token}' is not legal here: {source}")]
    Illegal { token: String, source: PlayError },
}
