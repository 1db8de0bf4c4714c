//! The board as entities: a `CellSpace` per space, a `Stone` per piece or stack, a cursor, and the
//! builder that turns clicks and cursor presses into the engines' atomic decisions.

mod builder;
mod cursor;
pub mod flourish;
pub mod fx;
pub mod hint_marks;
mod look;
pub mod preview;
mod project;
mod wrap_cue;

pub use builder::{CellChosen, Choice, DragChosen, TurnBuilder, spaceless};
pub use cursor::{BoardCursor, middle_cell};
pub use project::{BoardState, CellSpace, HUD_WIDTH, Stone};

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        project::plugin,
        cursor::plugin,
        builder::plugin,
        look::plugin,
        fx::plugin,
        preview::plugin,
        flourish::plugin,
        wrap_cue::plugin,
        hint_marks::plugin,
    ));
}
