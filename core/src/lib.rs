//! Stoneyard's Bevy-free core: the rules, the five games, the computer, saves, lessons, the
//! command line and online play, shared by the game (the `stoneyard` crate), the server and the
//! browser's computer worker.
//!
//! Crate map: `rules` (the shared vocabulary and the `Rules` trait), `games` (the five engines and
//! a handle for any of them), `ai` (the search and its knowledge of each game), `lessons` (the
//! lessons' data and their check), `session` (a game in progress, one `Match` for every holder of
//! one), `save` (records, settings and the store), `cli` (referee, perft, bench, arena, serve,
//! loadtest), `online` (the protocol, the authoritative game table and, feature `server`, the game
//! server), `synth` (the sounds) and `version`. Nothing here imports Bevy: the app is a crate of
//! its own, so the compiler, not a convention, keeps the engine out.

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
