//! The playing screen's vocabulary: the messages its features exchange (a decision chosen, its
//! effects, a hint asked for, a replay step…) and the state several of them read (what is secret,
//! what the computer is doing, the replay, the turn being built, the cursor, the move list).
//! Each feature keeps its own workings private and reads or writes only these.

use super::match_state::{CurrentMatch, MatchCommand, side_label};
use crate::ai::Level;
use crate::games::{
    DynGame, EventContext, GameKind, LineCounter, describe_effects, move_in_words, removed_pieces, touched_cells,
};
// The Bevy-free online layer (not the app's online feature, which reads this module).
use crate::online as net;
use crate::rules::{BoardView, Cell, DecisionInfo, Effect, HintMark, PieceView, RecordMove, Side, ToMove};
use crate::save::GameRecord;
use crate::session::{Happened, Match};
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_message::<DecisionChosen>()
        .add_message::<EffectHappened>()
        .add_message::<DecisionRefused>()
        .add_message::<MatchChanged>()
        .add_message::<MatchCommand>()
        .add_message::<CellChosen>()
        .add_message::<ShowRules>()
        .add_message::<DragChosen>()
        .add_message::<HintRequested>()
        .add_message::<MoveNow>()
        .add_message::<ReplayStep>()
        .add_message::<SetupRequested>()
        .add_message::<OnlineRequest>();
    app.init_resource::<Secrecy>()
        .init_resource::<ComputerStatus>()
        .init_resource::<HintShown>()
        .init_resource::<Spectating>()
        .init_resource::<Replay>()
        .init_resource::<BoardAnimating>()
        .init_resource::<MoveList>()
        .init_resource::<EventLog>()
        .init_resource::<ReplayMoves>()
        .init_resource::<TurnBuilder>()
        .init_resource::<ChoiceAnchor>()
        .init_resource::<BoardCursor>()
        .init_resource::<OnlineStatus>()
        .init_resource::<TurnWarning>();
}

// ---------------------------------------------------------------------------------------------
// Messages

/// A player (board, panel, computer or test) chose this atomic decision, in the game's notation.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct DecisionChosen(pub String);

/// A person's decision held back because it would let the opponent win at once (Gravel: ending a
/// turn), until they confirm it or go on playing; and the one they confirmed.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct TurnWarning {
    /// The decision held back, what to tell the player about it, and the match's length then.
    pub pending: Option<(String, crate::games::Warning, usize)>,
    /// The decision the player confirmed at that length: it is made without a second warning.
    pub confirmed: Option<(String, usize)>,
}

impl TurnWarning {
    /// The player wants the held-back decision made anyway.
    pub fn confirm(&mut self) -> Option<DecisionChosen> {
        let (decision, _, len) = self.pending.take()?;
        self.confirmed = Some((decision.clone(), len));
        Some(DecisionChosen(decision))
    }
}

/// One effect of the decision resolved this frame, in order.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct EffectHappened {
    pub effect: Effect,
    /// Which decision of the match (1-based) caused it.
    pub decision: usize,
}

/// The match changed: a decision made (with its effects), decisions taken back or played again,
/// a resignation or its withdrawal. Every change of the match is announced here, whatever made it.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct MatchChanged(pub Happened);

/// A decision was refused (for the "illegal" sound and the panel's message).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct DecisionRefused(pub String);

/// A space was chosen (click, or Select on the cursor).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct CellChosen(pub String);

/// Show the rules, at the section of this id (a lesson's "The rule: …") or where they were.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShowRules(pub Option<&'static str>);

/// A piece dragged from one space and dropped on another (mouse): the decision from `from` to `to`.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct DragChosen {
    pub from: String,
    pub to: String,
}

/// Asks for a hint for the acting person.
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct HintRequested;

/// Asks the thinking computer to answer now with what it has.
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct MoveNow;

