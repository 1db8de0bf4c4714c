//! Inchworm rules tests: worked examples, referee cases, conformance, literal cross-check, perft.
//!
//! The spec's worked examples (E01–E18, §13 counts), all referee cases, conformance playouts with
//! the stone-conservation invariant, the literal legality cross-check and perft data.

use crate::support;

use stoneyard::games::GameKind;
use stoneyard::games::inchworm::{
    InchwormOptions, Move, Position, all_candidate_moves, canonical_path, distribution_sets, parse_square,
};
use stoneyard::rules::{
    EffectKind, Effects, ExactCount, GameOptions, LegalTokens, Notation, Outcome, Rules, Side, Status, ToMove, seeded,
};

const P0: &str =
    "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 9 0 0 0 0";
const P0_WHITE: &str =
    "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 11 9 0 0 0 0";

fn opts(pairs: &[(&str, &str)]) -> InchwormOptions {
    InchwormOptions::from_pairs(pairs.iter().copied()).expect("valid options")
}

fn at(text: &str) -> Position {
    at_with(&[], text)
}

fn at_with(pairs: &[(&str, &str)], text: &str) -> Position {
    Position::parse_position(&opts(pairs), text).unwrap_or_else(|e| panic!("bad position {text}: {e}"))
}

/// Plays a record token and returns its effects; panics if illegal.
fn play(pos: &mut Position, token: &str) -> Effects {
    pos.play_record_token(token).unwrap_or_else(|e| panic!("{token} refused: {e}"))
}

/// Plays a token and returns the resulting text.
fn after(text: &str, pairs: &[(&str, &str)], token: &str) -> String {
    let mut p = at_with(pairs, text);
    play(&mut p, token);
    p.format_position()
}

fn refused(text: &str, pairs: &[(&str, &str)], token: &str) -> bool {
    let mut p = at_with(pairs, text);
    let before = p.format_position();
    let refused = p.play_record_token(token).is_err();
    assert_eq!(p.format_position(), before, "a refused token changed the position");
    refused
}

fn tokens(pos: &Position) -> Vec<String> {
    match pos.legal_record_tokens() {
        LegalTokens::List(v) => v,
        other => panic!("expected a list, got {other:?}"),
    }
}

fn count_prefix(list: &[String], prefix: &str) -> usize {
    list.iter().filter(|t| t.starts_with(prefix)).count()
}

fn has_capture(effects: &Effects, by: Side, cells: &[&str]) -> bool {
    let want: Vec<u16> = cells.iter().map(|c| parse_square(c).unwrap() as u16).collect();
    effects.iter().any(|e| match &e.kind {
        EffectKind::Captured { cells, by: b } => *b == by && *cells == want && e.wave == 1,
        _ => false,
    })
}

#[test]
fn all_referee_cases_pass() {
    support::assert_all_cases(GameKind::named("inchworm"));
}

