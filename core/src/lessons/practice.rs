//! Practice positions: a position where one whole turn wins the game, or wins more material than
//! any other turn once the opponent has answered, kept in `assets/practice/<game>.ron` beside the
//! lessons. Found in the computer's self-play ([`find`]) and each checked ([`check`]) by an
//! exhaustive search two turns deep: every turn of the learner that takes as much as the solution,
//! answered by every turn of the opponent.
//!
//! Material is what a turn's effects take off the board for good: each piece of the opponent's is
//! +1, each of the learner's own −1 (a piece taken back into its owner's pool is not lost); a turn
//! that wins the game beats them all.

pub use super::verdict::Verdict;
use crate::ai::{Level, Timing, games::decide_timed};
use crate::games::{DynGame, GameKind};
use crate::rules::{EffectKind, GameRng, Outcome, PieceShape, RemoveCause, Side, Status, ToMove, pick_index, seeded};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// One game's practice positions, easiest first.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct PracticeBook {
    pub game: String,
    pub positions: Vec<Practice>,
}

/// One position to solve.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Practice {
    /// Unique in its book; the player's streak and ticks are kept under it.
    pub id: String,
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// The rule book's position text; the learner is the side to move.
    pub position: String,
    /// Where both sides commit at once (Hidden Intention): the side the learner plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learner: Option<Side>,
    /// The learner's turn that solves it, as atomic decisions.
    pub solution: Vec<String>,
    /// What the solution wins: `None` the game, `Some(n)` n pieces after the best reply.
    pub wins: Option<i32>,
    /// 1 easy, 2 medium, 3 hard.
    pub grade: u8,
    /// Where the computer's self-play met it.
    pub found: String,
}

/// How many positions a search of whole turns may visit before it gives up.
pub const TURN_CAP: usize = 20_000;
/// Where both sides commit at once, how many pairs of commitments the search may try for each
/// position of `TURN_CAP` (a pair costs about as much as a position).
const PAIRS_PER_TURN: usize = 100;

/// One whole turn of a side: its decisions, the material it won, and the position it leaves.
#[derive(Debug, Clone)]
pub struct Turn {
    pub decisions: Vec<String>,
    pub gain: i32,
    pub wins: bool,
    pub after: String,
}

/// The pieces `effects` took off the board for good, as `side` counts them: the opponent's +1
/// each, its own −1 each (a whole stack captured counts its height; a piece taken back into its
/// owner's pool counts nothing).
fn material(before: &dyn DynGame, effects: &[crate::rules::Effect], side: Side) -> i32 {
    let view = before.board_view();
    let piece_at = |cell: crate::rules::Cell| view.cells.iter().find(|c| c.cell == cell).and_then(|c| c.piece);
    let signed = |owner: Option<Side>, count: i32| match owner {
        Some(owner) if owner == side => -count,
        Some(_) => count,
        None => 0,
    };
    effects
        .iter()
        .map(|e| match &e.kind {
            EffectKind::Removed { cell, count, cause } if *cause != RemoveCause::Returned => {
                piece_at(*cell).map_or(0, |p| signed(p.owner, i32::from(*count)))
            }
            EffectKind::Captured { cells, .. } => cells
                .iter()
                .filter_map(|&c| piece_at(c))
                .map(|p| {
                    let height = match p.shape {
                        PieceShape::Stack { height } => i32::from(height),
                        _ => 1,
                    };
                    signed(p.owner, height)
                })
                .sum(),
            _ => 0,
        })
        .sum()
}

/// Every different whole turn `side` can play from `game` (different by the position it leaves),
/// or `None` when that takes more than `cap` positions. A turn ends when the side is no longer the
/// one to move, or the game ends.
pub fn whole_turns(game: &dyn DynGame, side: Side, cap: usize) -> Option<Vec<Turn>> {
    let mut seen = HashSet::new();
    let mut turns = Vec::new();
    let mut stack = vec![(game.clone_box(), Vec::<String>::new(), 0)];
    let mut visited = 0usize;
    while let Some((position, decisions, gain)) = stack.pop() {
        let turn_over = position.status().is_over() || position.to_move() != Some(ToMove::One(side));
        if turn_over && !decisions.is_empty() {
            let wins = position.status() == Status::Over(Outcome::Winner(side));
            turns.push(Turn { decisions, gain, wins, after: position.position_text() });
            continue;
        }
        if turn_over {
            return Some(Vec::new());
        }
        for decision in position.legal_decisions(side) {
            let mut next = position.clone_box();
            let Ok(effects) = next.play_decision(&decision) else { continue };
            visited += 1;
            if visited > cap {
                return None;
            }
            if !seen.insert(next.position_text()) {
                continue;
            }
            let mut path = decisions.clone();
            path.push(decision);
            let won = gain + material(position.as_ref(), &effects, side);
            stack.push((next, path, won));
        }
    }
    Some(turns)
}

