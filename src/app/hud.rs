//! The in-game HUD (egui): whose turn, counters, the choice list, decisions that name no space,
//! the move list, undo/redo and the way back to the title screen.

use super::ai_player::{Hint, HintRequested, PACES, Spectating, Thinking};
use super::board::{Choice, TurnBuilder, spaceless};
use super::labels::{decision_label, space_summary};
use super::match_state::{CurrentMatch, side_label};
use super::menus::{MenuClicked, MenuFocus};
use super::replay::{Replay, ReplayStep, replay_current};
use super::screen::Screen;
use super::secrecy::{Secrecy, undo_allowed};
use super::turn::DecisionChosen;
use crate::games::GameKind;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.init_resource::<HudPanels>().init_resource::<MoveList>();
    app.add_systems(
        Update,
        update_move_list.in_set(super::turn::TurnSystems::Present).run_if(resource_exists_and_changed::<CurrentMatch>),
    );
    app.add_systems(OnEnter(Screen::Playing), |mut p: ResMut<HudPanels>| *p = HudPanels::default());
    app.add_systems(EguiPrimaryContextPass, draw_hud.run_if(in_state(Screen::Playing)));
}

/// The moves in the game's record notation (spec §"game record"), numbered, with who made them.
#[derive(Resource, Debug, Default)]
pub struct MoveList {
    /// The decisions the list was made from.
    for_history: Vec<String>,
    pub lines: Vec<String>,
    /// Trailing decisions that do not complete a move yet (not shown: they may be sealed).
    pub pending: usize,
}

fn update_move_list(current: Res<CurrentMatch>, mut list: ResMut<MoveList>) {
    if list.for_history == current.history {
        return;
    }
    let game = current.start.as_ref();
    match game.record_tokens(&current.history) {
        Ok((tokens, pending)) => {
            list.lines = tokens
                .iter()
                .enumerate()
                .map(|(i, (side, token))| {
                    let who = if game.kind() == GameKind::HiddenIntention {
                        "A|B".to_string()
                    } else {
                        side_label(game, *side)
                    };
                    format!("{:>3}. {who:<6} {token}", i + 1)
                })
                .collect();
            list.pending = pending;
        }
        // Cannot happen for decisions the engine accepted; show them as they are rather than nothing.
        Err(_) => {
            list.lines = current.history.iter().enumerate().map(|(i, d)| format!("{:>3}. {d}", i + 1)).collect();
            list.pending = 0;
        }
    }
    list.for_history = current.history.clone();
}

/// The HUD's open extras.
#[derive(Resource, Debug, Default)]
pub struct HudPanels {
    /// The rules summary window.
    pub rules_open: bool,
    /// "Resign?" was pressed once; the second press resigns.
    pub confirm_resign: bool,
    /// The name being typed for a save (the save row is open).
    pub save_name: Option<String>,
    /// What the last save did.
    pub save_message: Option<String>,
}

