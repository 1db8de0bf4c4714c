//! What a viewer may see of a match: every decision, except other seats' sealed commitments at a
//! simultaneous node (Hidden Intention) until both are in. The one place that hides them: the
//! server's messages, the hot-seat hand-over and an online seat's board all ask here.

use super::Match;
use crate::games::DynGame;
use crate::rules::Side;

/// Who looks at a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The player in this seat (sees its own sealed decisions).
    Seat(Side),
    /// Anyone else: a spectator, a replay, the hot-seat hand-over screen between two players.
    Spectator,
}

impl Match {
    /// Whether `viewer` may see decision `index`.
    pub fn may_see(&self, index: usize, viewer: Viewer) -> bool {
        match self.sealed_from() {
            Some(from) if index >= from => viewer == Viewer::Seat(self.played()[index].seat),
            _ => true,
        }
    }

    /// How many decisions, from the first, `viewer` may see before the first it may not.
    pub fn public_len(&self, viewer: Viewer) -> usize {
        // Only the sealed decisions at the end can be hidden: look at those alone.
        let Some(from) = self.sealed_from() else { return self.len() };
        (from..self.len()).find(|&i| !self.may_see(i, viewer)).unwrap_or(self.len())
    }

    /// The position as `viewer` may know it: at a simultaneous node, the position before the
    /// sealed decisions with only the viewer's own played again, so nothing of another seat's
    /// sealed commitment is in it (what a seat's hint or computer may think about). A side's
    /// decisions there never depend on the other side's, so they play again as they were.
    pub fn position_for(&self, viewer: Viewer) -> Box<dyn DynGame> {
        let now = || self.position().clone_box();
        let Some(from) = self.sealed_from() else { return now() };
        if (from..self.len()).all(|i| self.may_see(i, viewer)) {
            return now();
        }
        let Some(before) = self.position_before(from) else { return now() };
        let mut known = before.clone_box();
        for played in &self.played()[from..] {
            if viewer == Viewer::Seat(played.seat) && known.play_decision(&played.decision).is_err() {
                break;
            }
        }
        known
    }

    /// The decisions `viewer` may see, in order (`None` for a sealed one).
    pub fn view(&self, viewer: Viewer) -> impl Iterator<Item = Option<&str>> {
        (0..self.len()).map(move |i| self.may_see(i, viewer).then(|| self.played()[i].decision.as_str()))
    }
}
