//! bevy_kira_audio: sound on three channels whose volumes follow the settings.

use crate::app::settings::CurrentSettings;
use bevy::prelude::*;
use bevy_kira_audio::prelude::*;

/// Game effects (placements, captures, burns).
#[derive(Resource)]
pub struct EffectsChannel;
/// Menu navigation sounds.
#[derive(Resource)]
pub struct UiChannel;
/// Background music.
#[derive(Resource)]
pub struct MusicChannel;

pub fn plugin(app: &mut App) {
    app.add_plugins(AudioPlugin);
    app.add_audio_channel::<EffectsChannel>().add_audio_channel::<UiChannel>().add_audio_channel::<MusicChannel>();
    app.add_systems(Update, apply_volumes);
}

fn apply_volumes(
    settings: Res<CurrentSettings>,
    effects: Res<AudioChannel<EffectsChannel>>,
    ui: Res<AudioChannel<UiChannel>>,
    music: Res<AudioChannel<MusicChannel>>,
) {
    if !settings.is_changed() {
        return;
    }
    let s = &settings.0;
    let master = if s.muted { 0.0 } else { s.master_volume as f64 };
    effects.set_volume(amplitude_to_db(master * s.effects_volume as f64));
    ui.set_volume(amplitude_to_db(master * s.effects_volume as f64));
    music.set_volume(amplitude_to_db(master * s.music_volume as f64));
}

/// Kira volumes are in decibels; settings are linear amplitudes 0..1 (0 = silent).
fn amplitude_to_db(a: f64) -> f32 {
    if a <= 0.0001 { -80.0 } else { (20.0 * a.log10()) as f32 }
}
