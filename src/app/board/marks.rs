//! Marks on the board about what to do and what just happened: a small contrasting dot on the
//! last placed piece; small translucent dots where a legal decision starts (red where it captures;
//! only under the cursor when nearly every space is legal, as on an empty board); the stone of a
//! started Throngs part with the power it has left; the hint's spaces; where the decision being
//! built can go on; a lesson's own rings and arrows, a missed practice solution's spaces. None
//! covers a piece's information. They are rebuilt only when the match, the turn being built, the
//! hint, the cursor (for the dense case), the lesson or practice, or the settings change.

use super::board_text::BoardText;
use super::drawing;
use super::look::STONE;
use super::project::BoardState;
use super::textures::{BoardArt, STONE_PICTURE_SCALE};
use crate::app::AppSystems;
use crate::app::lesson_state::{Answer, LessonRun, PracticeRun};
use crate::app::match_state::CurrentMatch;
use crate::app::playing::{
    BoardCursor, HintShown, LastTurn, Offer, Replay, Secrecy, TurnBuilder, offers_now, person_acts,
};
use crate::app::settings::CurrentSettings;
use crate::app::theme::{BoardPalette, board_palette, rgb};
use crate::games::GameKind;
use crate::lessons::Standing;
use crate::rules::{CellView, Layout, Tone};
use bevy::prelude::*;
use std::collections::HashMap;

/// A mark of this module (all are rebuilt together).
#[derive(Component)]
struct Mark;

/// More than this share of the spaces legal: the dots show only under the cursor.
const DENSE: f32 = 0.5;

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        show_marks.in_set(AppSystems::Present).run_if(drawing.and_then(resource_exists::<BoardArt>)),
    );
}

/// Where marks go: the board's root, its layout, and the view's spaces by name.
struct Canvas<'a> {
    root: Entity,
    state: &'a BoardState,
    by_name: HashMap<&'a str, &'a CellView>,
    pal: BoardPalette,
    kind: GameKind,
    art: &'a BoardArt,
}

impl Canvas<'_> {
    fn at(&self, name: &str) -> Option<Vec2> {
        self.by_name.get(name).map(|c| self.state.to_world(c.x, c.y))
    }

    /// A round mark of the shared disc picture.
    fn dot(&self, commands: &mut Commands, at: Vec3, size: f32, colour: Color) {
        let sprite =
            Sprite { image: self.art.disc.clone(), color: colour, custom_size: Some(Vec2::splat(size)), ..default() };
        self.spawn(commands, at, sprite);
    }

    fn spawn(&self, commands: &mut Commands, at: Vec3, look: impl Bundle) {
        commands.spawn((Mark, look, Transform::from_translation(at), Pickable::IGNORE, ChildOf(self.root)));
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn show_marks(
    mut commands: Commands,
    state: Res<BoardState>,
    (builder, current, settings): (Res<TurnBuilder>, Res<CurrentMatch>, Res<CurrentSettings>),
    (secrecy, hint, replay, cursor): (Res<Secrecy>, Res<HintShown>, Res<Replay>, Res<BoardCursor>),
    old: Query<Entity, With<Mark>>,
    art: Res<BoardArt>,
    (lesson, practice): (Option<Res<LessonRun>>, Option<Res<PracticeRun>>),
    mut dense: Local<bool>,
) {
    let changed = lesson.as_ref().is_some_and(|l| l.is_changed())
        || practice.as_ref().is_some_and(|p| p.is_changed())
        || builder.is_changed()
        || current.is_changed()
        || settings.is_changed()
        || hint.is_changed()
        || replay.is_changed()
        || secrecy.is_changed()
        || state.is_changed()
        || (*dense && cursor.is_changed());
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
        kind: current.position().kind(),
        art: &art,
    };
    let decisions = offers_now(&current);
    last_turn(&mut commands, &canvas, &LastTurn::of(&current, &secrecy));
    last_placed(&mut commands, &canvas, &current, &secrecy);
    // A started Throngs part always shows where its stone can go, hints on or off.
    let part_under_way = view.cells.iter().any(|c| c.marks.travelling.is_some());
    *dense = false;
    if (settings.0.show_hints || part_under_way)
        && person_acts(&current, &replay)
        && builder.start.is_none()
        && builder.choices.is_empty()
    {
        let under_cursor = view.cells.get(cursor.index).map(|c| c.name.as_str());
        *dense = legal_starts(&mut commands, &canvas, &decisions, under_cursor);
    }
    travelling_stones(&mut commands, &canvas);
    // Every space of the hinted turn, its decisions described one after another on a copy.
    let mut hinted_spaces = Vec::new();
    if hint.current(&current).is_some() {
        let mut position = current.position().clone_box();
        for d in &hint.turn {
            let Some(described) = position.describe_decision(d) else { break };
            hinted_spaces.extend(Offer::of(&described, view).picks);
            if position.play_decision(d).is_err() {
                break;
            }
        }
    }
    for name in &hinted_spaces {
        let Some(at) = canvas.at(name) else { continue };
        let ring = Sprite {
            image: art.ring.clone(),
            color: rgb(canvas.pal.hint),
            custom_size: Some(Vec2::splat(state.scale * 0.8)),
            ..default()
        };
        canvas.spawn(&mut commands, at.extend(4.5), ring);
    }
    if let Some(run) = lesson.filter(|run| run.standing == Standing::OnTheWay) {
        lesson_marks(&mut commands, &canvas, &run.lesson.marks, &run.lesson.arrows);
    }
    // A missed practice position: where its solution plays.
    if let Some(run) = practice.filter(|run| run.answer == Answer::Wrong) {
        let mut position = current.start().clone_box();
        let mut spaces = Vec::new();
        for d in &run.practice.solution {
            if let Some(described) = position.describe_decision(d) {
                spaces.extend(Offer::of(&described, view).picks);
            }
            if position.play_decision(d).is_err() {
                break;
            }
        }
        lesson_marks(&mut commands, &canvas, &spaces, &[]);
    }
    let mut destinations = builder.destinations(&decisions);
    destinations.extend(builder.start.clone());
    for name in destinations {
        let Some(at) = canvas.at(&name) else { continue };
        canvas.dot(&mut commands, at.extend(4.0), state.scale * 0.28, rgb(canvas.pal.cursor).with_alpha(0.85));
    }
}

