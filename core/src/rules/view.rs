//! A game-neutral picture of a position for the app: where each space is, what stands on it, and
//! which marks it carries. Each game builds one from its position; the app draws any game from it.

use super::{Cell, Side};

/// How the spaces are laid out and joined.
#[derive(Clone, Debug, PartialEq)]
pub enum Layout {
    /// Square cells (chequered squares), `width` × `height`.
    Squares { width: usize, height: usize },
    /// Points on the crossings of grid lines (Go style), `width` × `height`.
    Points { width: usize, height: usize },
    /// Points joined by the given lines (triangular lattices).
    Lattice { lines: Vec<(Cell, Cell)> },
}

/// A chess-like figure (Hidden Intention's pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    Pawn,
    /// The pawn that projects diagonally (written `X`).
    DiagonalPawn,
    Rook,
    Bishop,
    Knight,
    Queen,
}

impl Figure {
    /// The letter the notation writes (`P`, `X`, `R`, `B`, `N`, `Q`).
    pub const fn letter(self) -> char {
        match self {
            Figure::Pawn => 'P',
            Figure::DiagonalPawn => 'X',
            Figure::Rook => 'R',
            Figure::Bishop => 'B',
            Figure::Knight => 'N',
            Figure::Queen => 'Q',
        }
    }

    /// The figure in words ("diagonal pawn").
    pub const fn name(self) -> &'static str {
        match self {
            Figure::Pawn => "pawn",
            Figure::DiagonalPawn => "diagonal pawn",
            Figure::Rook => "rook",
            Figure::Bishop => "bishop",
            Figure::Knight => "knight",
            Figure::Queen => "queen",
        }
    }
}

/// What kind of piece stands on a space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceShape {
    /// A single stone (Red Stone, Throngs).
    Stone,
    /// A stack of pieces of one owner (Gravel, Inchworm); a lone piece is a stack of height 1.
    Stack { height: u16 },
    /// A chess-like figure; `facing` (eighth turns clockwise, 0 = up) for figures that face a way.
    Figure { figure: Figure, facing: Option<u8> },
}

/// What stands on a space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceView {
    /// `None` for neutral pieces (Red Stone's red stones).
    pub owner: Option<Side>,
    pub shape: PieceShape,
}

impl PieceView {
    pub const fn stone(owner: Option<Side>) -> Self {
        PieceView { owner, shape: PieceShape::Stone }
    }

    pub const fn stack(owner: Side, height: u16) -> Self {
        PieceView { owner: Some(owner), shape: PieceShape::Stack { height } }
    }

    pub const fn figure(owner: Side, figure: Figure, facing: Option<u8>) -> Self {
        PieceView { owner: Some(owner), shape: PieceShape::Figure { figure, facing } }
    }

    /// How many pieces stand there (a stack's height, else 1).
    pub const fn height(&self) -> u16 {
        match self.shape {
            PieceShape::Stack { height } => height,
            _ => 1,
        }
    }
}

/// The colour a side's pieces are drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tone {
    Dark,
    Light,
}

/// A number a game gives each space, shown on demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellValue {
    /// Throngs: the power of the site for the side to move.
    Power(i32),
    /// Hidden Intention: the square's influence, the first side's minus the second's.
    Influence(i32),
}

impl CellValue {
    pub const fn number(self) -> i32 {
        match self {
            CellValue::Power(v) | CellValue::Influence(v) => v,
        }
    }
}

/// Marks on a space that the board shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CellMarks {
    pub burned: bool,
    /// Which side controls or influences it, for overlays (`Some(side)`), neutral `None`.
    pub control: Option<Side>,
    /// The game's number for the space (influence, power), shown on demand.
    pub value: Option<CellValue>,
    /// Chosen by this side in an action under way (an Inchworm collect or distribution).
    pub chosen: Option<Side>,
    /// A stone of this side is travelling from here with this much power left (a started
    /// Throngs part): drawn as a see-through stone with the number.
    pub travelling: Option<(Side, u8)>,
    /// What the hints overlay says about this space (eyes, stones in danger).
    pub hint: Option<HintMark>,
}

