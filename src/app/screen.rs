//! Which screen shows: the title, a game's setup, the settings, the saved games, the games in progress,
//! playing online, the lessons, or the board.

use bevy::prelude::*;

/// Which screen is showing.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    #[default]
    Title,
    Setup,
    Settings,
    Playing,
    /// The list of named saves.
    Saves,
    /// The games in progress.
    Continue,
    /// The finished games kept by themselves.
    History,
    /// Playing online: create, join, the online games kept.
    Online,
    /// The games' lessons.
    Learn,
}

pub fn plugin(app: &mut App) {
    app.init_state::<Screen>();
    app.add_systems(Update, log_screen_changes.run_if(state_changed::<Screen>));
}

fn log_screen_changes(screen: Res<State<Screen>>) {
    debug!("screen: {:?}", screen.get());
}
