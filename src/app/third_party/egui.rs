//! bevy_egui: immediate-mode menus and HUD.

use bevy::prelude::*;
use bevy_egui::EguiPlugin;

pub fn plugin(app: &mut App) {
    app.add_plugins(EguiPlugin::default());
}
