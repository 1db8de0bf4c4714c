//! Gravel: every worked example of the spec (§11), all referee cases, random-playout conformance,
//! the fast generator against the literal rule, the deadlock formula against brute force, perft.

// The shared helpers are not ours to edit; their lints (an unused import, a collapsible `if`)
// should not fail this crate's clippy run.
#[allow(unused_imports, clippy::collapsible_if)]
mod support;

use std::collections::{BTreeSet, HashSet};
use stoneyard::games::GameKind;
use stoneyard::games::gravel::{
    Action, EndReason, GravelOptions, Position, TurnError, TurnStep, format_turn, parse_turn,
};
use stoneyard::rules::{
    EffectKind, LegalTokens, Notation, Outcome, RemoveCause, Rules, Side, Status, perft, pick_index, seeded,
};

const L: Side = Side::First;
const D: Side = Side::Second;

fn opts(n: u8, x: u8) -> GravelOptions {
    GravelOptions { size: n, budget: x, ..GravelOptions::default() }
}

fn at(n: u8, x: u8, text: &str) -> Position {
    Position::parse_position(&opts(n, x), text).unwrap_or_else(|e| panic!("bad position {text}: {e}"))
}

/// Plays a whole turn string that must be legal.
fn after(pos: &Position, turn: &str) -> Position {
    let mut p = pos.clone();
    p.play_turn(turn).unwrap_or_else(|e| panic!("{turn} refused: {e}"));
    p
}

/// The step and reason a turn string is refused with; the position must not change.
fn refused(pos: &Position, turn: &str) -> (TurnStep, &'static str) {
    let mut p = pos.clone();
    let r = match p.play_turn(turn) {
        Err(TurnError::Illegal { at, reason, .. }) => (at, reason.code()),
        other => panic!("{turn}: expected an illegal turn, got {other:?}"),
    };
    assert_eq!(p, *pos, "{turn}: a refused turn changed the position");
    r
}

fn sq(pos: &Position, name: &str) -> usize {
    let b = name.as_bytes();
    pos.cell_at((b[0] - b'a') as usize, name[1..].parse::<usize>().unwrap() - 1) as usize
}

fn tokens(pos: &Position) -> Vec<String> {
    match pos.legal_record_tokens() {
        LegalTokens::List(v) => v,
        other => panic!("unexpected {other:?}"),
    }
}

fn act(i: usize) -> TurnStep {
    TurnStep::Action(i)
}

// ---------------------------------------------------------------------------------------------
// Worked examples (§11)
// ---------------------------------------------------------------------------------------------

