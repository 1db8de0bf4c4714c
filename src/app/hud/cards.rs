//! The panel's player cards (the side's stone, who plays it, its figures, a glow on the side to
//! move, the computer thinking with "Move now") and the status line under them.

use super::{PanelActions, PanelView};
use crate::app::labels::{level_name, space_summary};
use crate::app::match_state::{CurrentMatch, side_label};
use crate::app::playing::{MoveNow, OnlineRequest, OnlineStatus, OpponentPresence, Replay};
use crate::app::theme::{board_palette, egui_rgb, text_size};
use crate::app::ui::{card, with_key};
use crate::online::clock::clock_words;
use crate::online::directory::Phrase;
use crate::rules::{Counter, Side};
use bevy::prelude::*;
use bevy_egui::egui;

/// Who plays `side`: "You", "Friend" (the second person on this device), "Computer · Medium",
/// "Opponent · online". In a replay, who played it (the replay keeps the recorded players).
pub fn who_plays(current: &CurrentMatch, side: Side, online: &OnlineStatus, replay: &Replay) -> String {
    if current.is_remote(side) {
        let name = online.names[current.seat_of(side)].clone();
        if online.watching {
            return name.unwrap_or_else(|| "A guest".to_string());
        }
        let name = name.unwrap_or_else(|| "Opponent".to_string());
        return match online.opponent {
            OpponentPresence::NotJoined => "Opponent · not joined yet".to_string(),
            OpponentPresence::Offline => format!("{name} · offline"),
            OpponentPresence::Online => format!("{name} · online"),
        };
    }
    if current.is_scripted(side) {
        return "Lesson".to_string();
    }
    if current.remote.is_some() || current.scripted.is_some() {
        return "You".to_string();
    }
    let players = if replay.active { replay.players } else { current.players };
    match players[current.seat_of(side)] {
        Some(level) => format!("Computer · {}", level_name(level)),
        None if players.iter().any(Option::is_some) => "You".to_string(),
        None if current.seat_of(side) == 0 => "You".to_string(),
        None => "Friend".to_string(),
    }
}

