//! Hover previews from the engines' dry runs: with hints on, exactly the highlighted decision (the
//! focused entry of an open choice list, the one move from a chosen start to the cursor, or the
//! one decision the cursor's space allows) shows what it would do: a red cross over each piece it
//! would take, an arrow for each piece it would only move, whatever the game.

use super::project::BoardState;
use crate::app::AppSystems;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::{BoardCursor, Choice, Offer, Replay, TurnBuilder, offers_now, person_acts};
use crate::app::settings::CurrentSettings;
use crate::app::ui::MenuFocus;
use crate::games::{DynGame, removed_cells};
use crate::rules::{Cell, EffectKind};
use bevy::prelude::*;

/// A cross or an arrow of the preview.
#[derive(Component)]
struct PreviewMark;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, show_preview.in_set(AppSystems::Present).run_if(super::drawing));
}

/// What a decision would do, found by playing it on a copy.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Preview {
    /// The spaces whose pieces it would take (captured or removed).
    pub removed: Vec<String>,
    /// The steps pieces would only move along, from one space to another.
    pub moves: Vec<(String, String)>,
}

/// The preview of `decision` on `game` (empty when it cannot be played).
pub fn preview_of(game: &dyn DynGame, decision: &str) -> Preview {
    let (view, mut after) = (game.board_view(), game.clone_box());
    let Ok(effects) = after.play_decision(decision) else { return Preview::default() };
    let name = |c: Cell| view.cells.get(usize::from(c)).map(|v| v.name.clone()).unwrap_or_default();
    let mut moves = Vec::new();
    for effect in &effects {
        match &effect.kind {
            EffectKind::Moved { from, to, .. } => moves.push((name(*from), name(*to))),
            EffectKind::Hopped { path, .. } | EffectKind::Distributed { path, .. } => {
                moves.extend(path.windows(2).map(|w| (name(w[0]), name(w[1]))));
            }
            EffectKind::Collected { from, to, .. } => moves.extend(from.iter().map(|f| (name(*f), name(*to)))),
            _ => {}
        }
    }
    moves.retain(|(a, b)| a != b);
    Preview { removed: removed_cells(&effects).into_iter().map(name).collect(), moves }
}

/// The decision the player has highlighted: the focused entry of the open choice list, the one
/// move from the chosen start to `cell`, or the one decision that `cell` alone makes. Nothing when
/// a press on `cell` would still ask which.
pub fn highlighted_decision(builder: &TurnBuilder, focus: usize, offers: &[Offer], cell: &str) -> Option<String> {
    if !builder.choices.is_empty() {
        return match builder.choices.get(focus)? {
            Choice::Decision(d) => Some(d.clone()),
            Choice::StartFrom(_) => None,
        };
    }
    let wanted: Vec<&Offer> = match &builder.start {
        Some(start) => {
            offers.iter().filter(|o| o.picks.len() == 2 && o.picks[0] == *start && o.picks[1] == cell).collect()
        }
        None => offers.iter().filter(|o| o.picks.first().map(String::as_str) == Some(cell)).collect(),
    };
    match wanted.as_slice() {
        [one] if builder.start.is_some() || one.picks.len() == 1 => Some(one.token.clone()),
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn show_preview(
    mut commands: Commands,
    state: Res<BoardState>,
    (cursor, builder, focus): (Res<BoardCursor>, Res<TurnBuilder>, Res<MenuFocus>),
    current: Res<CurrentMatch>,
    settings: Res<CurrentSettings>,
    old: Query<Entity, With<PreviewMark>>,
    mut shown_for: Local<Option<(usize, usize, bool, usize)>>,
    replay: Res<Replay>,
) {
    let key = (cursor.index, current.len(), settings.0.show_hints, state.cells.len());
    if *shown_for == Some(key) && !current.is_changed() && !builder.is_changed() && !focus.is_changed() {
        return;
    }
    *shown_for = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(root), Some(view), true) = (state.root, &state.view, settings.0.show_hints) else { return };
    let Some(cell) = view.cells.get(cursor.index).filter(|_| person_acts(&current, &replay)) else { return };
    let decisions = offers_now(&current);
    let at_cell = builder.at.clone().unwrap_or_else(|| cell.name.clone());
    let Some(decision) = highlighted_decision(&builder, focus.0, &decisions, &at_cell) else { return };
    let preview = preview_of(current.position(), &decision);
    let s = state.scale;
    let at = |name: &str| view.cells.iter().find(|c| c.name == name).map(|c| state.to_world(c.x, c.y));
    let mark = |commands: &mut Commands, sprite: Sprite, transform: Transform| {
        commands.spawn((PreviewMark, sprite, transform, Pickable::IGNORE, ChildOf(root)));
    };
    for name in &preview.removed {
        let Some(p) = at(name) else { continue };
        for angle in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
            let bar = Sprite::from_color(Color::srgba(0.85, 0.1, 0.1, 0.85), Vec2::new(s * 0.7, s * 0.09));
            mark(
                &mut commands,
                bar,
                Transform::from_translation(p.extend(6.0)).with_rotation(Quat::from_rotation_z(angle)),
            );
        }
    }
    let arrow = Color::srgba(0.1, 0.35, 0.85, 0.8);
    for (from, to) in &preview.moves {
        let (Some(a), Some(b)) = (at(from), at(to)) else { continue };
        for (sprite, transform) in arrow_sprites(a, b, s, arrow) {
            mark(&mut commands, sprite, transform);
        }
    }
}

