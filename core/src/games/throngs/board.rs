//! The boards of §2: exact site sets, neighbours, straight rays and standard start stones.

use crate::rules::{Cell, TriLattice};
use std::sync::OnceLock;

/// The most sites any board has (Torus-15); fixed-size per-site arrays in the position use it.
pub const MAX_SITES: usize = 225;

/// Marks "no site" in neighbour and ray tables.
pub const NO_SITE: Cell = TriLattice::NONE;

/// The longest leg any part can travel (a friendly move with six friendly neighbours).
pub const MAX_TRAVEL: usize = 7;

/// A set of sites as a bitboard (site `s` is bit `s % 64` of word `s / 64`).
pub type Bits = [u64; 4];

#[inline]
pub fn bit_set(bits: &mut Bits, site: Cell) {
    bits[site as usize >> 6] |= 1 << (site & 63);
}

#[inline]
pub fn bit_clear(bits: &mut Bits, site: Cell) {
    bits[site as usize >> 6] &= !(1 << (site & 63));
}

/// Calls `f` for every site in the set, in increasing order.
#[inline]
pub fn for_each_bit(bits: &Bits, mut f: impl FnMut(Cell)) {
    for (w, &word) in bits.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            f((w as u32 * 64 + rest.trailing_zeros()) as Cell);
            rest &= rest - 1;
        }
    }
}

/// Which board (§3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Board {
    /// "Throngs 93-Node", the default.
    #[default]
    T93,
    R63,
    R87,
    R153,
    /// The perforated board of Ludii 1.2–1.3.
    P156,
    /// The house torus, `N × N` with wrap-around, `8 ≤ N ≤ 15`.
    Torus(u8),
}

impl Board {
    pub const TORUS_MIN: u8 = 8;
    pub const TORUS_MAX: u8 = 15;
    pub const TORUS_DEFAULT: u8 = 11;

    /// The name the options and the position text use (`T93`, `Torus-11`).
    pub fn name(self) -> String {
        match self {
            Board::T93 => "T93".into(),
            Board::R63 => "R63".into(),
            Board::R87 => "R87".into(),
            Board::R153 => "R153".into(),
            Board::P156 => "P156".into(),
            Board::Torus(n) => format!("Torus-{n}"),
        }
    }

    /// Reads a board name, case-insensitively; `Torus` alone means `Torus-11`.
    pub fn parse(text: &str) -> Result<Board, String> {
        let lower = text.trim().to_ascii_lowercase();
        let board = match lower.as_str() {
            "t93" => Board::T93,
            "r63" => Board::R63,
            "r87" => Board::R87,
            "r153" => Board::R153,
            "p156" => Board::P156,
            "torus" => Board::Torus(Self::TORUS_DEFAULT),
            _ => {
                let n = lower.strip_prefix("torus-").and_then(|n| n.parse::<u8>().ok()).ok_or_else(|| {
                    format!("unknown board '{text}'; the boards are T93, R63, R87, R153, P156 and Torus-N")
                })?;
                if !(Self::TORUS_MIN..=Self::TORUS_MAX).contains(&n) {
                    return Err(format!(
                        "the torus size must be between {} and {} (got {n})",
                        Self::TORUS_MIN,
                        Self::TORUS_MAX
                    ));
                }
                Board::Torus(n)
            }
        };
        Ok(board)
    }

    /// The largest `n` of the `pie-n` opening on this board: the offer's `2n + 1` stones must fit
    /// on its sites (31 on R63, 46 on T93, 112 on Torus-15).
    pub fn pie_max(self) -> u8 {
        // At most (225 − 1) / 2 = 112, so the cast keeps the value.
        ((self.geometry().len() - 1) / 2) as u8
    }

    fn table_index(self) -> usize {
        match self {
            Board::T93 => 0,
            Board::R63 => 1,
            Board::R87 => 2,
            Board::R153 => 3,
            Board::P156 => 4,
            Board::Torus(n) => 5 + (n.clamp(Self::TORUS_MIN, Self::TORUS_MAX) - Self::TORUS_MIN) as usize,
        }
    }

