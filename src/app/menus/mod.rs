//! Menu screens (egui): title, game setup, settings. Each screen is a list of items with a focus
//! that actions move, so every menu works with mouse, keyboard alone or gamepad alone.

mod saves;
mod settings;
mod setup;
mod title;
pub mod widgets;

pub use saves::{ImportPanel, ImportRecord, SaveAction, SaveChosen, SavesList};
pub use setup::SetupChoice;

use super::input::{Action, ActionPressed};
use bevy::prelude::*;

/// The focused item of the current menu.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct MenuFocus(pub usize);

/// A mouse click on a menu item: `delta` 0 activates it, ±1 adjusts it (the ◀ ▶ arrows).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MenuClicked {
    pub index: usize,
    pub delta: i32,
}

/// What the player asked of a menu this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuInput {
    Activate(usize),
    Adjust(usize, i32),
    Back,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<MenuFocus>();
    app.add_message::<MenuClicked>();
    app.add_plugins((title::plugin, setup::plugin, settings::plugin, saves::plugin));
}

/// Moves `focus` over `len` items and turns actions and clicks into menu inputs.
pub fn read_menu_inputs(
    focus: &mut MenuFocus,
    len: usize,
    actions: &mut MessageReader<ActionPressed>,
    clicks: &mut MessageReader<MenuClicked>,
) -> Vec<MenuInput> {
    let actions: Vec<Action> = actions.read().map(|a| a.0).collect();
    let clicks: Vec<MenuClicked> = clicks.read().copied().collect();
    menu_inputs_from(focus, len, &actions, &clicks)
}

/// `read_menu_inputs` over actions and clicks already read.
pub fn menu_inputs_from(
    focus: &mut MenuFocus,
    len: usize,
    actions: &[Action],
    clicks: &[MenuClicked],
) -> Vec<MenuInput> {
    let mut inputs = Vec::new();
    if len == 0 {
        return inputs;
    }
    focus.0 = focus.0.min(len - 1);
    for action in actions {
        match action {
            Action::Up => focus.0 = (focus.0 + len - 1) % len,
            Action::Down => focus.0 = (focus.0 + 1) % len,
            Action::Left => inputs.push(MenuInput::Adjust(focus.0, -1)),
            Action::Right | Action::CycleOption => inputs.push(MenuInput::Adjust(focus.0, 1)),
            Action::Select | Action::Confirm => inputs.push(MenuInput::Activate(focus.0)),
            Action::Back | Action::Menu => inputs.push(MenuInput::Back),
            _ => {}
        }
    }
    for click in clicks {
        if click.index < len {
            focus.0 = click.index;
            inputs.push(if click.delta == 0 {
                MenuInput::Activate(click.index)
            } else {
                MenuInput::Adjust(click.index, click.delta)
            });
        }
    }
    inputs
}

/// Every screen starts with its first item focused, and the press that opened it is not seen
/// again by the new screen (messages live two frames; a screen's reader starts at the oldest).
pub fn reset_focus(
    mut focus: ResMut<MenuFocus>,
    mut actions: ResMut<Messages<ActionPressed>>,
    mut clicks: ResMut<Messages<MenuClicked>>,
) {
    focus.0 = 0;
    actions.clear();
    clicks.clear();
}
