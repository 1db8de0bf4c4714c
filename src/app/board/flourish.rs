//! Effect flourishes: the light around an effect, not its pieces (they make their own journeys,
//! `fx`): a placed piece sends a ripple out from under it, a capture or a burn bursts from its
//! space outward, a piece lost to control leaves a cool ripple, a burn flares and leaves the
//! scorch the board shows until the square reopens, the pie swap and the end of the game flash the
//! board. A ripple starts at a piece's edge and only grows, so it never reads as a piece. Only
//! with a renderer; the speed setting scales them.

use super::project::BoardState;
use crate::app::AppSystems;
use crate::app::playing::EffectHappened;
use crate::app::settings::CurrentSettings;
use crate::app::timeline::{StartsOnTimeline, Timeline, speed_factor};
use crate::rules::{Cell, EffectKind, Outcome, RemoveCause};
use bevy::prelude::*;

/// What an effect looks like, in board cells.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A ring growing out from a piece's edge and fading, on a cell (`big`: a capture or burn).
    Ring { cell: Cell, colour: [f32; 3], big: bool },
    /// The whole board lights up briefly.
    Flash { colour: [f32; 3], strength: f32 },
}

const RED: [f32; 3] = [0.86, 0.12, 0.1];
const FIRE: [f32; 3] = [1.0, 0.55, 0.1];
const COOL: [f32; 3] = [0.35, 0.6, 0.95];
const GOLD: [f32; 3] = [1.0, 0.82, 0.25];
const SOFT: [f32; 3] = [0.95, 0.93, 0.85];

/// The flourishes of one effect. Every variant is listed (no wildcard), so a new kind of effect
/// cannot be added without deciding how it looks; an effect that only moves pieces has none (its
/// pieces' journeys show it, `motions`).
pub fn shapes_of(kind: &EffectKind) -> Vec<Shape> {
    match kind {
        EffectKind::Placed { cell, .. } | EffectKind::Stacked { cell, .. } => {
            vec![Shape::Ring { cell: *cell, colour: SOFT, big: false }]
        }
        EffectKind::Moved { .. }
        | EffectKind::Hopped { .. }
        | EffectKind::Distributed { .. }
        | EffectKind::Collected { .. }
        | EffectKind::Swapped { .. } => Vec::new(),
        // A piece returned or lost to control rises off its space (`fx`) from a cool ripple.
        EffectKind::Removed { cell, cause: RemoveCause::Returned | RemoveCause::Control, .. } => {
            vec![Shape::Ring { cell: *cell, colour: COOL, big: false }]
        }
        EffectKind::Removed { cell, .. } => vec![Shape::Ring { cell: *cell, colour: RED, big: true }],
        // Each captured stone bursts as it flies off to the capturer's tray (`fx`).
        EffectKind::Captured { cells, .. } => {
            cells.iter().map(|c| Shape::Ring { cell: *c, colour: RED, big: true }).collect()
        }
        EffectKind::Burned { cell } => vec![Shape::Ring { cell: *cell, colour: FIRE, big: true }],
        EffectKind::Unburned { cell } => vec![Shape::Ring { cell: *cell, colour: COOL, big: false }],
        EffectKind::Scored { .. } => vec![Shape::Flash { colour: GOLD, strength: 0.06 }],
        EffectKind::Rescued { .. } => vec![Shape::Flash { colour: COOL, strength: 0.12 }],
        EffectKind::PieSwap { .. } => vec![Shape::Flash { colour: SOFT, strength: 0.45 }],
        EffectKind::Passed { .. } => vec![Shape::Flash { colour: SOFT, strength: 0.15 }],
        EffectKind::GameOver { outcome } => {
            let strength = if *outcome == Outcome::Draw { 0.2 } else { 0.35 };
            vec![Shape::Flash { colour: GOLD, strength }]
        }
    }
}

/// A running flourish, placed on the timeline's clock.
#[derive(Component, Debug)]
struct Flourish {
    shape: Shape,
    /// When it starts on the timeline (its effect's wave).
    start: f32,
    duration: f32,
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, warm_up.run_if(super::drawing));
    app.add_systems(
        Update,
        spawn_flourishes.in_set(AppSystems::Present).in_set(StartsOnTimeline).run_if(super::drawing),
    );
    app.add_systems(
        Update,
        (run_flourishes, end_warm_up)
            .chain()
            .in_set(AppSystems::Present)
            .after(StartsOnTimeline)
            .run_if(super::drawing),
    );
}

/// An invisible flourish drawn during the first frames, so that its render pipeline (the only
/// mesh-and-material one on the board) is compiled then. In the browser compiling it holds the
/// page's thread for a quarter of a second, which would otherwise freeze the first move's
/// animation.
#[derive(Component)]
struct WarmUp(u32);

fn warm_up(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<ColorMaterial>>) {
    commands.spawn((
        Name::new("Flourish warm-up"),
        WarmUp(3),
        Mesh2d(meshes.add(Circle::new(1.0))),
        MeshMaterial2d(materials.add(Color::srgba(0.0, 0.0, 0.0, 0.0))),
        Transform::from_xyz(0.0, 0.0, -100.0),
    ));
}

