//! How board entities look: spaces, grid lines, stones with stack counts, the cursor, highlights
//! and coordinates. Added to logical entities when the renderer is present (not in headless tests).

use super::builder::{CellChosen, DragChosen, TurnBuilder};
use super::cursor::BoardCursor;
use super::project::{BoardState, CellSpace, Stone};
use crate::app::match_state::CurrentMatch;
use crate::app::settings_io::CurrentSettings;
use crate::app::theme::{BoardPalette, board_palette};
use crate::app::turn::TurnSystems;
use crate::rules::{Layout, Side};
use bevy::prelude::*;

/// The ring that shows the cursor.
#[derive(Component)]
struct CursorRing;

/// A dot marking a space where the decision being built can continue, or a recent change.
#[derive(Component)]
struct Highlight;

/// The disc of a stone (so its colour can follow the theme).
#[derive(Component)]
struct StoneDisc;

/// A cell's overlay (control tint and value), rebuilt whenever the position changes.
#[derive(Component)]
struct Overlay;

/// Grid lines, labels and other board dressing rebuilt with the board.
#[derive(Component)]
struct Dressing;

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (dress_board, dress_cells, recolour_cells, dress_stones, show_overlays, follow_cursor, show_destinations)
            .chain()
            .in_set(TurnSystems::Present)
            .run_if(resource_exists::<Assets<Mesh>>),
    );
}

pub(super) fn rgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}

/// Lines, board background and coordinates, when the board (re)appears.
fn dress_board(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    dressing: Query<Entity, With<Dressing>>,
    mut built_for: Local<Option<(Entity, bool, crate::save::Theme)>>,
) {
    let (Some(root), Some(view)) = (state.root, &state.view) else { return };
    let key = (root, settings.0.show_coordinates, settings.0.theme);
    if *built_for == Some(key) {
        return;
    }
    *built_for = Some(key);
    for e in &dressing {
        commands.entity(e).despawn();
    }
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    let (x0, y0, x1, y1) = view.bounds();
    let board_w = (x1 - x0 + 1.0) * s;
    let board_h = (y1 - y0 + 1.0) * s;
    let line = |commands: &mut Commands, a: Vec2, b: Vec2, width: f32, color: Color| {
        let mid = (a + b) / 2.0;
        let d = b - a;
        commands.spawn((
            Dressing,
            Sprite::from_color(color, Vec2::new(d.length() + width, width)),
            Transform::from_translation(mid.extend(-1.0)).with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
            ChildOf(root),
        ));
    };
    commands.spawn((
        Dressing,
        Sprite::from_color(rgb(pal.board), Vec2::new(board_w + s * 0.5, board_h + s * 0.5)),
        Transform::from_xyz(0.0, 0.0, -3.0),
        ChildOf(root),
    ));
    match &view.layout {
        Layout::Squares { .. } => {}
        Layout::Points { width, height } => {
            for f in 0..*width {
                let a = state.to_world(f as f32, y0);
                let b = state.to_world(f as f32, y1);
                line(&mut commands, a, b, (s * 0.04).max(1.0), rgb(pal.line));
            }
            for r in 0..*height {
                let a = state.to_world(x0, r as f32);
                let b = state.to_world(x1, r as f32);
                line(&mut commands, a, b, (s * 0.04).max(1.0), rgb(pal.line));
            }
        }
        Layout::Lattice { lines } => {
            for &(a, b) in lines {
                let (ca, cb) = (&view.cells[a as usize], &view.cells[b as usize]);
                line(
                    &mut commands,
                    state.to_world(ca.x, ca.y),
                    state.to_world(cb.x, cb.y),
                    (s * 0.05).max(1.0),
                    rgb(pal.line),
                );
            }
        }
    }
    if settings.0.show_coordinates {
        // Beyond the faded copies of a wrapped board's far side, not on top of them.
        let left_out = if view.wraps.iter().any(|w| w.dx < -0.1) { 1.62 } else { 0.62 };
        let below_out = if view.wraps.iter().any(|w| w.dy < -0.1) { 1.62 } else { 0.62 };
        let font = TextFont { font_size: bevy::text::FontSize::Px((s * 0.28).clamp(10.0, 18.0)), ..default() };
        for c in &view.cells {
            let (file, rank) = split_name(&c.name);
            let label = |commands: &mut Commands, text: String, at: Vec2| {
                commands.spawn((
                    Dressing,
                    Text2d::new(text),
                    font.clone(),
                    TextColor(rgb(pal.line)),
                    Transform::from_translation(at.extend(1.0)),
                    ChildOf(root),
                ));
            };
            if c.y == y0 && !matches!(view.layout, Layout::Lattice { .. }) {
                label(&mut commands, file.to_string(), state.to_world(c.x, c.y - below_out));
            }
            if c.x == view.cells.iter().filter(|o| o.y == c.y).map(|o| o.x).fold(f32::MAX, f32::min) {
                let text =
                    if matches!(view.layout, Layout::Lattice { .. }) { file.to_string() } else { rank.to_string() };
                label(&mut commands, text, state.to_world(c.x - left_out, c.y));
            }
        }
    }
}