/// A replay command from a key, a button or a test.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayStep {
    First,
    Back,
    Forward,
    Last,
    /// Show the position after this many decisions.
    To(usize),
    ToggleAuto,
    /// Leave the replay: play on from the position shown, with these players.
    PlayOn([Option<Level>; 2]),
}

/// Open the setup screen of a game with these options and players ("Change options").
#[derive(Message, Debug, Clone, PartialEq)]
pub struct SetupRequested {
    pub kind: GameKind,
    pub options: Vec<(String, String)>,
    pub players: [Option<Level>; 2],
}

/// What the person asks of an online game's server from the panel.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnlineRequest {
    Resign,
    /// Offer a rematch, or accept the opponent's offer.
    Rematch,
    /// Say a preset phrase to the opponent (and whoever watches).
    Say(net::directory::Phrase),
    /// Claim the win of a timed game: the opponent ran out of correspondence time, or left a
    /// live game for the grace period.
    Claim,
}

// ---------------------------------------------------------------------------------------------
// State

/// What the players may see of the decisions made so far (hot-seat secrecy; `handover` keeps it).
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Secrecy {
    /// Decisions `0..revealed` of the history are public.
    pub revealed: usize,
    /// The board is hidden until this side's player confirms they hold the device.
    pub handover: Option<Side>,
}

impl Secrecy {
    /// Whether decision `index` of the history may be shown.
    pub fn is_public(&self, index: usize) -> bool {
        index < self.revealed
    }
}

/// Whether undo is allowed now: always in sequential games and lessons; in a simultaneous node
/// only for the acting player's own unresolved decisions, so nobody steps back into another's
/// sealed choice (a lesson's other side is its script: it keeps no secret from the learner).
pub fn undo_allowed(current: &CurrentMatch, secrecy: &Secrecy) -> bool {
    // Online, a decision is the server's once sent: there is no taking it back.
    if !current.can_undo() || current.remote.is_some() {
        return false;
    }
    current.scripted.is_some()
        || current.position().to_move() != Some(ToMove::Both)
        || (current.len() > secrecy.revealed && current.last_maker() == current.acting_side())
}

/// A person on this device acts now (not the computer, not an online opponent, not a replay).
pub fn person_acts(current: &CurrentMatch, replay: &Replay) -> bool {
    !replay.active && current.acting_side().is_some_and(|side| current.person_plays(side))
}

/// What the computer is doing (the `computer` feature keeps it).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct ComputerStatus {
    /// It is thinking about its next decision: since when.
    pub thinking_since: Option<web_time::Instant>,
    /// How its last decision was found.
    pub last: Option<ThinkingReport>,
}

/// How the computer found a decision: where it thought, how much, how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThinkingReport {
    /// "task" (a background thread), "worker" (the browser's Web Worker) or "page" (slices
    /// between the page's frames, when the browser has no worker).
    pub place: &'static str,
    pub iterations: u64,
    /// From the start of the search to the answer on the app's side.
    pub millis: u64,
    /// The browser's workers that searched it together (1 elsewhere: natively Hard's threads are
    /// inside the one task).
    pub searchers: usize,
}

impl ComputerStatus {
    pub fn is_thinking(&self) -> bool {
        self.thinking_since.is_some()
    }
}

/// The hint for the person to act: the whole turn the computer would play in their place.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct HintShown {
    /// The suggestion (the turn's first decision) and the decision number it is for.
    pub suggestion: Option<(usize, String)>,
    /// The whole turn the computer would play, its first decision the suggestion.
    pub turn: Vec<String>,
    /// What the turn achieves, in a few words ("captures 3 stones"), from a dry run.
    pub reason: Option<String>,
    /// A hint is being looked for.
    pub searching: bool,
}

impl HintShown {
    /// The suggestion if it is still for the current position.
    pub fn current(&self, current: &CurrentMatch) -> Option<&str> {
        self.suggestion.as_ref().filter(|(n, _)| *n == current.len()).map(|(_, d)| d.as_str())
    }
}