#[test]
fn e01_opening_position_has_64_drops_only() {
    let start = Position::new(&InchwormOptions::default());
    assert_eq!(
        start.format_position(),
        "......../......../......../......../......../......../......../........ b 25 25 0 0 0 0 0"
    );
    let list = tokens(&start);
    assert_eq!(list.len(), 64);
    assert!(list.iter().all(|t| t.starts_with('D')));
    let mut p = start.clone();
    play(&mut p, "Dd4");
    assert_eq!(
        p.format_position(),
        "......../......../......../......../...B1..../......../......../........ w 24 25 0 0 0 0 1"
    );
    for t in ["R", "pass", "Sd4-d5", "Cd4-d5>d4"] {
        assert!(start.clone().play_record_token(t).is_err(), "{t} should be illegal");
    }
    for id in ["E01a", "E01b", "E01c", "E01d", "E01e", "E01f"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e02_seed_position_census_89_and_107() {
    let black = at(P0);
    let list = tokens(&black);
    assert_eq!(list.len(), 89);
    assert_eq!(count_prefix(&list, "D"), 51);
    assert_eq!(count_prefix(&list, "C"), 38);
    assert_eq!(count_prefix(&list, "S"), 0);
    let white = at(P0_WHITE);
    let list = tokens(&white);
    assert_eq!(list.len(), 107);
    assert_eq!(count_prefix(&list, "D"), 50);
    assert_eq!(count_prefix(&list, "C"), 36);
    assert_eq!(count_prefix(&list, "Sb8"), 16);
    assert_eq!(count_prefix(&list, "Sb4"), 5);
    // Atomic decisions: the distributions are two staged sources.
    let mut moves = Vec::new();
    white.legal_moves(&mut moves);
    // Atomic decisions: 50 drops, 12 stacks that can start a collect, 2 spread sources.
    assert_eq!(moves.len(), 50 + 12 + 2);
    assert!(moves.contains(&Move::SpreadFrom(parse_square("b8").unwrap())));
    support::assert_case(GameKind::named("inchworm"), "E02a");
    support::assert_case(GameKind::named("inchworm"), "E02b");
}

#[test]
fn e03_black_drop_on_h1_is_suicide() {
    let mut p = at(P0);
    let effects = play(&mut p, "Dh1");
    assert_eq!(
        p.format_position(),
        "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 10 9 0 1 0 1 0"
    );
    assert!(has_capture(&effects, Side::Second, &["h1"]));
    assert_eq!(effects.iter().filter(|e| matches!(e.kind, EffectKind::Captured { .. })).count(), 1);
    support::assert_case(GameKind::named("inchworm"), "E03");
}

#[test]
fn e04_black_drop_on_h8_captures_both_colours_at_once() {
    let mut p = at(P0);
    let effects = play(&mut p, "Dh8");
    assert_eq!(
        p.format_position(),
        "B1W3...B1../.....B1../.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 10 9 3 1 3 1 0"
    );
    assert!(has_capture(&effects, Side::First, &["g7", "h7", "g8"]));
    assert!(has_capture(&effects, Side::Second, &["h8"]));
    assert_eq!(effects[0].wave, 0);
    support::assert_case(GameKind::named("inchworm"), "E04");
}

#[test]
fn e05_white_captures_a3_a4_or_a8() {
    assert_eq!(
        after(P0_WHITE, &[], "Da5"),
        "B1W3...B1W1./.....B1W1W1/.....B1B1B1/W1......./.W2....../.W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 8 0 2 0 2 0"
    );
    assert_eq!(
        after(P0_WHITE, &[], "Da7"),
        ".W3...B1W1./W1....B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 8 0 1 0 1 0"
    );
    support::assert_case(GameKind::named("inchworm"), "E05a");
    support::assert_case(GameKind::named("inchworm"), "E05b");
}

#[test]
fn e06_white_fills_its_own_last_liberty() {
    let mut p = at(P0_WHITE);
    let effects = play(&mut p, "Dh8");
    assert_eq!(
        p.format_position(),
        "B1W3...B1../.....B1../.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 8 4 0 4 0 0"
    );
    assert!(has_capture(&effects, Side::First, &["g7", "h7", "g8", "h8"]));
    support::assert_case(GameKind::named("inchworm"), "E06");
}

#[test]
fn e07_drops_onto_stacks() {
    assert_eq!(
        after(P0, &[], "Da4"),
        "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B2W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 10 9 0 0 0 0 1"
    );
    assert!(refused(P0, &[], "Db8"));
    assert_eq!(
        after(P0_WHITE, &[], "Db4"),
        "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W3....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 8 0 0 0 0 1"
    );
    for id in ["E07a", "E07b", "E07c"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e08_legal_collects() {
    assert_eq!(
        after(P0, &[], "Ce3-f3-g3-h3>h3"),
        "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1.....B4/W1..B1W1W1W1W1/...B1W1.W1. w 11 9 0 0 0 0 1"
    );
    assert_eq!(
        after(P0, &[], "Ch3-g3-f3-e3>f3"),
        "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1...B4../W1..B1W1W1W1W1/...B1W1.W1. w 11 9 0 0 0 0 1"
    );
    assert_eq!(
        after(P0, &[], "Cd2-e3>d2"),
        "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1...B1B1B1/W1..B2W1W1W1W1/...B1W1.W1. w 11 9 0 0 0 0 1"
    );
    assert_eq!(
        after(P0, &[], "Cg6-f7>g6"),
        "B1W3...B1W1./......W1W1/.....B1B2B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 11 9 0 0 0 0 1"
    );
    // Both directions are the same action; as atomic decisions: first stack, each next one, target.
    let forward = after(P0, &[], "Ce3-f3-g3-h3>f3");
    assert_eq!(after(P0, &[], "Ch3-g3-f3-e3>f3"), forward);
    let mut staged = at(P0);
    for t in ["Ch3", "-g3", "-f3", "-e3"] {
        let m = staged.parse_move(t).unwrap();
        assert!(staged.play(&m).unwrap().is_empty(), "{t} changes nothing yet");
        assert_eq!(staged.to_move(), Some(ToMove::One(Side::First)));
    }
    assert!(staged.format_position().ends_with(" Ch3-g3-f3-e3"));
    let reread = Position::parse_position(staged.options(), &staged.format_position()).unwrap();
    assert_eq!(reread.format_position(), staged.format_position());
    // The run cannot bend or skip: only the target choices remain after e3 (d3 is empty).
    let mut moves = Vec::new();
    staged.legal_moves(&mut moves);
    assert_eq!(moves.len(), 4);
    let m = staged.parse_move(">f3").unwrap();
    let effects = staged.play(&m).unwrap();
    assert!(effects.iter().any(|e| matches!(e.kind, EffectKind::Collected { .. })));
    assert_eq!(staged.format_position(), forward);
    for id in ["E08a", "E08b", "E08c", "E08d"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e09_illegal_collects() {
    for t in ["Cf7-f6-g6>f6", "Cd1-d2-d3>d1", "Ce3-g3>e3", "Ca4-a3>a5", "Ca8>a8", "Cb4-b3>b4", "Ca8-f8>a8"] {
        assert!(refused(P0, &[], t), "{t} should be illegal");
    }
    for id in ["E09a", "E09b", "E09c", "E09d", "E09e", "E09f", "E09g"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e10_legal_distributions() {
    let mut p = at(P0_WHITE);
    let effects = play(&mut p, "Sb8-a7-b7");
    assert_eq!(
        p.format_position(),
        ".W1...B1W1./W1W1...B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 9 0 1 0 1 0"
    );
    assert!(effects.iter().any(|e| matches!(e.kind, EffectKind::Distributed { .. }) && e.wave == 0));
    assert!(has_capture(&effects, Side::Second, &["a8"]));
    assert_eq!(
        after(P0_WHITE, &[], "Sb8-c8-d8"),
        "B1W1W1W1.B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 9 0 0 0 0 1"
    );
    assert_eq!(
        after(P0_WHITE, &[], "Sb8-c7-c8"),
        "B1W1W1..B1W1./..W1..B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 9 0 0 0 0 1"
    );
    assert_eq!(
        after(P0_WHITE, &[], "Sb4-a5"),
        "B1W3...B1W1./.....B1W1W1/.....B1B1B1/W1......./.W1....../.W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 9 0 2 0 2 0"
    );
    // The same action as staged atomic decisions: source, then one cell at a time.
    let mut staged = at(P0_WHITE);
    for t in ["Sb8", "-a7"] {
        let m = staged.parse_move(t).unwrap();
        assert!(staged.play(&m).unwrap().is_empty());
        assert_eq!(staged.to_move(), Some(ToMove::One(Side::Second)));
    }
    assert!(staged.format_position().ends_with(" Sb8-a7"));
    let m = staged.parse_move("-b7").unwrap();
    staged.play(&m).unwrap();
    assert_eq!(staged.format_position(), p.format_position());
    for id in ["E10a", "E10b", "E10c", "E10d"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e11_illegal_distributions() {
    for t in ["Sb8-c8", "Sb8-c8-d8-e8", "Sb8-a8-a7", "Sb8-c8-b8", "Sb8-d8-e8", "Sa2-b2", "Sf8-e8"] {
        assert!(refused(P0_WHITE, &[], t), "{t} should be illegal");
    }
    for id in ["E11a", "E11b", "E11c", "E11d", "E11e", "E11f", "E11g"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e12_rescue_keeps_scores() {
    let start = "B1W3...B1../.....B1../.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 10 9 3 1 3 1";
    let mut p = at(start);
    let effects = play(&mut p, "R");
    assert_eq!(
        p.format_position(),
        "B1W3...B1../.....B1../.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 10 12 0 1 3 1 1"
    );
    assert!(effects.iter().any(|e| matches!(e.kind, EffectKind::Rescued { side: Side::Second, count: 3 })));
    play(&mut p, "R");
    assert_eq!(
        p.format_position(),
        "B1W3...B1../.....B1../.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 11 12 0 0 3 1 2"
    );
    assert!(!tokens(&p).contains(&"R".to_string()));
    for id in ["E12a", "E12b", "E12c", "E12d"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e13_forced_pass_then_a_25_stone_capture_wins() {
    let mut p = at("......../......../......../......../......../W1W1....../.W1W1...../B25.W1..... b 0 20 0 0 10 40");
    assert_eq!(tokens(&p), vec!["pass"]);
    play(&mut p, "pass");
    assert_eq!(
        p.format_position(),
        "......../......../......../......../......../W1W1....../.W1W1...../B25.W1..... w 0 20 0 0 10 40 1 1"
    );
    play(&mut p, "Da2");
    assert_eq!(tokens(&p), vec!["pass"]);
    play(&mut p, "pass");
    assert_eq!(p.status(), Status::Ongoing);
    let effects = play(&mut p, "Db1");
    assert_eq!(
        p.format_position(),
        "......../......../......../......../......../W1W1....../W1W1W1...../.W1W1..... b 0 18 0 25 10 65 0"
    );
    assert_eq!(p.status(), Status::Over(Outcome::Winner(Side::Second)));
    assert_eq!(p.to_move(), None);
    assert!(effects.iter().any(|e| matches!(e.kind, EffectKind::GameOver { .. })));
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(moves.is_empty());
    for id in ["E13a", "E13b", "E13c", "E13d", "E13e", "E13f", "E13g", "E13h", "E13i"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e13_two_passes_in_a_row_end_the_game() {
    // Both sides blocked: Black's single stone has no partner, White likewise; no stocks.
    let one_each = [("pieces", "1/1")];
    let mut p =
        at_with(&one_each, "B1......./......../......../......../......../......../......../.......W1 b 0 0 0 0 24 24");
    play(&mut p, "pass");
    assert_eq!(p.status(), Status::Ongoing);
    play(&mut p, "pass");
    assert_eq!(p.status(), Status::Over(Outcome::Draw));
}

#[test]
fn e14_losing_by_your_own_suicide() {
    let start = "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. b 11 9 0 0 20 59";
    let mut p = at(start);
    play(&mut p, "Dh1");
    assert_eq!(
        p.format_position(),
        "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 10 9 0 1 20 60 0"
    );
    assert_eq!(p.status(), Status::Over(Outcome::Winner(Side::Second)));
    let mut p = at(start);
    play(&mut p, "Dh8");
    assert_eq!(
        p.format_position(),
        "B1W3...B1../.....B1../.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 10 9 3 1 23 60 0"
    );
    assert_eq!(p.status(), Status::Over(Outcome::Winner(Side::Second)));
    support::assert_case(GameKind::named("inchworm"), "E14a");
    support::assert_case(GameKind::named("inchworm"), "E14b");
}

#[test]
fn e15_cylinder_side_edge_is_not_a_wall() {
    let p = "......../......../......../W1......./B1......./W1......./......../........ w 24 23 0 0 0 0";
    assert_eq!(
        after(p, &[("topology", "flat")], "Db4"),
        "......../......../......../W1......./.W1....../W1......./......../........ b 24 22 0 1 0 1 0"
    );
    assert_eq!(
        after(p, &[("topology", "cylinder")], "Db4"),
        "......../......../......../W1......./B1W1....../W1......./......../........ b 24 22 0 0 0 0 1"
    );
    let p2 = "......../......../......../W1......./B1W1....../W1......./......../........ w 24 22 0 0 0 0";
    assert_eq!(
        after(p2, &[("topology", "cylinder")], "Dh4"),
        "......../......../......../W1......./.W1.....W1/W1......./......../........ b 24 21 0 1 0 1 0"
    );
    for id in ["E15a", "E15b", "E15c"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e16_wrapped_lines_and_the_torus_corner() {
    let p = "......../......../......../......../......../......../......../B1.....B1B1 b 22 25 0 0 0 0";
    let cyl = at_with(&[("topology", "cylinder")], p);
    assert_eq!(count_prefix(&tokens(&cyl), "C"), 7);
    assert_eq!(
        after(p, &[("topology", "cylinder")], "Cg1-h1-a1>a1"),
        "......../......../......../......../......../......../......../B3....... w 22 25 0 0 0 0 1"
    );
    let flat = at(p);
    assert_eq!(count_prefix(&tokens(&flat), "C"), 2);
    assert!(refused(p, &[], "Cg1-h1-a1>a1"));
    // A full ring of 8 on the cylinder is one set: 8 targets, listed once from a1.
    let ring = at_with(
        &[("topology", "cylinder")],
        "......../......../......../......../......../......../......../B1B1B1B1B1B1B1B1 b 17 25 0 0 0 0",
    );
    let list = tokens(&ring);
    assert_eq!(list.iter().filter(|t| t.starts_with("Ca1-b1-c1-d1-e1-f1-g1-h1>")).count(), 8);
    assert_eq!(count_prefix(&list, "C"), (2..=7).map(|k| 8 * k).sum::<usize>() + 8);
    let t = "......../......../......../......../......../......../W1......./B1W1.....W1 w 24 22 0 0 0 0";
    assert_eq!(
        after(t, &[("topology", "torus")], "Da8"),
        "W1......./......../......../......../......../......../W1......./.W1.....W1 b 24 21 0 1 0 1 0"
    );
    for id in ["E16a", "E16b", "E16c", "E16d", "E16e"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e17_prisoner_drops_fill_the_eyes() {
    let on = [("prisoner_drops", "on")];
    let start = "......../......../......../......../......../B1B1B1B1..../W1W1W1W1B1.../.W1.W1B1... b 19 17 2 0 2 0";
    let p = at_with(&on, start);
    let list = tokens(&p);
    assert_eq!(list.len(), 130);
    assert_eq!(count_prefix(&list, "D"), 58);
    assert_eq!(count_prefix(&list, "P"), 52);
    assert_eq!(count_prefix(&list, "C"), 20);
    assert_eq!(
        after(start, &on, "Dc1"),
        "......../......../......../......../......../B1B1B1B1..../W1W1W1W1B1.../.W1.W1B1... w 18 17 2 1 2 1 0"
    );
    let mut p = at_with(&on, start);
    play(&mut p, "Pa1");
    assert_eq!(
        p.format_position(),
        "......../......../......../......../......../B1B1B1B1..../W1W1W1W1B1.../W1W1.W1B1... w 19 17 1 0 2 0 1"
    );
    play(&mut p, "Dh8");
    let effects = play(&mut p, "Pc1");
    assert_eq!(
        p.format_position(),
        ".......W1/......../......../......../......../B1B1B1B1..../....B1.../....B1... w 19 16 8 0 10 0 0"
    );
    assert!(has_capture(&effects, Side::First, &["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"]));
    assert!(refused(start, &[("prisoner_drops", "off")], "Pa1"));
    for id in ["E17a", "E17b", "E17c", "E17d", "E17e", "E17f"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn e18_record_replay_and_handicap() {
    let mut p = Position::new(&InchwormOptions::default());
    let expected = [
        ("Da1", "......../......../......../......../......../......../......../B1....... w 24 25 0 0 0 0 1"),
        ("Db1", "......../......../......../......../......../......../......../B1W1...... b 24 24 0 0 0 0 2"),
        ("Dh8", ".......B1/......../......../......../......../......../......../B1W1...... w 23 24 0 0 0 0 3"),
        ("Da2 {W+1}", ".......B1/......../......../......../......../......../W1......./.W1...... b 23 23 0 1 0 1 0"),
        ("R", ".......B1/......../......../......../......../......../W1......./.W1...... w 24 23 0 0 0 1 1"),
        ("Dd4", ".......B1/......../......../......../...W1..../......../W1......./.W1...... b 24 22 0 0 0 1 2"),
    ];
    for (token, text) in expected {
        play(&mut p, token);
        assert_eq!(p.format_position(), text, "after {token}");
    }
    let handicap = opts(&[("pieces", "25/20")]);
    let h = Position::new(&handicap);
    assert_eq!(
        h.format_position(),
        "......../......../......../......../......../......../......../........ b 25 20 0 0 0 0 0"
    );
    assert_eq!(h.to_move(), Some(ToMove::One(Side::First)));
    assert_eq!(handicap.get("pieces").as_deref(), Some("25/20"));
    for id in ["E18a", "E18b", "E18c", "E18d", "E18e", "E18f", "E18g"] {
        support::assert_case(GameKind::named("inchworm"), id);
    }
}

#[test]
fn s13_distribution_counts_of_the_implementation_notes() {
    let opts = InchwormOptions::default();
    let geom = opts.topology.geometry();
    let sq = |s: &str| parse_square(s).unwrap();
    // A height-4 stack in an empty corner: 51 distinct cell sets.
    assert_eq!(distribution_sets(geom, !1u64, sq("a1"), 4).len(), 51);
    // Height 3 with free space: at most 44 sets (reached in the middle of the board).
    let d4 = sq("d4");
    assert_eq!(distribution_sets(geom, !(1u64 << d4), d4, 3).len(), 44);
    // Every set has a canonical path through exactly its cells.
    for set in distribution_sets(geom, !1u64, sq("a1"), 4) {
        let path = canonical_path(geom, set, sq("a1")).expect("a path exists");
        assert_eq!(path.len(), 4);
    }
}

#[test]
fn the_tallest_stack_gets_its_legal_count_in_bounded_time_and_memory() {
    // Issue 25: a stack of 13 or 14 in the open once built every distribution (2.8 GB, then a
    // 9.1 GB allocation). The listing now gives up after MAX_PARTIAL_SETS partial sets (a peak
    // of about 75 MB, measured with /usr/bin/time on the referee).
    for height in [11, 14, 25] {
        let p = at(&format!(
            "......../......../......../......../...B{height}..../......../......../........ b {} 25 0 0 0 0",
            25 - height
        ));
        // Bounded by construction (the give-up count), not by a clock: the figures are measured
        // on the referee and reported, not asserted here.
        let listing = p.legal_record_tokens();
        assert!(matches!(listing, LegalTokens::Uncounted { .. }), "height {height}: {listing:?}");
    }
}

#[test]
fn s13_height_10_stack_in_the_centre_counts_1326564_distributions() {
    let p = at("......../......../......../......../...B10..../......../......../........ b 15 25 0 0 0 0");
    assert_eq!(p.legal_record_tokens(), LegalTokens::CountOnly(ExactCount::from(1_326_564 + 64)));
}

#[test]
fn bad_options_and_positions_are_refused_with_reasons() {
    assert!(InchwormOptions::from_pairs([("pieces", "26/25")]).is_err());
    assert!(InchwormOptions::from_pairs([("pieces", "25")]).is_err());
    assert!(InchwormOptions::from_pairs([("topology", "klein")]).is_err());
    assert!(InchwormOptions::from_pairs([("target", "0")]).is_err());
    assert!(InchwormOptions::from_pairs([("colour", "red")]).is_err());
    let o = InchwormOptions::default();
    for bad in [
        "......../......../......../......../......../......../......../........ b 25 24 0 0 0 0",
        "......../......../......../......../......../......../......../........ x 25 25 0 0 0 0",
        "......./......../......../......../......../......../......../........ b 25 25 0 0 0 0",
        "W1B1....../B1......./......../......../......../......../......../........ b 23 24 0 0 0 0",
        "......../......../......../......../......../......../......../B0....... b 25 25 0 0 0 0",
        "......../......../......../......../......../......../......../........ b 25 24 1 0 0 0",
        "......../......../......../......../......../......../......../........ b 25 25 0 0 0 0 0 2",
    ] {
        let e = Position::parse_position(&o, bad);
        assert!(e.is_err(), "{bad} should be refused");
        assert!(!e.unwrap_err().reason.is_empty());
    }
}

/// Stone conservation (§3), no liberty-less group between actions, held ≤ score, at most 25 high.
fn invariants(p: &Position) {
    for side in Side::BOTH {
        assert!(p.conserves_stones(side), "stones not conserved for {side:?} at {}", p.format_position());
        assert!(p.held_by(side) as u32 <= p.score(side));
    }
    assert_eq!(p.dead_stones(), [0, 0], "a group without liberty survived at {}", p.format_position());
}

#[test]
fn conformance_random_playouts_all_variants() {
    for (pairs, games) in [
        (vec![], 120u64),
        (vec![("topology", "cylinder"), ("target", "30")], 40),
        (vec![("topology", "torus"), ("prisoner_drops", "on"), ("target", "30")], 40),
        (vec![("pieces", "25/20"), ("quiet_limit", "60"), ("target", "25")], 40),
    ] {
        let start = Position::new(&opts(&pairs));
        let plies = support::conformance::random_playouts(&start, games, 100_000, invariants);
        assert!(plies > games, "{pairs:?}: {plies} plies");
    }
}

/// Atomic decisions the fast generator offers equal those the literal rule accepts, over many
/// random positions of every topology (including staged distributions).
#[test]
fn fast_generator_agrees_with_the_literal_rule() {
    use stoneyard::rules::pick_index;
    let mut checked = 0;
    for (k, pairs) in [vec![], vec![("topology", "cylinder")], vec![("topology", "torus"), ("prisoner_drops", "on")]]
        .into_iter()
        .enumerate()
    {
        let start = Position::new(&opts(&pairs));
        for seed in 0..12u64 {
            let mut rng = seeded(1000 + seed + 100 * k as u64);
            let mut p = start.clone();
            let mut moves = Vec::new();
            for ply in 0..400 {
                if p.status().is_over() {
                    break;
                }
                p.legal_moves(&mut moves);
                if ply % 3 == 0 {
                    let mut fast = moves.clone();
                    fast.sort_by_key(|m| format!("{m:?}"));
                    let mut literal: Vec<Move> =
                        all_candidate_moves(&p).into_iter().filter(|m| p.literal_is_legal(m)).collect();
                    literal.sort_by_key(|m| format!("{m:?}"));
                    assert_eq!(fast, literal, "at {}", p.format_position());
                    checked += 1;
                }
                let m = moves[pick_index(&mut rng, moves.len())];
                p.play_unchecked(&m);
            }
        }
    }
    assert!(checked > 300);
}

/// Whether a chain of `remaining` free cells follows `end`, by trying every chain.
fn brute_chain(geom: &stoneyard::games::inchworm::Geometry, free: u64, end: u8, remaining: u32) -> bool {
    remaining == 0
        || (0..64u8).any(|n| {
            geom.king[end as usize] & free & (1 << n) != 0 && brute_chain(geom, free & !(1 << n), n, remaining - 1)
        })
}

/// The path-extension check (exact, with shortcuts) against plain brute force on random boards.
#[test]
fn path_extension_check_agrees_with_brute_force() {
    use stoneyard::games::inchworm::{Topology, can_extend};
    use stoneyard::rules::pick_index;
    let mut rng = seeded(77);
    let mut agreed = 0;
    let mut outcomes = [0; 2];
    for topology in [Topology::Flat, Topology::Cylinder, Topology::Torus] {
        let geom = topology.geometry();
        for _ in 0..1500 {
            let density = 2 + pick_index(&mut rng, 5); // free with probability density/8
            let mut free = 0u64;
            for c in 0..64 {
                if pick_index(&mut rng, 8) < density {
                    free |= 1 << c;
                }
            }
            let end = pick_index(&mut rng, 64) as u8;
            free &= !(1u64 << end);
            let remaining = 1 + pick_index(&mut rng, if density <= 4 { 14 } else { 9 }) as u32;
            let answer = can_extend(geom, free, end, remaining);
            assert_eq!(
                answer,
                brute_chain(geom, free, end, remaining),
                "free {free:#x} end {end} remaining {remaining}"
            );
            agreed += 1;
            outcomes[answer as usize] += 1;
        }
    }
    assert_eq!(agreed, 4500);
    assert!(outcomes[0] > 300 && outcomes[1] > 300, "both answers well represented: {outcomes:?}");
}

/// The same as the board fills cell by cell around a few stacks, as in a game: the check keeps
/// the chains it found and tries them first, so this asks again and again with chains that are
/// still free, half free and gone, of every length around the one asked.
#[test]
fn path_extension_check_agrees_with_brute_force_as_a_board_fills() {
    use stoneyard::games::inchworm::{Topology, can_extend};
    use stoneyard::rules::pick_index;
    let mut rng = seeded(78);
    let mut outcomes = [0; 2];
    for topology in [Topology::Flat, Topology::Cylinder, Topology::Torus] {
        let geom = topology.geometry();
        for _ in 0..12 {
            let ends: Vec<u8> = (0..3).map(|_| pick_index(&mut rng, 64) as u8).collect();
            let mut free = !ends.iter().fold(0u64, |m, &e| m | 1 << e);
            // Fill until few cells are left, asking about each stack after every stone.
            while free.count_ones() > 6 {
                for &end in &ends {
                    let remaining = 3 + pick_index(&mut rng, 8) as u32;
                    let answer = can_extend(geom, free, end, remaining);
                    assert_eq!(
                        answer,
                        brute_chain(geom, free, end, remaining),
                        "free {free:#x} end {end} remaining {remaining}"
                    );
                    outcomes[answer as usize] += 1;
                }
                let cells: Vec<u8> = (0..64u8).filter(|&c| free & (1 << c) != 0).collect();
                free &= !(1u64 << cells[pick_index(&mut rng, cells.len())]);
            }
        }
    }
    assert!(outcomes[0] > 200 && outcomes[1] > 200, "both answers well represented: {outcomes:?}");
}

/// The literal perft: at each node the moves are all candidates the literal rule accepts.
fn literal_perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 || p.status().is_over() {
        return 1;
    }
    let moves: Vec<Move> = all_candidate_moves(p).into_iter().filter(|m| p.literal_is_legal(m)).collect();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = p.clone();
            next.play_unchecked(m);
            literal_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_matches_committed_counts_and_the_literal_rule() {
    let data = include_str!("perft/inchworm.txt");
    let mut current: Option<Position> = None;
    let mut checked = 0;
    for line in data.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(rest) = line.strip_prefix("options ") {
            let pairs: Vec<(&str, &str)> = rest.split_whitespace().filter_map(|kv| kv.split_once('=')).collect();
            current = Some(Position::new(&opts(&pairs)));
        } else if let Some(text) = line.strip_prefix("position ") {
            let o = current.as_ref().map(|p| *p.options()).unwrap_or_default();
            current = Some(Position::parse_position(&o, text).expect("perft position"));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.split_once(' ').expect("perft <depth> <count>");
            let (depth, count): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
            let p = current.as_ref().expect("a position before perft");
            assert_eq!(stoneyard::rules::perft(p, depth), count, "perft {depth} at {}", p.format_position());
            if depth <= 2 {
                assert_eq!(literal_perft(p, depth), count, "literal perft {depth} at {}", p.format_position());
            }
            checked += 1;
        }
    }
    assert!(checked >= 6);
}

#[test]
fn equal_positions_hash_equal_and_print_equal() {
    let mut a = at(P0_WHITE);
    let mut b = at(P0_WHITE);
    play(&mut a, "Sb8-c8-c7");
    play(&mut b, "Sb8-c7-c8");
    assert_eq!(a.format_position(), b.format_position());
    assert_eq!(a.zobrist(), b.zobrist());
    assert_ne!(at(P0).zobrist(), at(P0_WHITE).zobrist());
    let mut staged = at(P0_WHITE);
    let m = staged.parse_move("Sb8").unwrap();
    staged.play(&m).unwrap();
    assert_ne!(staged.zobrist(), at(P0_WHITE).zobrist());
}

#[test]
fn refusals_explain_themselves() {
    let reason = |text: &str, token: &str| at(text).play_record_token(token).unwrap_err().to_string();
    assert!(reason(P0, "Db8").contains("enemy stack"));
    assert!(reason(P0_WHITE, "Sb8-c8").contains("exactly 3"));
    assert!(reason(P0_WHITE, "Sb8-a8-a7").contains("occupied"));
    assert!(reason(P0_WHITE, "Sb8-c8-b8").contains("twice"));
    assert!(reason(P0_WHITE, "Sb8-d8-e8").contains("not a neighbour"));
    assert!(reason(P0_WHITE, "Sa2-b2").contains("single stone"));
    assert!(reason(P0, "Cd1-d2-d3>d1").contains("d3 is empty"));
    assert!(reason(P0, "Ce3-g3>e3").contains("not adjacent"));
    assert!(reason(P0, "Ca4-a3>a5").contains("target"));
    assert!(reason(P0, "R").contains("nothing to rescue"));
    assert!(reason(P0, "pass").contains("only when no other action"));
    assert!(reason(P0, "Zz9").contains("cannot read"));
    // Mid-action, other actions are refused with what to do instead.
    let mut staged = at(P0);
    let m = staged.parse_move("Ce3").unwrap();
    staged.play(&m).unwrap();
    assert!(staged.play(&Move::Drop(0)).unwrap_err().reason.contains("finish the collect"));
}

/// The spec writes one token per whole action, so between the decisions of an action the
/// referee lists and takes the tokens of the whole actions that finish it, and a record that
/// starts there writes its first move as the whole action.
#[test]
fn an_action_under_way_is_finished_by_the_token_of_the_whole_action() {
    let spreading = "......../......../......../......../...B3..../......../......../........ b 22 25 0 0 0 0 0 Sd4-d5";
    let p = at(spreading);
    let finishing = ["c4", "c5", "c6", "d6", "e4", "e5", "e6"].map(|c| format!("Sd4-d5-{c}"));
    assert_eq!(tokens(&p), finishing);
    assert_eq!(
        after(spreading, &[], "Sd4-d5-d6"),
        "......../......../...B1..../...B1..../...B1..../......../......../........ w 22 25 0 0 0 0 1"
    );
    let reason = |text: &str, token: &str| {
        assert!(refused(text, &[], token), "{token} accepted at {text}");
        at(text).play_record_token(token).unwrap_err().to_string()
    };
    assert!(reason(spreading, "Sd4-e5-e6").contains("starts with those cells, Sd4-d5-"));
    assert!(reason(spreading, "-d6").contains("write its whole path, Sd4-d5-"));
    assert!(reason(spreading, "Dd1").contains("write its whole path"));
    assert!(reason(spreading, "Sd4-d5-d6-d7").contains("exactly 3"));

    let collecting = "......../......../......../...B1..../...B1..../...B1..../......../........ b 22 25 0 0 0 0 0 Cd4";
    assert_eq!(tokens(&at(collecting)), ["Cd3-d4>d3", "Cd3-d4>d4", "Cd4-d5>d4", "Cd4-d5>d5"]);
    // Either way along the line, as the spec's collect tokens are read.
    assert_eq!(after(collecting, &[], "Cd5-d4>d5"), after(collecting, &[], "Cd4-d5>d5"));
    let collecting_up = format!("{collecting}-d5");
    assert_eq!(tokens(&at(&collecting_up)), ["Cd4-d5>d4", "Cd4-d5>d5"]);
    assert!(reason(&collecting_up, "Cd3-d4-d5>d3").contains("has d4 at one end and goes on past d5"));
    assert!(reason(collecting, "Cd3-d4-d5>d3").contains("has d4 at one end"));
    assert!(reason(collecting, "Cd4-e4>d4").contains("e4 is empty"));

    let game = stoneyard::games::open(GameKind::named("inchworm"), &[], Some(spreading)).unwrap();
    let record = game.record_tokens(&["-d6".to_string(), "Dd1".to_string()]).unwrap();
    let written: Vec<&str> = record.moves.iter().map(|m| m.token.as_str()).collect();
    assert_eq!(written, ["Sd4-d5-d6", "Dd1"]);
}

/// The board is always 8×8; what a position must share with the options is the number of
/// stones each side has, so a position of another `pieces` than the options' is refused, naming
/// both.
#[test]
fn a_position_of_other_pieces_than_the_options_is_refused() {
    let inchworm = GameKind::named("inchworm");
    let full = "......../......../......../......../......../......../......../........ b 25 25 0 0 0 0";
    let handicap = [("pieces".to_string(), "25/20".to_string())];
    let e = stoneyard::games::open(inchworm, &handicap, Some(full)).err().expect("25 White stones with pieces=25/20");
    let e = e.to_string();
    assert!(e.contains("25 in stock") && e.contains("pieces=25/20"), "{e}");
    assert!(stoneyard::games::open(inchworm, &[], Some(full)).is_ok());
    let fewer = "......../......../......../......../......../......../......../........ b 25 20 0 0 0 0";
    assert!(stoneyard::games::open(inchworm, &handicap, Some(fewer)).is_ok());
}

#[test]
fn a_capturing_drop_reports_the_drop_in_wave_0_and_the_captures_in_wave_1_as_its_record_token_does() {
    let mut by_token = at(P0);
    let token_effects = play(&mut by_token, "Dh8");
    let mut by_decision = at(P0);
    let m = by_decision.parse_move("Dh8").unwrap();
    let effects = by_decision.play(&m).unwrap();
    let captures: Vec<_> = effects.iter().filter(|e| matches!(e.kind, EffectKind::Captured { .. })).collect();
    assert_eq!(captures.len(), 2);
    assert!(captures.iter().all(|e| e.wave == 1));
    assert!(effects.iter().filter(|e| matches!(e.kind, EffectKind::Placed { .. })).all(|e| e.wave == 0));
    assert_eq!(effects, token_effects);
    assert_eq!(by_decision.format_position(), by_token.format_position());
}

// ---------------------------------------------------------------------------------------------
// Game record (spec §10.4).

const E18_RECORD: &str = "[Game \"Inchworm\"] [Topology \"flat\"] [Pieces \"25/25\"] [Target \"60\"] \
                          [PrisonerDrops \"off\"] [QuietLimit \"200\"]\n1. Da1 Db1 2. Dh8 Da2 {W+1} 3. R Dd4 *";

#[test]
fn e18_record_parses_replays_and_is_written_back() {
    use stoneyard::games::inchworm::{format_record, parse_record};
    let record = parse_record(E18_RECORD).unwrap();
    assert_eq!(record.options, InchwormOptions::default());
    assert_eq!(record.tokens, vec!["Da1", "Db1", "Dh8", "Da2", "R", "Dd4"]);
    assert_eq!(record.result.as_deref(), Some("*"));
    assert_eq!(
        record.position.format_position(),
        ".......B1/......../......../......../...W1..../......../W1......./.W1...... b 24 22 0 0 0 1 2"
    );
    assert_eq!(format_record(&record.options, &record.tokens).unwrap(), E18_RECORD);
    // The short form of E18 (no tags, no result) replays the same.
    let short = parse_record("1. Da1 Db1 2. Dh8 Da2 3. R Dd4").unwrap();
    assert_eq!(short.position, record.position);
    assert_eq!(short.result, None);
    // Handicap through the tags.
    let h = parse_record("[Pieces \"25/20\"] *").unwrap();
    assert_eq!(h.options.pieces, [25, 20]);
    assert_eq!(
        h.position.format_position(),
        "......../......../......../......../......../......../......../........ b 25 20 0 0 0 0 0"
    );
}

/// A seeded random game as whole-action tokens, at most `cap` plies.
fn random_tokens(start: &Position, seed: u64, cap: usize) -> Vec<String> {
    use stoneyard::rules::pick_index;
    let mut rng = seeded(9000 + seed);
    let mut pos = start.clone();
    let mut out = Vec::new();
    while !pos.status().is_over() && out.len() < cap {
        let list = match pos.legal_record_tokens() {
            LegalTokens::List(v) => v,
            _ => {
                // Too many distributions to list: fall back to the non-distribution actions.
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                moves
                    .iter()
                    .filter(|m| matches!(m, Move::Drop(_) | Move::Rescue | Move::Pass))
                    .map(|m| pos.format_move(m))
                    .collect()
            }
        };
        if list.is_empty() {
            break;
        }
        let token = list[pick_index(&mut rng, list.len())].clone();
        pos.play_record_token(&token).unwrap();
        out.push(token);
    }
    out
}

#[test]
fn records_of_random_games_round_trip() {
    use stoneyard::games::inchworm::{format_record, parse_record, result_token};
    let variants: [&[(&str, &str)]; 4] = [
        &[("quiet_limit", "12"), ("target", "8")],
        &[("topology", "cylinder"), ("quiet_limit", "10"), ("target", "6")],
        &[("topology", "torus"), ("prisoner_drops", "on"), ("quiet_limit", "10"), ("target", "6")],
        &[("pieces", "20/25"), ("target", "5")],
    ];
    let mut finished = 0;
    for (k, pairs) in variants.iter().enumerate() {
        let o = opts(pairs);
        let start = Position::new(&o);
        for seed in 0..4 {
            let tokens = random_tokens(&start, seed + 10 * k as u64, 120);
            let text = format_record(&o, &tokens).unwrap();
            let record = parse_record(&text).unwrap_or_else(|e| panic!("{pairs:?} seed {seed}: {e}\n{text}"));
            let mut replay = start.clone();
            for t in &tokens {
                replay.play_record_token(t).unwrap();
            }
            assert_eq!(record.options, o);
            assert_eq!(record.tokens, tokens);
            assert_eq!(record.position, replay);
            assert_eq!(record.result.as_deref(), Some(result_token(&replay)));
            assert_eq!(format_record(&record.options, &record.tokens).unwrap(), text);
            if replay.status().is_over() {
                finished += 1;
            }
        }
    }
    assert!(finished > 0, "no random game reached its end");
}

#[test]
fn malformed_records_are_refused_with_the_move_named() {
    use stoneyard::games::inchworm::parse_record;
    let err = |text: &str| parse_record(text).unwrap_err().to_string();
    assert!(err("1. Da1 Db1 2. Dh8 Dz9").contains("move 2 for White"), "{}", err("1. Da1 Db1 2. Dh8 Dz9"));
    assert!(err("1. Da1 Da1").contains("move 1 for White"));
    assert!(err("1. Da1 Db1 3. Dh8").contains("out of place"));
    assert!(err("1. Da1 Db1 *  2. Dh8").contains("after its result"));
    assert!(err("1. Da1 1-0").contains("not over"));
    assert!(err("[Topology \"sphere\"] [Pieces \"30/25\"] 1. Da1").contains("Pieces"));
    assert!(err("[Game \"Gravel\"]").contains("not of Inchworm"));
    assert!(err("[Target 60]").contains("tag"));
    assert!(err("1. Da1 {W+1").contains("comment"));
    assert!(err("1. Da1 Db1 [Target \"5\"]").contains("tags go first"));
    assert!(err("1x Da1").contains("neither"));
    for text in ["", "[", "]", "{", "}", "1.", "1...", "1... Da1", "99999999999999999999. Da1", "[\"\"]", "1.Da1 Db1"] {
        let _ = parse_record(text);
    }
    assert!(parse_record("1.Da1 Db1").is_ok());
}

/// A position reached by `plies` random atomic decisions from the start of `pairs`' game, then,
/// when `stop_mid_action`, the first decision of a collect or distribution (when one can start)
/// and up to `steps_within` more decisions of it while it is still under way.
fn random_position(
    pairs: &[(&str, &str)],
    seed: u64,
    plies: usize,
    stop_mid_action: bool,
    steps_within: usize,
) -> Position {
    use stoneyard::rules::pick_index;
    let mut rng = seeded(seed);
    let mut p = Position::new(&opts(pairs));
    let mut moves = Vec::new();
    for _ in 0..plies {
        if p.status().is_over() {
            return p;
        }
        p.legal_moves(&mut moves);
        p.play_unchecked(&moves[pick_index(&mut rng, moves.len())]);
    }
    if !stop_mid_action || p.status().is_over() {
        return p;
    }
    if !p.action_under_way() {
        p.legal_moves(&mut moves);
        moves.retain(|m| matches!(m, Move::CollectFrom(_) | Move::SpreadFrom(_)));
        // Distributions are the longer actions; prefer them when there are any.
        let spreads: Vec<Move> = moves.iter().copied().filter(|m| matches!(m, Move::SpreadFrom(_))).collect();
        let starts = if spreads.is_empty() { moves.clone() } else { spreads };
        if starts.is_empty() {
            return p;
        }
        p.play_unchecked(&starts[pick_index(&mut rng, starts.len())]);
    }
    for _ in 0..steps_within {
        p.legal_moves(&mut moves);
        let steps: Vec<Move> = moves.iter().copied().filter(|m| !matches!(m, Move::CollectOnto(_))).collect();
        let mut next = p.clone();
        if steps.is_empty() {
            break;
        }
        next.play_unchecked(&steps[pick_index(&mut rng, steps.len())]);
        if !next.action_under_way() {
            break;
        }
        p = next;
    }
    p
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 160,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x1C4_0A11),
        ..Default::default()
    })]

    /// Every token the referee lists for a position, with or without an action under way, is a
    /// token the referee accepts from that position, and it completes one whole action.
    #[test]
    fn every_listed_token_is_accepted_by_the_referee(
        variant in 0usize..4,
        seed in proptest::prelude::any::<u64>(),
        plies in 0usize..160,
        stop_mid_action in proptest::prelude::any::<bool>(),
        steps_within in 0usize..6,
    ) {
        use stoneyard::cli::referee::referee;
        let variants: [&[(&str, &str)]; 4] = [
            &[],
            &[("topology", "cylinder")],
            &[("topology", "torus"), ("prisoner_drops", "on")],
            &[("pieces", "25/20"), ("quiet_limit", "60")],
        ];
        let pairs = variants[variant];
        let p = random_position(pairs, seed, plies, stop_mid_action, steps_within);
        let text = p.format_position();
        let options: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let open = || stoneyard::games::open(GameKind::named("inchworm"), &options, Some(&text)).unwrap();
        let (listing, _) = referee(open(), "", true);
        let Some(legal) = listing["legal"].as_array() else {
            // Only counted (too many distributions to list): nothing to play one by one.
            proptest::prop_assume!(false);
            unreachable!()
        };
        let mut reached = std::collections::BTreeSet::new();
        for token in legal {
            let token = token.as_str().unwrap();
            let (out, _) = referee(open(), token, true);
            proptest::prop_assert_eq!(&out["ok"], &serde_json::json!(true), "{} refused at {}: {}", token, text, out);
            let after = out["position"].as_str().unwrap();
            // The position text shows an action under way as a trailing `S…` or `C…` field.
            proptest::prop_assert!(!after.contains(['S', 'C']), "{} left an action under way: {}", token, after);
            reached.insert(after.to_string());
        }
        // And nothing is missing: the listed tokens reach every position the remaining decisions of
        // an action under way can reach.
        let mut by_decisions = std::collections::BTreeSet::new();
        if p.action_under_way() && completions(&p, &mut by_decisions, &mut 20_000) {
            proptest::prop_assert_eq!(reached, by_decisions, "at {}", text);
        }
    }
}

/// The positions the decisions that finish the action under way reach, into `out`; false when
/// that takes more than `budget` decisions.
fn completions(p: &Position, out: &mut std::collections::BTreeSet<String>, budget: &mut u32) -> bool {
    if !p.action_under_way() {
        out.insert(p.format_position());
        return true;
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves.iter().all(|m| {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let mut next = p.clone();
        next.play_unchecked(m);
        completions(&next, out, budget)
    })
}
