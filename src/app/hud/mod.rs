//! The side panel (egui) beside the board, or under it in portrait: a card per player (who plays
//! the side, its figures, a glow on the side to move, the computer's thinking), a status line that
//! says what to do now, then the choices, the end of the game and the move list, over a footer of
//! the same commands in every game — on a phone (upright or sideways) as tabs (Actions, Moves,
//! Rules) over the same footer. Also the windows it opens (the rules, the record).

mod actions;
mod cards;
mod footer;
mod game_over;
mod lesson_card;
mod moves;
mod record_window;
mod review_panel;
mod rules_window;
mod turn_warning;

use super::AppSystems;
use super::lesson_state::{LessonCommand, LessonRun, PracticeRun};
use super::match_state::{CurrentMatch, MatchCommand, NewMatch};
use super::playing::{
    BoardAnimating, BoardCursor, ChoiceAnchor, ComputerStatus, DecisionChosen, EventLog, HintRequested, HintShown,
    MoveList, MoveNow, OnlineRequest, OnlineStatus, Replay, ReplayMoves, ReplayStep, Secrecy, SetupRequested,
    ShowRules, Spectating, TurnBuilder, TurnWarning,
};
use super::review_state::{AnalysisBoard, ReviewCommand, ReviewShown};
use super::screen::Screen;
use super::settings::{CurrentSettings, SaveStore};
use super::ui::{self, MenuClicked, MenuFocus, ScreenLayout, root_ui_in};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.init_resource::<Panels>();
    app.add_systems(Update, show_rules.in_set(AppSystems::Intent));
    app.add_plugins((rules_window::plugin, record_window::plugin));
    app.add_systems(
        Update,
        (update_move_list, update_event_log, update_replay_moves)
            .in_set(AppSystems::Present)
            .run_if(resource_exists::<CurrentMatch>),
    );
    app.add_systems(OnEnter(Screen::Playing), |mut p: ResMut<Panels>| *p = Panels::default());
    app.add_systems(EguiPrimaryContextPass, draw_panel.run_if(in_state(Screen::Playing)));
}

fn update_move_list(current: Res<CurrentMatch>, mut list: ResMut<MoveList>) {
    if list.version != current.session.version() {
        list.update(&current);
    }
}

/// The replay's whole-game list, made again only for another game.
fn update_replay_moves(current: Res<CurrentMatch>, replay: Res<Replay>, mut whole: ResMut<ReplayMoves>) {
    if replay.active {
        whole.refresh(&current);
    }
}

fn update_event_log(current: Res<CurrentMatch>, mut log: ResMut<EventLog>) {
    if log.version != current.session.version() {
        log.update(&current);
    }
}

/// The rules open (beside the board, or over the whole screen on a phone) at the section asked for.
fn show_rules(mut asked: MessageReader<ShowRules>, mut panels: ResMut<Panels>) {
    for ShowRules(section) in asked.read() {
        panels.rules_scroll = section.map(rules_window::ScrollTo::section);
        panels.rules_open = true;
    }
}

/// The phone panel's tabs.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Tab {
    #[default]
    Actions,
    Moves,
}

