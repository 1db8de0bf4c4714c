//! The five games: their kinds and slugs, and one object-safe handle (`DynGame`) that lets the
//! command line, saves and menus work with any of them through its record tokens and texts.

mod dyn_game;
pub mod gravel;
pub mod hidden_intention;
pub mod inchworm;
mod kind;
pub mod red_stone;
pub mod throngs;

pub use dyn_game::{BenchReport, DynGame, GameError, PLAYOUT_PLY_LIMIT, available, open, status_json};
pub use kind::GameKind;
