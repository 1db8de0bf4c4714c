//! Hidden Intention rules tests: every worked example of the spec, the referee cases, random
//! playouts with the spec's invariants, a literal legality cross-check and perft data.

use crate::support;

use std::collections::BTreeSet;
use stoneyard::games::GameKind;
use stoneyard::games::hidden_intention::{
    Commitment, Corner, FigureChoice, Kind, Move, Position, SWAPS_PER_GAME, Staged, format_commitment,
    parse_commitment, parse_square,
};
use stoneyard::rules::{Effect, EffectKind, Notation, Outcome, Rules, Side, Status, ToMove, perft, pick_index, seeded};

// ---------------------------------------------------------------------------------------------
// A literal, independent reading of spec §4 and §6.3, written from the offsets in the spec text
// (not from the engine's tables), used to cross-check the engine.

/// The spec's offset lists `(dx, dy, amount)` of a figure (§4.1–4.6).
fn literal_offsets(kind: Kind) -> Vec<(i32, i32, i32)> {
    let mut v = Vec::new();
    match kind {
        Kind::Pawn => v.extend([(0, 0, 1), (1, 0, 1), (-1, 0, 1), (0, 1, 1), (0, -1, 1)]),
        Kind::DiagPawn => v.extend([(0, 0, 1), (1, 1, 1), (1, -1, 1), (-1, 1, 1), (-1, -1, 1)]),
        Kind::Rook => {
            v.push((0, 0, 1));
            for k in (-7..=7).filter(|&k| k != 0) {
                v.push((k, 0, 1));
                v.push((0, k, 1));
            }
        }
        Kind::Bishop => {
            v.push((0, 0, 1));
            for k in (-7..=7).filter(|&k| k != 0) {
                v.push((k, k, 1));
                v.push((k, -k, 1));
            }
        }
        Kind::Queen => {
            v.push((0, 0, 1));
            for dx in -2i32..=2 {
                for dy in -2i32..=2 {
                    if dx.abs() + dy.abs() == 2 {
                        v.push((dx, dy, 1));
                    }
                }
            }
        }
        Kind::Knight(c) => {
            let (sx, sy) = match c {
                Corner::NE => (1, 1),
                Corner::NW => (-1, 1),
                Corner::SE => (1, -1),
                Corner::SW => (-1, -1),
            };
            for (a, b, amount) in [(1, 0, 2), (0, 1, 2), (2, 0, 1), (0, 2, 1), (2, 1, 1), (1, 2, 1)] {
                v.push((sx * a, sy * b, amount));
            }
        }
    }
    v
}

/// Figures of a position as `(square, owner, kind)`.
fn figures(pos: &Position) -> Vec<(u8, Side, Kind)> {
    (0..64u8).filter_map(|s| pos.figure_at(s).map(|f| (s, f.owner, f.kind))).collect()
}

/// `v(s)` for every square, summed figure by figure from the spec's offsets.
fn literal_influence(figs: &[(u8, Side, Kind)]) -> [i32; 64] {
    let mut map = [0i32; 64];
    for &(square, owner, kind) in figs {
        let (f, r) = ((square % 8) as i32, (square / 8) as i32);
        let sign = if owner == Side::First { 1 } else { -1 };
        for (dx, dy, amount) in literal_offsets(kind) {
            let (x, y) = (f + dx, r + dy);
            if (0..8).contains(&x) && (0..8).contains(&y) {
                map[(y * 8 + x) as usize] += sign * amount;
            }
        }
    }
    map
}

/// The figures with the two on `a` and `b` exchanged.
fn swapped(figs: &[(u8, Side, Kind)], a: u8, b: u8) -> Vec<(u8, Side, Kind)> {
    figs.iter()
        .map(|&(s, o, k)| {
            if s == a {
                (b, o, k)
            } else if s == b {
                (a, o, k)
            } else {
                (s, o, k)
            }
        })
        .collect()
}

/// Spec §6.3, literally: every legal commitment of `side`.
fn literal_commitment_list(pos: &Position, side: Side) -> Vec<Commitment> {
    let mut out = Vec::new();
    if pos.status().is_over() {
        return out;
    }
    let figs = figures(pos);
    let own: Vec<u8> = figs.iter().filter(|f| f.1 == side).map(|f| f.0).collect();
    let mut swaps = vec![None];
    if pos.swaps_left(side) >= 1 {
        for i in 0..own.len() {
            for j in i + 1..own.len() {
                swaps.push(Some((own[i], own[j])));
            }
        }
    }
    let supply = pos.supply(side);
    let kinds: Vec<Kind> = [Kind::Pawn, Kind::DiagPawn, Kind::Rook, Kind::Bishop, Kind::Queen]
        .into_iter()
        .chain(Corner::ALL.map(Kind::Knight))
        .filter(|k| supply.has(k.choice()))
        .collect();
    for swap in swaps {
        let board = match swap {
            Some((a, b)) => swapped(&figs, a, b),
            None => figs.clone(),
        };
        let v = literal_influence(&board);
        for t in 0..64u8 {
            let empty = !board.iter().any(|f| f.0 == t);
            let burned = pos.burned() & (1u64 << t) != 0;
            let friendly = if side == Side::First { v[t as usize] >= 0 } else { v[t as usize] <= 0 };
            if empty && !burned && friendly {
                for &kind in &kinds {
                    out.push(Commitment { swap, kind, target: t });
                }
            }
        }
    }
    out
}

/// The literal commitments as text.
fn literal_commitments(pos: &Position, side: Side) -> BTreeSet<String> {
    literal_commitment_list(pos, side).iter().map(format_commitment).collect()
}

/// The staged decisions derived literally: the next decision of every literal commitment that
/// extends what each unsealed side has entered so far.
fn literal_moves(pos: &Position) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for side in Side::BOTH {
        if pos.is_sealed(side) {
            continue;
        }
        let s = pos.staged(side);
        for c in literal_commitment_list(pos, side) {
            let next = match (s.swap, s.figure, s.target) {
                (None, None, _) => match c.swap {
                    Some((a, b)) => Move::Swap { side, a, b },
                    None => Move::Figure { side, choice: c.kind.choice() },
                },
                (swap, None, _) if swap == c.swap => Move::Figure { side, choice: c.kind.choice() },
                (swap, Some(f), None) if swap == c.swap && f == c.kind.choice() => {
                    Move::Target { side, square: c.target }
                }
                (swap, Some(f), Some(t)) if swap == c.swap && f == c.kind.choice() && t == c.target => match c.kind {
                    Kind::Knight(corner) => Move::Facing { side, corner },
                    _ => continue,
                },
                _ => continue,
            };
            out.insert(pos.format_move(&next));
        }
    }
    out
}

/// Perft with the literal move rule (the engine only resolves the attempts).
fn literal_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 || pos.status().is_over() {
        return 1;
    }
    let moves = literal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|text| {
            let mut next = pos.clone();
            next.play_unchecked(&pos.parse_move(text).unwrap());
            literal_perft(&next, depth - 1)
        })
        .sum()
}

