//! A game in progress, once for everyone who holds one (the app, the server's table, an online
//! client's seat, the arena, the computer's jobs, replay): the start, the decisions played with the
//! seat and side that made each, the seating (a pie swap exchanges the seats' colours here and
//! nowhere else), undo and redo, resignation and the result. It changes only through commands,
//! and answers each with what happened or a refusal in words. No Bevy.
//!
//! A *seat* is a player: seat `First` starts with the first side; after a pie swap each seat plays
//! the other side. Seats are written as [`Side`] values.

mod record;
mod seating;
mod visibility;

pub use record::RecordBook;
pub use seating::Seating;
pub use visibility::Viewer;

use crate::games::{DynGame, GameError, GameKind, status_json};
use crate::rules::{Effects, Outcome, RecordMove, Side, Status, ToMove};
use record::BookMark;
use std::ops::Range;

/// One decision of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The decision in the game's notation.
    pub decision: String,
    /// The seat that made it.
    pub seat: Side,
    /// The side it was made for (the seat's colour then).
    pub side: Side,
    /// When, in milliseconds since the match started.
    pub at_ms: u64,
}

/// What a match keeps to take a decision back.
struct Step {
    before: Box<dyn DynGame>,
    seating_before: Seating,
    book: BookMark,
    /// This decision's serial number (see [`Match::serial`]).
    serial: u64,
}

/// Serial numbers of decisions, unique in the process.
static SERIALS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A command: the only way a match changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `seat` makes `decision` (at `at_ms` since the match started).
    Decide { seat: Side, decision: String, at_ms: u64 },
    /// Takes back the last decision, or a resignation.
    Undo,
    /// Plays again the last decision taken back.
    Redo,
    /// `seat` gives the game up.
    Resign { seat: Side },
    /// The clock ends the game (a flag, a claim, a player gone): `winner` is a seat (`None`: a
    /// draw), `why` says it in words.
    EndOnTime { winner: Option<Side>, why: String },
    /// Undoes or redoes until this many decisions are played (as far as redo reaches).
    GoTo(usize),
}

/// The effects of one decision, by the rules' phases (each carries its wave).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PhasedEffects {
    pub place: Effects,
    pub capture_sweep: Effects,
    pub cascade: Effects,
    pub end_check: Effects,
}

impl PhasedEffects {
    /// Every effect in order.
    pub fn all(&self) -> impl Iterator<Item = &crate::rules::Effect> {
        self.place.iter().chain(&self.capture_sweep).chain(&self.cascade).chain(&self.end_check)
    }
}

/// What a decision did.
#[derive(Clone, Debug, PartialEq)]
pub struct Decided {
    /// Its index in the match (0 for the first decision).
    pub index: usize,
    pub effects: PhasedEffects,
    /// The sealed decisions it uncovered together with itself (a completed simultaneous move).
    pub revealed: Option<Range<usize>>,
    /// A pie swap: the seats now play the other colours.
    pub seats_swapped: bool,
}

/// What a command did.
#[derive(Clone, Debug, PartialEq)]
pub enum Happened {
    Decided(Decided),
    /// Decisions were taken back or played again: `from` decisions were played, now `to` are.
    Stepped {
        from: usize,
        to: usize,
    },
    Resigned {
        seat: Side,
    },
    /// A resignation was taken back.
    ResignationWithdrawn,
    /// The clock ended the game.
    EndedOnTime {
        winner: Option<Side>,
    },
}

/// How a match ended before its rules ended it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// This seat gave the game up.
    Resigned(Side),
    /// The clock ended it (a flag, a claim, a player gone): the winning seat (`None`: a draw),
    /// and why in words.
    OnTime { winner: Option<Side>, why: String },
}

/// What ended a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// The rules: the position is won, lost or drawn.
    Rules,
    /// A player resigned.
    Resignation,
    /// A player ran out of time, or left a live game and the opponent claimed it.
    Time,
}

