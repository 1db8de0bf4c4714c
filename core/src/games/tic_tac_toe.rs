//! Tic-tac-toe, the tests' toy game: never in the registry a player sees, but a sixth game of the
//! core's own tests by one line in `for_each_game!`'s test list, which proves that a new game
//! needs its folder and that line and nothing else of the pure layers (the registry, the match,
//! the computer, records and the lessons checker take it as it is); the search's tests
//! (tests/ai.rs) play it too.

use super::About;
use crate::rules::{
    BoardView, Cell, Counter, DecisionInfo, DecisionKind, DrawBoard, EffectSink, Illustration, Layout, NoOptions,
    Notation, Outcome, ParseError, PieceView, PlayError, Rules, RulesHelp, RulesSection, Side, Status, ToMove, Tone,
};

/// The eight lines of three, cells numbered row by row from a1 (0) to c3 (8).
const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A position: each cell's mark, who marks next, and how the game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    cells: [Option<Side>; 9],
    next: Side,
    status: Status,
}

impl Position {
    fn judge(&self) -> Status {
        for line in LINES {
            if let Some(side) = self.cells[line[0]]
                && line.iter().all(|&i| self.cells[i] == Some(side))
            {
                return Status::Over(Outcome::Winner(side));
            }
        }
        if self.cells.iter().all(Option::is_some) { Status::Over(Outcome::Draw) } else { Status::Ongoing }
    }

    fn marks(&self, side: Side) -> usize {
        self.cells.iter().filter(|c| **c == Some(side)).count()
    }
}

impl Rules for Position {
    type Move = u8;
    type Options = NoOptions;

    fn new(_: &NoOptions) -> Self {
        Position { cells: [None; 9], next: Side::First, status: Status::Ongoing }
    }
    fn options(&self) -> &NoOptions {
        &NoOptions
    }
    fn to_move(&self) -> Option<ToMove> {
        (!self.status.is_over()).then_some(ToMove::One(self.next))
    }
    fn status(&self) -> Status {
        self.status
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if !self.status.is_over() {
            out.extend((0..9u8).filter(|&i| self.cells[usize::from(i)].is_none()));
        }
    }
    fn mover(&self, _: &u8) -> Side {
        self.next
    }
    fn check(&self, m: &u8) -> Result<(), PlayError> {
        if self.status.is_over() {
            return Err(PlayError::new("the game is over"));
        }
        if *m >= 9 || self.cells[usize::from(*m)].is_some() {
            return Err(PlayError::new("that cell is taken"));
        }
        Ok(())
    }
    fn place(&mut self, m: &u8, _: &mut impl EffectSink) {
        self.cells[usize::from(*m)] = Some(self.next);
        self.next = self.next.opponent();
        self.status = self.judge();
    }
}

/// Cells are named like a chessboard's (`a1` bottom left … `c3`); a move is the cell's name.
impl Notation for Position {
    const SLUG: &'static str = "tic-tac-toe";
    const SIDE_LETTERS: [&'static str; 2] = ["X", "O"];

    fn cell_name(&self, cell: Cell) -> String {
        format!("{}{}", char::from(b'a' + (cell % 3) as u8), cell / 3 + 1)
    }
    fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
        let text = text.trim();
        (0..9u8)
            .find(|&cell| self.cell_name(Cell::from(cell)) == text)
            .ok_or_else(|| ParseError::new(format!("'{text}' is not a cell from a1 to c3")))
    }
    fn format_move(&self, m: &u8) -> String {
        self.cell_name(Cell::from(*m))
    }
    fn describe(&self, m: &u8) -> DecisionInfo {
        DecisionInfo {
            piece: Some(PieceView::stone(Some(self.next))),
            ..DecisionInfo::on(self.format_move(m), DecisionKind::Place, self.next, Cell::from(*m))
        }
    }
    /// Nine characters row by row from a1 (`X`, `O` or `.`), with optional `/` between the rows;
    /// the side to mark follows from the counts.
    fn parse_position(_: &NoOptions, text: &str) -> Result<Self, ParseError> {
        let marks: Vec<char> = text.trim().chars().filter(|c| *c != '/').collect();
        if marks.len() != 9 {
            return Err(ParseError::new("a tic-tac-toe position is nine cells"));
        }
        let mut pos = Position::new(&NoOptions);
        for (cell, mark) in marks.into_iter().enumerate() {
            pos.cells[cell] = match mark {
                'X' => Some(Side::First),
                'O' => Some(Side::Second),
                '.' => None,
                other => return Err(ParseError::new(format!("'{other}' is not X, O or ."))),
            };
        }
        let (xs, os) = (pos.marks(Side::First), pos.marks(Side::Second));
        if !(os..=os + 1).contains(&xs) {
            return Err(ParseError::new("X marks first, so X has as many marks as O or one more"));
        }
        pos.next = if xs > os { Side::Second } else { Side::First };
        pos.status = pos.judge();
        Ok(pos)
    }
    fn format_position(&self) -> String {
        let row = |r: usize| -> String {
            (0..3).map(|f| ['.', 'X', 'O'][self.cells[r * 3 + f].map_or(0, |s| s.index() + 1)]).collect()
        };
        format!("{}/{}/{}", row(0), row(1), row(2))
    }
}

