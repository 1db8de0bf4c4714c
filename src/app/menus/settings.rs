//! The settings screen: volumes, animation speed, theme, coordinates, hints, and the keys of
//! every action (choose one, press the new key).

use crate::app::AppSystems;
use crate::app::input::{Action, ActionPressed, BINDABLE, KeyBindings, key_label};
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::app::ui::{
    MenuClicked, MenuFocus, MenuInput, item, key_hints, read_menu_inputs, reset_focus, screen_frame, value_item,
};
use crate::save::{AnimationSpeed, Settings, Theme};
use bevy::input::ButtonState;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The rows of the settings screen, in order: options, then a row per action's keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Row {
    Master,
    Effects,
    Music,
    Mute,
    Speed,
    Theme,
    Coordinates,
    Hints,
    Numbers,
    Key(Action),
    ResetKeys,
    Back,
}

fn rows() -> Vec<Row> {
    let options = [
        Row::Master,
        Row::Effects,
        Row::Music,
        Row::Mute,
        Row::Speed,
        Row::Theme,
        Row::Coordinates,
        Row::Hints,
        Row::Numbers,
    ];
    options.into_iter().chain(BINDABLE.map(Row::Key)).chain([Row::ResetKeys, Row::Back]).collect()
}

/// Rebinding in progress: the action waiting for its new key, and what the last attempt did.
#[derive(Resource, Debug, Default)]
struct Rebinding {
    waiting: Option<Action>,
    message: Option<String>,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Rebinding>();
    app.add_systems(OnEnter(Screen::Settings), (reset_focus, |mut r: ResMut<Rebinding>| *r = Rebinding::default()));
    app.add_systems(Update, settings_input.in_set(AppSystems::Menus).run_if(in_state(Screen::Settings)));
    app.add_systems(EguiPrimaryContextPass, draw_settings.run_if(in_state(Screen::Settings)));
}

fn step_volume(v: &mut f32, delta: i32) {
    *v = ((*v * 10.0).round() + delta as f32).clamp(0.0, 10.0) / 10.0;
}

fn cycle<T: Copy + PartialEq>(all: &[T], now: T, delta: i32) -> T {
    let at = all.iter().position(|x| *x == now).unwrap_or(0) as i32;
    all[(at + delta).rem_euclid(all.len() as i32) as usize]
}

/// Applies one change to a settings row.
fn adjust(s: &mut Settings, row: Row, delta: i32) {
    match row {
        Row::Master => step_volume(&mut s.master_volume, delta),
        Row::Effects => step_volume(&mut s.effects_volume, delta),
        Row::Music => step_volume(&mut s.music_volume, delta),
        Row::Mute => s.muted = !s.muted,
        Row::Speed => s.animation_speed = cycle(&AnimationSpeed::ALL, s.animation_speed, delta),
        Row::Theme => s.theme = cycle(&Theme::ALL, s.theme, delta),
        Row::Coordinates => s.show_coordinates = !s.show_coordinates,
        Row::Hints => s.show_hints = !s.show_hints,
        Row::Numbers => s.show_numbers = !s.show_numbers,
        Row::Key(_) | Row::ResetKeys | Row::Back => {}
    }
}