/// How a match ended: the side that won (`None`: a draw) and what ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchEnd {
    pub winner: Option<Side>,
    pub how: EndKind,
}

/// A decision of a loaded game that does not play, with its number (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index} ('{decision}') cannot be played: {reason}")]
pub struct BadDecision {
    pub index: usize,
    pub decision: String,
    pub reason: String,
}

/// Why a command was refused, in words; the match is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refusal(pub String);

/// A game in progress.
pub struct Match {
    start: Box<dyn DynGame>,
    /// The start's position text when it is not the options' initial position.
    start_text: Option<String>,
    position: Box<dyn DynGame>,
    played: Vec<Played>,
    steps: Vec<Step>,
    /// Decisions taken back, the next to redo last.
    redo: Vec<Played>,
    seating: Seating,
    /// A resignation or the clock's ending: the one place the match keeps a result its rules did
    /// not give.
    stopped: Option<Stopped>,
    book: RecordBook,
    /// Counts the changes (a reader that saw this number has seen the match as it is).
    generation: u64,
    /// Tells this match from every other made in this process (a copy keeps it).
    id: u64,
}

impl Clone for Match {
    fn clone(&self) -> Match {
        Match {
            start: self.start.clone_box(),
            start_text: self.start_text.clone(),
            position: self.position.clone_box(),
            played: self.played.clone(),
            steps: self
                .steps
                .iter()
                .map(|s| Step {
                    before: s.before.clone_box(),
                    seating_before: s.seating_before,
                    book: s.book,
                    serial: s.serial,
                })
                .collect(),
            redo: self.redo.clone(),
            seating: self.seating,
            stopped: self.stopped.clone(),
            book: self.book.clone(),
            generation: self.generation,
            id: self.id,
        }
    }
}

impl Match {
    /// A match from `start` (its position text is recorded when it is not the options' initial
    /// position).
    pub fn new(start: Box<dyn DynGame>) -> Match {
        let start_text = start
            .kind()
            .open(&start.option_pairs(), None)
            .ok()
            .map(|initial| initial.position_text())
            .filter(|initial| *initial != start.position_text())
            .map(|_| start.position_text());
        Match {
            position: start.clone_box(),
            start,
            start_text,
            played: Vec::new(),
            steps: Vec::new(),
            redo: Vec::new(),
            seating: Seating::default(),
            stopped: None,
            book: RecordBook::default(),
            generation: 0,
            id: SERIALS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// A new match of `kind` under `options`, from its initial position or a position text.
    pub fn open(kind: GameKind, options: &[(String, String)], position: Option<&str>) -> Result<Match, GameError> {
        Ok(Match::new(kind.open(options, position)?))
    }

    /// Loads a game: `decisions` played from `start` in order, each by the seat that can make
    /// it. (The one place a match replays a game from its start.) A decision that does not play
    /// is reported with its number (1-based).
    pub fn load<'a>(
        start: Box<dyn DynGame>,
        decisions: impl IntoIterator<Item = (&'a str, u64)>,
    ) -> Result<Match, BadDecision> {
        let mut m = Match::new(start);
        m.play_on(decisions)?;
        Ok(m)
    }

    /// Plays `decisions` on from the match's last decision, in order, each by the seat that can
    /// make it. A decision that does not play is reported with its number in the whole match
    /// (1-based); those before it stay played.
    pub fn play_on<'a>(&mut self, decisions: impl IntoIterator<Item = (&'a str, u64)>) -> Result<(), BadDecision> {
        for (decision, at_ms) in decisions {
            let index = self.played.len();
            let bad = |reason: String| BadDecision { index: index + 1, decision: decision.to_string(), reason };
            let seat = self.seat_for(decision).ok_or_else(|| {
                let mut trial = self.position.clone_box();
                bad(trial.play_decision(decision).err().map_or("not legal here".into(), |e| e.to_string()))
            })?;
            self.decide(seat, decision, at_ms).map_err(|r| bad(r.0))?;
        }
        Ok(())
    }

