//! How board entities look. The board: wood with its grain, a darker rim and a soft shadow under
//! it; grid lines at 70% opacity with star points where a Go board has them, two close wood tones
//! on a board of squares, lattice lines and node dots on a triangular board; coordinates along two
//! edges in the notation's own names. Each space reads its components: a scorch when burned, a
//! tint in the side's colour by the strength of its control, influence or power, and its number on
//! a badge under the cursor (or always, with numbers on). Pieces: lit stones; stacks as piles of
//! discs with their height on a badge nothing covers; chess-like figures with an outline and the
//! knight's facing arrow. And the keyboard cursor, a rounded outline. Only when the app draws.

use super::board_text::BoardText;
use super::cell_picking::CellHitArea;
use super::drawing;
use super::edge_labels::AxisLabelMark;
use super::frame::frame_sprites;
use super::project::{
    BoardCell, BoardState, Burned, Chosen, Controlled, Figure, Influence, MARGIN_UNITS, Power, Stack, StackPiece, Stone,
};
use super::textures::{BoardArt, STONE_PICTURE_SCALE, ThemeArt};
use crate::app::AppSystems;
use crate::app::fonts::figure_symbols;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::{BoardCursor, DragChosen};
use crate::app::settings::CurrentSettings;
use crate::app::theme::{BoardPalette, OWNED_STRENGTH, board_palette, rgb};
use crate::games::GameKind;
use crate::rules::{BoardView, Layout, Side, Tone};
use crate::save::Theme;
use bevy::prelude::*;
use bevy::sprite::SpriteImageMode;

/// The diameter of a stone in board units (neighbouring spaces are 1 apart).
pub const STONE: f32 = 0.92;

/// The keyboard cursor.
#[derive(Component)]
struct CursorMark;

/// The picture of a piece (a stone, a figure, one piece of a stack).
#[derive(Component)]
struct PieceLook;

/// A stack's height badge and its text.
#[derive(Component)]
struct HeightBadge;

/// A space's fill: its square's tone, or its scorch.
#[derive(Component)]
struct CellFill;

/// A space's tint (control, influence, power, chosen).
#[derive(Component)]
struct CellTint;

/// A space's number on its badge.
#[derive(Component)]
struct CellNumber;

/// The board's dressing, rebuilt with the board.
#[derive(Component)]
struct Dressing;

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, make_art.run_if(resource_exists::<Assets<Image>>));
    app.add_systems(Update, fit_art_to_the_renderer.run_if(resource_exists::<BoardArt>));
    app.add_systems(
        Update,
        (
            dress_board,
            dress_cells,
            recolour_cells,
            (dress_stones, dress_figures, dress_stacks, dress_stack_pieces),
            pile_stacks,
            tint_cells,
            number_cells,
            follow_cursor,
        )
            .chain()
            .in_set(AppSystems::Present)
            .run_if(drawing.and_then(resource_exists::<BoardArt>)),
    );
}

fn make_art(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.insert_resource(BoardArt::new(&mut images));
}

/// Once the renderer is known (in the browser it starts after the app): a software one (the
/// adapter is the CPU, as with SwiftShader where a browser has no GPU to use) samples the wood
/// at its nearest texel.
fn fit_art_to_the_renderer(
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    mut art: ResMut<BoardArt>,
    mut fitted: Local<bool>,
) {
    let Some(adapter) = adapter else { return };
    if *fitted {
        return;
    }
    *fitted = true;
    if adapter.device_type == wgpu_types::DeviceType::Cpu {
        info!("software renderer ({}): the wood is sampled at its nearest texel", adapter.name);
        art.sample_wood_nearest();
    }
}

/// The game on the board (its sides' tones).
fn game_kind(current: &Option<Res<CurrentMatch>>) -> Option<GameKind> {
    current.as_ref().map(|m| m.position().kind())
}

/// The picture of a stone of `owner` in game `kind`.
fn stone_picture(art: &ThemeArt, kind: GameKind, owner: Option<Side>) -> Handle<Image> {
    match owner.map(|side| kind.tone(side)) {
        Some(Tone::Dark) => art.dark_stone.clone(),
        Some(Tone::Light) => art.light_stone.clone(),
        None => art.neutral_stone.clone(),
    }
}

