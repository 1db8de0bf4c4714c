//! Marks on the board about what to do and what just happened: the last decision's spaces, every
//! space where a legal decision starts (red where it captures), the stone of a started Throngs part
//! with the power it has left, the hint's spaces, and where the decision being built can go on.
//! They are rebuilt only when the match, the turn being built, the hint or the settings change.

use super::drawing;
use super::project::BoardState;
use crate::app::AppSystems;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::{HintShown, Replay, Secrecy, TurnBuilder, person_acts};
use crate::app::settings::CurrentSettings;
use crate::app::theme::{BoardPalette, board_palette, rgb};
use crate::games::GameKind;
use crate::rules::{CellView, cells_in_token};
use crate::save::Theme;
use bevy::prelude::*;
use std::collections::HashMap;

/// A mark of this module (all are rebuilt together).
#[derive(Component)]
struct Mark;

/// The shared mesh and materials of the legal-start rings, for one board scale and theme.
struct StartRings {
    key: (f32, Theme),
    mesh: Handle<Mesh>,
    plain: Handle<ColorMaterial>,
    capture: Handle<ColorMaterial>,
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, show_marks.in_set(AppSystems::Present).run_if(drawing));
}

/// Where marks go: the board's root, its layout, and the view's spaces by name.
struct Canvas<'a> {
    root: Entity,
    state: &'a BoardState,
    by_name: HashMap<&'a str, &'a CellView>,
    pal: BoardPalette,
    kind: GameKind,
}

impl Canvas<'_> {
    fn at(&self, name: &str) -> Option<Vec2> {
        self.by_name.get(name).map(|c| self.state.to_world(c.x, c.y))
    }
}

type MeshAssets<'a> = (ResMut<'a, Assets<Mesh>>, ResMut<'a, Assets<ColorMaterial>>);

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn show_marks(
    mut commands: Commands,
    state: Res<BoardState>,
    (builder, current, settings): (Res<TurnBuilder>, Res<CurrentMatch>, Res<CurrentSettings>),
    (secrecy, hint, replay): (Res<Secrecy>, Res<HintShown>, Res<Replay>),
    old: Query<Entity, With<Mark>>,
    (mut meshes, mut materials): MeshAssets,
    mut rings: Local<Option<StartRings>>,
) {
    let changed = builder.is_changed()
        || current.is_changed()
        || settings.is_changed()
        || hint.is_changed()
        || replay.is_changed()
        || secrecy.is_changed()
        || state.is_changed();
    if !changed {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(root), Some(view)) = (state.root, &state.view) else { return };
    let canvas = Canvas {
        root,
        state: &state,
        by_name: view.cells.iter().map(|c| (c.name.as_str(), c)).collect(),
        pal: board_palette(settings.0.theme),
        kind: current.game.kind(),
    };
    let decisions = current.decisions_now();
    last_decision(&mut commands, &canvas, &current, &secrecy);
    // A started Throngs part always shows where its stone can go, hints on or off.
    let part_under_way = view.cells.iter().any(|c| c.marks.travelling.is_some());
    if (settings.0.show_hints || part_under_way)
        && person_acts(&current, &replay)
        && builder.start.is_none()
        && builder.choices.is_empty()
    {
        let key = (state.scale, settings.0.theme);
        if rings.as_ref().is_none_or(|r| r.key != key) {
            *rings = Some(StartRings {
                key,
                mesh: meshes.add(Annulus::new(state.scale * 0.1, state.scale * 0.16)),
                plain: materials.add(rgb(canvas.pal.cursor).with_alpha(0.7)),
                capture: materials.add(Color::srgb(0.85, 0.1, 0.1)),
            });
        }
        if let Some(r) = rings.as_ref() {
            legal_starts(&mut commands, &canvas, &decisions, r);
        }
    }
    travelling_stones(&mut commands, &canvas, (&mut meshes, &mut materials));
    if let Some(suggested) = hint.current(&current) {
        hint_spaces(&mut commands, &canvas, suggested, (&mut meshes, &mut materials));
    }
    let mut destinations = builder.destinations(&decisions);
    destinations.extend(builder.start.clone());
    let dot = meshes.add(Circle::new(state.scale * 0.14));
    let colour = materials.add(rgb(canvas.pal.cursor).with_alpha(0.8));
    for name in destinations {
        let Some(at) = canvas.at(&name) else { continue };
        spawn_mark(&mut commands, &canvas, at.extend(4.0), (Mesh2d(dot.clone()), MeshMaterial2d(colour.clone())));
    }
}

