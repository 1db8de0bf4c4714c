//! A client's side of one online game: what the server has stored, the player's own decisions it
//! has not acknowledged yet (shown as pending and re-sent until it does), and the match the board
//! shows (the decisions this seat may see, its own pending ones included). Pure: the app and the
//! load test feed it server messages and send what it returns.

use super::clock::ClockView;
use super::protocol::{ClientMessage, Ending, ErrorCode, ServerMessage, WireMove};
use super::table::{COMMITMENT_SEPARATOR, leaves_commitment_open, ply_decisions};
use crate::games::GameKind;
use crate::rules::Side;
use crate::session::Match;

/// A decision of this seat the server has not stored yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub decision: String,
    /// The ply it was last sent for (`None`: not sent yet).
    pub sent_for: Option<u32>,
}

/// A rematch created for this seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RematchSeat {
    pub game_id: String,
    pub seat: Side,
    pub token: String,
}

/// One followed game, as this client knows it.
#[derive(Clone, Default)]
pub struct OnlineSeat {
    pub game_id: String,
    pub token: Option<String>,
    /// Known once the server's `State` has arrived.
    pub setup: Option<(GameKind, Vec<(String, String)>)>,
    pub seat: Option<Side>,
    /// The stored decisions, by ply (another seat's sealed commitments without their text).
    pub moves: Vec<WireMove>,
    pub pending: Vec<Pending>,
    /// The decisions of this seat's commitment at a simultaneous node so far: kept here until it
    /// is whole, then sent as one ply (the other seat learns only that it is sealed).
    pub staged: Vec<String>,
    pub joined: [bool; 2],
    pub online: [bool; 2],
    pub ended: Option<Ending>,
    pub rematch_offered_by: Option<Side>,
    pub rematch: Option<RematchSeat>,
    /// The server refused one of this seat's decisions: why (the app shows it once).
    pub refused: Option<String>,
    /// A timed game's clocks as the server last told them (the app counts down from its arrival).
    pub clock: Option<ClockView>,
    /// The match of [`OnlineSeat::board_decisions`], once the game is known.
    board: Option<Match>,
    /// Why the board could not follow the server's game (only a corrupted stream does this).
    pub board_error: Option<String>,
}

impl std::fmt::Debug for OnlineSeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnlineSeat")
            .field("game_id", &self.game_id)
            .field("seat", &self.seat)
            .field("moves", &self.moves)
            .field("pending", &self.pending)
            .field("staged", &self.staged)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

impl OnlineSeat {
    pub fn new(game_id: impl Into<String>, token: Option<String>) -> OnlineSeat {
        OnlineSeat { game_id: game_id.into(), token, ..OnlineSeat::default() }
    }

    /// How many stored decisions this client can show: up to the first sealed one.
    pub fn revealed(&self) -> u32 {
        self.moves.iter().position(|m| m.decision.is_none()).unwrap_or(self.moves.len()) as u32
    }

    /// What to send when the connection (re)opens: follow the game from what is known, and re-send
    /// the first pending decision.
    pub fn on_connect(&mut self) -> Vec<ClientMessage> {
        let open =
            ClientMessage::Open { game_id: self.game_id.clone(), token: self.token.clone(), have: self.revealed() };
        for p in &mut self.pending {
            p.sent_for = None;
        }
        vec![open]
    }

    /// The player made `decision` on the board: a decision that leaves a commitment unfinished
    /// is staged here, anything else is played (with the staged decisions before it, as one ply).
    pub fn decide(&mut self, decision: String) -> Vec<ClientMessage> {
        if self.board.as_ref().is_some_and(|b| leaves_commitment_open(b.position(), &decision)) {
            self.staged.push(decision);
            self.sync_board();
            return vec![];
        }
        let mut parts = std::mem::take(&mut self.staged);
        parts.push(decision);
        self.play(parts.join(&COMMITMENT_SEPARATOR.to_string()))
    }

    /// The player made a ply (a decision, or a whole commitment): keep it as pending and send it
    /// if nothing else is in flight.
    pub fn play(&mut self, decision: String) -> Vec<ClientMessage> {
        self.pending.push(Pending { decision, sent_for: None });
        self.sync_board();
        self.send_next()
    }

    /// The match the board shows: the decisions of [`OnlineSeat::board_decisions`] (`None` until
    /// the server's `State` has said which game this is).
    pub fn board(&self) -> Option<&Match> {
        self.board.as_ref()
    }

    /// The decisions this seat may make on the board now.
    pub fn legal(&self) -> Vec<String> {
        match (&self.board, self.seat) {
            (Some(board), Some(seat)) if self.ended.is_none() => board.legal_for(seat),
            _ => Vec::new(),
        }
    }