/// A side's figures: its counters, "pool 31 · lost 0".
fn figures(counters: &[Counter], side: Side) -> String {
    counters
        .iter()
        .filter(|c| c.side == Some(side))
        .map(|c| format!("{} {}", c.label, c.value))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Both sides' counters on one line ("Black stock 24 · score 1 — White stock 22 · score 0"): a
/// phone's lesson card, which takes the player cards' place.
pub(super) fn counters_line(current: &CurrentMatch) -> String {
    let counters = current.position().board_view().counters;
    Side::BOTH
        .into_iter()
        .map(|side| (side, figures(&counters, side)))
        .filter(|(_, figures)| !figures.is_empty())
        .map(|(side, figures)| format!("{} {figures}", side_label(current.position(), side)))
        .collect::<Vec<_>>()
        .join(" — ")
}

/// The two player cards: one above the other beside the board, side by side under it (`compact`).
pub(super) fn player_cards(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    view: &PanelView,
    act: &mut PanelActions,
    compact: bool,
) {
    let counters = current.position().board_view().counters;
    if compact && view.layout.short() {
        ui.columns(2, |columns| {
            for (column, side) in columns.iter_mut().zip(Side::BOTH) {
                one_line_card(column, current, side, view, act);
            }
        });
        // The counters wait under the commands, in the tab (`hud::phone_tab`).
        return;
    }
    let mut draw = |ui: &mut egui::Ui, side: Side| player_card(ui, current, side, (&counters, compact), view, act);
    if compact {
        ui.columns(2, |columns| {
            for (column, side) in columns.iter_mut().zip(Side::BOTH) {
                draw(column, side);
            }
        });
    } else {
        for side in Side::BOTH {
            draw(ui, side);
        }
    }
}

/// Whether `side` is to act now (where both sides choose at once, each side still to choose).
fn is_to_move(current: &CurrentMatch, side: Side) -> bool {
    let at_once = current.position().to_move() == Some(crate::rules::ToMove::Both);
    !current.is_over()
        && if at_once {
            current.acting_side().is_some() && !current.position().legal_decisions(side).is_empty()
        } else {
            current.acting_side() == Some(side)
        }
}

/// The side's stone, as the cards show it.
fn side_stone(ui: &mut egui::Ui, current: &CurrentMatch, side: Side, act: &PanelActions) {
    let pal = board_palette(act.settings.0.theme);
    let (fill, _) = pal.piece(current.position().kind(), Some(side));
    let (rect, _) = ui.allocate_exact_size(egui::vec2(24.0, 24.0), egui::Sense::hover());
    let painter = ui.painter();
    painter.circle_filled(rect.center() + egui::vec2(1.0, 1.5), 10.0, egui::Color32::from_black_alpha(70));
    painter.circle_filled(rect.center(), 10.0, egui_rgb(fill));
    painter.circle_stroke(rect.center(), 10.0, egui::Stroke::new(1.0, egui_rgb(fill).gamma_multiply(0.55)));
}

/// A short phone's card (upright or sideways): the side and who plays it on one line (its
/// counters go to the tab; online its clock follows the side and the player's name goes on a
/// second line), the card's frame marking the side to move (the status says what to do). What
/// does not fit beside the side goes on the next line, wrapped, never shortened. While the
/// computer thinks, "Move now" takes the place of its name, in a line kept as tall as the button
/// all game so nothing moves under a finger.
fn one_line_card(ui: &mut egui::Ui, current: &CurrentMatch, side: Side, view: &PanelView, act: &mut PanelActions) {
    let to_move = is_to_move(current, side);
    let computer_plays = current.player_of(side).is_some() && !current.is_over() && !act.replay.active;
    let thinking = to_move && computer_plays && view.computer.is_thinking();
    let clock = clock_text(ui, current, side, &view.online, text_size::SMALL).filter(|_| view.online.active);
    let who = egui::RichText::new(who_plays(current, side, &view.online, &act.replay)).size(text_size::SMALL).weak();
    card(ui, to_move).inner_margin(egui::Margin::symmetric(6, 4)).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.spacing_mut().item_spacing.x = 5.0;
        let height = if computer_plays { ui.spacing().interact_size.y } else { 24.0 };
        // Online the clock follows the side, and the player's name goes under them.
        let mut below: Vec<egui::RichText> = Vec::new();
        ui.allocate_ui_with_layout(
            egui::vec2(ui.available_width(), height),
            egui::Layout::left_to_right(egui::Align::Center),
            |ui| {
                side_stone(ui, current, side, act);
                ui.label(egui::RichText::new(side_label(current.position(), side)).size(16.0).strong());
                let beside = match &clock {
                    Some((clock, _)) => {
                        below.push(who.clone());
                        clock.clone()
                    }
                    None if thinking => {
                        if ui.button(with_key(ui, "Move now", "E")).clicked() {
                            act.move_now.write(MoveNow);
                        }
                        return;
                    }
                    None => who.clone(),
                };
                if fits(ui, &beside) {
                    ui.label(beside);
                } else {
                    below.insert(0, beside);
                }
            },
        );
        if !below.is_empty() {
            ui.horizontal_wrapped(|ui| {
                for text in below {
                    ui.add(egui::Label::new(text).wrap());
                }
            });
        }
    });
    ui.add_space(2.0);
}

/// Whether `text` fits on one line in the room left in `ui`'s row.
fn fits(ui: &egui::Ui, text: &egui::RichText) -> bool {
    text_width(ui, text) <= ui.available_width()
}

/// The width of `text` on one line.
fn text_width(ui: &egui::Ui, text: &egui::RichText) -> f32 {
    let galley = egui::WidgetText::from(text.clone()).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Body,
    );
    galley.size().x + ui.spacing().item_spacing.x
}