/// How a game between two computers is watched.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct Spectating {
    /// Seconds between decisions when the computer plays both sides.
    pub pace: f32,
    pub paused: bool,
}

impl Default for Spectating {
    fn default() -> Self {
        Spectating { pace: 0.8, paused: false }
    }
}

/// The paces offered in the panel: (name, seconds between decisions).
pub const PACES: [(&str, f32); 4] = [("Slow", 2.0), ("Normal", 0.8), ("Fast", 0.2), ("Fastest", 0.0)];

/// Whether the playing screen replays a game instead of playing it.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Replay {
    pub active: bool,
    /// Steps forward on its own.
    pub auto: bool,
    /// Seconds between automatic steps.
    pub pace: f32,
    /// Who played the recorded game (the match itself has no players while replaying).
    pub players: [Option<Level>; 2],
}

impl Replay {
    /// Opens `record` as a match at its last move, ready to be replayed (nobody plays while it is).
    pub fn open(record: &GameRecord) -> Result<(CurrentMatch, Replay), String> {
        let mut current = CurrentMatch::from_record(record)?;
        let players = std::mem::take(&mut current.players);
        Ok((current, Replay { active: true, auto: false, pace: 1.0, players }))
    }

    /// A replay of the current match (from the game-over panel); nobody plays while it is
    /// replayed: `MatchCommand::Reseat([None, None])` goes with it.
    pub fn of_current(current: &CurrentMatch) -> Replay {
        Replay { active: true, auto: false, pace: 1.0, players: current.players }
    }
}

/// The board is animating: a press only skips to the end, and the computer's next move waits.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BoardAnimating(pub bool);

/// The moves in the game's record notation (spec §"game record"), numbered as the record numbers
/// them, with who made them.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct MoveList {
    /// The match and its change count the list was made at (`Match::version`).
    pub version: (u64, u64),
    /// How many decisions the list was made from.
    pub decisions: usize,
    pub lines: Vec<MoveLine>,
    /// Trailing decisions that do not complete a move yet (not shown: they may be sealed).
    pub pending: usize,
    /// What stands between the tokens of one line (the game's record joiner).
    pub joiner: &'static str,
    /// The numbering after the lines' tokens, the record moves they hold, and the serial
    /// numbers of the decisions they were made from (`Match::serial`): a new decision only adds
    /// its moves to the list.
    counter: LineCounter,
    covered: usize,
    seen: Vec<u64>,
}

/// One numbered move of the record: "12." and its tokens, with who made it when one side did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveLine {
    /// The number as the record writes it ("1.", "3B", "2.1").
    pub label: String,
    /// Who made it ("Black", "A|B" for secret choices revealed together); empty when the line
    /// holds both sides' moves (Gravel's "1. +a1 ; +b1").
    pub who: String,
    pub tokens: Vec<String>,
    /// Each token in plain words (`games::move_in_words`), with the name of the side that made
    /// it (empty for both sides' secret choices revealed together, which the words name).
    pub said: Vec<(String, String)>,
    /// How many decisions had been played when the line's last move was complete.
    pub end: usize,
}

impl MoveLine {
    /// The line as the side panel shows it.
    pub fn text(&self, joiner: &str) -> String {
        let moves = self.tokens.join(joiner);
        match self.who.as_str() {
            "" => format!("{:>5} {moves}", self.label),
            who => format!("{:>5} {who:<6} {moves}", self.label),
        }
    }

    /// The line in plain words: "12. Black: placed a stone on d4, took 3 white stones"; a line
    /// holding both sides' moves names each ("1. Light: placed a stone on d4 · Dark: …").
    pub fn in_words(&self) -> String {
        let said: Vec<String> = match self.who.as_str() {
            "" | SIMULTANEOUS => self
                .said
                .iter()
                .map(|(side, words)| if side.is_empty() { words.clone() } else { format!("{side}: {words}") })
                .collect(),
            who => vec![format!("{who}: {}", self.said.iter().map(|(_, w)| w.as_str()).collect::<Vec<_>>().join("; "))],
        };
        format!("{} {}", self.label, said.join(" · "))
    }
}

