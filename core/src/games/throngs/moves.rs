//! Atomic decisions (§4.6), their generation, and player-readable reasons for illegal ones.

use super::board::{MAX_SITES, for_each_bit};
use super::options::{Opening, PassRule};
use super::position::{EMPTY, PartKind, Phase, Position, Started, stone_of};
use crate::rules::{Cell, PlayError, Side};

/// One atomic decision: one click of a click-by-click interface and one edge of a search tree.
/// A move part (§4.2) is either one decision (`Pass`, a placement or capture that cannot or need
/// not travel) or a start (`Place`, `Capture`, `Pick`) followed by `To` its final site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Pass this part (voluntary or forced).
    Pass,
    /// Place a stone on an empty site (A).
    Place(Cell),
    /// Replace the enemy stone on a site (B).
    Capture(Cell),
    /// Start a friendly move of the own stone on a site (C).
    Pick(Cell),
    /// The final site of the started part; the start site itself stops a placement or capture.
    To(Cell),
    /// Pie offer: the next offered stone (Black ones first, then White ones) goes here.
    Offer(Cell),
    /// Pie choice: the chooser takes this colour.
    Choose(Side),
}

impl Position {
    /// The number of Black (`n`) and White (`n + 1`) stones of the pie offer.
    pub(super) fn pie_size(&self) -> u8 {
        match self.options.opening {
            Opening::Pie(n) => n,
            Opening::Standard => 1,
        }
    }

    /// The colour of the next offered stone during the pie offer.
    pub(super) fn offer_colour(&self) -> Side {
        if self.count[0] < self.pie_size() as u16 { Side::First } else { Side::Second }
    }

    /// The remaining power after starting a part of `kind` on `at` (§4.2).
    #[inline]
    pub(super) fn range_of(&self, kind: PartKind, at: Cell) -> u8 {
        let p = self.power(at, self.mover);
        match kind {
            PartKind::Place => (p - 1).max(0) as u8,
            PartKind::Capture => (p - 2).max(0) as u8,
            PartKind::Move => p.max(0) as u8,
        }
    }

    /// Whether the legacy pass rule (D5) restricts this part to placements and captures, given
    /// whether one exists.
    #[inline]
    fn legacy_restricts(&self, has_place_or_capture: bool) -> bool {
        self.options.pass_rule == PassRule::Legacy
            && self.legacy_after_passes
            && !self.legacy_done
            && has_place_or_capture
    }

