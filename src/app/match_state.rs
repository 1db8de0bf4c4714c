//! The game in progress: the app's resource around the match (`session::Match`: the position,
//! the decisions with who made them, the seating, undo and redo, resignation, the record), with
//! who plays each seat here. It changes only through `MatchCommand` messages (and chosen
//! decisions) in the ordered systems, and a new one takes the board through a `NewMatch`
//! message; menus and panels only send those. Entities on the board are only a projection of it.

use crate::ai::Level;
use crate::games::{DynGame, status_json};
use crate::rules::{Side, ToMove};
use crate::save::{GameRecord, Player, RecordedMove};
use crate::session::{EndKind, Happened, Match, Refusal, Stopped};
use bevy::prelude::*;

/// A change of the match other than a chosen decision (those go through `DecisionChosen`), applied
/// in `AppSystems::Intent` like a decision, so that the board, the effects, the sounds and the
/// autosave follow one path whatever changed the match.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub enum MatchCommand {
    /// Takes back the last decision (or a resignation).
    Undo,
    /// Takes back decisions until a person on this device is to act again.
    UndoToPerson,
    Redo,
    /// This side gives the game up.
    Resign(Side),
    /// Shows the position after this many decisions (a replay's jump).
    GoTo(usize),
    /// Forgets the decisions taken back (playing on from a replayed position).
    DropRedo,
    /// A decision made elsewhere (the online opponent's, or a revealed commitment) that is not the
    /// acting side's: played at once, without animation.
    PlayQuietly(String),
    /// The game server ended an online game on the clock (a flag, a claim): this side won
    /// (`None`: a draw), for the reason given in words.
    EndOnTime(Option<Side>, String),
    /// Who sits in each seat from now on (see [`CurrentMatch::players`]): nobody while a game is
    /// replayed, its players again when it is played on from the replay.
    Reseat([Option<Level>; 2]),
}

/// A new match takes the board in place of the current one (the setup, Continue, a save, a
/// lesson, an online game, "Play again"): put there in `AppSystems::NewMatch`, before anything
/// chooses a decision in that frame.
#[derive(Message)]
pub struct NewMatch(pub Box<CurrentMatch>);

/// The game being played.
#[derive(Resource)]
pub struct CurrentMatch {
    /// The match itself.
    pub session: Match,
    /// The last refusal or problem, shown until the next decision.
    pub message: Option<String>,
    /// Seconds since 1970 when the match started.
    pub started_unix: u64,
    /// Who sits in each seat: `None` a person on this device, `Some(level)` the computer. Seat 0
    /// starts with `Side::First`; after a pie swap the seats play the other colours.
    pub players: [Option<Level>; 2],
    /// The seat played from another device in an online game (`Side::First`: seat 0), neither a
    /// person here nor the computer: its decisions arrive from the game server, the other seat is
    /// the person here. A seat, not a colour: a pie swap gives it the other colour.
    pub remote: Option<Side>,
    /// An online game watched from this device: both seats are played elsewhere (`remote` names
    /// the first), nobody here decides.
    pub watching: bool,
    /// The seat a lesson plays from its script (a seat, like `remote`): neither a person here nor
    /// the computer.
    pub scripted: Option<Side>,
    /// A lesson or a practice position: not kept as a game in progress or finished.
    pub exercise: bool,
    /// The seed of the computer's choices in this match.
    pub seed: u64,
    /// Where the match is kept while it goes on (`games/….json`); `None` until its first save.
    pub slot: Option<String>,
}

impl CurrentMatch {
    pub fn new(game: Box<dyn DynGame>) -> Self {
        CurrentMatch::of(Match::new(game))
    }

    /// The app's resource around `session`, started now.
    pub fn of(session: Match) -> Self {
        let started_unix =
            web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        CurrentMatch {
            session,
            message: None,
            started_unix,
            players: [None, None],
            remote: None,
            watching: false,
            scripted: None,
            exercise: false,
            seed: started_unix,
            slot: None,
        }
    }

    /// The position now.
    pub fn position(&self) -> &dyn DynGame {
        self.session.position()
    }

