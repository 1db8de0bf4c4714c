//! The panel's middle: the hint in words, the choice list of the board, decisions that name no
//! space (the pie rule as a plain two-way choice), watching two computers, the end of the game,
//! the resign question and the save row. The commands themselves are the footer's.

use super::{PanelActions, PanelView};
use crate::app::labels::decision_label;
use crate::app::match_state::{CurrentMatch, side_label};
use crate::app::playing::{Choice, DecisionChosen, PACES, Spectating, offers_now, single_spaceless, spaceless};
use crate::app::theme::text_size;
use crate::app::ui::{MenuClicked, button, card, with_key};
use crate::games::GameKind;
use bevy::prelude::*;
use bevy_egui::egui;

/// Everything the panel offers now besides its footer, in the order a player looks for it.
pub(super) fn all(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    super::footer::resign_question(ui, current, act);
    save_row(ui, current, act);
    pace(ui, current, &mut act.spectating);
    let person_acts = current.acting_side().is_some_and(|s| current.person_plays(s));
    // No computer's help in a game against another person online.
    if person_acts && !current.is_over() && current.remote.is_none() {
        hint_row(ui, current, view);
    }
    choice_list(ui, current, view, &mut act.clicks);
    if person_acts {
        spaceless_choices(ui, current, view, &mut act.decide);
    }
    // A game against the computer may be analysed aside (never an online game under way): after
    // the turn's own commands, which a phone must show first.
    let against_computer = current.players.iter().any(Option::is_some) && current.remote.is_none();
    if against_computer && !current.exercise && !current.is_over() && ui.button("Analyse this position").clicked() {
        act.review.write(crate::app::review_state::ReviewCommand::Analyse);
    }
    // The analysis board's end is a variation's, not the game's: nothing to play again.
    if current.is_over() && !view.analysis.active {
        game_over(ui, current, view, act);
    }
}

/// Computer against computer: how fast, and pause.
fn pace(ui: &mut egui::Ui, current: &CurrentMatch, spectating: &mut ResMut<Spectating>) {
    if !current.players.iter().all(Option::is_some) || current.is_over() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Pace:");
        for (name, pace) in PACES {
            if ui.selectable_label(spectating.pace == pace, name).clicked() {
                spectating.pace = pace;
            }
        }
        let pause = if spectating.paused { "Resume" } else { "Pause" };
        if button(ui, pause).clicked() {
            spectating.paused = !spectating.paused;
        }
    });
}

/// The hint the footer's Hint asked for: the turn the computer would play for the person to act.
fn hint_row(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView) {
    let kind = current.position().kind();
    if !view.hint.searching && view.hint.current(current).is_none() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        let mover = current.acting_side().map(|s| side_label(current.position(), s)).unwrap_or_default();
        if view.hint.searching {
            crate::app::page_spinner::spinner(ui, ui.spacing().interact_size.y);
            ui.label("Looking for a good move…");
        } else if view.hint.current(current).is_some() {
            ui.label(egui::RichText::new(format!("Hint: {}", hint_words(kind, &view.hint.turn, &mover))).strong());
        }
    });
    if view.hint.current(current).is_some()
        && let Some(reason) = &view.hint.reason
    {
        ui.label(egui::RichText::new(format!("Why: {reason}")).size(text_size::SMALL));
    }
}

