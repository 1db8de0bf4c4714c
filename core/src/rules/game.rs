//! The rules API every game implements: atomic decisions, named resolution phases, notation.

use super::{
    Cell, DecisionInfo, DiscardEffects, EffectSink, Effects, ExactCount, GameRng, OptionError, ParseError, PlayError,
    RecordError, Side, Status, ToMove, pick_index,
};
use std::fmt::Debug;
use std::hash::Hash;

/// How one option of a game can be set (for `--option K=V`, the setup screen and records).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The key as the CLI and records write it (case-insensitive on input).
    pub key: &'static str,
    /// A short label for the setup screen.
    pub label: &'static str,
    /// What the option does, in one line for the setup screen.
    pub help: &'static str,
    pub kind: OptionKind,
}

/// The values an option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A whole number in `min..=max`.
    Int { min: i64, max: i64 },
    /// Free text checked by the game (e.g. Inchworm's `pieces=25/23`).
    Text,
}

/// A game's options: parsed from and written back to `key=value` pairs.
pub trait GameOptions: Clone + Debug + Default + PartialEq + Send + Sync + 'static {
    /// Every option, in the order the setup screen shows them.
    fn specs() -> &'static [OptionSpec];

    /// How many of the last [`GameOptions::specs`] are variants most players leave alone: the
    /// setup screen keeps them under "More options".
    const VARIANTS: usize = 0;

    /// Sets one option; `key` is matched case-insensitively. Values are checked against the
    /// spec's ranges, and options that depend on each other are checked by `validate`.
    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError>;

    /// The current value of an option, as `set` accepts it.
    fn get(&self, key: &str) -> Option<String>;

    /// Checks combinations of values (called after all `set`s).
    fn validate(&self) -> Result<(), OptionError> {
        Ok(())
    }

    /// Builds options from `key=value` pairs over the defaults.
    fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Self, OptionError> {
        let mut options = Self::default();
        for (k, v) in pairs {
            options.set(k, v)?;
        }
        options.validate()?;
        Ok(options)
    }

    /// Every option as `(key, value)`, in `specs()` order.
    fn to_pairs(&self) -> Vec<(String, String)> {
        Self::specs().iter().filter_map(|s| self.get(s.key).map(|v| (s.key.to_string(), v))).collect()
    }
}

/// A whole-number option value in `min..=max`.
pub fn int_option(key: &str, value: &str, min: i64, max: i64) -> Result<i64, OptionError> {
    let n: i64 = value.trim().parse().map_err(|_| OptionError::bad_value(key, value, "it must be a whole number"))?;
    if n < min || n > max {
        return Err(OptionError::bad_value(key, value, format!("it must be between {min} and {max}")));
    }
    Ok(n)
}

/// A word option's value: the choice named `value` (any case, white space trimmed).
pub fn choice_option<T: Copy>(key: &str, value: &str, choices: &[(&str, T)]) -> Result<T, OptionError> {
    let word = value.trim();
    choices.iter().find(|(name, _)| name.eq_ignore_ascii_case(word)).map(|&(_, choice)| choice).ok_or_else(|| {
        let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
        let (last, rest) = names.split_last().unwrap_or((&"", &[]));
        let listed = if rest.is_empty() { last.to_string() } else { format!("{} or {last}", rest.join(", ")) };
        OptionError::bad_value(key, value, format!("it must be {listed}"))
    })
}

