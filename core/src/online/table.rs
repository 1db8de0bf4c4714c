//! One online game as the server keeps it: the setup, the seats, the append-only decisions and
//! the rules' position after them. Pure: the server's store and sockets live elsewhere; this
//! decides what is legal, what each seat may see, and when the game has ended.
//!
//! At a simultaneous node (Hidden Intention) a seat's whole commitment is one ply: its decisions
//! joined by [`COMMITMENT_SEPARATOR`] (`A:<>a1b1;A:N;A:d4;A:/ne`). So the other seat and every
//! viewer learn one thing about it until both are in: that it is sealed; not how many decisions it
//! took (a knight, a swap), and no refusal they can provoke depends on it.

use super::clock::{ClockView, GameClock, LIVE_GRACE_MS, Pauses, no_pauses};
use super::directory::TimeControl;
use super::protocol::{EndKind, Ending, ErrorCode, GameSummary, WireMove};
use super::timeout::{SEARCH_BUDGET, could_still_win};
use crate::games::{DynGame, GameKind};
use crate::rules::{Side, ToMove};
use crate::session::{Match, Viewer};

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
    let Some(maker) = Side::BOTH.into_iter().find(|&s| before.may_decide(s, decision)) else {
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

/// One online game: a match, the seats' tokens, and how the game's plies group its decisions.
pub struct Table {
    pub id: String,
    pub kind: GameKind,
    pub options: Vec<(String, String)>,
    pub code: String,
    /// The hash of each seat's token, once taken.
    pub tokens: [Option<String>; 2],
    /// The game: its decisions, made by seats, the seating after pie swaps, what each viewer sees.
    pub game: Match,
    /// Where each ply (a decision, or a whole commitment) ends in the match's decisions.
    ply_ends: Vec<usize>,
    pub ending: Option<Ending>,
    pub rematch_offered_by: Option<Side>,
    /// The hash of the token the offerer holds in the rematch, once offered.
    pub rematch_offer_hash: Option<String>,
    /// The rematch's game, once both asked for it.
    pub rematch: Option<String>,
    /// Each seat's signed-in player: (id, name).
    pub players: [Option<(String, String)>; 2],
    pub rated: bool,
    /// Further tokens' hashes that hold a seat (a player's other devices).
    pub grants: Vec<(String, Side)>,
    /// The game's time control (`None`: untimed) and its clocks, once both seats are taken.
    pub time_control: Option<TimeControl>,
    pub clock: Option<GameClock>,
    /// When each seat's clock stands still (its player's vacations).
    pub pauses: Pauses,
}

/// A stored ply: its seat, its text, and when it was stored (server milliseconds).
pub type StoredPly = (Side, String, i64);

/// What a decision that passed the rules does to the followers' views.
#[derive(Debug, PartialEq, Eq)]
pub enum MoveCheck {
    /// The decision is new: store it at this ply.
    New,
    /// The same seat already stored this very decision at this ply (a retry): acknowledge again.
    Repeat,
}

/// The viewer a follower of a seat (`None`: a read-only view) is to the match.
fn viewer(seat: Option<Side>) -> Viewer {
    seat.map_or(Viewer::Spectator, Viewer::Seat)
}

impl Table {
    /// A new game; refuses options the game does not accept.
    pub fn new(id: String, kind: GameKind, options: &[(String, String)], code: String) -> Result<Table, Refusal> {
        let game = Match::open(kind, options, None).map_err(|e| (ErrorCode::BadGame, e.to_string()))?;
        Ok(Table {
            id,
            kind,
            options: game.start().option_pairs(),
            code,
            tokens: [None, None],
            game,
            ply_ends: Vec::new(),
            ending: None,
            rematch_offered_by: None,
            rematch_offer_hash: None,
            rematch: None,
            players: [None, None],
            rated: false,
            grants: Vec::new(),
            time_control: None,
            clock: None,
            pauses: no_pauses(),
        })
    }

    /// Rebuilds a stored timed game: its plies with when each was stored, its clocks started
    /// at `clock_start` (when its second seat was taken).
    pub fn restore_timed(
        mut table: Table,
        moves: Vec<StoredPly>,
        ending: Option<Ending>,
        clock_start: Option<i64>,
        ended_ms: Option<i64>,
    ) -> Result<Table, String> {
        for (ply, (seat, decision, at)) in moves.into_iter().enumerate() {
            if let Some(start) = clock_start.filter(|&start| start <= at) {
                table.start_clock(start);
            }
            table.check_move(seat, ply as u32, &decision).map_err(|(_, why)| format!("stored ply {ply}: {why}"))?;
            table.apply_at(seat, decision, at);
        }
        if let Some(start) = clock_start {
            table.start_clock(start);
        }
        if let Some(ending) = ending {
            table.end(ending);
        }
        if table.ending.is_some()
            && let Some(clock) = table.clock.as_mut()
        {
            // Ended by a resignation or a timeout: the clocks stopped then.
            clock.stop(ended_ms.unwrap_or(i64::MAX), &table.pauses);
        }
        Ok(table)
    }

    /// Stops the clocks at `now` (the game ended).
    pub fn stop_clock(&mut self, now: i64) {
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now, &self.pauses);
        }
    }

    /// Which seats' decisions are due now (a clock runs only once both seats are taken).
    pub fn due(&self) -> [bool; 2] {
        let both = self.joined() == [true, true];
        [Side::First, Side::Second].map(|seat| both && self.can_decide(seat))
    }

    /// Starts the clocks of a timed game (its second seat was just taken), once.
    pub fn start_clock(&mut self, now: i64) {
        if self.clock.is_some() || self.ending.is_some() {
            return;
        }
        let Some(control) = self.time_control else { return };
        let mut clock = GameClock::new(control);
        clock.set_due(self.due(), now, &self.pauses);
        self.clock = Some(clock);
    }

    /// `apply` at server time `at`: the clocks follow (the mover's stops, the next one's starts).
    pub fn apply_at(&mut self, seat: Side, ply: String, at: i64) -> Option<Vec<WireMove>> {
        // A commitment is the seat's whole turn, even when the next one starts at once.
        let commitment = self.game.position().to_move() == Some(ToMove::Both);
        let revealed = self.apply(seat, ply);
        let due = self.due();
        let ended = self.ending.is_some();
        if let Some(clock) = self.clock.as_mut() {
            if commitment {
                let mut turn_over = clock.running();
                turn_over[seat.index()] = false;
                clock.set_due(turn_over, at, &self.pauses);
            }
            if ended {
                // The last move's time counts; no increment after the end.
                clock.set_due(due, at, &self.pauses);
                clock.stop(at, &self.pauses);
            } else {
                clock.set_due(due, at, &self.pauses);
            }
        }
        revealed
    }

    /// The clocks as followers are told them at `now`, with what each seat's opponent may claim
    /// (`away_ms`: how long each seat has been disconnected, in a live game).
    pub fn clock_view(&self, now: i64, away_ms: [Option<i64>; 2]) -> Option<ClockView> {
        let clock = self.clock.as_ref()?;
        let mut view = clock.view(now, &self.pauses);
        if clock.is_live() && self.ending.is_none() {
            view.claimable_in_ms = away_ms.map(|away| away.map(|ms| (LIVE_GRACE_MS - ms).max(0)));
        }
        if self.ending.is_some() {
            view.claimable_in_ms = [None, None];
        }
        Some(view)
    }

    /// The live seat whose time has run out by `now`, if any.
    pub fn flagged(&self, now: i64) -> Option<Side> {
        let clock = self.clock.as_ref().filter(|c| c.is_live())?;
        if self.ending.is_some() {
            return None;
        }
        clock.out_of_time(now, &self.pauses)
    }

    /// The ending when `seat` runs out of time or is gone (`why`): it loses, unless its opponent
    /// could not possibly win from here, which is a draw.
    pub fn timeout_ending(&self, seat: Side, why: &str) -> Ending {
        let side = self.game.side_of(seat);
        let position = self.game.position();
        if could_still_win(position, side.opponent(), SEARCH_BUDGET) {
            Ending {
                result: serde_json::json!({ "winner": position.side_name(side.opponent()) }),
                reason: why.to_string(),
                how: Some(EndKind::Time),
            }
        } else {
            Ending {
                result: serde_json::json!("draw"),
                reason: format!("{why}, but {} could not have won", self.kind.side_name(side.opponent())),
                how: Some(EndKind::Time),
            }
        }
    }

    /// Rebuilds a stored game by replaying its plies (the store is trusted but checked).
    pub fn restore(mut table: Table, moves: Vec<(Side, String)>, ending: Option<Ending>) -> Result<Table, String> {
        for (ply, (seat, decision)) in moves.into_iter().enumerate() {
            table.check_move(seat, ply as u32, &decision).map_err(|(_, why)| format!("stored ply {ply}: {why}"))?;
            table.apply(seat, decision);
        }
        if let Some(ending) = ending {
            table.end(ending);
        }
        Ok(table)
    }

    /// Ends the game as `ending` says: kept as the server's words for the clients, and in the
    /// match (a resignation, the clock's ending), which then holds the result like any other.
    pub fn end(&mut self, ending: Ending) {
        let winner = self.winner_seat(&ending);
        // The rules' own ending is in the match already; a match already over refuses, and
        // stays as it is.
        let _already_over = match (ending.kind(), winner) {
            (EndKind::Resignation, Some(winner)) => self.game.resign(winner.opponent()).is_err(),
            (EndKind::Time, _) => self.game.end_on_time(winner, ending.reason.clone()).is_err(),
            (EndKind::Resignation, None) | (EndKind::Rules, _) => true,
        };
        self.ending = Some(ending);
    }

    /// The seat a token's hash holds in this game.
    pub fn seat_of(&self, token_hash: &str) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| self.tokens[s.index()].as_deref() == Some(token_hash))
            .or_else(|| self.grants.iter().find(|(hash, _)| hash == token_hash).map(|(_, seat)| *seat))
    }

    /// The players' names by seat.
    pub fn names(&self) -> [Option<String>; 2] {
        self.players.clone().map(|p| p.map(|(_, name)| name))
    }

    /// The seat that won an ending (`None`: a draw), through the seating (a pie swap changes
    /// which side a seat plays).
    pub fn winner_seat(&self, ending: &Ending) -> Option<Side> {
        let winner = ending.result.get("winner")?.as_str()?;
        Side::BOTH.into_iter().find(|seat| self.game.position().side_name(self.game.side_of(*seat)) == winner)
    }

    pub fn joined(&self) -> [bool; 2] {
        [self.tokens[0].is_some(), self.tokens[1].is_some()]
    }

    pub fn next_ply(&self) -> u32 {
        self.ply_ends.len() as u32
    }

    /// The decisions of ply `ply`, in the match.
    fn ply_range(&self, ply: usize) -> std::ops::Range<usize> {
        let start = if ply == 0 { 0 } else { self.ply_ends[ply - 1] };
        start..self.ply_ends[ply]
    }

    /// Ply `ply` as it was stored: its seat and its text.
    pub fn ply(&self, ply: usize) -> (Side, String) {
        let played = &self.game.played()[self.ply_range(ply)];
        let text: Vec<&str> = played.iter().map(|p| p.decision.as_str()).collect();
        (played[0].seat, text.join(&COMMITMENT_SEPARATOR.to_string()))
    }

    /// Whether `seat` may play `decision` as ply number `ply`.
    pub fn check_move(&self, seat: Side, ply: u32, decision: &str) -> Result<MoveCheck, Refusal> {
        if (ply as usize) < self.ply_ends.len() {
            let (by, stored) = self.ply(ply as usize);
            return if by == seat && stored == decision {
                Ok(MoveCheck::Repeat)
            } else {
                Err((ErrorCode::StalePly, format!("ply {ply} is already played; the next is {}", self.next_ply())))
            };
        }
        if ply != self.next_ply() {
            return Err((ErrorCode::StalePly, format!("ply {ply} is not the next one ({})", self.next_ply())));
        }
        if self.ending.is_some() || self.game.is_over() {
            return Err((ErrorCode::GameOver, "the game has ended".into()));
        }
        if self.game.len() >= MAX_PLIES {
            return Err((ErrorCode::GameOver, format!("the game has reached {MAX_PLIES} decisions")));
        }
        let simultaneous = self.game.position().to_move() == Some(ToMove::Both);
        if decision.len() > MAX_DECISION_BYTES {
            let why = if simultaneous { NOT_A_COMMITMENT } else { "that is not a decision of this game" };
            return Err((ErrorCode::Illegal, why.into()));
        }
        let legal = self.game.legal_for(seat);
        if legal.is_empty() {
            return Err((ErrorCode::NotYourTurn, "it is not your turn".into()));
        }
        if simultaneous {
            return self.check_commitment(seat, decision);
        }
        if !legal.iter().any(|d| d == decision) {
            let mut trial = self.game.position().clone_box();
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
        let side = self.game.side_of(seat);
        let refused = || (ErrorCode::Illegal, NOT_A_COMMITMENT.to_string());
        let now = self.game.position();
        let mut trial = now.clone_box();
        for part in ply_decisions(commitment) {
            if trial.to_move() != Some(ToMove::Both) || !trial.may_decide(side, part) {
                return Err(refused());
            }
            trial.play_decision(part).map_err(|_| refused())?;
        }
        let open = trial.to_move() == Some(ToMove::Both)
            && trial.position_text() == now.position_text()
            && !trial.legal_decisions(side).is_empty();
        if open {
            return Err(refused());
        }
        Ok(MoveCheck::New)
    }

    /// Plays a checked ply. Returns the plies it reveals (with itself) when it completes a
    /// simultaneous move whose earlier commitment was sealed.
    pub fn apply(&mut self, seat: Side, ply: String) -> Option<Vec<WireMove>> {
        let mut revealed = None;
        for part in ply_decisions(&ply) {
            let decided = self.game.decide(seat, part, 0).expect("checked decisions play");
            revealed = revealed.or(decided.revealed);
        }
        self.ply_ends.push(self.game.len());
        if self.ending.is_none() {
            self.ending = self.natural_ending();
        }
        let from = self.ply_at(revealed?.start);
        Some((from..self.ply_ends.len()).map(|ply| self.wire(ply, None)).collect())
    }

    /// The ply that holds decision `index`.
    fn ply_at(&self, index: usize) -> usize {
        self.ply_ends.partition_point(|&end| end <= index)
    }

    /// Ply `ply` as a follower of `seat` (`None`: a read-only view) may see it.
    pub fn wire(&self, ply: usize, seat: Option<Side>) -> WireMove {
        let (by, decision) = self.ply(ply);
        let seen = self.game.may_see(self.ply_range(ply).start, viewer(seat));
        WireMove { ply: ply as u32, by, decision: seen.then_some(decision) }
    }

    /// Every ply from `from` on as a follower of `seat` may see it.
    pub fn view(&self, seat: Option<Side>, from: u32) -> Vec<WireMove> {
        (from as usize..self.ply_ends.len()).map(|ply| self.wire(ply, seat)).collect()
    }

    /// Whether `seat` can make a decision now.
    pub fn can_decide(&self, seat: Side) -> bool {
        self.ending.is_none() && !self.game.legal_for(seat).is_empty()
    }

    fn natural_ending(&self) -> Option<Ending> {
        let position = self.game.position();
        Some(Ending {
            result: self.game.result()?,
            reason: position.end_reason().unwrap_or_else(|| "the game is over".into()),
            how: Some(EndKind::Rules),
        })
    }

    /// The ending when `seat` resigns: the side it plays now loses.
    pub fn resignation(&self, seat: Side) -> Ending {
        let side = self.game.side_of(seat);
        Ending {
            result: serde_json::json!({ "winner": self.game.position().side_name(side.opponent()) }),
            reason: format!("{} resigned", self.kind.side_name(side)),
            how: Some(EndKind::Resignation),
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
        t.game.position().legal_decisions(seat)[0].clone()
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

    #[test]
    fn a_resignation_and_the_clock_s_ending_are_the_match_s_result_too() {
        let mut t = table("red-stone");
        let d = first_legal(&t, Side::First);
        t.apply(Side::First, d);
        let ending = t.resignation(Side::Second);
        t.end(ending.clone());
        assert_eq!(t.ending, Some(ending));
        assert_eq!(t.game.resigned(), Some(Side::Second));
        assert_eq!(t.game.result().unwrap()["reason"], "resignation");
        assert!(!t.can_decide(Side::Second) && t.game.legal_for(Side::Second).is_empty());

        let mut t = table("red-stone");
        let d = first_legal(&t, Side::First);
        t.apply(Side::First, d);
        t.end(t.timeout_ending(Side::Second, "White ran out of time"));
        assert_eq!(
            t.game.stopped(),
            Some(&crate::session::Stopped::OnTime { winner: Some(Side::First), why: "White ran out of time".into() })
        );
        assert_eq!(t.game.result().unwrap()["reason"], "time");
    }

    /// A whole commitment of `seat`: its first legal decision at each stage, joined.
    fn first_commitment(t: &Table, seat: Side) -> String {
        let mut trial = t.game.position().clone_box();
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
        let legal = t.game.position().legal_decisions(Side::Second);
        let swap = legal.iter().find(|d| {
            let mut trial = t.game.position().clone_box();
            crate::session::Seating::default().after(&trial.play_decision(d).unwrap()).is_swapped()
        });
        let swap = swap.expect("Red Stone offers the pie swap after the first stone").clone();
        assert_eq!(t.check_move(Side::Second, 1, &swap), Ok(MoveCheck::New));
        t.apply(Side::Second, swap);
        assert!(t.game.seats_swapped());
        // The seat that swapped now holds the first player's colour; the creator moves next.
        assert_eq!(t.game.side_of(Side::Second), Side::First);
        let to_move = t.game.position().to_move();
        assert_eq!(to_move, Some(ToMove::One(Side::Second)), "after the swap the other colour moves");
        assert!(t.can_decide(Side::First) && !t.can_decide(Side::Second));
        let d = t.game.position().legal_decisions(Side::Second)[0].clone();
        assert_eq!(t.check_move(Side::Second, 2, &d).unwrap_err().0, ErrorCode::NotYourTurn);
        assert_eq!(t.check_move(Side::First, 2, &d), Ok(MoveCheck::New));
        // The creator resigns: it plays the second colour now, so the first colour wins.
        let ending = t.resignation(Side::First);
        assert_eq!(ending.result["winner"], serde_json::json!(t.game.position().side_name(Side::First)));
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
        assert_eq!(ending.result["winner"], serde_json::json!(t.game.position().side_name(Side::Second)));
    }
}
