//! The screens of the game as one state machine.

use super::Launch;
use bevy::prelude::*;

/// Which screen is showing.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    #[default]
    Title,
    Setup,
    Settings,
    Playing,
    /// The list of named saves.
    Saves,
}

pub fn plugin(app: &mut App) {
    app.init_state::<Screen>();
    app.add_systems(Startup, apply_launch);
    app.add_systems(Update, log_screen_changes.run_if(state_changed::<Screen>));
    app.add_systems(Update, drop_stale_input.run_if(state_changed::<Screen>).before(super::AppSystems::RecordInput));
}

/// Presses made for the screen that just closed must not act on the new one: a screen's input
/// system that did not run while it was closed would otherwise read them late.
fn drop_stale_input(
    mut actions: ResMut<Messages<super::input::ActionPressed>>,
    mut clicks: ResMut<Messages<super::menus::MenuClicked>>,
    (mut cells, mut drags): (ResMut<Messages<super::board::CellChosen>>, ResMut<Messages<super::board::DragChosen>>),
) {
    actions.clear();
    clicks.clear();
    cells.clear();
    drags.clear();
}

/// `stoneyard play --game X` opens that game's setup screen directly; `--load FILE` its replay.
fn apply_launch(
    mut commands: Commands,
    launch: Option<Res<Launch>>,
    mut setup: ResMut<super::menus::SetupChoice>,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(record) = launch.as_ref().and_then(|l| l.load.as_ref()) {
        // The record was checked when it was read; a failure here is still reported, not fatal.
        match super::replay::open_record(record) {
            Ok((current, replay)) => {
                commands.insert_resource(current);
                commands.insert_resource(replay);
                next.set(Screen::Playing);
            }
            Err(e) => error!("the record cannot be opened: {e}"),
        }
        return;
    }
    if let Some(launch) = launch
        && let Some(kind) = launch.game
    {
        setup.select(kind, &launch.options);
        setup.players = [None, launch.opponent];
        next.set(Screen::Setup);
    }
}

fn log_screen_changes(screen: Res<State<Screen>>) {
    debug!("screen: {:?}", screen.get());
}
