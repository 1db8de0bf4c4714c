//! The saved-games screen: every named save, newest first; open one to continue it (or to replay
//! it when it is finished), replay it, or delete it.

use super::widgets::{item, key_hints, screen_frame};
use super::{MenuClicked, MenuFocus, MenuInput, reset_focus};
use crate::app::AppSystems;
use crate::app::input::{Action, ActionPressed};
use crate::app::replay::{Replay, open_record};
use crate::app::screen::Screen;
use crate::app::settings_io::SaveStore;
use crate::save::{SaveEntry, delete_named, list_saves, load_named};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The list as last read, and what the screen says.
#[derive(Resource, Debug, Default)]
pub struct SavesList {
    pub entries: Vec<SaveEntry>,
    /// Damaged saves and failed actions, shown under the list.
    pub problems: Vec<String>,
    /// The entry waiting for a second press to be deleted.
    pub confirm_delete: Option<usize>,
}

/// What to do with a save.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveAction {
    /// Continue an unfinished game; replay a finished one.
    Open,
    Replay,
    Delete,
}

/// A save chosen with a mouse button (keys and gamepad go through the menu focus).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaveChosen(pub usize, pub SaveAction);

pub fn plugin(app: &mut App) {
    app.init_resource::<SavesList>();
    app.add_message::<SaveChosen>();
    app.add_systems(OnEnter(Screen::Saves), (reset_focus, refresh));
    app.add_systems(Update, saves_input.in_set(AppSystems::Update).run_if(in_state(Screen::Saves)));
    app.add_systems(EguiPrimaryContextPass, draw_saves.run_if(in_state(Screen::Saves)));
}

fn refresh(store: Res<SaveStore>, mut list: ResMut<SavesList>) {
    *list = SavesList::default();
    match list_saves(&store.0) {
        Ok((entries, problems)) => {
            list.entries = entries;
            list.problems = problems;
        }
        Err(e) => list.problems.push(e.to_string()),
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn saves_input(
    mut commands: Commands,
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    mut chosen: MessageReader<SaveChosen>,
    mut store: ResMut<SaveStore>,
    mut list: ResMut<SavesList>,
    mut next: ResMut<NextState<Screen>>,
) {
    let n = list.entries.len();
    // Tab (or the gamepad's X) asks to delete the focused save; Select then confirms.
    let pressed: Vec<Action> = actions.read().map(|a| a.0).collect();
    let mut wanted: Vec<SaveChosen> = chosen.read().copied().collect();
    if pressed.contains(&Action::CycleOption) && focus.0 < n {
        list.confirm_delete = Some(focus.0);
        return;
    }
    let without_tab: Vec<Action> = pressed.into_iter().filter(|a| *a != Action::CycleOption).collect();
    let clicks: Vec<MenuClicked> = clicks.read().copied().collect();
    for input in super::menu_inputs_from(&mut focus, n + 1, &without_tab, &clicks) {
        match input {
            MenuInput::Back if list.confirm_delete.is_some() => list.confirm_delete = None,
            MenuInput::Back => next.set(Screen::Title),
            MenuInput::Activate(i) if i == n => next.set(Screen::Title),
            MenuInput::Activate(i) if list.confirm_delete == Some(i) => wanted.push(SaveChosen(i, SaveAction::Delete)),
            MenuInput::Activate(i) => wanted.push(SaveChosen(i, SaveAction::Open)),
            MenuInput::Adjust(..) => {}
        }
    }
    for SaveChosen(i, action) in wanted {
        let Some(entry) = list.entries.get(i).cloned() else { continue };
        if action == SaveAction::Delete {
            match delete_named(&mut store.0, &entry.name) {
                Ok(()) => {
                    list.entries.remove(i);
                    list.confirm_delete = None;
                }
                Err(e) => list.problems.push(e.to_string()),
            }
            continue;
        }
        let opened = load_named(&store.0, &entry.name)
            .map_err(|e| e.to_string())
            .and_then(|record| open_record(&record).map(|(current, replay)| (current, replay, record)));
        match opened {
            Ok((mut current, replay, _)) => {
                if action == SaveAction::Open && !current.is_over() {
                    // Continue where the game was saved, with the same players.
                    current.players = replay.players;
                    commands.insert_resource(Replay::default());
                } else {
                    commands.insert_resource(replay);
                }
                commands.insert_resource(current);
                next.set(Screen::Playing);
                return;
            }
            Err(e) => list.problems.push(format!("'{}' cannot be opened: {e}", entry.name)),
        }
    }
}

fn draw_saves(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    list: Res<SavesList>,
    mut clicks: MessageWriter<MenuClicked>,
    mut chosen: MessageWriter<SaveChosen>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    screen_frame(ctx, "Saved games", "Newest first", |ui| {
        if list.entries.is_empty() {
            ui.label(egui::RichText::new("No saved games yet: use “Save” on the board.").size(16.0));
            ui.add_space(8.0);
        }
        for (i, e) in list.entries.iter().enumerate() {
            let state = if e.finished { "finished" } else { "in progress" };
            let detail = if list.confirm_delete == Some(i) {
                "Press Enter (A) again to delete it, Esc (B) to keep it".to_string()
            } else {
                format!("{} · {} moves · {state}", e.game.name(), e.moves)
            };
            item(ui, i, focus.0 == i, &e.name, &detail, &mut clicks);
            ui.horizontal(|ui| {
                let open = if e.finished { "Replay" } else { "Continue" };
                if ui.button(open).clicked() {
                    chosen.write(SaveChosen(i, SaveAction::Open));
                }
                if !e.finished && ui.button("Replay").clicked() {
                    chosen.write(SaveChosen(i, SaveAction::Replay));
                }
                if ui.button("Delete").clicked() {
                    chosen.write(SaveChosen(i, SaveAction::Delete));
                }
            });
            ui.add_space(4.0);
        }
        let n = list.entries.len();
        item(ui, n, focus.0 == n, "Back", "", &mut clicks);
        for p in &list.problems {
            ui.colored_label(ui.visuals().warn_fg_color, p);
        }
        key_hints(ui, "Enter or A: open    Tab or X: delete    Esc or B: back");
    });
    Ok(())
}
