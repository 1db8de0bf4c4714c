//! Red Stone's texts (spec §6): points `C3` (Go letters, no I), move tokens `C3`, `C3*`, `swap`
//! (with the optional checked removal count `C3*x5`), and the position string.

use super::Position;
use super::moves::{Move, colour_name};
use super::options::RedStoneOptions;
use super::position::Stone;
use super::resolve::end_of_game;
use crate::rules::{
    Cell, DecisionInfo, Effects, FileLetters, Notation, ParseError, PlayError, RecordError, Rules, Side, cell_name,
    parse_cell, split_ranks, write_ranks,
};

impl Position {
    /// The name of a padded point (`C3`).
    pub(crate) fn point_name(&self, at: u16) -> String {
        self.name(self.public(at))
    }

    /// The name of a cell in public numbering (`C3`).
    pub fn name(&self, cell: Cell) -> String {
        let cell = cell as usize;
        cell_name(FileLetters::GoUpper, cell % self.size, cell / self.size)
    }

    /// Reads a point name (case-insensitive, `I` skipped).
    pub fn parse_point(&self, text: &str) -> Result<Cell, ParseError> {
        let upper = text.trim().to_ascii_uppercase();
        let (x, y) = parse_cell(FileLetters::GoUpper, &upper, self.size, self.size).map_err(|_| {
            let hint = if upper.starts_with('I') { " (the letter I is skipped: columns go H, J, K…)" } else { "" };
            ParseError::new(format!("'{}' is not a point of this {1}×{1} board{hint}", text.trim(), self.size))
        })?;
        Ok((y * self.size + x) as Cell)
    }

    /// Reads a record token: a move and, for `C3*x5`, the number of stones it must remove.
    pub fn parse_token(&self, text: &str) -> Result<(Move, Option<u16>), ParseError> {
        let token = text.trim();
        if token.eq_ignore_ascii_case("swap") {
            return Ok((Move::Swap, None));
        }
        let (point, red, count) = match token.split_once('*') {
            None => (token, false, None),
            Some((point, "")) => (point, true, None),
            Some((point, rest)) => {
                let digits =
                    rest.strip_prefix(['x', 'X']).filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
                let count = digits.and_then(|d| d.parse::<u16>().ok()).ok_or_else(|| {
                    ParseError::new(format!(
                        "cannot read '{token}': after '*' only a removal count like 'x5' may follow"
                    ))
                })?;
                (point, true, Some(count))
            }
        };
        if token.is_empty() {
            return Err(ParseError::new("an empty move: write a point like C3, a red stone like C3*, or swap"));
        }
        let at = self
            .parse_point(point)
            .map_err(|e| ParseError::new(format!("{e}; moves are written C3, C3* (red stone) or swap")))?;
        Ok((if red { Move::red(at) } else { Move::stone(at) }, count))
    }
}

