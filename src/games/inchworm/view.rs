//! The board as the app draws it: stacks with their heights, each side's stock, prisoners and
//! score, and the stones already chosen in an action under way.

use super::Position;
use crate::rules::{BoardView, Counter, Layout, Notation, PieceView, Side};

impl Position {
    /// The game-neutral picture of this position.
    pub fn view(&self) -> BoardView {
        let mut cells = BoardView::grid_cells(8, 8, |f, r| self.cell_name((r * 8 + f) as u16));
        let chosen: Vec<u8> =
            self.pending_spread().map(<[u8]>::to_vec).or_else(|| self.pending_collect()).unwrap_or_default();
        for c in &mut cells {
            let sq = c.cell as u8;
            c.piece = self.stack(sq).map(|(owner, height)| PieceView {
                owner: Some(owner),
                kind: if owner == Side::First { 'b' } else { 'w' },
                count: height as u16,
                facing: None,
            });
            // Spaces already chosen in a collect or distribution under way are marked for the player.
            if chosen.contains(&sq) {
                c.marks.control = Some(self.side_to_act());
            }
        }
        let mut counters = Vec::new();
        for side in Side::BOTH {
            counters.push(Counter { side: Some(side), label: "stock".into(), value: self.stock(side).to_string() });
            counters.push(Counter {
                side: Some(side),
                label: "prisoners".into(),
                value: self.held_by(side).to_string(),
            });
            counters.push(Counter { side: Some(side), label: "score".into(), value: self.score(side).to_string() });
        }
        counters.push(Counter { side: None, label: "Actions without capture".into(), value: self.quiet().to_string() });
        BoardView { layout: Layout::Squares { width: 8, height: 8 }, cells, counters }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn the_view_shows_drops_and_stocks() {
        let mut pos = Position::new(&Default::default());
        pos.play_record_token("Dd4").unwrap();
        let v = pos.view();
        let d4 = v.cells.iter().find(|c| c.name == "d4").unwrap();
        assert_eq!(d4.piece.as_ref().map(|p| (p.owner, p.count)), Some((Some(Side::First), 1)));
        assert_eq!(v.cells.iter().filter(|c| c.piece.is_some()).count(), 1);
        let stock = v.counters.iter().find(|c| c.side == Some(Side::First) && c.label == "stock").unwrap();
        assert_eq!(stock.value, pos.stock(Side::First).to_string());
    }
}