/// The name of `current` among `choices`, as `choice_option` reads it back.
pub fn choice_name<T: PartialEq>(choices: &[(&'static str, T)], current: &T) -> &'static str {
    choices.iter().find(|(_, choice)| choice == current).map_or("", |(name, _)| name)
}

/// Options for a game that has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoOptions;

impl GameOptions for NoOptions {
    fn specs() -> &'static [OptionSpec] {
        &[]
    }
    fn set(&mut self, key: &str, _value: &str) -> Result<(), OptionError> {
        Err(OptionError::unknown_key(key, Self::specs()))
    }
    fn get(&self, _key: &str) -> Option<String> {
        None
    }
}

/// A game's rules. The implementing type is the position: a pure value that knows whose decision
/// is next and which atomic decisions are legal.
///
/// A `Move` is one atomic decision (one click or button press). `check` judges it without
/// changing anything; the named phases `place` → `capture_sweep` → `cascade` → `end_check` then
/// resolve it, each reporting its effects into a sink. `play` is `check` and the four phases
/// keeping the effects; the app runs the same phases one by one in its ordered systems (through
/// `DynGame`); search calls `play_unchecked`, the four phases keeping nothing.
pub trait Rules: Clone + Debug + Send + Sync + 'static {
    type Move: Clone + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    type Options: GameOptions;

    /// The initial position for these options: the one constructor of every game's position.
    fn new(options: &Self::Options) -> Self;

    /// The options this position was set up with.
    fn options(&self) -> &Self::Options;

    /// Who decides next; `None` once the game is over.
    fn to_move(&self) -> Option<ToMove>;

    fn status(&self) -> Status;

    /// Appends every legal atomic decision for whoever is to move (at a simultaneous node: for
    /// every side that has not sealed its commitment). Clears `out` first.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// The legal decisions of one side. At a sequential node the other side has none.
    fn legal_moves_for(&self, side: Side, out: &mut Vec<Self::Move>) {
        out.clear();
        if self.to_move() == Some(ToMove::One(side)) {
            self.legal_moves(out);
        }
    }

    /// One legal decision chosen uniformly at random (as `legal_moves` and one `pick_index`
    /// would), or `None` when nobody can decide. `scratch` is reusable space. Games whose lists
    /// are costly to build sample without building them (random playouts call this every ply).
    fn random_move(&self, rng: &mut GameRng, scratch: &mut Vec<Self::Move>) -> Option<Self::Move> {
        self.legal_moves(scratch);
        if scratch.is_empty() { None } else { Some(scratch[pick_index(rng, scratch.len())].clone()) }
    }

    /// The side that makes decision `m` (at a simultaneous node the move names its side).
    fn mover(&self, m: &Self::Move) -> Side;

    /// Whether `m` may be played here; the error says why not, in a player's words. Changes
    /// nothing. By default: whether `m` is among the legal moves (games explain better).
    fn check(&self, m: &Self::Move) -> Result<(), PlayError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(m) { Ok(()) } else { Err(PlayError::new(format!("{m:?} is not a legal decision here"))) }
    }

    fn is_legal(&self, m: &Self::Move) -> bool {
        self.check(m).is_ok()
    }

    /// Phase 1: applies the decision itself. `m` must have passed `check`: an illegal move may
    /// leave the position inconsistent (but never causes undefined behaviour).
    fn place(&mut self, m: &Self::Move, effects: &mut impl EffectSink);

    /// Phase 2: removes what the placement captured.
    fn capture_sweep(&mut self, effects: &mut impl EffectSink) {
        let _ = effects;
    }

    /// Phase 3: later rounds of removals until the board is stable (a loop guard fails loudly).
    fn cascade(&mut self, effects: &mut impl EffectSink) {
        let _ = effects;
    }

    /// Phase 4: decides whether the game ended and whose decision is next.
    fn end_check(&mut self, effects: &mut impl EffectSink) {
        let _ = effects;
    }

    /// Plays a decision for a caller outside search: the check, then all phases in order. On
    /// error the position is unchanged and the error says why.
    fn play(&mut self, m: &Self::Move) -> Result<Effects, PlayError> {
        self.check(m)?;
        count_play();
        let mut effects = Effects::new();
        self.place(m, &mut effects);
        self.capture_sweep(&mut effects);
        self.cascade(&mut effects);
        self.end_check(&mut effects);
        Ok(effects)
    }

    /// Plays a decision known to be legal, as fast as possible: no check, no effects. An
    /// illegal move may leave the position inconsistent (but never causes undefined behaviour).
    fn play_unchecked(&mut self, m: &Self::Move) {
        let mut nothing = DiscardEffects;
        self.place(m, &mut nothing);
        self.capture_sweep(&mut nothing);
        self.cascade(&mut nothing);
        self.end_check(&mut nothing);
    }

    /// A hash of the position for transposition tables (0 when the game does not provide one).
    fn zobrist(&self) -> u64 {
        0
    }
}

