//! Hidden Intention's options: the spec defines none, so the game is always played as written.

use crate::rules::NoOptions;

/// The options of Hidden Intention. The spec has no options (the cases table lists no keys); the
/// swap budget and the figure set are fixed constants of the rules (see `position.rs`).
pub type HiddenIntentionOptions = NoOptions;
