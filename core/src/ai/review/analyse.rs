//! One position of a reviewed game thought about: the mover's win chance with the computer's best
//! play, the decisions it prefers and the line it expects after them, and (where both sides seal
//! a commitment) what it learnt of the commitment actually played.

use crate::ai::budget::Budget;
use crate::ai::knowledge::GamePolicy;
use crate::ai::knowledge::{CalibratedEvaluator, Knowledge};
use crate::ai::level::{Calibration, Level, budget_for};
use crate::ai::mcts::Searcher;
use crate::ai::policy::playout_value;
use crate::ai::{DecideError, MAX_TURN_DECISIONS};
use crate::games::DynGame;
use crate::rules::commit_on_own_copy;
use crate::rules::{GameRng, Notation, Outcome, Side, Status, ToMove, pick_index, seeded};
use rand::RngExt;
use serde::{Deserialize, Serialize};

/// The searches a simultaneous position's analysis averages (see [`analyse_as`]).
const SIMULTANEOUS_SEARCHES: usize = 8;
/// Decisions of the expected line, the preferred ones included.
const MAX_LINE: usize = 16;
/// A decision of the line needs this many visits: fewer say little about what would follow.
const MIN_LINE_VISITS: u32 = 8;
/// The opponent's commitments each side's commitment is played out against (Hidden Intention's
/// playouts are short: about 4 ms for all of them).
const COMMITMENT_SAMPLES: usize = 2400;

/// What the computer thinks of one position of a game, for the side whose decision is reviewed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionAnalysis {
    pub side: Side,
    /// The side's win chance (0 to 1) with the computer's best play from here.
    pub win: f32,
    /// Where both sides seal a commitment: the side's win chance after the commitment it played,
    /// judged from this position (what it knew then), against the opponent's unknown choice.
    /// `None` for one side's turn (the next position tells) or a commitment the search never tried.
    pub played_win: Option<f32>,
    /// The decisions the computer prefers for the side here (its turn, or its commitment).
    pub best: Vec<String>,
    /// What the computer expects to follow them, decisions of either side.
    pub line: Vec<String>,
    /// Search iterations spent on the position.
    pub iterations: u64,
    /// The preferred decisions win the game at once.
    #[serde(default)]
    pub wins_at_once: bool,
}

/// A side's win chance from a search's mean reward in [-1, 1].
fn chance(mean: f32) -> f32 {
    ((mean + 1.0) * 0.5).clamp(0.0, 1.0)
}

