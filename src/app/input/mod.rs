//! Player input: one leafwing `Action` enum with default bindings for keyboard, mouse and gamepad.
//! Devices feed `ActionState<Action>`; this module turns presses into `ActionPressed` messages,
//! which are all the screens read (tests send the same messages).

mod bindings;

pub use bindings::{BINDABLE, KeyBindings, key_label};

use super::AppSystems;
use bevy::input::ButtonState;
use bevy::input::keyboard::KeyboardInput;
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
    /// Ask the computer which decision it would make for you.
    Suggest,
}

/// One press of an action, from any device or from a test.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionPressed(pub Action);

/// The default keyboard bindings (the player can change them: `key_bindings`).
pub const DEFAULT_KEYS: [(Action, KeyCode); 19] = [
    (Action::Up, KeyCode::ArrowUp),
    (Action::Up, KeyCode::KeyW),
    (Action::Down, KeyCode::ArrowDown),
    (Action::Down, KeyCode::KeyS),
    (Action::Left, KeyCode::ArrowLeft),
    (Action::Left, KeyCode::KeyA),
    (Action::Right, KeyCode::ArrowRight),
    (Action::Right, KeyCode::KeyD),
    (Action::Select, KeyCode::Enter),
    (Action::Select, KeyCode::Space),
    (Action::Back, KeyCode::Escape),
    (Action::Back, KeyCode::Backspace),
    (Action::Confirm, KeyCode::KeyE),
    (Action::Undo, KeyCode::KeyZ),
    (Action::Redo, KeyCode::KeyY),
    (Action::CycleOption, KeyCode::Tab),
    (Action::Menu, KeyCode::F10),
    (Action::Hints, KeyCode::KeyH),
    (Action::Suggest, KeyCode::KeyQ),
];

impl Action {
    /// The gamepad bindings: D-pad, left stick, A/B/X/Y, triggers, Start/Select. Keys are not in
    /// this map: `record_actions` reads them from key events through [`KeyBindings`], so a
    /// rebound key never also fires its old action here.
    pub fn default_input_map() -> InputMap<Action> {
        use Action::*;
        let mut map = InputMap::default();
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
            (Suggest, GamepadButton::LeftTrigger2),
        ] {
            map.insert(action, button);
        }
        map.insert_dual_axis(CursorAxis, GamepadStick::LEFT);
        map
    }
}

/// A text field has the keyboard (a save name, a pasted record): keys type, they are not actions.
#[derive(Resource, Debug, Default, PartialEq, Eq)]
pub struct TypingText(pub bool);

/// The device the player last pressed something on: the screens name its controls only ("Enter:
/// select" at the keyboard, "A: select" with a gamepad; nothing by touch, see `ui::by_touch`).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayingWith {
    /// The keyboard and the mouse.
    #[default]
    Keyboard,
    Gamepad,
}

/// The entity that owns the player's `InputMap` and `ActionState`.
#[derive(Component)]
struct PlayerInput;

pub fn plugin(app: &mut App) {
    app.add_plugins(bindings::plugin);
    app.add_message::<ActionPressed>();
    app.init_resource::<TypingText>();
    app.init_resource::<PlayingWith>();
    // Registered by Bevy's input plugin in the game; headless apps read none.
    app.add_message::<KeyboardInput>();
    app.add_systems(Update, record_actions.in_set(AppSystems::RecordInput));
}

/// Spawns the input owner (only the windowed app has input devices).
pub fn devices_plugin(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<Action>::default());
    app.add_systems(Startup, spawn_player_input);
    app.add_systems(bevy_egui::EguiPrimaryContextPass, note_typing);
    app.add_systems(
        PreUpdate,
        keep_keys_for_the_game
            .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    );
}

/// Read after egui has laid out the frame, used by the next frame's `record_actions`: keys act in
/// the game unless a text field has them.
fn note_typing(mut contexts: bevy_egui::EguiContexts, mut typing: ResMut<TypingText>) {
    if let Ok(ctx) = contexts.ctx_mut() {
        typing.set_if_neq(TypingText(ctx.text_edit_focused()));
    }
}

/// The keyboard belongs to the game, whose menus have their own focus: before egui's pass, egui
/// loses Tab (a game key, which egui would use to give its buttons keyboard focus) and any focus
/// outside a text field, so Enter or Space never also press an egui button.
fn keep_keys_for_the_game(mut contexts: bevy_egui::EguiContexts, mut inputs: Query<&mut bevy_egui::EguiInput>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    if ctx.text_edit_focused() {
        return;
    }
    if let Some(id) = ctx.memory(|m| m.focused()) {
        ctx.memory_mut(|m| m.surrender_focus(id));
    }
    for mut input in &mut inputs {
        input.0.events.retain(|e| !matches!(e, bevy_egui::egui::Event::Key { key: bevy_egui::egui::Key::Tab, .. }));
    }
}

fn spawn_player_input(mut commands: Commands) {
    commands.spawn((Name::new("Player input"), PlayerInput, Action::default_input_map()));
}

/// A stick past this deflection counts as a press of the matching direction.
const STICK_THRESHOLD: f32 = 0.6;

fn record_actions(
    players: Query<&ActionState<Action>, With<PlayerInput>>,
    (bindings, typing): (Res<KeyBindings>, Res<TypingText>),
    mut keyboard: MessageReader<KeyboardInput>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    mut stick_was: Local<Option<Action>>,
    mut out: MessageWriter<ActionPressed>,
    mut device: ResMut<PlayingWith>,
) {
    // Keys come from the keyboard events themselves, one action per press: leafwing samples held
    // state once a frame, so on a slow frame a quick tap is missed and two taps become one.
    let mut from_keys: Vec<Action> = Vec::new();
    for event in keyboard.read() {
        if event.state != ButtonState::Pressed || event.repeat || typing.0 {
            continue;
        }
        device.set_if_neq(PlayingWith::Keyboard);
        for action in bindings.actions_of(event.key_code) {
            debug!("action pressed: {action:?}");
            out.write(ActionPressed(action));
            from_keys.push(action);
        }
    }
    if mouse.is_some_and(|m| m.get_just_pressed().next().is_some()) {
        device.set_if_neq(PlayingWith::Keyboard);
    }
    for state in &players {
        // Every button action (the stick is read below).
        for action in BINDABLE {
            // Keyboard presses were counted above; this adds the gamepad's.
            if state.just_pressed(&action) && !from_keys.contains(&action) {
                device.set_if_neq(PlayingWith::Gamepad);
                debug!("action pressed: {action:?}");
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
                device.set_if_neq(PlayingWith::Gamepad);
                out.write(ActionPressed(a));
            }
            *stick_was = now;
        }
    }
}
