//! Red Stone: every worked example of the spec (§8), the referee cases, conformance playouts,
//! the fast legality check against the literal rule of §4.3, and perft.

use crate::support;

use std::collections::BTreeSet;
use stoneyard::games::GameKind;
use stoneyard::games::red_stone::{EndReason, Move, PlacementChoice, PointClass, Position, RedStoneOptions, Stone};
use stoneyard::rules::{
    Cell, EffectKind, Effects, GameOptions, Notation, Outcome, Rules, Side, Status, perft, pick_index, seeded,
};
use support::assert_case;

fn kind() -> GameKind {
    GameKind::named("red-stone")
}

// ----- helpers -----

fn options(size: u8) -> RedStoneOptions {
    RedStoneOptions::with_size(size).expect("size in range")
}

/// Reads a position text; the board size comes from the number of rows.
fn pos(text: &str) -> Position {
    let size = text.split_whitespace().next().unwrap().split('/').count() as u8;
    Position::parse_position(&options(size), text).unwrap_or_else(|e| panic!("bad test position '{text}': {e}"))
}

fn start(size: u8) -> Position {
    Position::new(&options(size))
}

fn cell(p: &Position, name: &str) -> Cell {
    p.parse_point(name).unwrap()
}

fn names(p: &Position, cells: &[Cell]) -> Vec<String> {
    let mut v: Vec<String> = cells.iter().map(|&c| p.name(c)).collect();
    v.sort();
    v
}

fn legal(p: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|m| p.format_move(m)).collect();
    v.sort();
    v
}