/// The `who` of a line of secret choices both sides made at once.
const SIMULTANEOUS: &str = "A|B";

/// The `i`th record move of `session` in words, from the position before its first decision.
fn session_words(session: &Match, moves: &[RecordMove], i: usize) -> String {
    let first = i.checked_sub(1).map_or(0, |p| moves[p].end);
    let decisions: Vec<String> =
        session.decisions().skip(first).take(moves[i].end - first).map(str::to_string).collect();
    session
        .position_before(first)
        .and_then(|before| move_in_words(before, &decisions))
        .unwrap_or_else(|| moves[i].token.clone())
}

/// Each of `moves` (the record moves of `decisions` played from `start`) in words, replaying the
/// game once.
fn replayed_words(start: &dyn DynGame, decisions: &[String], moves: &[RecordMove]) -> Vec<String> {
    let mut game = start.clone_box();
    let mut first = 0;
    moves
        .iter()
        .map(|m| {
            let these = &decisions[first..m.end.min(decisions.len())];
            first = m.end;
            let words = move_in_words(game.as_ref(), these).unwrap_or_else(|| m.token.clone());
            for d in these {
                let _ = game.play_decision(d);
            }
            words
        })
        .collect()
}

impl MoveList {
    /// Every line as the side panel shows it.
    pub fn texts(&self) -> Vec<String> {
        self.lines.iter().map(|line| line.text(self.joiner)).collect()
    }

    /// Every line in plain words (`MoveLine::in_words`).
    pub fn words(&self) -> Vec<String> {
        self.lines.iter().map(MoveLine::in_words).collect()
    }

    /// The list of `current`'s moves; a no-op when the match has not changed. The record's moves
    /// come grouped from the match, which groups each decision as it is made, and the list adds
    /// only the moves it has not numbered yet (after an undo it is made again).
    pub fn update(&mut self, current: &CurrentMatch) {
        let session = &current.session;
        if self.version == session.version() {
            return;
        }
        let common = session.common_prefix(&self.seen);
        let last_end = self.lines.last().map_or(0, |l| l.end);
        let moves = session.record_moves();
        if self.version.0 != session.version().0 || last_end > common || moves.len() < self.covered {
            *self = MoveList::of_match(session);
            return;
        }
        let start = session.start();
        for (i, m) in moves.iter().enumerate().skip(self.covered) {
            let said = session_words(session, moves, i);
            self.add(start, m, said);
        }
        self.seen.truncate(common);
        self.seen.extend((common..session.len()).filter_map(|i| session.serial(i)));
        self.version = session.version();
        self.decisions = session.len();
        self.pending = session.pending();
    }

    /// The numbered moves of a match's decisions.
    pub fn of_match(session: &Match) -> MoveList {
        let moves = session.record_moves();
        let said = (0..moves.len()).map(|i| session_words(session, moves, i)).collect();
        let mut list = MoveList::of_record(session.start(), moves, said, session.len());
        list.version = session.version();
        list.pending = session.pending();
        list.seen = (0..session.len()).filter_map(|i| session.serial(i)).collect();
        list
    }

    /// Numbers one more record move: a new line, or the next token of the last one.
    fn add(&mut self, start: &dyn DynGame, m: &RecordMove, words: String) {
        let kind = start.kind();
        let secret = start.to_move() == Some(ToMove::Both);
        let who = if secret { SIMULTANEOUS.to_string() } else { side_label(start, m.side) };
        let said = (if secret { String::new() } else { who.clone() }, words);
        self.covered += 1;
        match (kind.next_line(&mut self.counter, &m.token), self.lines.last_mut()) {
            (None, Some(line)) => {
                if line.who != who {
                    line.who.clear(); // both sides' moves under one number
                }
                line.tokens.push(m.token.clone());
                line.said.push(said);
                line.end = m.end;
            }
            (label, _) => self.lines.push(MoveLine {
                label: label.unwrap_or_default(),
                who,
                tokens: vec![m.token.clone()],
                said: vec![said],
                end: m.end,
            }),
        }
    }