/// The board's face, rim, shadow, lines, points and coordinates, when the board (re)appears or
/// the theme or the coordinates setting changes.
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn dress_board(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    mut art: ResMut<BoardArt>,
    mut images: ResMut<Assets<Image>>,
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
    let wood = art.theme(settings.0.theme, &mut images).wood.clone();
    let s = state.scale;
    let (x0, y0, x1, y1) = view.drawn_bounds();
    let face = Vec2::new(x1 - x0 + 2.0 * MARGIN_UNITS, y1 - y0 + 2.0 * MARGIN_UNITS) * s;
    let mut spawn = |bundle: (Sprite, Transform)| {
        commands.spawn((Dressing, bundle.0, bundle.1, Pickable::IGNORE, ChildOf(root)));
    };
    // The soft shadow under the board, down and to the right, and the rim, a little larger than
    // the face and darker: only where they show around it.
    let shadow_pixels = images.get(&art.shadow).map_or(Vec2::ONE, |image| image.size_f32());
    let rim = (s * 0.08).max(3.0);
    for part in frame_sprites(face, rim, rgb(pal.rim), &art.shadow, shadow_pixels) {
        spawn(part);
    }
    // The face: the wood, tiled at its own size so the grain keeps its scale on every board.
    let face_sprite = Sprite {
        image: wood,
        custom_size: Some(face),
        image_mode: SpriteImageMode::Tiled { tile_x: true, tile_y: true, stretch_value: 1.0 },
        ..default()
    };
    spawn((face_sprite, Transform::from_xyz(0.0, 0.0, -4.0)));
    grid(&mut commands, &state, view, root, &pal, &art);
    if settings.0.show_coordinates {
        coordinates(&mut commands, &state, view, root, &pal);
    }
}

/// Lines at 70% opacity; star points on Go-like boards; node dots on triangular ones.
fn grid(
    commands: &mut Commands,
    state: &BoardState,
    view: &BoardView,
    root: Entity,
    pal: &BoardPalette,
    art: &BoardArt,
) {
    let s = state.scale;
    let colour = rgb(pal.line).with_alpha(0.7);
    let width = (s * 0.035).max(1.0);
    let (x0, y0, x1, y1) = view.bounds();
    let mut line = |a: Vec2, b: Vec2| {
        let d = b - a;
        commands.spawn((
            Dressing,
            Sprite::from_color(colour, Vec2::new(d.length() + width, width)),
            Transform::from_translation(((a + b) / 2.0).extend(-1.0))
                .with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
            Pickable::IGNORE,
            ChildOf(root),
        ));
    };
    let mut dots: Vec<(Vec2, f32)> = Vec::new();
    match &view.layout {
        Layout::Squares { .. } => {}
        Layout::Points { width: files, height: ranks } => {
            for f in 0..*files {
                line(state.to_world(f as f32, y0), state.to_world(f as f32, y1));
            }
            for r in 0..*ranks {
                line(state.to_world(x0, r as f32), state.to_world(x1, r as f32));
            }
            for (f, r) in star_points(*files, *ranks) {
                dots.push((state.to_world(f as f32, r as f32), (s * 0.16).max(4.0)));
            }
        }
        Layout::Lattice { lines } => {
            for &(a, b) in lines {
                let (ca, cb) = (&view.cells[a as usize], &view.cells[b as usize]);
                line(state.to_world(ca.x, ca.y), state.to_world(cb.x, cb.y));
            }
            dots.extend(view.cells.iter().map(|c| (state.to_world(c.x, c.y), (s * 0.1).max(3.0))));
        }
    }
    for (at, size) in dots {
        commands.spawn((
            Dressing,
            Sprite { image: art.disc.clone(), color: rgb(pal.line), custom_size: Some(Vec2::splat(size)), ..default() },
            Transform::from_translation(at.extend(-0.9)),
            Pickable::IGNORE,
            ChildOf(root),
        ));
    }
}

/// The star points of a Go board of `files` × `ranks`: the 3-3 points (4-4 from 13 lines up), the
/// centre of an odd board, and the side middles from 15 lines up; none under 7 lines.
pub fn star_points(files: usize, ranks: usize) -> Vec<(usize, usize)> {
    let n = files.min(ranks);
    if n < 7 {
        return Vec::new();
    }
    let edge = if n >= 13 { 3 } else { 2 };
    let line = |len: usize, middle: bool| {
        let mut v = vec![edge, len - 1 - edge];
        if middle && len % 2 == 1 {
            v.push(len / 2);
        }
        v
    };
    let (xs, ys) = (line(files, n >= 15), line(ranks, n >= 15));
    let mut points: Vec<(usize, usize)> = xs.iter().flat_map(|&x| ys.iter().map(move |&y| (x, y))).collect();
    if files % 2 == 1 && ranks % 2 == 1 && n < 15 {
        points.push((files / 2, ranks / 2));
    }
    points.sort();
    points.dedup();
    points
}