    /// Appends every legal atomic decision (clears `out` first).
    pub(super) fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::Over(_) => {}
            Phase::PieOffer => {
                out.extend((0..self.geo.len() as Cell).filter(|&s| self.is_empty_site(s)).map(Move::Offer));
            }
            Phase::PieChoice => out.extend([Move::Choose(Side::First), Move::Choose(Side::Second)]),
            Phase::Play => {
                if let Some(st) = self.started {
                    self.generate_destinations(st, out);
                    return;
                }
                self.generate_starts(out);
            }
        }
    }

    /// The placements, captures and friendly-move starts of a part, then pass where allowed.
    /// Written branch-light (every site is written, the length advances only for legal ones)
    /// because this loop is most of a random playout's time.
    fn generate_starts(&self, out: &mut Vec<Move>) {
        let n = self.geo.len();
        let me = self.mover.index();
        let enemy = stone_of(self.mover.opponent());
        let (near_me, near_them) = (&self.near[me][..n], &self.near[1 - me][..n]);
        let (stones, degree) = (&self.stones[..n], &self.geo.degree[..n]);
        // Every site is written to a local buffer; the length advances only for legal starts.
        let mut buf = [Move::Pass; MAX_SITES];
        let mut k = 0;
        for s in 0..n {
            let (mine, theirs) = (near_me[s] as i8, near_them[s] as i8);
            let p = mine - theirs;
            let empty = stones[s] == EMPTY;
            let enclosed = (mine + theirs) as u8 == degree[s];
            let place = empty & ((p > 0) | ((p == 0) & enclosed));
            let capture = (stones[s] == enemy) & (p >= 2);
            buf[k] = if empty { Move::Place(s as Cell) } else { Move::Capture(s as Cell) };
            k += (place | capture) as usize;
        }
        out.extend_from_slice(&buf[..k]);
        if self.obliged_by_counter() || self.legacy_restricts(k > 0) {
            if k == 0 {
                out.push(Move::Pass); // the forced pass
            }
            return;
        }
        for_each_bit(&self.side_bits[me], |s| {
            let p = near_me[s as usize] as i8 - near_them[s as usize] as i8;
            if p >= 1 && self.can_travel(s, p as u8) {
                out.push(Move::Pick(s));
            }
        });
        out.push(Move::Pass);
    }

    fn generate_destinations(&self, st: Started, out: &mut Vec<Move>) {
        let layers = self.reach_layers(st.at, st.range);
        for layer in &layers[1..] {
            for_each_bit(layer, |t| out.push(Move::To(t)));
        }
        if st.kind != PartKind::Move {
            out.push(Move::To(st.at));
        }
    }

    /// Why nothing can be done at `site` now, in words; `None` when something can (the decision
    /// a click there would make: a placement on an empty site, a capture of an enemy stone, a move
    /// of one's own, or where a started part's stone goes).
    pub(super) fn why_nothing_at(&self, site: Cell) -> Option<String> {
        if (site as usize) >= self.geo.len() {
            return None;
        }
        let m = match (self.phase, self.started) {
            (Phase::Play, Some(_)) => Move::To(site),
            (Phase::Play, None) => match self.stone(site) {
                None => Move::Place(site),
                Some(side) if side == self.mover => Move::Pick(site),
                Some(_) => Move::Capture(site),
            },
            (Phase::PieOffer, _) => Move::Offer(site),
            _ => return None,
        };
        let mut legal = Vec::new();
        self.generate(&mut legal);
        (!legal.contains(&m)).then(|| self.explain_illegal(&m).reason)
    }

    /// Why `m` is not legal here, in words a player understands.
    pub(super) fn explain_illegal(&self, m: &Move) -> PlayError {
        let name = |s: Cell| self.geo.name(s);
        let side = match self.mover {
            Side::First => "Black",
            Side::Second => "White",
        };
        let in_board = |s: Cell| (s as usize) < self.geo.len();
        let reason = match (self.phase, m) {
            (Phase::Over(_), _) => "the game is over".to_string(),
            (Phase::PieOffer, Move::Offer(s)) if in_board(*s) => format!("{} is already occupied", name(*s)),
            (Phase::PieOffer, _) => "the pie offer is being placed: put the next offered stone on an empty site".into(),
            (Phase::PieChoice, _) => "the chooser must first choose a colour (choose Black / choose White)".into(),
            (Phase::Play, Move::Offer(_) | Move::Choose(_)) => "the pie opening is over".into(),
            (Phase::Play, _) if m_has_bad_site(m, self.geo.len()) => "that site is not on this board".into(),
            (Phase::Play, Move::To(t)) => match self.started {
                None => "no part is started: choose a site to place, capture or move from first".into(),
                Some(st) if *t == st.at => format!("the moving stone must leave {}", name(st.at)),
                Some(st) => format!(
                    "{} is not reachable from {} with {} power left (landings must be empty, turns only on landings)",
                    name(*t),
                    name(st.at),
                    st.range
                ),
            },
            (Phase::Play, _) if let Some(st) = self.started => {
                format!("finish the started part first: choose where the stone from {} goes", name(st.at))
            }
            (Phase::Play, Move::Pass) => format!("{side} must place or capture now and cannot pass"),
            (Phase::Play, Move::Place(s)) => {
                let p = self.power(*s, self.mover);
                if !self.is_empty_site(*s) {
                    format!("{} is occupied", name(*s))
                } else if p < 0 || (p == 0 && !self.enclosed(*s)) {
                    format!(
                        "placing on {} needs power 1 or more (or 0 with every neighbour occupied); its power is {p}",
                        name(*s)
                    )
                } else {
                    format!("{side} must place or capture now")
                }
            }
            (Phase::Play, Move::Capture(s)) => {
                let p = self.power(*s, self.mover);
                if self.stone(*s) != Some(self.mover.opponent()) {
                    format!("there is no enemy stone on {} to capture", name(*s))
                } else if p < 2 {
                    format!("capturing {} needs power 2 or more; its power is {p}", name(*s))
                } else {
                    format!("{side} must place or capture now")
                }
            }
            (Phase::Play, Move::Pick(s)) => {
                let p = self.power(*s, self.mover);
                if self.stone(*s) != Some(self.mover) {
                    format!("there is no {side} stone on {}", name(*s))
                } else if self.obliged_by_counter() || self.legacy_restricts(true) {
                    format!("{side} must place or capture now and cannot move a stone")
                } else if p < 1 {
                    format!("the stone on {} has power {p} and cannot move", name(*s))
                } else {
                    format!("the stone on {} has nowhere to land within {p} steps", name(*s))
                }
            }
        };
        PlayError::new(reason)
    }
}

fn m_has_bad_site(m: &Move, sites: usize) -> bool {
    match m {
        Move::Place(s) | Move::Capture(s) | Move::Pick(s) | Move::To(s) | Move::Offer(s) => *s as usize >= sites,
        Move::Pass | Move::Choose(_) => false,
    }
}
