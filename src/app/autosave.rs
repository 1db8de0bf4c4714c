//! Nothing a player does is lost: every game in progress is kept in its own slot after every
//! decision and listed under Continue; starting another game never discards one, and a finished
//! game leaves the list by itself and joins the finished games' history (online games too).
//! Lessons and practice positions are not kept.

use super::match_state::CurrentMatch;
use super::playing::Replay;
use super::settings::{SaveStore, StorageWarning};
use crate::save::{RecordedMove, add_to_game, keep_finished, keep_game, new_game_key};
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    // A replay is not a game in progress: it must never be kept as one.
    app.add_systems(
        Last,
        keep_current_game.run_if(resource_exists_and_changed::<CurrentMatch>.and_then(|r: Res<Replay>| !r.active)),
    );
}

/// What the game's file holds: the match it was written from (its id), who played and its seed,
/// and the serials of its decisions (`Match::serial`), so the next save adds only what is new.
struct Written {
    key: String,
    match_id: u64,
    players: [Option<crate::ai::Level>; 2],
    seed: u64,
    serials: Vec<u64>,
}

fn keep_current_game(
    mut current: ResMut<CurrentMatch>,
    mut store: ResMut<SaveStore>,
    mut warning: ResMut<StorageWarning>,
    mut last_saved_ms: Local<u64>,
    mut kept_finished: Local<Option<(u64, u64)>>,
    mut written: Local<Option<Written>>,
) {
    // A lesson or a practice position is not a game of the player's: neither in progress nor finished.
    if current.exercise {
        return;
    }
    let clock_ms = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    // Strictly later than the last save, so games played one after another within a millisecond
    // are still listed in the order they were played.
    let now_ms = clock_ms.max(*last_saved_ms + 1);
    let version = current.session.version();
    if current.is_over() {
        if *kept_finished != Some(version) {
            if let Err(e) = keep_finished(&mut store.0, &current.record(), now_ms) {
                warn!("{e}");
                warning.0 = Some(e.to_string());
            }
            *kept_finished = Some(version);
            // A finished game leaves the games in progress (an online one was never among them).
            *written = None;
            if let Some(key) = current.slot.as_ref().filter(|_| current.remote.is_none())
                && let Err(e) = store.0.remove(key)
            {
                warn!("{e}");
                warning.0 = Some(e.to_string());
            }
        }
        return;
    }
    // An online game is kept by the server (and its seat by the online feature), not here.
    if current.remote.is_some() {
        return;
    }
    let key = match &current.slot {
        Some(key) => key.clone(),
        // A match with no decision yet is not worth a slot.
        None if current.is_empty() => return,
        None => match new_game_key(&store.0, &current.record()) {
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
    let serials = |current: &CurrentMatch, from: usize| -> Vec<u64> {
        (from..current.len()).filter_map(|i| current.session.serial(i)).collect()
    };
    let same_game =
        |w: &Written| w.key == key && w.match_id == version.0 && w.players == current.players && w.seed == current.seed;
    let saved = match written.as_mut().filter(|w| same_game(w)) {
        // The file has this game: only what changed since is added.
        Some(w) => {
            let kept = current.session.common_prefix(&w.serials);
            if kept == w.serials.len() && kept == current.len() {
                return;
            }
            let new: Vec<RecordedMove> = current.session.played()[kept..]
                .iter()
                .map(|p| RecordedMove { decision: p.decision.clone(), at_ms: p.at_ms })
                .collect();
            let had = w.serials.len();
            w.serials.truncate(kept);
            w.serials.extend(serials(&current, kept));
            // A file gone or unwritable since (removed by hand): written whole again.
            add_to_game(&mut store.0, &key, had, kept, &new, now_ms)
                .or_else(|_| keep_game(&mut store.0, &key, &current.record(), now_ms))
        }
        // A game new to the file (or loaded from it): written whole once.
        None => {
            *written = Some(Written {
                key: key.clone(),
                match_id: version.0,
                players: current.players,
                seed: current.seed,
                serials: serials(&current, 0),
            });
            keep_game(&mut store.0, &key, &current.record(), now_ms)
        }
    };
    *last_saved_ms = now_ms;
    if let Err(e) = saved {
        warn!("{e}");
        warning.0 = Some(e.to_string());
        // What the file holds is not known now: the next save writes it whole.
        *written = None;
    }
}