impl Notation for Position {
    const SLUG: &'static str = "red-stone";
    const SIDE_LETTERS: [&'static str; 2] = ["b", "w"];

    fn cell_name(&self, cell: Cell) -> String {
        self.name(cell)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        match self.parse_token(text)? {
            (m, None) => Ok(m),
            (_, Some(_)) => Err(ParseError::new(format!(
                "'{}' carries a removal count, which is checked only when it is played as a record token",
                text.trim()
            ))),
        }
    }

    fn format_move(&self, m: &Move) -> String {
        match *m {
            Move::Swap => "swap".to_string(),
            Move::Place { at, red } => {
                let mut s = self.name(at);
                if red {
                    s.push('*');
                }
                s
            }
        }
    }

    fn describe(&self, m: &Move) -> DecisionInfo {
        self.describe_move(m)
    }

    /// Reads `<row N>/…/<row 1> <b|w> [swap]` and checks the invariants of the spec.
    fn parse_position(options: &RedStoneOptions, text: &str) -> Result<Position, ParseError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (rows, side, swap) = match fields[..] {
            [rows, side] => (rows, side, None),
            [rows, side, swap] => (rows, side, Some(swap)),
            _ => {
                return Err(ParseError::new(format!(
                    "a position is '<rows top to bottom, separated by />  <b|w>  [swap]', got '{}'",
                    text.trim()
                )));
            }
        };
        let mut pos = Position::new(options);
        pos.read_rows(rows)?;
        pos.to_move = Position::side_from_letter(&side.to_ascii_lowercase())
            .ok_or_else(|| ParseError::new(format!("the side to move is b or w, not '{side}'")))?;
        if let Some(swap) = swap {
            if !swap.eq_ignore_ascii_case("swap") {
                return Err(ParseError::new(format!("the optional third field is 'swap', not '{swap}'")));
            }
            pos.swap_open = true;
        }
        pos.rebuild_groups();
        pos.check_read_position()?;
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    fn format_position(&self) -> String {
        let mut s = String::with_capacity((self.size + 1) * self.size + 8);
        write_ranks(&mut s, self.size, self.size, |out, x, y| {
            out.push(self.stone(((y + 1) * self.stride + x + 1) as u16).symbol());
        });
        s.push(' ');
        s.push_str(Self::side_name(self.to_move));
        if self.swap_open {
            s.push_str(" swap");
        }
        s
    }

    fn play_record_token(&mut self, token: &str) -> Result<Effects, RecordError> {
        let record = |source| RecordError::Parse { token: token.to_string(), source };
        let illegal = |source| RecordError::Illegal { token: token.to_string(), source };
        let (m, count) = self.parse_token(token).map_err(record)?;
        if let (Some(expected), Move::Place { at, red: true }) = (count, m) {
            // Checked before playing, so that a wrong count leaves the position unchanged.
            if let Some(reason) = self.why_illegal(&m) {
                return Err(illegal(PlayError::new(reason)));
            }
            let removed: usize = self.removal_preview(at).iter().map(Vec::len).sum();
            if removed != expected as usize {
                return Err(illegal(PlayError::new(format!(
                    "{}* removes {removed} stone(s), not {expected}",
                    self.name(at)
                ))));
            }
        }
        self.play(&m).map_err(illegal)
    }
}

impl Position {
    /// Puts the stones of the rows field (the top row first) on the empty board.
    fn read_rows(&mut self, field: &str) -> Result<(), ParseError> {
        let size = self.size;
        let rows = split_ranks(field, size).map_err(|_| {
            let found = field.split('/').count();
            ParseError::new(format!(
                "the position has {found} rows but the board is {size}×{size} (set the option size={found})"
            ))
        })?;
        for (y, row) in rows {
            if row.chars().count() != size {
                return Err(ParseError::new(format!(
                    "row {} has {} points but the board is {size} wide",
                    y + 1,
                    row.chars().count()
                )));
            }
            for (x, ch) in row.chars().enumerate() {
                let stone = match ch.to_ascii_uppercase() {
                    '.' => Stone::Empty,
                    'X' => Stone::Black,
                    'O' => Stone::White,
                    'R' => Stone::Red,
                    _ => {
                        return Err(ParseError::new(format!(
                            "'{ch}' on row {} is not a point: use . (empty), X (black), O (white) or R (red)",
                            y + 1
                        )));
                    }
                };
                self.board[(y + 1) * self.stride + x + 1].stone = stone;
            }
        }
        Ok(())
    }

    /// The invariants a position text must keep (§6.4): every group has a liberty, `swap` only
    /// right after Black's first stone, and a colour lacks stones only at the start or after a
    /// red stone ended the game (then the result is recomputed).
    fn check_read_position(&mut self) -> Result<(), ParseError> {
        if let Some(group) = self.groups().into_iter().find(|g| g.liberties.is_empty()) {
            let names: Vec<String> = group.stones.iter().map(|&c| self.name(c)).collect();
            return Err(ParseError::new(format!(
                "the {} group {} has no liberty; between moves every group keeps at least one",
                colour_name(group.colour),
                names.join(" ")
            )));
        }
        let [black, white] = self.stones;
        let white_to_move = self.to_move == Side::Second;
        if self.swap_open && !(black == 1 && white == 0 && self.reds == 0 && white_to_move) {
            return Err(ParseError::new(
                "'swap' means White may answer Black's first stone: the board must hold exactly one black stone and White must be to move",
            ));
        }
        if black == 0 || white == 0 {
            if self.reds > 0 {
                // Red stones exist only once both colours have placed, so a missing colour means
                // the game ended with the last red stone, placed by the side that does not move next.
                self.result = end_of_game(self.to_move.opponent(), self.stones);
            } else {
                // Black's first stone is the only stone a game can have before White's first one.
                let opening = white == 0 && black == u16::from(white_to_move);
                if !opening {
                    return Err(ParseError::new(
                        "a colour can have no stones only at the start (an empty board with Black to move, or one black stone with White to move) or after a red stone ended the game",
                    ));
                }
            }
        }
        Ok(())
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format_position())
    }
}