/// Gives `action` the key `key` in the settings; says what happened.
fn rebind(settings: &mut Settings, bindings: &KeyBindings, action: Action, key: KeyCode) -> String {
    let mut changed = bindings.clone();
    match changed.rebind(action, key) {
        Ok(taken_from) => {
            settings.key_bindings = changed.to_saved();
            let taken = taken_from.map(|a| format!(" (taken from “{}”)", action_label(a))).unwrap_or_default();
            format!("“{}” is now {}{taken}", action_label(action), key_label(key))
        }
        Err(e) => e.to_string(),
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn settings_input(
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    mut keyboard: MessageReader<KeyboardInput>,
    mut rebinding: ResMut<Rebinding>,
    bindings: Res<KeyBindings>,
    mut settings: ResMut<CurrentSettings>,
    mut next: ResMut<NextState<Screen>>,
) {
    // Read every frame, so a rebinding only ever sees keys pressed after it started.
    let key = keyboard.read().filter(|e| e.state == ButtonState::Pressed && !e.repeat).map(|e| e.key_code).next();
    if let Some(action) = rebinding.waiting {
        let pressed: Vec<Action> = actions.read().map(|a| a.0).collect();
        let clicked = clicks.read().count() > 0;
        rebinding.message = match key {
            Some(KeyCode::Escape) => Some("Keys unchanged".to_string()),
            Some(key) => Some(rebind(&mut settings.0, &bindings, action, key)),
            // A gamepad's B or a click elsewhere cancels too.
            None if clicked || pressed.contains(&Action::Back) => Some("Keys unchanged".to_string()),
            None => return,
        };
        rebinding.waiting = None;
        return;
    }
    let rows = rows();
    for input in read_menu_inputs(&mut focus, rows.len(), &mut actions, &mut clicks) {
        match input {
            MenuInput::Back => next.set(Screen::Title),
            MenuInput::Activate(i) => match rows[i] {
                Row::Back => next.set(Screen::Title),
                Row::Key(action) => {
                    rebinding.waiting = Some(action);
                    rebinding.message = None;
                }
                Row::ResetKeys => {
                    settings.0.key_bindings.clear();
                    rebinding.message = Some("Every key is back to its default".to_string());
                }
                row => adjust(&mut settings.0, row, 1),
            },
            MenuInput::Adjust(i, d) => adjust(&mut settings.0, rows[i], d),
        }
    }
}

fn percent(v: f32) -> String {
    format!("{:.0} %", v * 100.0)
}

fn on_off(b: bool) -> &'static str {
    if b { "On" } else { "Off" }
}

fn draw_settings(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    settings: Res<CurrentSettings>,
    bindings: Res<KeyBindings>,
    rebinding: Res<Rebinding>,
    mut clicks: MessageWriter<MenuClicked>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let s = &settings.0;
    screen_frame(ctx, "Settings", "Saved as you change them", |ui| {
        for (i, row) in rows().into_iter().enumerate() {
            let focused = focus.0 == i;
            let (label, help, value) = match row {
                Row::Master => ("Master volume", "", percent(s.master_volume)),
                Row::Effects => ("Effects volume", "Pieces, captures, menus.", percent(s.effects_volume)),
                Row::Music => ("Music volume", "", percent(s.music_volume)),
                Row::Mute => ("Mute", "Silence everything.", on_off(s.muted).to_string()),
                Row::Speed => {
                    ("Animation speed", "Off shows every move's end at once.", s.animation_speed.label().to_string())
                }
                Row::Theme => {
                    ("Colour theme", "Classic wood, Night, or colour-blind safe.", s.theme.label().to_string())
                }
                Row::Coordinates => {
                    ("Show coordinates", "Names of files and ranks.", on_off(s.show_coordinates).to_string())
                }
                Row::Hints => (
                    "Show hints",
                    "Where moves start, control and influence, eyes, groups in danger (H).",
                    on_off(s.show_hints).to_string(),
                ),
                Row::Numbers => (
                    "Show every number",
                    "Influence and power on every space, not only under the cursor.",
                    on_off(s.show_numbers).to_string(),
                ),
                Row::Key(action) => {
                    if action == BINDABLE[0] {
                        ui.add_space(8.0);
                        ui.label(egui::RichText::new("Controls — choose one to give it a new key").size(18.0));
                        if let Some(message) = &rebinding.message {
                            ui.label(egui::RichText::new(message).size(15.0).strong());
                        }
                        ui.add_space(4.0);
                    }
                    let detail = if rebinding.waiting == Some(action) {
                        "Press the new key… (Esc keeps the old one)".to_string()
                    } else {
                        controls_line(&bindings, action)
                    };
                    item(ui, i, focused, action_label(action), &detail, &mut clicks);
                    continue;
                }
                Row::ResetKeys => {
                    item(ui, i, focused, "Reset keys to defaults", "", &mut clicks);
                    continue;
                }
                Row::Back => {
                    item(ui, i, focused, "Back", "", &mut clicks);
                    continue;
                }
            };
            value_item(ui, i, focused, (label, help), &value, None, &mut clicks);
        }
        key_hints(
            ui,
            &[
                ("Up/Down", "D-pad up/down", "choose"),
                ("Left/Right", "D-pad left/right", "change"),
                ("Enter on a control", "", "new key"),
                ("Esc", "B", "back"),
            ],
        );
    });
    Ok(())
}

/// What an action does, as the controls list says it.
fn action_label(action: Action) -> &'static str {
    match action {
        Action::Up => "Cursor / focus up",
        Action::Down => "Cursor / focus down",
        Action::Left => "Cursor left / change value",
        Action::Right => "Cursor right / change value",
        Action::Select => "Choose",
        Action::Back => "Back / cancel",
        Action::CycleOption => "Choices without a space (pass, swap…)",
        Action::Confirm => "End turn or pass / computer: move now",
        Action::Undo => "Undo",
        Action::Redo => "Redo",
        Action::Suggest => "Hint: the computer's move for you",
        Action::Hints => "Hints overlay on/off",
        Action::Menu => "Leave the board for the title",
        Action::CursorAxis => "Cursor (stick)",
    }
}

