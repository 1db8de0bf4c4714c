//! The title screen: the five games, continue, saved games, settings, quit.

use super::setup::SetupChoice;
use crate::app::AppSystems;
use crate::app::input::ActionPressed;
use crate::app::match_state::CurrentMatch;
use crate::app::screen::Screen;
use crate::app::ui::{MenuClicked, MenuFocus, MenuInput, item, key_hints, read_menu_inputs, reset_focus, screen_frame};
use crate::games::GameKind;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// The items of the title menu, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TitleItem {
    Continue,
    Game(GameKind),
    Saves,
    Settings,
    // The browser has no "quit": the tab is closed instead.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    Quit,
}

/// The title items; "Continue" only while a game is in progress.
fn title_items(has_match: bool) -> Vec<TitleItem> {
    let mut items = Vec::new();
    if has_match {
        items.push(TitleItem::Continue);
    }
    items.extend(GameKind::all().map(TitleItem::Game));
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
    current: Option<Res<CurrentMatch>>,
    mut setup: ResMut<SetupChoice>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) {
    let items = title_items(current.is_some());
    for input in read_menu_inputs(&mut focus, items.len(), &mut actions, &mut clicks) {
        let MenuInput::Activate(i) = input else { continue };
        match items[i] {
            TitleItem::Continue => next.set(Screen::Playing),
            TitleItem::Game(kind) => {
                setup.select(kind, &[]);
                next.set(Screen::Setup);
            }
            TitleItem::Saves => next.set(Screen::Saves),
            TitleItem::Settings => next.set(Screen::Settings),
            TitleItem::Quit => {
                exit.write(AppExit::Success);
            }
        }
    }
}

fn draw_title(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    current: Option<Res<CurrentMatch>>,
    mut clicks: MessageWriter<MenuClicked>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let items = title_items(current.is_some());
    screen_frame(ctx, "Stoneyard", "Five abstract strategy games", |ui| {
        for (i, it) in items.iter().enumerate() {
            let (label, detail) = match it {
                TitleItem::Continue => ("Continue".to_string(), "Back to the game in progress".to_string()),
                TitleItem::Game(kind) => (kind.name().to_string(), format!("by {} — {}", kind.designer, kind.tagline)),
                TitleItem::Saves => ("Saved games".to_string(), "Continue, replay or delete".to_string()),
                TitleItem::Settings => ("Settings".to_string(), String::new()),
                TitleItem::Quit => ("Quit".to_string(), String::new()),
            };
            item(ui, i, focus.0 == i, &label, &detail, &mut clicks);
        }
        key_hints(ui, "Arrows or D-pad: choose    Enter or A button: select    Esc or B button: back");
    });
    Ok(())
}