fn player_card(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    side: Side,
    (counters, compact): (&[Counter], bool),
    view: &PanelView,
    act: &mut PanelActions,
) {
    // Where both sides choose at once, each side still to choose is (the computer seals first).
    let at_once = current.position().to_move() == Some(crate::rules::ToMove::Both);
    let to_move = is_to_move(current, side);
    let thinking = to_move && current.player_of(side).is_some() && view.computer.is_thinking();
    let who = egui::RichText::new(who_plays(current, side, &view.online, &act.replay)).size(text_size::SMALL).weak();
    // Tighter than the menus' cards: the move list (beside the board) or the tabs (under it) need
    // the height.
    let margin = if compact { egui::Margin::symmetric(10, 6) } else { egui::Margin::symmetric(12, 6) };
    card(ui, to_move).inner_margin(margin).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal(|ui| {
            side_stone(ui, current, side, act);
            ui.label(egui::RichText::new(side_label(current.position(), side)).size(18.0).strong());
            if to_move {
                let words = if at_once { "to choose" } else { "to move" };
                ui.label(egui::RichText::new(words).size(text_size::SMALL).color(ui.visuals().selection.stroke.color));
            }
            // Beside the board, who plays the side ends the same line: the cards stay short.
            if !compact {
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.label(who.clone());
                });
            }
        });
        let computer_plays = current.player_of(side).is_some() && !current.is_over() && !act.replay.active;
        if compact && computer_plays {
            // Under the board "Move now" takes the place of the computer's name while it thinks,
            // in a row kept as tall as the button all game so nothing moves under a finger.
            let row = egui::vec2(ui.available_width(), ui.spacing().interact_size.y);
            ui.allocate_ui_with_layout(row, egui::Layout::left_to_right(egui::Align::Center), |ui| {
                if !thinking {
                    ui.label(who.clone());
                } else if ui.button(with_key(ui, "Move now", "E")).clicked() {
                    act.move_now.write(MoveNow);
                }
            });
        } else if compact {
            ui.label(who);
        }
        let line = figures(counters, side);
        let timed = view.online.active && view.online.clock.is_some();
        if compact && timed {
            // Under the board a phone has few rows: the clock follows the figures on their line.
            // The clock starts a row of its own where it does not fit after the figures.
            ui.horizontal_wrapped(|ui| {
                if !line.is_empty() {
                    ui.label(egui::RichText::new(line).size(text_size::SMALL));
                }
                if let Some((clock, paused)) = clock_text(ui, current, side, &view.online, 18.0) {
                    if !fits(ui, &clock) {
                        ui.end_row();
                    }
                    ui.label(clock);
                    if paused {
                        ui.label(egui::RichText::new("on vacation").size(text_size::SMALL).weak());
                    }
                }
            });
        } else {
            if !line.is_empty() {
                ui.label(egui::RichText::new(line).size(text_size::SMALL));
            }
            clock_line(ui, current, side, &view.online);
        }
        if computer_plays && !compact {
            // The computer's card keeps the room of its thinking row all game, shown only while it
            // thinks, so nothing below moves under the player's finger.
            if thinking_row(ui, thinking) {
                act.move_now.write(MoveNow);
            }
        }
    });
    ui.add_space(2.0);
}

/// The computer's "Thinking… / Move now" row: drawn invisible while it does not think, so it
/// takes the same room either way. Where "Thinking…" and the button do not fit on one line (a
/// phone's half-width card) the spinner says it alone: a second line kept all game would push
/// the turn's commands out of sight. Returns whether "Move now" was pressed.
fn thinking_row(ui: &mut egui::Ui, thinking: bool) -> bool {
    ui.scope(|ui| {
        if !thinking {
            ui.set_invisible();
        }
        ui.horizontal(|ui| {
            crate::app::page_spinner::spinner(ui, 18.0);
            let words = egui::RichText::new("Thinking…").size(text_size::SMALL);
            let button = with_key(ui, "Move now", "E");
            let button_width = egui::WidgetText::from(button.clone())
                .into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, egui::TextStyle::Button)
                .size()
                .x
                + 2.0 * ui.spacing().button_padding.x
                + ui.spacing().item_spacing.x;
            if fits(ui, &words) && ui.available_width() - text_width(ui, &words) >= button_width {
                ui.label(words);
            }
            ui.button(button).clicked()
        })
        .inner
    })
    .inner
}

