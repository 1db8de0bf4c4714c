//! A seat's board: the rules' position after the decisions a client may see, kept in step with
//! [`OnlineSeat::board_decisions`](super::seat::OnlineSeat::board_decisions) by playing what was
//! added, or rebuilding when the list changed under it (a reveal, a refused move).

use super::table::swaps_seats;
use crate::games::{DynGame, GameKind};
use crate::rules::Side;

/// The position a client shows for one online game.
pub struct SeatBoard {
    start: Box<dyn DynGame>,
    pub position: Box<dyn DynGame>,
    pub played: Vec<String>,
    /// A pie swap has exchanged the seats' colours.
    pub swapped: bool,
}

/// What [`SeatBoard::sync`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Synced {
    /// These decisions were played on top of the board.
    Extended(Vec<String>),
    /// The board was rebuilt: the first `kept` decisions stayed, the rest were replayed.
    Rebuilt { kept: usize },
}

impl SeatBoard {
    pub fn new(kind: GameKind, options: &[(String, String)]) -> Result<SeatBoard, String> {
        let start = kind.open(options, None).map_err(|e| e.to_string())?;
        Ok(SeatBoard { position: start.clone_box(), start, played: Vec::new(), swapped: false })
    }

    /// Brings the board to `wanted`. A decision the rules refuse stops the replay there (the
    /// server checks every decision, so this only happens with a corrupted stream) and is reported.
    pub fn sync(&mut self, wanted: &[String]) -> Result<Synced, String> {
        let kept = self.played.iter().zip(wanted).take_while(|(a, b)| a == b).count();
        let synced = if kept == self.played.len() {
            Synced::Extended(wanted[kept..].to_vec())
        } else {
            self.position = self.start.clone_box();
            self.swapped = false;
            let again = self.played[..kept].to_vec();
            self.played.clear();
            for d in &again {
                self.swapped ^= swaps_seats(&self.position.play_decision(d).map_err(|e| e.to_string())?);
                self.played.push(d.clone());
            }
            Synced::Rebuilt { kept }
        };
        for d in &wanted[self.played.len()..] {
            let effects = self.position.play_decision(d).map_err(|e| format!("'{d}' does not play here: {e}"))?;
            self.swapped ^= swaps_seats(&effects);
            self.played.push(d.clone());
        }
        Ok(synced)
    }

    /// The side `seat` plays now.
    pub fn side_of(&self, seat: Side) -> Side {
        Side::from_index(seat.index() ^ usize::from(self.swapped))
    }

    /// The decisions `seat` may make now.
    pub fn legal_for(&self, seat: Side) -> Vec<String> {
        self.position.legal_decisions(self.side_of(seat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extends_what_was_added_and_rebuilds_when_the_list_changed() {
        let kind = GameKind::named("gravel");
        let mut board = SeatBoard::new(kind, &kind.quick_pairs()).unwrap();
        let a = board.position.legal_decisions(Side::First)[0].clone();
        assert_eq!(board.sync(std::slice::from_ref(&a)).unwrap(), Synced::Extended(vec![a.clone()]));
        let mover = match board.position.to_move() {
            Some(crate::rules::ToMove::One(side)) => side,
            other => panic!("{other:?}"),
        };
        let b = board.position.legal_decisions(mover)[0].clone();
        assert_eq!(board.sync(&[a.clone(), b.clone()]).unwrap(), Synced::Extended(vec![b.clone()]));
        // A refused pending decision disappears: the board goes back to what was stored.
        assert_eq!(board.sync(std::slice::from_ref(&a)).unwrap(), Synced::Rebuilt { kept: 1 });
        assert_eq!(board.played, vec![a.clone()]);
        assert!(board.sync(&[a, "nonsense".into()]).is_err());
    }
}
