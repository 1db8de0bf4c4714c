//! Nothing a player does is lost: the match in progress is saved after every decision and offered
//! as "Continue" on the next start.

use super::match_state::CurrentMatch;
use super::settings_io::{SaveStore, StorageWarning};
use crate::save::{GameRecord, Player, RecordedMove};
use bevy::prelude::*;

/// The autosave's name in the store.
pub const AUTOSAVE: &str = "autosave.json";

pub fn plugin(app: &mut App) {
    app.add_systems(
        Startup,
        resume_autosave.run_if(|launch: Option<Res<super::Launch>>| launch.is_none_or(|l| l.load.is_none())),
    );
    // Back from a replay, the game in progress (if any) is the one to continue.
    app.add_systems(
        OnEnter(super::screen::Screen::Title),
        resume_autosave.run_if(not(resource_exists::<CurrentMatch>)),
    );
    // A replay is not a game in progress: it must never overwrite the autosave.
    app.add_systems(
        Last,
        autosave
            .run_if(resource_exists_and_changed::<CurrentMatch>.and_then(|r: Res<super::replay::Replay>| !r.active)),
    );
}

/// The record of the match in progress.
pub fn record_of(current: &CurrentMatch) -> GameRecord {
    let player = |p: Option<crate::ai::Level>| p.map_or(Player::Human, |l| Player::Computer(l.slug().to_string()));
    let players = [player(current.players[0]), player(current.players[1])];
    let mut record = GameRecord::new(current.start.as_ref(), players, current.seed, current.started_unix);
    record.start = current.start_text.clone();
    record.moves = current
        .history
        .iter()
        .enumerate()
        .map(|(i, d)| RecordedMove { decision: d.clone(), at_ms: current.times.get(i).copied().unwrap_or(0) })
        .collect();
    record.result = Some(match current.resigned {
        Some(side) => serde_json::json!({
            "winner": current.game.side_name(side.opponent()),
            "reason": "resignation",
        }),
        None => crate::games::status_json(current.game.as_ref()),
    });
    record
}

fn autosave(current: Res<CurrentMatch>, mut store: ResMut<SaveStore>, mut warning: ResMut<StorageWarning>) {
    if let Err(e) = store.0.write(AUTOSAVE, &record_of(&current).to_json()) {
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
        Ok((record, game)) if !game.status().is_over() && !resigned(&record) => {
            match super::replay::match_from_record(&record) {
                Ok(current) => commands.insert_resource(current),
                Err(e) => warning.0 = Some(format!("The saved game could not be resumed: {e}")),
            }
        }
        Ok(_) => {}
        Err(e) => warning.0 = Some(format!("The saved game could not be resumed: {e}")),
    }
}

/// The record ends with a resignation (the rules cannot tell; the result says so).
fn resigned(record: &GameRecord) -> bool {
    record.result.as_ref().and_then(|r| r.get("reason")).is_some_and(|r| r == "resignation")
}