/// A turn's worth once the opponent has answered it as well as it can: `None` when it wins the
/// game; `Err` when the answers are too many to search.
fn after_best_reply(game: &dyn DynGame, side: Side, turn: &Turn, cap: usize) -> Result<Option<i32>, ()> {
    if turn.wins {
        return Ok(None);
    }
    let mut after = game.clone_box();
    for d in &turn.decisions {
        after.play_decision(d).map_err(|_| ())?;
    }
    if after.status().is_over() {
        return Ok(Some(turn.gain));
    }
    let replies = whole_turns(after.as_ref(), side.opponent(), cap).ok_or(())?;
    // A reply that wins the game is worth more than any material.
    let best = replies.iter().map(|r| if r.wins { i32::MAX / 2 } else { r.gain }).max().unwrap_or(0);
    Ok(Some(turn.gain - best))
}

/// Whether `game` (its side to move the learner) has one best turn that wins the game, or wins at
/// least one piece more than every other turn after the opponent's best answer.
pub fn judge(game: &dyn DynGame, cap: usize) -> Result<Verdict, String> {
    let side = match game.to_move() {
        Some(ToMove::One(side)) => side,
        Some(ToMove::Both) => return super::commitments::judge(game, cap.saturating_mul(PAIRS_PER_TURN)),
        None => return Err("the game is over".into()),
    };
    if game.status().is_over() {
        return Err("the game is over".into());
    }
    let turns = whole_turns(game, side, cap).ok_or("too many turns to search")?;
    let winning: Vec<&Turn> = turns.iter().filter(|t| t.wins).collect();
    match winning.as_slice() {
        [one] => {
            let tempting = turns.iter().filter(|t| t.gain > 0 && !t.wins).count();
            return Ok(Verdict { solution: one.decisions.clone(), wins: None, tempting, learner: side, choices: None });
        }
        [] => {}
        _ => return Err(format!("{} turns win the game", winning.len())),
    }
    // The turn taking most at once, then every turn that takes as much as it keeps after the reply.
    let greedy = turns.iter().map(|t| t.gain).max().ok_or("no turn")?;
    if greedy < 1 {
        return Err("no turn wins material".into());
    }
    let mut best: Option<(i32, &Turn)> = None;
    let mut ties = 0;
    for turn in turns.iter().filter(|t| t.gain >= 1) {
        let worth = after_best_reply(game, side, turn, cap).map_err(|()| "too many answers to search")?;
        let worth = worth.unwrap_or(i32::MAX / 2);
        match best {
            Some((b, _)) if worth < b => {}
            Some((b, _)) if worth == b => ties += 1,
            _ => {
                best = Some((worth, turn));
                ties = 0;
            }
        }
    }
    let (worth, turn) = best.ok_or("no turn wins material")?;
    if ties > 0 {
        return Err(format!("{} turns win {worth}", ties + 1));
    }
    if worth < 1 {
        return Err("every turn that takes loses as much back".into());
    }
    // Turns that take nothing at once keep at most what the reply leaves them: never more than 0.
    let tempting = turns.iter().filter(|t| t.gain >= turn.gain && t.after != turn.after).count();
    Ok(Verdict { solution: turn.decisions.clone(), wins: Some(worth), tempting, learner: side, choices: None })
}

/// A position's grade by how many other turns take material too (the tempting ones): easy when
/// none does, medium with one or two, hard with three or more. Where both sides commit at once,
/// most commitments take something against some answer: graded by the share of the tempting
/// ones (those that take as much against a typical answer): under a tenth easy, under three
/// tenths medium.
pub fn grade(verdict: &Verdict) -> u8 {
    match (verdict.choices, verdict.tempting) {
        (Some(choices), tempting) if tempting * 10 < choices => 1,
        (Some(choices), tempting) if tempting * 10 < choices * 3 => 2,
        (Some(_), _) => 3,
        (None, 0) => 1,
        (None, 1 | 2) => 2,
        (None, _) => 3,
    }
}

