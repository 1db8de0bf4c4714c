//! The board as the app draws it: stones on the points of a Go grid, and the stone counts.

use super::{Position, Stone};
use crate::rules::{BoardView, Counter, Layout, PieceView, Side};

impl Position {
    /// The game-neutral picture of this position.
    pub fn view(&self) -> BoardView {
        let n = self.size();
        let mut cells = BoardView::grid_cells(n, n, |x, y| self.name((y * n + x) as crate::rules::Cell));
        for c in &mut cells {
            c.piece = match self.stone_at(c.cell) {
                Stone::Black => Some(PieceView { owner: Some(Side::First), kind: 'b', count: 1, facing: None }),
                Stone::White => Some(PieceView { owner: Some(Side::Second), kind: 'w', count: 1, facing: None }),
                Stone::Red => Some(PieceView { owner: None, kind: 'r', count: 1, facing: None }),
                Stone::Empty | Stone::Border => None,
            };
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GameOptions, Notation, Rules};

    #[test]
    fn the_view_shows_each_stone_on_its_point() {
        let opts = super::super::RedStoneOptions::from_pairs([("size", "5")]).unwrap();
        let mut pos = Position::new(&opts);
        pos.play_record_token("C3").unwrap();
        let v = pos.view();
        assert_eq!(v.cells.len(), 25);
        let c3 = v.cells.iter().find(|c| c.name == "C3").unwrap();
        assert_eq!(c3.piece.as_ref().map(|p| (p.owner, p.kind)), Some((Some(Side::First), 'b')));
        assert_eq!((c3.x, c3.y), (2.0, 2.0));
        assert_eq!(v.cells.iter().filter(|c| c.piece.is_some()).count(), 1);
    }
}
