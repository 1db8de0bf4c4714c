//! Square boards of cells or points: neighbours, directions and optional wrap-around.

use super::Cell;

/// Whether and how the board's edges join.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Wrap {
    /// Plain edges.
    #[default]
    None,
    /// The left and right edges join (files wrap); top and bottom are walls.
    Cylinder,
    /// Both pairs of opposite edges join.
    Torus,
}

/// The eight compass directions as `(Δfile, Δrank)`: up, right, down, left, then the diagonals.
pub const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];

/// A `width` × `height` grid; cell index = `rank * width + file`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SquareGrid {
    width: usize,
    height: usize,
    wrap: Wrap,
    /// For each cell, its neighbour in each of the 8 directions (or `NONE`).
    steps: Vec<[Cell; 8]>,
}

impl SquareGrid {
    /// Marks a missing neighbour in step tables.
    pub const NONE: Cell = Cell::MAX;

    pub fn new(width: usize, height: usize, wrap: Wrap) -> Self {
        assert!(width * height < Cell::MAX as usize, "board too large");
        let mut steps = vec![[Self::NONE; 8]; width * height];
        for rank in 0..height {
            for file in 0..width {
                for (d, (df, dr)) in DIRECTIONS.iter().enumerate() {
                    let (mut f, mut r) = (file as i32 + df, rank as i32 + dr);
                    if matches!(wrap, Wrap::Cylinder | Wrap::Torus) {
                        f = f.rem_euclid(width as i32);
                    }
                    if wrap == Wrap::Torus {
                        r = r.rem_euclid(height as i32);
                    }
                    if f >= 0 && r >= 0 && (f as usize) < width && (r as usize) < height {
                        let to = r as usize * width + f as usize;
                        if to != rank * width + file {
                            steps[rank * width + file][d] = to as Cell;
                        }
                    }
                }
            }
        }
        SquareGrid { width, height, wrap, steps }
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    pub fn wrap(&self) -> Wrap {
        self.wrap
    }
    pub fn len(&self) -> usize {
        self.width * self.height
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn cell(&self, file: usize, rank: usize) -> Cell {
        (rank * self.width + file) as Cell
    }

    /// `(file, rank)` of a cell.
    pub fn coords(&self, cell: Cell) -> (usize, usize) {
        (cell as usize % self.width, cell as usize / self.width)
    }

    /// The neighbour in direction `dir` (an index into [`DIRECTIONS`]).
    #[inline]
    pub fn step(&self, cell: Cell, dir: usize) -> Option<Cell> {
        let to = self.steps[cell as usize][dir];
        (to != Self::NONE).then_some(to)
    }

    /// Orthogonal neighbours (up to 4; distinct even on small wrapped boards).
    pub fn orthogonal(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.distinct_steps(cell, 0..4)
    }

    /// All eight neighbours (distinct even on small wrapped boards).
    pub fn all_neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.distinct_steps(cell, 0..8)
    }

    fn distinct_steps(&self, cell: Cell, dirs: std::ops::Range<usize>) -> impl Iterator<Item = Cell> + '_ {
        let row = &self.steps[cell as usize];
        dirs.clone()
            .filter(move |&d| row[d] != Self::NONE && !row[dirs.start..d].contains(&row[d]))
            .map(move |d| row[d])
    }

    /// All cells in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> {
        (0..self.len()).map(|c| c as Cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_edge_and_centre_neighbour_counts() {
        let g = SquareGrid::new(5, 5, Wrap::None);
        assert_eq!(g.orthogonal(g.cell(0, 0)).count(), 2);
        assert_eq!(g.all_neighbours(g.cell(0, 0)).count(), 3);
        assert_eq!(g.orthogonal(g.cell(2, 0)).count(), 3);
        assert_eq!(g.all_neighbours(g.cell(2, 0)).count(), 5);
        assert_eq!(g.orthogonal(g.cell(2, 2)).count(), 4);
        assert_eq!(g.all_neighbours(g.cell(2, 2)).count(), 8);
        assert_eq!(g.coords(g.cell(3, 4)), (3, 4));
    }

    #[test]
    fn cylinder_wraps_files_only() {
        let g = SquareGrid::new(5, 5, Wrap::Cylinder);
        let a1 = g.cell(0, 0);
        let mut n: Vec<_> = g.orthogonal(a1).collect();
        n.sort();
        assert_eq!(n, vec![g.cell(1, 0), g.cell(4, 0), g.cell(0, 1)]);
        // DIRECTIONS[3] is (-1, 0): one file left, which wraps; [2] is one rank down, a wall.
        assert_eq!(g.step(a1, 3), Some(g.cell(4, 0)));
        assert_eq!(g.step(a1, 2), None);
    }

    #[test]
    fn torus_gives_every_cell_four_and_eight_neighbours() {
        let g = SquareGrid::new(4, 6, Wrap::Torus);
        for c in g.cells() {
            assert_eq!(g.orthogonal(c).count(), 4);
            assert_eq!(g.all_neighbours(c).count(), 8);
        }
        assert_eq!(g.step(g.cell(0, 0), 6), Some(g.cell(3, 5)));
    }

    #[test]
    fn tiny_torus_neighbours_are_distinct() {
        let g = SquareGrid::new(2, 2, Wrap::Torus);
        assert_eq!(g.orthogonal(0).count(), 2);
    }
}
