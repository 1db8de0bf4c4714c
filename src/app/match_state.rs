//! The game in progress: the authoritative position (`CurrentMatch`), its history, undo and redo,
//! its record. Entities on the board are only a projection of this value.

use crate::ai::Level;
use crate::games::{DynGame, status_json};
use crate::rules::{Effect, EffectKind, Outcome, Side, Status, ToMove, cells_in_token};
use crate::save::{GameRecord, Player, RecordedMove};
use bevy::prelude::*;

/// A position left by undo or redo, with the decision that leads away from it.
struct Step {
    game: Box<dyn DynGame>,
    decision: String,
    seats_swapped: bool,
    /// When the decision was made (milliseconds since the match started), kept while it waits on
    /// the redo stack.
    at_ms: u64,
}

/// The game being played.
#[derive(Resource)]
pub struct CurrentMatch {
    pub game: Box<dyn DynGame>,
    /// Atomic decisions played, in notation.
    pub history: Vec<String>,
    /// The side that made each decision of `history`.
    pub makers: Vec<Side>,
    /// When each decision of `history` was made, in milliseconds since the match started.
    pub times: Vec<u64>,
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// The last refusal or problem, shown until the next decision.
    pub message: Option<String>,
    /// The position the match started from (for records and replay).
    pub start: Box<dyn DynGame>,
    /// Its position text when it was not the initial position of the options.
    pub start_text: Option<String>,
    /// Seconds since 1970 when the match started.
    pub started_unix: u64,
    /// Who sits in each seat: `None` a person on this device, `Some(level)` the computer. Seat 0
    /// starts with `Side::First`; after a pie swap the seats play the other colours.
    pub players: [Option<Level>; 2],
    /// A pie swap exchanged the seats' colours.
    pub seats_swapped: bool,
    /// The seat played from another device in an online game (`Side::First`: seat 0), neither a
    /// person here nor the computer: its decisions arrive from the game server, the other seat is
    /// the person here. A seat, not a colour: a pie swap gives it the other colour.
    pub remote: Option<Side>,
    /// The side that resigned (the match is over; undo takes it back).
    pub resigned: Option<Side>,
    /// The seed of the computer's choices in this match.
    pub seed: u64,
    /// Where the match is kept while it goes on (`games/….json`); `None` until its first save.
    pub slot: Option<String>,
}

impl CurrentMatch {
    pub fn new(game: Box<dyn DynGame>) -> Self {
        let start = game.clone_box();
        let started_unix =
            web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        CurrentMatch {
            game,
            history: Vec::new(),
            makers: Vec::new(),
            times: Vec::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            message: None,
            start,
            start_text: None,
            started_unix,
            players: [None, None],
            seats_swapped: false,
            remote: None,
            resigned: None,
            seed: started_unix,
            slot: None,
        }
    }

    /// The match is over: the rules ended it or a side resigned.
    pub fn is_over(&self) -> bool {
        self.resigned.is_some() || self.game.status().is_over()
    }