/// The panel's open extras.
#[derive(Resource, Debug, Default)]
struct Panels {
    /// The rules window.
    rules_open: bool,
    /// The rules' section to bring into view (a lesson's "The rule: …").
    rules_scroll: Option<rules_window::ScrollTo>,
    /// The record window.
    record_open: bool,
    /// The game-over card was put aside to look at the board.
    game_over_aside: bool,
    /// The save name whose replacement was asked for once (the next Save replaces it).
    replace_confirmed: Option<String>,
    /// "Resign?" was pressed once; the second press resigns.
    confirm_resign: bool,
    /// The name being typed for a save (the save row is open).
    save_name: Option<String>,
    /// What the last save did.
    save_message: Option<String>,
    /// The phone panel's tab.
    tab: Tab,
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
    events: Res<'w, EventLog>,
    replay_moves: Res<'w, ReplayMoves>,
    layout: Res<'w, ScreenLayout>,
    anchor: Res<'w, ChoiceAnchor>,
    online: Res<'w, OnlineStatus>,
    lesson: Option<Res<'w, LessonRun>>,
    practice: Option<Res<'w, PracticeRun>>,
    review: Res<'w, ReviewShown>,
    analysis: Res<'w, AnalysisBoard>,
    animating: Res<'w, BoardAnimating>,
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
    online: MessageWriter<'w, OnlineRequest>,
    lessons: MessageWriter<'w, LessonCommand>,
    show_rules: MessageWriter<'w, ShowRules>,
    review: MessageWriter<'w, ReviewCommand>,
    commands: MessageWriter<'w, MatchCommand>,
    new_match: MessageWriter<'w, NewMatch>,
    next: ResMut<'w, NextState<Screen>>,
    spectating: ResMut<'w, Spectating>,
    replay: ResMut<'w, Replay>,
    panels: ResMut<'w, Panels>,
    store: ResMut<'w, SaveStore>,
    warning: ResMut<'w, TurnWarning>,
    settings: ResMut<'w, CurrentSettings>,
}

fn draw_panel(
    mut contexts: EguiContexts,
    current: Option<Res<CurrentMatch>>,
    view: PanelView,
    mut act: PanelActions,
) -> Result {
    let Some(current) = current else { return Ok(()) };
    if view.secrecy.handover.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    actions::choice_popup(ctx, &current, &view, &mut act.clicks);
    game_over::card_over_board(ctx, &current, &view, &mut act);
    turn_warning::card_at_panel_top(ctx, &current, &view, &mut act);
    panel(ctx, &current, &view, &mut act);
    Ok(())
}

/// The panel beside or under the board.
fn panel(ctx: &egui::Context, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    let mut root = root_ui_in(ctx, "hud", view.layout.panel_rect());
    let frame = egui::Frame::new().fill(root.visuals().panel_fill).inner_margin(egui::Margin::symmetric(12, 8));
    frame.show(&mut root, |ui| {
        ui.set_width(ui.available_width());
        ui.set_min_height(ui.available_height());
        if view.layout.phone {
            phone_panel(ui, current, view, act);
        } else {
            landscape(ui, current, view, act);
        }
    });
}

/// Beside the board: the game's name, the player cards, then the footer's commands fixed at the
/// bottom, the move list above them with at least `moves::min_height`, and the status and the
/// choices in the room left (scrolling there, never pushing the footer off).
fn landscape(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    if view.lesson.is_some() {
        lesson_card::lesson_card(ui, current, view, act, false);
    } else if view.practice.is_some() {
        lesson_card::practice_card(ui, current, view, act);
    } else {
        let name = current.position().kind().name();
        ui.heading(egui::RichText::new(name).size(super::theme::text_size::HEADING).strong());
    }
    cards::player_cards(ui, current, view, act, false);
    footer_panel(ui, current, view, act, |ui, current, act| {
        if view.analysis.active {
            review_panel::analysis_card(ui, current, &view.analysis, act, false);
        }
        if let Some(phrase) = cards::status(ui, current, view) {
            act.online.write(phrase);
        }
        if act.replay.active {
            // A review needs the room the details had (they say again what the board shows).
            if view.review.review.is_none() {
                cards::details(ui, current, view, act);
            }
            let replay = act.replay.clone();
            let parts = (&replay, &view.replay_moves.list, &*view.review);
            moves::replay_controls(ui, current, parts, &mut act.replay_steps);
            review_panel::section(ui, current, view, act);
            let lists = (&view.replay_moves.list, &*view.review);
            moves::replay_list(ui, current, lists, (&mut act.replay_steps, &mut act.settings));
            return;
        }
        // A lesson's or a practice position's few moves are on the board: its card takes their room.
        let with_moves = view.lesson.is_none() && view.practice.is_none();
        let list = if with_moves { moves::min_height(ui, &view.moves) } else { 0.0 };
        let room = (ui.available_height() - list).max(0.0);
        // The commands first, then what the board shows in words.
        // What the commands leave is the details' room, so that those give way rather than being
        // cut (the scroll is for commands that would not fit).
        egui::ScrollArea::vertical().id_salt("hud middle").max_height(room).auto_shrink([false, true]).show(ui, |ui| {
            let top = ui.cursor().min.y;
            actions::all(ui, current, view, act);
            let left = (room - (ui.cursor().min.y - top)).max(0.0);
            ui.allocate_ui(egui::vec2(ui.available_width(), left), |ui| cards::details(ui, current, view, act));
        });
        if with_moves {
            moves::move_list(ui, &view.moves, &mut act.settings);
        }
    });
}

