//! The settings screen: volumes, animation speed, theme, coordinates, hints.

use super::widgets::{item, key_hints, screen_frame, value_item};
use super::{MenuClicked, MenuFocus, MenuInput, read_menu_inputs, reset_focus};
use crate::app::AppSystems;
use crate::app::input::ActionPressed;
use crate::app::screen::Screen;
use crate::app::settings_io::CurrentSettings;
use crate::save::{AnimationSpeed, Settings, Theme};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The rows of the settings screen, in order.
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
    Back,
}

const ROWS: [Row; 9] =
    [Row::Master, Row::Effects, Row::Music, Row::Mute, Row::Speed, Row::Theme, Row::Coordinates, Row::Hints, Row::Back];

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Settings), reset_focus);
    app.add_systems(Update, settings_input.in_set(AppSystems::Update).run_if(in_state(Screen::Settings)));
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
        Row::Back => {}
    }
}

fn settings_input(
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    mut settings: ResMut<CurrentSettings>,
    mut next: ResMut<NextState<Screen>>,
) {
    for input in read_menu_inputs(&mut focus, ROWS.len(), &mut actions, &mut clicks) {
        match input {
            MenuInput::Back | MenuInput::Activate(8) => next.set(Screen::Title),
            MenuInput::Activate(i) => adjust(&mut settings.0, ROWS[i], 1),
            MenuInput::Adjust(i, d) => adjust(&mut settings.0, ROWS[i], d),
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
    mut clicks: MessageWriter<MenuClicked>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let s = &settings.0;
    screen_frame(ctx, "Settings", "Saved as you change them", |ui| {
        for (i, row) in ROWS.iter().enumerate() {
            let (label, value) = match row {
                Row::Master => ("Master volume", percent(s.master_volume)),
                Row::Effects => ("Effects volume", percent(s.effects_volume)),
                Row::Music => ("Music volume", percent(s.music_volume)),
                Row::Mute => ("Mute", on_off(s.muted).to_string()),
                Row::Speed => ("Animation speed", s.animation_speed.label().to_string()),
                Row::Theme => ("Colour theme", s.theme.label().to_string()),
                Row::Coordinates => ("Show coordinates", on_off(s.show_coordinates).to_string()),
                Row::Hints => ("Show hints", on_off(s.show_hints).to_string()),
                Row::Back => {
                    item(ui, i, focus.0 == i, "Back", "", &mut clicks);
                    continue;
                }
            };
            value_item(ui, i, focus.0 == i, label, &value, &mut clicks);
        }
        key_hints(ui, "Up/Down: choose    Left/Right: change    Esc or B button: back");
        ui.add_space(12.0);
        egui::CollapsingHeader::new(egui::RichText::new("Controls").size(18.0)).default_open(true).show(ui, |ui| {
            egui::Grid::new("controls").num_columns(2).striped(true).show(ui, |ui| {
                for (what, keys) in controls() {
                    ui.label(what);
                    ui.label(egui::RichText::new(keys).strong());
                    ui.end_row();
                }
            });
        });
    });
    Ok(())
}

/// What each action does and its keys (from the bindings themselves) and gamepad button.
fn controls() -> Vec<(&'static str, String)> {
    use crate::app::input::{Action, DEFAULT_KEYS};
    let rows: [(Action, &str, &str); 13] = [
        (Action::Up, "Cursor / focus up", "D-pad, left stick"),
        (Action::Down, "Cursor / focus down", "D-pad, left stick"),
        (Action::Left, "Cursor left / change value", "D-pad, left stick"),
        (Action::Right, "Cursor right / change value", "D-pad, left stick"),
        (Action::Select, "Choose", "A"),
        (Action::Back, "Back / cancel", "B"),
        (Action::CycleOption, "Choices without a space (pass, swap…)", "X"),
        (Action::Confirm, "Computer: move now", "Y"),
        (Action::Undo, "Undo", "LB"),
        (Action::Redo, "Redo", "RB"),
        (Action::Suggest, "Hint: the computer's move for you", "LT"),
        (Action::Hints, "Hints overlay on/off", "Select"),
        (Action::Menu, "Leave the board for the title", "Start"),
    ];
    rows.into_iter()
        .map(|(action, what, pad)| {
            let keys: Vec<String> =
                DEFAULT_KEYS.iter().filter(|(a, _)| *a == action).map(|(_, k)| key_name(*k)).collect();
            (what, format!("{} · {pad}", keys.join(", ")))
        })
        .collect()
}

/// A key as people call it (`ArrowUp` → `Up`, `KeyW` → `W`).
fn key_name(key: KeyCode) -> String {
    let raw = format!("{key:?}");
    raw.strip_prefix("Key").or_else(|| raw.strip_prefix("Arrow")).unwrap_or(&raw).to_string()
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
        let rows = controls();
        let choose = rows.iter().find(|(what, _)| *what == "Choose").map(|(_, keys)| keys.as_str());
        assert_eq!(choose, Some("Enter, Space · A"));
        assert!(rows.iter().any(|(_, keys)| keys.starts_with("Up, W")));
        let listed: usize = rows.iter().map(|(_, k)| k.split(" · ").next().unwrap().split(", ").count()).sum();
        assert_eq!(listed, crate::app::input::DEFAULT_KEYS.len(), "every bound key is listed");
    }
}