    /// The side whose decision the board is waiting for: the side to move, or at a simultaneous
    /// node the first side that still has to seal its choice.
    pub fn acting_side(&self) -> Option<Side> {
        if self.resigned.is_some() {
            return None;
        }
        match self.game.to_move()? {
            ToMove::One(side) => Some(side),
            ToMove::Both => {
                // The computer seals first, so it can never see a person's sealed choice; online
                // the person here chooses first (the opponent's choice arrives sealed anyway).
                let mut order = Side::BOTH;
                let computer_second = self.player_of(Side::Second).is_some() && self.player_of(Side::First).is_none();
                if computer_second || self.is_remote(Side::First) {
                    order.reverse();
                }
                order.into_iter().find(|&s| !self.game.legal_decisions(s).is_empty()).or(Some(order[0]))
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
        side.index() ^ usize::from(self.seats_swapped)
    }

    /// Who plays `side` now: a person (`None`) or the computer.
    pub fn player_of(&self, side: Side) -> Option<Level> {
        self.players[self.seat_of(side)]
    }

    /// A person on this device plays `side` (not the computer, not an online opponent).
    pub fn person_plays(&self, side: Side) -> bool {
        self.player_of(side).is_none() && !self.is_remote(side)
    }

    /// An online opponent plays `side` now.
    pub fn is_remote(&self, side: Side) -> bool {
        self.remote.is_some_and(|seat| seat.index() == self.seat_of(side))
    }

    /// The legal decisions of the acting side.
    pub fn decisions_now(&self) -> Vec<String> {
        self.acting_side().map(|s| self.game.legal_decisions(s)).unwrap_or_default()
    }

    /// Remembers the position before `decision` so it can be undone; `effects` are the decision's
    /// effects so far (a pie swap among them exchanges the seats' colours).
    pub fn push_undo(&mut self, before: Box<dyn DynGame>, decision: &str, maker: Side, effects: &[Effect]) {
        self.makers.push(maker);
        self.times.push(self.elapsed_ms());
        self.undo.push(Step {
            game: before,
            decision: decision.to_string(),
            seats_swapped: self.seats_swapped,
            at_ms: 0,
        });
        if effects.iter().any(|e| matches!(e.kind, EffectKind::PieSwap { .. })) {
            self.seats_swapped = !self.seats_swapped;
        }
        self.redo.clear();
        self.history.push(decision.to_string());
        self.message = None;
    }

    /// The position before decision `i` of the history (0-based), while it is on the undo stack.
    pub fn position_before(&self, i: usize) -> Option<&dyn DynGame> {
        self.undo.get(i).map(|step| step.game.as_ref())
    }

    /// Forgets the last `push_undo` after the decision was refused, restoring the position.
    pub fn cancel_last(&mut self) {
        if let Some(step) = self.undo.pop() {
            self.game = step.game;
            self.seats_swapped = step.seats_swapped;
            self.history.pop();
            self.makers.pop();
            self.times.pop();
        }
    }

    /// Milliseconds since the match started (its records' move times).
    fn elapsed_ms(&self) -> u64 {
        let now = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_millis() as u64);
        now.unwrap_or(0).saturating_sub(self.started_unix.saturating_mul(1000))
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty() || self.resigned.is_some()
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

    /// `side` gives up: the match is over and the opponent wins.
    pub fn resign(&mut self, side: Side) {
        self.resigned = Some(side);
        self.redo.clear();
        self.message = None;
    }

    /// The one decision left to a person in the middle of their turn when it names no space (Gravel's
    /// "end" after the last allowed action): the board plays it for them.
    pub fn forced_continuation(&self) -> Option<String> {
        let side = self.acting_side()?;
        if self.is_over() || !self.person_plays(side) || self.makers.last() != Some(&side) {
            return None;
        }
        match self.game.to_move()? {
            ToMove::Both => None,
            ToMove::One(_) => match self.decisions_now().as_slice() {
                [only] if cells_in_token(only).is_empty() => Some(only.clone()),
                _ => None,
            },
        }
    }

    /// Takes back decisions until a person is to act again: against the computer, its reply goes
    /// with the person's move, and a decision the board played by itself goes with the one that
    /// forced it. A resignation is taken back first, on its own.
    pub fn undo_to_person(&mut self) {
        if self.resigned.is_some() {
            self.undo();
            return;
        }
        self.undo();
        while self.can_undo()
            && ((self.computer_to_act().is_some() && self.players.iter().any(Option::is_none))
                || self.forced_continuation().is_some())
        {
            self.undo();
        }
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn undo(&mut self) {
        if self.resigned.take().is_some() {
            self.message = None;
            return;
        }
        if let Some(step) = self.undo.pop() {
            let now = std::mem::replace(&mut self.game, step.game);
            let swapped_now = std::mem::replace(&mut self.seats_swapped, step.seats_swapped);
            let at_ms = self.times.pop().unwrap_or(0);
            self.redo.push(Step { game: now, decision: step.decision, seats_swapped: swapped_now, at_ms });
            self.history.pop();
            self.makers.pop();
            self.message = None;
        }
    }

    pub fn redo(&mut self) {
        if let Some(step) = self.redo.pop() {
            let maker = self.acting_side().unwrap_or(Side::First);
            self.makers.push(maker);
            let now = std::mem::replace(&mut self.game, step.game);
            let swapped_now = std::mem::replace(&mut self.seats_swapped, step.seats_swapped);
            self.undo.push(Step { game: now, decision: step.decision.clone(), seats_swapped: swapped_now, at_ms: 0 });
            self.history.push(step.decision);
            self.times.push(step.at_ms);
            self.message = None;
        }
    }

    /// How many undone decisions can be redone.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// The undone decisions, the next one first.
    pub fn redo_decisions(&self) -> impl Iterator<Item = &str> {
        self.redo.iter().rev().map(|step| step.decision.as_str())
    }

    /// Forgets the undone decisions (playing on from a replayed position).
    pub fn drop_redo(&mut self) {
        self.redo.clear();
    }

    /// Undoes or redoes until `n` decisions are played (as far as the redo stack reaches).
    pub fn go_to(&mut self, n: usize) {
        self.resigned = None;
        while self.history.len() > n && !self.undo.is_empty() {
            self.undo();
        }
        while self.history.len() < n && !self.redo.is_empty() {
            self.redo();
        }
    }

    /// Whose decision it is, in words.
    pub fn turn_text(&self) -> String {
        let g = &self.game;
        if self.resigned.is_some() {
            return format!("Game over — {}", self.outcome_text());
        }
        match (g.to_move(), self.acting_side()) {
            (None, _) | (_, None) => format!("Game over — {}", outcome_text(g.as_ref())),
            (Some(ToMove::Both), Some(s)) => format!("{} chooses in secret", side_label(g.as_ref(), s)),
            (Some(ToMove::One(_)), Some(s)) => format!("{} to move", side_label(g.as_ref(), s)),
        }
    }
}

impl CurrentMatch {
    /// "White resigns: Black wins", or the rules' result.
    pub fn outcome_text(&self) -> String {
        match self.resigned {
            Some(side) => format!(
                "{} resigns: {} wins",
                side_label(self.game.as_ref(), side),
                side_label(self.game.as_ref(), side.opponent())
            ),
            None => outcome_text(self.game.as_ref()),
        }
    }

    /// The record of this match: its start, players, seed, decisions with their times, result.
    pub fn record(&self) -> GameRecord {
        let player = |p: Option<Level>| p.map_or(Player::Human, |l| Player::Computer(l.slug().to_string()));
        let players = [player(self.players[0]), player(self.players[1])];
        let mut record = GameRecord::new(self.start.as_ref(), players, self.seed, self.started_unix);
        // A match begun from a position other than its options' initial one (an example, a
        // position played on from) records that position, so the record replays.
        record.start = self.start_text.clone().or_else(|| {
            let initial = self.start.kind().open(&self.start.option_pairs(), None).ok()?;
            let here = self.start.position_text();
            (initial.position_text() != here).then_some(here)
        });
        record.moves = self
            .history
            .iter()
            .enumerate()
            .map(|(i, d)| RecordedMove { decision: d.clone(), at_ms: self.times.get(i).copied().unwrap_or(0) })
            .collect();
        record.result = Some(match self.resigned {
            Some(side) => serde_json::json!({
                "winner": self.game.side_name(side.opponent()),
                "reason": "resignation",
            }),
            None => status_json(self.game.as_ref()),
        });
        record
    }

    /// The match a record describes, at its last move, with its players and seed; an illegal move
    /// is reported with its number.
    pub fn from_record(record: &GameRecord) -> Result<CurrentMatch, String> {
        let start = record.replay(Some(0)).map_err(|e| e.to_string())?;
        let mut current = CurrentMatch::new(start);
        current.seed = record.seed;
        current.started_unix = record.started_unix;
        current.start_text = record.start.clone();
        let level = |p: &Player| match p {
            Player::Human => None,
            Player::Computer(l) => l.parse().ok(),
        };
        current.players = [level(&record.players[0]), level(&record.players[1])];
        for (i, m) in record.moves.iter().enumerate() {
            let before = current.game.clone_box();
            let maker = current.acting_side().unwrap_or(Side::First);
            let effects = current
                .game
                .play_decision(&m.decision)
                .map_err(|e| format!("move {} ('{}'): {e}", i + 1, m.decision))?;
            current.push_undo(before, &m.decision, maker, &effects);
        }
        // The record's own times, not the moment it was opened.
        current.times = record.moves.iter().map(|m| m.at_ms).collect();
        Ok(current)
    }

    /// The record ends with a resignation (the rules cannot tell; the result says so).
    pub fn record_resigned(record: &GameRecord) -> bool {
        record.result.as_ref().and_then(|r| r.get("reason")).is_some_and(|r| r == "resignation")
    }
}

/// A side's name for people ("Black", "Light", "Player A").
pub fn side_label(game: &dyn DynGame, side: Side) -> String {
    game.kind().side_name(side).to_string()
}

/// "Black wins", "draw".
pub fn outcome_text(game: &dyn DynGame) -> String {
    match game.status() {
        Status::Over(Outcome::Draw) => "draw".to_string(),
        Status::Over(Outcome::Winner(s)) => format!("{} wins", side_label(game, s)),
        Status::Ongoing => "ongoing".to_string(),
    }
}
