//! The Continue screen: every game in progress, last played first, with its game, opponent, move
//! count, when it was last played and its board; open one to play on, or delete it after a second
//! press.

use super::list_keys::{ListPress, list_presses};
use crate::app::AppSystems;
use crate::app::input::{Action, ActionPressed};
use crate::app::labels::level_name;
use crate::app::match_state::{CurrentMatch, NewMatch};
use crate::app::playing::Replay;
use crate::app::screen::Screen;
use crate::app::settings::{CurrentSettings, SaveStore};
use crate::app::ui::{
    MenuClicked, MenuFocus, item, item_with_picture, key_hints, paint_board, reset_focus, screen_frame,
};
use crate::rules::BoardView;
use crate::save::{GameInProgress, Player, adopt_old_autosave, list_games, load_game};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The games in progress as last read, with their boards, and what the screen says.
#[derive(Resource, Debug, Default)]
pub struct GamesInProgress {
    pub games: Vec<GameInProgress>,
    /// The position each game stands at (drawn beside it).
    pub boards: Vec<Option<BoardView>>,
    /// Damaged files and failed actions, shown under the list.
    pub problems: Vec<String>,
    /// The game waiting for a second press to be deleted.
    pub confirm_delete: Option<usize>,
}

/// A game chosen with a mouse button: to open (`false`) or to delete (`true`).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
struct GameChosen(usize, bool);

pub fn plugin(app: &mut App) {
    app.init_resource::<GamesInProgress>();
    app.add_message::<GameChosen>();
    // The title offers Continue only when there is a game to continue.
    app.add_systems(OnEnter(Screen::Title), refresh);
    app.add_systems(OnEnter(Screen::Continue), (reset_focus, refresh));
    app.add_systems(Update, continue_input.in_set(AppSystems::Menus).run_if(in_state(Screen::Continue)));
    app.add_systems(EguiPrimaryContextPass, draw_continue.run_if(in_state(Screen::Continue)));
}

fn refresh(mut store: ResMut<SaveStore>, mut list: ResMut<GamesInProgress>) {
    let mut problems = Vec::new();
    // Earlier versions kept one game in `autosave.json`: it joins the list once.
    if let Err(e) = adopt_old_autosave(&mut store.0) {
        problems.push(e.to_string());
    }
    let (games, more) = list_games(&store.0).unwrap_or_else(|e| (Vec::new(), vec![e.to_string()]));
    problems.extend(more);
    let boards = games
        .iter()
        .map(|g| load_game(&store.0, &g.key).ok().and_then(|r| r.replay(None).ok()).map(|game| game.board_view()))
        .collect();
    *list = GamesInProgress { games, boards, problems, confirm_delete: None };
}

/// Who the game is against, in words.
pub(super) fn opponent_text(players: &[Player; 2]) -> String {
    let level = |p: &Player| match p {
        Player::Human => None,
        Player::Computer(slug) => Some(slug.parse().map_or(slug.clone(), |l| level_name(l).to_string())),
    };
    match (level(&players[0]), level(&players[1])) {
        (None, None) => "two players on this device".to_string(),
        (Some(a), Some(b)) => format!("computer {a} against computer {b}"),
        (Some(l), None) | (None, Some(l)) => format!("against the computer · {l}"),
    }
}

/// When a game was last played, as a person says it ("3 minutes ago", "yesterday", "12 days ago").
pub(super) fn when_text(played_unix: u64, now_unix: u64) -> String {
    let ago = now_unix.saturating_sub(played_unix);
    let plural = |n: u64, unit: &str| if n == 1 { format!("1 {unit} ago") } else { format!("{n} {unit}s ago") };
    match ago {
        0..60 => "just now".to_string(),
        60..3600 => plural(ago / 60, "minute"),
        3600..86_400 => plural(ago / 3600, "hour"),
        86_400..172_800 => "yesterday".to_string(),
        _ => plural(ago / 86_400, "day"),
    }
}