/// The status line: what to do now (or the result), the online game's state, the last refusal;
/// in an online game the phrases to say and a claim to make (the one pressed is returned).
pub(super) fn status(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView) -> Option<OnlineRequest> {
    let game = current.position();
    let text = if current.is_over() {
        // The card over the board says who won and why; the status only says where things stand.
        format!("Game over · {}", super::game_over::result_text(current))
    } else {
        match current.acting_side() {
            Some(side) if current.player_of(side).is_some() => {
                format!("{} (the computer) is to move", side_label(game, side))
            }
            Some(side) if current.is_scripted(side) => match view.lesson.as_deref().map(|run| &run.standing) {
                Some(crate::lessons::Standing::Solved) => "Lesson solved".to_string(),
                Some(crate::lessons::Standing::OnTheWay) | None => {
                    format!("{} (the lesson) replies", side_label(game, side))
                }
                Some(_) => "The lesson waits: take your move back, or Retry".to_string(),
            },
            Some(side) if current.watching => format!("{} to move", side_label(game, side)),
            Some(side) if current.is_remote(side) => match view.online.opponent {
                OpponentPresence::NotJoined => "Waiting for your opponent to join".to_string(),
                _ => format!("Waiting for {} (your opponent)", side_label(game, side)),
            },
            Some(side) => {
                let to_do = game.to_do().unwrap_or_default();
                format!("{}: {to_do}", side_label(game, side))
            }
            None => current.turn_text(),
        }
    };
    ui.add_space(2.0);
    ui.label(egui::RichText::new(text).size(17.0).strong());
    // Under the board a phone's online lines go in the tab's scrolling room (`online_status`):
    // they can be many (reconnecting, a claim, phrases) and the footer is right below.
    let said = if view.layout.phone { None } else { online_lines(ui, current, &view.online, false) };
    if let Some(m) = &current.message {
        ui.colored_label(ui.visuals().warn_fg_color, egui::RichText::new(m).size(15.0));
    }
    said
}

/// What the red "!" on a piece means, under the board's readout while one shows.
pub(super) const DANGER_LEGEND: &str = "Red ! on a piece: the opponent could remove it on its next turn";
/// The red of the board's danger flags, for their legend.
const DANGER_RED: egui::Color32 = egui::Color32::from_rgb(0xd9, 0x1a, 0x1a);

/// The online lines of a phone's panel, at the top of its tab's scrolling room.
pub(super) fn online_status(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView) -> Option<OnlineRequest> {
    online_lines(ui, current, &view.online, true)
}

/// Under the status: the game's shared figures, the space under the cursor (and the switch that
/// shows its number on every space), the keys of a triangular board, and the event log.
pub(super) fn details(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    let game = current.position();
    // As the board shows it: with the danger flags on the pieces the opponent could remove next.
    let board = crate::app::playing::shown_view(current, &crate::app::playing::TurnWarning::default());
    number_map(ui, &board, act);
    let shared: Vec<String> =
        board.counters.iter().filter(|c| c.side.is_none()).map(|c| format!("{}: {}", c.label, c.value)).collect();
    if !shared.is_empty() {
        label_if_room(ui, egui::RichText::new(shared.join(" · ")).size(text_size::SMALL).weak());
    }
    // The flags show with the hints on (a warning's own card explains its flags).
    if act.settings.0.show_hints && board.cells.iter().any(|c| c.marks.hint == Some(crate::rules::HintMark::Threatened))
    {
        label_if_room(ui, egui::RichText::new(DANGER_LEGEND).size(text_size::SMALL).color(DANGER_RED));
    }
    if let (Some(cell), Some(mover)) = (board.cells.get(view.cursor.index), current.acting_side()) {
        let summary = space_summary(cell, mover, |s| side_label(game, s));
        label_if_room(ui, egui::RichText::new(summary).size(text_size::SMALL).weak());
    }
    if matches!(board.layout, crate::rules::Layout::Lattice { .. }) && !crate::app::ui::by_touch(ui) {
        label_if_room(
            ui,
            egui::RichText::new(
                "Keys: Left/Right along the row · Up/Down along the numbered line (up-left, down-right)",
            )
            .size(text_size::SMALL)
            .weak(),
        );
    }
    event_log(ui, current, view);
}