/// Text forms of a game: move tokens (atomic decisions), the position text and the spec's
/// game-record tokens, exactly as the spec writes them.
pub trait Notation: Rules {
    /// The name of the game as the CLI and saves write it (`red-stone`).
    const SLUG: &'static str;

    /// How the position text and the referee write each side, the first side first (`["b", "w"]`,
    /// `["L", "D"]`, `["A", "B"]`, …).
    const SIDE_LETTERS: [&'static str; 2];

    /// How the position text and the referee name a side (`"b"`, `"L"`, `"A"`, …).
    fn side_name(side: Side) -> &'static str {
        Self::SIDE_LETTERS[side.index()]
    }

    /// A side's letter as one character (a stack's owner in a position text, a placed piece).
    fn side_char(side: Side) -> char {
        Self::side_name(side).chars().next().unwrap_or('?')
    }

    /// The side whose letter `text` is, exactly as written.
    fn side_from_letter(text: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|&side| Self::side_name(side) == text)
    }

    /// The name of a board space (`"c3"`), for effects and the UI.
    fn cell_name(&self, cell: Cell) -> String;

    /// Reads an atomic decision.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;

    /// Writes an atomic decision so that `parse_move` reads it back.
    fn format_move(&self, m: &Self::Move) -> String;

    /// What decision `m` does here, from the move itself (its token is `format_move(m)`): its
    /// kind, side, spaces and piece, for the app's marks, previews, drags and buttons. Meant for
    /// a legal `m`; any other gives a description without a panic (spaces off the board are
    /// passed through as they are).
    fn describe(&self, m: &Self::Move) -> DecisionInfo;

    /// Reads a position text of the spec for these options, rejecting texts that break one of the
    /// spec's invariants with a clear message.
    fn parse_position(options: &Self::Options, text: &str) -> Result<Self, ParseError>;

    /// The canonical position text: equal positions give equal text.
    fn format_position(&self) -> String;

    /// Applies one game-record token (which may stand for several atomic decisions: a Gravel turn,
    /// a Hidden Intention attempt). On error the position is unchanged.
    fn play_record_token(&mut self, token: &str) -> Result<Effects, RecordError> {
        let m = self.parse_move(token).map_err(|source| RecordError::Parse { token: token.to_string(), source })?;
        self.play(&m).map_err(|source| RecordError::Illegal { token: token.to_string(), source })
    }

    /// The atomic decisions that `play_record_token(token)` plays from here, in order, for a game
    /// that can tell them from the token itself; `None` (the default) leaves a record reader to
    /// find them by searching the legal decisions, which only works for moves of a few decisions
    /// (a Throngs pie offer is up to 225, an Inchworm distribution as long as its stack is high).
    /// Errors are those of `play_record_token`.
    fn record_token_moves(&self, _token: &str) -> Option<Result<Vec<Self::Move>, RecordError>> {
        None
    }

    /// The moves of the game-record notation that the atomic `decisions` (played from `self`)
    /// make up, each with the side that started it, and how many trailing decisions do not
    /// complete a move yet (a Gravel turn or a Throngs part under way, a sealed commitment). By
    /// default every decision is a move.
    fn group_record_tokens(&self, decisions: &[String]) -> Result<RecordTokens, RecordError> {
        group_decisions(self, decisions, |_, _, _| true, |pos, moves| pos.format_move(&moves[0]))
    }

    /// Every legal record token for the side(s) to move, as the referee's `--legal` lists them.
    fn legal_record_tokens(&self) -> LegalTokens {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        LegalTokens::sorted(moves.iter().map(|m| self.format_move(m)))
    }
}