/// Thinks about `game` for `side` (`played`: the decisions it played here) with MCTS of
/// `iterations` iterations, Hard's playout policy cut at the game's `review_playout_cap` and the
/// calibrated evaluation (so that its means are win chances), from `seed`.
///
/// Where both sides seal a commitment, [`SIMULTANEOUS_SEARCHES`] searches share the iterations,
/// each from its own seed, and their win chances are averaged: one search's mixed strategies
/// (which commitments it tries, and how often) move from seed to seed far more than its
/// statistics do, and that moved the win chances by 3 points.
pub(crate) fn analyse_as<G: Notation + Knowledge>(
    game: &dyn DynGame,
    side: Side,
    played: &[String],
    calibration: &Calibration,
    iterations: u64,
    seed: u64,
) -> Result<PositionAnalysis, DecideError> {
    let start = game.as_any().downcast_ref::<G>().ok_or(DecideError::UnknownGame)?;
    if start.to_move() != Some(ToMove::Both) {
        return analyse_once(start, side, played, calibration, iterations, seed);
    }
    let share = iterations.div_ceil(SIMULTANEOUS_SEARCHES as u64);
    let runs = (0..SIMULTANEOUS_SEARCHES as u64)
        .map(|k| analyse_once(start, side, played, calibration, share, seed.wrapping_add(k.wrapping_mul(0x9E37_79B9))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(merge_runs(runs))
}

/// One analysis of several searches of the same position: the mean win chances, the iterations
/// together, and the preferred commitment most of them chose (the first search's on a tie).
fn merge_runs(runs: Vec<PositionAnalysis>) -> PositionAnalysis {
    let n = runs.len().max(1) as f32;
    let win = runs.iter().map(|r| r.win).sum::<f32>() / n;
    let played_win =
        runs.iter().map(|r| r.played_win).collect::<Option<Vec<f32>>>().map(|wins| wins.iter().sum::<f32>() / n);
    let iterations = runs.iter().map(|r| r.iterations).sum();
    let votes = |r: &PositionAnalysis| runs.iter().filter(|o| o.best == r.best).count();
    let most = runs.iter().map(votes).max().unwrap_or(0);
    let chosen = runs.iter().position(|r| votes(r) == most).unwrap_or(0);
    let mut merged = runs.into_iter().nth(chosen).expect("at least one search");
    merged.win = win;
    merged.played_win = played_win;
    merged.iterations = iterations;
    merged
}

/// [`analyse_as`] with one search.
fn analyse_once<G: Notation + Knowledge>(
    start: &G,
    side: Side,
    played: &[String],
    calibration: &Calibration,
    iterations: u64,
    seed: u64,
) -> Result<PositionAnalysis, DecideError> {
    let mut pos = start.clone();
    let mut best = Vec::new();
    let mut moves = Vec::new();
    // Forced decisions are played out first: a search has nothing to say about a single choice.
    loop {
        if let Status::Over(outcome) = pos.status() {
            return Ok(settled(side, outcome, best));
        }
        pos.legal_moves_for(side, &mut moves);
        if moves.len() != 1 || best.len() >= MAX_TURN_DECISIONS {
            break;
        }
        best.push(pos.format_move(&moves[0]));
        pos.play_unchecked(&moves[0]);
    }
    let simultaneous = start.to_move() == Some(ToMove::Both);
    let decider = match pos.to_move() {
        _ if !moves.is_empty() => side,
        Some(ToMove::One(other)) => other,
        // The side's whole commitment was forced: the opponent's view of the public position
        // (which holds nothing of it) says how the attempt stands.
        Some(ToMove::Both) => {
            pos = start.clone();
            best.clear();
            side.opponent()
        }
        None => return Err(DecideError::GameOver),
    };
    let mut preset = budget_for(Level::Hard, calibration);
    preset.playout_cap = calibration.review_playout_cap;
    let mut searcher = Searcher::with_policy(preset.config(), preset.policy(), CalibratedEvaluator, seed);
    searcher.begin(&pos, decider)?;
    let report = searcher.think(&Budget::iterations(iterations));
    // The side's own turn is followed to its end however few visits its last decisions had (a
    // turn cut short could never be played as it stands); what follows needs some visits.
    let principal = searcher.principal_line(MAX_LINE, 1);
    let root_mean =
        principal.first().map_or_else(|| searcher.root_statistics().first().map_or(0.0, |s| s.mean), |s| s.mean);
    let mut win = chance(if decider == side { root_mean } else { -root_mean });
    let mut line = Vec::new();
    let mut after = pos.clone();
    let mut own_turn = decider == side;
    let mut preferred = Vec::new();
    for step in &principal {
        own_turn &= step.side == side;
        if !own_turn && step.visits < MIN_LINE_VISITS {
            break;
        }
        let text = after.format_move(&step.mv);
        after.play_unchecked(&step.mv);
        if own_turn {
            best.push(text);
            preferred.push(step.mv.clone());
        } else {
            line.push(text);
        }
    }
    // A side that moves again at once (a turn that ends where the record closes it) keeps only
    // its first record move as the preferred one; the rest is the expected line.
    if !simultaneous
        && let Ok(tokens) = start.group_record_tokens(&best)
        && let Some(first) = tokens.moves.first()
        && first.end < best.len()
    {
        let rest = best.split_off(first.end);
        line.splice(0..0, rest);
    }
    let mut played_win = None;
    if simultaneous && decider == side {
        // Both commitments complete, each played out against the same draws of the opponent's
        // commitment from the search's own mixed strategy: the tree seldom tries a poor
        // commitment to its end, so its statistics alone would judge it by a prefix.
        let path = parse_path(&pos, played.get(best_forced_len(start, played)..).unwrap_or_default());
        let mut rng = seeded(seed ^ 0x5EED_0FC0_FFEE);
        let answers: Vec<Vec<G::Move>> =
            (0..COMMITMENT_SAMPLES).map(|_| sample_commitment(&searcher, &pos, side.opponent(), &mut rng)).collect();
        let against = |mine: &[G::Move], rng: &mut GameRng| {
            let mut total = 0.0;
            let mut moves = Vec::new();
            for answer in &answers {
                let mut p = pos.clone();
                for m in mine.iter().chain(answer) {
                    p.play_unchecked(m);
                }
                let value =
                    playout_value(&mut p, &preset.policy(), &CalibratedEvaluator, preset.playout_cap, rng, &mut moves);
                total += if side == Side::First { value } else { -value };
            }
            chance(total / answers.len().max(1) as f32)
        };
        let complete = |mine: &[G::Move], rng: &mut GameRng| complete_commitment(&pos, side, mine, rng);
        let played_commitment = complete(&path, &mut rng);
        // The position's worth: the side's own mixed strategy against the opponent's, pair by
        // pair. (Against one mix the best pure commitment moves with every draw of that mix; the
        // mixes' value is what both strategies' searches agree on.)
        let mine: Vec<Vec<G::Move>> =
            (0..COMMITMENT_SAMPLES).map(|_| sample_commitment(&searcher, &pos, side, &mut rng)).collect();
        let draws = rng.clone();
        let mut total = 0.0;
        let mut moves = Vec::new();
        let mut mix_rng = draws.clone();
        for (own, answer) in mine.iter().zip(&answers) {
            let mut p = pos.clone();
            for m in own.iter().chain(answer) {
                p.play_unchecked(m);
            }
            let value = playout_value(
                &mut p,
                &preset.policy(),
                &CalibratedEvaluator,
                preset.playout_cap,
                &mut mix_rng,
                &mut moves,
            );
            total += if side == Side::First { value } else { -value };
        }
        win = chance(total / mine.len().max(1) as f32);
        played_win = Some(against(&played_commitment, &mut draws.clone()));
    }
    let wins_at_once = wins_at_once(start, side, &best);
    Ok(PositionAnalysis { side, win, played_win, best, line, iterations: report.iterations, wins_at_once })
}

/// Whether `decisions` played from `start` end the game with `side` the winner.
fn wins_at_once<G: Notation>(start: &G, side: Side, decisions: &[String]) -> bool {
    let mut pos = start.clone();
    for text in decisions {
        let Ok(m) = pos.parse_move(text) else { return false };
        pos.play_unchecked(&m);
    }
    pos.status() == Status::Over(Outcome::Winner(side))
}

/// How many of `played` were forced at the start (the same the analysis played out itself).
fn best_forced_len<G: Notation>(start: &G, played: &[String]) -> usize {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut forced = 0;
    for text in played {
        let Some(side) = pos.parse_move(text).ok().map(|m| pos.mover(&m)) else { break };
        pos.legal_moves_for(side, &mut moves);
        if moves.len() != 1 {
            break;
        }
        pos.play_unchecked(&moves[0]);
        forced += 1;
    }
    forced
}

/// `played` as moves from `pos`, as far as they parse.
fn parse_path<G: Notation>(pos: &G, played: &[String]) -> Vec<G::Move> {
    let mut at = pos.clone();
    let mut path = Vec::new();
    for text in played {
        let Ok(m) = at.parse_move(text) else { break };
        at.play_unchecked(&m);
        path.push(m);
    }
    path
}

/// A commitment of `side` from `pos` drawn from the search's statistics: at each of its choices
/// a decision in proportion to its visits, uniformly among the legal ones where the tree has none.
fn sample_commitment<G: Notation + Knowledge>(
    searcher: &Searcher<G, GamePolicy, CalibratedEvaluator>,
    pos: &G,
    side: Side,
    rng: &mut GameRng,
) -> Vec<G::Move> {
    let picked = commit_on_own_copy(pos, side, &[], MAX_TURN_DECISIONS, |_, moves, chosen| {
        let arms = searcher.commitment_arms(side, chosen);
        let visits: u32 = arms.iter().map(|a| a.visits).sum();
        if visits == 0 {
            return Some(moves[pick_index(rng, moves.len())].clone());
        }
        let mut roll = rng.random_range(0..visits);
        let drawn = arms.iter().find(|a| {
            let hit = roll < a.visits;
            roll = roll.saturating_sub(a.visits);
            hit
        });
        Some(drawn.map_or_else(|| moves[0].clone(), |a| a.mv.clone()))
    });
    // The tree's decisions are legal ones; were one not, a random commitment stands in.
    picked.unwrap_or_else(|| complete_commitment(pos, side, &[], rng))
}

/// `start` completed to a whole commitment of `side` (random legal decisions where it stops
/// short: the search's preferred line may end before the commitment does).
fn complete_commitment<G: Notation>(pos: &G, side: Side, start: &[G::Move], rng: &mut GameRng) -> Vec<G::Move> {
    let completed = commit_on_own_copy(pos, side, start, MAX_TURN_DECISIONS, |_, moves, _| {
        Some(moves[pick_index(rng, moves.len())].clone())
    });
    // The searched line is legal; were it not, it is kept as it is (the caller plays it checked).
    completed.unwrap_or_else(|| start.to_vec())
}

/// A position whose game is over once the side's forced decisions are played.
fn settled(side: Side, outcome: Outcome, best: Vec<String>) -> PositionAnalysis {
    let win = chance(outcome.score_for(side));
    let wins_at_once = outcome == Outcome::Winner(side);
    PositionAnalysis { side, win, played_win: None, best, line: Vec::new(), iterations: 0, wins_at_once }
}