impl DrawBoard for Position {
    fn board_view(&self) -> BoardView {
        let mut cells = BoardView::grid_cells(3, 3, |x, y| self.cell_name((y * 3 + x) as Cell));
        for c in &mut cells {
            c.piece = self.cells[c.cell as usize].map(|side| PieceView::stone(Some(side)));
        }
        let counter =
            |side: Side| Counter { side: Some(side), label: "marks".into(), value: self.marks(side).to_string() };
        BoardView {
            layout: Layout::Squares { width: 3, height: 3 },
            cells,
            counters: vec![counter(Side::First), counter(Side::Second)],
            wraps: Vec::new(),
        }
    }
}

const RULES: RulesHelp = RulesHelp {
    sections: &[
        RulesSection {
            id: "goal",
            heading: "Goal",
            text: "Mark three cells in a row, across, down or diagonally. X marks first; a full board without a row is a draw.",
            examples: &[Illustration {
                caption: "X completes the bottom row.",
                options: &[],
                position: "XX./OO./...",
                play: "c1",
                marks: &["a1", "b1", "c1"],
                after: "XXX/OO./...",
            }],
        },
        RulesSection { id: "here", heading: "Here", text: "Click or tap a free cell to mark it.", examples: &[] },
    ],
};

impl About for Position {
    const NAME: &'static str = "Tic-tac-toe";
    const DESIGNER: &'static str = "traditional";
    const TAGLINE: &'static str = "Three in a row.";
    const SIDE_NAMES: [&'static str; 2] = ["X", "O"];
    const SIDE_TONES: [Tone; 2] = [Tone::Dark, Tone::Light];
    const RULES: RulesHelp = RULES;

    fn decision_words(token: &str, mover: &str) -> Option<String> {
        Some(format!("{mover} marks {token}"))
    }

    fn end_reason(&self) -> Option<String> {
        match self.status {
            Status::Over(Outcome::Winner(side)) => {
                Some(format!("{} has three in a row", Self::SIDE_NAMES[side.index()]))
            }
            Status::Over(_) => Some("the board is full".into()),
            Status::Ongoing => None,
        }
    }

    fn to_do(&self) -> Option<String> {
        self.to_move().map(|_| "Mark a free cell".to_string())
    }

    /// `tic-tac-toe: a1 b2 c3`: the game's name, then its moves.
    fn is_record_text(text: &str) -> bool {
        text.trim_start().starts_with("tic-tac-toe:")
    }

    fn read_record_text(text: &str, _: &NoOptions) -> Result<(NoOptions, Vec<String>), ParseError> {
        let moves = text
            .trim_start()
            .strip_prefix("tic-tac-toe:")
            .ok_or_else(|| ParseError::new("a tic-tac-toe record begins 'tic-tac-toe:'"))?;
        Ok((NoOptions, moves.split_whitespace().map(str::to_string).collect()))
    }

    fn write_record_text(_: &NoOptions, _: [&str; 2], tokens: &[String]) -> Result<String, ParseError> {
        Ok(format!("tic-tac-toe: {}\n", tokens.join(" ")))
    }
}

#[cfg(test)]
mod tests {
    use crate::ai::{Level, Timing};
    use crate::games::GameKind;
    use crate::lessons::{LessonBook, problems};
    use crate::rules::{Outcome, Status, ToMove};
    use crate::session::Match;

    const BOOK: &str = r#"(
        game: "tic-tac-toe",
        lessons: [(
            id: "three-in-a-row",
            title: "Three in a row",
            goal: "Complete the bottom row.",
            intro: "X marks first; three marks in a row win.",
            position: Some("XX./OO./..."),
            solutions: [["c1"]],
            success: "Three in a row: X wins.",
            marks: ["c1"],
            wrong: [(decision: "c3", why: "O completes the middle row first.")],
            teaches: Some("goal"),
            wins: true,
        )],
    )"#;

    #[test]
    fn a_sixth_game_joins_by_one_line_and_plays_through_the_match_the_computer_records_and_lessons() {
        let kind = GameKind::from_slug("tic-tac-toe").expect("the registry lists the test-only game");
        // The computer plays both seats through a match, as the app's opponent does: Hard
        // against itself draws tic-tac-toe.
        let mut game = Match::open(kind, &[], None).unwrap();
        while !game.is_over() {
            let Some(ToMove::One(side)) = game.position().to_move() else { panic!("one side marks at a time") };
            let seed = game.len() as u64;
            let decision =
                crate::ai::games::decide_timed(game.position(), side, Level::Hard, seed, None, Timing::Reproducible)
                    .unwrap();
            game.decide(game.seat_of(side), &decision, 0).unwrap();
        }
        assert_eq!(game.position().status(), Status::Over(Outcome::Draw), "{:?}", game.decisions().collect::<Vec<_>>());
        assert!(game.result().is_some());
        // Its record text is written and read back to the same game.
        let tokens: Vec<String> = game.decisions().map(str::to_string).collect();
        let text = kind.write_record_text(&[], ["X", "O"], &tokens).unwrap();
        let (_, read) = kind.read_record_text(&text, &[]).unwrap();
        assert_eq!(read, tokens);
        let mut replayed = Match::open(kind, &[], None).unwrap();
        for decision in &read {
            let seat = replayed.seat_for(decision).expect("someone may make each decision of the record");
            replayed.decide(seat, decision, 0).unwrap();
        }
        assert_eq!(replayed.position().position_text(), game.position().position_text());
        // The lessons checker reads and replays its book.
        let book = LessonBook::parse(BOOK).unwrap();
        assert_eq!(problems(&book), Vec::<String>::new());
        let wrong = BOOK.replace(r#"solutions: [["c1"]]"#, r#"solutions: [["b3"]]"#);
        assert!(!problems(&LessonBook::parse(&wrong).unwrap()).is_empty(), "a lesson that does not win is caught");
    }
}
