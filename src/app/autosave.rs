//! Nothing a player does is lost: the match in progress is saved after every decision and offered
//! as "Continue" on the next start.

use super::Launch;
use super::match_state::CurrentMatch;
use super::playing::Replay;
use super::screen::Screen;
use super::settings::{SaveStore, StorageWarning};
use crate::save::GameRecord;
use bevy::prelude::*;

/// The autosave's name in the store.
pub const AUTOSAVE: &str = "autosave.json";

pub fn plugin(app: &mut App) {
    app.add_systems(
        Startup,
        resume_autosave.run_if(|launch: Option<Res<Launch>>| launch.is_none_or(|l| l.load.is_none())),
    );
    // Back from a replay, the game in progress (if any) is the one to continue.
    app.add_systems(OnEnter(Screen::Title), resume_autosave.run_if(not(resource_exists::<CurrentMatch>)));
    // A replay is not a game in progress: it must never overwrite the autosave.
    app.add_systems(
        Last,
        autosave.run_if(resource_exists_and_changed::<CurrentMatch>.and_then(|r: Res<Replay>| !r.active)),
    );
}

fn autosave(current: Res<CurrentMatch>, mut store: ResMut<SaveStore>, mut warning: ResMut<StorageWarning>) {
    if let Err(e) = store.0.write(AUTOSAVE, &current.record().to_json()) {
        warn!("{e}");
        warning.0 = Some(e.to_string());
    }
}

fn resume_autosave(mut commands: Commands, store: Res<SaveStore>, mut warning: ResMut<StorageWarning>) {
    let text = match store.0.read(AUTOSAVE) {
        Ok(Some(text)) => text,
        Ok(None) => return,
        Err(e) => {
            warning.0 = Some(e.to_string());
            return;
        }
    };
    match GameRecord::from_json(&text).and_then(|r| r.replay(None).map(|g| (r, g))) {
        Ok((record, game)) if !game.status().is_over() && !CurrentMatch::record_resigned(&record) => {
            match CurrentMatch::from_record(&record) {
                Ok(current) => commands.insert_resource(current),
                Err(e) => warning.0 = Some(format!("The saved game could not be resumed: {e}")),
            }
        }
        Ok(_) => {}
        Err(e) => warning.0 = Some(format!("The saved game could not be resumed: {e}")),
    }
}