/// `"c12"` → `("c", "12")`.
fn split_name(name: &str) -> (&str, &str) {
    let i = name.find(|c: char| c.is_ascii_digit()).unwrap_or(name.len());
    (&name[..i], &name[i..])
}

/// A label of one axis of the notation and where it goes, in board units.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisLabel {
    pub text: String,
    pub at: Vec2,
    /// The way from the line's end to its name (unit length).
    pub outward: Vec2,
}

/// The coordinates of a board along two edges, in the notation's own names: every axis the
/// notation uses. The spaces that share the letters of their names form one line (a file, or a
/// Throngs row), those that share the number another; each line's name goes one step beyond its
/// end on the lower side (a vertical line) or the left (any other), beyond the copies a wrapped
/// board shows across its seams.
pub fn axis_labels(view: &BoardView) -> Vec<AxisLabel> {
    let mut groups: Vec<(String, Vec<Vec2>)> = Vec::new();
    let mut add = |key: String, at: Vec2| match groups.iter_mut().find(|(k, _)| *k == key) {
        Some((_, points)) => points.push(at),
        None => groups.push((key, vec![at])),
    };
    for c in &view.cells {
        let (letters, digits) = split_name(&c.name);
        let at = Vec2::new(c.x, c.y);
        add(format!("L{letters}"), at);
        add(format!("N{digits}"), at);
    }
    let hull = convex_hull(&view.cells.iter().map(|c| Vec2::new(c.x, c.y)).collect::<Vec<_>>());
    let wraps_left = view.wraps.iter().any(|w| w.dx < -0.1);
    let wraps_below = view.wraps.iter().any(|w| w.dy < -0.1);
    let mut labels = Vec::new();
    for (key, points) in groups {
        if points.len() < 2 || key.len() < 2 {
            continue;
        }
        // The line's direction from its first point to its farthest one.
        let start = points[0];
        let far =
            points.iter().copied().max_by(|a, b| a.distance(start).total_cmp(&b.distance(start))).unwrap_or(start);
        let dir = (far - start).normalize_or_zero();
        let horizontal = dir.y.abs() < 0.2;
        // The end to label: the leftmost point of a horizontal line, the lowest of any other.
        let end = if horizontal {
            points.iter().copied().min_by(|a, b| a.x.total_cmp(&b.x))
        } else {
            points.iter().copied().min_by(|a, b| a.y.total_cmp(&b.y))
        };
        let Some(end) = end else { continue };
        // One step beyond that end, along the line: leftward, or downward.
        let outward = if horizontal {
            if dir.x > 0.0 { -dir } else { dir }
        } else if dir.y > 0.0 {
            -dir
        } else {
            dir
        };
        let step = if (!horizontal && wraps_below) || (horizontal && wraps_left) { 1.62 } else { 0.68 };
        // A line that ends in a notch or at a hole goes on, site by site, to the board's outline:
        // every name sits outside the board, none among its sites.
        let unit = points.iter().map(|p| p.distance(end)).filter(|d| *d > 1e-3).fold(f32::INFINITY, f32::min);
        let mut edge = end;
        if view.wraps.is_empty() && unit.is_finite() {
            while inside_hull(&hull, edge + outward * unit) {
                edge += outward * unit;
            }
        }
        labels.push(AxisLabel { text: key[1..].to_string(), at: edge + outward * step, outward });
    }
    labels
}

