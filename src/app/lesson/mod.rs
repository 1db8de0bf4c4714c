//! Lessons in the app: each game's book read when wanted, and a lesson played on the real board
//! against its script. The Learn screen (menus) lists them; the panel shows the lesson's goal.

mod books;
mod run;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((books::plugin, run::plugin));
}