fn set(tokens: &str) -> Vec<String> {
    let mut v: Vec<String> = tokens.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// Plays a token on a copy; the original is untouched (the spec's `try:`).
fn try_token(p: &Position, token: &str) -> Result<(Position, Effects), String> {
    let mut next = p.clone();
    match next.play_record_token(token) {
        Ok(e) => Ok((next, e)),
        Err(e) => {
            assert_eq!(&next, p, "a refused move must leave the position unchanged");
            Err(e.to_string())
        }
    }
}

fn illegal(p: &Position, token: &str) {
    assert!(try_token(p, token).is_err(), "{token} should be illegal in {p}");
    let m = p.parse_move(token).unwrap();
    assert!(!p.is_legal(&m), "{token}: is_legal disagrees");
    assert!(!p.legal_by_definition(&m), "{token}: the literal rule disagrees");
}

fn play(p: &Position, token: &str) -> (Position, Effects) {
    let m = p.parse_move(token).unwrap();
    assert!(p.legal_by_definition(&m), "{token}: the literal rule says illegal");
    try_token(p, token).unwrap_or_else(|e| panic!("{token} should be legal in {p}: {e}"))
}

/// The stones removed by a move's effects, by name, sorted.
fn removed(p: &Position, effects: &Effects) -> Vec<String> {
    let cells: Vec<Cell> = effects
        .iter()
        .filter_map(|e| match &e.kind {
            EffectKind::Captured { cells, .. } => Some(cells.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    names(p, &cells)
}

fn captured_groups(effects: &Effects) -> usize {
    effects.iter().filter(|e| matches!(e.kind, EffectKind::Captured { .. })).count()
}

/// (colour, stones, liberties) of every group, by name.
fn group_table(p: &Position) -> BTreeSet<(Side, Vec<String>, Vec<String>)> {
    p.groups().iter().map(|g| (g.colour, names(p, &g.stones), names(p, &g.liberties))).collect()
}

fn group(side: Side, stones: &str, libs: &str) -> (Side, Vec<String>, Vec<String>) {
    (side, set(stones), set(libs))
}

fn with_side(p: &Position, side: Side) -> Position {
    let text = p.format_position();
    let (board, _) = text.split_once(' ').unwrap();
    pos(&format!("{board} {}", Position::side_name(side)))
}

const B: Side = Side::First;
const W: Side = Side::Second;

// ----- §8 worked examples -----

#[test]
fn s1_groups_and_liberties_no_atari_no_red_move() {
    let p = pos("......./.XX..../.X.OO../....O../......./X....../XX...X. b");
    let expected: BTreeSet<_> = [
        group(B, "A1 A2 B1", "A3 B2 C1"),
        group(B, "B5 B6 C6", "A5 A6 B4 B7 C5 C7 D6"),
        group(B, "F1", "E1 F2 G1"),
        group(W, "D5 E4 E5", "C5 D4 D6 E3 E6 F4 F5"),
    ]
    .into_iter()
    .collect();
    assert_eq!(group_table(&p), expected);
    let per_group: usize = p.groups().iter().map(|g| g.liberties.len()).sum();
    let distinct: BTreeSet<Cell> = p.groups().iter().flat_map(|g| g.liberties.clone()).collect();
    assert_eq!((per_group, distinct.len()), (20, 18));
    illegal(&p, "D1*");
    let empties: Vec<String> = names(&p, &p.cells().filter(|&c| p.stone_at(c) == Stone::Empty).collect::<Vec<_>>());
    assert_eq!(empties.len(), 39);
    assert_eq!(legal(&p), empties);
    assert_eq!(legal(&with_side(&p, W)), empties);
    for id in ["S1", "S1b", "S1c"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s2_black_captures_a_white_group_with_red() {
    let p = pos("..X../.XOX./.XO../..X../....O b");
    let t = group_table(&p);
    assert!(t.contains(&group(W, "C3 C4", "D3")));
    assert!(t.contains(&group(W, "E1", "D1 E2")));
    assert!(t.contains(&group(B, "D4", "D3 D5 E4")));
    assert!(t.contains(&group(B, "B3 B4", "A3 A4 B2 B5")));
    illegal(&p, "D3");
    let (after, effects) = play(&p, "D3*");
    assert_eq!(removed(&p, &effects), set("C3 C4"));
    assert_eq!(after.status(), Status::Ongoing);
    assert_eq!(after.to_move(), Some(stoneyard::rules::ToMove::One(W)));
    assert_eq!(after.stone_at(cell(&p, "E1")), Stone::White);
    assert_eq!(after.format_position(), "..X../.X.X./.X.R./..X../....O w");
    let moves = legal(&p);
    assert_eq!(moves.len(), 17);
    assert!(moves.contains(&"D3*".to_string()) && !moves.contains(&"D3".to_string()));
    assert_eq!(moves.iter().filter(|m| m.ends_with('*')).count(), 1);
    for id in ["S2", "S2a", "S2b"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s3_one_red_stone_removes_one_white_and_two_black_groups() {
    let p = pos(".OXO./.OXO./.O.XR/.XOOR/..XX. w");
    let c3 = cell(&p, "C3");
    assert!(p.would_remove(&Move::stone(c3)).is_empty(), "own-colour stones never remove anything");
    assert_eq!(p.would_remove(&Move::red(c3)), p.removal_preview(c3));
    let mut preview: Vec<Vec<String>> = p.removal_preview(c3).iter().map(|g| names(&p, g)).collect();
    preview.sort();
    assert_eq!(preview, vec![set("C2 D2"), set("C4 C5"), set("D3")]);
    let t = group_table(&p);
    assert!(t.contains(&group(W, "B3 B4 B5", "A3 A4 A5 C3")));
    assert!(t.contains(&group(W, "D4 D5", "E4 E5")));
    assert!(t.contains(&group(B, "B2", "A2 B1")));
    assert!(t.contains(&group(B, "C1 D1", "B1 E1")));
    // E1 is a black eye, not the last liberty of {C1, D1}: White may place nothing there.
    let e1 = cell(&p, "E1");
    assert_eq!(p.point_class(e1, W), PointClass::EnemyEye);
    assert_eq!(p.point_class(e1, B), PointClass::OwnEye);
    assert_eq!(p.placement_choice(e1), PlacementChoice::None);
    let why = stoneyard::games::About::why_nothing_at(&p, e1);
    assert!(why.as_deref().is_some_and(|why| why.contains("E1")), "{why:?}");
    illegal(&p, "E1");
    illegal(&p, "E1*");
    assert_eq!(p.point_class(c3, W), PointClass::Contested);
    illegal(&p, "C3");
    let (after, effects) = play(&p, "C3*");
    assert_eq!(removed(&p, &effects), set("C4 C5 D3 C2 D2"));
    assert_eq!(captured_groups(&effects), 3, "three groups, each removed once");
    assert!(effects.iter().all(|e| match e.kind {
        EffectKind::Placed { .. } => e.wave == 0,
        EffectKind::Captured { .. } => e.wave == 1,
        _ => false,
    }));
    assert_eq!(after.status(), Status::Ongoing);
    assert_eq!(after.side_to_move(), B);
    assert_eq!(after.format_position(), ".O.O./.O.O./.OR.R/.X..R/..XX. b");
    assert_eq!(legal(&p), set("A1 A2 A3 A4 A5 B1 C3* E4 E5"));
    for id in ["S3", "S3a", "S3b", "S3c", "S3d"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s4_black_may_not_touch_whites_eyes_and_must_fill_his_own() {
    let p = pos(".XO.O/XXOOO/.XO.O/XXOOO/.XO.O b");
    let t = group_table(&p);
    assert!(t.contains(&group(B, "A2 A4 B1 B2 B3 B4 B5", "A1 A3 A5")));
    assert!(t.contains(&group(W, "C1 C2 C3 C4 C5 D2 D4 E1 E2 E3 E4 E5", "D1 D3 D5")));
    for eye in ["D1", "D3", "D5"] {
        assert_eq!(p.point_class(cell(&p, eye), B), PointClass::EnemyEye);
        illegal(&p, eye);
        illegal(&p, &format!("{eye}*"));
    }
    for eye in ["A1", "A3", "A5"] {
        assert_eq!(p.point_class(cell(&p, eye), B), PointClass::OwnEye);
        assert_eq!(p.placement_choice(cell(&p, eye)), PlacementChoice::OwnOnly);
    }
    illegal(&p, "A3*");
    let (after, effects) = play(&p, "A3");
    assert!(removed(&p, &effects).is_empty());
    let black = after.groups().into_iter().find(|g| g.colour == B).unwrap();
    assert_eq!(black.liberties.len(), 2);
    assert_eq!(legal(&p), set("A1 A3 A5"));
    assert_eq!(legal(&with_side(&p, W)), set("D1 D3 D5"));
    for id in ["S4", "S4b", "S4c", "S4d", "S4e", "S4f", "S4g", "S4h", "S4i", "S4j"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s5_white_fills_blacks_last_eye_with_red_and_wins() {
    let p = pos("XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w");
    let t = group_table(&p);
    assert!(t.contains(&group(B, "A2 A3 A4 A5 B1 B2 B3 B4 B5", "A1")));
    assert_eq!(p.point_class(cell(&p, "A1"), W), PointClass::EnemyEye);
    illegal(&p, "A1");
    let (after, effects) = play(&p, "A1*");
    assert_eq!(removed(&p, &effects), set("A2 A3 A4 A5 B1 B2 B3 B4 B5"));
    assert_eq!(captured_groups(&effects), 1, "the group touches A1 twice but is removed once");
    assert_eq!(after.status(), Status::Over(Outcome::Winner(W)));
    assert_eq!(after.result(), Some((W, EndReason::Annihilation)));
    assert_eq!(after.record_result().as_deref(), Some("W+ annihilation"));
    assert_eq!(after.to_move(), None);
    let over = effects.iter().find(|e| matches!(e.kind, EffectKind::GameOver { .. })).unwrap();
    assert_eq!(over.wave, 2);
    assert_eq!(legal(&p), set("A1* D1 D5"));
    assert!(legal(&after).is_empty(), "no move is legal once the game is over");
    for id in ["S5", "S5a", "S5b"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s6_forced_self_annihilation() {
    let p = pos("XXO.O/XXOOO/XXOOO/XXOOO/.XO.O b");
    assert_eq!(legal(&p), set("A1*"));
    assert_eq!(p.placement_choice(cell(&p, "A1")), PlacementChoice::RedOnly);
    illegal(&p, "A1");
    illegal(&p, "D1");
    illegal(&p, "D5*");
    let (after, effects) = try_token(&p, "A1*x9").unwrap();
    assert_eq!(removed(&p, &effects), set("A2 A3 A4 A5 B1 B2 B3 B4 B5"));
    assert_eq!(after.result(), Some((W, EndReason::SelfAnnihilation)));
    assert!(try_token(&p, "A1*x8").is_err(), "a wrong removal count is refused");
    for id in ["S6", "S6a"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s7_both_armies_removed_at_once_the_mover_wins() {
    let p = pos("XX.OO/XR.RO/R...R/...../..... b");
    let c5 = cell(&p, "C5");
    assert_eq!(p.point_class(c5, B), PointClass::Open);
    illegal(&p, "C5");
    let (after, effects) = play(&p, "C5*");
    assert_eq!(removed(&p, &effects), set("A4 A5 B5 D5 E4 E5"));
    assert_eq!(after.result(), Some((B, EndReason::DoubleAnnihilation)));
    assert_eq!(after.record_result().as_deref(), Some("B+ double-annihilation"));
    assert_eq!(after.format_position(), "..R../.R.R./R...R/...../..... w");
    assert_eq!(pos(&after.format_position()).result(), after.result(), "a finished game reads back finished");
    for id in ["S7a", "S7b"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s8_connect_or_self_capture_both_kinds_legal_on_one_point() {
    let p = pos("...../OOO../XX.X./OOO../..... b");
    let c3 = cell(&p, "C3");
    assert_eq!(p.point_class(c3, B), PointClass::Contested);
    assert_eq!(p.placement_choice(c3), PlacementChoice::Both);
    let (after, effects) = play(&p, "C3");
    assert!(removed(&p, &effects).is_empty());
    assert!(group_table(&after).contains(&group(B, "A3 B3 C3 D3", "D2 D4 E3")));
    let (after, effects) = play(&p, "C3*");
    assert_eq!(removed(&p, &effects), set("A3 B3"));
    assert_eq!(after.result(), None);
    assert_eq!(after.stone_at(cell(&p, "D3")), Stone::Black);
    let w = with_side(&p, W);
    assert_eq!(w.placement_choice(c3), PlacementChoice::RedOnly);
    illegal(&w, "C3");
    let (_, effects) = play(&w, "C3*");
    assert_eq!(removed(&p, &effects), set("A3 B3"));
    for id in ["S8a", "S8b", "S8c", "S8d", "S8e", "S8f"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s9_red_eye_and_red_must_capture() {
    let p = pos(".R.../R.X../...O./...../..... b");
    let a5 = cell(&p, "A5");
    for side in [B, W] {
        let q = with_side(&p, side);
        assert_eq!(q.point_class(a5, side), PointClass::RedEye);
        illegal(&q, "A5");
        illegal(&q, "A5*");
        let moves = legal(&q);
        assert_eq!(moves.len(), 20);
        assert!(moves.iter().all(|m| !m.ends_with('*')));
    }
    illegal(&p, "C2*");
    play(&p, "B4");
    for id in ["S9", "S9b", "S9c", "S9d", "S9e", "S9f", "S9g", "S9h"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s10_contested_isolated_point_is_not_an_eye() {
    let p = pos("...../.XXO./.X.O./.XOO./..... b");
    let c3 = cell(&p, "C3");
    let t = group_table(&p);
    assert!(t.contains(&group(B, "B2 B3 B4 C4", "A2 A3 A4 B1 B5 C3 C5")));
    assert!(t.contains(&group(W, "C2 D2 D3 D4", "C1 D1 D5 E2 E3 E4 C3")));
    let distinct: BTreeSet<Cell> = p.groups().iter().flat_map(|g| g.liberties.clone()).collect();
    assert_eq!(distinct.len(), 13);
    for side in [B, W] {
        let q = with_side(&p, side);
        assert_eq!(q.point_class(c3, side), PointClass::Contested);
        play(&q, "C3");
        illegal(&q, "C3*");
    }
    for id in ["S10a", "S10b", "S10c", "S10d"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s11_pie_rule_and_first_turn_rule() {
    let p = start(5);
    assert_eq!(legal(&p).len(), 25);
    illegal(&p, "C3*");
    assert!(try_token(&p, "swap").is_err());
    let (p, _) = play(&p, "C3");
    assert!(p.swap_open());
    assert_eq!(p.format_position(), "...../...../..X../...../..... w swap");
    let moves = legal(&p);
    assert_eq!(moves.len(), 25);
    assert!(moves.contains(&"swap".to_string()));
    assert!(moves.iter().all(|m| !m.ends_with('*')));
    let (declined, _) = play(&p, "D3");
    assert!(!declined.swap_open());
    assert!(try_token(&declined, "swap").is_err(), "1. C3 2. D3: swap is gone at ply 3");
    let (p, effects) = play(&p, "swap");
    assert!(matches!(effects[0].kind, EffectKind::PieSwap { by: Side::Second }));
    assert!(p.swapped());
    assert_eq!(p.format_position(), "...../...../..X../...../..... w");
    assert_eq!(p.side_to_move(), W, "White (now the first player) moves after the swap");
    assert!(try_token(&p, "swap").is_err());
    illegal(&p, "D3*");
    let (p, _) = play(&p, "D3");
    assert!(try_token(&p, "swap").is_err());
    let (p, _) = play(&p, "C4");
    assert_eq!(p.format_position(), "...../..X../..XO./...../..... w");
    for id in ["S11", "S11a", "S11b", "S11c", "S11d", "S11e", "S11f", "S11g", "S11h", "S11i", "S11j"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s12_own_colour_suicide_on_contested_point_illegal_red_self_capture_legal() {
    let p = pos("...../...X./O..../XO.../.O... b");
    let a1 = cell(&p, "A1");
    assert_eq!(p.point_class(a1, B), PointClass::Contested);
    let t = group_table(&p);
    assert!(t.contains(&group(B, "A2", "A1")));
    assert!(t.contains(&group(W, "B1 B2", "A1 B3 C1 C2")));
    for side in [B, W] {
        let q = with_side(&p, side);
        illegal(&q, "A1");
        let (after, effects) = play(&q, "A1*");
        assert_eq!(removed(&p, &effects), set("A2"));
        assert_eq!(after.result(), None, "Black keeps D4");
    }
    for id in ["S12a", "S12b", "S12c", "S12d"] {
        assert_case(kind(), id);
    }
}

#[test]
fn s13_complete_short_game_with_a_swap() {
    let tokens = "C3 swap A1 B1 A2 B2 A3 B3 A4 B4 A5 B5*";
    let mut p = start(5);
    let expected_counts = [(1, 25), (3, 24), (4, 23), (12, 15)];
    let mut last = Effects::new();
    for (i, token) in tokens.split_whitespace().enumerate() {
        let ply = i + 1;
        if let Some(&(_, n)) = expected_counts.iter().find(|(k, _)| *k == ply) {
            assert_eq!(legal(&p).len(), n, "legal moves before ply {ply}");
        }
        if ply == 12 {
            assert_eq!(legal(&p).iter().filter(|m| m.ends_with('*')).collect::<Vec<_>>(), vec!["B5*"]);
        }
        last = play(&p, token).1;
        p.play_record_token(token).unwrap();
    }
    assert_eq!(removed(&p, &last), set("A1 A2 A3 A4 A5"));
    assert_eq!(p.result(), Some((B, EndReason::Annihilation)));
    assert!(p.swapped(), "Black's seat is the second player's after the swap");
    assert_eq!(p.format_position(), ".R.../.X.../.XX../.X.../.X... w");
    assert_eq!(group_table(&p), [group(B, "B1 B2 B3 B4 C3", "A1 A2 A3 A4 C1 C2 C4 D3")].into_iter().collect());
    assert_eq!(group_table(&p).iter().next().unwrap().2.len(), 8);
    for id in ["S13", "S13a", "S13b", "S13c"] {
        assert_case(kind(), id);
    }
}

#[test]
fn d6_first_turn_rule_is_per_colour_not_per_person() {
    // 1. B1 2. swap 3. A1 4. A2*: White's lone stone has the single liberty A2, and Black (the
    // second player after the swap) may capture it at once and win.
    let mut p = start(5);
    for token in ["B1", "swap", "A1"] {
        p.play_record_token(token).unwrap();
    }
    assert_eq!(legal(&p).iter().filter(|m| m.ends_with('*')).collect::<Vec<_>>(), vec!["A2*"]);
    let (after, effects) = try_token(&p, "A2*x1").unwrap();
    assert_eq!(removed(&p, &effects), set("A1"));
    assert_eq!(after.result(), Some((B, EndReason::Annihilation)));
    assert!(after.swapped());
}

#[test]
fn all_referee_cases_pass() {
    support::assert_all_cases(kind());
}

// ----- notation -----

#[test]
fn notation_round_trips_and_rejects_bad_text() {
    let p = start(19);
    for token in ["A1", "T19", "J9*", "swap", "h8", "k10*"] {
        let m = p.parse_move(token).unwrap();
        assert_eq!(p.parse_move(&p.format_move(&m)), Ok(m));
    }
    assert_eq!(p.format_move(&p.parse_move("k10*").unwrap()), "K10*");
    assert_eq!(p.parse_move("J1"), Ok(Move::stone(8)));
    for bad in ["I5", "A0", "U1", "A20", "", "C3**", "C3*y", "pass", "C3x5"] {
        assert!(p.parse_move(bad).is_err(), "'{bad}' should not parse");
    }
    assert!(p.parse_move("C3*x5").is_err(), "a removal count is for record tokens only");
    let o = options(5);
    for bad in [
        "...../...../...../...../.... b",
        "...../...../...../..... b",
        "...../...../...../...../..... x",
        "...../...../...../...../....Q b",
        "...../...../...../...../..... b swap",
        "...../...../...../...../..X.. b",
        "...../...../...../...../.XX.. w",
        "...../...../...../...../..O.. b",
        "XO.../...../...../...../..... b extra",
        "OX.../X..../...../...../..... b",
    ] {
        assert!(Position::parse_position(&o, bad).is_err(), "'{bad}' should be rejected");
    }
    let e = Position::parse_position(&o, "OX.../X..../...../...../..... b").unwrap_err();
    assert!(e.reason.contains("A5") && e.reason.contains("no liberty"), "{e}");
    assert!(Position::parse_position(&options(7), "...../...../...../...../..... b").is_err());
    let lower = Position::parse_position(&o, "x..../...../..r../...o./..... b").unwrap();
    assert_eq!(lower.format_position(), "X..../...../..R../...O./..... b");
    assert_eq!(start(11).format_position(), format!("{} b", ["..........."; 11].join("/")));
    assert_eq!(start(11).options().to_pairs(), vec![("size".to_string(), "11".to_string())]);
}

#[test]
fn a_red_capture_played_fast_or_read_back_from_text_keeps_the_incremental_hash() {
    let p = pos(".OXO./.OXO./.O.XR/.XOOR/..XX. w");
    let m = p.parse_move("C3*").unwrap();
    let mut whole = p.clone();
    whole.play(&m).unwrap();
    let mut fast = p.clone();
    fast.play_unchecked(&m);
    assert_eq!(fast, whole);
    assert_eq!(fast.zobrist(), whole.zobrist());
    assert_eq!(pos(&whole.format_position()).zobrist(), whole.zobrist());
}

// ----- conformance and the literal rule -----

/// The spec's invariants, checked against a flood fill of the stones.
fn invariants(p: &Position) {
    let groups = p.groups();
    assert!(groups.iter().all(|g| !g.liberties.is_empty()), "a group without liberty at {p}");
    for side in [B, W] {
        let stones: usize = groups.iter().filter(|g| g.colour == side).map(|g| g.stones.len()).sum();
        assert_eq!(stones, p.stone_count(side), "stone count of {side:?} at {p}");
    }
    let over = p.result().is_some();
    let gone = p.stone_count(B) == 0 || p.stone_count(W) == 0;
    assert_eq!(over, gone && p.red_count() > 0, "the game ends exactly when a red stone wipes out an army: {p}");
    assert_eq!(Position::parse_position(p.options(), &p.format_position()).unwrap().zobrist(), p.zobrist());
    literal_agrees(p);
}

/// The fast generator and the literal rule of §4.3 give the same legal set, for the side to move
/// and (when that is a valid position) for the other side.
fn literal_agrees(p: &Position) {
    if p.result().is_some() {
        return;
    }
    let mut sides = vec![p.clone()];
    let flipped = p.format_position().replace(" b", " W").replace(" w", " b").replace(" W", " w");
    if let Ok(q) = Position::parse_position(p.options(), flipped.trim_end_matches(" swap")) {
        sides.push(q);
    }
    for q in sides {
        let mut fast = Vec::new();
        q.legal_moves(&mut fast);
        let mut slow: Vec<Move> =
            q.cells().flat_map(|c| [Move::stone(c), Move::red(c)]).filter(|m| q.legal_by_definition(m)).collect();
        if q.swap_open() {
            slow.insert(0, Move::Swap);
        }
        assert_eq!(fast, slow, "fast and literal legality differ at {q}");
        eye_table_holds(&q);
    }
}

/// The table of §4.5, row by row, on every isolated point (atari taken from the flood fill).
fn eye_table_holds(p: &Position) {
    let side = p.side_to_move();
    let groups = p.groups();
    for c in p.cells() {
        let class = p.point_class(c, side);
        if matches!(class, PointClass::Occupied | PointClass::Open) {
            continue;
        }
        let near: Vec<_> = groups.iter().filter(|g| g.stones.iter().any(|s| p.neighbours(c).contains(s))).collect();
        let atari = |g: &&stoneyard::games::red_stone::Group| g.liberties == [c];
        let own_atari = near.iter().filter(|g| g.colour == side && atari(g)).count();
        let own_total = near.iter().filter(|g| g.colour == side).count();
        let enemy_atari = near.iter().any(|g| g.colour != side && atari(g));
        let own = p.is_legal(&Move::stone(c));
        let red = p.is_legal(&Move::red(c));
        match class {
            PointClass::RedEye => assert!(!own && !red),
            PointClass::OwnEye => {
                assert_eq!(own, own_atari < own_total, "own eye, own stone at {}", p.name(c));
                assert_eq!(red, own_atari > 0, "own eye, red stone at {}", p.name(c));
            }
            PointClass::EnemyEye => {
                assert!(!own);
                assert_eq!(red, enemy_atari, "enemy eye at {}", p.name(c));
            }
            PointClass::Contested => {
                assert_eq!(own, !enemy_atari && own_atari < own_total);
                assert_eq!(red, enemy_atari || own_atari > 0);
            }
            _ => unreachable!(),
        }
    }
}

#[test]
fn conformance_random_playouts_5x5() {
    let plies = support::conformance::random_playouts(&start(5), 150, 10_000, invariants);
    assert!(plies > 150 * 10);
}

#[test]
fn conformance_random_playouts_7x7_and_default() {
    support::conformance::random_playouts(&start(7), 40, 10_000, invariants);
    support::conformance::random_playouts(&start(11), 4, 100_000, |p| {
        assert!(p.groups().iter().all(|g| !g.liberties.is_empty()));
    });
}

#[test]
fn fast_legality_agrees_with_the_literal_rule_on_random_positions() {
    // Random positions: random games on several sizes, sampled at random plies, both sides.
    let mut checked = 0;
    let mut moves = Vec::new();
    for seed in 0..600u64 {
        let mut rng = seeded(1_000 + seed);
        let size = [5u8, 6, 7, 9][seed as usize % 4];
        let mut p = start(size);
        let stop = pick_index(&mut rng, (size as usize).pow(2) * 3);
        for _ in 0..stop {
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[pick_index(&mut rng, moves.len())];
            p.play_unchecked(&m);
        }
        literal_agrees(&p);
        checked += 1;
    }
    assert_eq!(checked, 600);
}

#[test]
fn fast_legality_agrees_with_the_literal_rule_on_random_boards() {
    // Boards filled at random (many eyes, ataris and red stones no game would reach quickly);
    // texts that break an invariant are refused by the parser and skipped.
    let mut rng = seeded(4242);
    let mut checked = 0;
    while checked < 3_000 {
        let size = 5 + pick_index(&mut rng, 3);
        let empty_share = 1 + pick_index(&mut rng, 4);
        let rows: Vec<String> = (0..size)
            .map(|_| {
                (0..size)
                    .map(|_| match pick_index(&mut rng, 4 + empty_share) {
                        0 => 'X',
                        1 => 'O',
                        2 if pick_index(&mut rng, 2) == 0 => 'R',
                        2 => 'X',
                        3 => 'O',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        let side = if pick_index(&mut rng, 2) == 0 { "b" } else { "w" };
        let text = format!("{} {side}", rows.join("/"));
        if let Ok(p) = Position::parse_position(&options(size as u8), &text) {
            literal_agrees(&p);
            checked += 1;
        }
    }
}

#[test]
fn removal_preview_matches_the_red_move() {
    let mut rng = seeded(77);
    let mut moves = Vec::new();
    let mut p = start(7);
    while p.result().is_none() {
        p.legal_moves(&mut moves);
        for m in &moves {
            if let Move::Place { at, red: true } = *m {
                let mut after = p.clone();
                let effects = after.play(m).unwrap();
                let preview: usize = p.removal_preview(at).iter().map(Vec::len).sum();
                assert_eq!(preview, removed(&p, &effects).len());
            }
        }
        let m = moves[pick_index(&mut rng, moves.len())];
        p.play(&m).unwrap();
    }
}

// ----- perft -----

/// Perft by the literal rule: every point and kind tried with `legal_by_definition`, played with
/// the checked `play`.
fn slow_perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 || p.result().is_some() {
        return 1;
    }
    let mut moves: Vec<Move> =
        p.cells().flat_map(|c| [Move::stone(c), Move::red(c)]).filter(|m| p.legal_by_definition(m)).collect();
    if p.swap_open() {
        moves.push(Move::Swap);
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = p.clone();
            next.play(m).unwrap();
            slow_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_counts_match_the_committed_data() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/red_stone.txt");
    let data = std::fs::read_to_string(path).unwrap();
    let mut current: Option<Position> = None;
    let mut lines = 0;
    for line in data.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(text) = line.strip_prefix("position ") {
            current = Some(pos(text));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, count) = rest.split_once(' ').unwrap();
            let (depth, count): (u32, u64) = (depth.parse().unwrap(), count.trim().parse().unwrap());
            let p = current.as_ref().expect("a position line comes first");
            assert_eq!(perft(p, depth), count, "perft {depth} of {p}");
            // The literal rule is slow: cross-check the smaller trees.
            if count <= 70_000 {
                assert_eq!(slow_perft(p, depth), count, "literal perft {depth} of {p}");
            }
            lines += 1;
        }
    }
    assert!(lines >= 8);
}

// ----- game record (§6.3) -----

mod game_record {
    use super::*;
    use stoneyard::games::red_stone::{RecordReason, RecordResult, format_record, parse_record};
    use stoneyard::rules::LegalTokens;

    const SPEC_RECORD: &str = "game: red-stone
size: 5
p1: Alice
p2: Bob
moves: 1. C3 2. swap 3. A1 4. B1 5. A2 6. B2 7. A3 8. B3 9. A4 10. B4 11. A5 12. B5*
result: B+ annihilation";

    #[test]
    fn spec_record_parses_and_replays_to_black_annihilation() {
        let r = parse_record(SPEC_RECORD).unwrap();
        assert_eq!(r.options.size, 5);
        assert_eq!(r.players, ("Alice".to_string(), "Bob".to_string()));
        assert_eq!(r.tokens.len(), 12);
        assert_eq!(r.tokens[1], "swap");
        assert!(r.position.swapped());
        assert_eq!(r.position.result(), Some((Side::First, EndReason::Annihilation)));
        assert_eq!(
            r.result,
            Some(RecordResult { winner: Side::First, reason: RecordReason::Rules(EndReason::Annihilation) })
        );
        assert_eq!(r.position.format_position(), ".R.../.X.../.XX../.X.../.X... w");
        assert_eq!(r.position.record_result().as_deref(), Some("B+ annihilation"));
        // Written back, it is the spec's text exactly.
        let again = format_record(&r.options, ("Alice", "Bob"), &r.tokens, r.result);
        assert_eq!(again, SPEC_RECORD);
    }

    #[test]
    fn spec_record_with_removal_count_and_lower_case() {
        let text = SPEC_RECORD.replace("B5*", "b5*x5").replace("C3", "c3");
        let r = parse_record(&text).unwrap();
        assert_eq!(r.position.result(), Some((Side::First, EndReason::Annihilation)));
        let wrong = SPEC_RECORD.replace("B5*", "B5*x4");
        let e = parse_record(&wrong).unwrap_err().to_string();
        assert!(e.contains("move 12"), "{e}");
    }

    fn random_game(seed: u64, size: u8, max_plies: usize) -> (Vec<String>, Position) {
        let mut rng = seeded(seed);
        let mut p = start(size);
        let mut tokens = Vec::new();
        while p.result().is_none() && tokens.len() < max_plies {
            let LegalTokens::List(list) = p.legal_record_tokens() else { panic!("red stone lists its tokens") };
            let t = list[pick_index(&mut rng, list.len())].clone();
            p.play_record_token(&t).unwrap();
            tokens.push(t);
        }
        (tokens, p)
    }

    #[test]
    fn format_parse_round_trip_on_seeded_random_games() {
        let mut finished = 0;
        for seed in 0..12u64 {
            let size = [5, 7, 9][seed as usize % 3];
            let max = if seed % 4 == 3 { 15 } else { 10_000 };
            let (mut tokens, p) = random_game(seed, size, max);
            let mut result = RecordResult::of(&p);
            finished += usize::from(result.is_some());
            if result.is_none() && seed % 8 == 3 {
                tokens.push("resign".to_string());
                result = Some(RecordResult { winner: p.side_to_move().opponent(), reason: RecordReason::Resignation });
            }
            let text = format_record(&options(size), ("P One", "P Two"), &tokens, result);
            let r = parse_record(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            assert_eq!(r.options, options(size));
            assert_eq!(r.tokens, tokens, "seed {seed}");
            assert_eq!(r.result, result, "seed {seed}");
            assert_eq!(r.players, ("P One".to_string(), "P Two".to_string()));
            assert_eq!(r.position.format_position(), p.format_position(), "seed {seed}");
            assert_eq!(r.position.result(), p.result(), "seed {seed}");
            assert_eq!(format_record(&r.options, ("P One", "P Two"), &r.tokens, r.result), text);
        }
        assert!(finished >= 6, "most random games should be played to the end, {finished} were");
    }

    #[test]
    fn resignation_and_unfinished_games() {
        let r = parse_record("game: red-stone\nsize: 5\nmoves: 1. C3 2. D4 3. resign\nresult: W+ resignation").unwrap();
        assert_eq!(r.result, Some(RecordResult { winner: Side::Second, reason: RecordReason::Resignation }));
        assert!(r.position.result().is_none());
        // A game in progress has no result line; the default size is 11.
        let r = parse_record("game: red-stone\nmoves: 1. F6").unwrap();
        assert_eq!(r.options.size, 11);
        assert_eq!(r.result, None);
        let r = parse_record("game: red-stone\nsize: 5\nmoves:").unwrap();
        assert!(r.tokens.is_empty());
    }

    #[test]
    fn malformed_records_are_refused_with_clear_errors() {
        let cases: &[(&str, &str)] = &[
            ("", "game: red-stone"),
            ("size: 5\nmoves: 1. C3", "game: red-stone"),
            ("game: gravel\nmoves: 1. C3", "not of red-stone"),
            ("game: red-stone\nsize: 4\nmoves: 1. C3", "size"),
            ("game: red-stone\nsize: 5", "no 'moves:'"),
            ("game: red-stone\nsize: 5\nmoves: 1. C3 3. D4", "'2.'"),
            ("game: red-stone\nsize: 5\nmoves: 1. C3 2.", "move number 2 has no move"),
            ("game: red-stone\nsize: 5\nmoves: C3", "'1.'"),
            ("game: red-stone\nsize: 5\nmoves: 1. C3 2. Z9", "move 2"),
            ("game: red-stone\nsize: 5\nmoves: 1. C3 2. D4 3. swap", "move 3"),
            ("game: red-stone\nsize: 5\nmoves: 1. C3*", "move 1"),
            ("game: red-stone\nsize: 5\nmoves: 1. C3 2. resign 3. D4", "last move"),
            ("game: red-stone\nsize: 5\nmoves: 1. C3\nresult: B+ annihilation", "do not end the game"),
            ("game: red-stone\nsize: 5\nmoves: 1. C3\nresult: X+ win", "not a result"),
            ("game: red-stone\nsize: 5\nmoves: 1. C3 2. resign\nresult: W+ resignation", "gives 'B+ resignation'"),
            ("game: red-stone\nsize: 5\nsize: 7\nmoves:", "twice"),
            ("game: red-stone\ncolour: red\nmoves:", "unknown record key"),
            ("game: red-stone\njust text\nmoves:", "not 'key: value'"),
        ];
        for (text, needle) in cases {
            let e = parse_record(text).expect_err(text).to_string();
            assert!(e.contains(needle), "record {text:?}: error '{e}' should mention '{needle}'");
        }
        let wrong = SPEC_RECORD.replace("B+ annihilation", "W+ annihilation");
        let e = parse_record(&wrong).unwrap_err().to_string();
        assert!(e.contains("B+ annihilation"), "{e}");
    }
}

#[test]
fn a_point_where_nothing_can_be_done_says_why() {
    use stoneyard::games::About;
    let (p, _) = try_token(&start(5), "C3").unwrap();
    assert_eq!(p.why_nothing_at(cell(&p, "C3")).as_deref(), Some("C3 is occupied"));
    assert_eq!(p.why_nothing_at(cell(&p, "A1")), None, "White may place on A1");
}
