//! The saved-games screen: every named save, newest first; open one to continue it (or to replay
//! it when it is finished), replay it, or delete it; the finished games kept by themselves
//! (`history`); or bring in a record from elsewhere (pasted
//! text in any record form, a file, an upload in the browser), which is kept as a save and opened
//! in the replay.

use crate::app::AppSystems;
use crate::app::input::{Action, ActionPressed};
use crate::app::match_state::NewMatch;
use crate::app::playing::Replay;
use crate::app::review_state::ReviewCommand;
use crate::app::screen::Screen;
use crate::app::settings::SaveStore;
use crate::app::ui::{MenuClicked, MenuFocus, MenuInput, item, key_hints, menu_inputs_from, reset_focus, screen_frame};
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
    /// The "open a record" panel, when open.
    pub import: Option<ImportPanel>,
}

/// A record being brought in: pasted text, or (natively) a file path.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ImportPanel {
    pub text: String,
    pub path: String,
    /// Why the last attempt failed.
    pub problem: Option<String>,
}

/// The text of a record to bring in (from the panel's buttons, an upload, or a test).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct ImportRecord(pub String);

/// What to do with a save.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveAction {
    /// Continue an unfinished game; replay a finished one.
    Open,
    Replay,
    /// Replay it with the computer's review.
    Review,
    Delete,
}

/// A save chosen with a mouse button (keys and gamepad go through the menu focus).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaveChosen(pub usize, pub SaveAction);

pub fn plugin(app: &mut App) {
    app.init_resource::<SavesList>();
    app.add_message::<SaveChosen>().add_message::<ImportRecord>();
    app.add_systems(OnEnter(Screen::Saves), (reset_focus, refresh));
    app.add_systems(
        Update,
        (saves_input, import_record).chain().in_set(AppSystems::Menus).run_if(in_state(Screen::Saves)),
    );
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, receive_upload.before(import_record).run_if(in_state(Screen::Saves)));
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
    mut new_match: MessageWriter<NewMatch>,
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    mut chosen: MessageReader<SaveChosen>,
    mut review: MessageWriter<ReviewCommand>,
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
    if list.import.is_some() {
        // The panel has the keyboard's attention; Esc (or B) closes it.
        if without_tab.contains(&Action::Back) {
            list.import = None;
        }
        return;
    }
    for input in menu_inputs_from(&mut focus, n + 3, &without_tab, &clicks) {
        match input {
            MenuInput::Back if list.confirm_delete.is_some() => list.confirm_delete = None,
            MenuInput::Back => next.set(Screen::Title),
            MenuInput::Activate(i) if i == n => list.import = Some(ImportPanel::default()),
            MenuInput::Activate(i) if i == n + 1 => next.set(Screen::History),
            MenuInput::Activate(i) if i == n + 2 => next.set(Screen::Title),
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
            .and_then(|record| Replay::open(&record).map(|(current, replay)| (current, replay, record)));
        match opened {
            Ok((mut current, replay, _)) => {
                if action == SaveAction::Open && !current.is_over() {
                    // Continue where the game was saved, with the same players.
                    current.players = replay.players;
                    commands.insert_resource(Replay::default());
                } else {
                    commands.insert_resource(replay);
                }
                if action == SaveAction::Review {
                    review.write(ReviewCommand::Start);
                }
                new_match.write(NewMatch(Box::new(current)));
                next.set(Screen::Playing);
                return;
            }
            Err(e) => list.problems.push(format!("'{}' cannot be opened: {e}", entry.name)),
        }
    }
}

/// The name an imported record is kept under: its game and the first number no file uses (a
/// damaged save keeps its name too: it is never written over).
fn import_name(store: &crate::save::Store, game: crate::games::GameKind) -> String {
    (1..)
        .map(|i| format!("Imported {} {i}", game.name()))
        .find(|name| matches!(load_named(store, name), Err(crate::save::SaveError::Missing(_))))
        .expect("a free name")
}

/// Reads a record brought in, keeps it as a named save, and opens it in the replay. A record that
/// does not read or replay changes nothing and says why in the panel.
fn import_record(
    mut commands: Commands,
    mut new_match: MessageWriter<NewMatch>,
    mut imports: MessageReader<ImportRecord>,
    mut store: ResMut<SaveStore>,
    mut list: ResMut<SavesList>,
    mut next: ResMut<NextState<Screen>>,
) {
    for ImportRecord(text) in imports.read() {
        let opened = crate::save::GameRecord::from_file_text(text)
            .map_err(|e| e.to_string())
            .and_then(|record| Replay::open(&record).map(|(current, replay)| (current, replay, record)));
        match opened {
            Ok((current, replay, record)) => {
                let name = import_name(&store.0, record.game);
                if let Err(e) = crate::save::save_named(&mut store.0, &name, &record) {
                    // Still worth opening: the player sees it, and hears it was not kept.
                    warn!("{e}");
                }
                list.import = None;
                new_match.write(NewMatch(Box::new(current)));
                commands.insert_resource(replay);
                next.set(Screen::Playing);
                return;
            }
            Err(e) => {
                list.import.get_or_insert_with(ImportPanel::default).problem = Some(e);
            }
        }
    }
}

