//! Effect flourishes: every effect the engines emit gets a short visual on the board, in its
//! cascade wave (captures burst and the prisoners fly off to the capturer's side, burns flare and
//! leave the scorch the board shows until the square reopens, a piece drops onto a growing stack
//! and lifts off a shrinking one, hops and moves travel along their path with an arc per leg,
//! swaps cross, the pie swap and the end of the game flash). Only with a renderer; the speed
//! setting scales them.

use super::project::BoardState;
use crate::app::AppSystems;
use crate::app::playing::EffectHappened;
use crate::app::settings::CurrentSettings;
use crate::app::timeline::{StartsOnTimeline, Timeline, speed_factor};
use crate::rules::{Cell, EffectKind, Outcome, RemoveCause, Side};
use bevy::prelude::*;

/// What an effect looks like, in board cells.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A ring growing and fading on a cell (`big`: a capture or burn).
    Ring { cell: Cell, colour: [f32; 3], big: bool },
    /// A disc travelling along cells, hopping in an arc over each leg when `arc`.
    Travel { path: Vec<Cell>, colour: [f32; 3], arc: bool },
    /// The whole board lights up briefly.
    Flash { colour: [f32; 3], strength: f32 },
    /// A piece gliding between two spots (dropping onto a stack, lifting off one, a prisoner
    /// flying to its holder's side), fading out on the way when `fade`.
    Glide { from: Spot, to: Spot, colour: [f32; 3], fade: bool },
}

/// Where a gliding piece starts or ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Spot {
    /// On a board space.
    Cell(Cell),
    /// Just above a board space (where a dropped piece comes from).
    Above(Cell),
    /// Beside the board on a side's edge, where its prisoners are kept: the first side's at the
    /// top right, the second side's at the bottom right (the HUD's counters are on the right).
    Tray(Side),
}

const RED: [f32; 3] = [0.86, 0.12, 0.1];
const FIRE: [f32; 3] = [1.0, 0.55, 0.1];
const COOL: [f32; 3] = [0.35, 0.6, 0.95];
const GOLD: [f32; 3] = [1.0, 0.82, 0.25];
const SOFT: [f32; 3] = [0.95, 0.93, 0.85];
const MOVE: [f32; 3] = [0.2, 0.45, 0.9];

