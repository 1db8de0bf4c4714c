//! Animations of the board, driven by the projection and the effects of the frame: new stones drop
//! in (scale up with an ease-out), removed stones lift and shrink away, each after a short beat per
//! cascade wave. The speed setting scales every duration; "off" shows the end at once. While
//! anything animates, the first press of any action skips to the end and changes nothing else.

use super::project::{BoardState, Stone, StoneGone};
use crate::app::settings_io::CurrentSettings;
use crate::app::turn::{EffectHappened, TurnSystems};
use crate::rules::EffectKind;
use crate::save::AnimationSpeed;
use bevy::prelude::*;
use std::collections::HashMap;

/// Seconds of one drop or removal at normal speed.
const DURATION: f32 = 0.28;
/// Seconds between cascade waves at normal speed.
const BEAT: f32 = 0.22;

/// A running animation on a stone.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Tween {
    pub elapsed: f32,
    pub delay: f32,
    pub duration: f32,
    pub vanish: bool,
}

impl Tween {
    fn progress(&self) -> f32 {
        ((self.elapsed - self.delay) / self.duration).clamp(0.0, 1.0)
    }
    fn done(&self) -> bool {
        self.elapsed >= self.delay + self.duration
    }
}

/// A stone that left the board and is animating out (no longer part of the projection).
#[derive(Component)]
pub struct Vanishing;

/// The wave in which each cell changed this frame (from the effects).
#[derive(Resource, Default)]
struct WaveOfCell(HashMap<u16, u16>);

pub fn plugin(app: &mut App) {
    app.init_resource::<WaveOfCell>();
    app.add_systems(Update, collect_waves.in_set(TurnSystems::EndCheck).after(crate::app::turn::end_check_system));
    app.add_systems(Update, (start_tweens, run_tweens).chain().in_set(TurnSystems::Present));
}

/// Duration multiplier of a speed setting (`None`: no animation).
pub fn speed_factor(speed: AnimationSpeed) -> Option<f32> {
    match speed {
        AnimationSpeed::Slow => Some(1.6),
        AnimationSpeed::Normal => Some(1.0),
        AnimationSpeed::Fast => Some(0.5),
        AnimationSpeed::Off => None,
    }
}

fn cells_of(kind: &EffectKind) -> Vec<u16> {
    match kind {
        EffectKind::Placed { cell, .. }
        | EffectKind::Stacked { cell, .. }
        | EffectKind::Removed { cell, .. }
        | EffectKind::Burned { cell }
        | EffectKind::Unburned { cell } => vec![*cell],
        EffectKind::Moved { from, to, .. } => vec![*from, *to],
        EffectKind::Swapped { a, b, .. } => vec![*a, *b],
        EffectKind::Hopped { path, .. } | EffectKind::Distributed { path, .. } => path.clone(),
        EffectKind::Collected { from, to, .. } => from.iter().copied().chain([*to]).collect(),
        EffectKind::Captured { cells, .. } => cells.clone(),
        _ => Vec::new(),
    }
}

fn collect_waves(mut effects: MessageReader<EffectHappened>, mut waves: ResMut<WaveOfCell>) {
    waves.0.clear();
    for e in effects.read() {
        for c in cells_of(&e.effect.kind) {
            let w = waves.0.entry(c).or_insert(0);
            *w = (*w).max(e.effect.wave);
        }
    }
}

/// Stones that started vanishing this frame.
type NewlyVanishing = (Added<Vanishing>, Without<Tween>);

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn start_tweens(
    mut commands: Commands,
    settings: Res<CurrentSettings>,
    waves: Res<WaveOfCell>,
    state: Res<BoardState>,
    added: Query<(Entity, &Stone), Added<Stone>>,
    vanishing: Query<(Entity, &StoneGone), NewlyVanishing>,
    mut transforms: Query<&mut Transform>,
    mut built_root: Local<Option<Entity>>,
) {
    // Stones of a freshly built board are simply there; only later changes animate.
    let fresh = *built_root != state.root;
    *built_root = state.root;
    let Some(factor) = speed_factor(settings.0.animation_speed) else {
        for (e, _) in &vanishing {
            commands.entity(e).despawn();
        }
        return;
    };
    for (e, stone) in &vanishing {
        let delay = waves.0.get(&stone.0).copied().unwrap_or(0) as f32 * BEAT * factor;
        commands.entity(e).insert(Tween { elapsed: 0.0, delay, duration: DURATION * factor, vanish: true });
    }
    if fresh {
        return;
    }
    for (e, stone) in &added {
        let delay = waves.0.get(&stone.cell).copied().unwrap_or(0) as f32 * BEAT * factor;
        commands.entity(e).insert(Tween { elapsed: 0.0, delay, duration: DURATION * factor, vanish: false });
        if let Ok(mut t) = transforms.get_mut(e) {
            t.scale = Vec3::splat(0.01);
        }
    }
}

fn ease_out(t: f32) -> f32 {
    1.0 - (1.0 - t).powi(3)
}

fn run_tweens(
    mut commands: Commands,
    time: Res<Time>,
    mut tweens: Query<(Entity, &mut Tween, &mut Transform)>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let dt = time.delta_secs();
    for (e, mut tween, mut t) in &mut tweens {
        tween.elapsed += dt;
        let p = ease_out(tween.progress());
        if tween.vanish {
            t.scale = Vec3::splat((1.0 - p).max(0.01));
            t.translation.y = 12.0 * p;
        } else {
            t.scale = Vec3::splat(p.max(0.01));
        }
        if tween.done() {
            if tween.vanish {
                commands.entity(e).despawn();
            } else {
                t.scale = Vec3::ONE;
                commands.entity(e).remove::<Tween>();
            }
        }
    }
    if !tweens.is_empty() {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// Ends every running animation at once (a press while animating).
pub fn finish_all(tweens: &mut Query<&mut Tween>) {
    for mut tween in tweens.iter_mut() {
        tween.elapsed = tween.delay + tween.duration;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tweens_wait_for_their_wave_then_finish() {
        let mut t = Tween { elapsed: 0.0, delay: 0.2, duration: 0.3, vanish: false };
        assert_eq!(t.progress(), 0.0);
        t.elapsed = 0.35;
        assert!((t.progress() - 0.5).abs() < 1e-6);
        assert!(!t.done());
        t.elapsed = 0.5;
        assert!(t.done());
        assert_eq!(speed_factor(AnimationSpeed::Off), None);
        assert!(speed_factor(AnimationSpeed::Slow) > speed_factor(AnimationSpeed::Fast));
    }
}
