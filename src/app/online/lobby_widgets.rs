//! The "Play online" screen's larger widgets: the connection line with the server's address, the
//! invite card with its code and link, and the join-with-a-code row (drawn by `lobby_view`).

use super::FollowGame;
use super::lobby_state::{Invite, OnlineLobby, connection_text, invite_link};
use super::socket::Connection;
use crate::app::Launch;
use crate::app::settings::CurrentSettings;
use crate::app::theme::text_size;
use crate::app::ui::{MenuClicked, button, card, card_row, follow_focus};
use bevy::prelude::*;
use bevy_egui::egui;

/// The connection line, and natively the server's address to change.
pub(super) fn server_row(
    ui: &mut egui::Ui,
    lobby: &mut OnlineLobby,
    connection: &Connection,
    settings: &mut CurrentSettings,
    launch: Option<&mut Launch>,
) {
    let colour = if connection.is_open() { ui.visuals().text_color() } else { ui.visuals().warn_fg_color };
    let mut text = lobby.server_text.clone().unwrap_or_else(|| connection.url.clone());
    let mut apply = false;
    card_row(ui, false, |ui| {
        ui.colored_label(colour, egui::RichText::new(connection_text(connection)).size(text_size::SMALL));
        // The browser's page always talks to the server it came from.
        if cfg!(not(target_arch = "wasm32")) {
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new("Server").size(text_size::BODY));
                let edit = ui.add(egui::TextEdit::singleline(&mut text).desired_width(260.0));
                apply = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                apply |= button(ui, "Use").clicked();
            });
        }
    });
    if apply {
        match super::address::complete_server(&text) {
            Ok(url) => {
                settings.0.online_server = url;
                // The player's choice now holds over `--server`, which only chose the first one.
                if let Some(launch) = launch {
                    launch.server = None;
                }
                lobby.server_text = None;
                lobby.summaries.clear();
                lobby.message = None;
            }
            Err(e) => lobby.message = Some(e),
        }
    } else if text != connection.url || lobby.server_text.is_some() {
        lobby.server_text = Some(text);
    }
    ui.add_space(8.0);
}

/// The invite: the code big, copy buttons for it and for the link, and the way to the board.
pub(super) fn invite_card(
    ui: &mut egui::Ui,
    invite: &Invite,
    connection: &Connection,
    follow: &mut MessageWriter<FollowGame>,
) -> egui::Response {
    let link = invite_link(connection, &invite.code);
    let shown = card(ui, true).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.vertical_centered(|ui| {
            ui.label(egui::RichText::new("Your game is ready. Invite code:").size(text_size::BODY));
            ui.label(egui::RichText::new(&invite.code).size(48.0).monospace().strong());
            ui.horizontal_wrapped(|ui| {
                if button(ui, "Copy code").clicked() {
                    ui.ctx().copy_text(invite.code.clone());
                }
                if button(ui, "Copy link").clicked() {
                    ui.ctx().copy_text(link.clone());
                }
                if button(ui, "Go to the board").clicked() {
                    follow.write(FollowGame {
                        game_id: invite.game_id.clone(),
                        token: Some(invite.token.clone()),
                        open_board: true,
                    });
                }
            });
            ui.label(egui::RichText::new(&link).size(text_size::SMALL).monospace());
            ui.label(egui::RichText::new("The board opens when your friend joins.").size(text_size::SMALL).weak());
        });
    });
    ui.add_space(8.0);
    shown.response
}

/// The code field and its Join button.
pub(super) fn join_row(
    ui: &mut egui::Ui,
    lobby: &mut OnlineLobby,
    index: usize,
    focused: bool,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    let shown = card_row(ui, focused, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new("Code").size(18.0).strong());
            let edit = ui.add(
                egui::TextEdit::singleline(&mut lobby.join_code)
                    .desired_width(160.0)
                    .font(egui::TextStyle::Monospace)
                    .hint_text("AB12CD"),
            );
            let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let label = if lobby.joining { "Joining…" } else { "Join" };
            if button(ui, label).clicked() || entered {
                clicks.write(MenuClicked { index, delta: 0 });
            }
        });
        ui.label(egui::RichText::new("The code your friend's game shows.").size(text_size::SMALL).weak());
    });
    follow_focus(&shown.response, index, focused);
    ui.add_space(4.0);
}