/// A space's fill: checkered squares, burned squares scorched; points are invisible click areas.
fn cell_colour(pal: &BoardPalette, layout: &Layout, c: &crate::rules::CellView) -> Color {
    if c.marks.burned {
        return rgb(pal.burned);
    }
    match layout {
        Layout::Squares { .. } => {
            let dark = (c.x.round() as i32 + c.y.round() as i32).rem_euclid(2) == 0;
            rgb(if dark { pal.square_dark } else { pal.square_light })
        }
        // Points: an invisible square makes the whole area around the point clickable.
        _ => Color::NONE,
    }
}

/// Spaces follow the position after they are built: a square burns (and stays scorched until it
/// reopens), and the theme can change.
fn recolour_cells(
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    mut cells: Query<(&CellSpace, &mut Sprite), Without<Stone>>,
) {
    if !state.is_changed() && !settings.is_changed() {
        return;
    }
    let Some(view) = &state.view else { return };
    let pal = board_palette(settings.0.theme);
    for (space, mut sprite) in &mut cells {
        if let Some(c) = view.cells.iter().find(|c| c.cell == space.cell) {
            let colour = cell_colour(&pal, &view.layout, c);
            if sprite.color != colour {
                sprite.color = colour;
            }
        }
    }
}

/// `"c12"` → `("c", "12")`.
fn split_name(name: &str) -> (&str, &str) {
    let i = name.find(|c: char| c.is_ascii_digit()).unwrap_or(name.len());
    (&name[..i], &name[i..])
}

fn dress_cells(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    cells: Query<(Entity, &CellSpace), Added<CellSpace>>,
) {
    let Some(view) = &state.view else { return };
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    for (e, space) in &cells {
        let Some(c) = view.cells.iter().find(|c| c.cell == space.cell) else { continue };
        let color = cell_colour(&pal, &view.layout, c);
        let size = Vec2::splat(if matches!(view.layout, Layout::Squares { .. }) { s * 0.98 } else { s * 0.9 });
        commands
            .entity(e)
            .insert((Sprite::from_color(color, size), Pickable::default()))
            .observe(|click: On<Pointer<Click>>, spaces: Query<&CellSpace>, mut out: MessageWriter<CellChosen>| {
                if click.button == PointerButton::Primary
                    && let Ok(space) = spaces.get(click.event_target())
                {
                    out.write(CellChosen(space.name.clone()));
                }
            })
            .observe(
                // Drag a stack or stone onto another space: a move without two clicks.
                |drop: On<Pointer<DragDrop>>, spaces: Query<&CellSpace>, mut out: MessageWriter<DragChosen>| {
                    if drop.button == PointerButton::Primary
                        && let (Ok(from), Ok(to)) = (spaces.get(drop.dropped), spaces.get(drop.event_target()))
                        && from.cell != to.cell
                    {
                        out.write(DragChosen { from: from.name.clone(), to: to.name.clone() });
                    }
                },
            )
            .observe(
                |over: On<Pointer<Over>>,
                 spaces: Query<&CellSpace>,
                 state: Res<BoardState>,
                 mut cursor: ResMut<BoardCursor>| {
                    if let (Ok(space), Some(view)) = (spaces.get(over.event_target()), &state.view)
                        && let Some(i) = view.cells.iter().position(|c| c.cell == space.cell)
                    {
                        cursor.index = i;
                    }
                },
            );
        if matches!(view.layout, Layout::Points { .. } | Layout::Lattice { .. }) {
            commands.spawn((
                Sprite::from_color(rgb(pal.line), Vec2::splat((s * 0.12).max(3.0))),
                Transform::from_xyz(0.0, 0.0, 0.5).with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
                Pickable::IGNORE,
                ChildOf(e),
            ));
        }
    }
}

