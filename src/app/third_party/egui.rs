//! bevy_egui: immediate-mode menus and HUD.

use bevy::prelude::*;
use bevy_egui::{EguiInput, EguiPlugin, EguiPreUpdateSet, egui};

pub fn plugin(app: &mut App) {
    app.add_plugins(EguiPlugin::default());
    app.add_systems(
        PreUpdate,
        drop_unchanged_modifiers.after(EguiPreUpdateSet::ProcessInput).before(EguiPreUpdateSet::BeginPass),
    );
}

/// bevy_egui 0.42 tells egui the modifier keys on every frame, changed or not; egui takes any input
/// event as a reason to draw the next frame at once, so the app never went idle (in the browser,
/// SwiftShader drew ~8 frames a second of an unchanged board). Only a real change is passed on.
fn drop_unchanged_modifiers(mut inputs: Query<&mut EguiInput>, mut last: Local<Option<egui::Modifiers>>) {
    for mut input in &mut inputs {
        input.0.events.retain(|event| match event {
            egui::Event::ModifiersChanged(now) if *last == Some(*now) => false,
            egui::Event::ModifiersChanged(now) => {
                *last = Some(*now);
                true
            }
            _ => true,
        });
    }
}
