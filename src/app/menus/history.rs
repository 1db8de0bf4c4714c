//! The finished games: every game that ended on this device is kept by itself (the newest few
//! hundred, `save::keep_finished`) and listed here, newest first, with its result, opponent, date
//! and length; open one in the replay, or delete it after a second press.

use super::continue_games::{now_unix, opponent_text, when_text};
use super::list_keys::{ListPress, list_presses};
use crate::app::AppSystems;
use crate::app::input::{Action, ActionPressed};
use crate::app::match_state::NewMatch;
use crate::app::playing::Replay;
use crate::app::review_state::ReviewCommand;
use crate::app::screen::Screen;
use crate::app::settings::SaveStore;
use crate::app::ui::{MenuClicked, MenuFocus, item, key_hints, reset_focus, screen_frame};
use crate::games::plural;
use crate::save::{FinishedGame, delete_finished, list_finished, load_finished};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The finished games as last read, and what the screen says.
#[derive(Resource, Debug, Default)]
pub struct FinishedGames {
    pub games: Vec<FinishedGame>,
    /// Damaged entries and failed actions, shown under the list.
    pub problems: Vec<String>,
    /// The game waiting for a second press to be deleted.
    pub confirm_delete: Option<usize>,
}

/// A finished game chosen with a mouse button: to replay (`false`) or to delete (`true`).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinishedChosen(pub usize, pub bool);

/// A finished game chosen to be reviewed with the computer (it opens in the replay).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinishedReview(pub usize);

pub fn plugin(app: &mut App) {
    app.init_resource::<FinishedGames>();
    app.add_message::<FinishedChosen>().add_message::<FinishedReview>();
    app.add_systems(OnEnter(Screen::History), (reset_focus, refresh));
    app.add_systems(Update, history_input.in_set(AppSystems::Menus).run_if(in_state(Screen::History)));
    app.add_systems(EguiPrimaryContextPass, draw_history.run_if(in_state(Screen::History)));
}

fn refresh(store: Res<SaveStore>, mut list: ResMut<FinishedGames>) {
    let (games, problems) = list_finished(&store.0).unwrap_or_else(|e| (Vec::new(), vec![e.to_string()]));
    *list = FinishedGames { games, problems, confirm_delete: None };
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn history_input(
    mut commands: Commands,
    mut new_match: MessageWriter<NewMatch>,
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    (mut chosen, mut reviews): (MessageReader<FinishedChosen>, MessageReader<FinishedReview>),
    mut review: MessageWriter<ReviewCommand>,
    mut store: ResMut<SaveStore>,
    mut list: ResMut<FinishedGames>,
    mut next: ResMut<NextState<Screen>>,
) {
    let pressed: Vec<Action> = actions.read().map(|a| a.0).collect();
    let clicks: Vec<MenuClicked> = clicks.read().copied().collect();
    let mut wanted: Vec<FinishedChosen> = chosen.read().copied().collect();
    let to_review: Vec<usize> = reviews.read().map(|r| r.0).collect();
    wanted.extend(to_review.iter().map(|&i| FinishedChosen(i, false)));
    let rows = list.games.len();
    for press in list_presses(&mut focus, &pressed, &clicks, rows, &mut list.confirm_delete) {
        match press {
            ListPress::Back => next.set(Screen::Saves),
            ListPress::Open(i) => wanted.push(FinishedChosen(i, false)),
            ListPress::Delete(i) => wanted.push(FinishedChosen(i, true)),
        }
    }
    for FinishedChosen(i, delete) in wanted {
        let Some(entry) = list.games.get(i).cloned() else { continue };
        if delete {
            match delete_finished(&mut store.0, &entry.key) {
                Ok(()) => {
                    list.games.remove(i);
                    list.confirm_delete = None;
                    focus.0 = focus.0.min(list.games.len());
                }
                Err(e) => list.problems.push(e.to_string()),
            }
            continue;
        }
        let opened = load_finished(&store.0, &entry.key).map_err(|e| e.to_string()).and_then(|r| Replay::open(&r));
        match opened {
            Ok((current, replay)) => {
                new_match.write(NewMatch(Box::new(current)));
                commands.insert_resource(replay);
                if to_review.contains(&i) {
                    review.write(ReviewCommand::Start);
                }
                next.set(Screen::Playing);
                return;
            }
            Err(e) => list.problems.push(format!("This game cannot be opened: {e}")),
        }
    }
}

fn draw_history(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    list: Res<FinishedGames>,
    mut clicks: MessageWriter<MenuClicked>,
    mut chosen: MessageWriter<FinishedChosen>,
    mut review: MessageWriter<FinishedReview>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let now = now_unix();
    screen_frame(ctx, "Finished games", "Every game that ended here, newest first", |ui| {
        if list.games.is_empty() {
            ui.label(egui::RichText::new("No finished game yet: every game that ends is kept here.").size(16.0));
            ui.add_space(8.0);
        }
        for (i, g) in list.games.iter().enumerate() {
            let title = format!("{} · {}", g.game.name(), g.result);
            let detail = if list.confirm_delete == Some(i) {
                "Press Enter (A) again to delete this game, Esc (B) to keep it".to_string()
            } else {
                let when = when_text(g.finished_unix_ms / 1000, now);
                format!("{} · {} · {when}", opponent_text(&g.players), plural(g.moves, "move"))
            };
            item(ui, i, focus.0 == i, &title, &detail, &mut clicks);
            ui.horizontal(|ui| {
                if ui.button("Replay").clicked() {
                    chosen.write(FinishedChosen(i, false));
                }
                if ui.button("Review").clicked() {
                    review.write(FinishedReview(i));
                }
                if ui.button("Delete").clicked() {
                    chosen.write(FinishedChosen(i, list.confirm_delete == Some(i)));
                }
            });
            ui.add_space(4.0);
        }
        let n = list.games.len();
        item(ui, n, focus.0 == n, "Back", "", &mut clicks);
        for p in &list.problems {
            ui.colored_label(ui.visuals().warn_fg_color, p);
        }
        key_hints(ui, &[("Enter", "A", "replay"), ("Tab", "X", "delete"), ("Esc", "B", "back")]);
    });
    Ok(())
}