fn spawn_mark(commands: &mut Commands, canvas: &Canvas, at: Vec3, look: impl Bundle) {
    commands.spawn((Mark, look, Transform::from_translation(at), Pickable::IGNORE, ChildOf(canvas.root)));
}

/// The last decision's spaces (when public) get a small square mark.
fn last_decision(commands: &mut Commands, canvas: &Canvas, current: &CurrentMatch, secrecy: &Secrecy) {
    let Some(last) = current.history.len().checked_sub(1).filter(|&i| secrecy.is_public(i)) else { return };
    let s = canvas.state.scale;
    for name in cells_in_token(&current.history[last]) {
        let Some(at) = canvas.at(name) else { continue };
        let look = Sprite::from_color(rgb(canvas.pal.neutral).with_alpha(0.85), Vec2::splat(s * 0.14));
        spawn_mark(commands, canvas, (at + Vec2::splat(s * 0.3)).extend(4.0), look);
    }
}

/// Every space where a legal decision starts; a red ring where it captures.
fn legal_starts(commands: &mut Commands, canvas: &Canvas, decisions: &[String], rings: &StartRings) {
    let mut starts: Vec<(&str, bool)> = Vec::new();
    for d in decisions {
        let Some(first) = cells_in_token(d).first().copied() else { continue };
        let captures = d.ends_with('*') || d.starts_with('x');
        match starts.iter_mut().find(|(name, _)| *name == first) {
            Some(entry) => entry.1 |= captures,
            None => starts.push((first, captures)),
        }
    }
    for (name, captures) in starts {
        let Some(at) = canvas.at(name) else { continue };
        let material = if captures { rings.capture.clone() } else { rings.plain.clone() };
        spawn_mark(commands, canvas, at.extend(4.0), (Mesh2d(rings.mesh.clone()), MeshMaterial2d(material)));
    }
}

/// A stone on its way (a started Throngs part): see-through, with the power it has left.
fn travelling_stones(
    commands: &mut Commands,
    canvas: &Canvas,
    (meshes, materials): (&mut Assets<Mesh>, &mut Assets<ColorMaterial>),
) {
    let Some(view) = &canvas.state.view else { return };
    let s = canvas.state.scale;
    for c in &view.cells {
        let Some((side, range)) = c.marks.travelling else { continue };
        let at = canvas.state.to_world(c.x, c.y);
        let (fill, text) = canvas.pal.piece(canvas.kind, Some(side));
        let disc =
            (Mesh2d(meshes.add(Circle::new(s * 0.42))), MeshMaterial2d(materials.add(rgb(fill).with_alpha(0.45))));
        spawn_mark(commands, canvas, at.extend(4.6), disc);
        let label = (
            Text2d::new(range.to_string()),
            TextFont { font_size: bevy::text::FontSize::Px((s * 0.4).clamp(10.0, 28.0)), ..default() },
            TextColor(rgb(text)),
        );
        spawn_mark(commands, canvas, at.extend(4.7), label);
    }
}

/// The hint's spaces: a green ring each.
fn hint_spaces(
    commands: &mut Commands,
    canvas: &Canvas,
    suggested: &str,
    (meshes, materials): (&mut Assets<Mesh>, &mut Assets<ColorMaterial>),
) {
    let s = canvas.state.scale;
    for name in cells_in_token(suggested) {
        let Some(at) = canvas.at(name) else { continue };
        let ring = (
            Mesh2d(meshes.add(Annulus::new(s * 0.3, s * 0.38))),
            MeshMaterial2d(materials.add(Color::srgba(0.1, 0.65, 0.25, 0.9))),
        );
        spawn_mark(commands, canvas, at.extend(4.5), ring);
    }
}