/// The spaces a lesson's goal talks about, ringed, and its arrows, while the learner works on it
/// (and where a missed practice position's solution plays).
fn lesson_marks(commands: &mut Commands, canvas: &Canvas, marks: &[String], arrows: &[(String, String)]) {
    let s = canvas.state.scale;
    // The hint's colour: the cursor's would read as a second cursor.
    let colour = rgb(canvas.pal.hint);
    for name in marks {
        let Some(at) = canvas.at(name) else { continue };
        let ring = Sprite {
            image: canvas.art.ring.clone(),
            color: colour,
            custom_size: Some(Vec2::splat(s * 0.9)),
            ..default()
        };
        canvas.spawn(commands, at.extend(4.5), ring);
    }
    for (from, to) in arrows {
        let (Some(a), Some(b)) = (canvas.at(from), canvas.at(to)) else { continue };
        for (sprite, transform) in super::preview::arrow_sprites(a, b, s, colour.with_alpha(0.85)) {
            commands.spawn((Mark, sprite, transform, Pickable::IGNORE, ChildOf(canvas.root)));
        }
    }
}

/// The last turn's trace: every space it touched faintly tinted (under the pieces), and a ghost
/// of each piece it removed where that space is empty now.
fn last_turn(commands: &mut Commands, canvas: &Canvas, turn: &LastTurn) {
    let s = canvas.state.scale;
    let squares = matches!(canvas.state.view.as_ref().map(|v| &v.layout), Some(Layout::Squares { .. }));
    for name in &turn.touched {
        let Some(at) = canvas.at(name) else { continue };
        let tint = rgb(canvas.pal.cursor).with_alpha(0.22);
        if squares {
            let square = Sprite { color: tint, custom_size: Some(Vec2::splat(s * 0.96)), ..default() };
            canvas.spawn(commands, at.extend(1.5), square);
        } else {
            canvas.dot(commands, at.extend(1.5), s * 0.9, tint);
        }
    }
    for (name, piece) in &turn.ghosts {
        let Some(cell) = canvas.by_name.get(name.as_str()) else { continue };
        if cell.piece.is_some() {
            continue;
        }
        let colour = match piece.owner.map(|side| canvas.kind.tone(side)) {
            Some(Tone::Dark) => canvas.pal.dark,
            Some(Tone::Light) => canvas.pal.light,
            None => canvas.pal.neutral,
        };
        let at = canvas.state.to_world(cell.x, cell.y);
        canvas.dot(commands, at.extend(1.6), s * STONE * 0.8, rgb(colour).with_alpha(0.35));
        // A small cross says the piece was taken, not just moved.
        let bar = Sprite {
            color: rgb(canvas.pal.capture).with_alpha(0.7),
            custom_size: Some(Vec2::new(s * 0.34, s * 0.06)),
            ..default()
        };
        for turn in [1.0_f32, -1.0] {
            let tilt = Quat::from_rotation_z(turn * std::f32::consts::FRAC_PI_4);
            commands.spawn((
                Mark,
                bar.clone(),
                Transform::from_translation(at.extend(1.7)).with_rotation(tilt),
                Pickable::IGNORE,
                ChildOf(canvas.root),
            ));
        }
    }
}

