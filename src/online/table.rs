//! One online game as the server keeps it: the setup, the seats, the append-only decisions and
//! the rules' position after them. Pure: the server's store and sockets live elsewhere; this
//! decides what is legal, what each seat may see, and when the game has ended.
//!
//! At a simultaneous node (Hidden Intention) a seat's whole commitment is one ply: its decisions
//! joined by [`COMMITMENT_SEPARATOR`] (`A:<>a1b1;A:N;A:d4;A:/ne`). So the other seat and every
//! viewer learn one thing about it until both are in: that it is sealed; not how many decisions it
//! took (a knight, a swap), and no refusal they can provoke depends on it.

use super::protocol::{Ending, ErrorCode, GameSummary, WireMove};
use crate::games::{DynGame, GameKind, status_json};
use crate::rules::{EffectKind, Effects, Side, Status, ToMove};

/// Whether a decision's effects include a pie swap (the seats exchange colours).
pub fn swaps_seats(effects: &Effects) -> bool {
    effects.iter().any(|e| matches!(e.kind, EffectKind::PieSwap { .. }))
}

/// The most decisions an online game may have (far beyond any real game; a guard for the store).
pub const MAX_PLIES: usize = 20_000;

/// The longest decision text accepted (a whole commitment included).
pub const MAX_DECISION_BYTES: usize = 64;

/// Joins the decisions of one commitment sent whole (no game's decision contains it).
pub const COMMITMENT_SEPARATOR: char = ';';

/// The one refusal of a decision at a simultaneous node, whatever is wrong with it: a text that
/// depended on the other seat's sealed choice would tell it.
pub const NOT_A_COMMITMENT: &str =
    "that is not a whole commitment of your seat (send its decisions together, separated by ';')";

/// The atomic decisions of one ply: a commitment's parts, or the decision itself.
pub fn ply_decisions(ply: &str) -> impl Iterator<Item = &str> {
    ply.split(COMMITMENT_SEPARATOR)
}

/// Whether `decision`, played on `before`, leaves its maker's commitment at a simultaneous node
/// unfinished (more decisions of the same commitment must follow before it is sent whole).
pub fn leaves_commitment_open(before: &dyn DynGame, decision: &str) -> bool {
    if before.to_move() != Some(ToMove::Both) {
        return false;
    }
    let Some(maker) = Side::BOTH.into_iter().find(|&s| before.legal_decisions(s).iter().any(|d| d == decision)) else {
        return false;
    };
    let mut after = before.clone_box();
    if after.play_decision(decision).is_err() {
        return false;
    }
    // A sealed commitment and a resolved attempt both leave the maker nothing more to add to
    // this one; a reveal changes the public position, a stage does not.
    after.to_move() == Some(ToMove::Both)
        && after.position_text() == before.position_text()
        && !after.legal_decisions(maker).is_empty()
}

/// A refusal: the code the client gets and a reason in words.
pub type Refusal = (ErrorCode, String);

/// One online game.
pub struct Table {
    pub id: String,
    pub kind: GameKind,
    pub options: Vec<(String, String)>,
    pub code: String,
    /// The hash of each seat's token, once taken. A seat is a player: it starts as the side of its
    /// index and plays the other side after a pie swap.
    pub tokens: [Option<String>; 2],
    /// Every ply so far (a decision, or a whole commitment) and the seat that made it.
    pub moves: Vec<(Side, String)>,
    /// A pie swap has exchanged the seats' colours.
    pub swapped: bool,
    pub ending: Option<Ending>,
    pub rematch_offered_by: Option<Side>,
    /// The hash of the token the offerer holds in the rematch, once offered.
    pub rematch_offer_hash: Option<String>,
    /// The rematch's game, once both asked for it.
    pub rematch: Option<String>,
    start: Box<dyn DynGame>,
    position: Box<dyn DynGame>,
}

/// What a decision that passed the rules does to the followers' views.
#[derive(Debug, PartialEq, Eq)]
pub enum MoveCheck {
    /// The decision is new: store it at this ply.
    New,
    /// The same seat already stored this very decision at this ply (a retry): acknowledge again.
    Repeat,
}

impl Table {
    /// A new game; refuses options the game does not accept.
    pub fn new(id: String, kind: GameKind, options: &[(String, String)], code: String) -> Result<Table, Refusal> {
        let start = kind.open(options, None).map_err(|e| (ErrorCode::BadGame, e.to_string()))?;
        Ok(Table {
            id,
            kind,
            options: start.option_pairs(),
            code,
            tokens: [None, None],
            moves: Vec::new(),
            swapped: false,
            ending: None,
            rematch_offered_by: None,
            rematch_offer_hash: None,
            rematch: None,
            position: start.clone_box(),
            start,
        })
    }