pub(super) fn now_unix() -> u64 {
    web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn continue_input(
    mut commands: Commands,
    mut new_match: MessageWriter<NewMatch>,
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    mut chosen: MessageReader<GameChosen>,
    mut store: ResMut<SaveStore>,
    mut list: ResMut<GamesInProgress>,
    mut next: ResMut<NextState<Screen>>,
) {
    let pressed: Vec<Action> = actions.read().map(|a| a.0).collect();
    let clicks: Vec<MenuClicked> = clicks.read().copied().collect();
    let mut wanted: Vec<GameChosen> = chosen.read().copied().collect();
    let rows = list.games.len();
    for press in list_presses(&mut focus, &pressed, &clicks, rows, &mut list.confirm_delete) {
        match press {
            ListPress::Back => next.set(Screen::Title),
            ListPress::Open(i) => wanted.push(GameChosen(i, false)),
            ListPress::Delete(i) => wanted.push(GameChosen(i, true)),
        }
    }
    for GameChosen(i, delete) in wanted {
        let Some(entry) = list.games.get(i).cloned() else { continue };
        if delete {
            match store.0.remove(&entry.key) {
                Ok(()) => {
                    list.games.remove(i);
                    list.boards.remove(i);
                    list.confirm_delete = None;
                    focus.0 = focus.0.min(list.games.len());
                }
                Err(e) => list.problems.push(e.to_string()),
            }
            continue;
        }
        match load_game(&store.0, &entry.key).and_then(|record| CurrentMatch::from_record(&record)) {
            Ok(mut current) => {
                current.slot = Some(entry.key.clone());
                new_match.write(NewMatch(Box::new(current)));
                commands.insert_resource(Replay::default());
                next.set(Screen::Playing);
                return;
            }
            Err(e) => list.problems.push(format!("This game cannot be opened: {e}")),
        }
    }
}

fn draw_continue(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    list: Res<GamesInProgress>,
    settings: Res<CurrentSettings>,
    mut clicks: MessageWriter<MenuClicked>,
    mut chosen: MessageWriter<GameChosen>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let now = now_unix();
    screen_frame(ctx, "Continue", "Games in progress, last played first", |ui| {
        if list.games.is_empty() {
            ui.label(egui::RichText::new("No game in progress: every game you start is kept here.").size(16.0));
            ui.add_space(8.0);
        }
        let side = (ui.available_width() * 0.18).clamp(56.0, 88.0);
        for (i, g) in list.games.iter().enumerate() {
            let title = format!("{} · {}", g.game.name(), opponent_text(&g.players));
            let detail = if list.confirm_delete == Some(i) {
                "Press Enter (A) again to delete this game, Esc (B) to keep it".to_string()
            } else {
                let moves = if g.moves == 1 { "1 move".to_string() } else { format!("{} moves", g.moves) };
                format!("{moves} · {}", when_text(g.played_unix_ms / 1000, now))
            };
            let board = list.boards.get(i).and_then(Option::as_ref);
            let draw = |ui: &mut egui::Ui| match board {
                Some(view) => paint_board(ui, view, g.game, settings.0.theme, side, &[]),
                None => {
                    ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
                }
            };
            item_with_picture(ui, i, focus.0 == i, (&title, &detail), draw, &mut clicks);
            ui.horizontal(|ui| {
                if ui.button("Continue").clicked() {
                    chosen.write(GameChosen(i, false));
                }
                if ui.button("Delete").clicked() {
                    chosen.write(GameChosen(i, list.confirm_delete == Some(i)));
                }
            });
            ui.add_space(4.0);
        }
        let n = list.games.len();
        item(ui, n, focus.0 == n, "Back", "", &mut clicks);
        for p in &list.problems {
            ui.colored_label(ui.visuals().warn_fg_color, p);
        }
        key_hints(ui, &[("Enter", "A", "play on"), ("Tab", "X", "delete"), ("Esc", "B", "back")]);
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn when_a_game_was_played_reads_as_a_person_says_it() {
        assert_eq!(when_text(1000, 1030), "just now");
        assert_eq!(when_text(1000, 1000 + 60), "1 minute ago");
        assert_eq!(when_text(1000, 1000 + 7200), "2 hours ago");
        assert_eq!(when_text(0, 100_000), "yesterday");
        assert_eq!(when_text(0, 12 * 86_400), "12 days ago");
        assert_eq!(when_text(u64::MAX, 0), "just now", "a clock set back is not a negative time");
    }

    #[test]
    fn the_opponent_is_named_in_words() {
        assert_eq!(opponent_text(&[Player::Human, Player::Human]), "two players on this device");
        let medium = Player::Computer("medium".into());
        assert_eq!(opponent_text(&[Player::Human, medium]), "against the computer · Medium");
    }
}
