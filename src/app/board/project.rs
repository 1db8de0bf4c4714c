//! Projection: board entities follow the match's position (the `Project` step). Each space is a
//! `BoardCell` entity with its state as components; each piece an entity on its cell — a `Stone`,
//! a `Stack` with a child entity per piece (so a stack grows and shrinks piece by piece), or a
//! `Figure`. In debug builds a check compares the entities with the position.

use crate::app::AppSystems;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::{BoardAnimating, BoardCursor, Secrecy, TurnWarning, shown_view};
use crate::app::screen::Screen;
use crate::app::ui::ScreenLayout;
use crate::rules::{BoardView, Cell, CellMarks, CellValue, HintMark, PieceShape, PieceView, Side};
use bevy::prelude::*;

/// One space of the board.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct BoardCell {
    pub cell: Cell,
    pub name: String,
    /// Its index in the board view's cells (and in `BoardState::cells`).
    pub index: usize,
}

/// The space is burned (Hidden Intention): closed until it reopens.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Burned;

/// The space is controlled by (Gravel) or leans to (Hidden Intention) this side.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Controlled(pub Side);

/// Hidden Intention: the square's influence, the first side's minus the second's.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Influence(pub i32);

/// Throngs: the power of the site for the side to move.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Power(pub i32);

/// Chosen by this side in an action under way (an Inchworm collect or distribution).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chosen(pub Side);

/// A stone of this side is travelling from here with this much power left (a started Throngs part).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Travelling {
    pub side: Side,
    pub range: u8,
}

/// What the hints overlay says about the space (an eye, a group in danger).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hinted(pub HintMark);

/// A piece on the board, on `cell` (a child entity of that cell); it also carries one of `Stone`,
/// `Stack` or `Figure`.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub cell: Cell,
}

/// A single stone; `owner` `None` for a neutral stone (Red Stone's red stones).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stone {
    pub owner: Option<Side>,
}

/// A stack of one owner's pieces; its pieces are child entities (`StackPiece`), one per level.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stack {
    pub owner: Side,
    pub height: u16,
}

/// One piece of a stack, `level` 0 at the bottom.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StackPiece {
    pub level: u16,
}

/// A chess-like figure (Hidden Intention); `facing` in eighth turns clockwise from up.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figure {
    pub owner: Side,
    pub figure: crate::rules::Figure,
    pub facing: Option<u8>,
}

/// A piece that left the board (or the top of a stack that shrank) and animates out; it is no
/// longer part of the projection. `cell` is where it stood.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vanishing {
    pub cell: Cell,
}

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
    /// The cell entities, in the view's order.
    pub cells: Vec<Entity>,
    /// The piece entity on each cell, in the view's order.
    pub pieces: Vec<Option<Entity>>,
    pub root: Option<Entity>,
    /// The screen layout the board was laid out for.
    pub layout: Option<ScreenLayout>,
}

impl BoardState {
    /// World position of a point given in board units.
    pub fn to_world(&self, x: f32, y: f32) -> Vec2 {
        (Vec2::new(x, y) - self.centre) * self.scale
    }

    /// The world position of a space, relative to the board's root.
    pub fn cell_at(&self, cell: Cell) -> Option<Vec2> {
        let c = self.view.as_ref()?.cells.iter().find(|c| c.cell == cell)?;
        Some(self.to_world(c.x, c.y))
    }

    /// Where a side's prisoners are kept beside the board, relative to the root: the first side's
    /// at the top right, the second side's at the bottom right (the HUD's counters are on the
    /// right).
    pub fn tray(&self, side: Side) -> Option<Vec2> {
        let view = self.view.as_ref()?;
        let half = view.cells.iter().fold(Vec2::ZERO, |m, c| m.max(self.to_world(c.x, c.y).abs()));
        let y = if side == Side::First { half.y } else { -half.y };
        Some(Vec2::new(half.x + self.scale * 0.9, y))
    }

    /// The view's index of the space named `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.view.as_ref()?.cells.iter().position(|c| c.name == name)
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<BoardState>();
    app.add_systems(OnExit(Screen::Playing), clear_board);
    app.add_systems(OnEnter(Screen::Playing), |mut cursor: ResMut<BoardCursor>| cursor.recentre = true);
    app.add_systems(Update, (project_board, check_projection).chain().in_set(AppSystems::Project));
    app.add_systems(Update, hide_during_handover.in_set(AppSystems::Present));
}

