//! Player input: one leafwing `Action` enum with default bindings for keyboard, mouse and gamepad.
//! Devices feed `ActionState<Action>`; this module turns presses into `ActionPressed` messages,
//! which are all the screens read (tests send the same messages).

use super::AppSystems;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// Everything a player can ask for, whatever the device.
#[derive(Actionlike, PartialEq, Eq, Clone, Copy, Hash, Debug, Reflect)]
pub enum Action {
    Up,
    Down,
    Left,
    Right,
    /// The board cursor / menu focus as a stick.
    #[actionlike(DualAxis)]
    CursorAxis,
    /// Choose the focused item or board space.
    Select,
    /// Back out of a menu or cancel the move being built.
    Back,
    /// Confirm / end the turn.
    Confirm,
    Undo,
    Redo,
    /// Cycle through the choices of the focused option.
    CycleOption,
    /// Open the in-game menu.
    Menu,
    /// Show or hide hints.
    Hints,
}

/// One press of an action, from any device or from a test.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionPressed(pub Action);

impl Action {
    /// The default bindings: arrows/WASD, Enter/Space, Escape; D-pad, left stick, A/B/Start.
    pub fn default_input_map() -> InputMap<Action> {
        use Action::*;
        let mut map = InputMap::default();
        for (action, keys) in [
            (Up, [KeyCode::ArrowUp, KeyCode::KeyW]),
            (Down, [KeyCode::ArrowDown, KeyCode::KeyS]),
            (Left, [KeyCode::ArrowLeft, KeyCode::KeyA]),
            (Right, [KeyCode::ArrowRight, KeyCode::KeyD]),
            (Select, [KeyCode::Enter, KeyCode::Space]),
            (Back, [KeyCode::Escape, KeyCode::Backspace]),
        ] {
            for key in keys {
                map.insert(action, key);
            }
        }
        map.insert(Confirm, KeyCode::KeyE);
        map.insert(Undo, KeyCode::KeyZ);
        map.insert(Redo, KeyCode::KeyY);
        map.insert(CycleOption, KeyCode::Tab);
        map.insert(Menu, KeyCode::F10);
        map.insert(Hints, KeyCode::KeyH);
        for (action, button) in [
            (Up, GamepadButton::DPadUp),
            (Down, GamepadButton::DPadDown),
            (Left, GamepadButton::DPadLeft),
            (Right, GamepadButton::DPadRight),
            (Select, GamepadButton::South),
            (Back, GamepadButton::East),
            (Confirm, GamepadButton::North),
            (CycleOption, GamepadButton::West),
            (Undo, GamepadButton::LeftTrigger),
            (Redo, GamepadButton::RightTrigger),
            (Menu, GamepadButton::Start),
            (Hints, GamepadButton::Select),
        ] {
            map.insert(action, button);
        }
        map.insert_dual_axis(CursorAxis, GamepadStick::LEFT);
        map
    }
}

/// The entity that owns the player's `InputMap` and `ActionState`.
#[derive(Component)]
pub struct PlayerInput;

pub fn plugin(app: &mut App) {
    app.add_message::<ActionPressed>();
    app.add_systems(Update, record_actions.in_set(AppSystems::RecordInput));
}

/// Spawns the input owner (only the windowed app has input devices).
pub fn devices_plugin(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<Action>::default());
    app.add_systems(Startup, spawn_player_input);
}

fn spawn_player_input(mut commands: Commands) {
    commands.spawn((Name::new("Player input"), PlayerInput, Action::default_input_map()));
}

/// A stick past this deflection counts as a press of the matching direction.
const STICK_THRESHOLD: f32 = 0.6;

fn record_actions(
    players: Query<&ActionState<Action>, With<PlayerInput>>,
    mut stick_was: Local<Option<Action>>,
    mut out: MessageWriter<ActionPressed>,
) {
    for state in &players {
        for action in [
            Action::Up,
            Action::Down,
            Action::Left,
            Action::Right,
            Action::Select,
            Action::Back,
            Action::Confirm,
            Action::Undo,
            Action::Redo,
            Action::CycleOption,
            Action::Menu,
            Action::Hints,
        ] {
            if state.just_pressed(&action) {
                out.write(ActionPressed(action));
            }
        }
        let stick = state.axis_pair(&Action::CursorAxis);
        let now = if stick.y > STICK_THRESHOLD {
            Some(Action::Up)
        } else if stick.y < -STICK_THRESHOLD {
            Some(Action::Down)
        } else if stick.x > STICK_THRESHOLD {
            Some(Action::Right)
        } else if stick.x < -STICK_THRESHOLD {
            Some(Action::Left)
        } else {
            None
        };
        if now != *stick_was {
            if let Some(a) = now {
                out.write(ActionPressed(a));
            }
            *stick_was = now;
        }
    }
}
