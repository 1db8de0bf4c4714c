//! The side panel (egui) beside the board: the game and whose turn, counters, the space under the
//! cursor, the computer's status, hints, the choice list, decisions that name no space, the end of
//! the game, undo/redo, rules, saving, the record, resigning and the move list; and the windows it
//! opens (the rules, the record).

mod record_window;
mod rules_window;

use super::AppSystems;
use super::labels::{decision_label, space_summary};
use super::match_state::{CurrentMatch, side_label};
use super::playing::{
    BoardCursor, Choice, ComputerStatus, DecisionChosen, HintRequested, HintShown, MoveList, MoveNow, PACES, Replay,
    ReplayStep, Secrecy, SetupRequested, Spectating, TurnBuilder, spaceless, undo_allowed,
};
use super::screen::Screen;
use super::settings::SaveStore;
use super::ui::{MenuClicked, MenuFocus, PANEL_WIDTH, root_ui_in};
use crate::games::GameKind;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.init_resource::<Panels>();
    app.add_plugins((rules_window::plugin, record_window::plugin));
    app.add_systems(Update, update_move_list.in_set(AppSystems::Present));
    app.add_systems(OnEnter(Screen::Playing), |mut p: ResMut<Panels>| *p = Panels::default());
    app.add_systems(EguiPrimaryContextPass, draw_panel.run_if(in_state(Screen::Playing)));
}

fn update_move_list(current: Res<CurrentMatch>, mut list: ResMut<MoveList>) {
    if list.for_history != current.history {
        list.update(&current);
    }
}

/// The panel's open extras.
#[derive(Resource, Debug, Default)]
struct Panels {
    /// The rules summary window.
    rules_open: bool,
    /// The record window.
    record_open: bool,
    /// "Resign?" was pressed once; the second press resigns.
    confirm_resign: bool,
    /// The name being typed for a save (the save row is open).
    save_name: Option<String>,
    /// What the last save did.
    save_message: Option<String>,
}

/// What the panel shows and reads.
#[derive(SystemParam)]
struct PanelView<'w> {
    builder: Res<'w, TurnBuilder>,
    cursor: Res<'w, BoardCursor>,
    focus: Res<'w, MenuFocus>,
    secrecy: Res<'w, Secrecy>,
    computer: Res<'w, ComputerStatus>,
    hint: Res<'w, HintShown>,
    moves: Res<'w, MoveList>,
}

/// What the panel's buttons write.
#[derive(SystemParam)]
struct PanelActions<'w> {
    clicks: MessageWriter<'w, MenuClicked>,
    decide: MessageWriter<'w, DecisionChosen>,
    hint_requests: MessageWriter<'w, HintRequested>,
    move_now: MessageWriter<'w, MoveNow>,
    replay_steps: MessageWriter<'w, ReplayStep>,
    setup: MessageWriter<'w, SetupRequested>,
    next: ResMut<'w, NextState<Screen>>,
    spectating: ResMut<'w, Spectating>,
    replay: ResMut<'w, Replay>,
    panels: ResMut<'w, Panels>,
    store: ResMut<'w, SaveStore>,
}

fn draw_panel(
    mut contexts: EguiContexts,
    current: Option<ResMut<CurrentMatch>>,
    view: PanelView,
    mut act: PanelActions,
) -> Result {
    let Some(mut current) = current else { return Ok(()) };
    if view.secrecy.handover.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.viewport_rect();
    let strip = egui::Rect::from_min_max(egui::pos2(screen.max.x - PANEL_WIDTH, screen.min.y), screen.max);
    let mut root = root_ui_in(ctx, "hud", strip);
    egui::Panel::right("hud").exact_size(PANEL_WIDTH).show(&mut root, |ui| {
        header(ui, &current, &view);
        computer_status(ui, &view, &mut act);
        if act.replay.active {
            replay_panel(ui, &current, &act.replay.clone(), &mut act.replay_steps);
            return;
        }
        pace(ui, &current, &mut act.spectating);
        let person_acts = current.acting_side().is_some_and(|s| current.player_of(s).is_none());
        if person_acts && !current.is_over() {
            hint_row(ui, &current, &view, &mut act.hint_requests);
        }
        if let Some(m) = current.message.clone() {
            ui.add_space(4.0);
            ui.colored_label(ui.visuals().warn_fg_color, m);
        }
        ui.separator();
        choice_list(ui, &current, &view, &mut act.clicks);
        if person_acts {
            spaceless_choices(ui, &current, &view, &mut act.decide);
        }
        if current.is_over() {
            game_over(ui, &mut current, &mut act);
        }
        controls(ui, &mut current, &view, &mut act);
        save_row(ui, &current, &mut act);
        move_list(ui, &view.moves);
    });
    Ok(())
}

