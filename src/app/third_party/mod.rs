//! One file per third-party plugin crate, so a lagging crate touches one file only.

mod egui;
mod kira;
mod winit;

pub use kira::{EffectsChannel, MusicChannel, UiChannel};

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((egui::plugin, kira::plugin, winit::plugin));
}
