//! Sound: every effect, refusal, turn change, game end and menu action plays its cue on the right
//! channel (effects or UI), at the volumes of the settings. The cues and the music are synthesised
//! by `crate::synth` at start-up (tens of milliseconds): no sound files and no decoder in the
//! download.

use super::AppSystems;
use super::input::{Action, ActionPressed};
use super::match_state::CurrentMatch;
use super::playing::{DecisionRefused, EffectHappened};
use super::third_party::{EffectsChannel, MusicChannel, UiChannel};
use crate::rules::{EffectKind, Outcome};
use crate::synth::{Cue, SAMPLE_RATE, render, render_music};
use bevy::prelude::*;
use bevy_kira_audio::prelude::*;
use std::collections::HashMap;

/// The synthesised cues.
#[derive(Resource, Default)]
struct Sounds(HashMap<Cue, Handle<AudioSource>>);

/// Capture sizes get their own cue up to this size (larger ones share the last); the same
/// number as `examples/make_sounds.rs` (which writes the cues to WAV files for listening).
const CAPTURE_SIZES: u16 = 12;

pub fn plugin(app: &mut App) {
    app.init_resource::<Sounds>();
    app.add_systems(Startup, (load_sounds, start_music));
    app.add_systems(Update, (effect_sounds, refused_sound).in_set(AppSystems::Present));
    app.add_systems(Update, ui_sounds.in_set(AppSystems::Menus));
}

/// A sound of mono samples at the synthesiser's rate.
fn sound_of(samples: Vec<f32>) -> AudioSource {
    let frames: std::sync::Arc<[Frame]> = samples.into_iter().map(Frame::from_mono).collect();
    AudioSource {
        sound: StaticSoundData { sample_rate: SAMPLE_RATE, frames, settings: Default::default(), slice: None },
    }
}

/// The background music loops quietly on its own channel from the start (its volume, and mute,
/// are in the settings; at volume 0 nothing is heard).
fn start_music(mut assets: ResMut<Assets<AudioSource>>, channel: Res<AudioChannel<MusicChannel>>) {
    channel.play(assets.add(sound_of(render_music()))).looped();
}

fn load_sounds(mut sounds: ResMut<Sounds>, mut assets: ResMut<Assets<AudioSource>>) {
    for cue in Cue::all(CAPTURE_SIZES) {
        sounds.0.insert(cue, assets.add(sound_of(render(cue))));
    }
}

/// The cue of an effect (`None` for effects that are heard through another one).
fn cue_for(effect: &EffectKind) -> Option<Cue> {
    Some(match effect {
        EffectKind::Placed { .. } => Cue::Place,
        EffectKind::Stacked { .. } | EffectKind::Collected { .. } | EffectKind::Distributed { .. } => Cue::Stack,
        EffectKind::Moved { .. } | EffectKind::Hopped { .. } => Cue::Hop,
        EffectKind::Captured { cells, .. } => Cue::Capture((cells.len() as u16).clamp(1, CAPTURE_SIZES)),
        EffectKind::Removed { count, .. } => Cue::Capture((*count).clamp(1, CAPTURE_SIZES)),
        EffectKind::Burned { .. } => Cue::Burn,
        EffectKind::Swapped { .. } => Cue::Swap,
        EffectKind::PieSwap { .. } => Cue::Pie,
        EffectKind::Passed { .. } => Cue::TurnChange,
        EffectKind::GameOver { outcome: Outcome::Draw } => Cue::Draw,
        EffectKind::GameOver { .. } => Cue::Win,
        EffectKind::Unburned { .. } | EffectKind::Scored { .. } | EffectKind::Rescued { .. } => return None,
    })
}

fn effect_sounds(
    mut effects: MessageReader<EffectHappened>,
    sounds: Res<Sounds>,
    channel: Res<AudioChannel<EffectsChannel>>,
    current: Option<Res<CurrentMatch>>,
) {
    let mut last_wave = None;
    let mut any = false;
    for e in effects.read() {
        any = true;
        let Some(mut cue) = cue_for(&e.effect.kind) else { continue };
        // Against the computer or online the person hears whether they won or lost.
        if let (EffectKind::GameOver { outcome: Outcome::Winner(side) }, Some(m)) = (&e.effect.kind, current.as_deref())
            && ((m.player_of(*side).is_some() && m.players.iter().any(Option::is_none)) || m.is_remote(*side))
        {
            cue = Cue::Lose;
        }
        // Each later cascade round adds its own "round" cue.
        let wave = e.effect.wave;
        if wave > 0
            && last_wave != Some(wave)
            && let Some(h) = sounds.0.get(&Cue::Cascade)
        {
            channel.play(h.clone());
        }
        last_wave = Some(wave);
        if let Some(h) = sounds.0.get(&cue) {
            channel.play(h.clone());
        }
    }
    if any
        && current.is_some_and(|m| !m.is_over())
        && let Some(h) = sounds.0.get(&Cue::TurnChange)
    {
        channel.play(h.clone());
    }
}

fn refused_sound(
    mut refused: MessageReader<DecisionRefused>,
    sounds: Res<Sounds>,
    channel: Res<AudioChannel<UiChannel>>,
) {
    if refused.read().next().is_some() {
        refused.clear();
        if let Some(h) = sounds.0.get(&Cue::Illegal) {
            channel.play(h.clone());
        }
    }
}

fn ui_sounds(mut actions: MessageReader<ActionPressed>, sounds: Res<Sounds>, channel: Res<AudioChannel<UiChannel>>) {
    for ActionPressed(a) in actions.read() {
        let cue = match a {
            Action::Up | Action::Down | Action::Left | Action::Right => Cue::UiMove,
            Action::Select | Action::Back | Action::Confirm => Cue::UiSelect,
            _ => continue,
        };
        if let Some(h) = sounds.0.get(&cue) {
            channel.play(h.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cue_and_the_music_become_an_audible_sound() {
        let sounds = Cue::all(CAPTURE_SIZES).into_iter().map(render).chain([render_music()]);
        for (i, samples) in sounds.enumerate() {
            let sound = sound_of(samples).sound;
            let seconds = sound.frames.len() as f64 / f64::from(sound.sample_rate);
            assert!(seconds > 0.02 && seconds < 30.0, "sound {i}: {seconds} s");
            let loudest = sound.frames.iter().map(|f| f.left.abs()).fold(0.0, f32::max);
            assert!(loudest > 0.01 && loudest <= 1.0, "sound {i}: peak {loudest}");
        }
    }
}
