//! The game in progress: the `CurrentMatch` resource (the authoritative position and its history)
//! and, until the board view lands, a move-list screen that plays any game hot-seat by choosing or
//! typing moves in the spec's notation.

use super::AppSystems;
use super::input::{Action, ActionPressed};
use super::menus::widgets::key_hints;
use super::menus::{MenuClicked, MenuFocus, MenuInput, menu_inputs_from, reset_focus};
use super::screen::Screen;
use crate::games::{DynGame, status_json};
use crate::rules::{LegalTokens, Side, ToMove};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The game being played: the position, the tokens played, and the positions to undo to.
#[derive(Resource)]
pub struct CurrentMatch {
    pub game: Box<dyn DynGame>,
    pub tokens: Vec<String>,
    undo: Vec<(Box<dyn DynGame>, String)>,
    redo: Vec<(Box<dyn DynGame>, String)>,
    /// At a simultaneous node: the first side's sealed choice, hidden from the screen.
    sealed: Option<String>,
    /// The last error, shown until the next move.
    pub message: Option<String>,
    /// Text typed into the move box.
    pub typed: String,
}

impl CurrentMatch {
    pub fn new(game: Box<dyn DynGame>) -> Self {
        CurrentMatch {
            game,
            tokens: Vec::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            sealed: None,
            message: None,
            typed: String::new(),
        }
    }

    /// Plays one record token; on error nothing changes and `message` says why.
    pub fn play(&mut self, token: &str) -> bool {
        let before = self.game.clone_box();
        match self.game.play_token(token) {
            Ok(_) => {
                self.undo.push((before, token.to_string()));
                self.redo.clear();
                self.tokens.push(token.to_string());
                self.message = None;
                true
            }
            Err(e) => {
                self.message = Some(e.to_string());
                false
            }
        }
    }

    pub fn undo(&mut self) {
        if let Some((prev, token)) = self.undo.pop() {
            let now = std::mem::replace(&mut self.game, prev);
            self.redo.push((now, token));
            self.tokens.pop();
            self.sealed = None;
        }
    }

    pub fn redo(&mut self) {
        if let Some((next, token)) = self.redo.pop() {
            let now = std::mem::replace(&mut self.game, next);
            self.undo.push((now, token.clone()));
            self.tokens.push(token);
        }
    }

    /// The choices offered now: the legal record tokens, or at a simultaneous node the choices of
    /// the side that has not sealed yet (first side first).
    pub fn choices(&self) -> Vec<String> {
        match self.game.legal_tokens() {
            LegalTokens::List(v) => v,
            LegalTokens::CountOnly(_) => Vec::new(),
            LegalTokens::PerSide(a, b) => {
                if self.sealed.is_none() {
                    a
                } else {
                    b
                }
            }
        }
    }

    /// Chooses one offered token (seals it at a simultaneous node, plays it otherwise).
    pub fn choose(&mut self, token: &str) {
        if self.game.to_move() == Some(ToMove::Both) {
            match self.sealed.take() {
                None => self.sealed = Some(token.to_string()),
                Some(first) => {
                    if !self.play(&format!("{first}|{token}")) {
                        self.sealed = Some(first);
                    }
                }
            }
        } else {
            self.play(token);
        }
    }

    /// Whose decision it is, in words.
    pub fn turn_text(&self) -> String {
        let g = &self.game;
        match g.to_move() {
            None => format!("Game over: {}", status_json(g.as_ref())),
            Some(ToMove::One(s)) => format!("{} to move", g.side_name(s)),
            Some(ToMove::Both) => {
                let side = if self.sealed.is_none() { Side::First } else { Side::Second };
                format!("{} chooses in secret (the other player looks away)", g.side_name(side))
            }
        }
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Playing), reset_focus);
    app.add_systems(Update, playing_input.in_set(AppSystems::Update).run_if(in_state(Screen::Playing)));
    app.add_systems(EguiPrimaryContextPass, draw_playing.run_if(in_state(Screen::Playing)));
}

fn playing_input(
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    current: Option<ResMut<CurrentMatch>>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(mut current) = current else {
        next.set(Screen::Title);
        return;
    };
    let actions: Vec<Action> = actions.read().map(|a| a.0).collect();
    let clicks: Vec<MenuClicked> = clicks.read().copied().collect();
    for a in &actions {
        match a {
            Action::Undo => current.undo(),
            Action::Redo => current.redo(),
            _ => {}
        }
    }
    let choices = current.choices();
    let len = choices.len().max(1);
    for input in menu_inputs_from(&mut focus, len, &actions, &clicks) {
        match input {
            MenuInput::Back => next.set(Screen::Title),
            MenuInput::Activate(i) if i < choices.len() => current.choose(&choices[i]),
            MenuInput::Adjust(_, d) => focus.0 = (focus.0 as i32 + d).rem_euclid(len as i32) as usize,
            MenuInput::Activate(_) => {}
        }
    }
}

fn draw_playing(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    current: Option<ResMut<CurrentMatch>>,
    mut clicks: MessageWriter<MenuClicked>,
) -> Result {
    let Some(mut current) = current else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let kind = current.game.kind();
    egui::SidePanel::right("moves").min_width(220.0).show(ctx, |ui| {
        ui.heading("Moves");
        egui::ScrollArea::vertical().show(ui, |ui| {
            for (i, t) in current.tokens.iter().enumerate() {
                ui.monospace(format!("{:>3}. {t}", i + 1));
            }
        });
    });
    egui::CentralPanel::default().show(ctx, |ui| {
        ui.heading(kind.name());
        ui.label(egui::RichText::new(current.turn_text()).size(20.0).strong());
        ui.add_space(8.0);
        ui.label("Position (the rules' text notation):");
        ui.monospace(current.game.position_text());
        if let Some(m) = &current.message {
            ui.colored_label(ui.visuals().warn_fg_color, m);
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            ui.label("Type a move:");
            let edit = ui.text_edit_singleline(&mut current.typed);
            if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                let token = current.typed.trim().to_string();
                if !token.is_empty() && current.play(&token) {
                    current.typed.clear();
                }
            }
        });
        ui.add_space(8.0);
        let choices = current.choices();
        ui.label(format!("Legal moves ({}):", choices.len()));
        egui::ScrollArea::vertical().max_height(ui.available_height() - 40.0).show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for (i, c) in choices.iter().enumerate() {
                    let b = egui::Button::new(egui::RichText::new(c.as_str()).monospace()).selected(focus.0 == i);
                    if ui.add(b).clicked() {
                        clicks.write(MenuClicked { index: i, delta: 0 });
                    }
                }
            });
        });
        key_hints(ui, "←→↑↓: choose a move    Enter / Ⓐ: play    Z: undo    Y: redo    Esc / Ⓑ: title screen");
    });
    Ok(())
}