pub(super) fn side_colour(pal: &BoardPalette, owner: Option<Side>, kind: char) -> (Color, Color) {
    // Gravel's first side is Light ('l'): its pieces take the light colour, Dark's the dark one.
    let light_first = matches!(kind, 'l' | 'd');
    match owner {
        Some(Side::First) if light_first => (rgb(pal.second), rgb(pal.second_text)),
        Some(Side::Second) if light_first => (rgb(pal.first), rgb(pal.first_text)),
        Some(Side::First) => (rgb(pal.first), rgb(pal.first_text)),
        Some(Side::Second) => (rgb(pal.second), rgb(pal.second_text)),
        None if kind == 'r' || kind == 'R' => (rgb(pal.neutral), Color::WHITE),
        None => (rgb(pal.line), Color::WHITE),
    }
}

fn dress_stones(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    stones: Query<(Entity, &Stone), Added<Stone>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    current: Option<Res<CurrentMatch>>,
) {
    let lettered = current.is_some_and(|m| m.game.kind() == crate::games::GameKind::HiddenIntention);
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    for (e, stone) in &stones {
        let (fill, text) = side_colour(&pal, stone.owner, stone.kind);
        let r = s * 0.4;
        // A stack shows its height as a few offset discs below the top one, and a count.
        let layers = stone.height.clamp(1, 4);
        for layer in 0..layers {
            let dy = (layers - 1 - layer) as f32 * -s * 0.05;
            let shade = if layer + 1 == layers { fill } else { fill.darker(0.15) };
            commands.spawn((
                StoneDisc,
                Mesh2d(meshes.add(Circle::new(r))),
                MeshMaterial2d(materials.add(shade)),
                Transform::from_xyz(0.0, dy, layer as f32 * 0.01),
                Pickable::IGNORE,
                ChildOf(e),
            ));
        }
        let label = stone_label(stone, lettered);
        if !label.is_empty() {
            commands.spawn((
                Text2d::new(label),
                TextFont { font_size: bevy::text::FontSize::Px((s * 0.42).clamp(10.0, 40.0)), ..default() },
                TextColor(text),
                Transform::from_xyz(0.0, 0.0, 0.5),
                Pickable::IGNORE,
                ChildOf(e),
            ));
        }
        if let Some(f) = stone.facing {
            // A short tick on the rim, pointing where the knight faces, clear of its letter.
            let turn = Quat::from_rotation_z(-(f as f32) * std::f32::consts::FRAC_PI_4);
            commands.spawn((
                Sprite::from_color(text, Vec2::new(s * 0.07, s * 0.15)),
                Transform::from_translation(turn * Vec3::new(0.0, s * 0.3, 0.6)).with_rotation(turn),
                Pickable::IGNORE,
                ChildOf(e),
            ));
        }
    }
}

/// The text on a stone: a stack's height, or a figure's letter where pieces are told apart by
/// letters (`lettered`: Hidden Intention's R, B, Q, …; other games' kinds are colours, and Throngs'
/// `B`/`W` must not be read as a bishop).
fn stone_label(stone: &Stone, lettered: bool) -> String {
    if stone.height > 1 {
        stone.height.to_string()
    } else if lettered {
        stone.kind.to_string()
    } else {
        String::new()
    }
}

fn follow_cursor(
    mut commands: Commands,
    state: Res<BoardState>,
    cursor: Res<BoardCursor>,
    settings: Res<CurrentSettings>,
    mut ring: Query<(Entity, &mut Transform, &ChildOf), With<CursorRing>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let (Some(root), Some(view)) = (state.root, &state.view) else { return };
    let Some(c) = view.cells.get(cursor.index) else { return };
    let at = state.to_world(c.x, c.y).extend(5.0);
    match ring.single_mut() {
        Ok((_, mut t, parent)) if parent.parent() == root => t.translation = at,
        other => {
            if let Ok((e, ..)) = other {
                commands.entity(e).despawn();
            }
            let pal = board_palette(settings.0.theme);
            let s = state.scale;
            commands.spawn((
                CursorRing,
                Mesh2d(meshes.add(Annulus::new(s * 0.44, s * 0.5))),
                MeshMaterial2d(materials.add(rgb(pal.cursor))),
                Transform::from_translation(at),
                Pickable::IGNORE,
                ChildOf(root),
            ));
        }
    }
}