/// The footer at the bottom of the panel (the same commands in the same place in every game), and
/// `above` drawn in the room over it.
fn footer_panel(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    view: &PanelView,
    act: &mut PanelActions,
    above: impl FnOnce(&mut egui::Ui, &CurrentMatch, &mut PanelActions),
) {
    let keys = !ui::by_touch(ui);
    let buttons = footer::buttons(footer::FooterState::of(current, view, act), keys);
    let (pressed, room) = footer::draw(ui, &buttons, keys, (current.watching, view.layout.short()));
    ui.scope_builder(egui::UiBuilder::new().max_rect(room), |ui| {
        // However little room is left, nothing is drawn over the footer.
        ui.set_clip_rect(ui.clip_rect().intersect(room));
        above(ui, current, act)
    });
    if let Some(command) = pressed {
        footer::run(command, current, view, act);
    }
}

/// Under the board: the player cards side by side and what to do now, then the tabs over the
/// footer's commands.
fn phone_panel(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    if view.layout.short() {
        // A short phone's rows sit closer: the room is the commands'.
        ui.spacing_mut().item_spacing.y = 4.0;
    }
    // In a lesson its goal takes the player cards' place: the learner is told whose move it is.
    if view.lesson.is_some() {
        lesson_card::lesson_card(ui, current, view, act, true);
    } else if view.practice.is_some() {
        lesson_card::practice_card(ui, current, view, act);
    } else if !act.replay.active && !view.analysis.active {
        // A replay (its steps, a review) or the analysis board takes the player cards' room: a
        // phone has little, and the status says how the game ended.
        cards::player_cards(ui, current, view, act, true);
    }
    // While the learner acts, a lesson's goal on the card says what to do: the status line's room
    // is the introduction's.
    let learner_acts = view.lesson.as_deref().is_some_and(|run| current.acting_side() == Some(run.learner));
    if !learner_acts && let Some(phrase) = cards::status(ui, current, view) {
        act.online.write(phrase);
    }
    // A lesson's or a practice position's few moves are on the board, and the footer opens the
    // rules: no tabs, their room is the lesson's.
    let exercise = view.lesson.is_some() || view.practice.is_some();
    if exercise {
        if act.panels.tab != Tab::Actions {
            act.panels.tab = Tab::Actions;
        }
    } else {
        ui.horizontal(|ui| {
            // Three to a row, however narrow the panel (a phone turned sideways).
            let width = ((ui.available_width() - 2.0 * ui.spacing().item_spacing.x) / 3.0).min(96.0);
            // "Rules" opens the rules over the whole screen, as the footer's Rules does: under the
            // player cards a phone has no room to read them in.
            for (tab, name) in [(Some(Tab::Actions), "Actions"), (Some(Tab::Moves), "Moves"), (None, "Rules")] {
                let selected = tab.map_or(act.panels.rules_open, |tab| act.panels.tab == tab);
                let button = egui::Button::new(egui::RichText::new(name).size(16.0))
                    .selected(selected)
                    .min_size(egui::vec2(width, super::theme::TOUCH - 6.0));
                if ui.add(button).clicked() {
                    match tab {
                        Some(tab) => act.panels.tab = tab,
                        None => {
                            act.show_rules.write(ShowRules(None));
                        }
                    }
                }
            }
        });
        ui.separator();
    }
    footer_panel(ui, current, view, act, |ui, current, act| {
        let room = ui.available_height();
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            let top = ui.cursor().min.y;
            if let Some(request) = cards::online_status(ui, current, view) {
                act.online.write(request);
            }
            let room = (room - (ui.cursor().min.y - top)).max(0.0);
            phone_tab(ui, current, view, act, room);
        });
    });
}