/// A standing hint about a space, shown with the hints overlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintMark {
    /// An empty point whose every neighbour is occupied, an eye of this side (`None`: a red eye,
    /// where nothing may ever be placed).
    Eye(Option<Side>),
    /// A stone of a group with a single liberty left: one stone there captures the group.
    InDanger,
    /// A piece the opponent could remove on its next turn (Gravel's danger; the app adds it from
    /// `DynGame::threatened`).
    Threatened,
}

/// A line of the board that leaves one edge and comes back at the opposite one (a wrapped board):
/// from `from`, one step in the direction `(dx, dy)` (board units) is `to`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WrapLink {
    pub from: Cell,
    pub to: Cell,
    pub dx: f32,
    pub dy: f32,
}

/// One space of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct CellView {
    pub cell: Cell,
    pub name: String,
    /// Position in board units: x to the right, y up; neighbouring spaces are 1 apart.
    pub x: f32,
    pub y: f32,
    pub piece: Option<PieceView>,
    pub marks: CellMarks,
}

/// A side's counters shown beside the board (pools, stocks, prisoners, scores, swaps left).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counter {
    pub side: Option<Side>,
    pub label: String,
    pub value: String,
}

/// A position the app can draw: every game's position gives its picture.
pub trait DrawBoard {
    /// The game-neutral picture of this position.
    fn board_view(&self) -> BoardView;

    /// Each side's pieces on the board, by `Side::index` (a stack counts its height): the
    /// picture's, counted. A game that keeps the count at hand says it faster.
    fn pieces_on_board(&self) -> [u32; 2] {
        self.board_view().pieces_of_each_side()
    }
}

/// The whole picture.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardView {
    pub layout: Layout,
    pub cells: Vec<CellView>,
    pub counters: Vec<Counter>,
    /// Where the board wraps around (cylinder and torus boards); empty on a plain board.
    pub wraps: Vec<WrapLink>,
}

impl BoardView {
    /// Each side's pieces in the picture, by `Side::index` (a stack counts its height).
    pub fn pieces_of_each_side(&self) -> [u32; 2] {
        let mut count = [0, 0];
        for piece in self.cells.iter().filter_map(|c| c.piece) {
            if let Some(owner) = piece.owner {
                count[owner.index()] += match piece.shape {
                    PieceShape::Stack { height } => u32::from(height),
                    _ => 1,
                };
            }
        }
        count
    }

    /// The space named `name` (`"c3"`), if the board has one.
    pub fn cell_named(&self, name: &str) -> Option<&CellView> {
        self.cells.iter().find(|c| c.name == name)
    }

    /// How many spaces hold a piece.
    pub fn occupied_count(&self) -> usize {
        self.cells.iter().filter(|c| c.piece.is_some()).count()
    }

    /// Cells of a plain `width` × `height` grid laid out at integer coordinates (a1 bottom-left);
    /// `name` names each `(file, rank)`.
    pub fn grid_cells(width: usize, height: usize, name: impl Fn(usize, usize) -> String) -> Vec<CellView> {
        let mut cells = Vec::with_capacity(width * height);
        for rank in 0..height {
            for file in 0..width {
                cells.push(CellView {
                    cell: (rank * width + file) as Cell,
                    name: name(file, rank),
                    x: file as f32,
                    y: rank as f32,
                    piece: None,
                    marks: CellMarks::default(),
                });
            }
        }
        cells
    }

    /// Links from the cells of a `width` × `height` grid (laid out by [`BoardView::grid_cells`]) to
    /// the cells across the seams: files wrap when `files_wrap`, ranks too when `ranks_wrap`.
    pub fn grid_wraps(width: usize, height: usize, files_wrap: bool, ranks_wrap: bool) -> Vec<WrapLink> {
        let at = |file: usize, rank: usize| (rank * width + file) as Cell;
        let mut links = Vec::new();
        if files_wrap {
            for rank in 0..height {
                links.push(WrapLink { from: at(width - 1, rank), to: at(0, rank), dx: 1.0, dy: 0.0 });
                links.push(WrapLink { from: at(0, rank), to: at(width - 1, rank), dx: -1.0, dy: 0.0 });
            }
        }
        if ranks_wrap {
            for file in 0..width {
                links.push(WrapLink { from: at(file, height - 1), to: at(file, 0), dx: 0.0, dy: 1.0 });
                links.push(WrapLink { from: at(file, 0), to: at(file, height - 1), dx: 0.0, dy: -1.0 });
            }
        }
        links
    }

