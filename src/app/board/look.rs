//! How board entities look: the board's dressing (background, grid lines, coordinates), each
//! space's fill and overlays (control tint, the number of a space) read from its components, stones,
//! stacks piece by piece with their height, figures with their letter and facing, and the cursor.
//! Added to the logical entities only when the app draws (not in headless tests).

use super::drawing;
use super::project::{
    BoardCell, BoardState, Burned, Chosen, Controlled, Figure, Influence, Power, Stack, StackPiece, Stone,
};
use crate::app::AppSystems;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::{BoardCursor, CellChosen, DragChosen};
use crate::app::settings::CurrentSettings;
use crate::app::theme::{BoardPalette, board_palette, rgb};
use crate::games::GameKind;
use crate::rules::{Layout, Side};
use crate::save::Theme;
use bevy::prelude::*;

/// The ring that shows the cursor.
#[derive(Component)]
struct CursorRing;

/// The disc of a piece (a stone, a figure, one piece of a stack).
#[derive(Component)]
struct PieceDisc;

/// A stack's height, written on it.
#[derive(Component)]
struct HeightLabel;

/// A space's tint: the side that controls it (hints on) or that chose it in an action under way.
#[derive(Component)]
struct CellTint;

/// A space's number (influence, power), shown with the hints.
#[derive(Component)]
struct CellNumber;

/// Grid lines, labels and other board dressing rebuilt with the board.
#[derive(Component)]
struct Dressing;

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            dress_board,
            dress_cells,
            recolour_cells,
            (dress_stones, dress_figures, dress_stacks, dress_stack_pieces, label_stacks),
            tint_cells,
            number_cells,
            follow_cursor,
        )
            .chain()
            .in_set(AppSystems::Present)
            .run_if(drawing),
    );
}

/// The game on the board (its sides' colours).
fn game_kind(current: &Option<Res<CurrentMatch>>) -> Option<GameKind> {
    current.as_ref().map(|m| m.game.kind())
}

/// Lines, board background and coordinates, when the board (re)appears.
fn dress_board(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    dressing: Query<Entity, With<Dressing>>,
    mut built_for: Local<Option<(Entity, bool, Theme)>>,
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
    let width = (s * 0.04).max(1.0);
    match &view.layout {
        Layout::Squares { .. } => {}
        Layout::Points { width: files, height: ranks } => {
            for f in 0..*files {
                line(&mut commands, state.to_world(f as f32, y0), state.to_world(f as f32, y1), width, rgb(pal.line));
            }
            for r in 0..*ranks {
                line(&mut commands, state.to_world(x0, r as f32), state.to_world(x1, r as f32), width, rgb(pal.line));
            }
        }
        Layout::Lattice { lines } => {
            for &(a, b) in lines {
                let (ca, cb) = (&view.cells[a as usize], &view.cells[b as usize]);
                let (pa, pb) = (state.to_world(ca.x, ca.y), state.to_world(cb.x, cb.y));
                line(&mut commands, pa, pb, (s * 0.05).max(1.0), rgb(pal.line));
            }
        }
    }
    if settings.0.show_coordinates {
        coordinates(&mut commands, &state, root, &pal);
    }
}

/// The names of the files below the board and of the ranks (rows) left of it.
fn coordinates(commands: &mut Commands, state: &BoardState, root: Entity, pal: &BoardPalette) {
    let Some(view) = &state.view else { return };
    let (_, y0, _, _) = view.bounds();
    let s = state.scale;
    // Beyond the faded copies of a wrapped board's far side, not on top of them.
    let left_out = if view.wraps.iter().any(|w| w.dx < -0.1) { 1.62 } else { 0.62 };
    let below_out = if view.wraps.iter().any(|w| w.dy < -0.1) { 1.62 } else { 0.62 };
    let font = TextFont { font_size: bevy::text::FontSize::Px((s * 0.28).clamp(10.0, 18.0)), ..default() };
    let lattice = matches!(view.layout, Layout::Lattice { .. });
    for c in &view.cells {
        let (file, rank) = split_name(&c.name);
        let mut label = |text: String, at: Vec2| {
            commands.spawn((
                Dressing,
                Text2d::new(text),
                font.clone(),
                TextColor(rgb(pal.line)),
                Transform::from_translation(at.extend(1.0)),
                ChildOf(root),
            ));
        };
        if c.y == y0 && !lattice {
            label(file.to_string(), state.to_world(c.x, c.y - below_out));
        }
        let leftmost = view.cells.iter().filter(|o| o.y == c.y).map(|o| o.x).fold(f32::MAX, f32::min);
        if c.x == leftmost {
            let text = if lattice { file.to_string() } else { rank.to_string() };
            label(text, state.to_world(c.x - left_out, c.y));
        }
    }
}

