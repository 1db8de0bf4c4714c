//! The board as the app draws it: figures, burned squares, the influence of every square, and
//! each player's supply, swaps and field count.

use super::position::{Corner, Kind, SQUARES, Stock, bit};
use super::{Position, square_name};
use crate::rules::{BoardView, CellValue, Counter, DrawBoard, Figure, Layout, PieceView, Side};

/// The figure a kind is drawn as.
pub(super) fn drawn_figure(kind: Kind) -> Figure {
    match kind {
        Kind::Pawn => Figure::Pawn,
        Kind::DiagPawn => Figure::DiagonalPawn,
        Kind::Rook => Figure::Rook,
        Kind::Bishop => Figure::Bishop,
        Kind::Knight(_) => Figure::Knight,
        Kind::Queen => Figure::Queen,
    }
}

/// A knight's facing in eighth turns clockwise from "up", as `PieceShape::Figure` expects.
pub(super) fn drawn_facing(kind: Kind) -> Option<u8> {
    match kind {
        Kind::Knight(Corner::NE) => Some(1),
        Kind::Knight(Corner::SE) => Some(3),
        Kind::Knight(Corner::SW) => Some(5),
        Kind::Knight(Corner::NW) => Some(7),
        _ => None,
    }
}

impl DrawBoard for Position {
    fn pieces_on_board(&self) -> [u32; 2] {
        Side::BOTH.map(|side| self.occupied_by(side).count_ones())
    }

    /// The game-neutral picture of the committed board (nothing of a sealed commitment shows).
    fn board_view(&self) -> BoardView {
        let influence = self.influence_map();
        let burned = self.burned();
        let mut cells = BoardView::grid_cells(8, 8, |f, r| square_name((r * 8 + f) as u8));
        for c in &mut cells {
            let sq = c.cell as usize;
            debug_assert!(sq < SQUARES);
            c.piece = self
                .figure_at(sq as u8)
                .map(|f| PieceView::figure(f.owner, drawn_figure(f.kind), drawn_facing(f.kind)));
            let v = influence[sq] as i32;
            c.marks.value = Some(CellValue::Influence(v));
            c.marks.control = match v.signum() {
                1 => Some(Side::First),
                -1 => Some(Side::Second),
                _ => None,
            };
            c.marks.burned = burned & bit(sq as u8) != 0;
        }
        let fields = self.field_counts();
        let mut counters = Vec::new();
        for side in Side::BOTH {
            let supply = self.supply(side);
            let text: Vec<String> = Stock::ALL.iter().map(|&s| format!("{}{}", s.letter(), supply.count(s))).collect();
            counters.push(Counter { side: Some(side), label: "supply".into(), value: text.join(" ") });
            counters.push(Counter {
                side: Some(side),
                label: "swaps left".into(),
                value: self.swaps_left(side).to_string(),
            });
            let owned = if side == Side::First { fields.a } else { fields.b };
            counters.push(Counter { side: Some(side), label: "squares".into(), value: owned.to_string() });
        }
        counters.push(Counter { side: None, label: "Neutral squares".into(), value: fields.neutral.to_string() });
        BoardView { layout: Layout::Squares { width: 8, height: 8 }, cells, counters, wraps: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position_after;

    #[test]
    fn the_view_shows_figures_and_influence() {
        let pos: Position = position_after(&[], &["Qd4|Re5"]);
        let v = pos.board_view();
        let d4 = v.cell_named("d4").unwrap();
        assert_eq!(d4.piece, Some(PieceView::figure(Side::First, Figure::Queen, None)));
        assert_eq!(v.occupied_count(), 2);
        let total: i32 = v.cells.iter().map(|c| c.marks.value.unwrap().number()).sum();
        assert_eq!(total, pos.influence_map().iter().map(|&x| x as i32).sum::<i32>());
    }
}