/// An arrow from `a` to `b` on a board of space size `s`: a shaft that stops short of the head,
/// and a head of two short bars meeting at the target.
pub(super) fn arrow_sprites(a: Vec2, b: Vec2, s: f32, colour: Color) -> Vec<(Sprite, Transform)> {
    let (dir, length) = ((b - a).normalize_or_zero(), a.distance(b));
    let turn = Quat::from_rotation_z(dir.y.atan2(dir.x));
    let shaft = Sprite::from_color(colour, Vec2::new((length - s * 0.25).max(0.0), s * 0.08));
    let middle = a + dir * (length - s * 0.25) / 2.0;
    let mut out = vec![(shaft, Transform::from_translation(middle.extend(6.0)).with_rotation(turn))];
    for side in [1.0_f32, -1.0] {
        let head_turn = turn * Quat::from_rotation_z(side * 2.5);
        let head = Sprite::from_color(colour, Vec2::new(s * 0.3, s * 0.08));
        let centre = b - dir * s * 0.1 + (head_turn * Vec3::X).truncate() * s * 0.15;
        out.push((head, Transform::from_translation(centre.extend(6.0)).with_rotation(head_turn)));
    }
    out
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
        assert_eq!(preview_of(game.as_ref(), "B1*").removed, vec!["A1".to_string()]);
        assert_eq!(preview_of(game.as_ref(), "E5"), Preview::default());
        assert_eq!(preview_of(game.as_ref(), "not a move"), Preview::default());
    }

    #[test]
    fn the_preview_is_of_the_highlighted_choice_only() {
        let decisions = [Offer::picked("B1", &["B1"]), Offer::picked("B1*", &["B1"]), Offer::picked("C1", &["C1"])];
        let mut builder = TurnBuilder::default();
        // Two decisions at B1: nothing is highlighted until the list opens.
        assert_eq!(highlighted_decision(&builder, 0, &decisions, "B1"), None);
        assert_eq!(highlighted_decision(&builder, 0, &decisions, "C1"), Some("C1".to_string()));
        builder.choices = vec![Choice::Decision("B1".into()), Choice::Decision("B1*".into())];
        assert_eq!(highlighted_decision(&builder, 0, &decisions, "B1"), Some("B1".to_string()));
        assert_eq!(highlighted_decision(&builder, 1, &decisions, "B1"), Some("B1*".to_string()));
    }

    #[test]
    fn a_stone_that_only_moves_gets_an_arrow_not_a_cross() {
        // Inchworm: any move that only moves pieces shows arrows and no cross.
        let kind = GameKind::named("inchworm");
        let mut game = kind.open(&kind.quick_pairs(), None).unwrap();
        let mut seen_moves = false;
        for i in 0..200_usize {
            let decisions: Vec<String> =
                crate::rules::Side::BOTH.into_iter().flat_map(|s| game.legal_decisions(s)).collect();
            // A spread of decisions (not always the first: drops come first in the list).
            let Some(d) = decisions.get(i.wrapping_mul(7919) % decisions.len().max(1)).cloned() else { break };
            let preview = preview_of(game.as_ref(), &d);
            let mut after = game.clone_box();
            let effects = after.play_decision(&d).unwrap();
            let takes =
                effects.iter().any(|e| matches!(e.kind, EffectKind::Captured { .. } | EffectKind::Removed { .. }));
            assert_eq!(preview.removed.is_empty(), !takes, "{d}: {preview:?}");
            seen_moves |= !preview.moves.is_empty();
            if seen_moves && i > 60 {
                break;
            }
            game = after;
        }
        assert!(seen_moves, "some decision moved pieces");
    }
}
