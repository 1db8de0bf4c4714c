//! Nothing a player does is lost: every game in progress is kept in its own slot after every
//! decision and listed under Continue; starting another game never discards one, and a finished
//! game leaves the list by itself and joins the finished games' history (online games too).
//! Lessons and practice positions are not kept.

use super::match_state::CurrentMatch;
use super::playing::Replay;
use super::settings::{SaveStore, StorageWarning};
use crate::save::{GameRecord, keep_finished, keep_game, new_game_key};
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    // A replay is not a game in progress: it must never be kept as one.
    app.add_systems(
        Last,
        keep_current_game.run_if(resource_exists_and_changed::<CurrentMatch>.and_then(|r: Res<Replay>| !r.active)),
    );
}

fn keep_current_game(
    mut current: ResMut<CurrentMatch>,
    mut store: ResMut<SaveStore>,
    mut warning: ResMut<StorageWarning>,
    mut last_saved_ms: Local<u64>,
    mut kept_finished: Local<Option<GameRecord>>,
) {
    // A lesson or a practice position is not a game of the player's: neither in progress nor finished.
    if current.exercise {
        return;
    }
    let record = current.record();
    let clock_ms = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    // Strictly later than the last save, so games played one after another within a millisecond
    // are still listed in the order they were played.
    let now_ms = clock_ms.max(*last_saved_ms + 1);
    if current.is_over() && kept_finished.as_ref() != Some(&record) {
        if let Err(e) = keep_finished(&mut store.0, &record, now_ms) {
            warn!("{e}");
            warning.0 = Some(e.to_string());
        }
        *kept_finished = Some(record.clone());
    }
    // An online game is kept by the server (and its seat by the online feature), not here.
    if current.remote.is_some() {
        return;
    }
    let key = match &current.slot {
        Some(key) => key.clone(),
        // A match with no decision yet is not worth a slot.
        None if record.moves.is_empty() => return,
        None => match new_game_key(&store.0, &record) {
            Ok(key) => {
                // Where it is kept is not a change of the match (nothing to draw or save again).
                current.bypass_change_detection().slot = Some(key.clone());
                key
            }
            Err(e) => {
                warning.0 = Some(e.to_string());
                return;
            }
        },
    };
    *last_saved_ms = now_ms;
    if let Err(e) = keep_game(&mut store.0, &key, &record, now_ms) {
        warn!("{e}");
        warning.0 = Some(e.to_string());
    }
}
