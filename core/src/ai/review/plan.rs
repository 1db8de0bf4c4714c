//! A review's plan: the turns judged (one side's part of one record move) and the positions the
//! computer analyses for them, each as a job of plain data that a task or the Web Worker runs.

use super::{GameReview, PositionAnalysis, ReviewSettings};
use crate::ai::DecideError;
use crate::games::{GameError, GameKind};
use crate::rules::{Side, Status, ToMove};
use crate::session::Match;
use serde::{Deserialize, Serialize};

/// One side's part of one record move: what a review judges.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewedTurn {
    /// The record move's number, from 1.
    pub number: usize,
    pub side: Side,
    /// The side's part of the record move as the move list writes it.
    pub text: String,
    /// The side's decisions.
    pub played: Vec<String>,
    /// Decisions of the game played before the record move, and when it is complete.
    pub from: usize,
    pub end: usize,
    /// Both sides sealed a commitment here (Hidden Intention's attempts).
    pub simultaneous: bool,
    /// The side's result when the game ended with this record move (1 won, ½ drawn, 0 lost).
    pub over_after: Option<f32>,
    /// The probe of the position before the turn, and of the position after it (sequential turns).
    pub probe: usize,
    pub next_probe: Option<usize>,
}

/// A position to analyse: after `prefix` decisions, for `side`, judging `turn`'s decisions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    pub prefix: usize,
    pub side: Side,
    pub turn: Option<usize>,
}

/// One position's analysis as plain data: the game, the decisions that lead there, the side, the
/// decisions it played there and the budget. The same job gives the same analysis wherever it runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeJob {
    pub game: String,
    pub options: Vec<(String, String)>,
    pub start: Option<String>,
    pub moves: Vec<String>,
    pub side: Side,
    pub played: Vec<String>,
    pub iterations: u64,
    pub seed: u64,
}

/// Why a game cannot be reviewed, or a job not run.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    #[error("the game cannot be opened: {0}")]
    Open(#[from] GameError),
    #[error("move {number} ({text}) cannot be replayed: {reason}")]
    Replay { number: usize, text: String, reason: String },
    #[error("the game has no complete move to review")]
    Empty,
    #[error(transparent)]
    Decide(#[from] DecideError),
    #[error("the job is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
}

fn replay(
    game: &str,
    options: &[(String, String)],
    start: Option<&str>,
    moves: &[String],
) -> Result<Match, ReviewError> {
    let kind = GameKind::from_slug(game).ok_or_else(|| ReviewError::UnknownGame(game.to_string()))?;
    let start = kind.open(options, start)?;
    Match::load(start, moves.iter().map(|m| (m.as_str(), 0))).map_err(|e| ReviewError::Replay {
        number: e.index,
        text: e.decision,
        reason: e.reason,
    })
}

impl ProbeJob {
    pub fn from_json(text: &str) -> Result<Self, ReviewError> {
        Ok(serde_json::from_str(text)?)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A job's JSON thought through, its analysis as JSON (the browser's worker).
    pub fn run_json(job: &str) -> Result<String, String> {
        let analysis = ProbeJob::from_json(job).and_then(|job| job.run()).map_err(|e| e.to_string())?;
        serde_json::to_string(&analysis).map_err(|e| e.to_string())
    }

    /// Thinks the job through (blocking: run it off the frame).
    pub fn run(&self) -> Result<PositionAnalysis, ReviewError> {
        let game = replay(&self.game, &self.options, self.start.as_deref(), &self.moves)?;
        Ok(crate::ai::games::analyse(game.position(), self.side, &self.played, self.iterations, self.seed)?)
    }
}

impl GameReview {
    /// The review of `game`'s decisions (its record moves; a move left unfinished is not judged),
    /// nothing analysed yet.
    pub fn plan(game: &Match, settings: ReviewSettings) -> Result<GameReview, ReviewError> {
        let decisions: Vec<String> = game.decisions().map(str::to_string).collect();
        let mut turns = Vec::new();
        let mut probes = Vec::new();
        let mut from = 0;
        for (k, record_move) in game.record_moves().iter().enumerate() {
            let before = game.position_before(from).unwrap_or(game.position());
            let after = game.position_before(record_move.end).unwrap_or(game.position());
            let simultaneous = before.to_move() == Some(ToMove::Both);
            let played = &game.played()[from..record_move.end];
            let mut sides: Vec<Side> = Vec::new();
            for p in played {
                if !sides.contains(&p.side) {
                    sides.push(p.side);
                }
            }
            if simultaneous {
                sides.sort();
            }
            for &side in &sides {
                let text = match record_move.token.split('|').nth(side.index()) {
                    Some(part) if simultaneous => part.to_string(),
                    _ if sides.len() > 1 && !simultaneous => played
                        .iter()
                        .filter(|p| p.side == side)
                        .map(|p| p.decision.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    _ => record_move.token.clone(),
                };
                let over_after = match after.status() {
                    Status::Over(outcome) => Some((outcome.score_for(side) + 1.0) * 0.5),
                    Status::Ongoing => None,
                };
                // A commitment is judged from the attempt's public start; a turn from its own start.
                let first = from + played.iter().position(|p| p.side == side).unwrap_or(0);
                let prefix = if simultaneous { from } else { first };
                probes.push(Probe { prefix, side, turn: Some(turns.len()) });
                turns.push(ReviewedTurn {
                    number: k + 1,
                    side,
                    text,
                    played: played.iter().filter(|p| p.side == side).map(|p| p.decision.clone()).collect(),
                    from,
                    end: record_move.end,
                    simultaneous,
                    over_after,
                    probe: probes.len() - 1,
                    next_probe: None,
                });
            }
            from = record_move.end;
        }
        if turns.is_empty() {
            return Err(ReviewError::Empty);
        }
        // The position after the last complete move, when a sequential game goes on from there.
        let last = turns.last().expect("not empty");
        if !last.simultaneous && last.over_after.is_none() {
            let position = game.position_before(from).unwrap_or(game.position());
            if let Some(ToMove::One(side)) = position.to_move() {
                probes.push(Probe { prefix: from, side, turn: None });
            }
        }
        // A sequential turn is judged against the analysis of the position after it.
        for turn in turns.iter_mut().filter(|t| !t.simultaneous && t.over_after.is_none()) {
            turn.next_probe = probes.iter().position(|p| p.prefix == turn.end);
        }
        let analyses = vec![None; probes.len()];
        Ok(GameReview {
            settings,
            game: game.kind().slug().to_string(),
            options: game.start().option_pairs(),
            start: game.start_text().map(str::to_string),
            decisions,
            turns,
            probes,
            analyses,
        })
    }
}

/// Decisions played from `position` as the move list writes them: their record token when they
/// make one whole move, else the decisions themselves (a commitment, a line over several moves).
pub fn decisions_text(position: &dyn crate::games::DynGame, decisions: &[String]) -> String {
    match position.record_tokens(decisions) {
        Ok(tokens) if tokens.pending == 0 && !tokens.moves.is_empty() => {
            tokens.moves.iter().map(|m| m.token.as_str()).collect::<Vec<_>>().join(" ")
        }
        _ => decisions.join(" "),
    }
}
