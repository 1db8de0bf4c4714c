//! Hover previews from the engines' dry runs: with hints on, the stones a decision at the cursor
//! would remove are crossed out before the player commits (a red stone's captures, a removal, an
//! Inchworm capture), whatever the game.

use super::project::BoardState;
use crate::app::AppSystems;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::{BoardCursor, Replay, person_acts};
use crate::app::settings::CurrentSettings;
use crate::games::DynGame;
use crate::rules::cells_in_token;
use bevy::prelude::*;

/// A cross over a stone the hovered decision would remove.
#[derive(Component)]
struct PreviewMark;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, show_preview.in_set(AppSystems::Present).run_if(super::drawing));
}

/// The spaces whose pieces `decision` would remove or shrink, found by playing it on a copy.
pub fn removed_by(game: &dyn DynGame, decision: &str) -> Vec<String> {
    let (before, mut after) = (game.board_view(), game.clone_box());
    if after.play_decision(decision).is_err() {
        return Vec::new();
    }
    let after = after.board_view();
    before
        .cells
        .iter()
        .filter(|c| {
            let Some(was) = &c.piece else { return false };
            match after.cells.iter().find(|a| a.name == c.name).and_then(|a| a.piece.as_ref()) {
                None => true,
                Some(now) => now.owner == was.owner && now.height() < was.height(),
            }
        })
        .map(|c| c.name.clone())
        .collect()
}

/// The complete decisions that start and end on `cell`, capturing ones first.
fn decisions_at<'a>(decisions: &'a [String], cell: &str) -> Vec<&'a String> {
    let mut at: Vec<&String> = decisions.iter().filter(|d| cells_in_token(d) == [cell]).collect();
    at.sort_by_key(|d| !(d.ends_with('*') || d.starts_with('x')));
    at
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn show_preview(
    mut commands: Commands,
    state: Res<BoardState>,
    cursor: Res<BoardCursor>,
    current: Res<CurrentMatch>,
    settings: Res<CurrentSettings>,
    old: Query<Entity, With<PreviewMark>>,
    mut shown_for: Local<Option<(usize, usize, bool, usize)>>,
    replay: Res<Replay>,
) {
    let key = (cursor.index, current.history.len(), settings.0.show_hints, state.cells.len());
    if *shown_for == Some(key) && !current.is_changed() {
        return;
    }
    *shown_for = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(root), Some(view), true) = (state.root, &state.view, settings.0.show_hints) else { return };
    let Some(cell) = view.cells.get(cursor.index).filter(|_| person_acts(&current, &replay)) else { return };
    let decisions = current.decisions_now();
    let Some(decision) = decisions_at(&decisions, &cell.name).into_iter().next() else { return };
    let s = state.scale;
    for name in removed_by(current.game.as_ref(), decision) {
        let Some(c) = view.cells.iter().find(|c| c.name == name) else { continue };
        let at = state.to_world(c.x, c.y).extend(6.0);
        for angle in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
            commands.spawn((
                PreviewMark,
                Sprite::from_color(Color::srgba(0.85, 0.1, 0.1, 0.85), Vec2::new(s * 0.7, s * 0.09)),
                Transform::from_translation(at).with_rotation(Quat::from_rotation_z(angle)),
                Pickable::IGNORE,
                ChildOf(root),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameKind, open};

    #[test]
    fn a_red_stone_preview_names_the_group_it_captures() {
        let mut game = open(GameKind::named("red-stone"), &[("size".into(), "5".into())], None).unwrap();
        for d in ["A1", "A2", "C3", "B2"] {
            game.play_decision(d).unwrap();
        }
        // Black's A1 has one liberty left, B1: a red stone there removes it.
        assert_eq!(removed_by(game.as_ref(), "B1*"), vec!["A1".to_string()]);
        assert!(removed_by(game.as_ref(), "E5").is_empty());
        assert!(removed_by(game.as_ref(), "not a move").is_empty());
    }

    #[test]
    fn capturing_decisions_come_first() {
        let d: Vec<String> = ["B1", "B1*", "C1"].iter().map(|s| s.to_string()).collect();
        assert_eq!(decisions_at(&d, "B1"), vec!["B1*", "B1"]);
    }
}