/// `text` as a label when the room left holds it whole; whether it was drawn. What the panel
/// only repeats or explains (the space under the cursor, the keys, older events) gives way when
/// the panel is full, rather than being cut or pushing the commands out of sight.
pub(super) fn label_if_room(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) -> bool {
    let wrap = Some(egui::TextWrapMode::Wrap);
    let galley = text.into().into_galley(ui, wrap, ui.available_width(), egui::TextStyle::Body);
    if galley.size().y > ui.available_height() {
        return false;
    }
    ui.label(galley);
    true
}

/// A game whose spaces carry a number (Throngs' power, Hidden Intention's influence): one switch
/// that shows it on every space, not only under the cursor (the same as Settings' "Show every
/// number").
fn number_map(ui: &mut egui::Ui, board: &crate::rules::BoardView, act: &mut PanelActions) {
    use crate::rules::CellValue;
    let Some(value) = board.cells.iter().find_map(|c| c.marks.value) else { return };
    let what = match value {
        CellValue::Power(_) => "power",
        CellValue::Influence(_) => "influence",
    };
    let shown = act.settings.0.show_numbers;
    let text = if shown { format!("Hide the {what} map") } else { format!("Show the {what} map") };
    let tip = format!("The {what} of every space on the board, not only under the cursor.");
    // A switch the player can do without (Settings has it too) when the panel is full.
    let height = ui.text_style_height(&egui::TextStyle::Button) + 2.0 * ui.spacing().button_padding.y;
    if height > ui.available_height() {
        return;
    }
    if crate::app::ui::button(ui, &text).on_hover_text(tip).clicked() {
        act.settings.0.show_numbers = !shown;
    }
}

/// An online game's state under the status: the connection, the person's moves on their way, the
/// invite code while the opponent has not come, who watches, the last phrase said, the rating
/// change after a rated game, and the phrases to say.
fn online_lines(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    online: &OnlineStatus,
    phone: bool,
) -> Option<OnlineRequest> {
    if !online.active {
        return None;
    }
    let claim = claim_line(ui, current, online);
    let warn = ui.visuals().warn_fg_color;
    if late_to_move(current, online) {
        let words = "Your time for this move is up: your opponent may claim the game. Move now to play on.";
        ui.colored_label(warn, egui::RichText::new(words).size(text_size::BODY));
    }
    if !online.connected {
        ui.colored_label(warn, egui::RichText::new("Reconnecting…").size(text_size::BODY).strong());
    }
    match online.pending {
        0 => {}
        1 => {
            ui.label(egui::RichText::new("Your move is on its way to the server (pending)").size(text_size::SMALL));
        }
        n => {
            ui.label(
                egui::RichText::new(format!("{n} of your moves are on their way (pending)")).size(text_size::SMALL),
            );
        }
    }
    if let Some(code) = &online.invite {
        ui.label(egui::RichText::new(format!("Invite code: {code}")).size(text_size::BODY).monospace().strong());
    }
    if online.resign_sent {
        ui.label(egui::RichText::new("Resigning…").size(text_size::SMALL));
    }
    let mut about = Vec::new();
    if online.watching {
        about.push("You are watching".to_string());
    }
    about.push(if online.rated { "Rated" } else { "Casual" }.to_string());
    match online.watchers {
        0 => {}
        1 => about.push("1 watching".to_string()),
        n => about.push(format!("{n} watching")),
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(about.join(" · ")).size(text_size::SMALL).weak());
        if let Some(link) = &online.watch_link
            && ui.small_button("Copy watch link").on_hover_text(link.as_str()).clicked()
        {
            ui.ctx().copy_text(link.clone());
        }
    });
    if let Some((seat, phrase)) = online.said.last() {
        let who = online.names[seat.index()]
            .clone()
            .unwrap_or_else(|| side_label(current.position(), current.session.side_of(*seat)).to_string());
        ui.label(egui::RichText::new(format!("{who}: “{}”", phrase.words())).size(text_size::BODY).italics());
    }
    // A phone has little room under the board: its game-over card says the rating changes, and
    // the phrases are one "Say…" menu.
    if !online.hide_ratings && !phone {
        for change in &online.rating_changes {
            let words = format!("{}: {}", change.name, change.words());
            ui.label(egui::RichText::new(words).size(text_size::BODY).strong());
        }
    }
    if online.watching {
        return None;
    }
    let mut pressed = claim;
    let mut say = |ui: &mut egui::Ui| {
        for phrase in Phrase::ALL {
            if ui.small_button(phrase.words()).on_hover_text("Say it to your opponent").clicked() {
                pressed = Some(OnlineRequest::Say(phrase));
            }
        }
    };
    if phone {
        ui.menu_button(egui::RichText::new("Say…").size(text_size::BODY), |ui| say(ui));
    } else {
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 4.0;
            say(ui);
        });
    }
    pressed
}