/// The phone panel's tab, in the room over the footer.
/// `room` is the tab's height in sight.
fn phone_tab(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions, room: f32) {
    match act.panels.tab {
        Tab::Actions if act.replay.active => {
            let top = ui.cursor().min.y;
            let replay = act.replay.clone();
            let parts = (&replay, &view.replay_moves.list, &*view.review);
            // On a phone a review comes first: the few lines above the fold are its. Before one,
            // the replay's own steps come before the offer of one.
            let reviewed = view.review.review.is_some();
            if reviewed {
                review_panel::section(ui, current, view, act);
            }
            moves::replay_controls(ui, current, parts, &mut act.replay_steps);
            if !reviewed {
                review_panel::section(ui, current, view, act);
            }
            // The list in the room left, or only under the Moves tab when too little is: a list
            // scrolling inside the scrolling tab hid its own heading.
            let left = room - (ui.cursor().min.y - top);
            let line = ui.text_style_height(&egui::TextStyle::Body);
            if left > ui.spacing().interact_size.y + 3.0 * line {
                ui.allocate_ui(egui::vec2(ui.available_width(), left), |ui| {
                    let lists = (&view.replay_moves.list, &*view.review);
                    moves::replay_list(ui, current, lists, (&mut act.replay_steps, &mut act.settings));
                });
            }
        }
        Tab::Actions => {
            if view.analysis.active {
                review_panel::analysis_card(ui, current, &view.analysis, act, true);
            }
            // The commands first: under a lesson's introduction a phone's few lines hid them (a
            // playtest looked for Rescue in vain). Then the introduction, and in the room left
            // what gives way when there is none.
            let top = ui.cursor().min.y;
            actions::all(ui, current, view, act);
            lesson_card::intro(ui, view);
            let left = (room - (ui.cursor().min.y - top)).max(0.0);
            ui.allocate_ui(egui::vec2(ui.available_width(), left), |ui| {
                // A lesson's card takes the player cards' place, and a short phone's cards have
                // one line: their counters, on one line here.
                let counters = cards::counters_line(current);
                let cards_without = view.lesson.is_some() || view.practice.is_some() || view.layout.short();
                if cards_without && !counters.is_empty() {
                    cards::label_if_room(ui, egui::RichText::new(counters).size(super::theme::text_size::SMALL).weak());
                }
                cards::details(ui, current, view, act);
            });
        }
        Tab::Moves if act.replay.active => {
            let lists = (&view.replay_moves.list, &*view.review);
            moves::replay_list(ui, current, lists, (&mut act.replay_steps, &mut act.settings));
        }
        Tab::Moves => moves::move_list(ui, &view.moves, &mut act.settings),
    }
}

/// Runs `draw` headless in a screen of `size` (logical pixels) for the two passes egui lays a
/// first frame out in; the second is the one drawn (the panel's layout tests).
#[cfg(test)]
fn lay_out(size: egui::Vec2, mut draw: impl FnMut(&mut egui::Ui)) {
    let ctx = egui::Context::default();
    let input =
        egui::RawInput { screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)), ..Default::default() };
    for _ in 0..2 {
        let mut output = ctx.run_ui(input.clone(), &mut draw);
        // Nothing renders the fonts' texture here.
        output.textures_delta.clear();
    }
}

#[cfg(test)]
mod fit_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lessons_link_opens_the_rules_at_the_section_it_teaches() {
        let mut app = App::new();
        app.init_resource::<Panels>().add_message::<ShowRules>().add_systems(Update, show_rules);
        app.update();
        assert!(!app.world().resource::<Panels>().rules_open);
        app.world_mut().write_message(ShowRules(Some("captures")));
        app.update();
        let panels = app.world().resource::<Panels>();
        assert!(panels.rules_open);
        assert_eq!(panels.rules_scroll.map(|s| s.section), Some("captures"));
    }
}
