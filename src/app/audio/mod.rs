//! Sound: the timeline's cues (each wave of effects when it is drawn, one capture sound a wave),
//! refusals and menu actions play on the right channel (effects or UI), at the volumes of the
//! settings. The cues and the music are synthesised
//! by `crate::synth` at start-up (tens of milliseconds): no sound files and no decoder in the
//! download.

use super::AppSystems;
use super::input::{Action, ActionPressed};
use super::playing::DecisionRefused;
use super::third_party::{EffectsChannel, MusicChannel, UiChannel};
use super::timeline::{CAPTURE_SIZES, StartsOnTimeline, Timeline};
use crate::synth::{Cue, SAMPLE_RATE, render, render_music};
use bevy::prelude::*;
use bevy_kira_audio::prelude::*;
use std::collections::HashMap;

/// The synthesised cues.
#[derive(Resource, Default)]
struct Sounds(HashMap<Cue, Handle<AudioSource>>);

pub fn plugin(app: &mut App) {
    app.init_resource::<Sounds>();
    app.add_systems(Startup, (load_sounds, start_music));
    app.add_systems(Update, (effect_sounds.after(StartsOnTimeline), refused_sound).in_set(AppSystems::Present));
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

/// The sounds of the timeline that are due: each wave's when it is drawn.
fn effect_sounds(mut timeline: ResMut<Timeline>, sounds: Res<Sounds>, channel: Res<AudioChannel<EffectsChannel>>) {
    for cue in timeline.due_sounds() {
        if let Some(h) = sounds.0.get(&cue) {
            channel.play(h.clone());
        }
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
