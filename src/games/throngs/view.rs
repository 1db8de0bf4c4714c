//! The board as the app draws it: the lattice points and lines of the board, stones, the power
//! of every site for the side to move, and the turn's counters.

use super::{Phase, Position};
use crate::rules::{BoardView, CellMarks, CellView, Counter, Layout, PieceView, Side};

impl Position {
    /// The game-neutral picture of this position.
    pub fn view(&self) -> BoardView {
        let geo = self.geometry();
        let lattice = &geo.lattice;
        let mover = self.side_to_move();
        let cells: Vec<CellView> = lattice
            .sites()
            .map(|s| {
                let (r, c) = lattice.coords(s);
                CellView {
                    cell: s,
                    name: geo.name(s),
                    x: c as f32 - r as f32 / 2.0,
                    y: r as f32 * 3f32.sqrt() / 2.0,
                    piece: self.stone(s).map(|owner| PieceView {
                        owner: Some(owner),
                        kind: if owner == Side::First { 'B' } else { 'W' },
                        count: 1,
                        facing: None,
                    }),
                    marks: CellMarks {
                        value: Some(self.power(s, mover) as i32),
                        travelling: self.started().filter(|st| st.at == s).map(|st| (mover, st.range)),
                        ..CellMarks::default()
                    },
                }
            })
            .collect();
        // Lines join neighbours; on the torus the wrapping joins are left out of the drawing.
        let mut lines = Vec::new();
        for s in lattice.sites() {
            for n in geo.neighbours_of(s) {
                if s < n && lattice.distance(s, n) == 1 {
                    lines.push((s, n));
                }
            }
        }
        let mut counters = Vec::new();
        for side in Side::BOTH {
            counters.push(Counter {
                side: Some(side),
                label: "stones".into(),
                value: self.stones_of(side).to_string(),
            });
        }
        let stage = match self.phase() {
            Phase::Play => format!("turn {}, part {} of 2", self.turn(), self.part()),
            Phase::PieOffer => "pie: offering stones".to_string(),
            Phase::PieChoice => "pie: choosing a colour".to_string(),
            Phase::Over(_) => "game over".to_string(),
        };
        counters.push(Counter { side: None, label: "Turn".into(), value: stage });
        counters.push(Counter {
            side: Some(mover),
            label: "turns without placing".into(),
            value: self.idle(mover).to_string(),
        });
        BoardView { layout: Layout::Lattice { lines }, cells, counters }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn the_t93_view_has_every_site_and_lines_between_neighbours() {
        let pos = Position::new(&Default::default());
        let v = pos.view();
        assert_eq!(v.cells.len(), 93);
        // Sum of neighbour counts / 2 (54×6 + 12×5 + 9×4 + 18×3) / 2.
        let Layout::Lattice { lines } = &v.layout else { panic!("lattice expected") };
        assert_eq!(lines.len(), (54 * 6 + 12 * 5 + 9 * 4 + 18 * 3) / 2);
        let stones = v.cells.iter().filter(|c| c.piece.is_some()).count();
        assert_eq!(stones, pos.stones_of(Side::First) as usize + pos.stones_of(Side::Second) as usize);
        // Neighbouring sites are one unit apart in the drawing.
        let (a, b) = lines[0];
        let (ca, cb) = (&v.cells[a as usize], &v.cells[b as usize]);
        assert!(((ca.x - cb.x).powi(2) + (ca.y - cb.y).powi(2) - 1.0).abs() < 1e-4);
    }
}