thread_local! {
    /// Decisions played with their effects on this thread (see [`plays_on_this_thread`]).
    static PLAYS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Notes one decision played with its effects (`Rules::play`, or a decision's first phase).
pub fn count_play() {
    PLAYS.with(|n| n.set(n.get() + 1));
}

/// How many decisions engines have played with their effects on this thread so far (searches,
/// which play without effects, are not counted): a measure of the work a caller does, for tests
/// that check it does not grow with a game's length.
pub fn plays_on_this_thread() -> u64 {
    PLAYS.with(|n| n.get())
}

/// For tests: the position of `G` after the record tokens `tokens`, from the start of a game with
/// the options `options` (the others at their defaults). Panics on a refused option or token.
#[cfg(test)]
pub(crate) fn position_after<G: Notation>(options: &[(&str, &str)], tokens: &[&str]) -> G {
    let options = G::Options::from_pairs(options.iter().copied()).unwrap_or_else(|e| panic!("{options:?}: {e}"));
    let mut position = G::new(&options);
    for token in tokens {
        position.play_record_token(token).unwrap_or_else(|e| panic!("{token}: {e}"));
    }
    position
}

/// Atomic decisions grouped into the moves of the game record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordTokens {
    pub moves: Vec<RecordMove>,
    /// Trailing decisions that do not complete a move yet (a turn or part under way, a sealed
    /// commitment).
    pub pending: usize,
}

/// One move of the game record made of atomic decisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The side that made it.
    pub side: Side,
    /// Its token in the spec's record notation.
    pub token: String,
    /// How many decisions had been played when it was complete (its last decision's index + 1).
    pub end: usize,
}

/// Plays `decisions` from `start`, closing a record move after each decision for which `done`
/// (given the position after it, the decision and its effects) says so; `join` writes a move from
/// the position it started in and its decisions.
pub fn group_decisions<G: Notation>(
    start: &G,
    decisions: &[String],
    done: impl Fn(&G, &G::Move, &Effects) -> bool,
    join: impl Fn(&G, &[G::Move]) -> String,
) -> Result<RecordTokens, RecordError> {
    let mut pos = start.clone();
    let mut group_start = pos.clone();
    let mut group: Vec<G::Move> = Vec::new();
    let mut side = Side::First;
    let mut out = Vec::new();
    for (i, d) in decisions.iter().enumerate() {
        let m = pos.parse_move(d).map_err(|source| RecordError::Parse { token: d.clone(), source })?;
        if group.is_empty() {
            side = pos.mover(&m);
        }
        let effects = pos.play(&m).map_err(|source| RecordError::Illegal { token: d.clone(), source })?;
        let finished = done(&pos, &m, &effects);
        group.push(m);
        if finished {
            out.push(RecordMove { side, token: join(&group_start, &group), end: i + 1 });
            group.clear();
            group_start = pos.clone();
        }
    }
    Ok(RecordTokens { moves: out, pending: group.len() })
}

/// The referee's `legal` listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LegalTokens {
    /// Every legal token, sorted.
    List(Vec<String>),
    /// Too many to list: only the exact count (beyond `u128` for Throngs' largest pie offers).
    CountOnly(ExactCount),
    /// Too many even to count in bounded memory and time: more than the listing cap, and how
    /// many of them were counted before the work ran out.
    Uncounted { counted_before_giving_up: u64 },
    /// Per side at a simultaneous node (sorted lists for `First` and `Second`).
    PerSide(Vec<String>, Vec<String>),
}

impl LegalTokens {
    /// The listing of these tokens: sorted, each once.
    pub fn sorted(tokens: impl IntoIterator<Item = String>) -> LegalTokens {
        let mut tokens: Vec<String> = tokens.into_iter().collect();
        tokens.sort();
        tokens.dedup();
        LegalTokens::List(tokens)
    }

    /// The number of tokens (for `Uncounted`, the ones counted before giving up).
    pub fn count(&self) -> ExactCount {
        match self {
            LegalTokens::List(v) => ExactCount::from(v.len() as u64),
            LegalTokens::CountOnly(n) => n.clone(),
            LegalTokens::Uncounted { counted_before_giving_up } => ExactCount::from(*counted_before_giving_up),
            LegalTokens::PerSide(a, b) => ExactCount::from((a.len() + b.len()) as u64),
        }
    }
}
