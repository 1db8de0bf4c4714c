//! Draws a player page (name, ratings per game with a graph of each, recent games to watch again,
//! replay or review) and a game's leaderboard, on the online screen.

use super::lobby_state::{LobbyRow, OnlineLobby};
use super::open_games::OpenGames;
use crate::app::settings::CurrentSettings;
use crate::app::theme::text_size;
use crate::app::ui::{MenuClicked, item, key_hints, screen_frame, value_item};
use crate::games::GameKind;
use crate::online::directory::{PlayerPage, RatingPoint, shown_rating};
use bevy::prelude::*;
use bevy_egui::egui;

/// The player's rating at a game in words, or nothing when ratings are hidden.
pub(super) fn rating_words(settings: &CurrentSettings, rating: f64, deviation: f64) -> String {
    if settings.0.hide_ratings { String::new() } else { shown_rating(rating, deviation) }
}

/// A rating shown with "?" (its deviation still high: few rated games).
pub(super) fn provisional(deviation: f64) -> bool {
    deviation >= crate::online::directory::PROVISIONAL_DEVIATION
}

/// The rows' index of a row kind on the screen now.
fn index_of(lobby: &OnlineLobby, row: LobbyRow) -> usize {
    lobby.shown_rows.iter().position(|r| *r == row).unwrap_or(0)
}

pub fn draw_page(
    ctx: &egui::Context,
    name: &str,
    lobby: &OnlineLobby,
    games: &OpenGames,
    settings: &CurrentSettings,
    focus: usize,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    let page = games.page.as_ref().filter(|p| p.name.eq_ignore_ascii_case(name));
    screen_frame(ctx, name, "Player page", |ui| {
        match page {
            None => {
                let note = games.problem.clone().unwrap_or_else(|| "Asking the server…".to_string());
                ui.label(egui::RichText::new(note).weak());
            }
            Some(page) => page_body(ui, page, lobby, settings, focus, clicks),
        }
        let back = index_of(lobby, LobbyRow::Back);
        item(ui, back, focus == back, "Back", "", clicks);
        key_hints(ui, &[("Up/Down", "D-pad", "choose"), ("Enter", "A", "watch the game again"), ("Esc", "B", "back")]);
    });
}

fn page_body(
    ui: &mut egui::Ui,
    page: &PlayerPage,
    lobby: &OnlineLobby,
    settings: &CurrentSettings,
    focus: usize,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    ui.label(egui::RichText::new("Ratings").size(text_size::HEADING).strong());
    if page.ratings.is_empty() {
        ui.label(egui::RichText::new("No rated games yet.").weak());
    }
    for rating in &page.ratings {
        let words = rating_words(settings, rating.rating, rating.deviation);
        let games =
            if rating.games == 1 { "1 rated game".to_string() } else { format!("{} rated games", rating.games) };
        let settled = if words.ends_with('?') { " · provisional (?) until a few more rated games" } else { "" };
        ui.label(
            egui::RichText::new(format!("{} {words} · {games}{settled}", rating.game.name())).size(text_size::BODY),
        );
        let points: Vec<&RatingPoint> = page.history.iter().filter(|p| p.game == rating.game).collect();
        if !settings.0.hide_ratings && points.len() >= 2 {
            rating_graph(ui, &points);
        }
    }
    ui.add_space(8.0);
    ui.label(egui::RichText::new("Recent games").size(text_size::HEADING).strong());
    if page.recent.is_empty() {
        ui.label(egui::RichText::new("No finished games yet.").weak());
    }
    for (i, game) in page.recent.iter().enumerate() {
        let index = index_of(lobby, LobbyRow::Recent(i));
        let opponent = game.opponent.clone().unwrap_or_else(|| "a guest".to_string());
        let outcome = match game.outcome.as_str() {
            "won" => "Won",
            "lost" => "Lost",
            _ => "Drawn",
        };
        let title = format!("{} · {outcome} against {opponent}", game.game.name());
        let change = match game.change {
            Some(change) if !settings.0.hide_ratings => format!(" · {:+}", change.round() as i64),
            _ => String::new(),
        };
        let rated = if game.rated { "Rated" } else { "Casual" };
        let detail = format!("{rated}{change} · {} · select to replay or review", game.reason);
        item(ui, index, focus == index, &title, &detail, clicks);
    }
    ui.add_space(8.0);
}