    /// The position the match started from.
    pub fn start(&self) -> &dyn DynGame {
        self.session.start()
    }

    /// How many decisions have been played.
    pub fn len(&self) -> usize {
        self.session.len()
    }

    pub fn is_empty(&self) -> bool {
        self.session.is_empty()
    }

    /// The decisions played, in notation.
    pub fn history(&self) -> Vec<String> {
        self.session.decisions().map(str::to_string).collect()
    }

    /// Decision `i` (0-based).
    pub fn decision(&self, i: usize) -> &str {
        &self.session.played()[i].decision
    }

    /// The side that made decision `i`.
    pub fn maker(&self, i: usize) -> Option<Side> {
        self.session.played().get(i).map(|p| p.side)
    }

    /// The side that made the last decision.
    pub fn last_maker(&self) -> Option<Side> {
        self.session.played().last().map(|p| p.side)
    }

    /// The position before decision `i` of the history (0-based).
    pub fn position_before(&self, i: usize) -> Option<&dyn DynGame> {
        self.session.position_before(i)
    }

    /// A pie swap exchanged the seats' colours.
    pub fn seats_swapped(&self) -> bool {
        self.session.seats_swapped()
    }

    /// The side that resigned.
    pub fn resigned(&self) -> Option<Side> {
        self.session.resigned().map(|seat| self.session.side_of(seat))
    }

    /// The side that won when the clock ended the game (`None`: a draw), and why in words.
    pub fn ended_on_time(&self) -> Option<(Option<Side>, &str)> {
        match self.session.stopped()? {
            Stopped::OnTime { winner, why } => Some((winner.map(|seat| self.session.side_of(seat)), why.as_str())),
            Stopped::Resigned(_) => None,
        }
    }

    /// The match is over: the rules ended it, a side resigned or the clock ended it.
    pub fn is_over(&self) -> bool {
        self.session.is_over()
    }

    /// The side whose decision the board is waiting for: the side to move, or at a simultaneous
    /// node the first side that still has to seal its choice.
    pub fn acting_side(&self) -> Option<Side> {
        if self.session.stopped().is_some() {
            return None;
        }
        let game = self.position();
        match game.to_move()? {
            ToMove::One(side) => Some(side),
            ToMove::Both => {
                // The computer seals first, so it can never see a person's sealed choice; online
                // the person here chooses first (the opponent's choice arrives sealed anyway).
                let mut order = Side::BOTH;
                // A lesson's script answers the learner's choice: the learner seals first.
                let computer_second = self.player_of(Side::Second).is_some() && self.player_of(Side::First).is_none();
                if computer_second || self.is_remote(Side::First) || self.is_scripted(Side::First) {
                    order.reverse();
                }
                order.into_iter().find(|&s| !game.legal_decisions(s).is_empty()).or(Some(order[0]))
            }
        }
    }

    /// The computer's level when the acting side is played by the computer.
    pub fn computer_to_act(&self) -> Option<(Side, Level)> {
        if self.is_over() {
            return None;
        }
        let side = self.acting_side()?;
        self.player_of(side).map(|level| (side, level))
    }

    /// The seat playing `side` now (0 or 1).
    pub fn seat_of(&self, side: Side) -> usize {
        self.session.seat_of(side).index()
    }

    /// Who plays `side` now: a person (`None`) or the computer.
    pub fn player_of(&self, side: Side) -> Option<Level> {
        self.players[self.seat_of(side)]
    }

    /// A person on this device plays `side` (not the computer, not an online opponent).
    pub fn person_plays(&self, side: Side) -> bool {
        self.player_of(side).is_none() && !self.is_remote(side) && !self.is_scripted(side)
    }

    /// A lesson's script plays `side` now.
    pub fn is_scripted(&self, side: Side) -> bool {
        self.scripted.is_some_and(|seat| seat.index() == self.seat_of(side))
    }

    /// An online opponent plays `side` now.
    pub fn is_remote(&self, side: Side) -> bool {
        self.watching || self.remote.is_some_and(|seat| seat.index() == self.seat_of(side))
    }

