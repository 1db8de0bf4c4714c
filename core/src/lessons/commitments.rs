//! Practice positions where both sides commit at once (Hidden Intention, or any game whose
//! sides seal their decisions in secret): a commitment is worth the least it keeps against every
//! commitment the opponent could have sealed (maximin: the learner cannot see the opponent's),
//! and a position is kept when exactly one commitment keeps the most, at least one piece,
//! whatever the opponent does. Read through the game's own decisions (`DynGame`), so a new game
//! with secret commitments needs nothing here.

use super::verdict::Verdict;
use crate::games::DynGame;
use crate::rules::{Outcome, Side, Status, ToMove};
use std::collections::HashSet;

/// A game won counts more than any number of pieces.
const WON: i32 = 1000;

/// Every different complete commitment `side` can seal at `game`'s simultaneous node, each as its
/// decisions in the order made (one commitment reached in two orders counts once), or `None`
/// when that takes more than `cap` positions. A commitment is complete when the side has nothing
/// more to decide at this node.
fn commitments(game: &dyn DynGame, side: Side, cap: usize) -> Option<Vec<Vec<String>>> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(game.clone_box(), Vec::<String>::new())];
    let mut visited = 0usize;
    while let Some((position, made)) = stack.pop() {
        let legal = if position.to_move() == Some(ToMove::Both) { position.legal_decisions(side) } else { Vec::new() };
        if legal.is_empty() {
            let mut key = made.clone();
            key.sort();
            if !made.is_empty() && seen.insert(key) {
                found.push(made);
            }
            continue;
        }
        // Pushed last first, so the first decision offered is searched first.
        for decision in legal.into_iter().rev() {
            visited += 1;
            if visited > cap {
                return None;
            }
            let mut next = position.clone_box();
            if next.play_decision(&decision).is_ok() {
                let mut path = made.clone();
                path.push(decision);
                stack.push((next, path));
            }
        }
    }
    Some(found)
}

/// What `learner`'s commitment against the opponent's `theirs` takes, from `sealed` (the position
/// with the learner's commitment made, `before` each side's pieces at the node): the opponent's
/// pieces it removes minus the learner's own (`±WON` when it ends the game). Pieces placed by the
/// commitments cancel out: both sides place alike (in Hidden Intention both figures arrive, or
/// neither when both named the same square).
fn exchange(sealed: &dyn DynGame, before: [u32; 2], learner: Side, theirs: &[String]) -> Result<i32, String> {
    let mut after = sealed.clone_box();
    for d in theirs {
        after.play_decision(d).map_err(|e| format!("{d}: {e}"))?;
    }
    match after.status() {
        Status::Over(Outcome::Winner(side)) => return Ok(if side == learner { WON } else { -WON }),
        Status::Over(_) => return Ok(0),
        Status::Ongoing => {}
    }
    let now = after.pieces_on_board();
    let change = |side: Side| now[side.index()] as i32 - before[side.index()] as i32;
    Ok(change(learner) - change(learner.opponent()))
}

/// The learner's best commitment at `game`'s simultaneous node, judged by what it keeps against
/// the opponent's every commitment; `None` when `cap` pairs are not enough to try them all.
fn best_commitment(game: &dyn DynGame, learner: Side, cap: usize) -> Result<Option<Verdict>, String> {
    let (Some(mine), Some(theirs)) = (commitments(game, learner, cap), commitments(game, learner.opponent(), cap))
    else {
        return Ok(None);
    };
    if mine.is_empty() || theirs.is_empty() {
        return Err("a side has no commitment".into());
    }
    if mine.len().saturating_mul(theirs.len()) > cap {
        return Ok(None);
    }
    // For each commitment: the least it keeps, and what it takes against the opponent's typical
    // commitment (the median: what it seems to take, before the refutation is found).
    let before = game.pieces_on_board();
    let mut outcomes: Vec<(i32, i32)> = Vec::with_capacity(mine.len());
    for c in &mine {
        let mut sealed = game.clone_box();
        for d in c {
            sealed.play_decision(d).map_err(|e| format!("{d}: {e}"))?;
        }
        let mut values =
            theirs.iter().map(|d| exchange(sealed.as_ref(), before, learner, d)).collect::<Result<Vec<i32>, _>>()?;
        let middle = values.len() / 2;
        let typical = *values.select_nth_unstable(middle).1;
        outcomes.push((values.iter().copied().min().unwrap_or(i32::MIN), typical));
    }
    let best = outcomes.iter().map(|&(low, _)| low).max().unwrap_or(i32::MIN);
    let keeping: Vec<usize> = (0..mine.len()).filter(|&i| outcomes[i].0 == best).collect();
    let [solution] = keeping[..] else {
        return Err(format!("{} commitments keep {best}", keeping.len()));
    };
    if best < 1 {
        return Err("no commitment is sure to take a figure".into());
    }
    // Tempting: the other commitments that take as much against a typical answer (and are
    // refuted by a good one).
    let tempting = (0..mine.len()).filter(|&i| i != solution && outcomes[i].1 >= best).count();
    let wins = if best >= WON { None } else { Some(best) };
    Ok(Some(Verdict { solution: mine[solution].clone(), wins, tempting, learner, choices: Some(mine.len()) }))
}