    // ----------------------------------------------------------------------------------------
    // Reading

    pub fn kind(&self) -> GameKind {
        self.start.kind()
    }

    /// The position now.
    pub fn position(&self) -> &dyn DynGame {
        self.position.as_ref()
    }

    /// The position the match started from.
    pub fn start(&self) -> &dyn DynGame {
        self.start.as_ref()
    }

    /// The start's position text when it is not the options' initial position.
    pub fn start_text(&self) -> Option<&str> {
        self.start_text.as_deref()
    }

    pub fn played(&self) -> &[Played] {
        &self.played
    }

    /// The decisions played, in notation.
    pub fn decisions(&self) -> impl Iterator<Item = &str> {
        self.played.iter().map(|p| p.decision.as_str())
    }

    pub fn len(&self) -> usize {
        self.played.len()
    }

    pub fn is_empty(&self) -> bool {
        self.played.is_empty()
    }

    /// Decision `index`'s serial number: unique among every decision made in this process (a
    /// decision taken back and made again gets a new one), so a reader that kept the serials of
    /// the decisions it has seen knows at once how far the match still agrees with them.
    pub fn serial(&self, index: usize) -> Option<u64> {
        self.steps.get(index).map(|s| s.serial)
    }

    /// How many of the decisions whose serials are `seen` (in order) are still the match's first
    /// decisions.
    pub fn common_prefix(&self, seen: &[u64]) -> usize {
        let mut k = seen.len().min(self.steps.len());
        while k > 0 && self.steps[k - 1].serial != seen[k - 1] {
            k -= 1;
        }
        k
    }

    /// The position before decision `index` (0-based).
    pub fn position_before(&self, index: usize) -> Option<&dyn DynGame> {
        self.steps.get(index).map(|s| s.before.as_ref())
    }

    /// The decisions taken back, the next to redo first.
    pub fn redo_decisions(&self) -> impl Iterator<Item = &str> {
        self.redo.iter().rev().map(|p| p.decision.as_str())
    }

    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// A pie swap exchanged the seats' colours.
    pub fn seats_swapped(&self) -> bool {
        self.seating.is_swapped()
    }

    /// The side `seat` plays now.
    pub fn side_of(&self, seat: Side) -> Side {
        self.seating.side_of(seat)
    }

    /// The seat playing `side` now.
    pub fn seat_of(&self, side: Side) -> Side {
        self.seating.seat_of(side)
    }

    /// Changes so far: equal numbers mean an unchanged match.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Which match and which state of it: equal versions mean the same match, unchanged.
    pub fn version(&self) -> (u64, u64) {
        (self.id, self.generation)
    }

    /// The seat that resigned.
    pub fn resigned(&self) -> Option<Side> {
        match self.stopped {
            Some(Stopped::Resigned(seat)) => Some(seat),
            _ => None,
        }
    }

    /// How the match ended before its rules did (a resignation, the clock), if it did.
    pub fn stopped(&self) -> Option<&Stopped> {
        self.stopped.as_ref()
    }

    /// The match is over: the rules ended it, a seat resigned or the clock ended it.
    pub fn is_over(&self) -> bool {
        self.stopped.is_some() || self.position.status().is_over()
    }

    /// The decisions `seat` may make now.
    pub fn legal_for(&self, seat: Side) -> Vec<String> {
        if self.is_over() {
            return Vec::new();
        }
        self.position.legal_decisions(self.side_of(seat))
    }

