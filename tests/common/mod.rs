//! Headless app harness: `MinimalPlugins` + our core plugin, driven by action messages.
#![allow(dead_code)]

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use stoneyard::app::input::{Action, ActionPressed};
use stoneyard::app::screen::Screen;
use stoneyard::app::settings_io::SaveStore;
use stoneyard::save::Store;

/// An app with the game's logic but no window, renderer, sound or devices; settings in memory.
pub fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_resource(SaveStore(Store::memory()));
    app.add_plugins(stoneyard::app::core_plugin);
    // Presses during an animation only skip it; the scripted tests play at full speed.
    app.world_mut().resource_mut::<stoneyard::app::settings_io::CurrentSettings>().0.animation_speed =
        stoneyard::save::AnimationSpeed::Off;
    app.update();
    app
}

/// Presses actions one per frame, as a player would.
pub fn press(app: &mut App, actions: &[Action]) {
    for &a in actions {
        app.world_mut().write_message(ActionPressed(a));
        app.update();
    }
    // One more frame so state transitions requested by the last action take effect.
    app.update();
}

pub fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}
