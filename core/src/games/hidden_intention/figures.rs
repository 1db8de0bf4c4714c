//! Hidden Intention's board and figures: squares and sets of them, the figures and their pawn
//! forms, supplies, and each figure's pattern of influence.

use crate::rules::{FileLetters, Side, cell_name};

/// Squares on the 8×8 board.
pub const SQUARES: usize = 64;
/// Swaps each player holds for the whole game (spec §5, §9.2.12).
pub const SWAPS_PER_GAME: u8 = 2;
/// Swaps allowed in one commitment (spec §6.2). The staged decisions enforce it: after a swap the
/// next decision is the figure.
pub const MAX_SWAPS_PER_COMMITMENT: u8 = 1;
/// Figures of each player: 8 pawns, 2 rooks, 2 bishops, 1 knight, 1 queen (spec §5).
pub const FULL_SUPPLY: Supply = Supply { counts: [8, 2, 2, 1, 1] };
/// Total figures per player.
pub const FIGURES_PER_SIDE: u8 = 14;

/// A square index `rank * 8 + file` (a1 = 0, h1 = 7, a8 = 56, h8 = 63).
pub type Square = u8;

/// A bitboard: bit `s` stands for square `s`.
pub type SquareSet = u64;

/// The bit of one square.
#[inline]
pub const fn bit(square: Square) -> SquareSet {
    1u64 << square
}

/// The squares of a set, in ascending index order.
#[inline]
pub fn squares(mut set: SquareSet) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let square = set.trailing_zeros() as Square;
        set &= set - 1;
        Some(square)
    })
}

/// The knight's facing: the board corner its pattern points to (absolute, not per player).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Corner {
    /// Toward h8.
    NE,
    /// Toward a8.
    NW,
    /// Toward h1.
    SE,
    /// Toward a1.
    SW,
}

impl Corner {
    pub const ALL: [Corner; 4] = [Corner::NE, Corner::NW, Corner::SE, Corner::SW];

    /// The sign pair `(sx, sy)` that reflects the base (ne) pattern toward this corner.
    pub const fn signs(self) -> (i32, i32) {
        match self {
            Corner::NE => (1, 1),
            Corner::NW => (-1, 1),
            Corner::SE => (1, -1),
            Corner::SW => (-1, -1),
        }
    }

    /// The text form (`ne`, `nw`, `se`, `sw`).
    pub const fn code(self) -> &'static str {
        match self {
            Corner::NE => "ne",
            Corner::NW => "nw",
            Corner::SE => "se",
            Corner::SW => "sw",
        }
    }

    pub fn from_code(text: &str) -> Option<Corner> {
        Corner::ALL.into_iter().find(|c| c.code() == text)
    }

    const fn index(self) -> usize {
        match self {
            Corner::NE => 0,
            Corner::NW => 1,
            Corner::SE => 2,
            Corner::SW => 3,
        }
    }
}

/// Which supply counter a figure is drawn from. Both pawn forms share the pawn counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stock {
    Pawns,
    Rooks,
    Bishops,
    Knights,
    Queens,
}

impl Stock {
    pub const ALL: [Stock; 5] = [Stock::Pawns, Stock::Rooks, Stock::Bishops, Stock::Knights, Stock::Queens];

    /// The letter the supply text uses (`P3R0B0N0Q0`).
    pub const fn letter(self) -> char {
        match self {
            Stock::Pawns => 'P',
            Stock::Rooks => 'R',
            Stock::Bishops => 'B',
            Stock::Knights => 'N',
            Stock::Queens => 'Q',
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// A figure as it stands on the board: its kind with pawn form and knight facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Pawn in orthogonal form, code `P`.
    Pawn,
    /// Pawn in diagonal form, code `X`.
    DiagPawn,
    Rook,
    Bishop,
    /// Knight facing a corner, code `N`.
    Knight(Corner),
    Queen,
}

impl Kind {
    /// The code letter of the notation.
    pub const fn code(self) -> char {
        self.choice().code()
    }

    /// The supply counter this figure comes from.
    pub const fn stock(self) -> Stock {
        self.choice().stock()
    }

    /// The decision that picks this kind at the figure stage (the knight's facing comes later).
    pub const fn choice(self) -> FigureChoice {
        match self {
            Kind::Pawn => FigureChoice::Pawn,
            Kind::DiagPawn => FigureChoice::DiagPawn,
            Kind::Rook => FigureChoice::Rook,
            Kind::Bishop => FigureChoice::Bishop,
            Kind::Knight(_) => FigureChoice::Knight,
            Kind::Queen => FigureChoice::Queen,
        }
    }

    /// Index of the influence pattern (0..9): one per kind, one per knight facing.
    pub const fn pattern_index(self) -> usize {
        match self {
            Kind::Pawn => 0,
            Kind::DiagPawn => 1,
            Kind::Rook => 2,
            Kind::Bishop => 3,
            Kind::Queen => 4,
            Kind::Knight(c) => 5 + c.index(),
        }
    }
}

/// The figure picked from the supply at the figure stage: the kind and pawn form, without the
/// knight's facing (which is its own later decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FigureChoice {
    Pawn,
    DiagPawn,
    Rook,
    Bishop,
    Knight,
    Queen,
}

impl FigureChoice {
    pub const ALL: [FigureChoice; 6] = [
        FigureChoice::Pawn,
        FigureChoice::DiagPawn,
        FigureChoice::Rook,
        FigureChoice::Bishop,
        FigureChoice::Knight,
        FigureChoice::Queen,
    ];