    /// The numbered moves of `decisions` played from `start` (grouped here from the start: for
    /// a list of decisions that is no match, such as a replay's whole game).
    pub fn of(start: &dyn DynGame, decisions: &[String]) -> MoveList {
        match start.record_tokens(decisions) {
            Ok(record) => {
                let mut list = MoveList::of_record(
                    start,
                    &record.moves,
                    replayed_words(start, decisions, &record.moves),
                    decisions.len(),
                );
                list.pending = record.pending;
                list
            }
            // Cannot happen for decisions the engine accepted; show them as they are rather than nothing.
            Err(_) => MoveList {
                counter: LineCounter::default(),
                covered: 0,
                seen: Vec::new(),
                version: (0, 0),
                decisions: decisions.len(),
                lines: decisions
                    .iter()
                    .enumerate()
                    .map(|(i, d)| MoveLine {
                        label: format!("{}.", i + 1),
                        who: String::new(),
                        tokens: vec![d.clone()],
                        said: vec![(String::new(), d.clone())],
                        end: i + 1,
                    })
                    .collect(),
                pending: 0,
                joiner: start.kind().move_joiner(),
            },
        }
    }

    fn of_record(start: &dyn DynGame, moves: &[RecordMove], said: Vec<String>, decisions: usize) -> MoveList {
        let mut list = MoveList {
            version: (0, 0),
            decisions,
            lines: Vec::new(),
            pending: 0,
            joiner: start.kind().move_joiner(),
            counter: LineCounter::default(),
            covered: 0,
            seen: Vec::new(),
        };
        for (m, words) in moves.iter().zip(said) {
            list.add(start, m, words);
        }
        list
    }

    /// The numbered moves of the whole game a replay shows (the moves played so far and those
    /// still ahead).
    pub fn of_whole_game(current: &CurrentMatch) -> MoveList {
        let mut all = current.history();
        all.extend(current.session.redo_decisions().map(str::to_string));
        MoveList::of(current.start(), &all)
    }

    /// Where the replay stops: the start, the end of every numbered move, and the last decision.
    pub fn stops(&self) -> Vec<usize> {
        let mut stops = vec![0];
        stops.extend(self.lines.iter().map(|l| l.end));
        stops.push(self.decisions);
        stops.sort_unstable();
        stops.dedup();
        stops
    }
}

/// The numbered moves of the game a replay shows, kept while it lasts: stepping does not change
/// the game's decisions, so the whole list (a replay of every decision through the record) is made
/// again only for another game.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct ReplayMoves {
    pub list: MoveList,
    /// The whole game's decisions (played, then ahead) the list was made for.
    whole: Vec<String>,
}

impl ReplayMoves {
    /// The whole game's list for `current`, made again only when its decisions differ.
    pub fn refresh(&mut self, current: &CurrentMatch) -> &MoveList {
        let session = &current.session;
        let all = session.decisions().chain(session.redo_decisions());
        let same =
            self.whole.len() == session.len() + session.redo_len() && self.whole.iter().map(String::as_str).eq(all);
        if !same {
            self.whole = session.decisions().chain(session.redo_decisions()).map(str::to_string).collect();
            self.list = MoveList::of(current.start(), &self.whole);
        }
        &self.list
    }
}

/// What the decisions did, in words (captures with counts, burns and re-openings, cascade rounds
/// with the figures that fell, swaps, pie swaps, rescues, scores), for the panel's event log.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct EventLog {
    /// The match and its change count the log was made at (`Match::version`).
    pub version: (u64, u64),
    /// The serial numbers of the decisions the log was made from (`Match::serial`).
    seen: Vec<u64>,
    /// Each line with the number of the decision (1-based) that made it, oldest first.
    pub lines: Vec<(usize, String)>,
}