    /// Brings the board's match to [`OnlineSeat::board_decisions`]: what was added is played;
    /// where they part (a reveal, a refused decision) it goes back there and plays on.
    fn sync_board(&mut self) {
        let Some((kind, options)) = self.setup.clone() else { return };
        if self.board.as_ref().is_none_or(|b| b.kind() != kind) {
            match Match::open(kind, &options, None) {
                Ok(m) => self.board = Some(m),
                Err(e) => {
                    self.board_error = Some(e.to_string());
                    return;
                }
            }
        }
        let wanted = self.board_decisions();
        let Some(board) = self.board.as_mut() else { return };
        let common = board.decisions().zip(&wanted).take_while(|(a, b)| a == b).count();
        board.go_to(common);
        board.drop_redo();
        for decision in &wanted[common..] {
            let played = match board.seat_for(decision) {
                Some(seat) => board.decide(seat, decision, 0).map(|_| ()).map_err(|r| r.0),
                None => Err("not a decision of either seat here".to_string()),
            };
            if let Err(why) = played {
                self.board_error = Some(format!("'{decision}' does not play here: {why}"));
                return;
            }
        }
        self.board_error = None;
    }

    /// The first pending decision, when it is not in flight and the game is known.
    fn send_next(&mut self) -> Vec<ClientMessage> {
        let (Some(token), true) = (self.token.clone(), self.setup.is_some()) else { return vec![] };
        let next = self.moves.len() as u32;
        match self.pending.first_mut() {
            Some(p) if p.sent_for != Some(next) => {
                p.sent_for = Some(next);
                vec![ClientMessage::Move {
                    game_id: self.game_id.clone(),
                    token,
                    ply: next,
                    decision: p.decision.clone(),
                }]
            }
            _ => vec![],
        }
    }

    /// Takes in a stored decision; pops the pending one it acknowledges.
    fn store(&mut self, mv: WireMove) {
        let at = mv.ply as usize;
        if at > self.moves.len() {
            return; // a gap: the next `State` fills it
        }
        let ours = Some(mv.by) == self.seat;
        if at == self.moves.len() {
            self.moves.push(mv.clone());
        } else {
            self.moves[at] = mv.clone();
        }
        if ours && self.pending.first().is_some_and(|p| Some(&p.decision) == mv.decision.as_ref()) {
            self.pending.remove(0);
        }
    }

    /// Takes in a server message about this game; returns what to send in answer.
    pub fn receive(&mut self, msg: &ServerMessage) -> Vec<ClientMessage> {
        let out = self.take_in(msg);
        self.sync_board();
        out
    }

    fn take_in(&mut self, msg: &ServerMessage) -> Vec<ClientMessage> {
        match msg {
            ServerMessage::State {
                game_id,
                game,
                options,
                seat,
                from,
                moves,
                joined,
                online,
                ended,
                rematch_offered_by,
            } if *game_id == self.game_id => {
                self.setup = Some((*game, options.clone()));
                self.seat = *seat;
                if seat.is_none() {
                    self.token = None; // not a seat of this game: a read-only view
                }
                self.moves.truncate(*from as usize);
                for mv in moves {
                    self.store(mv.clone());
                }
                // Pending decisions the server already stored (an acknowledgement lost in a drop).
                while let Some(p) = self.pending.first() {
                    let stored = p
                        .sent_for
                        .and_then(|ply| self.moves.get(ply as usize))
                        .is_some_and(|m| Some(m.by) == self.seat && m.decision.as_ref() == Some(&p.decision));
                    if !stored {
                        break;
                    }
                    self.pending.remove(0);
                }
                self.joined = *joined;
                self.online = *online;
                self.ended = ended.clone();
                self.rematch_offered_by = *rematch_offered_by;
                if self.ended.is_some() {
                    self.drop_pending("the game has ended");
                }
                self.send_next()
            }
            ServerMessage::Clock { game_id, clock } if *game_id == self.game_id => {
                self.clock = Some(clock.clone());
                Vec::new()
            }
            ServerMessage::Moved { game_id, mv } if *game_id == self.game_id => {
                self.store(mv.clone());
                // Another seat's decision took the ply ours was sent for: send ours again.
                if let Some(p) = self.pending.first_mut()
                    && p.sent_for.is_some_and(|ply| ply < self.moves.len() as u32)
                {
                    p.sent_for = None;
                }
                self.send_next()
            }
            ServerMessage::Revealed { game_id, moves } if *game_id == self.game_id => {
                for mv in moves {
                    self.store(mv.clone());
                }
                vec![]
            }
            ServerMessage::Ack { game_id, .. } if *game_id == self.game_id => self.send_next(),
            ServerMessage::Presence { game_id, joined, online } if *game_id == self.game_id => {
                self.joined = *joined;
                self.online = *online;
                vec![]
            }
            ServerMessage::Ended { game_id, ending } if *game_id == self.game_id => {
                self.ended = Some(ending.clone());
                self.rematch_offered_by = None;
                self.drop_pending("the game has ended");
                vec![]
            }
            ServerMessage::RematchOffered { game_id, by } if *game_id == self.game_id => {
                self.rematch_offered_by = Some(*by);
                vec![]
            }
            ServerMessage::RematchReady { game_id, new_game_id, seat, token } if *game_id == self.game_id => {
                self.rematch = Some(RematchSeat { game_id: new_game_id.clone(), seat: *seat, token: token.clone() });
                vec![]
            }
            ServerMessage::Error { code, message, game_id: Some(game_id), next_ply } if *game_id == self.game_id => {
                match code {
                    ErrorCode::StalePly => {
                        // Behind the server: follow again from what is known (and re-send then).
                        if next_ply.is_some_and(|n| n as usize > self.moves.len()) {
                            return self.on_connect();
                        }
                        if let Some(p) = self.pending.first_mut() {
                            p.sent_for = None;
                        }
                        self.send_next()
                    }
                    ErrorCode::Illegal | ErrorCode::NotYourTurn | ErrorCode::GameOver | ErrorCode::BadToken => {
                        self.drop_pending(message);
                        vec![]
                    }
                    _ => vec![],
                }
            }
            _ => vec![],
        }
    }

