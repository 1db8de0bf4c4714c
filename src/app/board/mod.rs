//! The board as entities: a `BoardCell` per space carrying its state as components (`Burned`,
//! `Controlled`, `Influence`, `Power`, `Chosen`, `Travelling`, `Hinted`), and on it at most one
//! piece — a `Stone`, a `Stack` whose pieces are child entities (`StackPiece`), or a `Figure`.
//! The projection keeps them equal to the match's position; looks, animations, marks and input
//! are built on them; touch gestures and zoom for big boards (`gestures`).

mod board_text;
mod builder;
mod cell_picking;
mod cursor;
mod drag_ghost;
mod edge_labels;
mod flourish;
mod frame;
mod fx;
mod gestures;
mod hint_marks;
mod input;
mod look;
mod marks;
mod motions;
mod mouse_clicks;
mod page_mirror;
mod piece_drag;
mod preview;
mod project;
mod textures;
mod wrap_cue;

pub use cursor::cursor_step;
pub use fx::Tween;
pub use gestures::BoardZoom;
pub use project::{
    BoardCell, BoardState, Burned, Controlled, Figure, Influence, Piece, Power, Stack, StackPiece, Stone, Vanishing,
    shown_piece,
};

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        project::plugin,
        cursor::plugin,
        input::plugin,
        fx::plugin,
        look::plugin,
        marks::plugin,
        preview::plugin,
        flourish::plugin,
        wrap_cue::plugin,
        hint_marks::plugin,
        gestures::plugin,
        cell_picking::plugin,
        edge_labels::plugin,
        drag_ghost::plugin,
        board_text::plugin,
    ));
    app.add_plugins((mouse_clicks::plugin, page_mirror::plugin));
}

/// Whether the app draws (a renderer with meshes): looks and marks are left out of headless tests
/// that do not ask for them.
fn drawing(meshes: Option<Res<Assets<Mesh>>>) -> bool {
    meshes.is_some()
}