    /// The bounding box of the cells and of the copies a wrapped board shows one step beyond its
    /// seams: what the drawing has to fit.
    pub fn drawn_bounds(&self) -> (f32, f32, f32, f32) {
        let ghosts = self.wraps.iter().map(|w| {
            let c = &self.cells[w.from as usize];
            (c.x + w.dx, c.y + w.dy)
        });
        ghosts.fold(self.bounds(), |(a, b, c, d), (x, y)| (a.min(x), b.min(y), c.max(x), d.max(y)))
    }

    /// The bounding box `(min_x, min_y, max_x, max_y)` of the cells.
    pub fn bounds(&self) -> (f32, f32, f32, f32) {
        self.cells.iter().fold((f32::MAX, f32::MAX, f32::MIN, f32::MIN), |(a, b, c, d), v| {
            (a.min(v.x), b.min(v.y), c.max(v.x), d.max(v.y))
        })
    }
}

/// The cell names a move token mentions, in order (`"d4>e5"` → `["d4", "e5"]`): letters followed
/// by digits. The app's click-to-move builder matches clicks against these.
pub fn cells_in_token(token: &str) -> Vec<&str> {
    let bytes = token.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
            }
            let letters_end = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            // One letter then digits: a cell name (a prefix such as `S` in `Sb8` is skipped).
            if i > letters_end && letters_end > start {
                out.push(&token[letters_end - 1..i]);
            }
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_found_in_tokens_of_every_game() {
        assert_eq!(cells_in_token("C3*"), vec!["C3"]);
        assert_eq!(cells_in_token("+d4*2"), vec!["d4"]);
        assert_eq!(cells_in_token("xf6>g6"), vec!["f6", "g6"]);
        assert_eq!(cells_in_token("Sb8-a7-b7"), vec!["b8", "a7", "b7"]);
        assert_eq!(cells_in_token("Ce3-f3>f3"), vec!["e3", "f3", "f3"]);
        assert_eq!(cells_in_token("Qd4"), vec!["d4"]);
        assert_eq!(cells_in_token("pass"), Vec::<&str>::new());
        assert_eq!(cells_in_token("k10"), vec!["k10"]);
    }

    #[test]
    fn grid_cells_are_laid_out_from_a1() {
        let v = BoardView {
            layout: Layout::Squares { width: 3, height: 2 },
            cells: BoardView::grid_cells(3, 2, |f, r| format!("{}{}", (b'a' + f as u8) as char, r + 1)),
            counters: vec![],
            wraps: vec![],
        };
        assert_eq!(v.cells[4].name, "b2");
        assert_eq!((v.cells[4].x, v.cells[4].y), (1.0, 1.0));
        assert_eq!(v.bounds(), (0.0, 0.0, 2.0, 1.0));
    }

    #[test]
    fn grid_wraps_join_opposite_edges_one_step_out() {
        assert!(BoardView::grid_wraps(3, 2, false, false).is_empty());
        let cylinder = BoardView::grid_wraps(3, 2, true, false);
        assert_eq!(cylinder.len(), 4);
        // c1 → a1 going right; a2 → c2 going left.
        assert!(cylinder.contains(&WrapLink { from: 2, to: 0, dx: 1.0, dy: 0.0 }));
        assert!(cylinder.contains(&WrapLink { from: 3, to: 5, dx: -1.0, dy: 0.0 }));
        let torus = BoardView::grid_wraps(3, 2, true, true);
        assert_eq!(torus.len(), 4 + 6);
        assert!(torus.contains(&WrapLink { from: 4, to: 1, dx: 0.0, dy: 1.0 }));
        let v = BoardView {
            layout: Layout::Squares { width: 3, height: 2 },
            cells: BoardView::grid_cells(3, 2, |f, r| format!("{f}{r}")),
            counters: vec![],
            wraps: cylinder,
        };
        assert_eq!(v.drawn_bounds(), (-1.0, 0.0, 3.0, 1.0), "one column of copies on each side");
    }
}