/// An uploaded file, once the browser has read it, is imported like pasted text.
#[cfg(target_arch = "wasm32")]
fn receive_upload(mut list: ResMut<SavesList>, mut imports: MessageWriter<ImportRecord>) {
    match crate::app::web_files::take_upload() {
        Some(Ok(text)) => {
            imports.write(ImportRecord(text));
        }
        Some(Err(e)) => list.import.get_or_insert_with(ImportPanel::default).problem = Some(e),
        None => {}
    }
}

/// The panel: a box to paste a record into, and a file to read (a path natively, an upload in the
/// browser).
fn draw_import(ctx: &egui::Context, panel: &mut ImportPanel, imports: &mut MessageWriter<ImportRecord>) -> bool {
    let mut open = true;
    egui::Window::new("Open a game record")
        .open(&mut open)
        .collapsible(false)
        .default_width(520.0_f32.min(ctx.viewport_rect().width() - 32.0))
        .max_width(ctx.viewport_rect().width() - 32.0)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label("Paste a record: the notation of the game's rules, Stoneyard's text export, or its JSON.");
            let edit = ui.add(
                egui::TextEdit::multiline(&mut panel.text)
                    .code_editor()
                    .desired_rows(10)
                    .desired_width(f32::INFINITY)
                    .hint_text("[Game \"Inchworm\"] …\n1. Da1 Db1 2. Dh8 Da2 *"),
            );
            if panel.text.is_empty() && !edit.has_focus() {
                edit.request_focus();
            }
            ui.horizontal(|ui| {
                if ui.add_enabled(!panel.text.trim().is_empty(), egui::Button::new("Open")).clicked() {
                    imports.write(ImportRecord(panel.text.clone()));
                }
                #[cfg(target_arch = "wasm32")]
                if ui.button("Upload a file…").clicked()
                    && let Err(e) = crate::app::web_files::start_upload()
                {
                    panel.problem = Some(e);
                }
            });
            #[cfg(not(target_arch = "wasm32"))]
            ui.horizontal(|ui| {
                ui.label("Or a file:");
                ui.add(egui::TextEdit::singleline(&mut panel.path).hint_text("/path/to/game.txt").desired_width(300.0));
                if ui.add_enabled(!panel.path.trim().is_empty(), egui::Button::new("Read")).clicked() {
                    let path = std::path::Path::new(panel.path.trim());
                    match crate::save::read_text_file(path, crate::save::MAX_RECORD_BYTES) {
                        Ok(text) => {
                            imports.write(ImportRecord(text));
                        }
                        Err(e) => panel.problem = Some(e),
                    }
                }
            });
            if let Some(p) = &panel.problem {
                ui.colored_label(ui.visuals().warn_fg_color, p);
            }
            ui.label(egui::RichText::new("Esc closes this").weak().size(12.0));
        });
    open
}

fn draw_saves(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    mut list: ResMut<SavesList>,
    mut clicks: MessageWriter<MenuClicked>,
    mut chosen: MessageWriter<SaveChosen>,
    mut imports: MessageWriter<ImportRecord>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(mut panel) = list.import.clone() {
        let open = draw_import(ctx, &mut panel, &mut imports);
        // Written back only on a change, so the list is not marked changed every frame.
        if !open {
            list.import = None;
        } else if list.import.as_ref() != Some(&panel) {
            list.import = Some(panel);
        }
    }
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
                if e.moves > 0 && ui.button("Review").clicked() {
                    chosen.write(SaveChosen(i, SaveAction::Review));
                }
                if ui.button("Delete").clicked() {
                    chosen.write(SaveChosen(i, SaveAction::Delete));
                }
            });
            ui.add_space(4.0);
        }
        let n = list.entries.len();
        item(ui, n, focus.0 == n, "Open a game record…", "Paste one, or read a file", &mut clicks);
        let finished = "Every game that ended here, kept by itself: replay or delete";
        item(ui, n + 1, focus.0 == n + 1, "Finished games", finished, &mut clicks);
        item(ui, n + 2, focus.0 == n + 2, "Back", "", &mut clicks);
        for p in &list.problems {
            ui.colored_label(ui.visuals().warn_fg_color, p);
        }
        key_hints(ui, &[("Enter", "A", "open"), ("Tab", "X", "delete"), ("Esc", "B", "back")]);
    });
    Ok(())
}