/// The last public decision's piece gets a small dot of the contrasting colour, as OGS marks the
/// last stone: light on a dark piece, dark on a light one.
fn last_placed(commands: &mut Commands, canvas: &Canvas, current: &CurrentMatch, secrecy: &Secrecy) {
    let Some(last) = current.len().checked_sub(1).filter(|&i| secrecy.is_public(i)) else { return };
    let s = canvas.state.scale;
    let Some(described) =
        current.position_before(last).and_then(|before| before.describe_decision(current.decision(last)))
    else {
        return;
    };
    let Some(&at) = described.picks.last() else { return };
    let Some(cell) = canvas.state.view.as_ref().and_then(|v| v.cells.iter().find(|c| c.cell == at)) else { return };
    let Some(piece) = cell.piece else { return };
    let colour = match piece.owner.map(|side| canvas.kind.tone(side)) {
        Some(Tone::Dark) | None => canvas.pal.light,
        Some(Tone::Light) => canvas.pal.dark,
    };
    let at = canvas.state.to_world(cell.x, cell.y);
    canvas.dot(commands, at.extend(4.2), s * 0.2, rgb(colour));
}

/// A small dot where a legal decision starts (red where it captures). Returns whether the dots
/// were too many to show, so that only the one under the cursor was.
fn legal_starts(commands: &mut Commands, canvas: &Canvas, offers: &[Offer], under_cursor: Option<&str>) -> bool {
    let mut starts: Vec<(&str, bool)> = Vec::new();
    for o in offers {
        let Some(first) = o.picks.first().map(String::as_str) else { continue };
        match starts.iter_mut().find(|(name, _)| *name == first) {
            Some(entry) => entry.1 |= o.captures,
            None => starts.push((first, o.captures)),
        }
    }
    let dense = starts.len() as f32 > DENSE * canvas.by_name.len() as f32;
    let s = canvas.state.scale;
    for (name, captures) in starts {
        if dense && Some(name) != under_cursor {
            continue;
        }
        let Some(cell) = canvas.by_name.get(name) else { continue };
        let at = canvas.state.to_world(cell.x, cell.y);
        // On an occupied space the dot sits at the upper right, clear of the piece's own marks
        // (the danger flag at the upper left, a stack's height at the lower right).
        let offset = if cell.piece.is_some() { Vec2::new(s * 0.3, s * 0.3) } else { Vec2::ZERO };
        let colour =
            if captures { rgb(canvas.pal.capture).with_alpha(0.9) } else { rgb(canvas.pal.legal).with_alpha(0.55) };
        canvas.dot(commands, (at + offset).extend(4.0), s * if captures { 0.26 } else { 0.2 }, colour);
    }
    dense
}

/// A stone on its way (a started Throngs part): see-through, with the power it has left on a badge.
fn travelling_stones(commands: &mut Commands, canvas: &Canvas) {
    let Some(view) = &canvas.state.view else { return };
    let s = canvas.state.scale;
    for c in &view.cells {
        let Some((side, range)) = c.marks.travelling else { continue };
        let at = canvas.state.to_world(c.x, c.y);
        let (fill, _) = canvas.pal.piece(canvas.kind, Some(side));
        let ghost = Sprite {
            image: canvas.art.disc.clone(),
            color: rgb(fill).with_alpha(0.5),
            custom_size: Some(Vec2::splat(s * STONE / STONE_PICTURE_SCALE * 1.2)),
            ..default()
        };
        canvas.spawn(commands, at.extend(4.6), ghost);
        canvas.dot(commands, (at + Vec2::new(s * 0.3, -s * 0.3)).extend(4.7), s * 0.36, rgb(canvas.pal.badge));
        let label = BoardText::new(range.to_string(), (s * 0.24).max(11.0), rgb(canvas.pal.badge_text));
        canvas.spawn(commands, (at + Vec2::new(s * 0.3, -s * 0.3)).extend(4.8), label);
    }
}
