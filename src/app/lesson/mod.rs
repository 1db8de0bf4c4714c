//! Lessons and practice in the app: each game's books read when wanted, a lesson played on the
//! real board against its script, a practice position against the computer. The Learn screen
//! (menus) lists them; the panel shows the lesson's goal or the position's question.

mod books;
mod practice_run;
mod run;

use crate::app::input::ActionPressed;
use crate::app::match_state::{CurrentMatch, NewMatch};
use crate::app::playing::Replay;
use crate::app::screen::Screen;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((books::plugin, run::plugin, practice_run::plugin));
}

/// Puts a lesson's or practice position's match and run on the board, in place of `Other` (the
/// other kind of run). The press that asked for it (E on "Next") must not act on the new board.
fn put_on_board<Run: Resource, Other: Resource>(
    (commands, new_match): (&mut Commands, &mut MessageWriter<NewMatch>),
    (current, run): (CurrentMatch, Run),
    (replay, pressed, next): (&mut Replay, &mut Messages<ActionPressed>, &mut NextState<Screen>),
) {
    pressed.clear();
    *replay = Replay::default();
    commands.remove_resource::<Other>();
    new_match.write(NewMatch(Box::new(current)));
    commands.insert_resource(run);
    next.set(Screen::Playing);
}
