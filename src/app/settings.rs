//! The player's settings as a resource (loaded at start-up, saved whenever they change) and the
//! store that keeps settings and games (files natively, localStorage in the browser).

use crate::save::{Settings, Store};
use bevy::prelude::*;

/// The player's settings in effect.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct CurrentSettings(pub Settings);

/// Where settings (and later records) are kept. Tests insert `Store::memory()` before the plugin.
#[derive(Resource, Debug, Clone)]
pub struct SaveStore(pub Store);

/// A problem with saved data the player should hear about (shown by the HUD).
#[derive(Resource, Debug, Clone, Default)]
pub struct StorageWarning(pub Option<String>);

pub fn plugin(app: &mut App) {
    if !app.world().contains_resource::<SaveStore>() {
        app.insert_resource(SaveStore(Store::platform()));
    }
    let (settings, warning) = app.world_mut().resource_mut::<SaveStore>().0.load_settings();
    if let Some(w) = &warning {
        warn!("{w}");
    }
    app.insert_resource(CurrentSettings(settings));
    app.insert_resource(StorageWarning(warning));
    app.add_systems(Last, save_changed_settings);
}

fn save_changed_settings(
    settings: Res<CurrentSettings>,
    mut store: ResMut<SaveStore>,
    mut warning: ResMut<StorageWarning>,
) {
    if settings.is_changed()
        && !settings.is_added()
        && let Err(e) = store.0.save_settings(&settings.0)
    {
        warn!("{e}");
        warning.0 = Some(e.to_string());
    }
}
