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

/// The stones on the board entities agree with the engine's position, cell by cell, and the board
/// shows the engine's current view.
pub fn assert_projection_matches(app: &mut App) {
    use stoneyard::app::board::{BoardState, Stone};
    use stoneyard::app::match_state::CurrentMatch;
    let view = app.world().resource::<CurrentMatch>().game.board_view().expect("game has a view");
    let mut stones: Vec<_> =
        app.world_mut().query::<&Stone>().iter(app.world()).map(|s| (s.cell, s.owner, s.kind, s.height)).collect();
    stones.sort();
    let mut expected: Vec<_> =
        view.cells.iter().filter_map(|c| c.piece.as_ref().map(|p| (c.cell, p.owner, p.kind, p.count))).collect();
    expected.sort();
    assert_eq!(stones, expected);
    assert_eq!(app.world().resource::<BoardState>().view.as_ref(), Some(&view));
}

/// Presses and releases a keyboard key, as the window would report it; then lets a frame pass.
pub fn key(app: &mut App, key_code: KeyCode) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardInput};
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code,
            logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
    }
    app.update();
}