    /// The seat that can make `decision` now (the first seat at a simultaneous node where both
    /// could, which no game has).
    pub fn seat_for(&self, decision: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|&seat| self.legal_for(seat).iter().any(|d| d == decision))
    }

    /// How the match ended, `None` while it goes on.
    pub fn end(&self) -> Option<MatchEnd> {
        let (winner, how) = match &self.stopped {
            Some(Stopped::Resigned(seat)) => (Some(self.side_of(*seat).opponent()), EndKind::Resignation),
            Some(Stopped::OnTime { winner, .. }) => (winner.map(|seat| self.side_of(seat)), EndKind::Time),
            None => match self.position.status() {
                Status::Ongoing => return None,
                Status::Over(Outcome::Winner(side)) => (Some(side), EndKind::Rules),
                Status::Over(Outcome::Draw) => (None, EndKind::Rules),
            },
        };
        Some(MatchEnd { winner, how })
    }

    /// The result as records and the protocol write it: `"draw"` or `{"winner": side}` in the
    /// game's notation (with the rules' own fields, or the reason a resignation or the clock
    /// ended it), `None` while the game goes on.
    pub fn result(&self) -> Option<serde_json::Value> {
        let end = self.end()?;
        let winner = end.winner.map(|side| self.position.side_name(side));
        Some(match (end.how, winner) {
            (EndKind::Rules, _) => status_json(self.position.as_ref()),
            (_, None) => serde_json::json!("draw"),
            (EndKind::Resignation, Some(winner)) => serde_json::json!({ "winner": winner, "reason": "resignation" }),
            (EndKind::Time, Some(winner)) => serde_json::json!({ "winner": winner, "reason": "time" }),
        })
    }

    /// The record's closed moves (the spec's tokens), grown one decision at a time.
    pub fn record_moves(&self) -> &[RecordMove] {
        self.book.moves()
    }

    /// Trailing decisions that do not complete a record move yet.
    pub fn pending(&self) -> usize {
        self.played.len() - self.book.open_from()
    }

    // ----------------------------------------------------------------------------------------
    // Commands

    /// Carries out a command.
    pub fn apply(&mut self, command: Command) -> Result<Happened, Refusal> {
        match command {
            Command::Decide { seat, decision, at_ms } => self.decide(seat, &decision, at_ms).map(Happened::Decided),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::Resign { seat } => self.resign(seat),
            Command::EndOnTime { winner, why } => self.end_on_time(winner, why),
            Command::GoTo(n) => Ok(self.go_to(n)),
        }
    }

    /// `seat` makes `decision`.
    pub fn decide(&mut self, seat: Side, decision: &str, at_ms: u64) -> Result<Decided, Refusal> {
        let decided = self.play(seat, decision, at_ms)?;
        self.redo.clear();
        Ok(decided)
    }

    /// Plays a decision (redo keeps its list; `decide` clears it).
    fn play(&mut self, seat: Side, decision: &str, at_ms: u64) -> Result<Decided, Refusal> {
        if self.is_over() {
            return Err(Refusal("the game is over".into()));
        }
        let side = self.side_of(seat);
        if !self.position.may_decide(side, decision) {
            return Err(Refusal(format!(
                "'{decision}' is not a decision {} can make now",
                self.kind().side_name(side)
            )));
        }
        let sealed_before = self.sealed_from();
        let before = self.position.clone_box();
        let effects = match self.position.phase_place(decision) {
            Ok(place) => PhasedEffects {
                place,
                capture_sweep: self.position.phase_capture_sweep(),
                cascade: self.position.phase_cascade(),
                end_check: self.position.phase_end_check(),
            },
            Err(e) => {
                self.position = before;
                return Err(Refusal(e.to_string()));
            }
        };
        let seating = self.seating.after(effects.all());
        let seats_swapped = seating != self.seating;
        let serial = SERIALS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.steps.push(Step { before, seating_before: self.seating, book: self.book.mark(), serial });
        self.generation += 1;
        self.seating = seating;
        let index = self.played.len();
        self.played.push(Played { decision: decision.to_string(), seat, side, at_ms });
        let open_from = self.book.open_from();
        let open: Vec<String> = self.played[open_from..].iter().map(|p| p.decision.clone()).collect();
        self.book.extend(self.steps[open_from].before.as_ref(), &open);
        let revealed = match (sealed_before, self.sealed_from()) {
            (Some(from), None) => Some(from..self.played.len()),
            _ => None,
        };
        Ok(Decided { index, effects, revealed, seats_swapped })
    }

    /// Takes back the resignation, or the last decision.
    pub fn undo(&mut self) -> Result<Happened, Refusal> {
        if self.withdraw_resignation() {
            return Ok(Happened::ResignationWithdrawn);
        }
        if matches!(self.stopped, Some(Stopped::OnTime { .. })) {
            return Err(Refusal("the clock ended the game".into()));
        }
        let from = self.played.len();
        self.step_back().ok_or_else(|| Refusal("there is nothing to take back".into()))?;
        Ok(Happened::Stepped { from, to: self.played.len() })
    }

    fn step_back(&mut self) -> Option<()> {
        let step = self.steps.pop()?;
        let played = self.played.pop()?;
        self.generation += 1;
        self.position = step.before;
        self.seating = step.seating_before;
        self.book.restore(step.book);
        self.redo.push(played);
        Some(())
    }

    /// Plays again the last decision taken back.
    pub fn redo(&mut self) -> Result<Happened, Refusal> {
        let from = self.played.len();
        let next = self.redo.last().cloned().ok_or_else(|| Refusal("there is nothing to play again".into()))?;
        self.play(next.seat, &next.decision, next.at_ms)?;
        self.redo.pop();
        Ok(Happened::Stepped { from, to: self.played.len() })
    }

    /// `seat` gives the game up.
    pub fn resign(&mut self, seat: Side) -> Result<Happened, Refusal> {
        if self.is_over() {
            return Err(Refusal("the game is over".into()));
        }
        self.stopped = Some(Stopped::Resigned(seat));
        self.generation += 1;
        Ok(Happened::Resigned { seat })
    }

    /// The clock ends the game: `winner` (a seat; `None`, a draw) wins, for the reason `why`.
    pub fn end_on_time(&mut self, winner: Option<Side>, why: String) -> Result<Happened, Refusal> {
        if self.is_over() {
            return Err(Refusal("the game is over".into()));
        }
        self.stopped = Some(Stopped::OnTime { winner, why });
        self.generation += 1;
        Ok(Happened::EndedOnTime { winner })
    }

    /// Takes back a resignation (and nothing else); whether there was one.
    fn withdraw_resignation(&mut self) -> bool {
        if self.resigned().is_none() {
            return false;
        }
        self.stopped = None;
        self.generation += 1;
        true
    }

    /// Undoes or redoes until `n` decisions are played (as far as the redo list reaches); a
    /// resignation is withdrawn.
    pub fn go_to(&mut self, n: usize) -> Happened {
        let from = self.played.len();
        self.withdraw_resignation();
        while self.played.len() > n && self.step_back().is_some() {}
        while self.played.len() < n {
            let Some(next) = self.redo.last().cloned() else { break };
            if self.play(next.seat, &next.decision, next.at_ms).is_err() {
                break;
            }
            self.redo.pop();
        }
        Happened::Stepped { from, to: self.played.len() }
    }

    /// Forgets the decisions taken back (playing on from a replayed position).
    pub fn drop_redo(&mut self) {
        self.redo.clear();
        self.generation += 1;
    }

    /// Replaces the times of the decisions (a loaded record's own).
    pub fn set_times(&mut self, times: impl IntoIterator<Item = u64>) {
        for (p, t) in self.played.iter_mut().zip(times) {
            p.at_ms = t;
        }
    }

    /// Where the sealed decisions start: at a simultaneous node, the decisions that do not yet
    /// make up a whole move (`None` when nothing is sealed).
    pub fn sealed_from(&self) -> Option<usize> {
        (self.position.to_move() == Some(ToMove::Both) && self.pending() > 0).then(|| self.book.open_from())
    }
}

#[cfg(test)]
mod tests;