    /// The shared, immutable geometry of this board (built once per process).
    pub fn geometry(self) -> &'static Geometry {
        static TABLE: [OnceLock<Geometry>; 13] = [const { OnceLock::new() }; 13];
        // An out-of-range torus (only constructible directly, never parsed) gets the nearest size.
        let board = match self {
            Board::Torus(n) => Board::Torus(n.clamp(Self::TORUS_MIN, Self::TORUS_MAX)),
            other => other,
        };
        TABLE[board.table_index()].get_or_init(|| Geometry::build(board))
    }
}

/// Per-row number ranges (1-based, inclusive) of a board whose rows have no gaps.
type RowRanges = &'static [(usize, usize)];

/// R63 rows a…j (§2.4).
const R63_ROWS: RowRanges = &[(3, 5), (2, 7), (1, 8), (1, 8), (2, 9), (2, 9), (3, 10), (4, 10), (6, 10), (8, 9)];
/// R87 rows a…l (§2.4).
const R87_ROWS: RowRanges =
    &[(4, 6), (3, 8), (2, 9), (1, 9), (1, 10), (2, 10), (2, 11), (3, 11), (4, 12), (6, 12), (8, 12), (10, 11)];
/// R153 rows a…p (§2.4).
const R153_ROWS: RowRanges = &[
    (5, 7),
    (4, 9),
    (3, 11),
    (2, 12),
    (1, 12),
    (1, 13),
    (2, 13),
    (2, 14),
    (3, 14),
    (3, 15),
    (4, 15),
    (5, 16),
    (7, 16),
    (9, 16),
    (11, 15),
    (13, 14),
];
/// P156 rows a…q before the holes are taken out (§2.5).
const P156_ROWS: RowRanges = &[
    (2, 4),
    (2, 7),
    (1, 10),
    (1, 13),
    (1, 14),
    (2, 15),
    (3, 15),
    (3, 16),
    (4, 17),
    (5, 17),
    (5, 17),
    (6, 16),
    (7, 16),
    (7, 15),
    (8, 15),
    (9, 14),
    (12, 14),
];
/// The 34 points deleted from the side-7 hexagon to make T93 (§2.3), besides the top row.
const T93_DELETED: &[&str] = &[
    "a3", "a4", "a5", "c1", "c9", "d1", "d10", "g1", "g13", "h2", "h3", "h12", "h13", "i3", "i4", "i12", "i13", "j4",
    "j5", "j12", "j13", "k5", "k13", "l6", "l9", "l10", "l13",
];

/// A point `(row, col)` from a cell name such as `f6` (no board check).
fn point_of(name: &str) -> (usize, usize) {
    let row = (name.as_bytes()[0] - b'a') as usize;
    let number: usize = name[1..].parse().expect("static cell names are well formed");
    (row, number - 1)
}

fn in_rows(rows: RowRanges, r: usize, c: usize) -> bool {
    rows.get(r).is_some_and(|&(lo, hi)| (lo..=hi).contains(&(c + 1)))
}

/// Everything about a board that never changes: sites, neighbours, rays, start stones.
#[derive(Debug)]
pub struct Geometry {
    pub board: Board,
    pub lattice: TriLattice,
    /// Number of existing neighbours of each site.
    pub degree: Vec<u8>,
    /// The distinct existing neighbours of each site, `NO_SITE`-padded.
    pub neighbours: Vec<[Cell; 6]>,
    /// For each site and direction, the ray's first `MAX_TRAVEL` sites, `NO_SITE`-terminated.
    pub rays: Vec<[[Cell; MAX_TRAVEL]; 6]>,
    /// For each site and `k`, the sites exactly `k` steps out along its six rays.
    pub ring: Vec<[Bits; MAX_TRAVEL + 1]>,
    /// For each site and `k`, the sites at most `k` steps out along its six rays.
    pub star: Vec<[Bits; MAX_TRAVEL + 1]>,
    /// Every site.
    pub all: Bits,
    /// The standard set-up (§3.1): Black's stone and White's two.
    pub start_black: Vec<Cell>,
    pub start_white: Vec<Cell>,
}