/// `"c12"` → `("c", "12")`.
fn split_name(name: &str) -> (&str, &str) {
    let i = name.find(|c: char| c.is_ascii_digit()).unwrap_or(name.len());
    (&name[..i], &name[i..])
}

/// A space's fill: checkered squares, burned squares scorched; points are invisible click areas.
fn cell_colour(pal: &BoardPalette, layout: &Layout, at: Vec2, burned: bool) -> Color {
    if burned {
        return rgb(pal.burned);
    }
    match layout {
        Layout::Squares { .. } => {
            let dark = (at.x.round() as i32 + at.y.round() as i32).rem_euclid(2) == 0;
            rgb(if dark { pal.square_dark } else { pal.square_light })
        }
        // Points: an invisible square makes the whole area around the point clickable.
        _ => Color::NONE,
    }
}

/// The board position (in board units) of a cell entity.
fn board_xy(state: &BoardState, cell: &BoardCell) -> Vec2 {
    state.view.as_ref().and_then(|v| v.cells.get(cell.index)).map(|c| Vec2::new(c.x, c.y)).unwrap_or_default()
}

/// A new space gets its fill, a point mark where lines cross, and the pointer's handlers: a click
/// chooses it, a drag onto it moves a piece there, hovering moves the cursor to it.
fn dress_cells(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    cells: Query<(Entity, &BoardCell, Has<Burned>), Added<BoardCell>>,
) {
    let Some(view) = &state.view else { return };
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    for (e, cell, burned) in &cells {
        let color = cell_colour(&pal, &view.layout, board_xy(&state, cell), burned);
        let size = Vec2::splat(if matches!(view.layout, Layout::Squares { .. }) { s * 0.98 } else { s * 0.9 });
        commands
            .entity(e)
            .insert((Sprite::from_color(color, size), Pickable::default()))
            .observe(|click: On<Pointer<Click>>, cells: Query<&BoardCell>, mut out: MessageWriter<CellChosen>| {
                if click.button == PointerButton::Primary
                    && let Ok(cell) = cells.get(click.event_target())
                {
                    out.write(CellChosen(cell.name.clone()));
                }
            })
            .observe(
                // Drag a stack or stone onto another space: a move without two clicks.
                |drop: On<Pointer<DragDrop>>, cells: Query<&BoardCell>, mut out: MessageWriter<DragChosen>| {
                    if drop.button == PointerButton::Primary
                        && let (Ok(from), Ok(to)) = (cells.get(drop.dropped), cells.get(drop.event_target()))
                        && from.cell != to.cell
                    {
                        out.write(DragChosen { from: from.name.clone(), to: to.name.clone() });
                    }
                },
            )
            .observe(|over: On<Pointer<Over>>, cells: Query<&BoardCell>, mut cursor: ResMut<BoardCursor>| {
                if let Ok(cell) = cells.get(over.event_target()) {
                    cursor.index = cell.index;
                }
            });
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

/// A square burns (and stays scorched until it reopens), and the theme can change.
fn recolour_cells(
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    mut cells: Query<(&BoardCell, Has<Burned>, &mut Sprite)>,
    burned: Query<(), Added<Burned>>,
    mut unburned: RemovedComponents<Burned>,
) {
    let reopened = unburned.read().count() > 0;
    if !settings.is_changed() && burned.is_empty() && !reopened {
        return;
    }
    let Some(view) = &state.view else { return };
    let pal = board_palette(settings.0.theme);
    for (cell, is_burned, mut sprite) in &mut cells {
        let colour = cell_colour(&pal, &view.layout, board_xy(&state, cell), is_burned);
        if sprite.color != colour {
            sprite.color = colour;
        }
    }
}

/// One disc of a piece: a darker rim under the fill, so stacked discs read as separate pieces.
fn disc(
    commands: &mut Commands,
    parent: Entity,
    radius: f32,
    fill: Color,
    (meshes, materials): (&mut Assets<Mesh>, &mut Assets<ColorMaterial>),
) {
    commands.spawn((
        PieceDisc,
        Mesh2d(meshes.add(Circle::new(radius))),
        MeshMaterial2d(materials.add(fill.darker(0.25))),
        Transform::from_xyz(0.0, 0.0, 0.0),
        Pickable::IGNORE,
        ChildOf(parent),
    ));
    commands.spawn((
        PieceDisc,
        Mesh2d(meshes.add(Circle::new(radius * 0.9))),
        MeshMaterial2d(materials.add(fill)),
        Transform::from_xyz(0.0, 0.0, 0.01),
        Pickable::IGNORE,
        ChildOf(parent),
    ));
}

/// Text on a piece (a figure's letter, a stack's height).
fn piece_text(text: String, size: f32, colour: Color, at: Vec3) -> impl Bundle {
    (
        Text2d::new(text),
        TextFont { font_size: bevy::text::FontSize::Px(size), ..default() },
        TextColor(colour),
        Transform::from_translation(at),
        Pickable::IGNORE,
    )
}

type MeshAssets<'a> = (ResMut<'a, Assets<Mesh>>, ResMut<'a, Assets<ColorMaterial>>);

fn dress_stones(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    stones: Query<(Entity, &Stone), Added<Stone>>,
    (mut meshes, mut materials): MeshAssets,
) {
    let (Some(kind), false) = (game_kind(&current), stones.is_empty()) else { return };
    let pal = board_palette(settings.0.theme);
    for (e, stone) in &stones {
        let (fill, _) = pal.piece(kind, stone.owner);
        disc(&mut commands, e, state.scale * 0.42, rgb(fill), (&mut meshes, &mut materials));
    }
}

fn dress_figures(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    figures: Query<(Entity, &Figure), Added<Figure>>,
    (mut meshes, mut materials): MeshAssets,
) {
    let (Some(kind), false) = (game_kind(&current), figures.is_empty()) else { return };
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    for (e, figure) in &figures {
        let (fill, text) = pal.piece(kind, Some(figure.owner));
        disc(&mut commands, e, s * 0.42, rgb(fill), (&mut meshes, &mut materials));
        let size = (s * 0.42).clamp(10.0, 40.0);
        commands.spawn((piece_text(figure.figure.letter().to_string(), size, rgb(text), Vec3::Z * 0.5), ChildOf(e)));
        if let Some(f) = figure.facing {
            // A short tick on the rim, pointing where the knight faces, clear of its letter.
            let turn = Quat::from_rotation_z(-(f as f32) * std::f32::consts::FRAC_PI_4);
            commands.spawn((
                Sprite::from_color(rgb(text), Vec2::new(s * 0.07, s * 0.15)),
                Transform::from_translation(turn * Vec3::new(0.0, s * 0.3, 0.6)).with_rotation(turn),
                Pickable::IGNORE,
                ChildOf(e),
            ));
        }
    }
}

/// How many pieces of a stack are drawn (the height label says the rest).
const DRAWN_LEVELS: u16 = 4;

/// A new stack gets its height label (its pieces are dressed one by one).
fn dress_stacks(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    stacks: Query<(Entity, &Stack), Added<Stack>>,
) {
    let (Some(kind), false) = (game_kind(&current), stacks.is_empty()) else { return };
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    for (e, stack) in &stacks {
        let (_, text) = pal.piece(kind, Some(stack.owner));
        let at = Vec3::new(0.0, (DRAWN_LEVELS - 1) as f32 * s * 0.05, 1.0);
        commands.spawn((
            HeightLabel,
            piece_text(String::new(), (s * 0.42).clamp(10.0, 40.0), rgb(text), at),
            ChildOf(e),
        ));
    }
}

/// Each piece of a stack is a disc, a little higher than the one below; only the top few show.
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn dress_stack_pieces(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    pieces: Query<(Entity, &StackPiece, &ChildOf), Added<StackPiece>>,
    stacks: Query<&Stack>,
    mut transforms: Query<&mut Transform>,
    (mut meshes, mut materials): MeshAssets,
) {
    let (Some(kind), false) = (game_kind(&current), pieces.is_empty()) else { return };
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    for (e, piece, parent) in &pieces {
        let Ok(stack) = stacks.get(parent.parent()) else { continue };
        let (fill, _) = pal.piece(kind, Some(stack.owner));
        disc(&mut commands, e, s * 0.4, rgb(fill), (&mut meshes, &mut materials));
        if let Ok(mut t) = transforms.get_mut(e) {
            let level = piece.level.min(DRAWN_LEVELS - 1);
            t.translation = Vec3::new(0.0, level as f32 * s * 0.05, 0.1 + piece.level as f32 * 0.02);
        }
    }
}

/// A stack's height follows the stack (written from two pieces up).
fn label_stacks(stacks: Query<(&Stack, &Children), Changed<Stack>>, mut labels: Query<&mut Text2d, With<HeightLabel>>) {
    for (stack, children) in &stacks {
        for child in children.iter() {
            if let Ok(mut text) = labels.get_mut(child) {
                let want = if stack.height > 1 { stack.height.to_string() } else { String::new() };
                if text.0 != want {
                    text.0 = want;
                }
            }
        }
    }
}

/// The tint of a space, as a child sprite made once and recoloured when its state changes:
/// control with the hints on (Gravel, Hidden Intention), the spaces of an action under way always.
#[allow(clippy::type_complexity, clippy::too_many_arguments)] // a Bevy system: one resource or query each
fn tint_cells(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    changed: Query<(), Or<(Changed<Controlled>, Changed<Chosen>, Added<BoardCell>)>>,
    (mut lost_control, mut unchosen): (RemovedComponents<Controlled>, RemovedComponents<Chosen>),
    cells: Query<(Entity, Option<&Controlled>, Option<&Chosen>, Option<&Children>), With<BoardCell>>,
    mut tints: Query<&mut Sprite, With<CellTint>>,
) {
    let removed = lost_control.read().count() + unchosen.read().count() > 0;
    if changed.is_empty() && !removed && !settings.is_changed() {
        return;
    }
    let Some(kind) = game_kind(&current) else { return };
    let pal = board_palette(settings.0.theme);
    let size = Vec2::splat(state.scale * 0.9);
    for (e, controlled, chosen, children) in &cells {
        let side = chosen.map(|c| c.0).or(controlled.filter(|_| settings.0.show_hints).map(|c| c.0));
        let colour = side.map_or(Color::NONE, |side: Side| rgb(pal.side(kind, side)).with_alpha(0.28));
        let existing = children.and_then(|kids| kids.iter().find(|k| tints.contains(*k)));
        match existing {
            Some(tint) => {
                if let Ok(mut sprite) = tints.get_mut(tint)
                    && sprite.color != colour
                {
                    sprite.color = colour;
                }
            }
            None if side.is_some() => {
                commands.spawn((
                    CellTint,
                    Sprite::from_color(colour, size),
                    Transform::from_xyz(0.0, 0.0, 0.2),
                    Pickable::IGNORE,
                    ChildOf(e),
                ));
            }
            None => {}
        }
    }
}

/// A space's number, small in its corner with the hints on: influence (Hidden Intention) or
/// power (Throngs), when not zero.
#[allow(clippy::type_complexity)] // a Bevy system: each parameter is one query
fn number_cells(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    changed: Query<(), Or<(Changed<Influence>, Changed<Power>)>>,
    cells: Query<(Entity, Option<&Influence>, Option<&Power>, Option<&Children>), With<BoardCell>>,
    mut numbers: Query<(&mut Text2d, &mut Visibility), With<CellNumber>>,
) {
    if changed.is_empty() && !settings.is_changed() {
        return;
    }
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    for (e, influence, power, children) in &cells {
        let value = influence.map(|v| v.0).or(power.map(|p| p.0)).filter(|v| *v != 0);
        let shown = value.filter(|_| settings.0.show_hints).map(|v| format!("{v:+}"));
        let existing = children.and_then(|kids| kids.iter().find(|k| numbers.contains(*k)));
        match (existing, shown) {
            (Some(label), shown) => {
                if let Ok((mut text, mut visibility)) = numbers.get_mut(label) {
                    let want = shown.clone().unwrap_or_default();
                    if text.0 != want {
                        text.0 = want;
                    }
                    visibility.set_if_neq(if shown.is_some() { Visibility::Inherited } else { Visibility::Hidden });
                }
            }
            (None, Some(text)) => {
                commands.spawn((
                    CellNumber,
                    Text2d::new(text),
                    TextFont { font_size: bevy::text::FontSize::Px((s * 0.2).clamp(8.0, 16.0)), ..default() },
                    TextColor(rgb(pal.line)),
                    Transform::from_xyz(s * 0.3, -s * 0.3, 3.0),
                    Visibility::Inherited,
                    Pickable::IGNORE,
                    ChildOf(e),
                ));
            }
            (None, None) => {}
        }
    }
}

fn follow_cursor(
    mut commands: Commands,
    state: Res<BoardState>,
    cursor: Res<BoardCursor>,
    settings: Res<CurrentSettings>,
    mut ring: Query<(Entity, &mut Transform, &ChildOf), With<CursorRing>>,
    (mut meshes, mut materials): MeshAssets,
) {
    if !cursor.is_changed() && !state.is_changed() && !settings.is_changed() {
        return;
    }
    let (Some(root), Some(view)) = (state.root, &state.view) else { return };
    let Some(c) = view.cells.get(cursor.index) else { return };
    let at = state.to_world(c.x, c.y).extend(5.0);
    match ring.single_mut() {
        Ok((_, mut t, parent)) if parent.parent() == root && !settings.is_changed() && !state.is_changed() => {
            t.translation = at;
        }
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