/// Spec §7.1 `has_legal`, literally: a non-empty supply and some target with or without a swap.
fn literal_has_legal(pos: &Position, side: Side) -> bool {
    if pos.supply(side).total() == 0 {
        return false;
    }
    let figs = figures(pos);
    let own: Vec<u8> = figs.iter().filter(|f| f.1 == side).map(|f| f.0).collect();
    let mut boards = vec![figs.clone()];
    if pos.swaps_left(side) >= 1 {
        for i in 0..own.len() {
            for j in i + 1..own.len() {
                boards.push(swapped(&figs, own[i], own[j]));
            }
        }
    }
    boards.iter().any(|board| {
        let v = literal_influence(board);
        (0..64u8).any(|t| {
            let empty = !board.iter().any(|f| f.0 == t);
            let burned = pos.burned() & (1u64 << t) != 0;
            let friendly = if side == Side::First { v[t as usize] >= 0 } else { v[t as usize] <= 0 };
            empty && !burned && friendly
        })
    })
}

/// Every complete commitment reachable through the engine's staged decisions for `side`.
fn staged_commitments(pos: &Position, side: Side) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![pos.clone()];
    let mut moves = Vec::new();
    while let Some(p) = stack.pop() {
        p.legal_moves_for(side, &mut moves);
        for m in moves.clone() {
            let mut next = p.clone();
            let staged_before = staged_of(&next, side, &m);
            next.play_unchecked(&m);
            match staged_before {
                Some(c) => {
                    out.insert(format_commitment(&c));
                }
                None => stack.push(next),
            }
        }
    }
    out
}

/// The commitment `m` completes for `side` on `pos`, if it seals it.
fn staged_of(pos: &Position, side: Side, m: &Move) -> Option<Commitment> {
    let mut s: Staged = pos.staged(side);
    match *m {
        Move::Swap { a, b, .. } => s.swap = Some((a, b)),
        Move::Figure { choice, .. } => s.figure = Some(choice),
        Move::Target { square, .. } => s.target = Some(square),
        Move::Facing { corner, .. } => s.facing = Some(corner),
    }
    s.commitment()
}

// ---------------------------------------------------------------------------------------------
// Worked examples (spec §10): each replays its attempts through the record tokens and checks
// the legality values, the removals of every cascade round (wave n = round n), the final state
// string, the influence map against the spec and against the literal reading, and the score.