/// A timed game's clock on a side's card: the time left, counting down while it runs; tenths
/// under ten seconds, in the warning colour; "on vacation" while its player is away.
fn clock_line(ui: &mut egui::Ui, current: &CurrentMatch, side: Side, online: &OnlineStatus) {
    let Some((text, paused)) = clock_text(ui, current, side, online, 18.0) else { return };
    ui.horizontal(|ui| {
        ui.label(text);
        if paused {
            ui.label(egui::RichText::new("on vacation").size(text_size::SMALL).weak());
        }
    });
}

/// A side's time left in an online game at `size` (strong while it runs, in the warning colour
/// when nearly out), and whether its player is on vacation; `None` without a clock.
fn clock_text(
    ui: &egui::Ui,
    current: &CurrentMatch,
    side: Side,
    online: &OnlineStatus,
    size: f32,
) -> Option<(egui::RichText, bool)> {
    let seat = current.seat_of(side);
    let (Some(clock), Some(left)) = (online.clock.as_ref(), online.clock_left(seat)) else { return None };
    let live = matches!(clock.control, crate::online::directory::TimeControl::Live { .. });
    let mut text = egui::RichText::new(clock_words(left)).size(size).monospace();
    if clock.running[seat] && !current.is_over() {
        text = text.strong();
        if live && left < 10_000 || left == 0 {
            text = text.color(ui.visuals().warn_fg_color);
        }
    } else {
        text = text.weak();
    }
    Some((text, clock.paused[seat]))
}

/// The person's correspondence time for this move is up (the opponent may claim; a move made
/// first still stands).
fn late_to_move(current: &CurrentMatch, online: &OnlineStatus) -> bool {
    let Some(clock) = online.clock.as_ref() else { return false };
    let correspondence = matches!(clock.control, crate::online::directory::TimeControl::Correspondence { .. });
    let Some(side) = current.acting_side() else { return false };
    let seat = current.seat_of(side);
    correspondence
        && !online.watching
        && !current.is_over()
        && current.person_plays(side)
        && clock.running[seat]
        && online.clock_left(seat) == Some(0)
}

