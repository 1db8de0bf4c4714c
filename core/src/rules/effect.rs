//! Effects: what a move did, in order, tagged with the cascade wave it happened in.
//!
//! Engines report effects from each named resolution phase into an [`EffectSink`]; `play` and the
//! app keep them, search discards them. The app replays them as animations and sounds wave by
//! wave, and the referee prints them as JSON.

use super::{Outcome, Side};
use serde::Serialize;

/// Index of a board space (cell, point or site) in the game's own numbering; the game's
/// notation turns it into a name (`Notation::cell_name`).
pub type Cell = u16;

/// Why pieces left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum RemoveCause {
    /// Taken by the opponent (capture).
    Capture,
    /// Removed because the mover's own action left them without a way to stay (suicide).
    SelfCapture,
    /// Lost control (Gravel's control removals).
    Control,
    /// Unstable or overwhelmed (Hidden Intention's cascade).
    Unstable,
    /// Taken back into the owner's pool or stock.
    Returned,
}

/// One thing that happened to the board or the game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind")]
pub enum EffectKind {
    /// `count` pieces of `piece` (the character the position text uses) arrived on `cell`.
    Placed { cell: Cell, by: Side, piece: char, count: u16 },
    /// `count` pieces went from `from` to `to` in one step.
    Moved { from: Cell, to: Cell, by: Side, count: u16 },
    /// A piece travelled along `path` (start included), hopping over what lies between.
    Hopped { path: Vec<Cell>, by: Side },
    /// The stack on `cell` now has `height` pieces of `owner`.
    Stacked { cell: Cell, owner: Side, height: u16 },
    /// Pieces were spread along `path` (start included), one or more per cell.
    Distributed { path: Vec<Cell>, by: Side },
    /// Pieces from `from` were gathered on `to`.
    Collected { from: Vec<Cell>, to: Cell, by: Side },
    /// `count` pieces left `cell`.
    Removed { cell: Cell, count: u16, cause: RemoveCause },
    /// `by` captured the pieces on `cells` (a whole group or set at once).
    Captured { cells: Vec<Cell>, by: Side },
    /// `cell` burned and cannot be used until it reopens.
    Burned { cell: Cell },
    /// `cell` reopened.
    Unburned { cell: Cell },
    /// The pieces on `a` and `b` changed places.
    Swapped { a: Cell, b: Cell, by: Side },
    /// A side's score changed to `score`.
    Scored { side: Side, score: i32 },
    /// `side` took `count` pieces back from its prisoners or the board.
    Rescued { side: Side, count: u16 },
    /// The second player took over the first player's position (pie rule).
    PieSwap { by: Side },
    /// `side` passed.
    Passed { side: Side },
    /// The game ended.
    GameOver { outcome: Outcome },
}

/// An effect and the cascade wave it belongs to (0 for the move itself, 1.. for later rounds).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Effect {
    pub wave: u16,
    #[serde(flatten)]
    pub kind: EffectKind,
}

impl Effect {
    pub fn new(wave: u16, kind: EffectKind) -> Self {
        Effect { wave, kind }
    }

    /// The variant name, as the referee and the test vectors write it (`"Placed"`, `"Burned"`, …).
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            EffectKind::Placed { .. } => "Placed",
            EffectKind::Moved { .. } => "Moved",
            EffectKind::Hopped { .. } => "Hopped",
            EffectKind::Stacked { .. } => "Stacked",
            EffectKind::Distributed { .. } => "Distributed",
            EffectKind::Collected { .. } => "Collected",
            EffectKind::Removed { .. } => "Removed",
            EffectKind::Captured { .. } => "Captured",
            EffectKind::Burned { .. } => "Burned",
            EffectKind::Unburned { .. } => "Unburned",
            EffectKind::Swapped { .. } => "Swapped",
            EffectKind::Scored { .. } => "Scored",
            EffectKind::Rescued { .. } => "Rescued",
            EffectKind::PieSwap { .. } => "PieSwap",
            EffectKind::Passed { .. } => "Passed",
            EffectKind::GameOver { .. } => "GameOver",
        }
    }
}

/// The effects of one move, in the order they happened.
pub type Effects = Vec<Effect>;

/// Where the resolution phases report what happened: a list of effects for `Rules::play` and the
/// app, nothing at all for search (`Rules::play_unchecked`), with one code path for both.
pub trait EffectSink {
    /// Whether effects are kept. A phase may skip work whose only use is describing what
    /// happened (a travel path, a list of cells).
    fn records(&self) -> bool;

    /// Reports one effect in `wave`. The effect is built only when it is kept.
    fn emit(&mut self, wave: u16, kind: impl FnOnce() -> EffectKind);
}

impl EffectSink for Effects {
    #[inline]
    fn records(&self) -> bool {
        true
    }

    #[inline]
    fn emit(&mut self, wave: u16, kind: impl FnOnce() -> EffectKind) {
        self.push(Effect::new(wave, kind()));
    }
}

/// A sink that keeps nothing: search plays through the phases without building effects.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiscardEffects;

impl EffectSink for DiscardEffects {
    #[inline]
    fn records(&self) -> bool {
        false
    }

    #[inline]
    fn emit(&mut self, _wave: u16, _kind: impl FnOnce() -> EffectKind) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effects_serialise_with_their_kind_and_wave() {
        let e = Effect::new(2, EffectKind::Burned { cell: 7 });
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v["kind"], "Burned");
        assert_eq!(v["wave"], 2);
        assert_eq!(v["cell"], 7);
        assert_eq!(e.kind_name(), "Burned");
    }

    #[test]
    fn a_list_keeps_effects_and_the_discarding_sink_never_builds_them() {
        let mut kept = Effects::new();
        kept.emit(1, || EffectKind::Burned { cell: 3 });
        assert!(kept.records());
        assert_eq!(kept, vec![Effect::new(1, EffectKind::Burned { cell: 3 })]);
        let mut discard = DiscardEffects;
        discard.emit(0, || unreachable!("a discarded effect is never built"));
        assert!(!discard.records());
    }
}