    /// Rebuilds a stored game by replaying its decisions (the store is trusted but checked).
    pub fn restore(mut table: Table, moves: Vec<(Side, String)>, ending: Option<Ending>) -> Result<Table, String> {
        for (ply, (side, decision)) in moves.into_iter().enumerate() {
            table.check_move(side, ply as u32, &decision).map_err(|(_, why)| format!("stored ply {ply}: {why}"))?;
            table.apply(side, decision);
        }
        table.ending = ending.or(table.ending);
        Ok(table)
    }

    /// The seat a token's hash holds in this game.
    pub fn seat_of(&self, token_hash: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|s| self.tokens[s.index()].as_deref() == Some(token_hash))
    }

    pub fn joined(&self) -> [bool; 2] {
        [self.tokens[0].is_some(), self.tokens[1].is_some()]
    }

    /// The side `seat` plays now.
    pub fn side_of(&self, seat: Side) -> Side {
        Side::from_index(seat.index() ^ usize::from(self.swapped))
    }

    pub fn next_ply(&self) -> u32 {
        self.moves.len() as u32
    }

    /// Whether `seat` may play `decision` as decision number `ply`.
    pub fn check_move(&self, seat: Side, ply: u32, decision: &str) -> Result<MoveCheck, Refusal> {
        if let Some((by, stored)) = self.moves.get(ply as usize) {
            return if *by == seat && stored == decision {
                Ok(MoveCheck::Repeat)
            } else {
                Err((ErrorCode::StalePly, format!("ply {ply} is already played; the next is {}", self.next_ply())))
            };
        }
        if ply != self.next_ply() {
            return Err((ErrorCode::StalePly, format!("ply {ply} is not the next one ({})", self.next_ply())));
        }
        if self.ending.is_some() {
            return Err((ErrorCode::GameOver, "the game has ended".into()));
        }
        if self.moves.len() >= MAX_PLIES {
            return Err((ErrorCode::GameOver, format!("the game has reached {MAX_PLIES} decisions")));
        }
        let simultaneous = self.position.to_move() == Some(ToMove::Both);
        if decision.len() > MAX_DECISION_BYTES {
            let why = if simultaneous { NOT_A_COMMITMENT } else { "that is not a decision of this game" };
            return Err((ErrorCode::Illegal, why.into()));
        }
        let legal = self.position.legal_decisions(self.side_of(seat));
        if legal.is_empty() {
            return Err((ErrorCode::NotYourTurn, "it is not your turn".into()));
        }
        if simultaneous {
            return self.check_commitment(seat, decision);
        }
        if !legal.iter().any(|d| d == decision) {
            let mut trial = self.position.clone_box();
            let why = match trial.play_decision(decision) {
                Err(e) => e.to_string(),
                Ok(_) => format!("'{decision}' is not a decision of your seat"),
            };
            return Err((ErrorCode::Illegal, why));
        }
        Ok(MoveCheck::New)
    }

    /// Whether `commitment` is the seat's whole commitment at this simultaneous node: each part
    /// legal for the seat in turn, and nothing left to add after the last. Every failure has the
    /// same text ([`NOT_A_COMMITMENT`]).
    fn check_commitment(&self, seat: Side, commitment: &str) -> Result<MoveCheck, Refusal> {
        let side = self.side_of(seat);
        let refused = || (ErrorCode::Illegal, NOT_A_COMMITMENT.to_string());
        let mut trial = self.position.clone_box();
        for part in ply_decisions(commitment) {
            if trial.to_move() != Some(ToMove::Both) || !trial.legal_decisions(side).iter().any(|d| d == part) {
                return Err(refused());
            }
            trial.play_decision(part).map_err(|_| refused())?;
        }
        let open = trial.to_move() == Some(ToMove::Both)
            && trial.position_text() == self.position.position_text()
            && !trial.legal_decisions(side).is_empty();
        if open {
            return Err(refused());
        }
        Ok(MoveCheck::New)
    }

    /// Plays a checked ply. Returns the commitments it reveals (with itself) when it completes
    /// a simultaneous move whose earlier commitment was sealed.
    pub fn apply(&mut self, seat: Side, decision: String) -> Option<Vec<WireMove>> {
        let sealed_before = self.sealed_from();
        for part in ply_decisions(&decision) {
            let effects = self.position.play_decision(part).expect("checked decisions play");
            self.swapped ^= swaps_seats(&effects);
        }
        self.moves.push((seat, decision));
        if self.ending.is_none() {
            self.ending = self.natural_ending();
        }
        match (sealed_before, self.sealed_from()) {
            (Some(from), None) => Some((from..self.moves.len()).map(|ply| self.wire(ply, None)).collect()),
            _ => None,
        }
    }

    /// Where the sealed commitments start: at a simultaneous node, the plies whose decisions do
    /// not yet make up a whole move.
    fn sealed_from(&self) -> Option<usize> {
        if self.position.to_move() != Some(ToMove::Both) {
            return None;
        }
        let decisions: Vec<String> =
            self.moves.iter().flat_map(|(_, d)| ply_decisions(d).map(str::to_string)).collect();
        let mut pending = self.start.record_tokens(&decisions).map(|t| t.pending).unwrap_or(0);
        let mut from = self.moves.len();
        while pending > 0 && from > 0 {
            from -= 1;
            pending = pending.saturating_sub(ply_decisions(&self.moves[from].1).count());
        }
        (from < self.moves.len()).then_some(from)
    }

    /// Decision `ply` as `viewer` may see it (`None`: a read-only view).
    pub fn wire(&self, ply: usize, viewer: Option<Side>) -> WireMove {
        let (by, decision) = &self.moves[ply];
        let sealed = self.sealed_from().is_some_and(|from| ply >= from) && viewer != Some(*by);
        WireMove { ply: ply as u32, by: *by, decision: (!sealed).then(|| decision.clone()) }
    }

    /// Every decision from `from` on as `viewer` may see it.
    pub fn view(&self, viewer: Option<Side>, from: u32) -> Vec<WireMove> {
        let sealed = self.sealed_from();
        (from as usize..self.moves.len())
            .map(|ply| {
                let (by, decision) = &self.moves[ply];
                let hidden = sealed.is_some_and(|s| ply >= s) && viewer != Some(*by);
                WireMove { ply: ply as u32, by: *by, decision: (!hidden).then(|| decision.clone()) }
            })
            .collect()
    }

    /// Whether `seat` can make a decision now.
    pub fn can_decide(&self, seat: Side) -> bool {
        self.ending.is_none() && !self.position.legal_decisions(self.side_of(seat)).is_empty()
    }

    fn natural_ending(&self) -> Option<Ending> {
        match self.position.status() {
            Status::Ongoing => None,
            Status::Over(_) => Some(Ending {
                result: status_json(self.position.as_ref()),
                reason: self.position.end_reason().unwrap_or_else(|| "the game is over".into()),
            }),
        }
    }

    /// The ending when `seat` resigns: the side it plays now loses.
    pub fn resignation(&self, seat: Side) -> Ending {
        let side = self.side_of(seat);
        Ending {
            result: serde_json::json!({ "winner": self.position.side_name(side.opponent()) }),
            reason: format!("{} resigned", self.kind.side_name(side)),
        }
    }

    /// The summary the holder of `token` (the seat's) gets in "My online games".
    pub fn summary(&self, seat: Side, token: &str) -> GameSummary {
        GameSummary {
            game_id: self.id.clone(),
            token: token.to_string(),
            game: self.kind,
            options: self.options.clone(),
            seat,
            code: (!self.joined()[seat.opponent().index()]).then(|| self.code.clone()),
            opponent_joined: self.joined()[seat.opponent().index()],
            plies: self.next_ply(),
            your_turn: self.can_decide(seat) && self.joined() == [true, true],
            ended: self.ending.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(slug: &str) -> Table {
        let kind = GameKind::named(slug);
        let mut t = Table::new("g".into(), kind, &kind.quick_pairs(), "CODE".into()).unwrap();
        t.tokens = [Some("tf".into()), Some("ts".into())];
        t
    }

    fn first_legal(t: &Table, seat: Side) -> String {
        t.position.legal_decisions(seat)[0].clone()
    }

    #[test]
    fn only_the_seat_to_move_plays_the_next_ply_and_a_retry_is_recognised() {
        let mut t = table("red-stone");
        let d = first_legal(&t, Side::First);
        assert_eq!(t.check_move(Side::Second, 0, &d).unwrap_err().0, ErrorCode::NotYourTurn);
        assert_eq!(t.check_move(Side::First, 1, &d).unwrap_err().0, ErrorCode::StalePly);
        assert_eq!(t.check_move(Side::First, 0, "zz99").unwrap_err().0, ErrorCode::Illegal);
        assert_eq!(t.check_move(Side::First, 0, &d), Ok(MoveCheck::New));
        assert!(t.apply(Side::First, d.clone()).is_none());
        assert_eq!(t.check_move(Side::First, 0, &d), Ok(MoveCheck::Repeat));
        let other = first_legal(&t, Side::Second);
        assert_eq!(t.check_move(Side::Second, 0, &other).unwrap_err().0, ErrorCode::StalePly);
        assert_eq!(t.view(None, 0), vec![WireMove { ply: 0, by: Side::First, decision: Some(d) }]);
    }

    /// A whole commitment of `seat`: its first legal decision at each stage, joined.
    fn first_commitment(t: &Table, seat: Side) -> String {
        let mut trial = t.position.clone_box();
        let mut parts = Vec::new();
        loop {
            let d = trial.legal_decisions(seat)[0].clone();
            let open = leaves_commitment_open(trial.as_ref(), &d);
            trial.play_decision(&d).unwrap();
            parts.push(d);
            if !open {
                return parts.join(";");
            }
        }
    }

    #[test]
    fn hidden_intention_commitments_are_one_ply_sealed_for_the_other_seat_until_both_are_in() {
        let mut t = table("hidden-intention");
        let a = first_commitment(&t, Side::First);
        assert!(a.contains(';'), "a commitment takes several decisions: {a}");
        // Its parts one at a time are refused, with the one text whatever is wrong.
        let first_part = a.split(';').next().unwrap();
        let refusal = t.check_move(Side::First, 0, first_part).unwrap_err();
        assert_eq!(refusal, (ErrorCode::Illegal, NOT_A_COMMITMENT.to_string()));
        assert_eq!(t.check_move(Side::Second, 0, &a).unwrap_err(), refusal, "A's commitment is not B's");
        assert_eq!(t.check_move(Side::First, 0, &format!("{a};{first_part}")).unwrap_err(), refusal);
        assert_eq!(t.check_move(Side::First, 0, &a), Ok(MoveCheck::New));
        assert!(t.apply(Side::First, a.clone()).is_none(), "A alone completes nothing");
        assert_eq!(t.next_ply(), 1);
        assert_eq!(t.wire(0, Some(Side::Second)).decision, None, "B must not see A's commitment");
        assert_eq!(t.wire(0, None).decision, None, "a spectator must not see it either");
        assert_eq!(t.wire(0, Some(Side::First)).decision.as_deref(), Some(a.as_str()), "A sees its own");
        // A probe of A's state by B (A's decisions sent with B's seat) gets the same one text.
        assert_eq!(t.check_move(Side::Second, 1, first_part).unwrap_err(), refusal);
        assert_eq!(t.check_move(Side::First, 1, &a).unwrap_err().0, ErrorCode::NotYourTurn);
        let b = first_commitment(&t, Side::Second);
        let revealed = t.apply(Side::Second, b.clone()).expect("B's commitment reveals both");
        assert_eq!(revealed.iter().map(|m| m.decision.clone().unwrap()).collect::<Vec<_>>(), vec![a, b]);
        assert!(t.view(Some(Side::Second), 0).iter().all(|m| m.decision.is_some()));
        assert!(t.view(None, 0).iter().all(|m| m.decision.is_some()));
    }

    #[test]
    fn after_a_pie_swap_each_seat_plays_the_other_colour() {
        let mut t = table("red-stone");
        let first = first_legal(&t, Side::First);
        t.apply(Side::First, first);
        let legal = t.position.legal_decisions(Side::Second);
        let swap = legal.iter().find(|d| {
            let mut trial = t.position.clone_box();
            swaps_seats(&trial.play_decision(d).unwrap())
        });
        let swap = swap.expect("Red Stone offers the pie swap after the first stone").clone();
        assert_eq!(t.check_move(Side::Second, 1, &swap), Ok(MoveCheck::New));
        t.apply(Side::Second, swap);
        assert!(t.swapped);
        // The seat that swapped now holds the first player's colour; the creator moves next.
        assert_eq!(t.side_of(Side::Second), Side::First);
        let to_move = t.position.to_move();
        assert_eq!(to_move, Some(ToMove::One(Side::Second)), "after the swap the other colour moves");
        assert!(t.can_decide(Side::First) && !t.can_decide(Side::Second));
        let d = t.position.legal_decisions(Side::Second)[0].clone();
        assert_eq!(t.check_move(Side::Second, 2, &d).unwrap_err().0, ErrorCode::NotYourTurn);
        assert_eq!(t.check_move(Side::First, 2, &d), Ok(MoveCheck::New));
        // The creator resigns: it plays the second colour now, so the first colour wins.
        let ending = t.resignation(Side::First);
        assert_eq!(ending.result["winner"], serde_json::json!(t.position.side_name(Side::First)));
        assert!(ending.reason.starts_with(t.kind.side_name(Side::Second)), "{}", ending.reason);
    }

    #[test]
    fn restoring_replays_and_resigning_names_the_winner() {
        let mut t = table("gravel");
        let d = first_legal(&t, Side::First);
        t.apply(Side::First, d.clone());
        let again = Table::restore(table("gravel"), vec![(Side::First, d)], None).unwrap();
        assert_eq!(again.next_ply(), 1);
        assert!(Table::restore(table("gravel"), vec![(Side::Second, "a1".into())], None).is_err());
        let ending = t.resignation(Side::First);
        assert!(ending.reason.contains("resigned"));
        assert_eq!(ending.result["winner"], serde_json::json!(t.position.side_name(Side::Second)));
    }
}
