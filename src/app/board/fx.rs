//! Animations of the board, driven by the projection and the effects of the frame: the pieces
//! themselves make every journey (`motions`): a new piece drops in (scales up with an ease-out)
//! or comes along its move's path, a piece added to a stack comes down onto it; a removed one
//! lifts and shrinks away, flies off to its capturer's tray or rises off the board, and a moved
//! one leaves its space as its move starts — each when its cascade wave starts on the timeline
//! (`app::timeline`). The speed setting scales every duration; "off" shows the end at once. A
//! skip of the timeline ends them.

use super::look::pile_offset;
use super::motions::{Arrival, Departure, SpaceMotion, motions};
use super::piece_drag::LIFTED_Z;
use super::project::{BoardState, Piece, Stack, StackPiece, Vanishing};
use crate::app::AppSystems;
use crate::app::playing::EffectHappened;
use crate::app::settings::CurrentSettings;
use crate::app::timeline::{StartsOnTimeline, Timeline, speed_factor};
use crate::rules::Cell;
use bevy::prelude::*;
use std::collections::HashMap;

/// Seconds of a piece dropping in at normal speed.
const DROP: f32 = 0.15;
/// Seconds of a piece lifting away (a capture, a removal) at normal speed.
const LIFT: f32 = 0.3;
/// Seconds a moving piece takes for each leg of its path (a hop), and once more for its start.
const LEG: f32 = 0.12;
const SET_OFF: f32 = 0.06;
/// How high above its space a piece dropped onto a stack starts, in spaces.
const ABOVE: f32 = 0.9;
/// How far above its resting depth a travelling piece is drawn (over every piece at rest).
const JOURNEY_Z: f32 = 5.0;
/// A prisoner's size in its capturer's tray.
const IN_THE_TRAY: f32 = 0.5;

/// A running animation on a piece, placed on the timeline's clock.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Tween {
    /// When it starts on the timeline.
    pub start: f32,
    pub duration: f32,
    pub vanish: bool,
    /// Where the piece rests in its parent (a piece of a stack: its place in the pile).
    home: Vec3,
    /// Its journey, as offsets from `home` (an arrival's ends at zero, a departure's starts
    /// there); empty: it grows in or shrinks away where it stands.
    path: Vec<Vec2>,
    /// Each leg of the path is a hop (an arc).
    arc: bool,
    /// Its size at the journey's end.
    end_scale: f32,
}

impl Tween {
    /// Growing in (`vanish` false) or lifting and shrinking away where it stands.
    fn in_place(start: f32, duration: f32, vanish: bool, home: Vec3) -> Self {
        Tween { start, duration, vanish, home, path: Vec::new(), arc: false, end_scale: 1.0 }
    }

    fn progress(&self, now: f32) -> f32 {
        if self.duration <= 0.0 {
            return if now >= self.start { 1.0 } else { 0.0 };
        }
        ((now - self.start) / self.duration).clamp(0.0, 1.0)
    }

    fn done(&self, now: f32) -> bool {
        now >= self.start + self.duration
    }

    /// The offset from home along the journey at progress `p`: legs at an even pace (with a
    /// parabolic lift each when they are hops), a single glide eased in and out.
    fn offset(&self, p: f32, lift: f32) -> Vec2 {
        match self.path.len() {
            0 => Vec2::ZERO,
            1 => self.path[0],
            2 if !self.arc => self.path[0].lerp(self.path[1], p * p * (3.0 - 2.0 * p)),
            n => {
                let legs = n - 1;
                let x = p * legs as f32;
                let leg = (x.floor() as usize).min(legs - 1);
                let local = x - leg as f32;
                let hop = if self.arc { 4.0 * local * (1.0 - local) * lift } else { 0.0 };
                self.path[leg].lerp(self.path[leg + 1], local) + Vec2::Y * hop
            }
        }
    }
}

/// How the spaces' pieces move this frame (from the effects).
#[derive(Resource, Default)]
struct Motions(HashMap<Cell, SpaceMotion>);