impl EventLog {
    /// How many of the last decisions a log opened on a long game describes.
    const REACH: usize = 60;

    /// The log of `current`'s decisions: lines of decisions taken back go, new decisions are
    /// described from the position before them (kept by the match). The work is for the new
    /// decisions only, however long the game.
    pub fn update(&mut self, current: &CurrentMatch) {
        let session = &current.session;
        self.version = session.version();
        let common = session.common_prefix(&self.seen);
        if common == self.seen.len() && common == session.len() {
            return;
        }
        self.lines.retain(|(n, _)| *n <= common);
        self.seen.truncate(common);
        let from = common.max(session.len().saturating_sub(Self::REACH));
        self.seen.extend((common..from).filter_map(|i| session.serial(i)));
        for i in from..session.len() {
            self.seen.extend(session.serial(i));
            let Some(before) = session.position_before(i) else { continue };
            let mut after = before.clone_box();
            let Ok(effects) = after.play_decision(current.decision(i)) else { continue };
            let (before_view, after_view) = (before.board_view(), after.board_view());
            let context = EventContext {
                kind: before.kind(),
                before: &before_view,
                after: &after_view,
                simultaneous: before.to_move() == Some(ToMove::Both),
            };
            self.lines.extend(describe_effects(&context, &effects).into_iter().map(|line| (i + 1, line)));
        }
    }
}

/// What the last public turn did on the board (all its decisions: Gravel's actions, Throngs'
/// two parts, an Inchworm collect): the spaces it touched and the pieces it removed.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LastTurn {
    pub touched: Vec<String>,
    /// Where removed pieces stood, and what they were (drawn as fading ghosts).
    pub ghosts: Vec<(String, PieceView)>,
}

impl LastTurn {
    /// The longest turn looked back over, in decisions.
    const REACH: usize = 16;

    /// The last turn of `current` whose decisions are public.
    pub fn of(current: &CurrentMatch, secrecy: &Secrecy) -> LastTurn {
        let public = current.len().min(secrecy.revealed);
        let Some(last) = public.checked_sub(1) else { return LastTurn::default() };
        let maker = current.maker(last);
        let mut first = last;
        while first > 0 && last - first < Self::REACH && current.maker(first - 1) == maker {
            first -= 1;
        }
        let mut turn = LastTurn::default();
        for i in first..=last {
            let Some(before) = current.position_before(i) else { continue };
            let described = before.describe_decision(current.decision(i));
            let mut after = before.clone_box();
            let Ok(effects) = after.play_decision(current.decision(i)) else { continue };
            let view = before.board_view();
            let name = |c: Cell| view.cells.get(usize::from(c)).map(|v| v.name.clone());
            turn.touched.extend(touched_cells(&effects).into_iter().filter_map(name));
            turn.touched.extend(described.iter().flat_map(|d| d.picks.iter().copied()).filter_map(name));
            turn.ghosts.extend(removed_pieces(&view, &effects).into_iter().filter_map(|(c, p)| Some((name(c)?, p))));
        }
        turn.touched.sort();
        turn.touched.dedup();
        turn
    }
}

/// An entry of the choice list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    Decision(String),
    /// Use this space as the start of a decision that continues on another space.
    StartFrom(String),
}

/// What the player has chosen so far this decision (the board builds it; the panel lists it).
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct TurnBuilder {
    /// The start space of a decision that needs a second space.
    pub start: Option<String>,
    /// The open choice list (empty when closed).
    pub choices: Vec<Choice>,
    /// The space the open choice list is about (`None` for decisions that name no space).
    pub at: Option<String>,
    /// A drag whose start was just made as a decision of its own; its end follows next frame.
    pub drop_after_start: Option<DragChosen>,
}

