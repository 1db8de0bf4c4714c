//! The board as the app draws it: the lattice points and lines of the board, stones, the power
//! of every site for the side to move, and the turn's counters.

use super::{Phase, Position};
use crate::rules::{BoardView, CellMarks, CellValue, CellView, Counter, DrawBoard, Layout, PieceView, Side, WrapLink};

impl DrawBoard for Position {
    /// The game-neutral picture of this position.
    fn board_view(&self) -> BoardView {
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
                    piece: self.stone(s).map(|owner| PieceView::stone(Some(owner))),
                    marks: CellMarks {
                        value: Some(CellValue::Power(self.power(s, mover) as i32)),
                        travelling: self.started().filter(|st| st.at == s).map(|st| (mover, st.range)),
                        ..CellMarks::default()
                    },
                }
            })
            .collect();
        // Lines join neighbours; on the torus a join across the seam is a wrap link instead, so the
        // drawing can show where the line comes back.
        let mut lines = Vec::new();
        let mut wraps = Vec::new();
        for s in lattice.sites() {
            for n in geo.neighbours_of(s) {
                if lattice.distance(s, n) == 1 {
                    if s < n {
                        lines.push((s, n));
                    }
                } else {
                    let ((rs, cs), (rn, cn)) = (lattice.coords(s), lattice.coords(n));
                    // The one-step offset that reaches n across the seam, each part in -1..=1.
                    let step = |from: usize, to: usize, size: usize| ((to + size + 1 - from) % size) as f32 - 1.0;
                    let (dr, dc) = (step(rs, rn, lattice.rows()), step(cs, cn, lattice.cols()));
                    wraps.push(WrapLink { from: s, to: n, dx: dc - dr / 2.0, dy: dr * 3f32.sqrt() / 2.0 });
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
        // The placement obligation (§4.4, progress rule): after a placement a side may make three
        // more parts without placing; the fourth must place or capture when it can.
        if self.options.pass_rule == super::PassRule::Progress && matches!(self.phase(), Phase::Play) {
            let left = 4u16.saturating_sub(self.idle(mover));
            counters.push(Counter {
                side: Some(mover),
                label: "must place".into(),
                value: match left {
                    0 => "now (or capture)".to_string(),
                    1 => "in this part (or capture)".to_string(),
                    _ => format!("within {left} parts"),
                },
            });
        }
        BoardView { layout: Layout::Lattice { lines }, cells, counters, wraps }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn the_t93_view_has_every_site_and_lines_between_neighbours() {
        let pos = Position::new(&Default::default());
        let v = pos.board_view();
        assert_eq!(v.cells.len(), 93);
        // Sum of neighbour counts / 2 (54×6 + 12×5 + 9×4 + 18×3) / 2.
        let Layout::Lattice { lines } = &v.layout else { panic!("lattice expected") };
        assert_eq!(lines.len(), (54 * 6 + 12 * 5 + 9 * 4 + 18 * 3) / 2);
        let stones = v.occupied_count();
        assert_eq!(stones, pos.stones_of(Side::First) as usize + pos.stones_of(Side::Second) as usize);
        // Neighbouring sites are one unit apart in the drawing.
        let (a, b) = lines[0];
        let (ca, cb) = (&v.cells[a as usize], &v.cells[b as usize]);
        assert!(((ca.x - cb.x).powi(2) + (ca.y - cb.y).powi(2) - 1.0).abs() < 1e-4);
        assert!(v.wraps.is_empty(), "T93 does not wrap");
    }

    #[test]
    fn the_torus_view_links_every_seam_site_to_its_neighbour_one_step_out() {
        let opts = crate::rules::GameOptions::from_pairs([("board", "torus-8")]).unwrap();
        let pos = Position::new(&opts);
        let v = pos.board_view();
        let Layout::Lattice { lines } = &v.layout else { panic!("lattice expected") };
        // Every site has six neighbours: drawn lines count twice, wrap links once per end.
        assert_eq!(2 * lines.len() + v.wraps.len(), 64 * 6);
        for w in &v.wraps {
            // One unit long, and the neighbour really is on the other side of the board.
            assert!((w.dx.hypot(w.dy) - 1.0).abs() < 1e-4, "{w:?}");
            let (from, to) = (&v.cells[w.from as usize], &v.cells[w.to as usize]);
            assert!((from.x + w.dx - to.x).abs() > 1.5 || (from.y + w.dy - to.y).abs() > 1.5, "{w:?}");
        }
        // Spec §2.6 (N = 11): a1's neighbours include a11 (W), k1 (SE) and k11 (SW) across the seams.
        let opts = crate::rules::GameOptions::from_pairs([("board", "torus-11")]).unwrap();
        let v11 = Position::new(&opts).board_view();
        let a1 = v11.cell_named("a1").unwrap().cell;
        let mut across: Vec<String> =
            v11.wraps.iter().filter(|w| w.from == a1).map(|w| v11.cells[w.to as usize].name.clone()).collect();
        across.sort();
        assert_eq!(across, ["a11", "k1", "k11"]);
    }
}
