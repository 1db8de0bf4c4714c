//! The app driven headless by actions alone: menus, settings, screens.
#![cfg(feature = "app")]

mod common;

use common::{headless_app, press, screen};
use stoneyard::app::input::Action::*;
use stoneyard::app::menus::SetupChoice;
use stoneyard::app::screen::Screen;
use stoneyard::app::settings_io::{CurrentSettings, SaveStore};
use stoneyard::games::GameKind;
use stoneyard::save::Theme;

#[test]
fn starts_on_the_title_screen() {
    let app = headless_app();
    assert_eq!(screen(&app), Screen::Title);
}

#[test]
fn keyboard_alone_reaches_each_games_setup_screen() {
    for (index, kind) in GameKind::ALL.into_iter().enumerate() {
        let mut app = headless_app();
        let mut presses = vec![Down; index];
        presses.push(Select);
        press(&mut app, &presses);
        assert_eq!(screen(&app), Screen::Setup, "{kind}");
        assert_eq!(app.world().resource::<SetupChoice>().kind, kind);
        press(&mut app, &[Back]);
        assert_eq!(screen(&app), Screen::Title);
    }
}

#[test]
fn menu_focus_wraps_around() {
    let mut app = headless_app();
    // Up from the first item wraps to the last ones: Settings is second to last on native.
    press(&mut app, &[Up, Up, Select]);
    assert_eq!(screen(&app), Screen::Settings);
}

#[test]
fn settings_change_with_actions_and_are_saved() {
    let mut app = headless_app();
    press(&mut app, &[Up, Up, Select]);
    assert_eq!(screen(&app), Screen::Settings);
    // Rows: master, effects, music, mute, speed, theme, … ; go to theme and step right.
    press(&mut app, &[Down, Down, Down, Down, Down, Right]);
    assert_eq!(app.world().resource::<CurrentSettings>().0.theme, Theme::Night);
    let (saved, warning) = app.world_mut().resource_mut::<SaveStore>().0.load_settings();
    assert_eq!(warning, None);
    assert_eq!(saved.theme, Theme::Night);
    press(&mut app, &[Back]);
    assert_eq!(screen(&app), Screen::Title);
}
