//! `DynGame`: any game behind one object-safe handle, driven by record tokens and texts. It holds
//! the rules only; the computer's side (its `ai::games` table) finds the concrete game through
//! [`DynGame::as_any`].

use super::{About, GameKind, Warning};
use crate::rules::{
    BoardView, Cell, DecisionInfo, DrawBoard, Effects, LegalTokens, OptionError, Outcome, ParseError, PlayoutStats,
    RecordError, Side, Status, ToMove, counted_random_playout, random_playout,
};
use serde_json::{Value, json};
use thiserror::Error;

/// Why a game could not be opened or written.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    #[error(transparent)]
    Option(#[from] OptionError),
    #[error("bad position text: {0}")]
    Position(#[from] ParseError),
}

/// A game in progress, whatever the game. Implemented for every game of the registry.
pub trait DynGame: Send + Sync {
    fn kind(&self) -> GameKind;
    /// The canonical position text of the spec.
    fn position_text(&self) -> String;
    fn to_move(&self) -> Option<ToMove>;
    fn status(&self) -> Status;
    /// How the game's notation names a side (`"b"`, `"L"`, `"A"`).
    fn side_name(&self, side: Side) -> &'static str;
    /// Applies one game-record token; on error nothing changes.
    fn play_token(&mut self, token: &str) -> Result<Effects, RecordError>;
    fn legal_tokens(&self) -> LegalTokens;
    /// Effects as JSON with cells and sides written in the game's notation.
    fn effects_json(&self, effects: &Effects) -> Value;
    /// The options as `key=value` pairs.
    fn option_pairs(&self) -> Vec<(String, String)>;
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// The concrete position, for the computer's side of the program (the `ai::games` table).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The legal atomic decisions of `side` (one click each), as `Notation::format_move` writes them.
    fn legal_decisions(&self, side: Side) -> Vec<String>;
    /// Whether `side` may make `decision` now, written as `legal_decisions` writes it: read as the
    /// game's move and looked for among the side's legal moves (none is written out).
    fn may_decide(&self, side: Side, decision: &str) -> bool;
    /// `side`'s whole commitment at this simultaneous node, its decisions chosen one at a time by
    /// `choose` on the side's own copy of the position (`rules::commit_on_own_copy`): `choose`
    /// sees the copy, the side's legal decisions there and how many it has made. `None` when
    /// `choose` gives up or names a decision that is not legal.
    fn commit_on_own_copy(&self, side: Side, choose: &mut ChooseDecision<'_>) -> Option<Vec<String>>;
    /// What each of `legal_decisions(side)` does (`Notation::describe`), in the same order: the
    /// app's marks, previews, drags and buttons read these rather than the tokens' text.
    fn legal_described(&self, side: Side) -> Vec<DecisionInfo>;
    /// What the atomic decision `token` does here, if it reads as one (a legal decision, or one
    /// that parses now; its `token` is then the canonical form); `None` when it does not parse.
    fn describe_decision(&self, token: &str) -> Option<DecisionInfo>;
    /// Plays one atomic decision written as `Notation::format_move` writes it; on error nothing changes.
    fn play_decision(&mut self, text: &str) -> Result<Effects, RecordError>;
    /// The game-record moves (spec notation) that atomic `decisions` played from here make up,
    /// with who made each, and how many trailing decisions do not complete a move yet.
    fn record_tokens(&self, decisions: &[String]) -> Result<crate::rules::RecordTokens, RecordError>;
    /// The atomic decisions one game-record token stands for from here, written as
    /// `legal_decisions` writes them, when the game can tell them from the token
    /// (`Notation::record_token_moves`); `None` when they must be searched for.
    fn split_token(&self, token: &str) -> Option<Result<Vec<String>, RecordError>>;
    /// Phase 1 of a decision (validate and apply it, `Rules::place`); on error nothing changes.
    fn phase_place(&mut self, text: &str) -> Result<Effects, RecordError>;
    /// Phase 2 (`Rules::capture_sweep`).
    fn phase_capture_sweep(&mut self) -> Effects;
    /// Phase 3 (`Rules::cascade`).
    fn phase_cascade(&mut self) -> Effects;
    /// Phase 4 (`Rules::end_check`).
    fn phase_end_check(&mut self) -> Effects;
    /// The board as the app draws it.
    fn board_view(&self) -> BoardView;
    /// Each side's pieces on the board, by `Side::index` (`DrawBoard::pieces_on_board`).
    fn pieces_on_board(&self) -> [u32; 2];
    /// Perft over atomic decisions from this position.
    fn perft(&self, depth: u32) -> u64;
    /// Random playouts from this position for about `seconds`, one thread, seeded.
    fn bench(&self, seconds: f64, seed: u64) -> BenchReport;
    /// What the side to act can do now, in words (`About::to_do`).
    fn to_do(&self) -> Option<String>;
    /// Why the game ended, in words (`About::end_reason`).
    fn end_reason(&self) -> Option<String>;
    /// Why nothing can be done at `cell` now, in words (`About::why_nothing_at`).
    fn why_nothing_at(&self, cell: Cell) -> Option<String>;
    /// The spaces of `side` the opponent could take on its next turn (`About::threatened`), for
    /// danger marks; empty for games that mark no such danger this way.
    fn threatened(&self, side: Side) -> Vec<Cell>;
    /// What to tell the side to act before it makes `decision`, when that lets the opponent win at
    /// once (`About::warning_before`: Gravel's `end`).
    fn warning_before(&self, decision: &str) -> Option<Warning>;
}

/// What `stoneyard bench` measures for one game.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct BenchReport {
    pub playouts: u64,
    pub playouts_per_s: f64,
    pub plies_per_playout: f64,
    pub legal_per_state: f64,
}

/// Chooses a side's next decision of a commitment from its own copy of the position, its legal
/// decisions there and how many it has made (`DynGame::commit_on_own_copy`).
pub type ChooseDecision<'a> = dyn FnMut(&dyn DynGame, &[String], usize) -> Option<String> + 'a;

/// No playout is allowed more decisions than this (a guard against a game that never ends).
pub const PLAYOUT_PLY_LIMIT: u64 = 1_000_000;

/// How many of a bench's playouts are played again to count the decisions per state.
const BENCH_COUNTED_PLAYOUTS: u64 = 20;

impl<G: About> DynGame for G {
    fn kind(&self) -> GameKind {
        GameKind::from_slug(G::SLUG).expect("every game with a handle is in the registry (games::GAMES)")
    }
    fn position_text(&self) -> String {
        self.format_position()
    }
    fn to_move(&self) -> Option<ToMove> {
        crate::rules::Rules::to_move(self)
    }
    fn status(&self) -> Status {
        crate::rules::Rules::status(self)
    }
    fn side_name(&self, side: Side) -> &'static str {
        G::side_name(side)
    }
    fn play_token(&mut self, token: &str) -> Result<Effects, RecordError> {
        self.play_record_token(token)
    }
    fn legal_tokens(&self) -> LegalTokens {
        self.legal_record_tokens()
    }
    fn effects_json(&self, effects: &Effects) -> Value {
        Value::Array(
            effects
                .iter()
                .map(|e| {
                    let mut v = serde_json::to_value(e).expect("effects serialise");
                    name_cells_and_sides(&mut v, &|c| self.cell_name(c), &G::side_name);
                    v
                })
                .collect(),
        )
    }
    fn option_pairs(&self) -> Vec<(String, String)> {
        crate::rules::GameOptions::to_pairs(crate::rules::Rules::options(self))
    }
    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn legal_decisions(&self, side: Side) -> Vec<String> {
        let mut moves = Vec::new();
        self.legal_moves_for(side, &mut moves);
        moves.iter().map(|m| self.format_move(m)).collect()
    }
    fn may_decide(&self, side: Side, decision: &str) -> bool {
        let Ok(m) = self.parse_move(decision) else { return false };
        let mut moves = Vec::new();
        self.legal_moves_for(side, &mut moves);
        moves.contains(&m) && self.format_move(&m) == decision
    }
    fn commit_on_own_copy(&self, side: Side, choose: &mut ChooseDecision<'_>) -> Option<Vec<String>> {
        let mut named = Vec::new();
        crate::rules::commit_on_own_copy(self, side, &[], usize::MAX, |own, legal, made| {
            let listed: Vec<String> = legal.iter().map(|m| own.format_move(m)).collect();
            let chosen = choose(own, &listed, made.len())?;
            let m = legal[listed.iter().position(|d| *d == chosen)?].clone();
            named.push(chosen);
            Some(m)
        })?;
        Some(named)
    }
    fn legal_described(&self, side: Side) -> Vec<DecisionInfo> {
        let mut moves = Vec::new();
        self.legal_moves_for(side, &mut moves);
        moves.iter().map(|m| self.describe(m)).collect()
    }
    fn describe_decision(&self, token: &str) -> Option<DecisionInfo> {
        self.parse_move(token).ok().map(|m| self.describe(&m))
    }
    fn record_tokens(&self, decisions: &[String]) -> Result<crate::rules::RecordTokens, RecordError> {
        self.group_record_tokens(decisions)
    }
    fn split_token(&self, token: &str) -> Option<Result<Vec<String>, RecordError>> {
        let moves = match self.record_token_moves(token)? {
            Ok(moves) => moves,
            Err(e) => return Some(Err(e)),
        };
        // A decision is written in the position it is made in (a Throngs offered stone names
        // its colour), so the moves are replayed to write each.
        let mut position = self.clone();
        let mut decisions = Vec::with_capacity(moves.len());
        for m in &moves {
            decisions.push(position.format_move(m));
            if let Err(source) = position.play(m) {
                return Some(Err(RecordError::Illegal { token: token.to_string(), source }));
            }
        }
        Some(Ok(decisions))
    }
    fn play_decision(&mut self, text: &str) -> Result<Effects, RecordError> {
        let m = self.parse_move(text).map_err(|source| RecordError::Parse { token: text.to_string(), source })?;
        self.play(&m).map_err(|source| RecordError::Illegal { token: text.to_string(), source })
    }
    fn phase_place(&mut self, text: &str) -> Result<Effects, RecordError> {
        let m = self.parse_move(text).map_err(|source| RecordError::Parse { token: text.to_string(), source })?;
        self.check(&m).map_err(|source| RecordError::Illegal { token: text.to_string(), source })?;
        crate::rules::count_play();
        Ok(effects_of(|effects| self.place(&m, effects)))
    }
    fn phase_capture_sweep(&mut self) -> Effects {
        effects_of(|effects| self.capture_sweep(effects))
    }
    fn phase_cascade(&mut self) -> Effects {
        effects_of(|effects| self.cascade(effects))
    }
    fn phase_end_check(&mut self) -> Effects {
        effects_of(|effects| self.end_check(effects))
    }
    fn board_view(&self) -> BoardView {
        DrawBoard::board_view(self)
    }
    fn pieces_on_board(&self) -> [u32; 2] {
        DrawBoard::pieces_on_board(self)
    }
    fn perft(&self, depth: u32) -> u64 {
        crate::rules::perft(self, depth)
    }
    fn to_do(&self) -> Option<String> {
        About::to_do(self)
    }
    fn end_reason(&self) -> Option<String> {
        About::end_reason(self)
    }
    fn why_nothing_at(&self, cell: Cell) -> Option<String> {
        About::why_nothing_at(self, cell)
    }
    fn threatened(&self, side: Side) -> Vec<Cell> {
        About::threatened(self, side)
    }
    fn warning_before(&self, decision: &str) -> Option<Warning> {
        About::warning_before(self, decision)
    }
    fn bench(&self, seconds: f64, seed: u64) -> BenchReport {
        let mut rng = crate::rules::seeded(seed);
        let mut moves = Vec::new();
        let mut stats = PlayoutStats::default();
        let mut playouts = 0u64;
        let start = web_time::Instant::now();
        while playouts == 0 || start.elapsed().as_secs_f64() < seconds {
            let mut one = PlayoutStats::default();
            random_playout(&mut self.clone(), &mut rng, &mut moves, PLAYOUT_PLY_LIMIT, &mut one);
            stats.plies += one.plies;
            playouts += 1;
        }
        let elapsed = start.elapsed().as_secs_f64().max(1e-9);
        // Outside the timing: the same seed's first playouts again, listing every state's decisions.
        let mut rng = crate::rules::seeded(seed);
        let mut counted = PlayoutStats::default();
        for _ in 0..playouts.min(BENCH_COUNTED_PLAYOUTS) {
            let mut one = PlayoutStats::default();
            counted_random_playout(&mut self.clone(), &mut rng, &mut moves, PLAYOUT_PLY_LIMIT, &mut one);
            counted.plies += one.plies;
            counted.legal_total += one.legal_total;
        }
        BenchReport {
            playouts,
            playouts_per_s: playouts as f64 / elapsed,
            plies_per_playout: stats.plies as f64 / playouts as f64,
            legal_per_state: counted.legal_total as f64 / counted.plies.max(1) as f64,
        }
    }
}