    pub const fn code(self) -> char {
        match self {
            FigureChoice::Pawn => 'P',
            FigureChoice::DiagPawn => 'X',
            FigureChoice::Rook => 'R',
            FigureChoice::Bishop => 'B',
            FigureChoice::Knight => 'N',
            FigureChoice::Queen => 'Q',
        }
    }

    pub fn from_code(code: char) -> Option<FigureChoice> {
        FigureChoice::ALL.into_iter().find(|c| c.code() == code)
    }

    pub const fn stock(self) -> Stock {
        match self {
            FigureChoice::Pawn | FigureChoice::DiagPawn => Stock::Pawns,
            FigureChoice::Rook => Stock::Rooks,
            FigureChoice::Bishop => Stock::Bishops,
            FigureChoice::Knight => Stock::Knights,
            FigureChoice::Queen => Stock::Queens,
        }
    }

    /// The board kind for this choice; `None` for a knight without its facing.
    pub const fn kind(self, facing: Option<Corner>) -> Option<Kind> {
        match (self, facing) {
            (FigureChoice::Pawn, _) => Some(Kind::Pawn),
            (FigureChoice::DiagPawn, _) => Some(Kind::DiagPawn),
            (FigureChoice::Rook, _) => Some(Kind::Rook),
            (FigureChoice::Bishop, _) => Some(Kind::Bishop),
            (FigureChoice::Queen, _) => Some(Kind::Queen),
            (FigureChoice::Knight, Some(c)) => Some(Kind::Knight(c)),
            (FigureChoice::Knight, None) => None,
        }
    }
}

/// A figure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Figure {
    pub owner: Side,
    pub kind: Kind,
}

/// The figures a player has not placed yet, per supply counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Supply {
    pub(super) counts: [u8; 5],
}

impl Supply {
    /// The supply with these counts (pawns, rooks, bishops, knights, queens).
    pub const fn new(pawns: u8, rooks: u8, bishops: u8, knights: u8, queens: u8) -> Supply {
        Supply { counts: [pawns, rooks, bishops, knights, queens] }
    }

    pub const fn count(&self, stock: Stock) -> u8 {
        self.counts[stock.index()]
    }

    pub const fn total(&self) -> u8 {
        self.counts[0] + self.counts[1] + self.counts[2] + self.counts[3] + self.counts[4]
    }

    pub const fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Whether a figure of this choice can be taken.
    pub const fn has(&self, choice: FigureChoice) -> bool {
        self.count(choice.stock()) > 0
    }

    pub(super) fn take(&mut self, stock: Stock) {
        self.counts[stock.index()] -= 1;
    }
}

/// How many squares each side controls and how many are neutral (the score, spec §7.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldCounts {
    /// Squares with a positive value.
    pub a: u8,
    /// Squares with a negative value.
    pub b: u8,
    pub neutral: u8,
}

/// One figure's influence from one square: the squares it reaches and the amount on each.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    pub len: u8,
    pub cells: [Square; 15],
    pub amounts: [i8; 15],
    /// The squares the pattern touches with a non-zero amount.
    pub mask: SquareSet,
}

impl Pattern {
    const EMPTY: Pattern = Pattern { len: 0, cells: [0; 15], amounts: [0; 15], mask: 0 };

    const fn add(mut self, file: i32, rank: i32, amount: i8) -> Pattern {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 && amount != 0 {
            let square = (rank * 8 + file) as Square;
            self.cells[self.len as usize] = square;
            self.amounts[self.len as usize] = amount;
            self.len += 1;
            self.mask |= 1u64 << square;
        }
        self
    }

    /// `(square, amount)` pairs of the pattern (amounts unsigned: the owner's sign is applied by
    /// the caller).
    pub fn iter(&self) -> impl Iterator<Item = (Square, i8)> + '_ {
        (0..self.len as usize).map(|i| (self.cells[i], self.amounts[i]))
    }
}