    /// The legal decisions of the acting side.
    pub fn decisions_now(&self) -> Vec<String> {
        self.acting_side().map(|s| self.position().legal_decisions(s)).unwrap_or_default()
    }

    /// Milliseconds since the match started (its records' move times).
    pub fn elapsed_ms(&self) -> u64 {
        let now = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_millis() as u64);
        now.unwrap_or(0).saturating_sub(self.started_unix.saturating_mul(1000))
    }

    pub fn can_undo(&self) -> bool {
        !self.session.is_empty() || self.session.resigned().is_some()
    }

    pub fn can_redo(&self) -> bool {
        self.session.redo_len() > 0
    }

    /// How many decisions taken back can be played again.
    pub fn redo_len(&self) -> usize {
        self.session.redo_len()
    }

    /// The side a person resigns for: the acting side when a person plays it, otherwise the
    /// person's seat against the computer. `None` when the match is over or only computers play.
    pub fn resigning_side(&self) -> Option<Side> {
        if self.is_over() {
            return None;
        }
        if self.remote.is_some() {
            return Side::BOTH.into_iter().find(|&s| !self.is_remote(s));
        }
        let acting = self.acting_side()?;
        if self.player_of(acting).is_none() {
            return Some(acting);
        }
        Side::BOTH.into_iter().find(|&s| self.player_of(s).is_none())
    }

    /// The one decision left to a person in the middle of their turn when it names no space (Gravel's
    /// "end" after the last allowed action): the board plays it for them.
    pub fn forced_continuation(&self) -> Option<String> {
        let side = self.acting_side()?;
        if self.is_over() || !self.person_plays(side) || self.last_maker() != Some(side) {
            return None;
        }
        match self.position().to_move()? {
            ToMove::Both => None,
            ToMove::One(_) => match self.position().legal_described(side).as_slice() {
                [only] if only.is_spaceless() => Some(only.token.clone()),
                _ => None,
            },
        }
    }

    /// Makes the acting side's decision (what `AppSystems::Place` does with a chosen decision).
    pub fn decide(&mut self, decision: &str) -> Result<crate::session::Decided, Refusal> {
        let side = self.acting_side().ok_or_else(|| Refusal("the game is over".into()))?;
        let at_ms = self.elapsed_ms();
        let decided = self.session.decide(self.session.seat_of(side), decision, at_ms)?;
        self.message = None;
        Ok(decided)
    }

    /// Carries out a command; a refusal leaves the match as it was.
    pub fn apply(&mut self, command: MatchCommand) -> Result<Vec<Happened>, Refusal> {
        let mut happened = Vec::new();
        match command {
            MatchCommand::Undo => happened.push(self.session.undo()?),
            MatchCommand::UndoToPerson => {
                happened.push(self.session.undo()?);
                let withdrew = matches!(happened[0], Happened::ResignationWithdrawn);
                // Back to a person's decision: past the computer's and a lesson's script's
                // replies (which would only be played again).
                let script_acts = |m: &Self| m.acting_side().is_some_and(|side| m.is_scripted(side));
                while !withdrew
                    && !self.session.is_empty()
                    && ((self.computer_to_act().is_some() && self.players.iter().any(Option::is_none))
                        || script_acts(self)
                        || self.forced_continuation().is_some())
                {
                    happened.push(self.session.undo()?);
                }
            }
            MatchCommand::Redo => happened.push(self.session.redo()?),
            MatchCommand::Resign(side) => {
                happened.push(self.session.resign(self.session.seat_of(side))?);
                self.session.drop_redo();
            }
            MatchCommand::EndOnTime(winner, why) => {
                let seat = winner.map(|side| self.session.seat_of(side));
                happened.push(self.session.end_on_time(seat, why)?);
            }
            MatchCommand::GoTo(n) => happened.push(self.session.go_to(n)),
            MatchCommand::DropRedo => self.session.drop_redo(),
            MatchCommand::Reseat(players) => self.players = players,
            MatchCommand::PlayQuietly(decision) => {
                let seat = self
                    .session
                    .seat_for(&decision)
                    .or_else(|| self.acting_side().map(|s| self.session.seat_of(s)))
                    .ok_or_else(|| Refusal(format!("'{decision}' is no seat's decision here")))?;
                let at_ms = self.elapsed_ms();
                happened.push(Happened::Decided(self.session.decide(seat, &decision, at_ms)?));
            }
        }
        self.message = None;
        Ok(happened)
    }

    /// Whose decision it is, in words.
    pub fn turn_text(&self) -> String {
        let g = self.position();
        match (g.to_move(), self.acting_side()) {
            (None, _) | (_, None) => format!("Game over — {}", self.outcome_text()),
            (Some(ToMove::Both), Some(s)) => format!("{} chooses in secret", side_label(g, s)),
            (Some(ToMove::One(_)), Some(s)) => format!("{} to move", side_label(g, s)),
        }
    }

    /// "White resigns: Black wins", "Black wins", "draw" ("ongoing" while the game goes on).
    pub fn outcome_text(&self) -> String {
        let Some(end) = self.session.end() else { return "ongoing".to_string() };
        let label = |side: Side| side_label(self.position(), side);
        match (end.how, end.winner) {
            (EndKind::Resignation, Some(winner)) => {
                format!("{} resigns: {} wins", label(winner.opponent()), label(winner))
            }
            (_, Some(winner)) => format!("{} wins", label(winner)),
            (_, None) => "draw".to_string(),
        }
    }

    /// The record of this match: its start, players, seed, decisions with their times, result.
    pub fn record(&self) -> GameRecord {
        let player = |p: Option<Level>| p.map_or(Player::Human, |l| Player::Computer(l.slug().to_string()));
        let players = [player(self.players[0]), player(self.players[1])];
        let mut record = GameRecord::new(self.start(), players, self.seed, self.started_unix);
        // A match begun from a position other than its options' initial one (an example, a
        // position played on from) records that position, so the record replays.
        record.start = self.session.start_text().map(str::to_string);
        record.moves = self
            .session
            .played()
            .iter()
            .map(|p| RecordedMove { decision: p.decision.clone(), at_ms: p.at_ms })
            .collect();
        record.result = Some(self.session.result().unwrap_or_else(|| status_json(self.position())));
        record
    }

    /// The match a record describes, at its last move, with its players and seed; an illegal move
    /// is reported with its number.
    pub fn from_record(record: &GameRecord) -> Result<CurrentMatch, String> {
        let session = record.load().map_err(|e| e.to_string())?;
        let mut current = CurrentMatch::of(session);
        current.seed = record.seed;
        current.started_unix = record.started_unix;
        let level = |p: &Player| match p {
            Player::Human => None,
            Player::Computer(l) => l.parse().ok(),
        };
        current.players = [level(&record.players[0]), level(&record.players[1])];
        Ok(current)
    }
}