fn end_warm_up(mut commands: Commands, mut warming: Query<(Entity, &mut WarmUp)>) {
    for (entity, mut frames) in &mut warming {
        frames.0 = frames.0.saturating_sub(1);
        if frames.0 == 0 {
            commands.entity(entity).despawn();
        }
    }
}

fn spawn_flourishes(
    mut commands: Commands,
    mut effects: MessageReader<EffectHappened>,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    mut timeline: ResMut<Timeline>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let (Some(root), Some(view), Some(factor)) = (state.root, &state.view, speed_factor(settings.0.animation_speed))
    else {
        effects.clear();
        return;
    };
    let at = |cell: Cell| view.cells.iter().find(|c| c.cell == cell).map(|c| state.to_world(c.x, c.y));
    let s = state.scale;
    // Half the board's extent around its centre (for the flash and the trays beside the board).
    let half = view.cells.iter().fold(Vec2::ZERO, |m, c| m.max(state.to_world(c.x, c.y).abs()));
    for e in effects.read() {
        for shape in shapes_of(&e.effect.kind) {
            let (at_point, mesh, duration): (Option<Vec2>, Mesh, f32) = match &shape {
                Shape::Ring { cell, big, colour } => {
                    // From just outside a stone (its radius is 0.46) outward.
                    let (inner, outer) = if *big { (0.47, 0.58) } else { (0.47, 0.52) };
                    (
                        at(*cell),
                        Annulus::new(s * inner, s * outer).into(),
                        // A burn flares for 400 ms, a capture's burst 300 ms (DESIGN.md, motion).
                        if *colour == FIRE {
                            0.4
                        } else if *big {
                            0.3
                        } else {
                            0.25
                        },
                    )
                }
                Shape::Flash { .. } => {
                    (Some(Vec2::ZERO), Rectangle::new(2.0 * half.x + s, 2.0 * half.y + s).into(), 0.45)
                }
            };
            let Some(first) = at_point else { continue };
            let colour = match &shape {
                Shape::Ring { colour, .. } | Shape::Flash { colour, .. } => *colour,
            };
            let start = timeline.start_of(e.effect.wave);
            timeline.lasts_until(start + duration * factor);
            commands.spawn((
                Flourish { shape, start, duration: duration * factor },
                Mesh2d(meshes.add(mesh)),
                MeshMaterial2d(materials.add(Color::srgba(colour[0], colour[1], colour[2], 0.0))),
                Transform::from_translation(first.extend(7.0)),
                Pickable::IGNORE,
                ChildOf(root),
            ));
        }
    }
}

fn run_flourishes(
    mut commands: Commands,
    timeline: Res<Timeline>,
    mut running: Query<(Entity, &Flourish, &mut Transform, &MeshMaterial2d<ColorMaterial>)>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let now = timeline.elapsed;
    for (e, f, mut t, material) in &mut running {
        let p = ((now - f.start) / f.duration).clamp(0.0, 1.0);
        if now >= f.start + f.duration {
            commands.entity(e).despawn();
            continue;
        }
        let started = now >= f.start;
        let alpha = match &f.shape {
            Shape::Ring { big, .. } => {
                t.scale = Vec3::splat(1.0 + if *big { 0.7 } else { 0.45 } * p);
                0.9 * (1.0 - p)
            }
            Shape::Flash { strength, .. } => strength * (1.0 - p),
        };
        if let Some(mut m) = materials.get_mut(&material.0) {
            m.color.set_alpha(if started { alpha } else { 0.0 });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Side;

    #[test]
    fn every_kind_of_effect_is_seen_in_a_flourish_or_a_journey() {
        use super::super::motions::{arrivals_of, departures_of};
        let s = Side::First;
        let all = [
            EffectKind::Placed { cell: 1, by: s, piece: 'b', count: 1 },
            EffectKind::Moved { from: 1, to: 2, by: s, count: 1 },
            EffectKind::Hopped { path: vec![1, 2, 3], by: s },
            EffectKind::Stacked { cell: 1, owner: s, height: 2 },
            EffectKind::Distributed { path: vec![1, 2], by: s },
            EffectKind::Collected { from: vec![1, 2], to: 3, by: s },
            EffectKind::Removed { cell: 1, count: 1, cause: RemoveCause::Capture },
            EffectKind::Captured { cells: vec![1, 2], by: s },
            EffectKind::Burned { cell: 1 },
            EffectKind::Unburned { cell: 1 },
            EffectKind::Swapped { a: 1, b: 2, by: s },
            EffectKind::Scored { side: s, score: 3 },
            EffectKind::Rescued { side: s, count: 2 },
            EffectKind::PieSwap { by: s },
            EffectKind::Passed { side: s },
            EffectKind::GameOver { outcome: Outcome::Draw },
        ];
        for kind in &all {
            let journeys = arrivals_of(kind).len() + departures_of(kind).len();
            assert!(!shapes_of(kind).is_empty() || journeys > 0, "{kind:?} is not seen");
        }
        // A capture of a group bursts on every stone of it; a move is its piece's journey alone,
        // with no shape standing in for the piece.
        assert_eq!(shapes_of(&all[7]).len(), 2);
        assert!(shapes_of(&all[2]).is_empty() && shapes_of(&all[1]).is_empty());
    }
}
