//! Triangular lattices: points with six neighbours, straight lines in six directions, arbitrary
//! masks (holes, notches, irregular outlines) and optional torus wrap.

use super::Cell;

/// The six directions as `(Δrow, Δcol)`: E, W, NE, NW, SE, SW (Throngs' coordinates: `c` is
/// constant along the up-left diagonal, so NW is `(+1, 0)`).
pub const TRI_DIRECTIONS: [(i32, i32); 6] = [(0, 1), (0, -1), (1, 1), (1, 0), (-1, 0), (-1, -1)];

/// A finite set of lattice points inside a `rows` × `cols` box of `(row, col)` pairs.
/// Sites are numbered densely in row-major order of the box.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TriLattice {
    rows: usize,
    cols: usize,
    torus: bool,
    /// Box index → site index, or `NONE` where the box point is not a site.
    site_of: Vec<Cell>,
    /// Site index → `(row, col)`.
    coords: Vec<(u8, u8)>,
    /// Site index → neighbour in each of the 6 directions, or `NONE`.
    steps: Vec<[Cell; 6]>,
}

impl TriLattice {
    pub const NONE: Cell = Cell::MAX;

    /// The lattice of the box points for which `is_site(row, col)` holds. With `torus`, rows and
    /// columns wrap modulo the box size (which must then be square).
    pub fn new(rows: usize, cols: usize, torus: bool, is_site: impl Fn(usize, usize) -> bool) -> Self {
        assert!(rows <= 255 && cols <= 255, "lattice box too large");
        let mut site_of = vec![Self::NONE; rows * cols];
        let mut coords = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if is_site(r, c) {
                    site_of[r * cols + c] = coords.len() as Cell;
                    coords.push((r as u8, c as u8));
                }
            }
        }
        let mut steps = vec![[Self::NONE; 6]; coords.len()];
        for (s, &(r, c)) in coords.iter().enumerate() {
            for (d, (dr, dc)) in TRI_DIRECTIONS.iter().enumerate() {
                let (mut nr, mut nc) = (r as i32 + dr, c as i32 + dc);
                if torus {
                    nr = nr.rem_euclid(rows as i32);
                    nc = nc.rem_euclid(cols as i32);
                }
                if nr >= 0 && nc >= 0 && (nr as usize) < rows && (nc as usize) < cols {
                    let to = site_of[nr as usize * cols + nc as usize];
                    if to != s as Cell {
                        steps[s][d] = to;
                    }
                }
            }
        }
        TriLattice { rows, cols, torus, site_of, coords, steps }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn cols(&self) -> usize {
        self.cols
    }
    pub fn is_torus(&self) -> bool {
        self.torus
    }
    /// Number of sites.
    pub fn len(&self) -> usize {
        self.coords.len()
    }
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The site at `(row, col)`, if that point is on the board.
    pub fn site(&self, row: usize, col: usize) -> Option<Cell> {
        if row >= self.rows || col >= self.cols {
            return None;
        }
        let s = self.site_of[row * self.cols + col];
        (s != Self::NONE).then_some(s)
    }

    pub fn coords(&self, site: Cell) -> (usize, usize) {
        let (r, c) = self.coords[site as usize];
        (r as usize, c as usize)
    }

    /// The neighbour in direction `dir` (an index into [`TRI_DIRECTIONS`]); `None` at an edge,
    /// notch or hole: rays stop there and never jump a gap.
    #[inline]
    pub fn step(&self, site: Cell, dir: usize) -> Option<Cell> {
        let to = self.steps[site as usize][dir];
        (to != Self::NONE).then_some(to)
    }

    /// The existing neighbours (up to 6, distinct).
    pub fn neighbours(&self, site: Cell) -> impl Iterator<Item = Cell> + '_ {
        let row = &self.steps[site as usize];
        (0..6).filter(move |&d| row[d] != Self::NONE && !row[..d].contains(&row[d])).map(move |d| row[d])
    }

    /// The sites along the ray from `site` in `dir`, excluding `site`, up to the first gap.
    pub fn ray(&self, site: Cell, dir: usize) -> impl Iterator<Item = Cell> + '_ {
        let mut at = site;
        let mut seen = 0;
        std::iter::from_fn(move || {
            if seen >= self.len() {
                return None;
            }
            let next = self.step(at, dir)?;
            if next == site {
                return None;
            }
            at = next;
            seen += 1;
            Some(next)
        })
    }

    /// Lattice distance on a plain board: `max(|Δr|, |Δc|, |Δc − Δr|)`.
    pub fn distance(&self, a: Cell, b: Cell) -> usize {
        let (r1, c1) = self.coords(a);
        let (r2, c2) = self.coords(b);
        let (dr, dc) = (r2 as i64 - r1 as i64, c2 as i64 - c1 as i64);
        dr.abs().max(dc.abs()).max((dc - dr).abs()) as usize
    }

    pub fn sites(&self) -> impl Iterator<Item = Cell> {
        (0..self.len()).map(|s| s as Cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hexagon of side `n`: `0 ≤ r, c ≤ 2n−2`, `|c − r| ≤ n − 1`.
    fn hexagon(n: usize) -> TriLattice {
        let m = 2 * n - 1;
        TriLattice::new(m, m, false, |r, c| ((c as i64 - r as i64).unsigned_abs() as usize) < n)
    }

    #[test]
    fn hexagon_counts_and_interior_has_six_neighbours() {
        let h = hexagon(7);
        assert_eq!(h.len(), 127);
        let centre = h.site(6, 6).unwrap();
        assert_eq!(h.neighbours(centre).count(), 6);
        let corner = h.site(0, 0).unwrap();
        assert_eq!(h.neighbours(corner).count(), 3);
    }

    #[test]
    fn directions_match_throngs_naming() {
        // f6 = (5,5): E f7, W f5, NE g7, NW g6, SE e6, SW e5.
        let h = hexagon(7);
        let f6 = h.site(5, 5).unwrap();
        let names: Vec<_> = (0..6).map(|d| h.coords(h.step(f6, d).unwrap())).collect();
        assert_eq!(names, vec![(5, 6), (5, 4), (6, 6), (6, 5), (4, 5), (4, 4)]);
    }

    #[test]
    fn rays_stop_at_holes() {
        let h = TriLattice::new(1, 5, false, |_, c| c != 2);
        let a = h.site(0, 0).unwrap();
        assert_eq!(h.ray(a, 0).count(), 1);
        assert_eq!(h.distance(a, h.site(0, 4).unwrap()), 4);
    }

    #[test]
    fn torus_wraps_and_every_site_has_six_neighbours() {
        let t = TriLattice::new(8, 8, true, |_, _| true);
        assert!(t.sites().all(|s| t.neighbours(s).count() == 6));
        let s = t.site(0, 0).unwrap();
        assert_eq!(t.ray(s, 0).count(), 7);
    }
}