/// Whether `game` (at the start of a simultaneous node: nothing of either side's commitment
/// chosen yet, as a position read from its text always is) has one commitment, of either side,
/// that keeps the most whatever the other side commits: that side is the learner (the first
/// side's when both have one).
pub fn judge(game: &dyn DynGame, cap: usize) -> Result<Verdict, String> {
    if game.to_move() != Some(ToMove::Both) {
        return Err("the sides do not commit at once here".into());
    }
    let mut why = String::new();
    for learner in Side::BOTH {
        match best_commitment(game, learner, cap) {
            Ok(Some(verdict)) => return Ok(verdict),
            Ok(None) => return Err("too many pairs of commitments to try".into()),
            Err(e) => why = e,
        }
    }
    Err(why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::games::hidden_intention::{Position, Staged};
    use crate::lessons::practice::PracticeBook;
    use crate::rules::Notation;

    fn book() -> PracticeBook {
        ron::from_str(include_str!("../../../assets/practice/hidden-intention.ron")).expect("the book reads")
    }

    #[test]
    fn the_commitments_read_through_the_games_decisions_are_the_games_own() {
        for practice in book().positions.iter().take(4) {
            let game = GameKind::named("hidden-intention").open(&practice.options, Some(&practice.position)).unwrap();
            let position = game.as_any().downcast_ref::<Position>().unwrap();
            for side in Side::BOTH {
                let mut read = commitments(game.as_ref(), side, usize::MAX).unwrap();
                let mut own: Vec<Vec<String>> = position
                    .legal_commitments(side)
                    .iter()
                    .map(|c| Staged::decisions(side, c).map(|m| position.format_move(&m)).collect())
                    .collect();
                read.sort();
                own.sort();
                assert_eq!(read, own, "{} for {side:?}", practice.id);
            }
        }
    }

    /// The learner's and the opponent's figures on the board.
    fn figures(game: &dyn DynGame, side: Side) -> i32 {
        game.board_view().cells.iter().filter(|c| c.piece.is_some_and(|p| p.owner == Some(side))).count() as i32
    }

    #[test]
    fn each_solution_keeps_what_it_says_against_every_commitment_of_the_opponent() {
        let book = book();
        // A position that wins figures and one that wins the game, played through the game's
        // own decisions (not the search's shortcut).
        let figures_won = book.positions.iter().find(|p| p.wins.is_some()).expect("a position winning figures");
        let game_won = book.positions.iter().find(|p| p.wins.is_none()).expect("a position winning the game");
        for practice in [figures_won, game_won] {
            let game = GameKind::named("hidden-intention").open(&practice.options, Some(&practice.position)).unwrap();
            let learner = practice.learner.expect("the learner is named");
            let opponent = learner.opponent();
            let position = game.as_any().downcast_ref::<Position>().unwrap();
            let mut own = game.clone_box();
            for d in &practice.solution {
                own.play_decision(d).unwrap();
            }
            let mine = own.as_any().downcast_ref::<Position>().unwrap().staged(learner).target.expect("sealed");
            for theirs in position.legal_commitments(opponent) {
                let mut after = own.clone_box();
                for m in Staged::decisions(opponent, &theirs) {
                    after.play_decision(&position.format_move(&m)).unwrap();
                }
                match practice.wins {
                    None => assert_eq!(after.status(), Status::Over(Outcome::Winner(learner)), "{theirs:?}"),
                    Some(n) => {
                        // Both figures arrive unless both named one square (it burns).
                        let placed = i32::from(mine != theirs.target);
                        let lost = |side| figures(game.as_ref(), side) + placed - figures(after.as_ref(), side);
                        assert!(lost(opponent) - lost(learner) >= n, "{}: {theirs:?} leaves less", practice.id);
                    }
                }
            }
        }
    }

    #[test]
    fn a_position_where_nothing_is_sure_to_take_a_figure_is_no_practice() {
        // The start: nothing on the board to take.
        let game = GameKind::named("hidden-intention").open(&[], None).unwrap();
        assert!(judge(game.as_ref(), 1_000_000).is_err());
        // Too many pairs to try: said so.
        assert_eq!(judge(game.as_ref(), 10).unwrap_err(), "too many pairs of commitments to try");
    }
}
