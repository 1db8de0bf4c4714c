//! Stoneyard: five abstract strategy games (Gravel, Red Stone, Throngs, Inchworm, Hidden
//! Intention) on the desktop and in the browser.
//!
//! The Bevy-free layers (rules, games, computer, saves, lessons, command line, online) are the
//! crate `stoneyard_core` (core/), re-exported here under their own names so that `stoneyard::games`
//! and `crate::games` read as before; `app` (feature `app`) is the Bevy game that projects the
//! engines' positions onto entities. Two crates, so that the app's build and its tests reuse the
//! core's build instead of compiling those layers again with the app.

/// The command line (the browser has none).
#[cfg(not(target_arch = "wasm32"))]
pub use stoneyard_core::cli;
pub use stoneyard_core::{ai, for_each_game, games, lessons, online, rules, save, session, synth, version};

#[cfg(feature = "app")]
pub mod app;
