//! The board as the app draws it: stones on the points of a Go grid, and the stone counts.

use super::{Position, Stone};
use crate::rules::{BoardView, Cell, Counter, DrawBoard, HintMark, Layout, PieceView, Side};

impl DrawBoard for Position {
    /// The game-neutral picture of this position.
    fn board_view(&self) -> BoardView {
        let n = self.size();
        let mut cells = BoardView::grid_cells(n, n, |x, y| self.name((y * n + x) as crate::rules::Cell));
        for c in &mut cells {
            c.piece = match self.stone_at(c.cell) {
                Stone::Black => Some(PieceView::stone(Some(Side::First))),
                Stone::White => Some(PieceView::stone(Some(Side::Second))),
                Stone::Red => Some(PieceView::stone(None)),
                Stone::Empty | Stone::Border => None,
            };
            c.marks.hint = self.hint_at(c.cell);
        }
        let counter = |side: Option<Side>, label: &str, value: usize| Counter {
            side,
            label: label.to_string(),
            value: value.to_string(),
        };
        BoardView {
            layout: Layout::Points { width: n, height: n },
            cells,
            counters: vec![
                counter(Some(Side::First), "stones", self.stone_count(Side::First)),
                counter(Some(Side::Second), "stones", self.stone_count(Side::Second)),
                counter(None, "Red stones", self.red_count()),
            ],
            wraps: Vec::new(),
        }
    }
}

impl Position {
    /// The hints overlay's word on a point (spec §4.1): a stone whose group is in atari, or an
    /// isolated empty point that is a black, white or red eye (contested points are no eye).
    fn hint_at(&self, cell: Cell) -> Option<HintMark> {
        let at = self.padded(cell)?;
        match self.stone(at) {
            Stone::Black | Stone::White => self.libs(self.group(at)).is_single().then_some(HintMark::InDanger),
            Stone::Empty => {
                let around: Vec<Stone> = self.neighbours(cell).into_iter().map(|n| self.stone_at(n)).collect();
                if around.contains(&Stone::Empty) {
                    return None;
                }
                let (black, white) = (around.contains(&Stone::Black), around.contains(&Stone::White));
                match (black, white) {
                    (true, false) => Some(HintMark::Eye(Some(Side::First))),
                    (false, true) => Some(HintMark::Eye(Some(Side::Second))),
                    (false, false) => Some(HintMark::Eye(None)),
                    (true, true) => None,
                }
            }
            Stone::Red | Stone::Border => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GameOptions, Notation, position_after};

    #[test]
    fn the_view_shows_each_stone_on_its_point() {
        let v = position_after::<Position>(&[("size", "5")], &["C3"]).board_view();
        assert_eq!(v.cells.len(), 25);
        let c3 = v.cell_named("C3").unwrap();
        assert_eq!(c3.piece, Some(PieceView::stone(Some(Side::First))));
        assert_eq!((c3.x, c3.y), (2.0, 2.0));
        assert_eq!(v.occupied_count(), 1);
    }

    #[test]
    fn the_view_marks_eyes_and_groups_in_atari_as_spec_example_s3_reads() {
        // S3: black {C4, C5}, black {D3} and white {C2, D2} are in atari at C3 (contested, no eye);
        // E1 is a black eye; white {B3, B4, B5} has four liberties.
        let opts = super::super::RedStoneOptions::from_pairs([("size", "5")]).unwrap();
        let pos = Position::parse_position(&opts, ".OXO./.OXO./.O.XR/.XOOR/..XX. w").unwrap();
        let v = pos.board_view();
        let hint = |name: &str| v.cell_named(name).unwrap().marks.hint;
        for name in ["C4", "C5", "D3", "C2", "D2"] {
            assert_eq!(hint(name), Some(HintMark::InDanger), "{name}");
        }
        for name in ["B3", "B4", "B5", "D4", "D5", "B2", "C1", "D1", "E3", "E2"] {
            assert_eq!(hint(name), None, "{name}");
        }
        assert_eq!(hint("E1"), Some(HintMark::Eye(Some(Side::First))));
        assert_eq!(hint("C3"), None, "a contested point is no eye");
        assert_eq!(hint("A1"), None, "not isolated");
        // S4: three black eyes on file A, three white eyes on file D.
        let s4 = Position::parse_position(&opts, ".XO.O/XXOOO/.XO.O/XXOOO/.XO.O b").unwrap().board_view();
        let eyes: Vec<(String, Option<HintMark>)> =
            s4.cells.iter().filter(|c| c.piece.is_none()).map(|c| (c.name.clone(), c.marks.hint)).collect();
        for (name, mark) in eyes {
            let want = if name.starts_with('A') { Side::First } else { Side::Second };
            assert_eq!(mark, Some(HintMark::Eye(Some(want))), "{name}");
        }
        // A red eye: every neighbour red.
        let red = Position::parse_position(&opts, ".R.../R..../...../...../..... b").unwrap().board_view();
        let a5 = red.cell_named("A5").unwrap();
        assert_eq!(a5.marks.hint, Some(HintMark::Eye(None)));
    }
}