pub fn plugin(app: &mut App) {
    app.init_resource::<Motions>();
    app.add_systems(Update, collect_motions.in_set(AppSystems::Project));
    app.add_systems(Update, start_tweens.in_set(AppSystems::Present).in_set(StartsOnTimeline));
    app.add_systems(Update, run_tweens.in_set(AppSystems::Present).after(StartsOnTimeline));
}

fn collect_motions(mut effects: MessageReader<EffectHappened>, mut spaces: ResMut<Motions>) {
    spaces.0 = motions(effects.read().map(|e| &e.effect));
}

/// Pieces that started vanishing this frame.
type NewlyVanishing = (Added<Vanishing>, Without<Tween>);

/// The stack a piece of a stack belongs to, and its cell.
fn stack_of(piece: Entity, parents: &Query<&ChildOf>, pieces: &Query<(&Piece, &Stack)>) -> Option<(Cell, Stack)> {
    let parent = parents.get(piece).ok()?.parent();
    pieces.get(parent).ok().map(|(p, s)| (p.cell, *s))
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn start_tweens(
    mut commands: Commands,
    settings: Res<CurrentSettings>,
    spaces: Res<Motions>,
    mut timeline: ResMut<Timeline>,
    state: Res<BoardState>,
    added: Query<(Entity, &Piece), Added<Piece>>,
    added_levels: Query<(Entity, &StackPiece), Added<StackPiece>>,
    (parents, stacks): (Query<&ChildOf>, Query<(&Piece, &Stack)>),
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
    let none = SpaceMotion::default();
    let space = |cell: Cell| spaces.0.get(&cell).unwrap_or(&none);
    let start_at = |cell: Cell| timeline.start_of(space(cell).wave);
    let mut tweens = Vec::new();
    // Where a dragged piece was let go, by the space it left: its move goes on from there.
    let mut let_go: HashMap<Cell, Vec2> = HashMap::new();
    for (e, gone) in &vanishing {
        let from = transforms.get(e).map(|t| t.translation).unwrap_or_default();
        let start = start_at(gone.cell);
        let away = |path: Vec<Vec2>, end_scale: f32| Tween {
            path,
            end_scale,
            ..Tween::in_place(start, LIFT * factor, true, from)
        };
        let tween = match space(gone.cell).departure {
            Departure::Fades => Tween::in_place(start, LIFT * factor, true, from),
            Departure::MovesOn => {
                if from.z >= LIFTED_Z {
                    let_go.insert(gone.cell, from.truncate());
                }
                Tween::in_place(start, 0.0, true, from)
            }
            Departure::ToTray(side) => {
                let (Some(tray), Some(cell)) = (state.tray(side), state.cell_at(gone.cell)) else { continue };
                away(vec![Vec2::ZERO, tray - cell - from.truncate()], IN_THE_TRAY)
            }
            Departure::RisesOff => away(vec![Vec2::ZERO, Vec2::Y * state.scale * ABOVE], 0.6),
        };
        tweens.push((e, tween));
    }
    if fresh {
        start(&mut commands, &mut timeline, tweens);
        return;
    }
    // A new piece drops in or comes along its path; so does a piece added on top of a stack that
    // was already there, to its place in the pile.
    let home_of = |e: Entity| transforms.get(e).map(|t| t.translation).unwrap_or_default();
    let mut arriving: Vec<(Entity, Cell, u16, Vec3)> = added.iter().map(|(e, p)| (e, p.cell, 0, home_of(e))).collect();
    let mut new_levels: Vec<(Entity, Cell, u16, Vec3)> = added_levels
        .iter()
        .filter(|(e, _)| parents.get(*e).is_ok_and(|p| !added.contains(p.parent())))
        .filter_map(|(e, level)| {
            let (cell, stack) = stack_of(e, &parents, &stacks)?;
            let below = stack.height.saturating_sub(1).saturating_sub(level.level);
            Some((e, cell, level.level, pile_offset(below, level.level, state.scale)))
        })
        .collect();
    new_levels.sort_by_key(|&(_, cell, level, _)| (cell, level));
    arriving.extend(new_levels);
    let mut nth: HashMap<Cell, usize> = HashMap::new();
    for (e, cell, _, home) in arriving {
        let start = start_at(cell);
        let n = nth.entry(cell).or_default();
        let tween = match space(cell).arrival(*n) {
            None => Tween::in_place(start, DROP * factor, false, home),
            Some(Arrival::FromAbove) => Tween {
                path: vec![Vec2::Y * state.scale * ABOVE, Vec2::ZERO],
                ..Tween::in_place(start, DROP * factor, false, home)
            },
            Some(Arrival::Along { path, arc }) => {
                let Some(here) = state.cell_at(cell) else { continue };
                let mut points: Vec<Vec2> = path.iter().filter_map(|&c| state.cell_at(c)).map(|p| p - here).collect();
                if let (Some(first), Some(dropped)) = (points.first_mut(), let_go.get(&path[0])) {
                    *first += *dropped;
                }
                let legs = points.len().saturating_sub(1).max(1) as f32;
                Tween {
                    path: points,
                    arc: *arc,
                    ..Tween::in_place(start, (LEG * legs + SET_OFF) * factor, false, home)
                }
            }
        };
        *n += 1;
        if let Ok(mut t) = transforms.get_mut(e) {
            t.scale = Vec3::splat(0.01);
        }
        tweens.push((e, tween));
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

fn run_tweens(
    mut commands: Commands,
    timeline: Res<Timeline>,
    state: Res<BoardState>,
    mut tweens: Query<(Entity, &Tween, &mut Transform)>,
) {
    let now = timeline.elapsed;
    for (e, tween, mut t) in &mut tweens {
        let p = tween.progress(now);
        if tween.path.is_empty() {
            let eased = ease_out(p);
            let rise = if tween.vanish { 12.0 * eased } else { 0.0 };
            t.scale = Vec3::splat(if tween.vanish { 1.0 - eased } else { eased }.max(0.01));
            t.translation = tween.home + Vec3::Y * rise;
        } else if now < tween.start && !tween.vanish {
            // Not set off yet: the piece is still where it came from.
            t.scale = Vec3::splat(0.01);
        } else {
            // Above the pieces it passes over.
            let at = tween.home.truncate() + tween.offset(p, state.scale * 0.45);
            t.translation = at.extend(tween.home.z + JOURNEY_Z);
            t.scale = Vec3::splat(1.0 + (tween.end_scale - 1.0) * p);
        }
        if tween.done(now) {
            if tween.vanish {
                commands.entity(e).despawn();
            } else {
                t.scale = Vec3::ONE;
                t.translation = tween.home;
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
        let t = Tween::in_place(0.2, 0.3, false, Vec3::ZERO);
        assert_eq!(t.progress(0.0), 0.0);
        assert!((t.progress(0.35) - 0.5).abs() < 1e-6);
        assert!(!t.done(0.35));
        assert!(t.done(0.5));
        use crate::save::AnimationSpeed;
        assert_eq!(speed_factor(AnimationSpeed::Off), None);
        assert!(speed_factor(AnimationSpeed::Slow) > speed_factor(AnimationSpeed::Fast));
    }

    #[test]
    fn a_hop_passes_over_its_middle_space_in_an_arc_and_lands_at_home() {
        let home = Vec3::new(0.0, 0.0, 2.0);
        let hop = Tween {
            path: vec![Vec2::new(-20.0, 0.0), Vec2::new(-10.0, 0.0), Vec2::ZERO],
            arc: true,
            ..Tween::in_place(0.0, 0.3, false, home)
        };
        assert_eq!(hop.offset(0.0, 4.0), Vec2::new(-20.0, 0.0), "it sets off from where it stood");
        assert_eq!(hop.offset(0.5, 4.0), Vec2::new(-10.0, 0.0), "between the legs it touches the space hopped over");
        assert!(hop.offset(0.25, 4.0).y > 3.9, "half way along a leg it is at the top of its arc");
        assert_eq!(hop.offset(1.0, 4.0), Vec2::ZERO);
        // A piece that leaves at once is gone as its move starts, not before.
        let gone = Tween::in_place(0.5, 0.0, true, home);
        assert_eq!((gone.progress(0.4), gone.done(0.4)), (0.0, false));
        assert_eq!((gone.progress(0.5), gone.done(0.5)), (1.0, true));
    }
}