/// The board stays in view while the revealed attempt animates, then hides for the hand-over.
fn hide_during_handover(
    state: Res<BoardState>,
    secrecy: Res<Secrecy>,
    animating: Res<BoardAnimating>,
    mut roots: Query<&mut Visibility, With<BoardRoot>>,
) {
    let Some(root) = state.root else { return };
    let hide = secrecy.handover.is_some() && !animating.0;
    if let Ok(mut v) = roots.get_mut(root) {
        v.set_if_neq(if hide { Visibility::Hidden } else { Visibility::Inherited });
    }
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

/// Board units of room around the spaces: the wood's margin, where the coordinates go.
pub const MARGIN_UNITS: f32 = 0.9;

/// Pixels per board unit so that a board of `cols` × `rows` units (and its margin) fits the
/// layout's board area, leaving 3% of the area's height free around it.
pub fn board_scale(area: Rect, cols: f32, rows: f32) -> f32 {
    let free = (area.size() - Vec2::splat(area.height() * 0.06)).max(Vec2::splat(100.0));
    (free.x / (cols + 2.0 * MARGIN_UNITS)).min(free.y / (rows + 2.0 * MARGIN_UNITS)).max(6.0)
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
fn project_board(
    mut commands: Commands,
    current: Res<CurrentMatch>,
    mut state: ResMut<BoardState>,
    layout: Res<ScreenLayout>,
    mut stacks: Query<&mut Stack>,
    children: Query<&Children>,
    levels: Query<&StackPiece>,
    warning: Res<TurnWarning>,
) {
    let laid_out = state.layout == Some(*layout);
    if state.root.is_some() && laid_out && !current.is_changed() && !warning.is_changed() {
        return;
    }
    let view = shown_view(&current, &warning);
    // A new window size lays the board out again, so it stays readable at any size.
    let rebuild = !laid_out || state.view.as_ref().is_none_or(|old| !same_board(old, &view));
    if !rebuild && state.view.as_ref() == Some(&view) {
        return;
    }
    state.layout = Some(*layout);
    if rebuild {
        build_board(&mut commands, &mut state, &view);
    }
    let old = if rebuild { None } else { state.view.take() };
    for (i, c) in view.cells.iter().enumerate() {
        let before = old.as_ref().map(|o| &o.cells[i]);
        if before.is_none_or(|b| b.marks != c.marks) {
            set_cell_state(&mut commands.entity(state.cells[i]), &c.marks, before.map(|b| &b.marks));
        }
        let was = before.and_then(|b| b.piece);
        if before.is_some() && was == c.piece {
            continue;
        }
        let cell_entity = state.cells[i];
        let slot = &mut state.pieces[i];
        match (was, c.piece, *slot) {
            // A stack of the same owner grew or shrank: pieces are added or taken off its top.
            (Some(old_piece), Some(new_piece), Some(e))
                if matches!(
                    (old_piece.shape, new_piece.shape),
                    (PieceShape::Stack { .. }, PieceShape::Stack { .. })
                ) && old_piece.owner == new_piece.owner =>
            {
                if let Ok(mut stack) = stacks.get_mut(e) {
                    stack.height = new_piece.height();
                }
                restack(&mut commands, e, c.cell, new_piece.height(), &children, &levels);
            }
            (_, new_piece, old_entity) => {
                if let Some(e) = old_entity {
                    // Not part of the position any more; `fx` animates it out, then despawns it.
                    commands.entity(e).remove::<Piece>().insert(Vanishing { cell: c.cell });
                }
                *slot = new_piece.map(|p| spawn_piece(&mut commands, cell_entity, c.cell, &p));
            }
        }
    }
    state.view = Some(view);
}

/// A fresh board: the root and a cell entity per space, laid out for the window.
fn build_board(commands: &mut Commands, state: &mut BoardState, view: &BoardView) {
    if let Some(root) = state.root.take() {
        commands.entity(root).despawn();
    }
    let (x0, y0, x1, y1) = view.drawn_bounds();
    let layout = state.layout.unwrap_or_default();
    state.centre = Vec2::new((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    state.scale = board_scale(layout.board, x1 - x0, y1 - y0);
    // Centred in the layout's board area (beside the panel, or above it in portrait).
    let at = layout.board_centre_world();
    let root = commands
        .spawn((Name::new("Board"), BoardRoot, Transform::from_xyz(at.x, at.y, 0.0), Visibility::default()))
        .id();
    state.root = Some(root);
    state.cells = view
        .cells
        .iter()
        .enumerate()
        .map(|(index, c)| {
            let p = state.to_world(c.x, c.y);
            commands
                .spawn((
                    Name::new(format!("Cell {}", c.name)),
                    BoardCell { cell: c.cell, name: c.name.clone(), index },
                    Transform::from_translation(p.extend(0.0)),
                    Visibility::default(),
                    ChildOf(root),
                ))
                .id()
        })
        .collect();
    state.pieces = vec![None; view.cells.len()];
}

/// Puts a cell's marks on its entity as components (only those that changed since `before`).
fn set_cell_state(cell: &mut EntityCommands, marks: &CellMarks, before: Option<&CellMarks>) {
    fn toggle<C: Component>(cell: &mut EntityCommands, now: Option<C>, was_some: bool) {
        match now {
            Some(c) => {
                cell.insert(c);
            }
            None if was_some => {
                cell.remove::<C>();
            }
            None => {}
        }
    }
    let had = |f: fn(&CellMarks) -> bool| before.is_some_and(f);
    toggle(cell, marks.burned.then_some(Burned), had(|m| m.burned));
    toggle(cell, marks.control.map(Controlled), had(|m| m.control.is_some()));
    let (influence, power) = match marks.value {
        Some(CellValue::Influence(v)) => (Some(Influence(v)), None),
        Some(CellValue::Power(v)) => (None, Some(Power(v))),
        None => (None, None),
    };
    toggle(cell, influence, had(|m| matches!(m.value, Some(CellValue::Influence(_)))));
    toggle(cell, power, had(|m| matches!(m.value, Some(CellValue::Power(_)))));
    toggle(cell, marks.chosen.map(Chosen), had(|m| m.chosen.is_some()));
    toggle(cell, marks.travelling.map(|(side, range)| Travelling { side, range }), had(|m| m.travelling.is_some()));
    toggle(cell, marks.hint.map(Hinted), had(|m| m.hint.is_some()));
}

/// Spawns the entity of `piece` on the cell entity `parent`.
fn spawn_piece(commands: &mut Commands, parent: Entity, cell: Cell, piece: &PieceView) -> Entity {
    let mut e = commands.spawn((
        Name::new("Piece"),
        Piece { cell },
        Transform::from_xyz(0.0, 0.0, 2.0),
        Visibility::default(),
        ChildOf(parent),
    ));
    match (piece.shape, piece.owner) {
        (PieceShape::Stone, owner) => {
            e.insert(Stone { owner });
        }
        (PieceShape::Stack { height }, Some(owner)) => {
            e.insert(Stack { owner, height });
            e.with_children(|stack| {
                for level in 0..height {
                    stack.spawn(stack_piece(level));
                }
            });
        }
        (PieceShape::Figure { figure, facing }, Some(owner)) => {
            e.insert(Figure { owner, figure, facing });
        }
        // A stack or figure always has an owner; drawn as a neutral stone if a game says otherwise.
        (_, None) => {
            e.insert(Stone { owner: None });
        }
    }
    e.id()
}

fn stack_piece(level: u16) -> impl Bundle {
    (Name::new("Stack piece"), StackPiece { level }, Transform::default(), Visibility::default())
}

/// Adds pieces on top of the stack `stack` or takes them off until it has `height` levels.
fn restack(
    commands: &mut Commands,
    stack: Entity,
    cell: Cell,
    height: u16,
    children: &Query<&Children>,
    levels: &Query<&StackPiece>,
) {
    let mut have: Vec<(u16, Entity)> = children
        .get(stack)
        .map(|kids| kids.iter().filter_map(|k| levels.get(k).ok().map(|p| (p.level, k))).collect())
        .unwrap_or_default();
    have.sort();
    let count = have.len() as u16;
    for level in count..height {
        commands.spawn((stack_piece(level), ChildOf(stack)));
    }
    for &(_, e) in have.iter().skip(height as usize) {
        // The top pieces lift off one by one (`fx`), then go.
        commands.entity(e).remove::<StackPiece>().insert(Vanishing { cell });
    }
}

/// The piece an entity shows, as the view writes it (for the projection check and the tests).
pub fn shown_piece(stone: Option<&Stone>, stack: Option<&Stack>, figure: Option<&Figure>) -> Option<PieceView> {
    match (stone, stack, figure) {
        (Some(s), _, _) => Some(PieceView::stone(s.owner)),
        (_, Some(s), _) => Some(PieceView::stack(s.owner, s.height)),
        (_, _, Some(f)) => Some(PieceView::figure(f.owner, f.figure, f.facing)),
        _ => None,
    }
}

type PieceKinds<'a> = (&'a Piece, Option<&'a Stone>, Option<&'a Stack>, Option<&'a Figure>);

/// Debug builds: every piece of the position has exactly one matching entity, and no other exists.
fn check_projection(state: Res<BoardState>, pieces: Query<PieceKinds>, current: Res<CurrentMatch>) {
    if !cfg!(debug_assertions) || !current.is_changed() {
        return;
    }
    let Some(view) = &state.view else { return };
    let expected = view.cells.iter().filter(|c| c.piece.is_some()).count();
    let spawned = state.pieces.iter().flatten().count();
    debug_assert_eq!(expected, spawned, "board projection has {spawned} pieces for {expected}");
    for (c, e) in view.cells.iter().zip(&state.pieces) {
        if let (Some(p), Some(e)) = (&c.piece, e)
            && let Ok((piece, stone, stack, figure)) = pieces.get(*e)
        {
            debug_assert_eq!(piece.cell, c.cell, "piece of {} on another cell", c.name);
            debug_assert_eq!(shown_piece(stone, stack, figure).as_ref(), Some(p), "piece on {} differs", c.name);
        }
    }
}
