//! Menu screens (egui): title, game setup, settings, saved games, games in progress, finished games,
//! lessons. Each screen is a list of items
//! with a focus that actions move, so every menu works with mouse, keyboard alone or gamepad alone.

mod continue_games;
mod history;
mod learn;
mod list_keys;
mod saves;
mod settings;
mod setup;
mod title;

pub use continue_games::GamesInProgress;
pub use history::FinishedGames;
pub use saves::{ImportRecord, SavesList};
pub use setup::SetupChoice;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((title::plugin, setup::plugin, settings::plugin, saves::plugin, continue_games::plugin));
    app.add_plugins((history::plugin, learn::plugin));
}