#[allow(clippy::too_many_arguments)]
fn draw_hud(
    mut contexts: EguiContexts,
    current: Option<ResMut<CurrentMatch>>,
    (builder, cursor): (Res<TurnBuilder>, Res<super::board::BoardCursor>),
    focus: Res<MenuFocus>,
    mut clicks: MessageWriter<MenuClicked>,
    mut decide: MessageWriter<DecisionChosen>,
    mut next: ResMut<NextState<Screen>>,
    secrecy: Res<Secrecy>,
    thinking: Res<Thinking>,
    mut setup: ResMut<super::menus::SetupChoice>,
    mut panels: ResMut<HudPanels>,
    (hint, mut hint_requests, mut spectating): (Res<Hint>, MessageWriter<HintRequested>, ResMut<Spectating>),
    (mut replay, mut replay_steps): (ResMut<Replay>, MessageWriter<ReplayStep>),
    (mut store, moves, mut record_window): (
        ResMut<super::settings_io::SaveStore>,
        Res<MoveList>,
        ResMut<super::record_export::RecordWindow>,
    ),
) -> Result {
    let Some(mut current) = current else { return Ok(()) };
    if secrecy.handover.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let kind = current.game.kind();
    let view = current.game.board_view();
    let screen = ctx.viewport_rect();
    let strip = egui::Rect::from_min_max(egui::pos2(screen.max.x - super::board::HUD_WIDTH, screen.min.y), screen.max);
    let mut root = super::menus::widgets::root_ui_in(ctx, "hud", strip);
    egui::Panel::right("hud").exact_size(super::board::HUD_WIDTH).show(&mut root, |ui| {
        ui.add_space(8.0);
        ui.heading(egui::RichText::new(kind.name()).size(28.0).strong());
        ui.label(egui::RichText::new(current.turn_text()).size(20.0));
        if let Some(view) = &view {
            ui.add_space(4.0);
            egui::Grid::new("counters").num_columns(2).show(ui, |ui| {
                for c in &view.counters {
                    let who = c.side.map(|s| format!("{} ", side_label(current.game.as_ref(), s))).unwrap_or_default();
                    ui.label(format!("{who}{}", c.label));
                    ui.label(egui::RichText::new(&c.value).strong());
                    ui.end_row();
                }
            });
            // The space under the cursor (or the mouse), with the game's number for it.
            if let (Some(cell), Some(mover)) = (view.cells.get(cursor.index), current.acting_side()) {
                let game = current.game.as_ref();
                let text = space_summary(kind, cell, mover, |s| side_label(game, s));
                ui.label(egui::RichText::new(text).size(15.0));
            }
        }
        if thinking.is_thinking() {
            let secs = thinking.started.map(|t| t.elapsed().as_secs_f32()).unwrap_or(0.0);
            let dots = ".".repeat(1 + (secs * 2.0) as usize % 3);
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(format!("Computer is thinking{dots}")).size(18.0).strong());
                if ui.button("Move now (E)").clicked() {
                    thinking.move_now();
                }
            });
        }
        if replay.active {
            replay_panel(ui, &current, &replay, &mut replay_steps);
            return;
        }
        if current.players.iter().all(Option::is_some) && !current.is_over() {
            ui.horizontal(|ui| {
                ui.label("Pace:");
                for (name, pace) in PACES {
                    if ui.selectable_label(spectating.pace == pace, name).clicked() {
                        spectating.pace = pace;
                    }
                }
                let pause = if spectating.paused { "Resume" } else { "Pause" };
                if ui.button(pause).clicked() {
                    spectating.paused = !spectating.paused;
                }
            });
        }
        let person_acts = current.acting_side().is_some_and(|s| current.player_of(s).is_none());
        if person_acts && !current.is_over() && secrecy.handover.is_none() {
            ui.horizontal(|ui| {
                let searching = hint.is_searching();
                if ui.add_enabled(!searching, egui::Button::new("Hint (Q)")).clicked() {
                    hint_requests.write(HintRequested);
                }
                let mover = current.acting_side().map(|s| side_label(current.game.as_ref(), s)).unwrap_or_default();
                if searching {
                    ui.label("Looking for a good move…");
                } else if let Some(d) = hint.current(&current) {
                    ui.label(egui::RichText::new(decision_label(kind, d, &mover)).strong());
                }
            });
        }
        if let Some(m) = current.message.clone() {
            ui.add_space(4.0);
            ui.colored_label(ui.visuals().warn_fg_color, m);
        }
        ui.separator();
        if !builder.choices.is_empty() {
            ui.label(egui::RichText::new("Choose:").strong());
            let mover = current.acting_side().map(|s| side_label(current.game.as_ref(), s)).unwrap_or_default();
            for (i, choice) in builder.choices.iter().enumerate() {
                let text = match choice {
                    Choice::Decision(d) => decision_label(kind, d, &mover),
                    Choice::StartFrom(c) => format!("Start at {c}, then choose where"),
                };
                let b = egui::Button::new(egui::RichText::new(text).size(17.0))
                    .selected(focus.0 == i)
                    .min_size(egui::vec2(200.0, 30.0));
                if ui.add(b).clicked() {
                    clicks.write(MenuClicked { index: i, delta: 0 });
                }
            }
            let n = builder.choices.len();
            if ui.add(egui::Button::new("Cancel").selected(focus.0 == n)).clicked() {
                clicks.write(MenuClicked { index: n, delta: 0 });
            }
            ui.separator();
        }
        let others = spaceless(&current.decisions_now());
        // Only the person to move gets these buttons: the computer's choices are its own.
        if person_acts
            && !others.is_empty()
            && builder.choices.iter().all(|c| !matches!(c, Choice::Decision(d) if others.contains(d)))
        {
            let mover = current.acting_side().map(|s| side_label(current.game.as_ref(), s)).unwrap_or_default();
            if others.iter().any(|d| d == "swap" || d.starts_with("choose ")) {
                // The pie rule deserves a clear two-way choice, not a bare token.
                ui.label(egui::RichText::new("Pie rule").size(18.0).strong());
                ui.label(pie_text(kind));
            }
            ui.horizontal_wrapped(|ui| {
                for d in &others {
                    let text = decision_label(kind, d, &mover);
                    if ui.button(egui::RichText::new(text).size(16.0)).clicked() {
                        decide.write(DecisionChosen(d.clone()));
                    }
                }
            });
            ui.label(egui::RichText::new("Tab or X button: these choices").weak().size(12.0));
            ui.separator();
        }
        if current.is_over() {
            ui.label(egui::RichText::new("Game over").size(24.0).strong());
            ui.label(egui::RichText::new(current.outcome_text()).size(20.0));
            ui.horizontal(|ui| {
                if ui.button("Play again").clicked() {
                    let mut again = CurrentMatch::new(current.start.clone_box());
                    again.players = current.players;
                    again.seed = current.seed.wrapping_add(1);
                    *current = again;
                }
                if ui.button("Replay").clicked() {
                    *replay = replay_current(&mut current);
                    replay_steps.write(ReplayStep::First);
                }
                if ui.button("Change options").clicked() {
                    setup.select(kind, &current.game.option_pairs());
                    setup.players = current.players;
                    next.set(Screen::Setup);
                }
            });
            ui.separator();
        }
        ui.horizontal(|ui| {
            if ui.add_enabled(undo_allowed(&current, &secrecy), egui::Button::new("Undo (Z)")).clicked() {
                current.undo_to_person();
            }
            if ui.add_enabled(current.can_redo(), egui::Button::new("Redo (Y)")).clicked() {
                current.redo();
            }
            if ui.button("Title screen").clicked() {
                next.set(Screen::Title);
            }
        });
        ui.horizontal(|ui| {
            if ui.selectable_label(panels.rules_open, "Rules").clicked() {
                panels.rules_open = !panels.rules_open;
            }
            if ui.button("Save").clicked() {
                panels.save_name = Some(default_save_name(kind, current.started_unix));
                panels.save_message = None;
            }
            if ui.selectable_label(record_window.open, "Record").clicked() {
                record_window.open = !record_window.open;
            }
            if let Some(side) = current.resigning_side() {
                let who = side_label(current.game.as_ref(), side);
                let text =
                    if panels.confirm_resign { format!("Really resign as {who}?") } else { "Resign".to_string() };
                if ui.button(text).clicked() {
                    if panels.confirm_resign {
                        current.resign(side);
                    }
                    panels.confirm_resign = !panels.confirm_resign;
                }
                if panels.confirm_resign && ui.button("Keep playing").clicked() {
                    panels.confirm_resign = false;
                }
            }
        });
        if let Some(mut name) = panels.save_name.take() {
            let mut keep_open = true;
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut name).desired_width(180.0));
                if ui.button("Save").clicked() {
                    let record = super::save_io::record_of(&current);
                    panels.save_message = Some(match crate::save::save_named(&mut store.0, &name, &record) {
                        Ok(()) => format!("Saved as “{}”.", name.trim()),
                        Err(e) => e.to_string(),
                    });
                    keep_open = false;
                }
                if ui.button("Cancel").clicked() {
                    keep_open = false;
                }
            });
            if keep_open {
                panels.save_name = Some(name);
            }
        }
        if let Some(m) = &panels.save_message {
            ui.label(egui::RichText::new(m).size(13.0));
        }
        ui.separator();
        ui.label(egui::RichText::new("Moves").strong());
        egui::ScrollArea::vertical().stick_to_bottom(true).max_height(ui.available_height() - 60.0).show(ui, |ui| {
            for line in &moves.lines {
                ui.monospace(line);
            }
            if moves.pending > 0 {
                // A turn, part or commitment under way: sealed choices stay hidden.
                ui.monospace(egui::RichText::new("     … under way").weak());
            }
        });
        ui.add_space(4.0);
        ui.label(
            egui::RichText::new("Arrows or D-pad: cursor · Enter or A: choose · Esc or B: back").weak().size(12.0),
        );
    });
    Ok(())
}

