//! The title screen: the five games, learn, continue, play online, saved games, settings, quit.

use super::continue_games::GamesInProgress;
use super::setup::SetupChoice;
use crate::app::AppSystems;
use crate::app::input::ActionPressed;
use crate::app::lesson_state::LearnChoice;
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::app::ui::{
    MENU_CONTROLS, MenuClicked, MenuFocus, MenuInput, item, item_with_picture, key_hints, paint_board,
    read_menu_inputs, reset_focus, screen_frame, screen_frame_of_width,
};
use crate::games::GameKind;
use crate::rules::BoardView;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The items of the title menu, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TitleItem {
    Continue,
    Game(GameKind),
    Learn,
    Online,
    Saves,
    Settings,
    // The browser has no "quit": the tab is closed instead.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    Quit,
}

/// The title items; "Continue" only while a game is in progress.
fn title_items(has_games: bool) -> Vec<TitleItem> {
    let mut items = Vec::new();
    if has_games {
        items.push(TitleItem::Continue);
    }
    items.extend(GameKind::all().map(TitleItem::Game));
    items.push(TitleItem::Learn);
    items.push(TitleItem::Online);
    items.push(TitleItem::Saves);
    items.push(TitleItem::Settings);
    #[cfg(not(target_arch = "wasm32"))]
    items.push(TitleItem::Quit);
    items
}

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Title), reset_focus);
    app.add_systems(Update, title_input.in_set(AppSystems::Menus).run_if(in_state(Screen::Title)));
    app.add_systems(EguiPrimaryContextPass, draw_title.run_if(in_state(Screen::Title)));
}

fn title_input(
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    games: Res<GamesInProgress>,
    (mut setup, mut learn): (ResMut<SetupChoice>, ResMut<LearnChoice>),
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) {
    let items = title_items(!games.games.is_empty());
    for input in read_menu_inputs(&mut focus, items.len(), &mut actions, &mut clicks) {
        let MenuInput::Activate(i) = input else { continue };
        match items[i] {
            TitleItem::Continue => next.set(Screen::Continue),
            TitleItem::Game(kind) => {
                setup.select(kind, &[]);
                next.set(Screen::Setup);
            }
            TitleItem::Learn => {
                *learn = LearnChoice::default();
                next.set(Screen::Learn);
            }
            TitleItem::Online => next.set(Screen::Online),
            TitleItem::Saves => next.set(Screen::Saves),
            TitleItem::Settings => next.set(Screen::Settings),
            TitleItem::Quit => {
                exit.write(AppExit::Success);
            }
        }
    }
}

/// The board each game card shows: the first example of its rules (the goal's), drawn by the game
/// itself.
fn card_picture(kind: GameKind) -> Option<BoardView> {
    let ill = kind.rules.examples().next()?;
    let options: Vec<(String, String)> = ill.options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Some(kind.open(&options, Some(ill.position)).ok()?.board_view())
}

/// Whether the title lays its games and its menu out side by side: a landscape window wide enough
/// for two columns of cards.
fn two_columns(width: f32, height: f32) -> bool {
    width >= 900.0 && width > height
}

/// What the title's cards are drawn from.
struct TitleLook<'a> {
    games: &'a GamesInProgress,
    pictures: &'a [(GameKind, Option<BoardView>)],
    theme: crate::save::Theme,
    focus: usize,
}

impl TitleLook<'_> {
    /// The card of item `i`, its game's picture `side` pixels square.
    fn item(&self, ui: &mut egui::Ui, i: usize, it: TitleItem, side: f32, clicks: &mut MessageWriter<MenuClicked>) {
        let focused = self.focus == i;
        match it {
            TitleItem::Game(kind) => {
                let picture = self.pictures.iter().find(|(k, _)| *k == kind).and_then(|(_, v)| v.as_ref());
                let detail = format!("{}\nby {}", kind.tagline, kind.designer);
                let draw = |ui: &mut egui::Ui| match picture {
                    Some(view) => paint_board(ui, view, kind, self.theme, side, &[]),
                    None => {
                        ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
                    }
                };
                item_with_picture(ui, i, focused, (kind.name(), &detail), draw, clicks);
            }
            TitleItem::Continue => {
                let detail = match self.games.games.as_slice() {
                    [one] => format!("Your game of {} in progress", one.game.name()),
                    [latest, ..] => {
                        format!("{} games in progress, the latest {}", self.games.games.len(), latest.game.name())
                    }
                    [] => String::new(),
                };
                item(ui, i, focused, "Continue", &detail, clicks);
            }
            TitleItem::Learn => item(ui, i, focused, "Learn", "Short lessons on the board teach each game", clicks),
            TitleItem::Online => {
                item(ui, i, focused, "Play online", "Find an opponent, watch a game, or invite a friend", clicks)
            }
            TitleItem::Saves => item(ui, i, focused, "Saved games", "Your saves, every finished game, records", clicks),
            TitleItem::Settings => item(ui, i, focused, "Settings", "Sound, animation, colours, keys", clicks),
            TitleItem::Quit => item(ui, i, focused, "Quit", "", clicks),
        }
    }
}

/// Which build this is, small at the foot of the title (what a player quotes in a report).
fn version_line(ui: &mut egui::Ui) {
    ui.add_space(4.0);
    let words = format!("Version {}", crate::version::version_text());
    ui.label(egui::RichText::new(words).size(crate::app::theme::text_size::SMALL).weak());
}

fn draw_title(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    games: Res<GamesInProgress>,
    settings: Res<CurrentSettings>,
    mut clicks: MessageWriter<MenuClicked>,
    mut pictures: Local<Vec<(GameKind, Option<BoardView>)>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if pictures.is_empty() {
        *pictures = GameKind::all().map(|k| (k, card_picture(k))).collect();
    }
    let items = title_items(!games.games.is_empty());
    let look = TitleLook { games: &games, pictures: &pictures, theme: settings.0.theme, focus: focus.0 };
    let screen = ctx.viewport_rect();
    if two_columns(screen.width(), screen.height()) {
        // Landscape: the five games on the left, the rest of the menu on the right, all on one
        // screen without scrolling.
        let width = (screen.width() - 48.0).min(1040.0);
        screen_frame_of_width(ctx, width, "Stoneyard", "Five abstract strategy games", |ui| {
            let side = ((screen.height() - 230.0) / 5.0 - 30.0).clamp(56.0, 88.0);
            ui.columns(2, |columns| {
                for (i, it) in items.iter().enumerate() {
                    let column = if matches!(it, TitleItem::Game(_)) { 0 } else { 1 };
                    look.item(&mut columns[column], i, *it, side, &mut clicks);
                }
                // Under the menu's last item: the right column has room to spare.
                version_line(&mut columns[1]);
            });
            key_hints(ui, MENU_CONTROLS);
        });
        return Ok(());
    }
    screen_frame(ctx, "Stoneyard", "Five abstract strategy games", |ui| {
        // The pictures shrink on a narrow screen so the words keep room.
        let side = (ui.available_width() * 0.22).clamp(64.0, 104.0);
        for (i, it) in items.iter().enumerate() {
            look.item(ui, i, *it, side, &mut clicks);
        }
        key_hints(ui, MENU_CONTROLS);
        version_line(ui);
    });
    Ok(())
}
