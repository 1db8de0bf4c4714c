//! Animations of the board, driven by the projection and the effects of the frame: new pieces
//! (and new pieces on a stack) drop in (scale up with an ease-out), removed ones lift and shrink
//! away, each when its cascade wave starts on the timeline (`app::timeline`). The speed setting
//! scales every duration; "off" shows the end at once. A skip of the timeline ends them.

use super::project::{BoardState, Piece, StackPiece, Vanishing};
use crate::app::AppSystems;
use crate::app::playing::EffectHappened;
use crate::app::settings::CurrentSettings;
use crate::app::timeline::{StartsOnTimeline, Timeline, speed_factor};
use crate::rules::EffectKind;
use bevy::prelude::*;
use std::collections::HashMap;

/// Seconds of a piece dropping in at normal speed.
const DROP: f32 = 0.15;
/// Seconds of a piece lifting away (a capture, a removal) at normal speed.
const LIFT: f32 = 0.3;

/// A running animation on a stone, placed on the timeline's clock.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Tween {
    /// When it starts on the timeline.
    pub start: f32,
    pub duration: f32,
    pub vanish: bool,
}

impl Tween {
    fn progress(&self, now: f32) -> f32 {
        ((now - self.start) / self.duration).clamp(0.0, 1.0)
    }
    fn done(&self, now: f32) -> bool {
        now >= self.start + self.duration
    }
}

/// The wave in which each cell changed this frame (from the effects).
#[derive(Resource, Default)]
struct WaveOfCell(HashMap<u16, u16>);

pub fn plugin(app: &mut App) {
    app.init_resource::<WaveOfCell>();
    app.add_systems(Update, collect_waves.in_set(AppSystems::Project));
    app.add_systems(Update, start_tweens.in_set(AppSystems::Present).in_set(StartsOnTimeline));
    app.add_systems(Update, run_tweens.in_set(AppSystems::Present).after(StartsOnTimeline));
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
    mut timeline: ResMut<Timeline>,
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
    let start_at = |cell: u16| timeline.start_of(waves.0.get(&cell).copied().unwrap_or(0));
    let mut tweens = Vec::new();
    for (e, gone) in &vanishing {
        tweens.push((e, Tween { start: start_at(gone.cell), duration: LIFT * factor, vanish: true }));
    }
    if fresh {
        start(&mut commands, &mut timeline, tweens);
        return;
    }
    // A new piece drops in; so does a piece added on top of a stack that was already there.
    let new_pieces = added.iter().map(|(e, piece)| (e, piece.cell));
    let new_levels = added_levels
        .iter()
        .filter(|e| parents.get(*e).is_ok_and(|p| !added.contains(p.parent())))
        .filter_map(|e| stack_cell(e, &parents, &pieces).map(|cell| (e, cell)));
    for (e, cell) in new_pieces.chain(new_levels).collect::<Vec<_>>() {
        tweens.push((e, Tween { start: start_at(cell), duration: DROP * factor, vanish: false }));
        if let Ok(mut t) = transforms.get_mut(e) {
            t.scale = Vec3::splat(0.01);
        }
    }
    start(&mut commands, &mut timeline, tweens);
}

/// Puts the tweens on their pieces and the timeline's end after the last of them.
fn start(commands: &mut Commands, timeline: &mut Timeline, tweens: Vec<(Entity, Tween)>) {
    for (e, tween) in tweens {
        timeline.lasts_until(tween.start + tween.duration);
        commands.entity(e).insert(tween);
    }
}

fn ease_out(t: f32) -> f32 {
    1.0 - (1.0 - t).powi(3)
}

fn run_tweens(mut commands: Commands, timeline: Res<Timeline>, mut tweens: Query<(Entity, &Tween, &mut Transform)>) {
    let now = timeline.elapsed;
    for (e, tween, mut t) in &mut tweens {
        let p = ease_out(tween.progress(now));
        if tween.vanish {
            t.scale = Vec3::splat((1.0 - p).max(0.01));
            t.translation.y = 12.0 * p;
        } else {
            t.scale = Vec3::splat(p.max(0.01));
        }
        if tween.done(now) {
            if tween.vanish {
                commands.entity(e).despawn();
            } else {
                t.scale = Vec3::ONE;
                commands.entity(e).remove::<Tween>();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tweens_wait_for_their_wave_then_finish() {
        let t = Tween { start: 0.2, duration: 0.3, vanish: false };
        assert_eq!(t.progress(0.0), 0.0);
        assert!((t.progress(0.35) - 0.5).abs() < 1e-6);
        assert!(!t.done(0.35));
        assert!(t.done(0.5));
        use crate::save::AnimationSpeed;
        assert_eq!(speed_factor(AnimationSpeed::Off), None);
        assert!(speed_factor(AnimationSpeed::Slow) > speed_factor(AnimationSpeed::Fast));
    }
}