/// Whether one decision of `side` takes material or wins at once: the positions worth a search
/// of whole turns (a search that finds nothing costs the most).
fn takes_at_once(game: &dyn DynGame, side: Side) -> bool {
    game.legal_decisions(side).iter().any(|d| {
        let mut next = game.clone_box();
        next.play_decision(d).is_ok_and(|effects| {
            material(game, &effects, side) > 0 || next.status() == Status::Over(Outcome::Winner(side))
        })
    })
}

/// Practice positions of `kind` on `options` met at the start of a turn in the computer's
/// self-play (Easy against Easy, with a random decision now and then; `games` games, seeds from
/// `seed`), up to `count`, easiest first.
pub fn find(
    kind: GameKind,
    options: &[(String, String)],
    (seed, games): (u64, u64),
    count: usize,
    cap: usize,
) -> Vec<Practice> {
    let mut found = Vec::new();
    let mut positions = HashSet::new();
    for game_seed in seed..seed + games {
        if found.len() >= count {
            break;
        }
        let Ok(mut game) = kind.open(options, None) else { return found };
        let mut rng = seeded(game_seed);
        let mut last_mover = None;
        for ply in 0..400 {
            if game.status().is_over() {
                break;
            }
            // Judged where a turn starts (where both sides commit at once: every attempt starts
            // one), and only a position that reads back as it is (the book keeps its text).
            let (simultaneous, worth_judging) = match game.to_move() {
                Some(ToMove::One(side)) => (
                    false,
                    last_mover != Some(side)
                        && game.legal_decisions(side).len() > 1
                        && takes_at_once(game.as_ref(), side),
                ),
                Some(ToMove::Both) => (true, true),
                None => break,
            };
            let text = game.position_text();
            if worth_judging
                && positions.insert(text.clone())
                && let Ok(reread) = kind.open(options, Some(&text))
                && let Ok(verdict) = judge(reread.as_ref(), cap)
                && judge(game.as_ref(), cap).as_ref() == Ok(&verdict)
            {
                found.push(Practice {
                    id: format!("s{game_seed}-{ply}"),
                    options: options.to_vec(),
                    position: text,
                    learner: simultaneous.then_some(verdict.learner),
                    grade: grade(&verdict),
                    solution: verdict.solution,
                    wins: verdict.wins,
                    found: format!("self-play seed {game_seed}, decision {ply}"),
                });
                if found.len() >= count {
                    break;
                }
            }
            let mover = match game.to_move() {
                Some(ToMove::One(side)) => Some(side),
                _ => None,
            };
            let played = match mover {
                Some(side) => self_play_decision(&mut game, side, (&mut rng, game_seed ^ ply)).is_some(),
                // Each side its whole commitment, chosen on its own copy of the position (neither
                // sees the other's), then both played.
                None => {
                    let commitments: Option<Vec<Vec<String>>> = Side::BOTH
                        .into_iter()
                        .map(|side| {
                            game.commit_on_own_copy(side, &mut |own, legal, made| {
                                let seed = game_seed ^ ply ^ ((made as u64 + 1) << 32);
                                self_play_choice(own, side, legal, (&mut rng, seed))
                            })
                        })
                        .collect();
                    commitments.is_some_and(|both| both.iter().flatten().all(|d| game.play_decision(d).is_ok()))
                }
            };
            if !played {
                break;
            }
            last_mover = mover;
        }
    }
    found.sort_by_key(|p| p.grade);
    found
}

/// One decision of `side` in the finder's self-play: Easy's choice most of the time, a random one
/// now and then (more varied positions); the decision played, or `None` when none could be.
fn self_play_decision(game: &mut Box<dyn DynGame>, side: Side, (rng, seed): (&mut GameRng, u64)) -> Option<String> {
    let legal = game.legal_decisions(side);
    let decision = self_play_choice(game.as_ref(), side, &legal, (rng, seed))?;
    game.play_decision(&decision).ok()?;
    Some(decision)
}