/// The effects one phase reports.
fn effects_of(phase: impl FnOnce(&mut Effects)) -> Effects {
    let mut effects = Effects::new();
    phase(&mut effects);
    effects
}

/// Rewrites cell indexes as names and sides as the game writes them, in a serialised effect.
fn name_cells_and_sides(v: &mut Value, cell: &dyn Fn(u16) -> String, side: &dyn Fn(Side) -> &'static str) {
    let Value::Object(map) = v else { return };
    let side_of = |s: &Value| match s.as_str() {
        Some("First") => Some(side(Side::First)),
        Some("Second") => Some(side(Side::Second)),
        _ => None,
    };
    for (key, val) in map.iter_mut() {
        match key.as_str() {
            "cell" | "from" | "to" | "a" | "b" => {
                if let Some(n) = val.as_u64() {
                    *val = json!(cell(n as u16));
                } else if let Value::Array(items) = val {
                    for it in items.iter_mut() {
                        if let Some(n) = it.as_u64() {
                            *it = json!(cell(n as u16));
                        }
                    }
                }
            }
            "cells" | "path" => {
                if let Value::Array(items) = val {
                    for it in items.iter_mut() {
                        if let Some(n) = it.as_u64() {
                            *it = json!(cell(n as u16));
                        }
                    }
                }
            }
            "by" | "owner" | "side" => {
                if let Some(name) = side_of(val) {
                    *val = json!(name);
                }
            }
            "outcome" => {
                *val = match val {
                    Value::String(s) if s == "Draw" => json!("draw"),
                    Value::Object(o) => match o.get("Winner").and_then(side_of) {
                        Some(name) => json!({ "winner": name }),
                        None => val.clone(),
                    },
                    _ => val.clone(),
                }
            }
            _ => {}
        }
    }
}

/// The referee's status value: `"ongoing"`, `"draw"` or `{"winner": side}`.
pub fn status_json(game: &dyn DynGame) -> Value {
    match game.status() {
        Status::Ongoing => json!("ongoing"),
        Status::Over(Outcome::Draw) => json!("draw"),
        Status::Over(Outcome::Winner(s)) => json!({ "winner": game.side_name(s) }),
    }
}

/// Opens a game (see [`GameKind::open`]).
pub fn open(
    kind: GameKind,
    options: &[(String, String)],
    position: Option<&str>,
) -> Result<Box<dyn DynGame>, GameError> {
    kind.open(options, position)
}
