//! Where the pieces of a decision travel, read from its effects: a moved or hopping piece comes
//! along its path, a piece dropped on a stack comes down from just above, a captured one flies
//! off to its capturer's tray, a returned one rises off the board. The pieces themselves make
//! these journeys (`fx`), so nothing but a real piece is ever seen moving.

use crate::games::touched_cells;
use crate::rules::{Cell, Effect, EffectKind, RemoveCause, Side};
use std::collections::HashMap;

/// How a piece comes onto its space.
#[derive(Debug, Clone, PartialEq)]
pub enum Arrival {
    /// Along a path of spaces (the first is where it set off), in an arc over each leg when `arc`.
    Along { path: Vec<Cell>, arc: bool },
    /// Down onto its stack from just above the space.
    FromAbove,
}

/// How a piece leaves its space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Departure {
    /// Lifts and shrinks away where it stood (a removal, a burn's victim).
    #[default]
    Fades,
    /// Goes on as the piece arriving elsewhere: it leaves its space when its move starts.
    MovesOn,
    /// Flies off to the tray of the side that captured it.
    ToTray(Side),
    /// Rises off the board (a piece returned to its owner, or lost to control).
    RisesOff,
}

/// What happens on one space in a decision: the last wave that touched it, and how its pieces
/// come and go.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpaceMotion {
    pub wave: u16,
    /// The journeys of the pieces arriving here, in the order the effects made them.
    pub arrivals: Vec<Arrival>,
    pub departure: Departure,
}

impl SpaceMotion {
    /// The journey of the `nth` piece that arrived on this space (pieces beyond the journeys
    /// the effects name share them in turn); `None`: it simply drops in.
    pub fn arrival(&self, nth: usize) -> Option<&Arrival> {
        (!self.arrivals.is_empty()).then(|| &self.arrivals[nth % self.arrivals.len()])
    }
}

/// The spaces one effect makes pieces arrive on, with their journeys.
pub fn arrivals_of(kind: &EffectKind) -> Vec<(Cell, Arrival)> {
    let along = |path: Vec<Cell>, arc: bool| Arrival::Along { path, arc };
    match kind {
        EffectKind::Moved { from, to, .. } => vec![(*to, along(vec![*from, *to], true))],
        EffectKind::Hopped { path, .. } => path.last().map(|&to| (to, along(path.clone(), true))).into_iter().collect(),
        EffectKind::Swapped { a, b, .. } => vec![(*a, along(vec![*b, *a], true)), (*b, along(vec![*a, *b], true))],
        // Each space of the path receives what was carried from its start.
        EffectKind::Distributed { path, .. } => {
            (1..path.len()).map(|i| (path[i], along(path[..=i].to_vec(), false))).collect()
        }
        EffectKind::Collected { from, to, .. } => from.iter().map(|&f| (*to, along(vec![f, *to], false))).collect(),
        EffectKind::Stacked { cell, .. } => vec![(*cell, Arrival::FromAbove)],
        _ => Vec::new(),
    }
}

/// The spaces one effect makes pieces leave, and how.
pub fn departures_of(kind: &EffectKind) -> Vec<(Cell, Departure)> {
    match kind {
        EffectKind::Moved { from, .. } => vec![(*from, Departure::MovesOn)],
        EffectKind::Hopped { path, .. } | EffectKind::Distributed { path, .. } => {
            path.first().map(|&from| (from, Departure::MovesOn)).into_iter().collect()
        }
        EffectKind::Swapped { a, b, .. } => vec![(*a, Departure::MovesOn), (*b, Departure::MovesOn)],
        EffectKind::Collected { from, .. } => from.iter().map(|&f| (f, Departure::MovesOn)).collect(),
        EffectKind::Captured { cells, by } => cells.iter().map(|&c| (c, Departure::ToTray(*by))).collect(),
        EffectKind::Removed { cell, cause: RemoveCause::Returned | RemoveCause::Control, .. } => {
            vec![(*cell, Departure::RisesOff)]
        }
        _ => Vec::new(),
    }
}