/// A small line graph of a rating after each rated game.
fn rating_graph(ui: &mut egui::Ui, points: &[&RatingPoint]) {
    let width = ui.available_width().min(420.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 72.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_stroke(rect, 4.0, egui::Stroke::new(1.0, visuals.weak_text_color()), egui::StrokeKind::Inside);
    let low = points.iter().map(|p| p.rating).fold(f64::INFINITY, f64::min) - 10.0;
    let high = points.iter().map(|p| p.rating).fold(f64::NEG_INFINITY, f64::max) + 10.0;
    let inner = rect.shrink(6.0);
    // The line starts right of the scale's labels, so the two never cross.
    let labels_width = 40.0;
    let at = |i: usize, rating: f64| {
        let x = inner.left() + labels_width + (inner.width() - labels_width) * i as f32 / (points.len() - 1) as f32;
        let y = inner.bottom() - inner.height() * ((rating - low) / (high - low)) as f32;
        egui::pos2(x, y)
    };
    let line: Vec<egui::Pos2> = points.iter().enumerate().map(|(i, p)| at(i, p.rating)).collect();
    painter.add(egui::Shape::line(line, egui::Stroke::new(2.0, visuals.selection.stroke.color)));
    for (text, rating, align) in [
        (format!("{}", high.round() as i64 - 10), high - 10.0, egui::Align2::LEFT_TOP),
        (format!("{}", low.round() as i64 + 10), low + 10.0, egui::Align2::LEFT_BOTTOM),
    ] {
        let pos = egui::pos2(inner.left() + 2.0, at(0, rating).y);
        painter.text(pos, align, text, egui::FontId::proportional(12.0), visuals.weak_text_color());
    }
}

pub fn draw_leaders(
    ctx: &egui::Context,
    game: GameKind,
    lobby: &OnlineLobby,
    games: &OpenGames,
    settings: &CurrentSettings,
    focus: usize,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    screen_frame(ctx, "Leaderboard", "The best rated players; provisional ratings (?) come after", |ui| {
        let chooser = index_of(lobby, LobbyRow::LeadersGame);
        value_item(ui, chooser, focus == chooser, ("Game", ""), game.name(), None, clicks);
        match games.leaders.as_ref().filter(|(g, _)| *g == game) {
            None => {
                ui.label(egui::RichText::new("Asking the server…").weak());
            }
            Some((_, leaders)) if leaders.is_empty() => {
                ui.label(egui::RichText::new("Nobody has played this game rated yet.").weak());
            }
            Some((_, leaders)) => {
                for (i, leader) in leaders.iter().enumerate() {
                    let index = index_of(lobby, LobbyRow::Leader(i));
                    let rating = rating_words(settings, leader.rating, leader.deviation);
                    let title = format!("{}. {} {rating}", i + 1, leader.name);
                    let games = if leader.games == 1 {
                        "1 rated game".to_string()
                    } else {
                        format!("{} rated games", leader.games)
                    };
                    let detail = format!("{games} · select for their page");
                    item(ui, index, focus == index, title.trim(), &detail, clicks);
                }
            }
        }
        let back = index_of(lobby, LobbyRow::Back);
        item(ui, back, focus == back, "Back", "", clicks);
        key_hints(
            ui,
            &[
                ("Up/Down", "D-pad up/down", "choose"),
                ("Left/Right", "D-pad left/right", "game"),
                ("Enter", "A", "select"),
                ("Esc", "B", "back"),
            ],
        );
    });
}