/// The shared mesh and materials of the legal-start rings, for one board scale and theme.
struct StartRings {
    key: (f32, crate::save::Theme),
    mesh: Handle<Mesh>,
    plain: Handle<ColorMaterial>,
    capture: Handle<ColorMaterial>,
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn show_destinations(
    mut commands: Commands,
    state: Res<BoardState>,
    builder: Res<TurnBuilder>,
    current: Res<CurrentMatch>,
    settings: Res<CurrentSettings>,
    old: Query<Entity, With<Highlight>>,
    secrecy: Res<crate::app::secrecy::Secrecy>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    (hint, replay): (Res<crate::app::ai_player::Hint>, Res<crate::app::replay::Replay>),
    mut rings: Local<Option<StartRings>>,
) {
    if !builder.is_changed()
        && !current.is_changed()
        && !settings.is_changed()
        && !hint.is_changed()
        && !replay.is_changed()
    {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(root), Some(view)) = (state.root, &state.view) else { return };
    let pal = board_palette(settings.0.theme);
    // The last decision's spaces (when public) get a small square mark.
    let last_public = current.history.len().checked_sub(1).filter(|&i| secrecy.is_public(i));
    if let Some(last) = last_public.map(|i| current.history[i].clone()) {
        for name in crate::rules::cells_in_token(&last) {
            let Some(c) = view.cells.iter().find(|c| c.name == name) else { continue };
            commands.spawn((
                Highlight,
                Sprite::from_color(rgb(pal.neutral).with_alpha(0.85), Vec2::splat(state.scale * 0.14)),
                Transform::from_translation((state.to_world(c.x, c.y) + Vec2::splat(state.scale * 0.3)).extend(4.0)),
                Pickable::IGNORE,
                ChildOf(root),
            ));
        }
    }
    let decisions = current.decisions_now();
    // Space name → view index: one pass instead of a search per mark (big boards have hundreds).
    let index: std::collections::HashMap<&str, usize> =
        view.cells.iter().enumerate().map(|(i, c)| (c.name.as_str(), i)).collect();
    let person_acts = !replay.active && current.acting_side().is_some_and(|side| current.player_of(side).is_none());
    // A started Throngs part always shows where its stone can go, hints on or off.
    let part_under_way = view.cells.iter().any(|c| c.marks.travelling.is_some());
    if (settings.0.show_hints || part_under_way) && person_acts && builder.start.is_none() && builder.choices.is_empty()
    {
        // Every space where a legal decision starts; a red ring where it captures (a red stone).
        let mut starts: Vec<(&str, bool)> = Vec::new();
        for d in &decisions {
            let Some(first) = crate::rules::cells_in_token(d).first().copied() else { continue };
            let captures = d.ends_with('*') || d.starts_with('x');
            match starts.iter_mut().find(|(name, _)| *name == first) {
                Some(entry) => entry.1 |= captures,
                None => starts.push((first, captures)),
            }
        }
        // One mesh and two materials shared by every ring (building a mesh per ring was the largest
        // cost of a decision on a 19×19 board).
        let key = (state.scale, settings.0.theme);
        if rings.as_ref().is_none_or(|r| r.key != key) {
            *rings = Some(StartRings {
                key,
                mesh: meshes.add(Annulus::new(state.scale * 0.1, state.scale * 0.16)),
                plain: materials.add(rgb(pal.cursor).with_alpha(0.7)),
                capture: materials.add(Color::srgb(0.85, 0.1, 0.1)),
            });
        }
        let Some(r) = rings.as_ref() else { return };
        for (name, captures) in starts {
            let Some(c) = index.get(name).map(|&i| &view.cells[i]) else { continue };
            commands.spawn((
                Highlight,
                Mesh2d(r.mesh.clone()),
                MeshMaterial2d(if captures { r.capture.clone() } else { r.plain.clone() }),
                Transform::from_translation(state.to_world(c.x, c.y).extend(4.0)),
                Pickable::IGNORE,
                ChildOf(root),
            ));
        }
    }
    for c in &view.cells {
        // A stone on its way (a started Throngs part): see-through, with the power it has left.
        let Some((side, range)) = c.marks.travelling else { continue };
        let (fill, text) = side_colour(&pal, Some(side), ' ');
        let at = state.to_world(c.x, c.y);
        commands.spawn((
            Highlight,
            Mesh2d(meshes.add(Circle::new(state.scale * 0.42))),
            MeshMaterial2d(materials.add(fill.with_alpha(0.45))),
            Transform::from_translation(at.extend(4.6)),
            Pickable::IGNORE,
            ChildOf(root),
        ));
        commands.spawn((
            Highlight,
            Text2d::new(range.to_string()),
            TextFont { font_size: bevy::text::FontSize::Px((state.scale * 0.4).clamp(10.0, 28.0)), ..default() },
            TextColor(text),
            Transform::from_translation(at.extend(4.7)),
            Pickable::IGNORE,
            ChildOf(root),
        ));
    }
    if let Some(suggested) = hint.current(&current) {
        // The hint's spaces: a green ring each.
        for name in crate::rules::cells_in_token(suggested) {
            let Some(c) = view.cells.iter().find(|c| c.name == name) else { continue };
            commands.spawn((
                Highlight,
                Mesh2d(meshes.add(Annulus::new(state.scale * 0.3, state.scale * 0.38))),
                MeshMaterial2d(materials.add(Color::srgba(0.1, 0.65, 0.25, 0.9))),
                Transform::from_translation(state.to_world(c.x, c.y).extend(4.5)),
                Pickable::IGNORE,
                ChildOf(root),
            ));
        }
    }
    let mut marks = builder.destinations(&decisions);
    if let Some(start) = &builder.start {
        marks.push(start.clone());
    }
    for name in marks {
        let Some(c) = index.get(name.as_str()).map(|&i| &view.cells[i]) else { continue };
        commands.spawn((
            Highlight,
            Mesh2d(meshes.add(Circle::new(state.scale * 0.14))),
            MeshMaterial2d(materials.add(rgb(pal.cursor).with_alpha(0.8))),
            Transform::from_translation(state.to_world(c.x, c.y).extend(4.0)),
            Pickable::IGNORE,
            ChildOf(root),
        ));
    }
}

/// With hints on: each space tinted by the side that controls or influences it, and its number
/// (influence, power) written small in the corner.
fn show_overlays(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    old: Query<Entity, With<Overlay>>,
    current: Option<Res<CurrentMatch>>,
) {
    // Gravel's first side is Light: its tint is the light colour, as its pieces are.
    let light_first = current.is_some_and(|m| m.game.kind() == crate::games::GameKind::Gravel);
    // Rebuilt only when the board or the settings change (comparing views every frame was the
    // largest per-frame cost on big boards).
    if !state.is_changed() && !settings.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(view), true) = (&state.view, settings.0.show_hints) else { return };
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    for (c, &cell) in view.cells.iter().zip(&state.cells) {
        if let Some(side) = c.marks.control {
            let colour = if (side == Side::First) != light_first { rgb(pal.first) } else { rgb(pal.second) };
            commands.spawn((
                Overlay,
                Sprite::from_color(colour.with_alpha(0.28), Vec2::splat(s * 0.9)),
                Transform::from_xyz(0.0, 0.0, 0.2),
                Pickable::IGNORE,
                ChildOf(cell),
            ));
        }
        if let Some(v) = c.marks.value.filter(|v| *v != 0) {
            commands.spawn((
                Overlay,
                Text2d::new(format!("{v:+}")),
                TextFont { font_size: bevy::text::FontSize::Px((s * 0.2).clamp(8.0, 16.0)), ..default() },
                TextColor(rgb(pal.line)),
                Transform::from_xyz(s * 0.3, -s * 0.3, 3.0),
                Pickable::IGNORE,
                ChildOf(cell),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_show_heights_and_every_figure_letter() {
        let stone = |kind: char, height: u16| Stone { cell: 0, owner: Some(Side::First), kind, height, facing: None };
        for figure in ['P', 'X', 'R', 'B', 'N', 'Q'] {
            assert_eq!(stone_label(&stone(figure, 1), true), figure.to_string());
        }
        assert_eq!(stone_label(&stone('B', 1), false), "", "a Throngs stone is not a bishop");
        assert_eq!(stone_label(&stone('l', 3), false), "3");
    }
}