/// A side's name for people ("Black", "Light", "White").
pub fn side_label(game: &dyn DynGame, side: Side) -> String {
    game.kind().side_name(side).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;

    #[test]
    fn the_server_s_time_ending_is_the_match_s_result_as_shown_and_recorded() {
        let kind = GameKind::named("red-stone");
        let mut current = CurrentMatch::of(Match::open(kind, &kind.quick_pairs(), None).unwrap());
        let first = current.decisions_now()[0].clone();
        current.decide(&first).unwrap();
        let why = "White ran out of time".to_string();
        current.apply(MatchCommand::EndOnTime(Some(Side::First), why.clone())).unwrap();
        assert!(current.is_over());
        assert_eq!(current.acting_side(), None);
        assert_eq!(current.ended_on_time(), Some((Some(Side::First), why.as_str())));
        assert_eq!(current.outcome_text(), "Black wins");
        assert_eq!(current.turn_text(), "Game over — Black wins");
        let end = current.session.end().unwrap();
        assert_eq!((end.winner, end.how), (Some(Side::First), crate::session::EndKind::Time));
        let record = current.record();
        assert_eq!(record.result, Some(serde_json::json!({ "winner": "b", "reason": "time" })));
        assert!(current.apply(MatchCommand::Undo).is_err(), "the clock's ending is not taken back");
    }
}