/// Builds the pattern of pattern index `kind` (see `Kind::pattern_index`) from `square` (spec §4).
const fn build_pattern(kind: usize, square: usize) -> Pattern {
    let f = (square % 8) as i32;
    let r = (square / 8) as i32;
    let mut p = Pattern::EMPTY;
    match kind {
        // Pawn: own square and the four orthogonal neighbours.
        0 => p = p.add(f, r, 1).add(f + 1, r, 1).add(f - 1, r, 1).add(f, r + 1, 1).add(f, r - 1, 1),
        // Diagonal pawn: own square and the four diagonal neighbours.
        1 => p = p.add(f, r, 1).add(f + 1, r + 1, 1).add(f + 1, r - 1, 1).add(f - 1, r + 1, 1).add(f - 1, r - 1, 1),
        // Rook: own square, whole rank and file, never blocked.
        2 => {
            p = p.add(f, r, 1);
            let mut k = 1;
            while k < 8 {
                p = p.add(f + k, r, 1).add(f - k, r, 1).add(f, r + k, 1).add(f, r - k, 1);
                k += 1;
            }
        }
        // Bishop: own square and both whole diagonals, never blocked.
        3 => {
            p = p.add(f, r, 1);
            let mut k = 1;
            while k < 8 {
                p = p.add(f + k, r + k, 1).add(f - k, r - k, 1).add(f + k, r - k, 1).add(f - k, r + k, 1);
                k += 1;
            }
        }
        // Queen: own square and the ring at taxicab distance exactly 2.
        4 => {
            p = p.add(f, r, 1).add(f + 2, r, 1).add(f - 2, r, 1).add(f, r + 2, 1).add(f, r - 2, 1);
            p = p.add(f + 1, r + 1, 1).add(f + 1, r - 1, 1).add(f - 1, r + 1, 1).add(f - 1, r - 1, 1);
        }
        // Knight facing a corner: nothing on its own square; base (ne) offsets reflected by the
        // corner's sign pair.
        _ => {
            let (sx, sy) = Corner::ALL[kind - 5].signs();
            p = p.add(f + sx, r, 2).add(f, r + sy, 2).add(f + 2 * sx, r, 1).add(f, r + 2 * sy, 1);
            p = p.add(f + 2 * sx, r + sy, 1).add(f + sx, r + 2 * sy, 1);
        }
    }
    p
}

const fn build_patterns() -> [[Pattern; SQUARES]; 9] {
    let mut table = [[Pattern::EMPTY; SQUARES]; 9];
    let mut kind = 0;
    while kind < 9 {
        let mut square = 0;
        while square < SQUARES {
            table[kind][square] = build_pattern(kind, square);
            square += 1;
        }
        kind += 1;
    }
    table
}

/// Every influence pattern, by pattern index and square (computed at compile time).
pub static PATTERNS: [[Pattern; SQUARES]; 9] = build_patterns();

/// The influence pattern of `kind` standing on `square`.
#[inline]
pub fn pattern(kind: Kind, square: Square) -> &'static Pattern {
    &PATTERNS[kind.pattern_index()][square as usize]
}

/// +1 for A (positive influence), -1 for B.
#[inline]
pub const fn sign(side: Side) -> i8 {
    match side {
        Side::First => 1,
        Side::Second => -1,
    }
}

/// A figure's name in messages.
pub fn figure_name(choice: FigureChoice) -> &'static str {
    match choice {
        FigureChoice::Pawn | FigureChoice::DiagPawn => "pawn",
        FigureChoice::Rook => "rook",
        FigureChoice::Bishop => "bishop",
        FigureChoice::Knight => "knight",
        FigureChoice::Queen => "queen",
    }
}

/// `a1` … `h8`.
pub fn square_name(square: Square) -> String {
    cell_name(FileLetters::Lower, square as usize % 8, square as usize / 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_sizes_in_the_centre_match_the_summary_table() {
        let d4 = 3 + 3 * 8;
        let total = |k: Kind| pattern(k, d4).iter().map(|(_, a)| a as i32).sum::<i32>();
        assert_eq!(total(Kind::Pawn), 5);
        assert_eq!(total(Kind::DiagPawn), 5);
        assert_eq!(total(Kind::Rook), 15);
        assert_eq!(total(Kind::Bishop), 14);
        assert_eq!(total(Kind::Queen), 9);
        for c in Corner::ALL {
            assert_eq!(total(Kind::Knight(c)), 8);
        }
        // A knight on b2 facing sw reaches only a2 and b1, 2 each.
        let b2 = 1 + 8;
        let cells: Vec<_> = pattern(Kind::Knight(Corner::SW), b2).iter().collect();
        assert_eq!(cells, vec![(8, 2), (1, 2)]);
    }
}