/// The flourishes of one effect. Every variant is listed (no wildcard), so a new kind of effect
/// cannot be added without deciding how it looks.
pub fn shapes_of(kind: &EffectKind) -> Vec<Shape> {
    match kind {
        EffectKind::Placed { cell, .. } => vec![Shape::Ring { cell: *cell, colour: SOFT, big: false }],
        // The stack grows by a piece landing on it.
        EffectKind::Stacked { cell, .. } => vec![
            Shape::Glide { from: Spot::Above(*cell), to: Spot::Cell(*cell), colour: SOFT, fade: false },
            Shape::Ring { cell: *cell, colour: SOFT, big: false },
        ],
        EffectKind::Moved { from, to, .. } => vec![Shape::Travel { path: vec![*from, *to], colour: MOVE, arc: true }],
        EffectKind::Hopped { path, .. } => vec![Shape::Travel { path: path.clone(), colour: MOVE, arc: true }],
        EffectKind::Distributed { path, .. } => vec![Shape::Travel { path: path.clone(), colour: MOVE, arc: false }],
        EffectKind::Collected { from, to, .. } => {
            from.iter().map(|f| Shape::Travel { path: vec![*f, *to], colour: MOVE, arc: false }).collect()
        }
        // A capture or a burn's victim bursts; a piece returned or lost to control lifts away.
        EffectKind::Removed { cell, cause: RemoveCause::Returned | RemoveCause::Control, .. } => vec![
            Shape::Glide { from: Spot::Cell(*cell), to: Spot::Above(*cell), colour: SOFT, fade: true },
            Shape::Ring { cell: *cell, colour: COOL, big: false },
        ],
        EffectKind::Removed { cell, .. } => vec![Shape::Ring { cell: *cell, colour: RED, big: true }],
        // Each captured stone bursts, and flies off to the capturer's side of the board.
        EffectKind::Captured { cells, by } => cells
            .iter()
            .flat_map(|c| {
                [
                    Shape::Ring { cell: *c, colour: RED, big: true },
                    Shape::Glide { from: Spot::Cell(*c), to: Spot::Tray(*by), colour: RED, fade: true },
                ]
            })
            .collect(),
        EffectKind::Burned { cell } => vec![Shape::Ring { cell: *cell, colour: FIRE, big: true }],
        EffectKind::Unburned { cell } => vec![Shape::Ring { cell: *cell, colour: COOL, big: false }],
        EffectKind::Swapped { a, b, .. } => vec![
            Shape::Travel { path: vec![*a, *b], colour: MOVE, arc: true },
            Shape::Travel { path: vec![*b, *a], colour: GOLD, arc: true },
        ],
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
    /// World positions of the shape's cells (relative to the board root).
    points: Vec<Vec2>,
    scale: f32,
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
            let (points, mesh, duration): (Vec<Vec2>, Mesh, f32) = match &shape {
                Shape::Ring { cell, big, colour } => {
                    let (inner, outer) = if *big { (0.42, 0.55) } else { (0.4, 0.47) };
                    (
                        at(*cell).into_iter().collect(),
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
                Shape::Travel { path, .. } => {
                    let legs = path.len().saturating_sub(1).max(1) as f32;
                    (path.iter().filter_map(|c| at(*c)).collect(), Circle::new(s * 0.22).into(), 0.12 * legs + 0.06)
                }
                Shape::Flash { .. } => {
                    (vec![Vec2::ZERO], Rectangle::new(2.0 * half.x + s, 2.0 * half.y + s).into(), 0.45)
                }
                Shape::Glide { from, to, .. } => {
                    let spot = |spot: &Spot| match *spot {
                        Spot::Cell(c) => at(c),
                        Spot::Above(c) => at(c).map(|p| p + Vec2::Y * s * 0.9),
                        Spot::Tray(Side::First) => Some(Vec2::new(half.x + s * 0.9, half.y)),
                        Spot::Tray(Side::Second) => Some(Vec2::new(half.x + s * 0.9, -half.y)),
                    };
                    let tray = matches!(to, Spot::Tray(_));
                    (
                        [spot(from), spot(to)].into_iter().flatten().collect(),
                        Circle::new(s * if tray { 0.2 } else { 0.3 }).into(),
                        if tray { 0.3 } else { 0.15 },
                    )
                }
            };
            if let Shape::Glide { .. } = shape
                && points.len() < 2
            {
                continue;
            }
            let Some(&first) = points.first() else { continue };
            let colour = match &shape {
                Shape::Ring { colour, .. }
                | Shape::Travel { colour, .. }
                | Shape::Flash { colour, .. }
                | Shape::Glide { colour, .. } => *colour,
            };
            let start = timeline.start_of(e.effect.wave);
            timeline.lasts_until(start + duration * factor);
            commands.spawn((
                Flourish { shape, start, duration: duration * factor, points, scale: s },
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
            Shape::Ring { .. } => {
                t.scale = Vec3::splat(0.6 + 0.9 * p);
                0.9 * (1.0 - p)
            }
            Shape::Travel { arc, .. } => {
                // Position along the legs, with a parabolic lift per leg for hops.
                let legs = f.points.len().saturating_sub(1).max(1);
                let x = p * legs as f32;
                let leg = (x.floor() as usize).min(legs - 1);
                let local = x - leg as f32;
                let (a, b) = (f.points[leg], *f.points.get(leg + 1).unwrap_or(&f.points[leg]));
                let lift = if *arc { 4.0 * local * (1.0 - local) * f.scale * 0.45 } else { 0.0 };
                let at = a.lerp(b, local) + Vec2::Y * lift;
                t.translation = at.extend(7.0);
                0.85
            }
            Shape::Flash { strength, .. } => strength * (1.0 - p),
            Shape::Glide { fade, .. } => {
                // Ease in and out: pieces start and settle gently.
                let eased = p * p * (3.0 - 2.0 * p);
                t.translation = f.points[0].lerp(f.points[1], eased).extend(7.0);
                if *fade { 0.9 * (1.0 - p * p) } else { 0.9 }
            }
        };
        if let Some(mut m) = materials.get_mut(&material.0) {
            m.color.set_alpha(if started { alpha } else { 0.0 });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_effect_has_a_flourish() {
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
            assert!(!shapes_of(kind).is_empty(), "{kind:?} has no flourish");
        }
        // A capture of a group bursts on every stone of it and each flies to the capturer's tray;
        // a hop travels its whole path; a growing stack gets a piece dropped onto it.
        let capture = shapes_of(&all[7]);
        assert_eq!(capture.len(), 4);
        assert!(capture.iter().any(|sh| matches!(sh, Shape::Glide { to: Spot::Tray(Side::First), .. })));
        assert!(matches!(&shapes_of(&all[3])[0], Shape::Glide { from: Spot::Above(1), to: Spot::Cell(1), .. }));
        assert!(matches!(&shapes_of(&all[2])[0], Shape::Travel { path, arc: true, .. } if path.len() == 3));
    }
}
