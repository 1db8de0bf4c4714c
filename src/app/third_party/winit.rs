//! Winit: reactive updates, so an idle board costs (almost) nothing.

use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};
use std::time::Duration;

pub fn plugin(app: &mut App) {
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive(Duration::from_secs(1)),
        unfocused_mode: UpdateMode::reactive_low_power(Duration::from_secs(5)),
    });
}