impl TurnBuilder {
    /// The spaces where the decision can continue from `start` (highlighted on the board).
    pub fn destinations(&self, offers: &[Offer]) -> Vec<String> {
        let Some(start) = &self.start else { return Vec::new() };
        let mut out: Vec<String> = offers
            .iter()
            .filter(|o| o.picks.first() == Some(start) && o.picks.len() > 1)
            .map(|o| o.picks[1].clone())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    pub fn reset(&mut self) {
        self.start = None;
        self.choices.clear();
        self.at = None;
        self.drop_after_start = None;
    }
}

/// A legal decision as the board and the panel offer it: its token, the spaces a player picks
/// for it (by name, in order: one for a placement, a start and a destination for a move), and
/// what the game says of it. Made from the game's own description of the decision, never from
/// its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub token: String,
    pub picks: Vec<String>,
    /// It is sure to take enemy pieces (a red dot on the board).
    pub captures: bool,
    /// It belongs to the pie rule (a swap of colours, a colour chosen, a stone offered).
    pub pie: bool,
    /// It starts a move whose end is a later decision (Throngs' `f6>`, Inchworm's `Sb8`).
    pub opens_move: bool,
}

impl Offer {
    /// The offer of a described decision, its spaces named as `view` names them.
    pub fn of(info: &DecisionInfo, view: &BoardView) -> Offer {
        let name = |c: &Cell| view.cells.iter().find(|v| v.cell == *c).map(|v| v.name.clone());
        Offer {
            token: info.token.clone(),
            picks: info.picks.iter().filter_map(name).collect(),
            captures: info.captures,
            pie: info.pie,
            opens_move: info.kind == crate::rules::DecisionKind::Move && info.from.is_some() && info.to.is_none(),
        }
    }

    /// An offer picked at these spaces (tests and fixtures).
    pub fn picked(token: &str, picks: &[&str]) -> Offer {
        Offer {
            token: token.to_string(),
            picks: picks.iter().map(|p| p.to_string()).collect(),
            captures: false,
            pie: false,
            opens_move: false,
        }
    }
}

/// The acting side's legal decisions as offers.
pub fn offers_now(current: &CurrentMatch) -> Vec<Offer> {
    let Some(side) = current.acting_side().filter(|_| !current.is_over()) else { return Vec::new() };
    let view = current.position().board_view();
    current.position().legal_described(side).iter().map(|info| Offer::of(info, &view)).collect()
}

/// Decisions that name no space (pass, end turn, swap, figure choices).
pub fn spaceless(offers: &[Offer]) -> Vec<&Offer> {
    offers.iter().filter(|o| o.picks.is_empty()).collect()
}

/// The one decision (the Confirm key makes it) that names no space, when there is exactly one and it is not a pie choice.
pub fn single_spaceless(decisions: &[Offer]) -> Option<&str> {
    match spaceless(decisions)[..] {
        [only] if !only.pie => Some(&only.token),
        _ => None,
    }
}

/// Where on the window (logical pixels from the top-left corner) the space of the open choice list
/// is, so the list opens beside it; `None` when the list is about no space. The board keeps it.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct ChoiceAnchor {
    pub at: Option<Vec2>,
    /// Half the space's size on the window.
    pub half: f32,
}

/// The space under the board cursor (index into the board view's cells).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BoardCursor {
    pub index: usize,
    /// A game has just opened: the cursor goes to the middle of its board once the board is built.
    pub recentre: bool,
}

