//! Projection: board entities follow `CurrentMatch`'s position (`Project` step), and in debug
//! builds a check compares them with the position.

use crate::app::match_state::CurrentMatch;
use crate::app::screen::Screen;
use crate::app::turn::TurnSystems;
use crate::rules::{BoardView, Cell, PieceView, Side};
use bevy::prelude::*;

/// One space of the board.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct CellSpace {
    pub cell: Cell,
    pub name: String,
}

/// A piece or stack standing on a space.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Stone {
    pub cell: Cell,
    pub owner: Option<Side>,
    pub kind: char,
    pub height: u16,
    pub facing: Option<u8>,
}

/// Where a vanishing stone stood (its `Stone` is gone with the position).
#[derive(Component, Debug, Clone, Copy)]
pub struct StoneGone(pub Cell);

/// The parent of all board entities.
#[derive(Component)]
pub struct BoardRoot;

/// What the board entities currently show.
#[derive(Resource, Default)]
pub struct BoardState {
    /// The view the entities were built from.
    pub view: Option<BoardView>,
    /// Board units → world pixels.
    pub scale: f32,
    /// The centre of the board in board units.
    pub centre: Vec2,
    pub cells: Vec<Entity>,
    pub stones: Vec<Option<Entity>>,
    pub root: Option<Entity>,
    /// The window size the layout was computed for.
    pub window: Vec2,
}

impl BoardState {
    /// World position of a point given in board units.
    pub fn to_world(&self, x: f32, y: f32) -> Vec2 {
        (Vec2::new(x, y) - self.centre) * self.scale
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<BoardState>();
    app.add_systems(OnExit(Screen::Playing), clear_board);
    app.add_systems(Update, (project_board, check_projection).chain().in_set(TurnSystems::Project));
}

fn clear_board(mut commands: Commands, mut state: ResMut<BoardState>) {
    if let Some(root) = state.root.take() {
        commands.entity(root).despawn();
    }
    *state = BoardState::default();
}

/// Same layout and the same spaces: pieces can be updated in place.
fn same_board(a: &BoardView, b: &BoardView) -> bool {
    a.layout == b.layout
        && a.cells.len() == b.cells.len()
        && a.cells.iter().zip(&b.cells).all(|(x, y)| x.name == y.name)
}

pub(super) fn project_board(
    mut commands: Commands,
    current: Res<CurrentMatch>,
    mut state: ResMut<BoardState>,
    windows: Query<&Window>,
) {
    let fresh = state.root.is_none();
    let window = windows.iter().next().map(|w| Vec2::new(w.width(), w.height())).unwrap_or(Vec2::new(1280.0, 720.0));
    let resized = window != state.window;
    if !fresh && !resized && !current.is_changed() {
        return;
    }
    let Some(view) = current.game.board_view() else { return };
    // A new window size lays the board out again, so it stays readable at any size.
    let rebuild = resized || state.view.as_ref().is_none_or(|old| !same_board(old, &view));
    state.window = window;
    if rebuild {
        if let Some(root) = state.root.take() {
            commands.entity(root).despawn();
        }
        let (x0, y0, x1, y1) = view.drawn_bounds();
        state.centre = Vec2::new((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        state.scale = board_scale(window.x, window.y, x1 - x0 + 1.0, y1 - y0 + 1.0);
        // The HUD covers the right of the window: centre the board in the rest.
        let root = commands
            .spawn((
                Name::new("Board"),
                BoardRoot,
                Transform::from_xyz(-HUD_WIDTH / 2.0, 0.0, 0.0),
                Visibility::default(),
            ))
            .id();
        state.root = Some(root);
        state.cells = view
            .cells
            .iter()
            .map(|c| {
                let p = state.to_world(c.x, c.y);
                commands
                    .spawn((
                        Name::new(format!("Cell {}", c.name)),
                        CellSpace { cell: c.cell, name: c.name.clone() },
                        Transform::from_translation(p.extend(0.0)),
                        Visibility::default(),
                        ChildOf(root),
                    ))
                    .id()
            })
            .collect();
        state.stones = vec![None; view.cells.len()];
    }
    let old = if rebuild { None } else { state.view.take() };
    for (i, c) in view.cells.iter().enumerate() {
        let before = old.as_ref().and_then(|o| o.cells[i].piece.clone());
        if before == c.piece && !rebuild {
            continue;
        }
        if let Some(e) = state.stones[i].take() {
            // Not part of the position any more; the fx module animates it out, then despawns it.
            commands.entity(e).remove::<Stone>().insert(super::fx::Vanishing).insert(StoneGone(c.cell));
        }
        if let Some(piece) = &c.piece {
            let parent = state.cells[i];
            state.stones[i] = Some(commands.spawn((stone_bundle(c.cell, piece), ChildOf(parent))).id());
        }
    }
    state.view = Some(view);
}

fn stone_bundle(cell: Cell, p: &PieceView) -> impl Bundle {
    (
        Name::new("Stone"),
        Stone { cell, owner: p.owner, kind: p.kind, height: p.count, facing: p.facing },
        Transform::from_xyz(0.0, 0.0, 2.0),
        Visibility::default(),
    )
}

/// Width of the HUD panel on the right, in logical pixels (the board uses the rest).
pub const HUD_WIDTH: f32 = 340.0;

/// Pixels per board unit so that a board of `cols` × `rows` units fits the window beside the HUD.
pub fn board_scale(window_w: f32, window_h: f32, cols: f32, rows: f32) -> f32 {
    let free_w = (window_w - HUD_WIDTH - 40.0).max(200.0);
    let free_h = (window_h - 60.0).max(200.0);
    (free_w / (cols + 0.6)).min(free_h / (rows + 0.6)).max(8.0)
}

/// Debug builds: every piece of the position has exactly one matching `Stone`, and no other exists.
fn check_projection(state: Res<BoardState>, stones: Query<&Stone>, current: Res<CurrentMatch>) {
    if !cfg!(debug_assertions) || !current.is_changed() {
        return;
    }
    let Some(view) = &state.view else { return };
    let expected = view.cells.iter().filter(|c| c.piece.is_some()).count();
    let spawned = state.stones.iter().flatten().count();
    debug_assert_eq!(expected, spawned, "board projection has {spawned} stones for {expected} pieces");
    for (c, e) in view.cells.iter().zip(&state.stones) {
        if let (Some(p), Some(e)) = (&c.piece, e)
            && let Ok(s) = stones.get(*e)
        {
            debug_assert!(s.owner == p.owner && s.kind == p.kind && s.height == p.count, "stone on {} differs", c.name);
        }
    }
}