/// The game, whose turn it is, the counters and the space under the cursor.
fn header(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView) {
    let game = current.game.as_ref();
    let board = game.board_view();
    ui.add_space(8.0);
    ui.heading(egui::RichText::new(game.kind().name()).size(28.0).strong());
    ui.label(egui::RichText::new(current.turn_text()).size(20.0));
    ui.add_space(4.0);
    egui::Grid::new("counters").num_columns(2).show(ui, |ui| {
        for c in &board.counters {
            let who = c.side.map(|s| format!("{} ", side_label(game, s))).unwrap_or_default();
            ui.label(format!("{who}{}", c.label));
            ui.label(egui::RichText::new(&c.value).strong());
            ui.end_row();
        }
    });
    // The space under the cursor (or the mouse), with the game's number for it.
    if let (Some(cell), Some(mover)) = (board.cells.get(view.cursor.index), current.acting_side()) {
        let text = space_summary(cell, mover, |s| side_label(game, s));
        ui.label(egui::RichText::new(text).size(15.0));
    }
}

/// While the computer thinks: a line that says so, and "Move now".
fn computer_status(ui: &mut egui::Ui, view: &PanelView, act: &mut PanelActions) {
    let Some(since) = view.computer.thinking_since else { return };
    let dots = ".".repeat(1 + (since.elapsed().as_secs_f32() * 2.0) as usize % 3);
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(format!("Computer is thinking{dots}")).size(18.0).strong());
        if ui.button("Move now (E)").clicked() {
            act.move_now.write(MoveNow);
        }
    });
}