/// The gamepad control of an action (gamepad bindings are fixed).
fn pad_label(action: Action) -> &'static str {
    match action {
        Action::Up | Action::Down | Action::Left | Action::Right => "D-pad, left stick",
        Action::Select => "A",
        Action::Back => "B",
        Action::CycleOption => "X",
        Action::Confirm => "Y",
        Action::Undo => "LB",
        Action::Redo => "RB",
        Action::Suggest => "LT",
        Action::Hints => "Select",
        Action::Menu => "Start",
        Action::CursorAxis => "left stick",
    }
}

/// An action's keys (from the bindings in effect) and its gamepad button: `Enter, Space · A`.
fn controls_line(bindings: &KeyBindings, action: Action) -> String {
    let keys: Vec<String> = bindings.keys_of(action).into_iter().map(key_label).collect();
    format!("{} · {}", keys.join(", "), pad_label(action))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volume_steps_by_tenths_and_clamps() {
        let mut s = Settings { master_volume: 0.95, ..Settings::default() };
        adjust(&mut s, Row::Master, 1);
        assert_eq!(s.master_volume, 1.0);
        adjust(&mut s, Row::Master, -3);
        assert!((s.master_volume - 0.7).abs() < 1e-6);
    }

    #[test]
    fn theme_cycles_both_ways() {
        let mut s = Settings::default();
        adjust(&mut s, Row::Theme, -1);
        assert_eq!(s.theme, Theme::ColourBlindSafe);
        adjust(&mut s, Row::Theme, 1);
        assert_eq!(s.theme, Theme::Classic);
    }
}

#[cfg(test)]
mod controls_tests {
    use super::*;

    #[test]
    fn the_controls_list_names_every_key_of_the_bindings() {
        let bindings = KeyBindings::default();
        assert_eq!(controls_line(&bindings, Action::Select), "Enter, Space · A");
        assert!(controls_line(&bindings, Action::Up).starts_with("Up, W"));
        let listed: usize = BINDABLE
            .iter()
            .map(|a| controls_line(&bindings, *a).split(" · ").next().unwrap().split(", ").count())
            .sum();
        assert_eq!(listed, crate::app::input::DEFAULT_KEYS.len(), "every bound key is listed");
    }

    #[test]
    fn rebinding_saves_the_change_and_says_what_moved() {
        let mut settings = Settings::default();
        let said = rebind(&mut settings, &KeyBindings::default(), Action::Confirm, KeyCode::KeyW);
        assert_eq!(said, "“End turn or pass / computer: move now” is now W (taken from “Cursor / focus up”)");
        let (now, _) = KeyBindings::from_saved(&settings.key_bindings);
        assert_eq!(now.keys_of(Action::Confirm), vec![KeyCode::KeyW]);
        assert_eq!(now.keys_of(Action::Up), vec![KeyCode::ArrowUp]);
        let refused = rebind(&mut settings, &now, Action::Redo, KeyCode::KeyW);
        assert!(refused.contains("only key"), "{refused}");
    }
}
