//! The board as the app draws it: stacks with their heights, each side's stock, prisoners and
//! score, and the stones already chosen in an action under way.

use super::position::bit;
use super::{Position, Topology};
use crate::rules::{BoardView, Counter, DrawBoard, HintMark, Layout, Notation, PieceView, Side};

impl DrawBoard for Position {
    /// The game-neutral picture of this position.
    fn board_view(&self) -> BoardView {
        let mut cells = BoardView::grid_cells(8, 8, |f, r| self.cell_name((r * 8 + f) as u16));
        let chosen: Vec<u8> =
            self.pending_spread().map(<[u8]>::to_vec).or_else(|| self.pending_collect()).unwrap_or_default();
        let in_danger = self.groups_in_danger();
        for c in &mut cells {
            let sq = c.cell as u8;
            if in_danger & bit(sq) != 0 {
                c.marks.hint = Some(HintMark::InDanger);
            }
            c.piece = self.stack(sq).map(|(owner, height)| PieceView::stack(owner, height as u16));
            // Spaces already chosen in a collect or distribution under way are marked for the player.
            if chosen.contains(&sq) {
                c.marks.chosen = Some(self.side_to_act());
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
        let topology = self.options.topology;
        let wraps = BoardView::grid_wraps(8, 8, topology != Topology::Flat, topology == Topology::Torus);
        BoardView { layout: Layout::Squares { width: 8, height: 8 }, cells, counters, wraps }
    }
}

impl Position {
    /// The cells of every group (either colour) with a single liberty left: one stone on it
    /// captures the group (spec §7).
    pub fn groups_in_danger(&self) -> u64 {
        let geom = self.geometry();
        let empty = self.empty_mask();
        let mut danger = 0;
        for side in Side::BOTH {
            let own = self.occupied[side.index()];
            let mut left = own;
            while left != 0 {
                let group = geom.flood(left & left.wrapping_neg(), own, false);
                left &= !group;
                if (geom.orth_spread(group) & empty).count_ones() == 1 {
                    danger |= group;
                }
            }
        }
        danger
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position_after;

    #[test]
    fn the_view_shows_drops_and_stocks() {
        let pos: Position = position_after(&[], &["Dd4"]);
        let v = pos.board_view();
        let d4 = v.cell_named("d4").unwrap();
        assert_eq!(d4.piece.as_ref().map(|p| (p.owner, p.height())), Some((Some(Side::First), 1)));
        assert_eq!(v.occupied_count(), 1);
        let stock = v.counters.iter().find(|c| c.side == Some(Side::First) && c.label == "stock").unwrap();
        assert_eq!(stock.value, pos.stock(Side::First).to_string());
        assert!(v.wraps.is_empty(), "the flat board does not wrap");
    }

    #[test]
    fn groups_with_one_liberty_are_in_danger_and_wrapped_boards_say_where_they_wrap() {
        use crate::rules::GameOptions;
        // Spec E15 (cylinder, after White's a5, b4, a3): Black a4's only liberty is h4 across the
        // seam; on the flat board the same Black stone would have none (E15's first case captures it).
        let text = "......../......../......../W1......./B1W1....../W1......./......../........ w 24 22 0 0 0 0";
        let cylinder = super::super::InchwormOptions::from_pairs([("topology", "cylinder")]).unwrap();
        let pos = Position::parse_position(&cylinder, text).unwrap();
        let v = pos.board_view();
        let hint = |v: &BoardView, name: &str| v.cell_named(name).unwrap().marks.hint;
        assert_eq!(hint(&v, "a4"), Some(HintMark::InDanger));
        for name in ["a5", "b4", "a3"] {
            assert_eq!(hint(&v, name), None, "{name} has liberties to spare");
        }
        assert_eq!(v.wraps.len(), 16, "files a and h join on each of the 8 ranks, both ways");
        let h4_to_a4 = v.wraps.iter().find(|w| v.cells[w.from as usize].name == "h4" && w.dx > 0.0).unwrap();
        assert_eq!(v.cells[h4_to_a4.to as usize].name, "a4");
        let torus = super::super::InchwormOptions::from_pairs([("topology", "torus")]).unwrap();
        assert_eq!(Position::parse_position(&torus, text).unwrap().board_view().wraps.len(), 32);
    }
}