/// A hinted turn in words: its decisions in order ("Place a piece on d4, then End turn"), the
/// game's words for each where it has them.
pub fn hint_words(kind: GameKind, turn: &[String], mover: &str) -> String {
    let words: Vec<String> = turn.iter().map(|d| kind.decision_words(d, mover).unwrap_or_else(|| d.clone())).collect();
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{}, then {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The open choice list of the board, in the panel when it is about no space (Tab's list).
fn choice_list(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, clicks: &mut MessageWriter<MenuClicked>) {
    if view.builder.choices.is_empty() || view.anchor.at.is_some() {
        return;
    }
    choice_buttons(ui, current, view, clicks);
    ui.add_space(6.0);
}

/// The open choice list of a space, in a small menu beside that space on the board.
pub(super) fn choice_popup(
    ctx: &egui::Context,
    current: &CurrentMatch,
    view: &PanelView,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    let (Some(at), false) = (view.anchor.at, view.builder.choices.is_empty()) else { return };
    let screen = ctx.viewport_rect();
    let width = 260.0_f32.min(screen.width() - 16.0);
    // Right of the space, or left of it near the window's right edge; kept on the window.
    let x = if at.x + view.anchor.half + 8.0 + width < screen.max.x {
        at.x + view.anchor.half + 8.0
    } else {
        (at.x - view.anchor.half - 8.0 - width).max(8.0)
    };
    let y = (at.y - view.anchor.half).clamp(8.0, (screen.max.y - 200.0).max(8.0));
    egui::Area::new(egui::Id::new("choices beside the space"))
        .order(egui::Order::Foreground)
        .fixed_pos(egui::pos2(x, y))
        .show(ctx, |ui| {
            card(ui, true).show(ui, |ui| {
                ui.set_width(width - 24.0);
                choice_buttons(ui, current, view, clicks);
            });
        });
}

/// The choices as buttons (keys and gamepad move the focus among them), then Cancel.
fn choice_buttons(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    view: &PanelView,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    let kind = current.position().kind();
    ui.label(egui::RichText::new("Choose:").strong());
    let mover = current.acting_side().map(|s| side_label(current.position(), s)).unwrap_or_default();
    for (i, choice) in view.builder.choices.iter().enumerate() {
        let text = match choice {
            Choice::Decision(d) => decision_label(kind, d, &mover),
            Choice::StartFrom(c) => format!("Start at {c}, then choose where"),
        };
        let b = egui::Button::new(egui::RichText::new(text).size(16.0))
            .selected(view.focus.0 == i)
            .wrap()
            .min_size(egui::vec2(ui.available_width(), crate::app::theme::TOUCH - 4.0));
        if ui.add(b).clicked() {
            clicks.write(MenuClicked { index: i, delta: 0 });
        }
    }
    let n = view.builder.choices.len();
    let cancel = egui::Button::new("Cancel")
        .selected(view.focus.0 == n)
        .min_size(egui::vec2(0.0, crate::app::theme::TOUCH - 6.0));
    if ui.add(cancel).clicked() {
        clicks.write(MenuClicked { index: n, delta: 0 });
    }
}

/// Decisions that name no space, as buttons (the pie rule as a plain two-way choice).
fn spaceless_choices(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    view: &PanelView,
    decide: &mut MessageWriter<DecisionChosen>,
) {
    let offers = offers_now(current);
    let others = spaceless(&offers);
    let listed =
        view.builder.choices.iter().any(|c| matches!(c, Choice::Decision(d) if others.iter().any(|o| o.token == *d)));
    if others.is_empty() || listed {
        return;
    }
    let kind = current.position().kind();
    let mover = current.acting_side().map(|s| side_label(current.position(), s)).unwrap_or_default();
    let pie = kind.pie_text.filter(|_| others.iter().any(|o| o.pie));
    if pie.is_some() {
        ui.label(egui::RichText::new("Pie rule").size(18.0).strong());
    }
    let keyed = single_spaceless(&offers);
    ui.horizontal_wrapped(|ui| {
        for o in &others {
            let label = match kind.decision_words(&o.token, &mover) {
                Some(words) if keyed == Some(o.token.as_str()) => with_key(ui, &words, "E"),
                _ => decision_label(kind, &o.token, &mover),
            };
            if button(ui, &label).clicked() {
                decide.write(DecisionChosen(o.token.clone()));
            }
        }
    });
    // Under the buttons (a full panel keeps them in sight); a lesson about it says it already.
    if let Some(pie) = pie.filter(|_| view.lesson.is_none()) {
        ui.label(pie);
    }
    if let (Some(device), None) = (crate::app::ui::playing_with(ui), keyed) {
        let line = crate::app::ui::controls_words(device, &[("Tab", "X", "these choices")]);
        super::cards::label_if_room(ui, egui::RichText::new(line).weak().size(text_size::SMALL));
    }
    ui.add_space(6.0);
}

/// After the end, in the panel: the result and, when the card over the board was put aside, its
/// buttons and a way back to it.
fn game_over(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    if !act.panels.game_over_aside {
        return;
    }
    super::game_over::buttons(ui, current, view, act);
    if button(ui, "Show the result").clicked() {
        act.panels.game_over_aside = false;
    }
    ui.separator();
}

/// The name being typed for a save, and what the last save did.
fn save_row(ui: &mut egui::Ui, current: &CurrentMatch, act: &mut PanelActions) {
    if let Some(mut name) = act.panels.save_name.take() {
        let mut keep_open = true;
        ui.horizontal_wrapped(|ui| {
            ui.add(egui::TextEdit::singleline(&mut name).desired_width(180.0));
            if button(ui, "Save").clicked() {
                let trimmed = name.trim().to_string();
                // A save of that name is replaced only on a second press; a damaged one never.
                match crate::save::load_named(&act.store.0, &trimmed) {
                    Ok(_) if act.panels.replace_confirmed.as_ref() != Some(&trimmed) => {
                        act.panels.save_message = Some(format!("“{trimmed}” exists: press Save again to replace it."));
                        act.panels.replace_confirmed = Some(trimmed);
                    }
                    Err(crate::save::SaveError::Damaged { .. }) => {
                        act.panels.save_message =
                            Some(format!("“{trimmed}” is a damaged save, kept as it is: choose another name."));
                    }
                    _ => {
                        let saved = crate::save::save_named(&mut act.store.0, &trimmed, &current.record());
                        act.panels.save_message = Some(match saved {
                            Ok(()) => format!("Saved as “{trimmed}”."),
                            Err(e) => e.to_string(),
                        });
                        act.panels.replace_confirmed = None;
                        keep_open = false;
                    }
                }
            }
            if button(ui, "Cancel").clicked() {
                keep_open = false;
            }
        });
        if keep_open {
            act.panels.save_name = Some(name);
        }
    }
    if let Some(m) = &act.panels.save_message {
        ui.label(egui::RichText::new(m).size(text_size::SMALL));
    }
}