/// The online game on the board, as the panel shows it (the `online` feature keeps it; it says
/// nothing while the game on the board is local).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct OnlineStatus {
    /// The board shows an online game.
    pub active: bool,
    /// The connection to the server is open.
    pub connected: bool,
    pub opponent: OpponentPresence,
    /// The person's decisions the server has not stored yet (shown, marked as pending).
    pub pending: usize,
    /// The invite code while the opponent has not joined.
    pub invite: Option<String>,
    pub rematch: RematchOffer,
    /// Resigning was asked for; the server's answer ends the game.
    pub resign_sent: bool,
    /// This device watches the game (it holds no seat): both sides are played elsewhere.
    pub watching: bool,
    /// The players' names by seat (signed-in players), and how many watch.
    pub names: [Option<String>; 2],
    pub watchers: u32,
    pub rated: bool,
    /// The phrases said in this game, oldest first: (seat, phrase).
    pub said: Vec<(Side, net::directory::Phrase)>,
    /// After a rated game: each seat's rating before and after.
    pub rating_changes: Vec<net::directory::RatingChange>,
    /// The player hides ratings from their own view.
    pub hide_ratings: bool,
    /// The link that watches this game, read-only (for anyone).
    pub watch_link: Option<String>,
    /// A timed game's clocks as the server last told them, when they arrived, and half the
    /// connection's round trip (the shown clocks count down from the arrival, less that delay).
    pub clock: Option<net::clock::ClockView>,
    pub clock_since: Option<web_time::Instant>,
    pub delay_ms: u32,
}

impl OnlineStatus {
    /// Milliseconds since the clocks arrived, plus the connection's delay.
    fn clock_age_ms(&self) -> i64 {
        self.clock_since.map_or(0, |at| at.elapsed().as_millis() as i64) + i64::from(self.delay_ms)
    }

    /// The time seat `seat` has left now, as far as this device can tell.
    pub fn clock_left(&self, seat: usize) -> Option<i64> {
        let clock = self.clock.as_ref()?;
        let mut left = clock.left_ms[seat];
        if clock.running[seat] && !clock.paused[seat] {
            left -= self.clock_age_ms();
        }
        Some(left.max(0))
    }

    /// In how long the other seat may claim the game against seat `seat` (0: now), if it may.
    pub fn claim_in(&self, seat: usize) -> Option<i64> {
        let clock = self.clock.as_ref()?;
        let server_says = clock.claimable_in_ms[seat];
        let live = matches!(clock.control, net::directory::TimeControl::Live { .. });
        match server_says {
            Some(wait) if live => Some((wait - self.clock_age_ms()).max(0)),
            Some(_) => Some(0),
            // A correspondence clock the device sees run out (the server agrees when asked).
            None if !live && clock.running[seat] && !clock.paused[seat] => {
                (self.clock_left(seat) == Some(0)).then_some(0)
            }
            None => None,
        }
    }
}

/// Where the online opponent is.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum OpponentPresence {
    /// Nobody has taken the other seat yet.
    #[default]
    NotJoined,
    Offline,
    Online,
}

/// A rematch after an online game.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum RematchOffer {
    #[default]
    None,
    ByYou,
    ByOpponent,
}

/// The board as it is shown: the engine's view with the danger marks added.
pub fn shown_view(current: &CurrentMatch, warning: &TurnWarning) -> BoardView {
    let mut view = current.position().board_view();
    mark_danger(&mut view, current, warning);
    view
}

/// Marks the pieces of the person playing (in a game between two people here, of the side to act)
/// that the opponent could remove on its next turn, and the spaces a pending warning is about.
fn mark_danger(view: &mut BoardView, current: &CurrentMatch, warning: &TurnWarning) {
    let people: Vec<Side> = Side::BOTH.into_iter().filter(|&s| current.person_plays(s)).collect();
    let watched = match people[..] {
        [one] => Some(one),
        [_, _] => current.acting_side(),
        _ => None,
    };
    let mut cells = match watched {
        Some(side) if !current.is_over() => current.position().threatened(side),
        _ => Vec::new(),
    };
    if let Some((_, said, _)) = &warning.pending {
        cells.extend(&said.cells);
    }
    for c in view.cells.iter_mut().filter(|c| cells.contains(&c.cell) && c.marks.hint.is_none()) {
        c.marks.hint = Some(HintMark::Threatened);
    }
}