impl Geometry {
    fn build(board: Board) -> Geometry {
        let lattice = match board {
            Board::T93 => {
                let deleted: Vec<(usize, usize)> = T93_DELETED.iter().map(|n| point_of(n)).collect();
                TriLattice::new(12, 13, false, |r, c| (c as i64 - r as i64).abs() <= 6 && !deleted.contains(&(r, c)))
            }
            Board::R63 => TriLattice::new(R63_ROWS.len(), 10, false, |r, c| in_rows(R63_ROWS, r, c)),
            Board::R87 => TriLattice::new(R87_ROWS.len(), 12, false, |r, c| in_rows(R87_ROWS, r, c)),
            Board::R153 => TriLattice::new(R153_ROWS.len(), 16, false, |r, c| in_rows(R153_ROWS, r, c)),
            Board::P156 => TriLattice::new(P156_ROWS.len(), 17, false, |r, c| {
                in_rows(P156_ROWS, r, c) && (c as i64 - 3 * r as i64).rem_euclid(7) != 4
            }),
            Board::Torus(n) => TriLattice::new(n as usize, n as usize, true, |_, _| true),
        };
        let sites = lattice.len();
        let mut degree = vec![0u8; sites];
        let mut neighbours = vec![[NO_SITE; 6]; sites];
        let mut rays = vec![[[NO_SITE; MAX_TRAVEL]; 6]; sites];
        for s in lattice.sites() {
            for (i, n) in lattice.neighbours(s).enumerate() {
                neighbours[s as usize][i] = n;
                degree[s as usize] += 1;
            }
            for (d, ray) in rays[s as usize].iter_mut().enumerate() {
                let mut at = s;
                for slot in ray.iter_mut() {
                    match lattice.step(at, d) {
                        Some(next) if next != s => {
                            *slot = next;
                            at = next;
                        }
                        _ => break,
                    }
                }
            }
        }
        let mut ring = vec![[[0u64; 4]; MAX_TRAVEL + 1]; sites];
        let mut star = vec![[[0u64; 4]; MAX_TRAVEL + 1]; sites];
        let mut all = [0u64; 4];
        for s in 0..sites {
            bit_set(&mut all, s as Cell);
            for ray in &rays[s] {
                for (k, &v) in ray.iter().enumerate() {
                    if v == NO_SITE {
                        break;
                    }
                    bit_set(&mut ring[s][k + 1], v);
                }
            }
            for k in 1..=MAX_TRAVEL {
                for w in 0..4 {
                    star[s][k][w] = star[s][k - 1][w] | ring[s][k][w];
                }
            }
        }
        let (black, white): (&[&str], &[&str]) = match board {
            Board::T93 => (&["k9"], &["b3", "b6"]),
            Board::R63 => (&["c5"], &["f4", "g8"]),
            Board::R87 => (&["i10"], &["c6", "g4"]),
            Board::R153 => (&["e8"], &["i6", "k12"]),
            Board::P156 => (&["a3"], &["j16", "j17"]),
            Board::Torus(_) => (&["a1"], &["a5", "e5"]),
        };
        let site_of = |name: &&str| {
            let (r, c) = point_of(name);
            lattice.site(r, c).expect("standard start stones are sites of their board")
        };
        let start_black = black.iter().map(site_of).collect();
        let start_white = white.iter().map(site_of).collect();
        Geometry { board, lattice, degree, neighbours, rays, ring, star, all, start_black, start_white }
    }

    /// Number of sites.
    #[inline]
    pub fn len(&self) -> usize {
        self.degree.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.degree.is_empty()
    }

    /// The cell name (`f6`) of a site.
    pub fn name(&self, site: Cell) -> String {
        let (r, c) = self.lattice.coords(site);
        format!("{}{}", (b'a' + r as u8) as char, c + 1)
    }

    /// The site a cell name denotes, if it is on this board.
    pub fn parse_site(&self, text: &str) -> Option<Cell> {
        let bytes = text.as_bytes();
        if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
            return None;
        }
        let digits = &text[1..];
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') || digits.len() > 3 {
            return None;
        }
        let number: usize = digits.parse().ok()?;
        self.lattice.site((bytes[0] - b'a') as usize, number - 1)
    }

    /// The existing neighbours of a site.
    #[inline]
    pub fn neighbours_of(&self, site: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.neighbours[site as usize].iter().copied().take_while(|&n| n != NO_SITE)
    }
}
