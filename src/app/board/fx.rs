//! Animations of the board, driven by the projection and the effects of the frame: new pieces
//! (and new pieces on a stack) drop in (scale up with an ease-out), removed ones lift and shrink
//! away, each after a short beat per cascade wave. The speed setting scales every duration; "off"
//! shows the end at once. While anything animates, the first press of any action skips to the end
//! and changes nothing else, and `BoardAnimating` says so to the other features.

use super::project::{BoardState, Piece, StackPiece, Vanishing};
use crate::app::AppSystems;
use crate::app::playing::{BoardAnimating, EffectHappened};
use crate::app::settings::CurrentSettings;
use crate::rules::EffectKind;
use crate::save::AnimationSpeed;
use bevy::prelude::*;
use std::collections::HashMap;

/// Seconds of a piece dropping in at normal speed.
const DROP: f32 = 0.15;
/// Seconds of a piece lifting away (a capture, a removal) at normal speed.
const LIFT: f32 = 0.3;
/// Seconds between cascade waves at normal speed.
pub const BEAT: f32 = 0.25;

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

/// The wave in which each cell changed this frame (from the effects).
#[derive(Resource, Default)]
struct WaveOfCell(HashMap<u16, u16>);

pub fn plugin(app: &mut App) {
    app.init_resource::<WaveOfCell>();
    app.add_systems(Update, collect_waves.in_set(AppSystems::Project));
    app.add_systems(Update, (start_tweens, run_tweens, tell_animating).chain().in_set(AppSystems::Present));
    app.add_systems(OnExit(crate::app::screen::Screen::Playing), |mut a: ResMut<BoardAnimating>| {
        a.set_if_neq(BoardAnimating(false));
    });
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

/// Pieces that started vanishing this frame.
type NewlyVanishing = (Added<Vanishing>, Without<Tween>);

/// The cell of a piece of a stack (its stack's cell).
fn stack_cell(piece: Entity, parents: &Query<&ChildOf>, pieces: &Query<&Piece>) -> Option<u16> {
    parents.get(piece).ok().and_then(|parent| pieces.get(parent.parent()).ok()).map(|p| p.cell)
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn start_tweens(
    mut commands: Commands,
    settings: Res<CurrentSettings>,
    waves: Res<WaveOfCell>,
    state: Res<BoardState>,
    added: Query<(Entity, &Piece), Added<Piece>>,
    added_levels: Query<Entity, Added<StackPiece>>,
    (parents, pieces): (Query<&ChildOf>, Query<&Piece>),
    vanishing: Query<(Entity, &Vanishing), NewlyVanishing>,
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
    let delay_at = |cell: u16| waves.0.get(&cell).copied().unwrap_or(0) as f32 * BEAT * factor;
    for (e, gone) in &vanishing {
        commands.entity(e).insert(Tween {
            elapsed: 0.0,
            delay: delay_at(gone.cell),
            duration: LIFT * factor,
            vanish: true,
        });
    }
    if fresh {
        return;
    }
    // A new piece drops in; so does a piece added on top of a stack that was already there.
    let new_pieces = added.iter().map(|(e, piece)| (e, piece.cell));
    let new_levels = added_levels
        .iter()
        .filter(|e| parents.get(*e).is_ok_and(|p| !added.contains(p.parent())))
        .filter_map(|e| stack_cell(e, &parents, &pieces).map(|cell| (e, cell)));
    for (e, cell) in new_pieces.chain(new_levels).collect::<Vec<_>>() {
        commands.entity(e).insert(Tween {
            elapsed: 0.0,
            delay: delay_at(cell),
            duration: DROP * factor,
            vanish: false,
        });
        if let Ok(mut t) = transforms.get_mut(e) {
            t.scale = Vec3::splat(0.01);
        }
    }
}

/// Tells the other features whether the board is animating.
fn tell_animating(tweens: Query<(), With<Tween>>, mut animating: ResMut<BoardAnimating>) {
    animating.set_if_neq(BoardAnimating(!tweens.is_empty()));
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