#[test]
fn ex0_start_and_first_turn() {
    let start = Position::new(&GravelOptions::default());
    assert_eq!(
        start.format_position(),
        "8 4 ......../......../......../......../......../......../......../........ L 33 33 0 0 1"
    );
    let t = tokens(&start);
    assert_eq!(t.len(), 64);
    assert!(t.contains(&"+d4".to_string()) && !t.contains(&"pass".to_string()));

    let p = after(&start, "+d4*2,+e5,+d5");
    assert_eq!(
        p.format_position(),
        "8 4 ......../......../......../...L1L1.../...L2..../......../......../........ D 29 33 0 0 1"
    );
    assert_eq!(p.status(), Status::Ongoing);
    let p = after(&start, "+d4,+d4,+d4,+d4");
    assert_eq!(
        p.format_position(),
        "8 4 ......../......../......../......../...L4..../......../......../........ D 29 33 0 0 1"
    );
    assert_eq!(refused(&start, "+d4*5"), (act(5), "BudgetExceeded"));
    assert_eq!(refused(&start, "xd4,+d4"), (act(1), "RemoveTargetNotEnemy"));
    assert_eq!(refused(&start, "pass"), (act(1), "PassNotAllowed"));
    for id in ["Ex0", "Ex0f", "Ex0a", "Ex0b", "Ex0c", "Ex0d", "Ex0e"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

const SEED: &str = "5 4 ...../.D1D1../D2L1L1D1./.L1L1L1./..... D 8 8 0 0 3";

#[test]
fn ex1_seed_control_example() {
    let p = at(5, 4, SEED);
    let (b3, c3, d3) = (sq(&p, "b3"), sq(&p, "c3"), sq(&p, "d3"));
    assert_eq!(p.control_counts(D, b3), (2, 3, 2));
    assert!(p.controls(D, b3));
    assert_eq!(p.control_counts(L, b3), (2, 2, 3));
    assert!(!p.controls(L, b3));
    assert_eq!(p.control_counts(D, c3), (2, 2, 2));
    assert!(!p.controls(D, c3));
    assert_eq!(p.control_counts(L, c3), (2, 2, 2));
    assert!(!p.controls(L, c3));
    assert_eq!(p.control_counts(L, d3), (2, 2, 0));
    assert!(p.controls(L, d3));
    assert_eq!(p.control_counts(D, d3), (0, 0, 2));
    assert!(!p.controls(D, d3));
    let overlay = p.control();
    assert_eq!((overlay[b3], overlay[c3], overlay[d3]), (Some(D), None, Some(L)));
    support::assert_case(GameKind::named("gravel"), "Ex1");
    support::assert_case(GameKind::named("gravel"), "Ex1b");
}

#[test]
fn ex2_chain_of_removals() {
    let start = at(5, 4, SEED);
    let mut p = start.clone();
    let effects = p.play_turn("xb3,xc3,+b3,+c3").unwrap();
    assert_eq!(p.format_position(), "5 4 ...../.D1D1../D2D1D1D1./.L1L1L1./..... L 8 6 2 0 4");
    assert_eq!(p.status(), Status::Ongoing);
    let removals: Vec<(u16, u16)> = effects
        .iter()
        .filter_map(|e| match e.kind {
            EffectKind::Removed { cell, cause: RemoveCause::Control, .. } => Some((cell, e.wave)),
            _ => None,
        })
        .collect();
    assert_eq!(removals, vec![(sq(&p, "b3") as u16, 0), (sq(&p, "c3") as u16, 1)]);
    assert!(effects.iter().any(|e| matches!(e.kind, EffectKind::Placed { .. }) && e.wave == 3));
    // The same turn, one atomic decision at a time.
    let mut q = start.clone();
    for a in ["xb3", "xc3", "+b3", "+c3", "end"] {
        let m = q.parse_move(a).unwrap();
        q.play(&m).unwrap_or_else(|e| panic!("{a}: {e}"));
    }
    assert_eq!(q.format_position(), p.format_position());
    support::assert_case(GameKind::named("gravel"), "Ex2");
}

#[test]
fn ex3_illegal_turns_on_the_seed_position() {
    let p = at(5, 4, SEED);
    assert_eq!(refused(&p, "xc3,+b3"), (act(1), "NotControlled"));
    assert_eq!(refused(&p, "xb3,+b3,xc3"), (act(3), "PhaseOrder"));
    assert_eq!(refused(&p, "xb3"), (TurnStep::End, "NoPlacement"));
    assert_eq!(refused(&p, "xb3,xc3,+b3,+c3,+e5"), (act(5), "BudgetExceeded"));
    assert_eq!(refused(&p, "xb3,xb3,+a1"), (act(2), "RemoveTargetNotEnemy"));
    for id in ["Ex3a", "Ex3b", "Ex3c", "Ex3d", "Ex3e"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex4_place_first_to_gain_control_then_clear_a_tall_stack() {
    let p = at(5, 4, "5 4 ...../..D1../.L1D3../....L2/D1.... L 10 8 0 0 3");
    assert!(!p.controls(L, sq(&p, "c3")));
    let q = after(&p, "+d3,xc3*3");
    assert_eq!(q.format_position(), "5 4 ...../..D1../.L1.L1./....L2/D1.... D 9 8 0 3 3");
    assert_eq!(q.status(), Status::Ongoing);
    assert!(q.loss_flags(D).territory, "territory is broken but not checked yet");
    assert_eq!(refused(&p, "+d3,+c2,xc3*3"), (act(5), "BudgetExceeded"));
    assert_eq!(refused(&p, "xc3,+d3"), (act(1), "NotControlled"));
    assert_eq!(refused(&p, "e2>b3,xc3"), (act(2), "NotControlled"));
    assert_eq!(refused(&p, "e2>d3"), (act(1), "MoveTargetVacant"));
    for id in ["Ex4", "Ex4a", "Ex4b", "Ex4c", "Ex4d", "Ex4e"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex5_stack_cap() {
    let p = at(4, 3, "4 3 ..../..../..../L3L1.D2 L 5 7 0 0 4");
    assert_eq!(refused(&p, "+a1"), (act(1), "StackFull"));
    assert_eq!(refused(&p, "b1>a1"), (act(1), "StackFull"));
    assert_eq!(after(&p, "a1>b1,+a1").format_position(), "4 3 ..../..../..../L3L2.D2 D 4 7 0 0 4");
    assert_eq!(after(&p, "+c1,+c1,+c1").format_position(), "4 3 ..../..../..../L3L1L3D2 D 2 7 0 0 4");
    assert_eq!(refused(&p, "+c1,+c1,+c1,+c1"), (act(4), "BudgetExceeded"));
    let t = tokens(&p);
    assert!(!t.contains(&"+a1".to_string()) && !t.contains(&"b1>a1".to_string()));
    for id in ["Ex5", "Ex5a", "Ex5b", "Ex5c", "Ex5d", "Ex5e"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex6_where_pieces_may_go() {
    let p = at(5, 4, "5 4 ...../...../..D2../.L1L1../..... L 11 11 0 0 2");
    assert_eq!(refused(&p, "b2>e5"), (act(1), "MoveTargetVacant"));
    assert_eq!(refused(&p, "b2>b2"), (act(1), "SameSpace"));
    assert_eq!(refused(&p, "b2>c3"), (act(1), "TargetEnemyOccupied"));
    assert_eq!(refused(&p, "+c3"), (act(1), "TargetEnemyOccupied"));
    assert_eq!(after(&p, "b2>c2").format_position(), "5 4 ...../...../..D2../..L2../..... D 11 11 0 0 2");
    assert_eq!(refused(&p, "b2>c2,c2>b2"), (act(2), "MoveTargetVacant"));
    assert_eq!(after(&p, "-c2,-b2").format_position(), "5 4 ...../...../..D2../...../..... D 13 11 0 0 2");
    assert_eq!(refused(&p, "xc3,+a1"), (act(1), "NotControlled"));
    for id in ["Ex6", "Ex6a", "Ex6b", "Ex6c", "Ex6d", "Ex6e", "Ex6f", "Ex6g", "Ex6h"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex7_the_net_change_rule() {
    let p = at(5, 4, "5 4 ...../...../..D2../.L2L1../..... L 10 11 0 0 2");
    assert_eq!(refused(&p, "+a1,-a1"), (TurnStep::End, "NoNetChange"));
    assert_eq!(refused(&p, "b2>c2,c2>b2"), (TurnStep::End, "NoNetChange"));
    assert_eq!(refused(&p, "-b2,+b2"), (TurnStep::End, "NoNetChange"));
    assert_eq!(after(&p, "b2>c2,c2>b2,+e5").format_position(), "5 4 ....L1/...../..D2../.L2L1../..... D 9 11 0 0 2");
    assert_eq!(after(&p, "+a1,-a1,+a1").format_position(), "5 4 ...../...../..D2../.L2L1../L1.... D 9 11 0 0 2");
    assert_eq!(after(&p, "-b2,+e5").format_position(), "5 4 ....L1/...../..D2../.L1L1../..... D 10 11 0 0 2");
    // Atomically: after +a1,-a1 end-turn is not offered, but further actions are (budget left).
    let mut q = p.clone();
    q.play(&Action::Place(sq(&p, "a1") as u16)).unwrap();
    q.play(&Action::Return(sq(&p, "a1") as u16)).unwrap();
    assert!(!q.is_legal(&Action::EndTurn));
    let mut moves = Vec::new();
    q.legal_moves(&mut moves);
    assert!(!moves.is_empty());
    for id in ["Ex7a", "Ex7b", "Ex7c", "Ex7d", "Ex7e", "Ex7f"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex8_corner_control_one_big_stack_is_not_enough() {
    let p = at(4, 4, "4 4 ...D1/...L4/L1.../D3L1.. L 3 5 0 0 5");
    assert_eq!(p.control_counts(L, sq(&p, "a1")), (2, 2, 0));
    assert!(p.controls(L, sq(&p, "a1")));
    assert_eq!(p.control_counts(L, sq(&p, "d4")), (1, 4, 0));
    assert!(!p.controls(L, sq(&p, "d4")));
    assert_eq!(after(&p, "xa1*3,+a1").format_position(), "4 4 ...D1/...L4/L1.../L1L1.. D 2 5 0 3 5");
    assert_eq!(refused(&p, "xa1*3,+a1,+a1"), (act(5), "BudgetExceeded"));
    assert_eq!(refused(&p, "xd4,+c4"), (act(1), "NotControlled"));
    assert_eq!(after(&p, "+c4,xd4").format_position(), "4 4 ..L1./...L4/L1.../D3L1.. D 2 5 0 1 5");
    assert_eq!(refused(&p, "d3>c4"), (act(1), "MoveTargetVacant"));
    for id in ["Ex8", "Ex8a", "Ex8b", "Ex8c", "Ex8d", "Ex8e"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex9_moves_build_a_majority() {
    let p = at(5, 4, "5 4 ...../..D2../.L1D1D1./..L1../....L3 L 8 9 0 0 6");
    assert_eq!(p.control_counts(L, sq(&p, "c3")), (2, 2, 3));
    assert_eq!(after(&p, "e1>b3,e1>c2,xc3").format_position(), "5 4 ...../..D2../.L2.D1./..L2../....L1 D 8 9 0 1 6");
    assert_eq!(refused(&p, "e1>b3,xc3"), (act(2), "NotControlled"));
    assert_eq!(refused(&p, "xc3,e1>b3,e1>c2"), (act(1), "NotControlled"));
    assert_eq!(refused(&p, "e1>b3,e1>c2,xc3,+a5"), (act(4), "PhaseOrder"));
    for id in ["Ex9", "Ex9a", "Ex9b", "Ex9c", "Ex9d"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex10_losing_on_territory_by_ones_own_returns() {
    let p = at(4, 3, "4 3 ...D1/...D1/.L1../L1.L1. L 4 7 2 0 5");
    let q = after(&p, "-a1,-c1");
    assert_eq!(q.format_position(), "4 3 ...D1/...D1/.L1../.... D 6 7 2 0 5");
    assert_eq!(q.status(), Status::Ongoing);
    let r = after(&q, "+d2");
    assert_eq!(r.format_position(), "4 3 ...D1/...D1/.L1.D1/.... L 6 6 2 0 6");
    assert_eq!(r.status(), Status::Over(Outcome::Winner(D)));
    let res = r.result().unwrap();
    assert_eq!(res.reason, EndReason::LossCondition);
    assert!(!res.flags[0].attrition && res.flags[0].territory && !res.flags[1].any());

    let q = after(&p, "-a1");
    assert_eq!(q.format_position(), "4 3 ...D1/...D1/.L1../..L1. D 5 7 2 0 5");
    let r = after(&q, "+d2");
    assert_eq!(r.format_position(), "4 3 ...D1/...D1/.L1.D1/..L1. L 5 6 2 0 6");
    assert_eq!(r.status(), Status::Ongoing);
    for id in ["Ex10a", "Ex10b", "Ex10c", "Ex10d"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex11_attrition_and_territory_thresholds() {
    let p = at(5, 4, "5 4 L1.L1../...../....L1/D1..../L1D1L1D1L1 D 1 10 6 0 9");
    assert!(p.controls(D, sq(&p, "a1")) && p.controls(D, sq(&p, "c1")) && !p.controls(D, sq(&p, "e1")));

    let q = after(&p, "+e5");
    assert_eq!(q.format_position(), "5 4 L1.L1.D1/...../....L1/D1..../L1D1L1D1L1 L 1 9 6 0 10");
    assert_eq!(q.status(), Status::Ongoing);

    let q = after(&p, "xa1,+a1");
    assert_eq!(q.format_position(), "5 4 L1.L1../...../....L1/D1..../D1D1L1D1L1 L 1 9 7 0 10");
    assert_eq!(q.status(), Status::Over(Outcome::Winner(D)));
    let f = q.result().unwrap().flags[0];
    assert!(!f.attrition && f.territory);

    let q = after(&p, "xa1,xc1,+a1");
    assert_eq!(q.format_position(), "5 4 L1.L1../...../....L1/D1..../D1D1.D1L1 L 1 9 8 0 10");
    assert_eq!(q.status(), Status::Over(Outcome::Winner(D)));
    let f = q.result().unwrap().flags[0];
    assert!(f.attrition && f.territory);

    assert_eq!(refused(&p, "xe1,+e5"), (act(1), "NotControlled"));
    for id in ["Ex11", "Ex11a", "Ex11b", "Ex11c", "Ex11d"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex12_seed_territory_example_on_8x8() {
    let p = at(
        8,
        4,
        "8 4 ...D1D2D1D2D1/...D2D1D2D1D1/......../......../......../L2L1....../L2L1L1....D2/L2L2L1L1L2.D2L1 D 6 10 11 5 20",
    );
    assert_eq!(p.control_counts(D, sq(&p, "h1")), (2, 4, 0));
    let q = after(&p, "xh1,+h1");
    assert_eq!(
        q.format_position(),
        "8 4 ...D1D2D1D2D1/...D2D1D2D1D1/......../......../......../L2L1....../L2L1L1....D2/L2L2L1L1L2.D2D1 L 6 9 12 5 21"
    );
    assert_eq!(q.status(), Status::Over(Outcome::Winner(D)));
    assert_eq!((q.occupied(L), q.lost(L)), (10, 12));
    let f = q.result().unwrap().flags[0];
    assert!(!f.attrition && f.territory);
    let q = after(&p, "+a8");
    assert_eq!(
        q.format_position(),
        "8 4 D1..D1D2D1D2D1/...D2D1D2D1D1/......../......../......../L2L1....../L2L1L1....D2/L2L2L1L1L2.D2L1 L 6 9 11 5 21"
    );
    assert_eq!(q.status(), Status::Ongoing);
    for id in ["Ex12", "Ex12a", "Ex12b"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex13_both_lose_is_a_draw_and_darks_reply_can_save_or_win() {
    let p = at(4, 3, "4 3 ..../L1.../D1..D1/L1.D1L1 L 4 3 2 3 6");
    assert_eq!(refused(&p, "xd1,+a1"), (act(1), "RemoveTargetNotEnemy"));
    let q = after(&p, "xa2,+a1");
    assert_eq!(q.format_position(), "4 3 ..../L1.../...D1/L2.D1L1 D 3 3 2 4 6");
    assert_eq!(q.status(), Status::Ongoing);
    assert_eq!(q.control_counts(D, sq(&q, "d1")), (2, 2, 0));

    let cases = [
        ("xd1,+c1", "4 3 ..../L1.../...D1/L2.D2. L 3 2 3 4 7", Status::Over(Outcome::Draw)),
        ("+b4,+c4,+d4", "4 3 .D1D1D1/L1.../...D1/L2.D1L1 L 3 0 2 4 7", Status::Ongoing),
        ("xd1,+b4,+c4", "4 3 .D1D1./L1.../...D1/L2.D1. L 3 1 3 4 7", Status::Over(Outcome::Winner(D))),
        ("xd1,+b4", "4 3 .D1../L1.../...D1/L2.D1. L 3 2 3 4 7", Status::Over(Outcome::Draw)),
    ];
    for (turn, text, status) in cases {
        let r = after(&q, turn);
        assert_eq!(r.format_position(), text, "{turn}");
        assert_eq!(r.status(), status, "{turn}");
        if status == Status::Over(Outcome::Draw) {
            assert_eq!(r.result().unwrap().reason, EndReason::MutualLoss, "{turn}");
        }
    }
    for id in ["Ex13", "Ex13a", "Ex13b", "Ex13c", "Ex13d", "Ex13e", "Ex13f"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex14_deadlock_draw_on_a_full_board() {
    let p = at(4, 3, "4 3 D1D1D1D1/D1D1D1D1/L1L1L1L1/L1L1L1L1 D 1 1 0 0 10");
    let q = after(&p, "+a4");
    assert_eq!(q.format_position(), "4 3 D2D1D1D1/D1D1D1D1/L1L1L1L1/L1L1L1L1 L 1 0 0 0 11");
    assert_eq!(q.status(), Status::Over(Outcome::Draw));
    assert_eq!(q.result().unwrap().reason, EndReason::Deadlock);
    assert!(q.stuck(L) && q.stuck(D));

    let q = after(&p, "a3>a4");
    assert_eq!(q.format_position(), "4 3 D2D1D1D1/.D1D1D1/L1L1L1L1/L1L1L1L1 L 1 1 0 0 11");
    assert_eq!(q.status(), Status::Ongoing);
    let q = after(&p, "-a4");
    assert_eq!(q.format_position(), "4 3 .D1D1D1/D1D1D1D1/L1L1L1L1/L1L1L1L1 L 1 2 0 0 11");
    assert_eq!(q.status(), Status::Ongoing);
    for id in ["Ex14a", "Ex14b", "Ex14c"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

#[test]
fn ex15_wiped_out_forced_pass() {
    let p = at(3, 4, "3 4 .L1D1/L1D2L1/.L1. L 1 0 0 2 7");
    assert_eq!(refused(&p, "pass"), (act(1), "PassNotAllowed"));
    assert_eq!(p.control_counts(L, sq(&p, "b2")), (4, 4, 0));
    assert_eq!(p.control_counts(L, sq(&p, "c3")), (2, 2, 0));
    let q = after(&p, "xb2*2,xc3,+a1");
    assert_eq!(q.format_position(), "3 4 .L1./L1.L1/L1L1. D 0 0 0 5 7");
    assert_eq!(tokens(&q), vec!["pass".to_string()]);
    assert_eq!(refused(&q, "+a3"), (act(1), "PoolEmpty"));
    let r = after(&q, "pass");
    assert_eq!(r.format_position(), "3 4 .L1./L1.L1/L1L1. L 0 0 0 5 8");
    assert_eq!(r.status(), Status::Over(Outcome::Winner(L)));
    let f = r.result().unwrap().flags[1];
    assert!(f.attrition && f.territory);
    for id in ["Ex15", "Ex15a", "Ex15b", "Ex15c", "Ex15d"] {
        support::assert_case(GameKind::named("gravel"), id);
    }
}

// ---------------------------------------------------------------------------------------------
// All referee cases, notation details
// ---------------------------------------------------------------------------------------------

#[test]
fn all_referee_cases_pass() {
    support::assert_all_cases(GameKind::named("gravel"));
}

#[test]
fn turn_strings_parse_and_format_canonically() {
    assert!(parse_turn("+d4*1").is_err());
    assert!(parse_turn("+d4*").is_err());
    assert!(parse_turn("+d4,").is_err());
    assert!(parse_turn("pass,+a1").is_err());
    assert!(parse_turn("+a0").is_err());
    assert!(parse_turn("").is_err());
    let p = Position::new(&GravelOptions::default());
    // A square beyond the board parses, then fails at its action.
    assert_eq!(refused(&p, "+d4,+z9"), (act(2), "OffBoard"));
    let actions: Vec<Action> = ["+d4", "+d4", "+e5", "+d5", "end"].iter().map(|t| p.parse_move(t).unwrap()).collect();
    assert_eq!(format_turn(8, &actions), "+d4*2,+e5,+d5");
    assert_eq!(format_turn(8, &[Action::Pass]), "pass");
    assert!(p.parse_move("+d4*2").is_err());
    assert!(p.parse_move("+i1").is_err());
    // Upper case is read; output is canonical.
    assert_eq!(after(&p, "+D4*2").format_position(), after(&p, "+d4,+d4").format_position());
}

#[test]
fn bad_position_texts_are_refused_with_a_reason() {
    let o = opts(4, 3);
    for bad in [
        "4 3 ..../..../..../.... L 9 9 0 0",               // 8 fields
        "4 3 ..../..../..../.... L 9 9 0 0 0",             // turn 0
        "4 3 ..../..../..../.... L 8 9 0 0 1",             // conservation
        "4 3 ..../..../..../L4... L 5 9 0 0 1",            // height above X
        "4 3 ..../..../..../L0... L 9 9 0 0 1",            // height 0
        "4 3 ..../..../..../..... L 9 9 0 0 1",            // 5 spaces in a rank
        "4 3 ..../..../.... L 9 9 0 0 1",                  // 3 ranks
        "4 3 ..../..../..../.... W 9 9 0 0 1",             // side
        "5 3 ...../...../...../...../..... L 13 13 0 0 1", // N differs from the options
        "4 3 ..../..../..../X... L 9 9 0 0 1",             // unknown piece
    ] {
        let e = Position::parse_position(&o, bad).expect_err(bad);
        assert!(!e.reason.is_empty());
    }
}

// ---------------------------------------------------------------------------------------------
// Conformance and cross-checks
// ---------------------------------------------------------------------------------------------

fn invariants(pos: &Position) {
    pos.check_invariants().unwrap_or_else(|e| panic!("{e} at {}", pos.format_position()));
    // No space holds more than X, and no space holds both colours: the representation makes the
    // latter impossible, check_invariants checks the former and conservation.
    let p = pos.options().pieces_per_player();
    for side in [L, D] {
        assert_eq!(pos.pool(side) + pos.pieces_on_board(side) + pos.lost(side), p);
    }
}

#[test]
fn conformance_random_playouts() {
    let mut total = 0;
    for (n, x, limit, games) in [(8, 4, 200, 40), (3, 2, 60, 80), (4, 3, 60, 80), (5, 4, 60, 60), (6, 9, 30, 20)] {
        let o = GravelOptions { size: n, budget: x, turn_limit: limit, ..GravelOptions::default() };
        total += support::conformance::random_playouts(&Position::new(&o), games, 100_000, invariants);
    }
    assert!(total > 1000);
}

/// The literal rule: an atomic action is legal when §6.6's check accepts it and some continuation
/// under the same literal checks reaches a legal end-turn.
fn literal_completable(pos: &Position) -> bool {
    if pos.check_action(Action::EndTurn).is_ok() {
        return true;
    }
    candidates(pos).into_iter().filter(|&a| a != Action::EndTurn && a != Action::Pass).any(|a| {
        if pos.check_action(a).is_err() {
            return false;
        }
        let mut next = pos.clone();
        next.play_unchecked(&a);
        literal_completable(&next)
    })
}

/// Every syntactically possible decision on this board.
fn candidates(pos: &Position) -> Vec<Action> {
    let s = pos.spaces() as u16;
    let mut out = vec![Action::EndTurn, Action::Pass];
    for c in 0..s {
        out.extend([Action::Place(c), Action::Return(c), Action::Remove(c)]);
        for t in 0..s {
            out.push(Action::Move { from: c, to: t });
        }
    }
    out
}

fn literal_legal(pos: &Position) -> BTreeSet<String> {
    candidates(pos)
        .into_iter()
        .filter(|&a| {
            pos.check_action(a).is_ok()
                && match a {
                    Action::EndTurn | Action::Pass => true,
                    _ => {
                        let mut next = pos.clone();
                        next.play_unchecked(&a);
                        literal_completable(&next)
                    }
                }
        })
        .map(|a| pos.format_move(&a))
        .collect()
}

fn generated(pos: &Position) -> BTreeSet<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let set: BTreeSet<String> = moves.iter().map(|m| pos.format_move(m)).collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves at {}", pos.format_position());
    set
}

#[test]
fn generator_agrees_with_the_literal_rule() {
    let mut checked = 0;
    for (n, x, seeds) in [(3, 2, 40), (3, 3, 40), (4, 2, 30), (4, 3, 20), (3, 4, 15)] {
        let o = GravelOptions { size: n, budget: x, turn_limit: 40, ..GravelOptions::default() };
        for seed in 0..seeds {
            let mut rng = seeded(1000 + seed);
            let mut pos = Position::new(&o);
            let mut moves = Vec::new();
            while pos.status() == Status::Ongoing {
                let fast = generated(&pos);
                let slow = literal_legal(&pos);
                assert_eq!(fast, slow, "at {} (progress {:?})", pos.format_position(), pos.progress());
                for m in candidates(&pos) {
                    assert_eq!(pos.is_legal(&m), fast.contains(&pos.format_move(&m)));
                }
                checked += 1;
                pos.legal_moves(&mut moves);
                let m = moves[pick_index(&mut rng, moves.len())];
                pos.play(&m).unwrap();
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Brute force over every legal turn of the side to move: (canRemove, canExpand) of §8.4.
fn brute_force_abilities(pos: &Position) -> (bool, bool) {
    let side = pos.side_to_move();
    let start_occ = pos.occupied(side);
    let mut seen = HashSet::new();
    let (mut can_remove, mut can_expand) = (false, false);
    let mut stack = vec![pos.clone()];
    while let Some(p) = stack.pop() {
        if !seen.insert(p.zobrist()) {
            continue;
        }
        if p.check_action(Action::EndTurn).is_ok() {
            let removed = !matches!(
                p.progress().phase,
                stoneyard::games::gravel::Phase::Start | stoneyard::games::gravel::Phase::PlaceFirst
            );
            can_remove |= removed;
            can_expand |= p.occupied(side) > start_occ;
            if can_remove && can_expand {
                break;
            }
        }
        for a in candidates(&p) {
            if a != Action::EndTurn && a != Action::Pass && p.check_action(a).is_ok() {
                let mut next = p.clone();
                next.play_unchecked(&a);
                stack.push(next);
            }
        }
    }
    (can_remove, can_expand)
}

/// A random position with valid counts, biased towards crowded boards and tall stacks.
fn random_position(rng: &mut stoneyard::rules::GameRng, n: u8, x: u8) -> Position {
    let o = opts(n, x);
    let p = o.pieces_per_player() as usize;
    loop {
        let mut board = String::new();
        let mut pieces = [0usize; 2];
        let fill = pick_index(rng, 4);
        for rank in 0..n {
            if rank > 0 {
                board.push('/');
            }
            for _ in 0..n {
                if pick_index(rng, 6) < fill + 1 || pieces[0] + pieces[1] >= 2 * p {
                    board.push('.');
                    continue;
                }
                let side = pick_index(rng, 2);
                let h = if pick_index(rng, 3) == 0 { 1 + pick_index(rng, x as usize) } else { 1 };
                pieces[side] += h;
                board.push(if side == 0 { 'L' } else { 'D' });
                board.push_str(&h.to_string());
            }
        }
        if pieces[0] > p || pieces[1] > p {
            continue;
        }
        let lost = [pick_index(rng, p - pieces[0] + 1), pick_index(rng, p - pieces[1] + 1)];
        let pool = [p - pieces[0] - lost[0], p - pieces[1] - lost[1]];
        let side = if pick_index(rng, 2) == 0 { "L" } else { "D" };
        let text = format!("{n} {x} {board} {side} {} {} {} {} 1", pool[0], pool[1], lost[0], lost[1]);
        return Position::parse_position(&o, &text).unwrap();
    }
}

#[test]
fn deadlock_formula_agrees_with_brute_force() {
    let mut rng = seeded(77);
    let mut stuck_seen = 0;
    let mut cost_nonzero = 0;
    for (n, x, count) in [(3, 2, 150), (3, 3, 150), (4, 2, 60), (3, 4, 40)] {
        for _ in 0..count {
            let pos = random_position(&mut rng, n, x);
            let side = pos.side_to_move();
            let (can_remove, can_expand) = brute_force_abilities(&pos);
            assert_eq!(pos.can_remove(side), can_remove, "canRemove at {}", pos.format_position());
            let stuck = !can_remove && !can_expand;
            assert_eq!(pos.stuck(side), stuck, "stuck at {}", pos.format_position());
            stuck_seen += stuck as u32;
            cost_nonzero += (can_remove && (0..pos.spaces()).all(|c| !pos.controls(side, c))) as u32;
        }
    }
    assert!(stuck_seen > 10, "too few stuck positions to be a test: {stuck_seen}");
    assert!(cost_nonzero > 10, "too few positions needing placements before a removal: {cost_nonzero}");
}

#[test]
fn every_decision_changes_the_zobrist_hash_and_a_turn_start_hashes_like_its_text() {
    let o = GravelOptions { size: 5, budget: 3, turn_limit: 30, ..GravelOptions::default() };
    for seed in 0..10 {
        let mut rng = seeded(seed);
        let mut pos = Position::new(&o);
        let mut moves = Vec::new();
        while pos.status() == Status::Ongoing {
            pos.legal_moves(&mut moves);
            let m = moves[pick_index(&mut rng, moves.len())];
            let before = pos.zobrist();
            pos.play(&m).unwrap();
            assert_ne!(pos.zobrist(), before, "seed {seed}: {m:?} left the hash unchanged");
            if pos.status() == Status::Ongoing && matches!(m, Action::EndTurn | Action::Pass) {
                let text = pos.format_position();
                assert_eq!(
                    Position::parse_position(&o, &text).unwrap().zobrist(),
                    pos.zobrist(),
                    "seed {seed}: {text}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Perft
// ---------------------------------------------------------------------------------------------

fn perft_data() -> Vec<(Position, Vec<(u32, u64)>)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/gravel.txt")).unwrap();
    let mut out: Vec<(Position, Vec<(u32, u64)>)> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(p) = line.strip_prefix("position ") {
            let f: Vec<&str> = p.split_whitespace().collect();
            out.push((at(f[0].parse().unwrap(), f[1].parse().unwrap(), p), Vec::new()));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, c) = rest.split_once(' ').unwrap();
            out.last_mut().unwrap().1.push((d.parse().unwrap(), c.trim().parse().unwrap()));
        } else {
            panic!("bad perft line {line}");
        }
    }
    out
}

#[test]
fn perft_counts_match_the_committed_data() {
    let data = perft_data();
    assert!(data.len() >= 3);
    for (pos, counts) in data {
        for (depth, count) in counts {
            assert_eq!(perft(&pos, depth), count, "perft {depth} at {}", pos.format_position());
        }
    }
}

fn literal_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 || pos.status().is_over() {
        return 1;
    }
    let moves: Vec<Action> = candidates(pos)
        .into_iter()
        .filter(|&a| {
            pos.check_action(a).is_ok()
                && match a {
                    Action::EndTurn | Action::Pass => true,
                    _ => {
                        let mut next = pos.clone();
                        next.play_unchecked(&a);
                        literal_completable(&next)
                    }
                }
        })
        .collect();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(m).unwrap();
            literal_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_data_agrees_with_the_literal_rule_at_shallow_depth() {
    for (pos, counts) in perft_data() {
        // The literal rule is slow: depth 3 on the small boards, depth 2 on 8×8.
        let max_depth = if pos.spaces() <= 25 { 3 } else { 2 };
        for (depth, count) in counts.into_iter().filter(|&(d, _)| d <= max_depth) {
            assert_eq!(literal_perft(&pos, depth), count, "literal perft {depth} at {}", pos.format_position());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Records: atomic play and whole turn strings agree
// ---------------------------------------------------------------------------------------------

#[test]
fn records_of_atomic_games_replay_as_turn_strings() {
    use stoneyard::games::gravel::{format_record, parse_record};
    let (o, turns) =
        parse_record("[Gravel N=8 X=4 layout=squares turn_limit=200]\n1. +d4*2,+e5,+d5 ; +e4,+f5*2").unwrap();
    assert_eq!(o, GravelOptions::default());
    let mut p = Position::new(&o);
    for t in &turns {
        p.play_turn(t).unwrap();
    }
    assert_eq!(p.game_turn(), 2);

    for (n, x, limit) in [(5, 3, 40), (8, 4, 60), (4, 2, 40)] {
        let o = GravelOptions { size: n, budget: x, turn_limit: limit, ..GravelOptions::default() };
        for seed in 0..5 {
            let mut rng = seeded(500 + seed);
            let mut pos = Position::new(&o);
            let mut moves = Vec::new();
            let (mut turns, mut current) = (Vec::new(), Vec::new());
            while pos.status() == Status::Ongoing {
                pos.legal_moves(&mut moves);
                let m = moves[pick_index(&mut rng, moves.len())];
                current.push(m);
                pos.play(&m).unwrap();
                if m == Action::EndTurn || m == Action::Pass {
                    turns.push(format_turn(n as usize, &current));
                    current.clear();
                }
            }
            let record = format_record(&o, &turns);
            let (o2, turns2) = parse_record(&record).unwrap();
            assert_eq!((o2, &turns2), (o.clone(), &turns));
            let mut replay = Position::new(&o);
            for t in &turns2 {
                replay.play_turn(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            }
            assert_eq!(replay.format_position(), pos.format_position());
            assert_eq!(replay.status(), pos.status());
        }
    }
}

#[test]
fn turn_lines_without_a_header_take_the_options_given() {
    use stoneyard::games::gravel::{parse_record, parse_record_over};
    let (o, turns) = parse_record("1. +d4*2,+e5,+d5 ; +e4,+f5*2").unwrap();
    assert_eq!((o, turns), (GravelOptions::default(), vec!["+d4*2,+e5,+d5".to_string(), "+e4,+f5*2".to_string()]));
    let small = GravelOptions { size: 5, budget: 3, ..GravelOptions::default() };
    let (o, _) = parse_record_over("1. +a1 ; +e5", &small).unwrap();
    assert_eq!(o, small);
    let (o, _) = parse_record_over("[Gravel X=2]\n1. +a1 ; +e5", &small).unwrap();
    assert_eq!((o.size, o.budget), (5, 2), "the header overrides only what it names");
    assert!(parse_record(" \n ").unwrap_err().to_string().contains("empty"));
}

#[test]
fn turn_limit_draws_after_darks_turn_only() {
    let o = GravelOptions { size: 4, budget: 2, turn_limit: 2, ..GravelOptions::default() };
    let mut p = Position::new(&o);
    for (turn, status) in [
        ("+a1", Status::Ongoing),
        ("+d4", Status::Ongoing),
        ("+b1", Status::Ongoing),
        ("+c4", Status::Over(Outcome::Draw)),
    ] {
        p.play_turn(turn).unwrap();
        assert_eq!(p.status(), status, "after {turn}");
    }
    assert_eq!(p.result().unwrap().reason, EndReason::TurnLimit);
    assert_eq!((p.side_to_move(), p.game_turn()), (L, 3));
    assert_eq!(refused(&p, "+b2"), (act(1), "GameOver"));
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(moves.is_empty() && p.to_move().is_none());
    // Without a limit play goes on.
    let o = GravelOptions { turn_limit: 0, ..o };
    let q = after(&after(&after(&after(&Position::new(&o), "+a1"), "+d4"), "+b1"), "+c4");
    assert_eq!(q.status(), Status::Ongoing);
}

#[test]
fn atomic_play_refuses_dead_ends_that_the_literal_turn_reports_at_the_end() {
    let p = at(4, 2, "4 2 ..../..../..../.... L 9 9 0 0 1");
    assert_eq!(refused(&p, "+a1,-a1"), (TurnStep::End, "NoNetChange"));
    let mut q = p.clone();
    q.play(&q.parse_move("+a1").unwrap()).unwrap();
    let ret = q.parse_move("-a1").unwrap();
    assert!(!q.is_legal(&ret));
    let err = q.play(&ret).unwrap_err();
    assert!(err.reason.contains("DeadEnd"), "{}", err.reason);
    // A removal-first turn needs a placement after it, so with X = 2 a second removal is refused.
    let r = at(3, 2, "3 2 L1D1L1/.L1./... L 2 4 0 0 1");
    assert!(r.controls(L, sq(&r, "b3")));
    let mut s = r.clone();
    s.play(&s.parse_move("xb3").unwrap()).unwrap();
    assert!(!s.is_legal(&Action::EndTurn), "a removal alone is no turn");
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    assert!(moves.iter().all(|m| m.is_placement()), "{moves:?}");
}

#[test]
fn garbage_input_gives_errors_not_panics() {
    let alphabet: Vec<char> = "abcsxyzLD.0123456789+->*,/ pas".chars().collect();
    let mut rng = seeded(9);
    let base = at(5, 4, SEED);
    for _ in 0..20_000 {
        let len = pick_index(&mut rng, 24);
        let text: String = (0..len).map(|_| alphabet[pick_index(&mut rng, alphabet.len())]).collect();
        let _ = parse_turn(&text);
        let _ = base.parse_move(&text);
        let _ = Position::parse_position(&opts(5, 4), &text);
        let mut p = base.clone();
        if p.play_turn(&text).is_ok() {
            p.check_invariants().unwrap();
        } else {
            assert_eq!(p, base);
        }
    }
    // Mutations of a valid position text.
    let good = SEED.to_string();
    for _ in 0..20_000 {
        let mut chars: Vec<char> = good.chars().collect();
        let i = pick_index(&mut rng, chars.len());
        chars[i] = alphabet[pick_index(&mut rng, alphabet.len())];
        let text: String = chars.into_iter().collect();
        if let Ok(p) = Position::parse_position(&opts(5, 4), &text) {
            p.check_invariants().unwrap();
            assert_eq!(
                Position::parse_position(&opts(5, 4), &p.format_position()).unwrap().format_position(),
                p.format_position()
            );
        }
    }
}