struct Attempt {
    a: &'static str,
    b: &'static str,
    /// The target's value in each player's own view (after its own swap only).
    values: (i32, i32),
    /// The squares removed in cascade round 1, 2, …
    removals: &'static [&'static [&'static str]],
    burns: bool,
}

struct Example {
    start: &'static str,
    attempts: &'static [Attempt],
    result: &'static str,
    fields: (u8, u8, u8),
    outcome: Option<Outcome>,
    /// The final influence map, rank 8 first.
    map: [[i8; 8]; 8],
}

fn open(text: &str) -> Position {
    Position::parse_position(&Default::default(), text).unwrap_or_else(|e| panic!("'{text}' rejected: {e}"))
}

fn cell(effect: &Effect) -> Option<u16> {
    match effect.kind {
        EffectKind::Removed { cell, .. } | EffectKind::Burned { cell } | EffectKind::Placed { cell, .. } => Some(cell),
        _ => None,
    }
}

fn run_example(ex: &Example) {
    let mut pos = open(ex.start);
    assert_eq!(pos.format_position(), ex.start, "start state string is canonical");
    assert_eq!(pos.to_move(), Some(ToMove::Both));
    for at in ex.attempts {
        for (side, text, value) in [(Side::First, at.a, at.values.0), (Side::Second, at.b, at.values.1)] {
            let c = parse_commitment(text).unwrap();
            let figs = figures(&pos);
            let board = match c.swap {
                Some((x, y)) => swapped(&figs, x, y),
                None => figs,
            };
            assert_eq!(literal_influence(&board)[c.target as usize], value, "{text}: value in its own view");
            assert!(pos.legal_targets(side, c.swap) & (1u64 << c.target) != 0, "{text} is a legal target");
            assert!(pos.check_commitment(side, &c).is_ok(), "{text} is legal");
        }
        let token = format!("{}|{}", at.a, at.b);
        let effects = pos.play_record_token(&token).unwrap_or_else(|e| panic!("{token}: {e}"));
        let placed = effects.iter().filter(|e| matches!(e.kind, EffectKind::Placed { .. })).count();
        let burned: Vec<&Effect> = effects.iter().filter(|e| matches!(e.kind, EffectKind::Burned { .. })).collect();
        if at.burns {
            assert_eq!(placed, 0, "{token}: a burn places nothing");
            assert_eq!(burned.len(), 1, "{token}: one square burns");
            assert_eq!(burned[0].wave, 0);
            assert_eq!(cell(burned[0]), Some(parse_commitment(at.a).unwrap().target as u16));
        } else {
            assert_eq!(placed, 2, "{token}: both figures are placed");
            assert!(burned.is_empty());
        }
        let swaps = [at.a, at.b].iter().filter(|t| t.contains("<>")).count();
        let swap_effects: Vec<&Effect> =
            effects.iter().filter(|e| matches!(e.kind, EffectKind::Swapped { .. })).collect();
        assert_eq!(swap_effects.len(), swaps, "{token}: one Swapped effect per swap");
        assert!(swap_effects.iter().all(|e| e.wave == 0));
        for (round, squares) in at.removals.iter().enumerate() {
            let wave = round as u16 + 1;
            let got: BTreeSet<u16> = effects
                .iter()
                .filter(|e| e.wave == wave && matches!(e.kind, EffectKind::Removed { .. }))
                .filter_map(cell)
                .collect();
            let want: BTreeSet<u16> = squares.iter().map(|s| parse_square(s).unwrap() as u16).collect();
            assert_eq!(got, want, "{token}: removals of cascade round {wave}");
        }
        let removals = effects.iter().filter(|e| matches!(e.kind, EffectKind::Removed { .. })).count();
        assert_eq!(removals, at.removals.iter().map(|r| r.len()).sum::<usize>(), "{token}: no other removals");
    }
    assert_eq!(pos.format_position(), ex.result);
    let counts = pos.field_counts();
    assert_eq!((counts.a, counts.b, counts.neutral), ex.fields, "field counts");
    let mut want = [0i8; 64];
    for (row, values) in ex.map.iter().enumerate() {
        for (file, &v) in values.iter().enumerate() {
            want[(7 - row) * 8 + file] = v;
        }
    }
    assert_eq!(pos.influence_map(), want, "influence map");
    let literal = literal_influence(&figures(&pos));
    assert!(literal.iter().zip(want.iter()).all(|(a, &b)| *a == b as i32), "literal influence map");
    match ex.outcome {
        Some(o) => {
            assert_eq!(pos.status(), Status::Over(o));
            assert_eq!(pos.to_move(), None);
        }
        None => assert_eq!(pos.status(), Status::Ongoing),
    }
}

const CASES_1: &[&str] = &["Ex1a", "Ex1b", "Ex1c"];
const CASES_2: &[&str] = &["Ex2a", "Ex2b", "Ex2c", "Ex2d", "Ex2e"];
const CASES_3: &[&str] = &["Ex3a", "Ex3b"];
const CASES_4: &[&str] = &["Ex4a", "Ex4b"];
const CASES_5: &[&str] = &["Ex5a", "Ex5b"];
const CASES_6: &[&str] = &["Ex6a", "Ex6b"];
const CASES_7: &[&str] = &["Ex7a", "Ex7b", "Ex7c"];
const CASES_8: &[&str] = &["Ex8a", "Ex8b"];
const CASES_9: &[&str] = &["Ex9a", "Ex9b", "Ex9c"];
const CASES_10: &[&str] = &["Ex10a", "Ex10b"];
const CASES_11: &[&str] = &["Ex11a", "Ex11b"];
const CASES_12: &[&str] = &["Ex12a", "Ex12b"];

/// Spec §10 example 1: Opening turn on an empty board
#[test]
fn ex1_opening_turn_on_an_empty_board() {
    run_example(&Example {
        start: "- ; - ; P8R2B2N1Q1 P8R2B2N1Q1 ; 2 2 ; - ; 1.1",
        attempts: &[Attempt { a: "Qd4", b: "Re5", values: (0, 0), removals: &[], burns: false }],
        result: "Qd4 ; Re5 ; P8R2B2N1Q0 P8R1B2N1Q1 ; 2 2 ; - ; 2.1",
        fields: (6, 12, 46),
        outcome: None,
        map: [
            [0, 0, 0, 0, -1, 0, 0, 0],
            [0, 0, 0, 0, -1, 0, 0, 0],
            [0, 0, 0, 1, -1, 0, 0, 0],
            [-1, -1, 0, -1, 0, -1, -1, -1],
            [0, 1, 0, 1, -1, 1, 0, 0],
            [0, 0, 1, 0, 0, 0, 0, 0],
            [0, 0, 0, 1, -1, 0, 0, 0],
            [0, 0, 0, 0, -1, 0, 0, 0],
        ],
    });
    for id in CASES_1 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 2: Burn, then the turn starts anew
#[test]
fn ex2_burn_then_the_turn_starts_anew() {
    run_example(&Example {
        start: "Qd4 ; Re5 ; P8R2B2N1Q0 P8R1B2N1Q1 ; 2 2 ; - ; 2.1",
        attempts: &[
            Attempt { a: "Pc6", b: "Xc6", values: (0, 0), removals: &[], burns: true },
            Attempt { a: "Pc5", b: "Bf6", values: (0, 0), removals: &[], burns: false },
        ],
        result: "Qd4 Pc5 ; Re5 Bf6 ; P7R2B2N1Q0 P8R1B1N1Q1 ; 2 2 ; - ; 3.1",
        fields: (7, 18, 39),
        outcome: None,
        map: [
            [0, 0, 0, -1, -1, 0, 0, -1],
            [0, 0, 0, 0, -2, 0, -1, 0],
            [0, 0, 1, 1, -1, -1, 0, 0],
            [-1, 0, 1, 0, -1, -1, -2, -1],
            [0, 1, 1, 0, -1, 1, 0, -1],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, -1, 0, 1, -1, 0, 0, 0],
            [-1, 0, 0, 0, -1, 0, 0, 0],
        ],
    });
    for id in CASES_2 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 3: Two-round cascade (chain reaction)
#[test]
fn ex3_two_round_cascade_chain_reaction() {
    run_example(&Example {
        start: "Nd4/ne Pd5 ; Ra5 Rh5 ; P7R2B2N0Q1 P8R0B2N1Q1 ; 2 2 ; - ; 3.1",
        attempts: &[Attempt { a: "Pg2", b: "Nc4/ne", values: (0, 0), removals: &[&["d4"], &["d5"]], burns: false }],
        result: "Pg2 ; Nc4/ne Ra5 Rh5 ; P6R2B2N0Q1 P8R0B2N0Q1 ; 2 2 ; - ; 4.1",
        fields: (4, 25, 35),
        outcome: None,
        map: [
            [-1, 0, 0, 0, 0, 0, 0, -1],
            [-1, 0, 0, 0, 0, 0, 0, -1],
            [-1, 0, -1, -1, 0, 0, 0, -1],
            [-2, -2, -4, -2, -3, -2, -2, -2],
            [-1, 0, 0, -2, -1, 0, 0, -1],
            [-1, 0, 0, 0, 0, 0, 1, -1],
            [-1, 0, 0, 0, 0, 1, 1, 0],
            [-1, 0, 0, 0, 0, 0, 1, -1],
        ],
    });
    for id in CASES_3 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 4: Simultaneous removal of three figures
#[test]
fn ex4_simultaneous_removal_of_three_figures() {
    run_example(&Example {
        start: "Pd4 ; Pf4 ; P7R2B2N1Q1 P7R2B2N1Q1 ; 2 2 ; - ; 2.1",
        attempts: &[Attempt { a: "Pe5", b: "Ne4/nw", values: (0, 0), removals: &[&["d4", "e4", "e5"]], burns: false }],
        result: "- ; Pf4 ; P6R2B2N1Q1 P7R2B2N0Q1 ; 2 2 ; - ; 3.1",
        fields: (0, 5, 59),
        outcome: None,
        map: [
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, -1, 0, 0],
            [0, 0, 0, 0, -1, -1, -1, 0],
            [0, 0, 0, 0, 0, -1, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
        ],
    });
    for id in CASES_4 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 5: Neutral ground is stable
#[test]
fn ex5_neutral_ground_is_stable() {
    run_example(&Example {
        start: "Pd4 ; Pg6 ; P7R2B2N1Q1 P7R2B2N1Q1 ; 2 2 ; - ; 2.1",
        attempts: &[Attempt { a: "Pd6", b: "Rd8", values: (0, 0), removals: &[], burns: false }],
        result: "Pd4 Pd6 ; Pg6 Rd8 ; P6R2B2N1Q1 P7R1B2N1Q1 ; 2 2 ; - ; 3.1",
        fields: (5, 15, 44),
        outcome: None,
        map: [
            [-1, -1, -1, -1, -1, -1, -1, -1],
            [0, 0, 0, 0, 0, 0, -1, 0],
            [0, 0, 1, 0, 1, -1, -1, -1],
            [0, 0, 0, 1, 0, 0, -1, 0],
            [0, 0, 1, 0, 1, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, -1, 0, 0, 0, 0],
            [0, 0, 0, -1, 0, 0, 0, 0],
        ],
    });
    for id in CASES_5 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 6: The knight as a glass cannon
#[test]
fn ex6_the_knight_as_a_glass_cannon() {
    run_example(&Example {
        start: "Nd4/ne ; Pg7 ; P8R2B2N0Q1 P7R2B2N1Q1 ; 2 2 ; - ; 2.1",
        attempts: &[Attempt { a: "Pe5", b: "Pc4", values: (0, 0), removals: &[&["d4"]], burns: false }],
        result: "Pe5 ; Pc4 Pg7 ; P7R2B2N0Q1 P6R2B2N1Q1 ; 2 2 ; - ; 3.1",
        fields: (5, 10, 49),
        outcome: None,
        map: [
            [0, 0, 0, 0, 0, 0, -1, 0],
            [0, 0, 0, 0, 0, -1, -1, -1],
            [0, 0, 0, 0, 1, 0, -1, 0],
            [0, 0, -1, 1, 1, 1, 0, 0],
            [0, -1, -1, -1, 1, 0, 0, 0],
            [0, 0, -1, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
        ],
    });
    for id in CASES_6 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 7: A swap opens a field for placement
#[test]
fn ex7_a_swap_opens_a_field_for_placement() {
    run_example(&Example {
        start: "Qc3 Pf4 ; Rh6 Xa8 ; P7R2B2N1Q0 P7R1B2N1Q1 ; 2 2 ; - ; 3.1",
        attempts: &[Attempt { a: "c3<>f4 Pf6", b: "Pb6", values: (0, -1), removals: &[], burns: false }],
        result: "Pc3 Qf4 Pf6 ; Pb6 Rh6 Xa8 ; P6R2B2N1Q0 P6R1B2N1Q1 ; 1 2 ; - ; 4.1",
        fields: (15, 14, 35),
        outcome: None,
        map: [
            [-1, 0, 0, 0, 0, 0, 0, -1],
            [0, -2, 0, 0, 0, 1, 0, -1],
            [-2, -2, -2, -1, 0, 1, 0, -1],
            [0, -1, 0, 0, 1, 1, 1, -1],
            [0, 0, 1, 1, 0, 1, 0, 0],
            [0, 1, 1, 1, 1, 0, 1, -1],
            [0, 0, 1, 0, 0, 1, 0, -1],
            [0, 0, 0, 0, 0, 0, 0, -1],
        ],
    });
    for id in CASES_7 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 8: The opponent's swap spoils a legal placement
#[test]
fn ex8_the_opponent_s_swap_spoils_a_legal_placement() {
    run_example(&Example {
        start: "Pd4 ; Qh1 Pd6 ; P6R2B2N1Q1 P7R2B2N1Q0 ; 2 2 ; - ; 3.1",
        attempts: &[Attempt { a: "Pe5", b: "d6<>h1 Pe6", values: (0, 0), removals: &[&["e5"]], burns: false }],
        result: "Pd4 ; Ph1 Qd6 Pe6 ; P5R2B2N1Q1 P6R2B2N1Q0 ; 2 1 ; - ; 4.1",
        fields: (4, 12, 48),
        outcome: None,
        map: [
            [0, 0, 0, -1, 0, 0, 0, 0],
            [0, 0, -1, 0, -2, 0, 0, 0],
            [0, -1, 0, -2, -1, -2, 0, 0],
            [0, 0, -1, 1, -2, 0, 0, 0],
            [0, 0, 1, 0, 1, 0, 0, 0],
            [0, 0, 0, 1, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, -1],
            [0, 0, 0, 0, 0, 0, -1, -1],
        ],
    });
    for id in CASES_8 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 9: Burn with a swap: the swap stands and the board is evaluated
#[test]
fn ex9_burn_with_a_swap_the_swap_stands_and_the_board_is_evaluated() {
    run_example(&Example {
        start: "Nd4/ne ; Qh1 Pd6 ; P7R2B2N0Q1 P7R2B2N1Q0 ; 2 2 ; - ; 3.1",
        attempts: &[
            Attempt { a: "Pe5", b: "d6<>h1 Pe5", values: (0, -1), removals: &[&["d4"]], burns: true },
            Attempt { a: "Pd5", b: "Xc5", values: (0, -1), removals: &[], burns: false },
        ],
        result: "Pd5 ; Ph1 Xc5 Qd6 ; P6R2B2N0Q1 P6R2B2N1Q0 ; 2 1 ; - ; 4.1",
        fields: (1, 12, 51),
        outcome: None,
        map: [
            [0, 0, 0, -1, 0, 0, 0, 0],
            [0, 0, -1, 0, -1, 0, 0, 0],
            [0, -2, 0, -1, 0, -1, 0, 0],
            [0, 0, -1, 1, 0, 0, 0, 0],
            [0, -1, 0, -1, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, -1],
            [0, 0, 0, 0, 0, 0, -1, -1],
        ],
    });
    for id in CASES_9 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 10: Rays are not blocked; two rooks secure a rank
#[test]
fn ex10_rays_are_not_blocked_two_rooks_secure_a_rank() {
    run_example(&Example {
        start: "Ra4 Rh4 ; Qd6 Pb8 ; P8R0B2N1Q1 P7R2B2N1Q0 ; 2 2 ; - ; 3.1",
        attempts: &[Attempt { a: "Bf8", b: "Re1", values: (0, 0), removals: &[], burns: false }],
        result: "Ra4 Rh4 Bf8 ; Re1 Qd6 Pb8 ; P8R0B1N1Q1 P7R1B2N1Q0 ; 2 2 ; - ; 4.1",
        fields: (21, 19, 24),
        outcome: None,
        map: [
            [0, -1, -1, -1, -1, 1, 0, 1],
            [1, -1, -1, 0, -1, 0, 1, 1],
            [1, -1, 0, 0, -1, -1, 0, 2],
            [1, 0, 0, 0, -2, 0, 0, 1],
            [2, 3, 2, 1, 1, 2, 2, 2],
            [2, 0, 0, 0, -1, 0, 0, 1],
            [1, 0, 0, 0, -1, 0, 0, 1],
            [0, -1, -1, -1, -1, -1, -1, 0],
        ],
    });
    for id in CASES_10 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 11: Game end: the only legal field is burned
#[test]
fn ex11_game_end_the_only_legal_field_is_burned() {
    run_example(&Example {
        start: "Pa5 ; Xg1 Pa2 Qf3 Ba4 Xb4 Bf4 Nd6/sw Rh6 Pa7 Pg7 Re8 ; P0R1B1N0Q1 P3R0B0N0Q0 ; 2 2 ; - ; 12.1",
        attempts: &[Attempt { a: "Qb1", b: "Pb1", values: (0, 0), removals: &[], burns: true }],
        result: "Pa5 ; Xg1 Pa2 Qf3 Ba4 Xb4 Bf4 Nd6/sw Rh6 Pa7 Pg7 Re8 ; P0R1B1N0Q1 P3R0B0N0Q0 ; 2 2 ; b1 ; 12.2",
        fields: (0, 61, 3),
        outcome: Some(Outcome::Winner(Side::Second)),
        map: [
            [-2, -2, -1, -1, -2, -1, -2, -2],
            [-1, -1, -1, -1, -1, -1, -1, -2],
            [-1, -2, -4, -2, -2, -1, -2, -2],
            [0, -1, -1, -2, -2, -1, -1, -1],
            [0, -1, -1, -1, -2, -1, -1, -1],
            [-2, -1, -1, -1, -2, -1, -1, -2],
            [-1, -1, -1, -1, -2, -1, -1, -3],
            [-1, 0, -1, -1, -1, -1, -1, -1],
        ],
    });
    for id in CASES_11 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

/// Spec §10 example 12: Last turn: supplies run out, the game is drawn
#[test]
fn ex12_last_turn_supplies_run_out_the_game_is_drawn() {
    run_example(&Example {
        start: "Rb2 Nf2/ne Qd3 Xc4 Pe4 ; Pd5 Xf5 Qe6 Nc7/sw Rg7 ; P0R0B1N0Q0 P0R0B1N0Q0 ; 0 0 ; - ; 14.1",
        attempts: &[Attempt { a: "Bb6", b: "Bg3", values: (1, -1), removals: &[], burns: false }],
        result: "Rb2 Nf2/ne Qd3 Xc4 Pe4 Bb6 ; Bg3 Pd5 Xf5 Qe6 Nc7/sw Rg7 ; P0R0B0N0Q0 P0R0B0N0Q0 ; 0 0 ; - ; 15.1",
        fields: (23, 23, 18),
        outcome: Some(Outcome::Draw),
        map: [
            [0, 0, 0, 1, -1, 0, -1, 0],
            [-1, -2, -1, -2, -1, -2, -1, -1],
            [-1, 2, -3, -2, -2, 0, -3, 0],
            [1, 1, -1, 0, -1, -2, -1, 0],
            [0, 1, 2, 1, 0, 1, -1, -1],
            [0, 3, 0, 2, 2, 3, -2, 1],
            [1, 1, 2, 1, 2, 1, 2, 1],
            [0, 1, 0, 1, -1, 0, 0, 0],
        ],
    });
    for id in CASES_12 {
        support::assert_case(GameKind::named("hidden-intention"), id);
    }
}

#[test]
fn ex7_without_its_swap_a_may_not_place_on_f6() {
    let pos = open("Qc3 Pf4 ; Rh6 Xa8 ; P7R2B2N1Q0 P7R1B2N1Q1 ; 2 2 ; - ; 3.1");
    let plain = parse_commitment("Pf6").unwrap();
    let err = pos.check_commitment(Side::First, &plain).unwrap_err();
    assert!(err.reason.contains("f6"), "{err}");
    let with_swap = parse_commitment("f4<>c3 Pf6").unwrap();
    assert_eq!(format_commitment(&with_swap), "c3<>f4 Pf6");
    assert!(pos.check_commitment(Side::First, &with_swap).is_ok());
    assert!(pos.check_commitment(Side::First, &parse_commitment("c3<>h6 Pf6").unwrap()).is_err(), "enemy figure");
    assert!(pos.check_commitment(Side::First, &parse_commitment("c3<>d3 Pf6").unwrap()).is_err(), "empty square");
}

#[test]
fn ex11_a_has_no_legal_commitment_and_b_cannot_play_on_alone() {
    let mut pos = open("Pa5 ; Xg1 Pa2 Qf3 Ba4 Xb4 Bf4 Nd6/sw Rh6 Pa7 Pg7 Re8 ; P0R1B1N0Q1 P3R0B0N0Q0 ; 2 2 ; - ; 12.1");
    assert_eq!(pos.legal_targets(Side::First, None), 1u64 << parse_square("b1").unwrap());
    pos.play_record_token("Qb1|Pb1").unwrap();
    assert!(!pos.has_legal_commitment(Side::First));
    assert!(!literal_has_legal(&pos, Side::First));
    assert!(pos.has_legal_commitment(Side::Second));
    assert_eq!(pos.legal_targets(Side::Second, None).count_ones(), 51);
    assert_eq!(pos.status(), Status::Over(Outcome::Winner(Side::Second)));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty(), "nobody decides after the end");
    assert!(pos.play_record_token("Rc1|Pc1").is_err(), "no attempt after the end");
    assert_eq!(pos.play_record_token("-- | --"), Ok(Vec::new()), "the record's closing line");
    assert!(open("- ; - ; P8R2B2N1Q1 P8R2B2N1Q1 ; 2 2 ; - ; 1.1").play_record_token("--|--").is_err());
}

#[test]
fn ex12_game_over_effects_report_the_draw_and_the_score() {
    let mut pos = open("Rb2 Nf2/ne Qd3 Xc4 Pe4 ; Pd5 Xf5 Qe6 Nc7/sw Rg7 ; P0R0B1N0Q0 P0R0B1N0Q0 ; 0 0 ; - ; 14.1");
    let effects = pos.play_record_token("Bb6|Bg3").unwrap();
    assert!(effects.iter().any(|e| e.kind == EffectKind::GameOver { outcome: Outcome::Draw }));
    assert!(effects.iter().any(|e| e.kind == EffectKind::Scored { side: Side::First, score: 23 }));
    assert!(effects.iter().any(|e| e.kind == EffectKind::Scored { side: Side::Second, score: 23 }));
}

#[test]
fn all_referee_cases_pass() {
    support::assert_all_cases(GameKind::named("hidden-intention"));
}

// ---------------------------------------------------------------------------------------------
// Staged decisions, phases and hidden information.

#[test]
fn staged_decisions_seal_and_reveal_only_when_both_are_in() {
    let mut pos = Position::new(&Default::default());
    let before = pos.format_position();
    for text in ["A:Q", "A:d4"] {
        let m = pos.parse_move(text).unwrap();
        assert_eq!(pos.format_move(&m), text);
        assert!(pos.play(&m).unwrap().is_empty(), "nothing is revealed while B has not sealed");
    }
    assert!(pos.is_sealed(Side::First));
    assert_eq!(pos.format_position(), before, "the state string never shows a sealed commitment");
    let mut a_moves = Vec::new();
    pos.legal_moves_for(Side::First, &mut a_moves);
    assert!(a_moves.is_empty(), "A has sealed");
    // B's options are the same whether or not A has committed.
    let mut b_now = Vec::new();
    pos.legal_moves_for(Side::Second, &mut b_now);
    let mut b_fresh = Vec::new();
    Position::new(&Default::default()).legal_moves_for(Side::Second, &mut b_fresh);
    assert_eq!(b_now, b_fresh);
    assert!(pos.hidden_from(Side::Second).staged(Side::First).is_empty());
    // A knight needs its facing after its square.
    for text in ["B:N", "B:h8"] {
        let m = pos.parse_move(text).unwrap();
        pos.play(&m).unwrap();
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|m| pos.format_move(m)).collect();
    assert_eq!(texts, ["B:/ne", "B:/nw", "B:/se", "B:/sw"]);
    let effects = pos.play(&pos.parse_move("B:/sw").unwrap()).unwrap();
    assert_eq!(effects.iter().filter(|e| e.kind_name() == "Placed").count(), 2);
    assert_eq!(pos.format_position(), "Qd4 ; Nh8/sw ; P8R2B2N1Q0 P8R2B2N0Q1 ; 2 2 ; - ; 2.1");
}

#[test]
fn an_attempt_token_equals_its_commitments_played_decision_by_decision() {
    let start = open("Pd4 ; Qh1 Pd6 ; P6R2B2N1Q1 P7R2B2N1Q0 ; 2 2 ; - ; 3.1");
    let mut by_token = start.clone();
    let mut token_effects = by_token.play_record_token("Pe5|d6<>h1 Pe6").unwrap();
    let mut by_decisions = start.clone();
    let mut effects = Vec::new();
    let a = parse_commitment("Pe5").unwrap();
    let b = parse_commitment("d6<>h1 Pe6").unwrap();
    for (side, c) in [(Side::First, a), (Side::Second, b)] {
        for m in Staged::decisions(side, &c) {
            effects.extend(by_decisions.play(&m).unwrap());
        }
    }
    assert_eq!(by_decisions.format_position(), by_token.format_position());
    token_effects.sort_by_key(|e| format!("{e:?}"));
    effects.sort_by_key(|e| format!("{e:?}"));
    assert_eq!(effects, token_effects);
}

#[test]
fn bad_decisions_and_texts_are_refused_with_reasons() {
    let mut pos = Position::new(&Default::default());
    let before = pos.clone();
    for (text, why) in [("A:d4", "figure"), ("A:/ne", "facing"), ("A:a1<>b1", "empty")] {
        let m = pos.parse_move(text).unwrap();
        let err = pos.play(&m).unwrap_err();
        assert!(err.reason.contains(why), "{text}: {err}");
        assert_eq!(pos, before, "a refused decision changes nothing");
    }
    for bad in ["", "A", "C:P", "A:K", "A:i9", "A:/up", "Qd4"] {
        assert!(pos.parse_move(bad).is_err(), "'{bad}' should not parse");
    }
    for token in ["Qd4", "Qd4|", "Qd4|Re5|Pa1", "Kd4|Re5", "Nd4|Re5", "Qd4/ne|Re5", "a1<>a1 Qd4|Re5"] {
        assert!(pos.play_record_token(token).is_err(), "'{token}' should be refused");
        assert_eq!(pos, before);
    }
    let defaults = Default::default();
    for (text, why) in [
        ("Qd4 ; Re5 ; P8R2B2N1Q0 P8R1B2N1Q1 ; 2 2 ; - ; 3.1", "turn"),
        ("Qd4 ; Re5 ; P8R2B2N1Q0 P8R2B2N1Q0 ; 2 2 ; - ; 2.1", "figures of kind"),
        ("Qd4 ; Re5 ; P8R2B2N1Q0 P8R1B2N1Q1 ; 2 2 ; c6 ; 2.1", "burn"),
        ("Qd4 ; Re5 ; P8R2B2N1Q0 P8R1B2N1Q1 ; 2 2 ; d4 ; 2.2", "holds a figure"),
        ("Qd4 ; Re5 ; P8R2B2N1Q0 P8R1B2N1Q1 ; 3 2 ; - ; 2.1", "swaps"),
        ("Qd4 ; Re5 ; P8R2B2N1Q0 P8R1B2N1Q0 ; 2 2 ; - ; 2.1", "equal"),
        ("Pd4 ; Nc4/se ; P7R2B2N1Q1 P8R2B2N0Q1 ; 2 2 ; - ; 2.1", "stable"),
        ("Qd4 Pd4 ; - ; P7R2B2N1Q0 P8R2B2N1Q1 ; 2 2 ; - ; 3.1", "two figures"),
        ("Nd4 ; Re5 ; P8R2B2N0Q1 P8R1B2N1Q1 ; 2 2 ; - ; 2.1", "facing"),
        ("Qd4 ; Re5 ; P8R2B2N1Q0 P8R1B2N1Q1 ; 2 2 ; 2.1", "six parts"),
    ] {
        let err = Position::parse_position(&defaults, text).unwrap_err();
        assert!(err.reason.contains(why), "'{text}': {err}");
    }
    // Parsers accept any order; printers use the canonical one.
    let shuffled = open("Pc5 Qd4 ; Bf6 Re5 ; P7R2B2N1Q0 P8R1B1N1Q1 ; 2 2 ; - ; 3.1");
    assert_eq!(shuffled.format_position(), "Qd4 Pc5 ; Re5 Bf6 ; P7R2B2N1Q0 P8R1B1N1Q1 ; 2 2 ; - ; 3.1");
}

#[test]
fn swap_budget_is_two_per_game_and_one_per_commitment() {
    assert_eq!(SWAPS_PER_GAME, 2);
    let mut pos = open("Qc3 Pf4 ; Rh6 Xa8 ; P7R2B2N1Q0 P7R1B2N1Q1 ; 2 2 ; - ; 3.1");
    pos.play(&pos.parse_move("A:c3<>f4").unwrap()).unwrap();
    let mut moves = Vec::new();
    pos.legal_moves_for(Side::First, &mut moves);
    assert!(moves.iter().all(|m| matches!(m, Move::Figure { .. })), "after a swap comes the figure");
    assert!(pos.play(&pos.parse_move("A:c3<>f4").unwrap()).is_err(), "a second swap in one commitment");
    pos.play(&pos.parse_move("A:P").unwrap()).unwrap();
    pos.play(&pos.parse_move("A:f6").unwrap()).unwrap();
    pos.play_unchecked(&Move::Figure { side: Side::Second, choice: FigureChoice::Pawn });
    pos.play_unchecked(&Move::Target { side: Side::Second, square: parse_square("b6").unwrap() });
    assert_eq!(pos.swaps_left(Side::First), 1);
    pos.play_record_token("c3<>f4 Pc4|Pb5").unwrap();
    assert_eq!(pos.swaps_left(Side::First), 0);
    assert!(pos.play_record_token("c3<>f4 Pe1|Pb4").is_err(), "no swaps left");
}

// ---------------------------------------------------------------------------------------------
// Random playouts with the spec's invariants, and the literal cross-check.

/// The invariants of every reachable position (spec §3, §5, §6.5, §6.6, §7.1).
fn check_invariants(pos: &Position) {
    let text = pos.format_position();
    let literal = literal_influence(&figures(pos));
    assert!(
        pos.influence_map().iter().zip(literal.iter()).all(|(&a, &b)| a as i32 == b),
        "incremental influence differs from the literal sum at {text}"
    );
    for (square, side, _) in figures(pos) {
        let v = literal[square as usize];
        assert!(if side == Side::First { v >= 0 } else { v <= 0 }, "unstable figure at {text}");
    }
    let (sa, sb) = (pos.supply(Side::First), pos.supply(Side::Second));
    assert_eq!(sa.total(), sb.total(), "supplies differ at {text}");
    assert_eq!(pos.turn() as u8, 15 - sa.total(), "turn and supplies disagree at {text}");
    assert_eq!(pos.burned().count_ones() as u16, pos.attempt() - 1, "burns and attempts disagree at {text}");
    assert_eq!(
        pos.burned() & (pos.occupied_by(Side::First) | pos.occupied_by(Side::Second)),
        0,
        "occupied burned square"
    );
    for side in Side::BOTH {
        assert!(pos.swaps_left(side) <= SWAPS_PER_GAME);
        assert!(pos.figure_count(side) + pos.supply(side).total() as u32 <= 14);
    }
    let counts = pos.field_counts();
    assert_eq!(counts.a as u32 + counts.b as u32 + counts.neutral as u32, 64);
    assert_eq!(counts.a as usize, literal.iter().filter(|&&v| v > 0).count(), "A's fields at {text}");
    assert_eq!(counts.b as usize, literal.iter().filter(|&&v| v < 0).count(), "B's fields at {text}");
    assert_eq!(pos.unstable(), 0, "unstable figures at {text}");
    // Hidden information: what B may do never depends on A's staged decisions, and vice versa.
    for viewer in Side::BOTH {
        let (mut now, mut hidden) = (Vec::new(), Vec::new());
        pos.legal_moves_for(viewer, &mut now);
        let mut blind = pos.hidden_from(viewer);
        blind.clear_staged(viewer.opponent());
        blind.legal_moves_for(viewer, &mut hidden);
        assert_eq!(now, hidden, "{viewer:?}'s options depend on the opponent's sealed decisions at {text}");
    }
    let fresh = pos.staged(Side::First).is_empty() && pos.staged(Side::Second).is_empty();
    match pos.status() {
        Status::Over(outcome) => {
            assert!(fresh);
            let ended = (sa.total() == 0 && sb.total() == 0)
                || !literal_has_legal(pos, Side::First)
                || !literal_has_legal(pos, Side::Second);
            assert!(ended, "game over without a reason at {text}");
            let want = match counts.a.cmp(&counts.b) {
                std::cmp::Ordering::Greater => Outcome::Winner(Side::First),
                std::cmp::Ordering::Less => Outcome::Winner(Side::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            assert_eq!(outcome, want);
        }
        Status::Ongoing => {
            assert_eq!(pos.to_move(), Some(ToMove::Both));
            if fresh {
                assert!(literal_has_legal(pos, Side::First) && literal_has_legal(pos, Side::Second));
            }
        }
    }
}

#[test]
fn random_playouts_keep_the_invariants() {
    let start = Position::new(&Default::default());
    let plies = support::conformance::random_playouts(&start, 300, 5_000, check_invariants);
    assert!(plies > 300 * 40, "games are suspiciously short: {plies} decisions in 300 games");
}

/// Positions at the start of attempts, sampled from seeded random games.
fn sample_positions(games: u64, every: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for seed in 0..games {
        let mut rng = seeded(1000 + seed);
        let mut pos = Position::new(&Default::default());
        let mut n = 0;
        while !pos.status().is_over() {
            if pos.staged(Side::First).is_empty() && pos.staged(Side::Second).is_empty() {
                if n % every == 0 {
                    out.push(pos.clone());
                }
                n += 1;
            }
            pos.legal_moves(&mut moves);
            pos.play_unchecked(&moves[pick_index(&mut rng, moves.len())]);
        }
        out.push(pos);
    }
    out
}

#[test]
fn fast_legality_agrees_with_the_literal_rule() {
    let positions = sample_positions(40, 1);
    assert!(positions.len() > 400);
    for pos in &positions {
        for side in Side::BOTH {
            let fast: BTreeSet<String> = pos.legal_commitments(side).iter().map(format_commitment).collect();
            assert_eq!(fast, literal_commitments(pos, side), "commitments of {side:?} at {}", pos.format_position());
            assert_eq!(
                pos.has_legal_commitment(side),
                literal_has_legal(pos, side),
                "has_legal at {}",
                pos.format_position()
            );
            for c in pos.legal_commitments(side) {
                assert!(pos.check_commitment(side, &c).is_ok());
            }
        }
    }
}

#[test]
fn staged_decisions_reach_exactly_the_literal_commitments() {
    for pos in sample_positions(6, 4).iter().filter(|p| !p.status().is_over()) {
        for side in Side::BOTH {
            assert_eq!(staged_commitments(pos, side), literal_commitments(pos, side), "at {}", pos.format_position());
        }
        let engine: BTreeSet<String> = {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            moves.iter().map(|m| pos.format_move(m)).collect()
        };
        assert_eq!(engine, literal_moves(pos), "first decisions at {}", pos.format_position());
    }
}

#[test]
fn swaps_can_be_the_only_way_to_place() {
    // A's only empty squares are all B's; swapping the queen and the pawn opens f6 (example 7's
    // board with every other square made hostile is hard to build, so use the legal-target sets).
    let pos = open("Qc3 Pf4 ; Rh6 Xa8 ; P7R2B2N1Q0 P7R1B2N1Q1 ; 2 2 ; - ; 3.1");
    let f6 = parse_square("f6").unwrap();
    assert_eq!(pos.legal_targets(Side::First, None) & (1u64 << f6), 0);
    let c3 = parse_square("c3").unwrap();
    let f4 = parse_square("f4").unwrap();
    assert_ne!(pos.legal_targets(Side::First, Some((c3, f4))) & (1u64 << f6), 0);
}

// ---------------------------------------------------------------------------------------------
// Perft over staged decisions, from data committed in tests/perft/hidden_intention.txt.

fn perft_data() -> Vec<(String, Vec<(u32, u64)>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/hidden_intention.txt");
    let text = std::fs::read_to_string(path).expect("perft data");
    let mut out: Vec<(String, Vec<(u32, u64)>)> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(p) = line.strip_prefix("position ") {
            out.push((p.trim().to_string(), Vec::new()));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut w = rest.split_whitespace().map(|x| x.parse::<u64>().expect("number"));
            let (depth, count) = (w.next().unwrap() as u32, w.next().unwrap());
            out.last_mut().expect("a position before its perft lines").1.push((depth, count));
        }
    }
    out
}

#[test]
fn perft_counts_match_the_committed_data() {
    let data = perft_data();
    assert!(data.len() >= 3);
    for (text, counts) in data {
        let pos = if text == "start" { Position::new(&Default::default()) } else { open(&text) };
        for (depth, count) in counts {
            assert_eq!(perft(&pos, depth), count, "perft {depth} of {text}");
        }
    }
}

#[test]
fn perft_counts_agree_with_the_literal_move_rule() {
    for (text, counts) in perft_data() {
        let pos = if text == "start" { Position::new(&Default::default()) } else { open(&text) };
        for (depth, count) in counts.into_iter().filter(|&(_, c)| c <= 20_000) {
            assert_eq!(literal_perft(&pos, depth), count, "literal perft {depth} of {text}");
        }
    }
}

#[test]
fn zobrist_follows_the_position_not_the_order_of_decisions() {
    let start = Position::new(&Default::default());
    let mut by_token = start.clone();
    by_token.play_record_token("Qd4|Re5").unwrap();
    let mut interleaved = start.clone();
    for text in ["B:R", "A:Q", "B:e5", "A:d4"] {
        interleaved.play(&interleaved.parse_move(text).unwrap()).unwrap();
    }
    assert_eq!(by_token.zobrist(), interleaved.zobrist());
    assert_eq!(by_token.zobrist(), open(&by_token.format_position()).zobrist());
    assert_ne!(start.zobrist(), by_token.zobrist());
    let mut staged = start.clone();
    staged.play(&staged.parse_move("A:Q").unwrap()).unwrap();
    assert_ne!(staged.zobrist(), start.zobrist(), "staged decisions are part of the search state");
}

// ---------------------------------------------------------------------------------------------
// Game record (spec §8.3).

#[test]
fn spec_record_replays_to_the_state_after_example_2() {
    use stoneyard::games::hidden_intention::parse_record;
    let text = "[Game \"Hidden Intention\"]\n[White \"name of A\"]\n[Black \"name of B\"]\n\
                1.1 Qd4 | Re5\n2.1 Pc6 | Xc6 {burn c6}\n2.2 Pc5 | Bf6\n";
    let record = parse_record(text).unwrap();
    assert_eq!(record.tokens, vec!["Qd4 | Re5", "Pc6 | Xc6", "Pc5 | Bf6"]);
    assert_eq!(record.tags[1], ("White".to_string(), "name of A".to_string()));
    assert_eq!(record.position.format_position(), "Qd4 Pc5 ; Re5 Bf6 ; P7R2B2N1Q0 P8R1B1N1Q1 ; 2 2 ; - ; 3.1");
    assert!(!record.position.status().is_over());
    // The same record with an unfinished-game result tag, and written back by the formatter.
    assert!(parse_record(&format!("{text}[Result \"*\"]")).is_ok());
    let tokens: Vec<String> = ["Qd4|Re5", "Pc6|Xc6", "Pc5|Bf6"].map(String::from).to_vec();
    let written = stoneyard::games::hidden_intention::format_record("name of A", "name of B", &tokens).unwrap();
    assert_eq!(written, text.trim_end());
}

/// A seeded random game as record tokens (each side picks one of its legal commitments).
fn random_attempts(seed: u64) -> Vec<String> {
    use stoneyard::rules::LegalTokens;
    let mut rng = seeded(4242 + seed);
    let mut pos = Position::new(&Default::default());
    let mut tokens = Vec::new();
    while !pos.status().is_over() {
        let LegalTokens::PerSide(a, b) = pos.legal_record_tokens() else { panic!("not a simultaneous node") };
        let token = format!("{}|{}", a[pick_index(&mut rng, a.len())], b[pick_index(&mut rng, b.len())]);
        pos.play_record_token(&token).unwrap();
        tokens.push(token);
    }
    tokens
}

#[test]
fn records_of_random_games_round_trip() {
    use stoneyard::games::hidden_intention::{format_record, parse_record, result_text};
    for seed in 0..12 {
        let tokens = random_attempts(seed);
        let text = format_record("Ann \"the bold\"", "Bo\\b", &tokens).unwrap();
        let record = parse_record(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let mut replay = Position::new(&Default::default());
        for t in &tokens {
            replay.play_record_token(t).unwrap();
        }
        assert_eq!(record.position, replay, "seed {seed}");
        assert!(record.position.status().is_over());
        assert!(text.ends_with(&format!("[Result \"{}\"]", result_text(&replay).unwrap())));
        assert_eq!(record.tags[1].1, "Ann \"the bold\"");
        assert_eq!(record.tags[2].1, "Bo\\b");
        let again = format_record("Ann \"the bold\"", "Bo\\b", &record.tokens).unwrap();
        assert_eq!(again, text, "seed {seed}");
        let mut closed = tokens.clone();
        closed.push("-- | --".to_string());
        assert_eq!(format_record("Ann \"the bold\"", "Bo\\b", &closed).unwrap(), text, "closing token");
        // A cut-off record is an unfinished game without a result.
        let half = &tokens[..tokens.len() / 2];
        let cut = parse_record(&format_record("a", "b", half).unwrap()).unwrap();
        assert!(!cut.position.status().is_over());
        assert_eq!(cut.tokens.len(), half.len());
    }
}

#[test]
fn malformed_records_are_refused_with_the_attempt_named() {
    use stoneyard::games::hidden_intention::parse_record;
    let err = |text: &str| parse_record(text).unwrap_err().to_string();
    assert!(
        err("1.1 Qd4 | Re5\n2.1 Qc6 | Xc6").contains("attempt 2.1 (line 2)"),
        "{}",
        err("1.1 Qd4 | Re5\n2.1 Qc6 | Xc6")
    );
    assert!(err("1.1 Qd4 | Re5\n2.2 Pc6 | Xc6").contains("out of order"));
    assert!(err("1.1 Qd4 Re5").contains("attempt 1.1"));
    assert!(err("1.1 Qd4 | Rz9").contains("attempt 1.1"));
    assert!(err("x.1 Qd4 | Re5").contains("line 1"));
    assert!(err("1.1").contains("line 1"));
    assert!(err("[White name]").contains("tag"));
    assert!(err("[White \"A\"").contains("tag"));
    assert!(err("[Game \"Gravel\"]").contains("not of Hidden Intention"));
    assert!(err("1.1 Qd4 | Re5 {burn").contains("comment"));
    assert!(err("1.1 Qd4 | Re5\n[Result \"A 30 B 25\"]").contains("not over"));
    assert!(err("1.1 Qd4 | Re5\n[Result \"*\"]\n2.1 Pc6 | Xc6").contains("after the Result"));
    assert!(err("1.1 -- | --").contains("still on"));
    for text in ["", "\n\n", "[", "{", "}", "1.", ".", "1.1 |", "1.1 | | |", "99999999.1 Qd4|Re5", "[Result \"\"]"] {
        let _ = parse_record(text);
    }
    assert!(parse_record("").unwrap().tokens.is_empty());
}

/// Hidden Intention has no options: any option given with a position, such as a board, is
/// refused by its name rather than ignored.
#[test]
fn an_option_given_with_a_position_is_refused() {
    let game = GameKind::named("hidden-intention");
    let start = "- ; - ; P8R2B2N1Q1 P8R2B2N1Q1 ; 2 2 ; - ; 1.1";
    let board = [("board".to_string(), "10x10".to_string())];
    let e = stoneyard::games::open(game, &board, Some(start)).err().expect("an option of a game without options");
    assert!(e.to_string().contains("unknown option 'board'"), "{e}");
    assert!(stoneyard::games::open(game, &[], Some(start)).is_ok());
}
