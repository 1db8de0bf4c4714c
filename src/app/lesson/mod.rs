//! Lessons and practice in the app: each game's books read when wanted, a lesson played on the
//! real board against its script, a practice position against the computer. The Learn screen
//! (menus) lists them; the panel shows the lesson's goal or the position's question.

mod books;
mod practice_run;
mod run;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((books::plugin, run::plugin, practice_run::plugin));
}