/// The convex outline of `points` (counter-clockwise, Andrew's monotone chain).
fn convex_hull(points: &[Vec2]) -> Vec<Vec2> {
    let mut sorted = points.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup_by(|a, b| a.distance(*b) < 1e-4);
    if sorted.len() < 3 {
        return sorted;
    }
    let turn = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(sorted.len() * 2);
    for pass in [sorted.clone(), sorted.iter().rev().copied().collect()] {
        let start = hull.len();
        for p in pass {
            while hull.len() >= start + 2 && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 1e-5 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Whether `p` lies inside the convex outline `hull` (or on it, within a hair).
fn inside_hull(hull: &[Vec2], p: Vec2) -> bool {
    hull.len() >= 3 && (0..hull.len()).all(|i| (hull[(i + 1) % hull.len()] - hull[i]).perp_dot(p - hull[i]) >= -1e-3)
}

fn coordinates(commands: &mut Commands, state: &BoardState, view: &BoardView, root: Entity, pal: &BoardPalette) {
    let s = state.scale;
    let font_size = (s * 0.3).clamp(11.0, 20.0);
    for label in axis_labels(view) {
        let home = state.to_world(label.at.x, label.at.y);
        commands.spawn((
            Dressing,
            AxisLabelMark { home, outward: label.outward },
            BoardText::new(label.text, font_size, rgb(pal.label)),
            Transform::from_translation(home.extend(1.0)),
            Pickable::IGNORE,
            ChildOf(root),
        ));
    }
}

/// A space's fill: the darker squares of a board of squares a shade darker than the wood, burned
/// squares scorched; elsewhere none.
fn cell_colour(pal: &BoardPalette, layout: &Layout, at: Vec2, burned: bool) -> Color {
    if burned {
        return rgb(pal.burned).with_alpha(0.88);
    }
    match layout {
        Layout::Squares { .. } if (at.x.round() as i32 + at.y.round() as i32).rem_euclid(2) == 0 => {
            // Multiplying by the square tint is blending black at the tint's darkness.
            let darkness = 1.0 - (pal.square_dark.iter().map(|&c| c as f32).sum::<f32>() / (3.0 * 255.0));
            Color::srgba(0.18, 0.1, 0.02, darkness * 1.6)
        }
        _ => Color::NONE,
    }
}

/// The board position (in board units) of a cell entity.
fn board_xy(state: &BoardState, cell: &BoardCell) -> Vec2 {
    state.view.as_ref().and_then(|v| v.cells.get(cell.index)).map(|c| Vec2::new(c.x, c.y)).unwrap_or_default()
}

/// Whether a fill of `colour` is drawn at all: a space without one draws nothing.
fn fill_visibility(colour: Color) -> Visibility {
    if colour.alpha() > 0.0 { Visibility::Inherited } else { Visibility::Hidden }
}

/// A new space gets its fill (a child sprite, hidden where the space has none), the area it
/// answers the pointer in (`cell_picking`) and the pointer's handlers: a click chooses it, a drag
/// onto it moves a piece there, hovering moves the cursor to it.
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
        let size = Vec2::splat(if matches!(view.layout, Layout::Squares { .. }) { s } else { s * 0.92 });
        commands.spawn((
            CellFill,
            Sprite::from_color(color, size),
            fill_visibility(color),
            Transform::default(),
            Pickable::IGNORE,
            ChildOf(e),
        ));
        commands
            .entity(e)
            .insert((CellHitArea(size), Pickable::default()))
            // Mouse drags (clicks: `mouse_clicks`); touches are read from the touch events (`gestures`).
            .observe(
                // Drag a stack or stone onto another space: a move without two clicks.
                |drop: On<Pointer<DragDrop>>, cells: Query<&BoardCell>, mut out: MessageWriter<DragChosen>| {
                    if drop.button == PointerButton::Primary
                        && drop.pointer_id.is_mouse()
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
    }
}

/// A square burns (and stays scorched until it reopens), and the theme can change.
fn recolour_cells(
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    cells: Query<(&BoardCell, Has<Burned>)>,
    mut fills: Query<(&ChildOf, &mut Sprite, &mut Visibility), With<CellFill>>,
    burned: Query<(), Added<Burned>>,
    mut unburned: RemovedComponents<Burned>,
) {
    let reopened = unburned.read().count() > 0;
    if !settings.is_changed() && burned.is_empty() && !reopened {
        return;
    }
    let Some(view) = &state.view else { return };
    let pal = board_palette(settings.0.theme);
    for (parent, mut sprite, mut visibility) in &mut fills {
        let Ok((cell, is_burned)) = cells.get(parent.parent()) else { continue };
        let colour = cell_colour(&pal, &view.layout, board_xy(&state, cell), is_burned);
        if sprite.color != colour {
            sprite.color = colour;
            visibility.set_if_neq(fill_visibility(colour));
        }
    }
}

/// The sprite of a stone picture for a stone of `diameter` world units.
fn stone_sprite(image: Handle<Image>, diameter: f32, tint: Color) -> Sprite {
    Sprite { image, color: tint, custom_size: Some(Vec2::splat(diameter * STONE_PICTURE_SCALE)), ..default() }
}

type Art<'a> = (ResMut<'a, BoardArt>, ResMut<'a, Assets<Image>>);

fn dress_stones(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    stones: Query<(Entity, &Stone), Added<Stone>>,
    (mut art, mut images): Art,
) {
    let (Some(kind), false) = (game_kind(&current), stones.is_empty()) else { return };
    let art = art.theme(settings.0.theme, &mut images);
    for (e, stone) in &stones {
        let sprite = stone_sprite(stone_picture(art, kind, stone.owner), state.scale * STONE, Color::WHITE);
        commands.spawn((PieceLook, sprite, Transform::default(), Pickable::IGNORE, ChildOf(e)));
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn dress_figures(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    figures: Query<(Entity, &Figure), Added<Figure>>,
    art: Res<BoardArt>,
) {
    let (Some(kind), false) = (game_kind(&current), figures.is_empty()) else { return };
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    for (e, figure) in &figures {
        let (fill, outline) = pal.figure(kind.tone(figure.owner));
        let (filled, outlined) = figure_symbols(figure.figure);
        let glyph = |c: char, colour: Color, at: Vec3| {
            (PieceLook, BoardText::chess(c, s * 0.82, colour), Transform::from_translation(at), Pickable::IGNORE)
        };
        let lift = Vec3::new(0.0, s * 0.04, 0.0);
        commands
            .spawn((glyph(filled, Color::srgba(0.0, 0.0, 0.0, 0.35), Vec3::new(s * 0.04, -s * 0.03, 0.0)), ChildOf(e)));
        commands.spawn((glyph(filled, rgb(fill), lift + Vec3::Z * 0.1), ChildOf(e)));
        commands.spawn((glyph(outlined, rgb(outline), lift + Vec3::Z * 0.2), ChildOf(e)));
        if figure.figure == crate::rules::Figure::DiagonalPawn {
            // The diagonal pawn: a small diagonal cross at its foot, read as "X".
            for angle in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
                commands.spawn((
                    PieceLook,
                    Sprite::from_color(rgb(pal.capture), Vec2::new(s * 0.3, (s * 0.05).max(2.0))),
                    Transform::from_xyz(s * 0.28, -s * 0.3, 0.4).with_rotation(Quat::from_rotation_z(angle)),
                    Pickable::IGNORE,
                    ChildOf(e),
                ));
            }
        }
        if let Some(f) = figure.facing {
            // The knight's facing: an arrow on the rim of its space, pointing where it faces.
            let turn = Quat::from_rotation_z(-(f as f32) * std::f32::consts::FRAC_PI_4);
            commands.spawn((
                PieceLook,
                Sprite {
                    image: art.triangle.clone(),
                    color: rgb(pal.capture),
                    custom_size: Some(Vec2::splat(s * 0.2)),
                    ..default()
                },
                Transform::from_translation(turn * Vec3::new(0.0, s * 0.4, 0.5)).with_rotation(turn),
                Pickable::IGNORE,
                ChildOf(e),
            ));
        }
    }
}

/// How many pieces of a stack are drawn under the top one (the badge says how many there are).
const PILE: u16 = 3;

/// A new stack gets its height badge at its lower right (drawn above every mark).
fn dress_stacks(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    stacks: Query<Entity, Added<Stack>>,
    art: Res<BoardArt>,
) {
    if stacks.is_empty() {
        return;
    }
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    let size = (s * 0.36).max(14.0);
    for e in &stacks {
        commands
            .spawn((
                HeightBadge,
                Sprite {
                    image: art.disc.clone(),
                    color: rgb(pal.badge).with_alpha(0.9),
                    custom_size: Some(Vec2::splat(size)),
                    ..default()
                },
                Transform::from_xyz(s * 0.3, -s * 0.3, 8.0),
                Visibility::Hidden,
                Pickable::IGNORE,
                ChildOf(e),
            ))
            .with_child((
                BoardText::new("", size * 0.62, rgb(pal.badge_text)),
                Transform::from_xyz(0.0, 0.0, 0.1),
                Pickable::IGNORE,
            ));
    }
}

/// Each piece of a stack is a stone picture; `pile_stacks` places them.
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn dress_stack_pieces(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    pieces: Query<(Entity, &ChildOf), Added<StackPiece>>,
    stacks: Query<&Stack>,
    (mut art, mut images): Art,
) {
    let (Some(kind), false) = (game_kind(&current), pieces.is_empty()) else { return };
    let art = art.theme(settings.0.theme, &mut images);
    for (e, parent) in &pieces {
        let Ok(stack) = stacks.get(parent.parent()) else { continue };
        let sprite = stone_sprite(stone_picture(art, kind, Some(stack.owner)), state.scale * STONE, Color::WHITE);
        commands.spawn((PieceLook, sprite, Transform::default(), Pickable::IGNORE, ChildOf(e)));
    }
}

/// Where the piece of a stack on `level` rests in its pile, `below` the top by that many pieces:
/// offset down and to the right, each nearer the viewer than the one under it.
pub fn pile_offset(below: u16, level: u16, scale: f32) -> Vec3 {
    Vec3::new(below as f32 * scale * 0.05, -(below as f32) * scale * 0.07, 0.1 + level as f32 * 0.01)
}

/// A stack is a pile: the top piece on its space, up to three below it offset down and to the
/// right and a shade darker, the rest hidden; its height on the badge from two pieces up. Laid out
/// again when the stack's height changes or a piece lands on it.
#[allow(clippy::type_complexity, clippy::too_many_arguments)] // a Bevy system: one resource or query each
fn pile_stacks(
    state: Res<BoardState>,
    changed: Query<Entity, Or<(Changed<Stack>, Added<Stack>)>>,
    added_levels: Query<&ChildOf, Added<StackPiece>>,
    stacks: Query<(&Stack, &Children)>,
    mut levels: Query<(&StackPiece, &mut Transform, &mut Visibility, &Children), Without<HeightBadge>>,
    mut looks: Query<&mut Sprite, (With<PieceLook>, Without<HeightBadge>)>,
    mut badges: Query<(&mut Visibility, &Children), (With<HeightBadge>, Without<StackPiece>)>,
    mut texts: Query<&mut BoardText>,
) {
    let mut todo: Vec<Entity> = changed.iter().chain(added_levels.iter().map(|p| p.parent())).collect();
    if todo.is_empty() {
        return;
    }
    todo.sort();
    todo.dedup();
    let s = state.scale;
    for (stack, kids) in stacks.iter_many(&todo) {
        for kid in kids.iter() {
            if let Ok((piece, mut t, mut v, looks_of)) = levels.get_mut(kid) {
                let below = stack.height.saturating_sub(1).saturating_sub(piece.level);
                v.set_if_neq(if below <= PILE { Visibility::Inherited } else { Visibility::Hidden });
                t.translation = pile_offset(below, piece.level, s);
                let shade = 1.0 - 0.08 * below as f32;
                for look in looks_of.iter() {
                    if let Ok(mut sprite) = looks.get_mut(look) {
                        sprite.color = Color::srgb(shade, shade, shade);
                    }
                }
            }
            if let Ok((mut v, texts_of)) = badges.get_mut(kid) {
                v.set_if_neq(if stack.height > 1 { Visibility::Inherited } else { Visibility::Hidden });
                for t in texts_of.iter() {
                    let height = stack.height.to_string();
                    if let Ok(mut text) = texts.get_mut(t)
                        && text.text != height
                    {
                        text.text = height;
                    }
                }
            }
        }
    }
}

/// The strength of a space's tint, 0 to 1: control full, influence and power by their size. A
/// square owned by any influence shows at least [`OWNED_STRENGTH`], so ownership always reads.
fn tint_strength(controlled: bool, influence: Option<i32>, power: Option<i32>) -> f32 {
    match (influence, power) {
        (Some(0), _) => 0.0,
        (Some(v), _) => OWNED_STRENGTH + (1.0 - OWNED_STRENGTH) * (v.unsigned_abs() as f32 / 4.0).min(1.0),
        (_, Some(p)) if p > 0 => (p as f32 / 6.0).min(1.0),
        _ if controlled => 1.0,
        _ => 0.0,
    }
}

/// The tint of a space, as a child sprite made once and recoloured when its state changes: the
/// spaces chosen in an action under way always; with the hints on, control (Gravel), influence
/// (Hidden Intention) and the power of the side to move (Throngs), in the side's colour with an
/// opacity by their size.
#[allow(clippy::type_complexity, clippy::too_many_arguments)] // a Bevy system: one resource or query each
fn tint_cells(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    changed: Query<
        (),
        Or<(Changed<Controlled>, Changed<Chosen>, Changed<Influence>, Changed<Power>, Added<BoardCell>)>,
    >,
    (mut lost_control, mut unchosen): (RemovedComponents<Controlled>, RemovedComponents<Chosen>),
    cells: Query<
        (Entity, Option<&Controlled>, Option<&Chosen>, Option<&Influence>, Option<&Power>, Option<&Children>),
        With<BoardCell>,
    >,
    mut tints: Query<(&mut Sprite, &mut Visibility), With<CellTint>>,
    art: Res<BoardArt>,
) {
    let removed = lost_control.read().count() + unchosen.read().count() > 0;
    if changed.is_empty() && !removed && !settings.is_changed() {
        return;
    }
    let Some(current) = current else { return };
    let kind = current.position().kind();
    let mover = current.acting_side().unwrap_or(Side::First);
    let pal = board_palette(settings.0.theme);
    // Squares are tinted whole; points and sites as discs around them.
    let square = matches!(state.view.as_ref().map(|v| &v.layout), Some(Layout::Squares { .. }));
    let size = Vec2::splat(state.scale * if square { 0.94 } else { 0.8 });
    for (e, controlled, chosen, influence, power, children) in &cells {
        let hints = settings.0.show_hints;
        let (side, strength) = if let Some(c) = chosen {
            (Some(c.0), 1.0)
        } else if !hints {
            (None, 0.0)
        } else if let Some(v) = influence.filter(|v| v.0 != 0) {
            (Some(if v.0 > 0 { Side::First } else { Side::Second }), tint_strength(false, Some(v.0), None))
        } else if let Some(p) = power.filter(|p| p.0 > 0) {
            (Some(mover), tint_strength(false, None, Some(p.0)))
        } else {
            (controlled.map(|c| c.0), tint_strength(controlled.is_some(), None, None))
        };
        let colour = side.map_or(Color::NONE, |side| rgb(pal.side(kind, side)).with_alpha(pal.tint_alpha(strength)));
        let existing = children.and_then(|kids| kids.iter().find(|k| tints.contains(*k)));
        match existing {
            Some(tint) => {
                if let Ok((mut sprite, mut visibility)) = tints.get_mut(tint)
                    && sprite.color != colour
                {
                    sprite.color = colour;
                    // A space that lost its tint draws nothing rather than a clear square.
                    visibility.set_if_neq(fill_visibility(colour));
                }
            }
            None if side.is_some() => {
                let image = if square { Handle::default() } else { art.disc.clone() };
                let sprite = Sprite { image, color: colour, custom_size: Some(size), ..default() };
                commands.spawn((CellTint, sprite, Transform::from_xyz(0.0, 0.0, 0.2), Pickable::IGNORE, ChildOf(e)));
            }
            None => {}
        }
    }
}

/// A space's number (influence, power), on a small badge in its corner: under the cursor, and with
/// the map on (Settings, or the panel's switch) on every space whose number is not 0, smaller, so
/// the map does not bury the board.
/// The size of the map's badges beside the one under the cursor.
const MAP_BADGE_SCALE: f32 = 0.75;

#[allow(clippy::type_complexity, clippy::too_many_arguments)] // a Bevy system: one resource or query each
fn number_cells(
    mut commands: Commands,
    state: Res<BoardState>,
    settings: Res<CurrentSettings>,
    cursor: Res<BoardCursor>,
    changed: Query<(), Or<(Changed<Influence>, Changed<Power>)>>,
    cells: Query<(Entity, &BoardCell, Option<&Influence>, Option<&Power>, Option<&Children>)>,
    mut numbers: Query<(&mut Visibility, &mut Transform, &Children), With<CellNumber>>,
    mut texts: Query<&mut BoardText>,
    art: Res<BoardArt>,
) {
    if changed.is_empty() && !settings.is_changed() && !cursor.is_changed() {
        return;
    }
    let pal = board_palette(settings.0.theme);
    let s = state.scale;
    let size = (s * 0.34).max(14.0);
    for (e, cell, influence, power, children) in &cells {
        let value = influence.map(|v| v.0).or(power.map(|p| p.0));
        let under_cursor = cell.index == cursor.index;
        let shown = value.filter(|v| under_cursor || (settings.0.show_numbers && *v != 0));
        let scale = Vec3::splat(if under_cursor { 1.0 } else { MAP_BADGE_SCALE });
        let existing = children.and_then(|kids| kids.iter().find(|k| numbers.contains(*k)));
        match (existing, shown) {
            (Some(badge), shown) => {
                if let Ok((mut visibility, mut transform, kids)) = numbers.get_mut(badge) {
                    visibility.set_if_neq(if shown.is_some() { Visibility::Inherited } else { Visibility::Hidden });
                    if transform.scale != scale {
                        transform.scale = scale;
                    }
                    for kid in kids.iter() {
                        if let (Ok(mut text), Some(v)) = (texts.get_mut(kid), shown) {
                            let want = if v == 0 { "0".to_string() } else { format!("{v:+}") };
                            if text.text != want {
                                text.text = want;
                            }
                        }
                    }
                }
            }
            (None, Some(v)) => {
                commands
                    .spawn((
                        CellNumber,
                        Sprite {
                            image: art.disc.clone(),
                            color: rgb(pal.badge).with_alpha(0.85),
                            custom_size: Some(Vec2::new(size * 1.4, size)),
                            ..default()
                        },
                        Transform::from_xyz(-s * 0.26, s * 0.3, 7.5).with_scale(scale),
                        Visibility::Inherited,
                        Pickable::IGNORE,
                        ChildOf(e),
                    ))
                    .with_child((
                        BoardText::new(
                            if v == 0 { "0".to_string() } else { format!("{v:+}") },
                            size * 0.6,
                            rgb(pal.badge_text),
                        ),
                        Transform::from_xyz(0.0, 0.0, 0.1),
                        Pickable::IGNORE,
                    ));
            }
            (None, None) => {}
        }
    }
}

/// The keyboard cursor: a rounded outline around the space, in the cursor's colour.
fn follow_cursor(
    mut commands: Commands,
    state: Res<BoardState>,
    cursor: Res<BoardCursor>,
    settings: Res<CurrentSettings>,
    mut marks: Query<(Entity, &mut Transform, &ChildOf), With<CursorMark>>,
    art: Res<BoardArt>,
) {
    if !cursor.is_changed() && !state.is_changed() && !settings.is_changed() {
        return;
    }
    let (Some(root), Some(view)) = (state.root, &state.view) else { return };
    let Some(c) = view.cells.get(cursor.index) else { return };
    let at = state.to_world(c.x, c.y).extend(6.0);
    match marks.single_mut() {
        Ok((_, mut t, parent)) if parent.parent() == root && !settings.is_changed() && !state.is_changed() => {
            t.translation = at;
        }
        other => {
            if let Ok((e, ..)) = other {
                commands.entity(e).despawn();
            }
            let pal = board_palette(settings.0.theme);
            commands.spawn((
                CursorMark,
                Sprite {
                    image: art.cursor.clone(),
                    color: rgb(pal.cursor),
                    custom_size: Some(Vec2::splat(state.scale * 1.02)),
                    ..default()
                },
                Transform::from_translation(at),
                Pickable::IGNORE,
                ChildOf(root),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;

    #[test]
    fn star_points_are_where_a_go_board_has_them() {
        assert_eq!(star_points(19, 19).len(), 9);
        assert!(star_points(19, 19).contains(&(3, 3)) && star_points(19, 19).contains(&(9, 9)));
        assert_eq!(star_points(13, 13), vec![(3, 3), (3, 9), (6, 6), (9, 3), (9, 9)]);
        assert_eq!(star_points(9, 9), vec![(2, 2), (2, 6), (4, 4), (6, 2), (6, 6)]);
        assert_eq!(star_points(11, 11), vec![(2, 2), (2, 8), (5, 5), (8, 2), (8, 8)]);
        assert!(star_points(5, 5).is_empty());
    }

    #[test]
    fn coordinates_name_every_axis_of_every_notation() {
        for kind in GameKind::all() {
            let view = kind.open(&[], None).unwrap().board_view();
            let labels = axis_labels(&view);
            let texts: Vec<&str> = labels.iter().map(|l| l.text.as_str()).collect();
            // Every letter and every number a space's name uses is written once.
            for c in &view.cells {
                let (letters, digits) = split_name(&c.name);
                assert!(texts.contains(&letters), "{kind}: no label {letters}");
                assert!(texts.contains(&digits), "{kind}: no label {digits}");
            }
            // Outside the spaces, never on one, and on the wood, clear of the rim (a label's half
            // height is under 0.2 units at any size).
            let (x0, y0, x1, y1) = view.drawn_bounds();
            let inside = |v: f32, low: f32, high: f32| v >= low - MARGIN_UNITS + 0.2 && v <= high + MARGIN_UNITS - 0.2;
            for l in &labels {
                let nearest = view.cells.iter().map(|c| Vec2::new(c.x, c.y).distance(l.at)).fold(f32::MAX, f32::min);
                assert!(nearest > 0.5, "{kind}: label {} sits on a space", l.text);
                assert!(inside(l.at.x, x0, x1) && inside(l.at.y, y0, y1), "{kind}: label {} is on the rim", l.text);
            }
        }
    }

    #[test]
    fn throngs_line_names_sit_outside_the_board_outline_on_every_board() {
        let throngs = GameKind::named("throngs");
        for board in ["T93", "R63", "R87", "R153", "P156"] {
            let view = throngs.open(&[("board".to_string(), board.to_string())], None).unwrap().board_view();
            let hull = convex_hull(&view.cells.iter().map(|c| Vec2::new(c.x, c.y)).collect::<Vec<_>>());
            for label in axis_labels(&view) {
                assert!(!inside_hull(&hull, label.at), "{board}: {} is inside the board", label.text);
                // Each name lies on its own line, extended: a letter level with its row, a number
                // on the up-left line of its sites.
                let site = view
                    .cells
                    .iter()
                    .find(|c| split_name(&c.name).0 == label.text || split_name(&c.name).1 == label.text)
                    .unwrap();
                let d = label.at - Vec2::new(site.x, site.y);
                let line =
                    if split_name(&site.name).0 == label.text { Vec2::X } else { Vec2::new(-0.5, 3f32.sqrt() / 2.0) };
                assert!(d.perp_dot(line).abs() < 0.05, "{board}: {} is off its line", label.text);
            }
        }
    }
}