/// Computer against computer: how fast, and pause.
fn pace(ui: &mut egui::Ui, current: &CurrentMatch, spectating: &mut ResMut<Spectating>) {
    if !current.players.iter().all(Option::is_some) || current.is_over() {
        return;
    }
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

/// "Hint": the decision the computer would make for the person to act.
fn hint_row(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, requests: &mut MessageWriter<HintRequested>) {
    let kind = current.game.kind();
    ui.horizontal(|ui| {
        if ui.add_enabled(!view.hint.searching, egui::Button::new("Hint (Q)")).clicked() {
            requests.write(HintRequested);
        }
        let mover = current.acting_side().map(|s| side_label(current.game.as_ref(), s)).unwrap_or_default();
        if view.hint.searching {
            ui.label("Looking for a good move…");
        } else if let Some(d) = view.hint.current(current) {
            ui.label(egui::RichText::new(decision_label(kind, d, &mover)).strong());
        }
    });
}

/// The open choice list of the board (several decisions on one space), and Cancel.
fn choice_list(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, clicks: &mut MessageWriter<MenuClicked>) {
    if view.builder.choices.is_empty() {
        return;
    }
    let kind = current.game.kind();
    ui.label(egui::RichText::new("Choose:").strong());
    let mover = current.acting_side().map(|s| side_label(current.game.as_ref(), s)).unwrap_or_default();
    for (i, choice) in view.builder.choices.iter().enumerate() {
        let text = match choice {
            Choice::Decision(d) => decision_label(kind, d, &mover),
            Choice::StartFrom(c) => format!("Start at {c}, then choose where"),
        };
        let b = egui::Button::new(egui::RichText::new(text).size(17.0))
            .selected(view.focus.0 == i)
            .min_size(egui::vec2(200.0, 30.0));
        if ui.add(b).clicked() {
            clicks.write(MenuClicked { index: i, delta: 0 });
        }
    }
    let n = view.builder.choices.len();
    if ui.add(egui::Button::new("Cancel").selected(view.focus.0 == n)).clicked() {
        clicks.write(MenuClicked { index: n, delta: 0 });
    }
    ui.separator();
}

/// Decisions that name no space, as buttons (the pie rule as a plain two-way choice).
fn spaceless_choices(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    view: &PanelView,
    decide: &mut MessageWriter<DecisionChosen>,
) {
    let others = spaceless(&current.decisions_now());
    let listed = view.builder.choices.iter().any(|c| matches!(c, Choice::Decision(d) if others.contains(d)));
    if others.is_empty() || listed {
        return;
    }
    let kind = current.game.kind();
    let mover = current.acting_side().map(|s| side_label(current.game.as_ref(), s)).unwrap_or_default();
    if let Some(pie) = kind.pie_text.filter(|_| others.iter().any(|d| d == "swap" || d.starts_with("choose "))) {
        ui.label(egui::RichText::new("Pie rule").size(18.0).strong());
        ui.label(pie);
    }
    ui.horizontal_wrapped(|ui| {
        for d in &others {
            if ui.button(egui::RichText::new(decision_label(kind, d, &mover)).size(16.0)).clicked() {
                decide.write(DecisionChosen(d.clone()));
            }
        }
    });
    ui.label(egui::RichText::new("Tab or X button: these choices").weak().size(12.0));
    ui.separator();
}

/// The result, and what to do next: play again, replay, change the options.
fn game_over(ui: &mut egui::Ui, current: &mut ResMut<CurrentMatch>, act: &mut PanelActions) {
    ui.label(egui::RichText::new("Game over").size(24.0).strong());
    ui.label(egui::RichText::new(current.outcome_text()).size(20.0));
    ui.horizontal(|ui| {
        if ui.button("Play again").clicked() {
            let mut again = CurrentMatch::new(current.start.clone_box());
            again.players = current.players;
            again.seed = current.seed.wrapping_add(1);
            **current = again;
        }
        if ui.button("Replay").clicked() {
            *act.replay = Replay::of_current(current);
            act.replay_steps.write(ReplayStep::First);
        }
        if ui.button("Change options").clicked() {
            act.setup.write(SetupRequested {
                kind: current.game.kind(),
                options: current.game.option_pairs(),
                players: current.players,
            });
        }
    });
    ui.separator();
}

/// Undo, redo, the title screen; rules, save, record, resign.
fn controls(ui: &mut egui::Ui, current: &mut ResMut<CurrentMatch>, view: &PanelView, act: &mut PanelActions) {
    ui.horizontal(|ui| {
        if ui.add_enabled(undo_allowed(current, &view.secrecy), egui::Button::new("Undo (Z)")).clicked() {
            current.undo_to_person();
        }
        if ui.add_enabled(current.can_redo(), egui::Button::new("Redo (Y)")).clicked() {
            current.redo();
        }
        if ui.button("Title screen").clicked() {
            act.next.set(Screen::Title);
        }
    });
    let panels = &mut act.panels;
    ui.horizontal(|ui| {
        if ui.selectable_label(panels.rules_open, "Rules").clicked() {
            panels.rules_open = !panels.rules_open;
        }
        if ui.button("Save").clicked() {
            panels.save_name = Some(default_save_name(current.game.kind(), current.started_unix));
            panels.save_message = None;
        }
        if ui.selectable_label(panels.record_open, "Record").clicked() {
            panels.record_open = !panels.record_open;
        }
        if let Some(side) = current.resigning_side() {
            let who = side_label(current.game.as_ref(), side);
            let text = if panels.confirm_resign { format!("Really resign as {who}?") } else { "Resign".to_string() };
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
}

/// The name being typed for a save, and what the last save did.
fn save_row(ui: &mut egui::Ui, current: &CurrentMatch, act: &mut PanelActions) {
    if let Some(mut name) = act.panels.save_name.take() {
        let mut keep_open = true;
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut name).desired_width(180.0));
            if ui.button("Save").clicked() {
                act.panels.save_message =
                    Some(match crate::save::save_named(&mut act.store.0, &name, &current.record()) {
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
            act.panels.save_name = Some(name);
        }
    }
    if let Some(m) = &act.panels.save_message {
        ui.label(egui::RichText::new(m).size(13.0));
    }
}

/// The moves in the game's record notation.
fn move_list(ui: &mut egui::Ui, moves: &MoveList) {
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
    ui.label(egui::RichText::new("Arrows or D-pad: cursor · Enter or A: choose · Esc or B: back").weak().size(12.0));
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

/// "Red Stone 2026-11-22 10.41": the game and when it started (UTC), a name people recognise.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_save_name_is_the_game_and_its_start_time_and_a_valid_name() {
        let name = default_save_name(GameKind::named("red-stone"), 1_795_342_203);
        assert_eq!(name, "Red Stone 2026-11-22 10.10");
        assert!(crate::save::save_key(&name).is_ok());
        assert_eq!(default_save_name(GameKind::named("gravel"), 951_782_400), "Gravel 2000-02-29 00.00");
    }
}