/// Every space's motion in a frame's effects.
pub fn motions<'a>(effects: impl IntoIterator<Item = &'a Effect>) -> HashMap<Cell, SpaceMotion> {
    let mut spaces: HashMap<Cell, SpaceMotion> = HashMap::new();
    for effect in effects {
        // The spaces it touches show their changes in its wave.
        for cell in touched_cells(std::slice::from_ref(effect)) {
            let space = spaces.entry(cell).or_default();
            space.wave = space.wave.max(effect.wave);
        }
        for (cell, arrival) in arrivals_of(&effect.kind) {
            spaces.entry(cell).or_default().arrivals.push(arrival);
        }
        // A piece captured or returned is shown so even if another effect moved it first.
        for (cell, departure) in departures_of(&effect.kind) {
            let space = spaces.entry(cell).or_default();
            if matches!(space.departure, Departure::Fades | Departure::MovesOn) {
                space.departure = departure;
            }
        }
    }
    spaces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect(wave: u16, kind: EffectKind) -> Effect {
        Effect::new(wave, kind)
    }

    #[test]
    fn a_moved_piece_travels_its_path_and_leaves_its_start_as_it_sets_off() {
        let s = Side::First;
        let m = motions(&[effect(0, EffectKind::Hopped { path: vec![1, 3, 5], by: s })]);
        assert_eq!(m[&5].arrival(0), Some(&Arrival::Along { path: vec![1, 3, 5], arc: true }));
        assert_eq!(m[&1].departure, Departure::MovesOn);
        assert_eq!(m[&3].arrival(0), None, "a space hopped over receives nothing");
        // Gravel's move from a stack onto another: along the move, not dropped from above.
        let gravel = motions(&[
            effect(0, EffectKind::Moved { from: 2, to: 7, by: s, count: 1 }),
            effect(0, EffectKind::Stacked { cell: 2, owner: s, height: 1 }),
            effect(0, EffectKind::Stacked { cell: 7, owner: s, height: 3 }),
        ]);
        assert!(matches!(gravel[&7].arrival(0), Some(Arrival::Along { arc: true, .. })));
        // A swap crosses both ways.
        let swap = motions(&[effect(0, EffectKind::Swapped { a: 4, b: 9, by: s })]);
        assert_eq!(swap[&4].arrival(0), Some(&Arrival::Along { path: vec![9, 4], arc: true }));
        assert_eq!(swap[&9].arrival(0), Some(&Arrival::Along { path: vec![4, 9], arc: true }));
    }

    #[test]
    fn spread_and_gathered_pieces_come_from_their_stacks() {
        let s = Side::Second;
        let spread = motions(&[effect(0, EffectKind::Distributed { path: vec![10, 11, 12], by: s })]);
        assert_eq!(spread[&12].arrival(0), Some(&Arrival::Along { path: vec![10, 11, 12], arc: false }));
        assert_eq!(spread[&11].arrival(0), Some(&Arrival::Along { path: vec![10, 11], arc: false }));
        assert_eq!(spread[&10].departure, Departure::MovesOn);
        let gathered = motions(&[effect(0, EffectKind::Collected { from: vec![1, 2], to: 3, by: s })]);
        // Three pieces land on 3: they come from 1, 2, then 1 again.
        let from = |n| match gathered[&3].arrival(n) {
            Some(Arrival::Along { path, .. }) => path[0],
            other => panic!("{other:?}"),
        };
        assert_eq!([from(0), from(1), from(2)], [1, 2, 1]);
    }

    #[test]
    fn captured_pieces_fly_to_the_capturer_and_returned_ones_rise_off() {
        let m = motions(&[
            effect(0, EffectKind::Placed { cell: 1, by: Side::First, piece: 'b', count: 1 }),
            effect(1, EffectKind::Removed { cell: 2, count: 1, cause: RemoveCause::Capture }),
            effect(1, EffectKind::Captured { cells: vec![2], by: Side::First }),
            effect(2, EffectKind::Removed { cell: 4, count: 1, cause: RemoveCause::Returned }),
            effect(2, EffectKind::Burned { cell: 6 }),
        ]);
        assert_eq!(m[&1].arrival(0), None, "a placed stone drops in");
        assert_eq!((m[&2].departure, m[&2].wave), (Departure::ToTray(Side::First), 1));
        assert_eq!((m[&4].departure, m[&4].wave), (Departure::RisesOff, 2));
        assert_eq!(m[&6].departure, Departure::Fades);
    }
}