/// The replay controls and the whole move list, each move a jump.
fn replay_panel(ui: &mut egui::Ui, current: &CurrentMatch, replay: &Replay, steps: &mut MessageWriter<ReplayStep>) {
    let at = current.history.len();
    let total = at + current.redo_len();
    ui.separator();
    ui.label(egui::RichText::new(format!("Replay — move {at} of {total}")).size(18.0).strong());
    ui.horizontal(|ui| {
        for (label, step, enabled) in [
            ("|<", ReplayStep::First, at > 0),
            ("<", ReplayStep::Back, at > 0),
            (">", ReplayStep::Forward, at < total),
            (">|", ReplayStep::Last, at < total),
        ] {
            let button = egui::Button::new(egui::RichText::new(label).monospace().size(18.0));
            if ui.add_enabled(enabled, button.min_size(egui::vec2(40.0, 28.0))).clicked() {
                steps.write(step);
            }
        }
        let auto = if replay.auto { "Stop" } else { "Auto-play" };
        if ui.button(egui::RichText::new(auto).size(16.0)).clicked() {
            steps.write(ReplayStep::ToggleAuto);
        }
    });
    ui.label(egui::RichText::new("Left/Right: step · Up/Down: start/end · Enter: auto-play").weak().size(12.0));
    if !current.is_over() {
        ui.label("Play on from here:");
        ui.horizontal(|ui| {
            if ui.button("Two players").clicked() {
                steps.write(ReplayStep::PlayOn([None, None]));
            }
            // The computer takes the side that is not to move now, so the person moves first.
            let computer_seat = current.acting_side().map_or(1, |s| 1 - current.seat_of(s));
            let mut players = [None, None];
            players[computer_seat] = Some(crate::ai::Level::Medium);
            if ui.button("Against the computer").clicked() {
                steps.write(ReplayStep::PlayOn(players));
            }
        });
    }
    ui.separator();
    let future: Vec<&str> = current.redo_decisions().collect();
    egui::ScrollArea::vertical().max_height(ui.available_height() - 30.0).show(ui, |ui| {
        for (i, d) in current.history.iter().map(String::as_str).chain(future).enumerate() {
            let text = egui::RichText::new(format!("{:>3}. {d}", i + 1)).monospace();
            let text = if i + 1 == at {
                text.strong()
            } else if i >= at {
                text.weak()
            } else {
                text
            };
            if ui.selectable_label(i + 1 == at, text).clicked() {
                steps.write(ReplayStep::To(i + 1));
            }
        }
    });
}

/// "Red Stone 2026-11-22 10:41": the game and when it started (UTC), a name people recognise.
fn default_save_name(kind: GameKind, started_unix: u64) -> String {
    let days = started_unix / 86_400;
    let (h, m) = ((started_unix % 86_400) / 3600, (started_unix % 3600) / 60);
    // Civil date from days since 1970 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{} {year:04}-{month:02}-{d:02} {h:02}.{m:02}", kind.name())
}

/// What the pie choice means, for the player who has to make it.
fn pie_text(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Throngs => {
            "Your opponent laid out the opening. Take the colour you think is better: Black moves next."
        }
        _ => {
            "Black has placed the first stone. Swap to take it as yours (you play Black and the other player White), or keep White and place a stone."
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_save_name_is_the_game_and_its_start_time_and_a_valid_name() {
        let name = default_save_name(GameKind::RedStone, 1_795_342_203);
        assert_eq!(name, "Red Stone 2026-11-22 10.10");
        assert!(crate::save::save_key(&name).is_ok());
        assert_eq!(default_save_name(GameKind::Gravel, 951_782_400), "Gravel 2000-02-29 00.00");
    }
}