/// Self-play's choice among `legal` (none: `None`): a random one a quarter of the time, else Easy's.
fn self_play_choice(
    game: &dyn DynGame,
    side: Side,
    legal: &[String],
    (rng, seed): (&mut GameRng, u64),
) -> Option<String> {
    if legal.is_empty() {
        return None;
    }
    if pick_index(rng, 4) == 0 {
        return Some(legal[pick_index(rng, legal.len())].clone());
    }
    decide_timed(game, side, Level::Easy, seed, None, Timing::Reproducible).ok()
}

/// Everything wrong with a practice book: each position must open with a side to move, and its
/// solution must still be its unique best turn, winning what it says, at the grade it says.
pub fn problems(book: &PracticeBook, cap: usize) -> Vec<String> {
    let Some(kind) = GameKind::from_slug(&book.game) else {
        return vec![format!("unknown game '{}'", book.game)];
    };
    let mut found = Vec::new();
    let mut ids = HashSet::new();
    for p in &book.positions {
        let mut say = |what: String| found.push(format!("{} practice '{}': {what}", book.game, p.id));
        if !ids.insert(p.id.as_str()) {
            say("its id is used twice".into());
        }
        let game = match kind.open(&p.options, Some(&p.position)) {
            Ok(game) => game,
            Err(e) => {
                say(format!("its position does not open: {e}"));
                continue;
            }
        };
        match judge(game.as_ref(), cap) {
            Ok(v) if v.solution != p.solution => {
                say(format!("its best turn is {:?}, not {:?}", v.solution, p.solution))
            }
            Ok(v) if v.wins != p.wins => say(format!("it wins {:?}, not {:?}", v.wins, p.wins)),
            Ok(v) if grade(&v) != p.grade => say(format!("its grade is {}, not {}", grade(&v), p.grade)),
            Ok(v) if p.learner.is_some_and(|side| side != v.learner) => {
                say(format!("its learner is {:?}, not {:?}", v.learner, p.learner))
            }
            Ok(_) => {}
            Err(e) => say(format!("no single best turn: {e}")),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red_stone(position: &str) -> Box<dyn DynGame> {
        GameKind::named("red-stone").open(&[("size".into(), "5".into())], Some(position)).unwrap()
    }

    #[test]
    fn the_only_capture_is_the_solution_and_two_equal_captures_are_no_position() {
        // White's A5 has one liberty left, B5: only a red stone there takes anything.
        let verdict = judge(red_stone("O..../XX.../..X../O..../...O. b").as_ref(), TURN_CAP).unwrap();
        assert_eq!(verdict.solution, vec!["B5*".to_string()]);
        assert_eq!(verdict.wins, Some(1));
        assert_eq!(grade(&verdict), 1);
        // The same capture on both sides of the board: no single best turn.
        let tie = judge(red_stone("O...O/X...X/...../...../..... b").as_ref(), TURN_CAP);
        assert!(tie.as_ref().is_err_and(|e| e.contains("turns win 1")), "{tie:?}");
        // Nothing to take: no practice position.
        assert!(judge(red_stone("...../...../..X../...../....O b").as_ref(), TURN_CAP).is_err());
    }

    #[test]
    fn whole_turns_are_told_apart_by_the_position_they_leave_and_capped() {
        let game = GameKind::named("gravel").open(&[("N".into(), "4".into())], None).unwrap();
        let side = match game.to_move() {
            Some(ToMove::One(side)) => side,
            other => panic!("{other:?}"),
        };
        let turns = whole_turns(game.as_ref(), side, TURN_CAP).expect("an opening turn on 4×4 fits the cap");
        let mut after: Vec<&str> = turns.iter().map(|t| t.after.as_str()).collect();
        after.sort_unstable();
        after.dedup();
        assert_eq!(after.len(), turns.len(), "each turn leaves its own position");
        assert!(turns.iter().all(|t| t.gain == 0 && !t.wins));
        assert!(whole_turns(game.as_ref(), side, 10).is_none(), "more than 10 positions: given up");
    }

    #[test]
    fn a_book_with_a_wrong_solution_is_named() {
        let book = PracticeBook {
            game: "red-stone".into(),
            positions: vec![Practice {
                id: "p".into(),
                options: vec![("size".into(), "5".into())],
                position: "O..../XX.../..X../O..../...O. b".into(),
                learner: None,
                solution: vec!["C3".into()],
                wins: Some(1),
                grade: 1,
                found: "by hand".into(),
            }],
        };
        let found = problems(&book, TURN_CAP);
        assert!(found.iter().any(|p| p.contains("its best turn is")), "{found:?}");
    }
}
