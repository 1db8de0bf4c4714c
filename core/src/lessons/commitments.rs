//! Practice positions where both sides commit at once (Hidden Intention): a commitment is worth
//! the least it keeps against every commitment the opponent could have sealed (maximin: the
//! learner cannot see the opponent's), and a position is kept when exactly one commitment keeps
//! the most, at least one figure, whatever the opponent does.

use super::verdict::Verdict;
use crate::games::DynGame;
use crate::games::hidden_intention::{Commitment, Position, Staged};
use crate::rules::{Notation, Outcome, Rules, Side, Status, ToMove};

/// A game won counts more than any number of figures.
const WON: i32 = 1000;

/// What `learner`'s commitment `mine` against the opponent's `theirs` takes: the opponent's
/// figures removed minus the learner's own (`±WON` when it ends the game).
fn exchange(position: &Position, learner: Side, mine: &Commitment, theirs: &Commitment) -> i32 {
    let opponent = learner.opponent();
    let count = |p: &Position, side: Side| p.occupied_by(side).count_ones() as i32;
    let mut after = position.clone();
    for m in Staged::decisions(learner, mine).chain(Staged::decisions(opponent, theirs)) {
        after.play_unchecked(&m);
    }
    match Rules::status(&after) {
        Status::Over(Outcome::Winner(side)) => return if side == learner { WON } else { -WON },
        Status::Over(_) => return 0,
        Status::Ongoing => {}
    }
    // Both figures arrive unless both named the same square (it burns instead).
    let placed = i32::from(mine.target != theirs.target);
    let lost = |side: Side| count(position, side) + placed - count(&after, side);
    lost(opponent) - lost(learner)
}

/// The learner's best commitment at `position`'s simultaneous node, judged by what it keeps
/// against the opponent's every commitment; `None` when `cap` pairs are not enough to try them all.
fn best_commitment(position: &Position, learner: Side, cap: usize) -> Result<Option<Verdict>, String> {
    let mine = position.legal_commitments(learner);
    let theirs = position.legal_commitments(learner.opponent());
    if mine.is_empty() || theirs.is_empty() {
        return Err("a side has no commitment".into());
    }
    if mine.len().saturating_mul(theirs.len()) > cap {
        return Ok(None);
    }
    // For each commitment: the least it keeps, and what it takes against the opponent's typical
    // commitment (the median: what it seems to take, before the refutation is found).
    let outcomes: Vec<(i32, i32)> = mine
        .iter()
        .map(|c| {
            let mut values: Vec<i32> = theirs.iter().map(|d| exchange(position, learner, c, d)).collect();
            let middle = values.len() / 2;
            let typical = *values.select_nth_unstable(middle).1;
            (values.iter().copied().min().unwrap_or(i32::MIN), typical)
        })
        .collect();
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
    let decisions = Staged::decisions(learner, &mine[solution]).map(|m| position.format_move(&m)).collect();
    let wins = if best >= WON { None } else { Some(best) };
    Ok(Some(Verdict { solution: decisions, wins, tempting, learner, choices: Some(mine.len()) }))
}

/// Whether `game` (Hidden Intention at the start of an attempt) has one commitment, of either
/// side, that keeps the most whatever the other side commits: that side is the learner (White's
/// when both have one).
pub fn judge(game: &dyn DynGame, cap: usize) -> Result<Verdict, String> {
    let Some(position) = game.as_any().downcast_ref::<Position>() else {
        return Err("not a game of secret commitments".into());
    };
    if Rules::to_move(position) != Some(ToMove::Both) {
        return Err("the sides do not commit at once here".into());
    }
    if Side::BOTH.iter().any(|&side| !position.staged(side).is_empty()) {
        return Err("a commitment is already begun".into());
    }
    let mut why = String::new();
    for learner in Side::BOTH {
        match best_commitment(position, learner, cap) {
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
    use crate::lessons::practice::PracticeBook;

    /// The learner's and the opponent's figures on the board.
    fn figures(game: &dyn DynGame, side: Side) -> i32 {
        game.board_view().cells.iter().filter(|c| c.piece.is_some_and(|p| p.owner == Some(side))).count() as i32
    }

    #[test]
    fn each_solution_keeps_what_it_says_against_every_commitment_of_the_opponent() {
        let book: PracticeBook =
            ron::from_str(include_str!("../../../assets/practice/hidden-intention.ron")).expect("the book reads");
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
