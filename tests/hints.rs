//! Hints (issue #41, point 4): the whole turn the computer would play, legal decision by decision
//! in every game, blind to the opponent's sealed commitment, with a reason from a dry run.

use stoneyard::ai::{HintReason, Level, TurnHint, hint_turn, hint_turn_in_match, turn_reason};
use stoneyard::games::{DynGame, GameKind, open};
use stoneyard::rules::{Side, Status, ToMove};
use stoneyard::session::Match;

/// The side whose decision the match waits for: the side to move, or at a simultaneous node the
/// first side still to seal.
fn acting_side(game: &dyn DynGame) -> Option<Side> {
    if game.status() != Status::Ongoing {
        return None;
    }
    match game.to_move()? {
        ToMove::One(side) => Some(side),
        ToMove::Both => Side::BOTH.into_iter().find(|&s| !game.legal_decisions(s).is_empty()),
    }
}

/// A match of `kind` (its quick options) after `decisions` random decisions.
fn random_match(kind: GameKind, decisions: usize, seed: u64) -> Match {
    let mut m = Match::open(kind, &kind.quick_pairs(), None).unwrap();
    let mut walk = stoneyard::rules::seeded(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    for _ in 0..decisions {
        let Some(side) = acting_side(m.position()) else { break };
        let legal = m.position().legal_decisions(side);
        let pick = legal[stoneyard::rules::pick_index(&mut walk, legal.len())].clone();
        m.decide(m.seat_of(side), &pick, 0).unwrap();
    }
    m
}

/// Plays the hint on the position the side may know, checking each decision is legal when made,
/// and that the side's turn is over after the last (its commitment sealed at a simultaneous node).
fn check_whole_turn(kind: GameKind, known: &dyn DynGame, hint: &TurnHint) {
    let side = hint.side;
    let mut position = known.clone_box();
    for (i, decision) in hint.decisions.iter().enumerate() {
        let legal = position.legal_decisions(side);
        assert!(legal.contains(decision), "{kind}: decision {i} '{decision}' of {:?} is not legal", hint.decisions);
        position.play_decision(decision).unwrap();
    }
    let still_deciding = match position.to_move() {
        Some(ToMove::One(s)) => s == side,
        Some(ToMove::Both) => !position.legal_decisions(side).is_empty(),
        None => false,
    };
    assert!(!still_deciding, "{kind}: the side still decides after {:?}", hint.decisions);
    assert!(!hint.reason.words().is_empty(), "{kind}: no reason for {:?}", hint.decisions);
}

#[test]
fn a_hint_is_the_whole_turn_legal_decision_by_decision_in_every_game() {
    for kind in GameKind::all() {
        let mut multi_decision_turns = 0;
        for (i, plies) in [0usize, 3, 11, 24, 37, 200].into_iter().enumerate() {
            let m = random_match(kind, plies, 41 + i as u64);
            let Some(side) = acting_side(m.position()) else { continue };
            for level in [Level::Random, Level::Easy] {
                let hint = hint_turn_in_match(&m, side, level, 9, None).unwrap_or_else(|e| panic!("{kind}: {e}"));
                assert_eq!(hint.side, side);
                let known = m.position_for(stoneyard::session::Viewer::Seat(m.seat_of(side)));
                check_whole_turn(kind, known.as_ref(), &hint);
                let again = hint_turn_in_match(&m, side, level, 9, None).unwrap();
                assert_eq!(again, hint, "{kind}: the same seed gives the same hint");
                multi_decision_turns += (hint.decisions.len() > 1) as usize;
                if kind == GameKind::named("gravel") {
                    let last = hint.decisions.last().unwrap();
                    assert!(last == "end" || last == "pass", "a Gravel turn ends with its end: {:?}", hint.decisions);
                }
            }
        }
        let one_decision_turns = ["red-stone"].contains(&kind.slug());
        assert_eq!(multi_decision_turns == 0, one_decision_turns, "{kind}: turns of several decisions");
    }
}

#[test]
fn a_hint_is_refused_when_the_side_has_no_decision() {
    let m = Match::open(GameKind::named("red-stone"), &[("size".into(), "5".into())], None).unwrap();
    let waiting = m.position().to_move().map(|t| match t {
        ToMove::One(s) => s.opponent(),
        ToMove::Both => Side::First,
    });
    assert!(hint_turn_in_match(&m, waiting.unwrap(), Level::Random, 1, None).is_err());
}

/// Plays random decisions of `seat` until its commitment is sealed.
fn seal_random_commitment(m: &mut Match, seat: Side, seed: u64) {
    let mut walk = stoneyard::rules::seeded(seed | 1);
    loop {
        let legal = m.legal_for(seat);
        if legal.is_empty() {
            break;
        }
        m.decide(seat, &legal[stoneyard::rules::pick_index(&mut walk, legal.len())], 0).unwrap();
    }
}

#[test]
fn a_hidden_intention_hint_never_depends_on_the_opponents_sealed_commitment() {
    let kind = GameKind::named("hidden-intention");
    let base = random_match(kind, 0, 1);
    let a = Side::First;
    let unsealed = hint_turn_in_match(&base, a, Level::Easy, 5, None).unwrap();
    // The whole commitment: after it A has nothing left to decide on the position it knows.
    check_whole_turn(kind, base.position(), &unsealed);
    assert!(unsealed.decisions.len() >= 2, "a figure and a square at least: {:?}", unsealed.decisions);
    let mut sealed_commitments = Vec::new();
    for seed in [3, 17, 99] {
        let mut m = random_match(kind, 0, 1);
        seal_random_commitment(&mut m, Side::Second, seed);
        sealed_commitments.push(m.decisions().map(str::to_string).collect::<Vec<_>>());
        let hint = hint_turn_in_match(&m, a, Level::Easy, 5, None).unwrap();
        assert_eq!(hint, unsealed, "B sealed {:?}", sealed_commitments.last());
    }
    assert!(sealed_commitments.windows(2).any(|w| w[0] != w[1]), "B sealed different commitments");
    // The position itself holds B's commitment: asked there, the computer refuses to read it.
    let mut m = random_match(kind, 0, 1);
    seal_random_commitment(&mut m, Side::Second, 3);
    assert!(hint_turn(m.position(), a, Level::Easy, 5, None).is_err());
    // A's own staged decisions stay in what A knows: the hint goes on from them.
    let mut staged = random_match(kind, 0, 1);
    staged.decide(a, &unsealed.decisions[0], 0).unwrap();
    seal_random_commitment(&mut staged, Side::Second, 17);
    let rest = hint_turn_in_match(&staged, a, Level::Easy, 5, None).unwrap();
    let known = staged.position_for(stoneyard::session::Viewer::Seat(a));
    check_whole_turn(kind, known.as_ref(), &rest);
}

fn game(kind: &str, options: &[(&str, &str)], position: &str) -> Box<dyn DynGame> {
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    open(GameKind::named(kind), &options, Some(position)).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn reason(game: &dyn DynGame, side: Side, decisions: &[&str]) -> String {
    let decisions: Vec<String> = decisions.iter().map(|d| d.to_string()).collect();
    turn_reason(game, side, &decisions).unwrap_or_else(|e| panic!("{decisions:?}: {e}")).words()
}

#[test]
fn reasons_say_what_a_turn_achieves() {
    // Gravel §11 example 11: Dark's xa1,+a1 leaves Light 5 spaces for 7 lost pieces.
    let gravel = game("gravel", &[("N", "5"), ("X", "4")], "5 4 L1.L1../...../....L1/D1..../L1D1L1D1L1 D 1 10 6 0 9");
    assert_eq!(reason(gravel.as_ref(), Side::Second, &["xa1", "+a1", "end"]), "wins the game");
    assert_eq!(reason(gravel.as_ref(), Side::Second, &["+e5", "end"]), "place a piece on e5");
    // Example 2: the chain removes two Light pieces and the game goes on.
    let chain = game("gravel", &[("N", "5"), ("X", "4")], "5 4 ...../.D1D1../D2L1L1D1./.L1L1L1./..... D 8 8 0 0 3");
    assert_eq!(reason(chain.as_ref(), Side::Second, &["xb3", "xc3", "+b3", "+c3", "end"]), "removes 2 enemy pieces");
    // Red Stone S3: the red stone on C3 takes two black groups (3 stones) and White's own C2–D2;
    // only the enemy's stones count.
    let red = game("red-stone", &[("size", "5")], ".OXO./.OXO./.O.XR/.XOOR/..XX. w");
    assert_eq!(reason(red.as_ref(), Side::Second, &["C3*"]), "captures 3 stones");
    // S5: a red stone in Black's last eye removes all nine black stones and wins.
    let eye = game("red-stone", &[("size", "5")], "XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w");
    assert_eq!(reason(eye.as_ref(), Side::Second, &["A1*"]), "wins the game");
    // A black stone on A1 with one liberty: A2 gives the group two.
    let atari = game("red-stone", &[("size", "5")], "...../...../...../...../XO... b");
    assert_eq!(reason(atari.as_ref(), Side::First, &["A2"]), "saves the group on A1");
    // A white stone next to a lone black stone leaves it one liberty.
    let threat = game("red-stone", &[("size", "5")], "...../...../...../...../X.... w");
    assert_eq!(reason(threat.as_ref(), Side::Second, &["B1"]), "threatens the group on A1");
    // Gravel: Dark could take a1 (one more piece on b1 gives it both neighbours); Light's b1
    // leaves Dark at most one.
    let corner = game("gravel", &[("N", "5"), ("X", "4")], "5 4 ...../...../...../D1..../L1.... L 12 12 0 0 2");
    assert_eq!(reason(corner.as_ref(), Side::First, &["+b1", "end"]), "saves the piece on a1");
    // Light's first turn takes, saves and threatens nothing: the game's own words.
    let first_turn = game("gravel", &[("N", "5"), ("X", "4")], "5 4 ...../...../...../...../..... L 13 13 0 0 1");
    assert_eq!(
        reason(first_turn.as_ref(), Side::First, &["+c3", "+c3", "+d3", "end"]),
        "place a piece on c3 twice, then place a piece on d3"
    );
    // Hidden Intention: a commitment in the game's words.
    let hidden = open(GameKind::named("hidden-intention"), &[], None).unwrap();
    assert_eq!(reason(hidden.as_ref(), Side::First, &["A:Q", "A:d4"]), "queen on d4");
    assert!(turn_reason(hidden.as_ref(), Side::First, &["A:d4".to_string()]).is_err(), "a decision that does not play");
}

#[test]
fn the_computer_hints_a_winning_move_and_says_so() {
    let eye = game("red-stone", &[("size", "5")], "XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w");
    let hint = hint_turn(eye.as_ref(), Side::Second, Level::Medium, 1, None).unwrap();
    assert_eq!(hint.decisions, ["A1*"]);
    assert_eq!(hint.reason, HintReason::Wins);
    // Gravel example 11: Dark has a turn that wins at once; the hint is all of it.
    let gravel = game("gravel", &[("N", "5"), ("X", "4")], "5 4 L1.L1../...../....L1/D1..../L1D1L1D1L1 D 1 10 6 0 9");
    let hint = hint_turn(gravel.as_ref(), Side::Second, Level::Medium, 1, None).unwrap();
    assert_eq!(hint.reason, HintReason::Wins, "{:?}", hint.decisions);
    assert_eq!(hint.decisions.last().map(String::as_str), Some("end"));
}

#[test]
fn a_turn_that_only_gains_ground_says_how_much_and_one_that_does_nothing_says_so() {
    // Light's placement beside its two pieces wins two spaces' control; one in the far corner none.
    let gravel = game("gravel", &[("N", "5"), ("X", "4")], "5 4 ...../...../..D1../.L1L1../..... L 11 12 0 0 3");
    let gains = turn_reason(gravel.as_ref(), Side::First, &["+a3".to_string(), "end".to_string()]).unwrap();
    assert_eq!(gains, HintReason::Controls { spaces: 2, more: 2 });
    assert_eq!(gains.sentence(), "It brings 2 more spaces under your control (2 in all).");
    let one = turn_reason(gravel.as_ref(), Side::First, &["+a2".to_string(), "end".to_string()]).unwrap();
    assert_eq!(one.words(), "brings 1 more space under your control (1 in all)");
    let idle = turn_reason(gravel.as_ref(), Side::First, &["+e5".to_string(), "end".to_string()]).unwrap();
    assert_eq!(idle.words(), "place a piece on e5");
    assert_eq!(idle.sentence(), "Nothing is taken, threatened or gained at once: the computer's search rates it best.");
    // Other reasons read as sentences of their own.
    assert_eq!(HintReason::Takes { count: 3, removes: false }.sentence(), "It captures 3 stones.");
}