/// What a timed game lets the person claim: nothing, a wait while the live opponent may come
/// back, or the win (the opponent's time is up, or they have gone).
fn claim_line(ui: &mut egui::Ui, current: &CurrentMatch, online: &OnlineStatus) -> Option<OnlineRequest> {
    if online.watching || current.is_over() {
        return None;
    }
    let opponent = current.remote?.index();
    let wait = online.claim_in(opponent)?;
    let live =
        online.clock.as_ref().is_some_and(|c| matches!(c.control, crate::online::directory::TimeControl::Live { .. }));
    let warn = ui.visuals().warn_fg_color;
    if wait > 0 {
        let words = format!("Your opponent left: you may claim the game in {} s", (wait + 999) / 1000);
        ui.colored_label(warn, egui::RichText::new(words).size(text_size::BODY));
        return None;
    }
    let words = if live {
        "Your opponent left the game and has not come back."
    } else {
        "Your opponent's time for this move is up: claim the win, or keep waiting."
    };
    ui.colored_label(warn, egui::RichText::new(words).size(text_size::BODY));
    crate::app::ui::button(ui, "Claim the win").clicked().then_some(OnlineRequest::Claim)
}

/// The event log under the status, newest first: the last decision's lines in full colour, a few
/// older ones weaker (the phone panel has room for fewer), and none from before the last two
/// turns (a Gravel removal stayed in sight a turn after the one that answered it).
fn event_log(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView) {
    let Some(&(last, _)) = view.events.lines.last() else { return };
    let room = if view.layout.phone { 2 } else { 5 };
    let first = first_of_the_last_two_turns((0..current.len()).map(|i| current.maker(i)));
    ui.add_space(2.0);
    // Decisions newest first; one decision's lines in the order they happened (reveal, round 1, 2).
    // Lines are numbered from 1, decisions from 0.
    let mut recent: Vec<&(usize, String)> =
        view.events.lines.iter().rev().take_while(|(n, _)| *n > first).take(room).collect();
    recent.reverse();
    recent.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    for (n, line) in recent {
        let text = egui::RichText::new(format!("• {line}")).size(text_size::SMALL);
        if !label_if_room(ui, if *n == last { text } else { text.weak() }) {
            break;
        }
    }
}

/// The first decision (from 0) of the last two turns, by who made each decision in order: the
/// last maker's run of decisions and the run before it (a simultaneous game's decisions, made by
/// nobody alone, count as one turn each run).
fn first_of_the_last_two_turns(makers: impl DoubleEndedIterator<Item = Option<Side>> + ExactSizeIterator) -> usize {
    let mut first = makers.len();
    let mut turns: Vec<Option<Side>> = Vec::new();
    for maker in makers.rev() {
        if turns.last() != Some(&maker) {
            if turns.len() == 2 {
                break;
            }
            turns.push(maker);
        }
        first -= 1;
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_the_last_two_turns() {
        use Side::{First as A, Second as B};
        let first = |makers: &[Option<Side>]| first_of_the_last_two_turns(makers.iter().copied());
        // Gravel: A's turn of three decisions, B's of two, A's of one.
        assert_eq!(first(&[Some(A), Some(A), Some(A), Some(B), Some(B), Some(A)]), 3);
        assert_eq!(first(&[Some(A), Some(A), Some(A), Some(B), Some(B)]), 0);
        assert_eq!(first(&[Some(A)]), 0);
        assert_eq!(first(&[]), 0);
        // Two decisions by nobody alone (Hidden Intention's attempts) and one after.
        assert_eq!(first(&[None, None, Some(B), None]), 2);
    }

    /// The height of the thinking row, thinking or not, in a card `width` wide.
    fn row_height(thinking: bool, width: f32) -> f32 {
        let mut height = 0.0;
        super::super::lay_out(egui::vec2(width, 400.0), |ui| {
            let top = ui.cursor().min.y;
            thinking_row(ui, thinking);
            height = ui.cursor().min.y - top;
        });
        height
    }

    #[test]
    fn the_computer_card_is_as_tall_while_it_thinks_as_before() {
        // Beside the board, and in a phone's half-width card where the row wraps.
        for width in [330.0, 150.0] {
            let (idle, thinking) = (row_height(false, width), row_height(true, width));
            assert!(idle > 10.0, "the row keeps its room while idle ({idle})");
            assert_eq!(idle, thinking, "width {width}");
        }
    }
}
