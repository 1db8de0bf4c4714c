//! Stoneyard: five abstract strategy games (Gravel, Red Stone, Throngs, Inchworm, Hidden
//! Intention) on the desktop and in the browser.
//!
//! Crate map: `rules` (the shared vocabulary and the `Rules` trait), `games` (the five engines and
//! a handle for any of them), `lessons` (the lessons' data and their check), `session` (a game in progress, one `Match` for every holder of one),
//! `cli` (referee, perft, bench, arena, serve, loadtest) and `online` (the protocol, the
//! authoritative game table and, feature `server`, the game server) are pure Rust;
//! `app` (feature `app`) is the Bevy game that projects the engines' positions onto entities.

pub mod ai;
/// The command line (the browser has none).
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod games;
pub mod lessons;
pub mod online;
pub mod rules;
pub mod save;
pub mod session;
pub mod synth;
pub mod version;

#[cfg(feature = "app")]
pub mod app;