    fn drop_pending(&mut self, why: &str) {
        if let Some(p) = self.pending.first() {
            let shown: Vec<&str> = ply_decisions(&p.decision).collect();
            self.refused = Some(format!("'{}' was not played: {why}", shown.join(", ")));
        }
        self.pending.clear();
        self.staged.clear();
    }

    /// The decisions the board shows, in order: the stored ones this client may see (stopping at
    /// another seat's sealed commitments, then the seat's own after them), the pending ones and
    /// the staged ones, each commitment as its decisions.
    pub fn board_decisions(&self) -> Vec<String> {
        let mut plies: Vec<&str> = Vec::new();
        let mut sealed_seen = false;
        for m in &self.moves {
            match &m.decision {
                None => sealed_seen = true,
                Some(d) if !sealed_seen || Some(m.by) == self.seat => plies.push(d),
                Some(_) => {}
            }
        }
        plies.extend(self.pending.iter().map(|p| p.decision.as_str()));
        let mut out: Vec<String> = plies.into_iter().flat_map(ply_decisions).map(str::to_string).collect();
        out.extend(self.staged.iter().cloned());
        out
    }

    /// Whether it is this seat's move by the server's record (the board decides the details).
    pub fn is_player(&self) -> bool {
        self.seat.is_some() && self.token.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(moves: Vec<WireMove>, from: u32, seat: Option<Side>) -> ServerMessage {
        ServerMessage::State {
            game_id: "g".into(),
            game: GameKind::named("red-stone"),
            options: vec![],
            seat,
            from,
            moves,
            joined: [true, true],
            online: [true, true],
            ended: None,
            rematch_offered_by: None,
        }
    }

    fn mv(ply: u32, by: Side, d: &str) -> WireMove {
        WireMove { ply, by, decision: Some(d.into()) }
    }

    #[test]
    fn a_move_stays_pending_until_stored_and_is_resent_after_a_drop() {
        let mut s = OnlineSeat::new("g", Some("t".into()));
        assert!(matches!(s.on_connect()[0], ClientMessage::Open { have: 0, .. }));
        s.receive(&state(vec![], 0, Some(Side::First)));
        let out = s.play("a1".into());
        assert!(matches!(&out[0], ClientMessage::Move { ply: 0, decision, .. } if decision == "a1"));
        assert_eq!(s.board_decisions(), vec!["a1"]);
        // The connection drops before the acknowledgement: the move is sent again after `State`.
        s.on_connect();
        let resent = s.receive(&state(vec![], 0, Some(Side::First)));
        assert!(matches!(&resent[0], ClientMessage::Move { ply: 0, .. }), "{resent:?}");
        // This time it was stored: the state shows it and nothing is re-sent.
        s.on_connect();
        let out = s.receive(&state(vec![mv(0, Side::First, "a1")], 0, Some(Side::First)));
        assert!(out.is_empty(), "{out:?}");
        assert!(s.pending.is_empty());
        assert_eq!(s.board_decisions(), vec!["a1"]);
    }

    #[test]
    fn a_refused_move_is_dropped_with_the_reason_and_sealed_moves_are_not_shown() {
        let mut s = OnlineSeat::new("g", Some("t".into()));
        s.receive(&state(vec![WireMove { ply: 0, by: Side::First, decision: None }], 0, Some(Side::Second)));
        assert_eq!(s.revealed(), 0);
        s.play("B:P".into());
        s.receive(&ServerMessage::Moved { game_id: "g".into(), mv: mv(1, Side::Second, "B:P") });
        assert!(s.pending.is_empty());
        assert_eq!(s.board_decisions(), vec!["B:P"]);
        s.receive(&ServerMessage::Revealed {
            game_id: "g".into(),
            moves: vec![mv(0, Side::First, "A:R"), mv(1, Side::Second, "B:P")],
        });
        assert_eq!(s.board_decisions(), vec!["A:R", "B:P"]);
        s.play("zz".into());
        s.receive(&ServerMessage::Error {
            code: ErrorCode::Illegal,
            message: "no".into(),
            game_id: Some("g".into()),
            next_ply: None,
        });
        assert!(s.pending.is_empty());
        assert!(s.refused.as_deref().unwrap().contains("zz"));
    }
}
