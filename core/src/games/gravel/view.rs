//! The board as the app draws it: stacks with their heights, who controls each space, pools,
//! losses and the actions left this turn.

use super::{Layout as GravelLayout, Position};
use crate::rules::{BoardView, Counter, DrawBoard, Layout, PieceView, Rules, Side};

impl DrawBoard for Position {
    /// The game-neutral picture of this position.
    fn board_view(&self) -> BoardView {
        let n = self.size();
        let control = self.control();
        let mut cells = BoardView::grid_cells(n, n, |f, r| super::square_name(n, self.cell_at(f, r)));
        for c in &mut cells {
            let (file, rank) = (c.x as usize, c.y as usize);
            let cell = self.cell_at(file, rank);
            c.cell = cell;
            c.piece = self.stack(cell).map(|(owner, height)| PieceView::stack(owner, height as u16));
            c.marks.control = control[cell as usize];
        }
        let layout = match self.options().layout {
            GravelLayout::Squares => Layout::Squares { width: n, height: n },
            GravelLayout::Intersections => Layout::Points { width: n, height: n },
        };
        let mut counters = Vec::new();
        for side in Side::BOTH {
            counters.push(Counter { side: Some(side), label: "pool".into(), value: self.pool(side).to_string() });
            counters.push(Counter { side: Some(side), label: "lost".into(), value: self.lost(side).to_string() });
        }
        let used = self.progress().used;
        counters.push(Counter {
            side: None,
            label: "Actions this turn".into(),
            value: format!("{used} of {}", self.budget()),
        });
        BoardView { layout, cells, counters, wraps: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position_after;

    #[test]
    fn the_view_shows_stacks_and_control() {
        let pos: Position = position_after(&[("N", "5")], &["+c3*2"]);
        let v = pos.board_view();
        let c3 = v.cell_named("c3").unwrap();
        assert_eq!(c3.piece.as_ref().map(|p| (p.owner, p.height())), Some((Some(Side::First), 2)));
        assert_eq!(v.occupied_count(), 1);
        assert_eq!(
            v.cells.iter().filter(|c| c.marks.control.is_some()).count(),
            pos.control().iter().flatten().count()
        );
    }
}
