//! The "Record" window on the board: the game in its spec's record notation, to copy, or to save
//! as a file (a download in the browser), as text or as the full JSON record.

use super::Panels;
use crate::app::match_state::CurrentMatch;
use crate::app::screen::Screen;
use crate::app::settings::SaveStore;
use crate::save::GameRecord;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The window's texts, rebuilt only when the game changed, and what the last button did.
#[derive(Resource, Debug, Default)]
struct RecordWindow {
    /// The match version (`Match::version`) the texts were made from.
    made_from: Option<(u64, u64)>,
    text: String,
    json: String,
    message: Option<String>,
}

/// Which form of the record a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ExportForm {
    /// The spec's record notation (`.txt`).
    Text,
    /// Everything, players and seed included (`.json`).
    Json,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<RecordWindow>();
    app.add_systems(OnExit(Screen::Playing), |mut w: ResMut<RecordWindow>| *w = RecordWindow::default());
    app.add_systems(EguiPrimaryContextPass, draw_record_window.run_if(in_state(Screen::Playing)));
}

/// A file name for an export: the game and when it started (`red-stone-1763820000.txt`).
fn export_file_name(record: &GameRecord, form: ExportForm) -> String {
    let ext = match form {
        ExportForm::Text => "txt",
        ExportForm::Json => "json",
    };
    format!("{}-{}.{ext}", record.game.slug(), record.started_unix)
}

/// Writes the export: a file under `exports/` in the data folder natively, a download on the web.
/// Says where it went.
fn save_export(store: &mut SaveStore, file_name: &str, contents: &str) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = store;
        crate::app::web_files::download(file_name, contents)?;
        Ok(format!("Downloaded {file_name}."))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let name = format!("exports/{file_name}");
        store.0.write(&name, contents).map_err(|e| e.to_string())?;
        Ok(format!("Saved to {}", store.0.location_of(&name)))
    }
}

fn refresh(window: &mut RecordWindow, current: &CurrentMatch) {
    if window.made_from == Some(current.session.version()) {
        return;
    }
    let record = current.record();
    window.text = record.to_shown_text();
    window.json = record.to_json();
    window.made_from = Some(current.session.version());
}

fn draw_record_window(
    mut contexts: EguiContexts,
    current: Option<Res<CurrentMatch>>,
    mut window: ResMut<RecordWindow>,
    mut panels: ResMut<Panels>,
    mut store: ResMut<SaveStore>,
) -> Result {
    let Some(current) = current else { return Ok(()) };
    if !panels.record_open {
        return Ok(());
    }
    refresh(&mut window, &current);
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let record = current.record();
    egui::Window::new("Game record")
        .open(&mut open)
        .collapsible(false)
        .default_width(480.0_f32.min(ctx.viewport_rect().width() - 32.0))
        .max_width(ctx.viewport_rect().width() - 32.0)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label("In the notation of the game's rules: paste it anywhere, or open it again from “Saved games”.");
            egui::ScrollArea::vertical().max_height(300.0).show(ui, |ui| {
                let mut text = window.text.as_str();
                ui.add(egui::TextEdit::multiline(&mut text).code_editor().desired_width(f32::INFINITY));
            });
            ui.horizontal(|ui| {
                if ui.button("Copy").clicked() {
                    ui.ctx().copy_text(window.text.clone());
                    window.message = Some("Copied.".to_string());
                }
                for (label, form) in [("Save as text", ExportForm::Text), ("Save as JSON", ExportForm::Json)] {
                    if ui.button(label).clicked() {
                        let contents = if form == ExportForm::Text { window.text.clone() } else { window.json.clone() };
                        let name = export_file_name(&record, form);
                        window.message = Some(save_export(&mut store, &name, &contents).unwrap_or_else(|e| e));
                    }
                }
            });
            if let Some(m) = &window.message {
                ui.label(egui::RichText::new(m).size(13.0));
            }
        });
    if !open {
        panels.record_open = false;
    }
    Ok(())
}
