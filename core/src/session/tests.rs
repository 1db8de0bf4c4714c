//! The match's commands: pie swap with undo and redo across it, resignation and its withdrawal,
//! the clock's ending, going to a move and back, Hidden Intention's visibility rule, refusals
//! that change nothing, and the record grown one decision at a time against the record grouped
//! from the start.

use super::*;
use crate::games::GameKind;
use crate::rules::{Outcome, pick_index, seeded};

fn quick(slug: &str) -> Match {
    let kind = GameKind::named(slug);
    Match::open(kind, &kind.quick_pairs(), None).unwrap()
}

/// The seat that acts now (the first with a decision at a simultaneous node).
fn acting(m: &Match) -> Option<Side> {
    Side::BOTH.into_iter().find(|&s| !m.legal_for(s).is_empty())
}

#[test]
fn a_pie_swap_exchanges_the_seats_colours_and_undo_and_redo_cross_it() {
    let mut m = quick("red-stone");
    let first = m.legal_for(Side::First)[0].clone();
    m.decide(Side::First, &first, 10).unwrap();
    let swap = m.legal_for(Side::Second).into_iter().find(|d| d == "swap").expect("the pie swap is offered");
    let decided = m.decide(Side::Second, &swap, 20).unwrap();
    assert!(decided.seats_swapped && m.seats_swapped());
    // Seat Second now plays the first colour; the first colour moves next... the creator's seat
    // plays the second colour and is to move.
    assert_eq!(m.side_of(Side::Second), Side::First);
    assert_eq!(m.seat_of(Side::First), Side::Second);
    assert_eq!(m.played()[1], Played { decision: swap.clone(), seat: Side::Second, side: Side::Second, at_ms: 20 });
    let next_seat = acting(&m).unwrap();
    assert_eq!(
        m.side_of(next_seat),
        match m.position().to_move() {
            Some(ToMove::One(side)) => side,
            other => panic!("{other:?}"),
        }
    );
    let text = m.position().position_text();
    assert_eq!(m.undo().unwrap(), Happened::Stepped { from: 2, to: 1 });
    assert!(!m.seats_swapped());
    assert_eq!(m.side_of(Side::Second), Side::Second);
    assert_eq!(m.redo().unwrap(), Happened::Stepped { from: 1, to: 2 });
    assert!(m.seats_swapped());
    assert_eq!(m.position().position_text(), text);
    assert_eq!(m.played()[1].at_ms, 20, "a redone decision keeps its time");
}

#[test]
fn a_resignation_ends_the_match_and_undo_withdraws_it() {
    let mut m = quick("gravel");
    let d = m.legal_for(Side::First)[0].clone();
    m.decide(Side::First, &d, 0).unwrap();
    m.resign(Side::Second).unwrap();
    assert!(m.is_over());
    assert!(m.legal_for(Side::First).is_empty());
    let result = m.result().unwrap();
    assert_eq!(result["winner"], serde_json::json!(m.position().side_name(Side::First)));
    assert_eq!(result["reason"], "resignation");
    assert_eq!(m.end(), Some(MatchEnd { winner: Some(Side::First), how: EndKind::Resignation }));
    assert_eq!(m.resign(Side::First), Err(Refusal("the game is over".into())));
    assert_eq!(m.undo().unwrap(), Happened::ResignationWithdrawn);
    assert!(!m.is_over() && m.end().is_none());
    assert_eq!(m.len(), 1, "withdrawing the resignation takes back no decision");
}

#[test]
fn the_clock_ends_the_match_for_good_and_its_result_is_the_match_s() {
    let mut m = quick("red-stone");
    let d = m.legal_for(Side::First)[0].clone();
    m.decide(Side::First, &d, 0).unwrap();
    let why = "White ran out of time".to_string();
    assert_eq!(
        m.apply(Command::EndOnTime { winner: Some(Side::First), why: why.clone() }).unwrap(),
        Happened::EndedOnTime { winner: Some(Side::First) }
    );
    assert!(m.is_over() && m.legal_for(Side::Second).is_empty());
    assert_eq!(m.stopped(), Some(&Stopped::OnTime { winner: Some(Side::First), why }));
    assert_eq!(m.resigned(), None);
    let result = m.result().unwrap();
    assert_eq!(result["winner"], serde_json::json!(m.position().side_name(Side::First)));
    assert_eq!(result["reason"], "time");
    assert_eq!(m.end(), Some(MatchEnd { winner: Some(Side::First), how: EndKind::Time }));
    // Nothing takes it back or ends it again; a replay's jump keeps it.
    assert_eq!(m.undo(), Err(Refusal("the clock ended the game".into())));
    assert_eq!(m.resign(Side::Second), Err(Refusal("the game is over".into())));
    m.go_to(0);
    assert!(m.is_over());
    // A draw on time.
    let mut drawn = quick("red-stone");
    drawn.end_on_time(None, "Black left the game".into()).unwrap();
    assert_eq!(drawn.result(), Some(serde_json::json!("draw")));
    assert_eq!(drawn.end(), Some(MatchEnd { winner: None, how: EndKind::Time }));
}

#[test]
fn going_to_a_move_and_back_restores_every_position() {
    let mut m = quick("inchworm");
    let mut rng = seeded(3);
    let mut texts = vec![m.position().position_text()];
    for _ in 0..30 {
        let Some(seat) = acting(&m) else { break };
        let legal = m.legal_for(seat);
        m.decide(seat, &legal[pick_index(&mut rng, legal.len())], 0).unwrap();
        texts.push(m.position().position_text());
    }
    let n = m.len();
    assert_eq!(m.go_to(5), Happened::Stepped { from: n, to: 5 });
    assert_eq!(m.position().position_text(), texts[5]);
    assert_eq!(m.redo_len(), n - 5);
    assert_eq!(m.go_to(n + 10), Happened::Stepped { from: 5, to: n });
    assert_eq!(m.position().position_text(), texts[n]);
    m.go_to(0);
    assert_eq!(m.position().position_text(), texts[0]);
    assert!(m.record_moves().is_empty());
}

#[test]
fn a_refused_command_changes_nothing() {
    let mut m = quick("red-stone");
    let before = m.position().position_text();
    let d = m.legal_for(Side::First)[0].clone();
    assert!(m.decide(Side::Second, &d, 0).is_err(), "not the second seat's turn");
    assert!(m.decide(Side::First, "zz99", 0).is_err());
    // Only a decision as the game writes it: the same point in other letters is refused, so the
    // match's decisions are always the legal list's.
    let other_case = if d.to_lowercase() == d { d.to_uppercase() } else { d.to_lowercase() };
    assert!(m.decide(Side::First, &other_case, 0).is_err(), "{other_case}");
    assert!(m.decide(Side::First, &format!(" {d}"), 0).is_err());
    assert!(m.undo().is_err() && m.redo().is_err());
    assert_eq!((m.len(), m.position().position_text(), m.seats_swapped()), (0, before, false));
    m.decide(Side::First, &d, 0).unwrap();
    let after = m.position().position_text();
    assert!(m.decide(Side::First, &d, 0).is_err());
    assert_eq!((m.len(), m.position().position_text()), (1, after));
}

#[test]
fn sealed_commitments_are_seen_by_their_seat_alone_until_both_are_in() {
    let mut m = quick("hidden-intention");
    // A enters its commitment decision by decision.
    while let Some(d) = m.legal_for(Side::First).first().cloned() {
        m.decide(Side::First, &d, 0).unwrap();
    }
    let a = m.len();
    assert!(a >= 2);
    assert_eq!(m.sealed_from(), Some(0));
    for i in 0..a {
        assert!(m.may_see(i, Viewer::Seat(Side::First)));
        assert!(!m.may_see(i, Viewer::Seat(Side::Second)), "B must not see A's decision {i}");
        assert!(!m.may_see(i, Viewer::Spectator), "nor a spectator or the hand-over screen");
    }
    assert_eq!(m.public_len(Viewer::Spectator), 0);
    assert_eq!(m.view(Viewer::Seat(Side::Second)).filter(Option::is_none).count(), a);
    // B's commitment reveals both.
    let mut revealed = None;
    while revealed.is_none() {
        let d = m.legal_for(Side::Second).last().cloned().expect("B can commit");
        revealed = m.decide(Side::Second, &d, 0).unwrap().revealed;
    }
    assert_eq!(revealed, Some(0..m.len()));
    assert_eq!(m.sealed_from(), None);
    for viewer in [Viewer::Seat(Side::First), Viewer::Seat(Side::Second), Viewer::Spectator] {
        assert_eq!(m.public_len(viewer), m.len());
    }
}

#[test]
fn a_seats_position_leaves_out_the_other_seats_sealed_decisions() {
    let mut m = quick("hidden-intention");
    let fresh = m.position().clone_box();
    while let Some(d) = m.legal_for(Side::First).first().cloned() {
        m.decide(Side::First, &d, 0).unwrap();
    }
    let b_first = m.legal_for(Side::Second)[0].clone();
    m.decide(Side::Second, &b_first, 0).unwrap();
    // B knows its own staged decision and nothing of A's sealed commitment.
    let for_b = m.position_for(Viewer::Seat(Side::Second));
    assert_eq!(for_b.legal_decisions(Side::First), fresh.legal_decisions(Side::First));
    let mut b_only = fresh.clone_box();
    b_only.play_decision(&b_first).unwrap();
    assert_eq!(for_b.legal_decisions(Side::Second), b_only.legal_decisions(Side::Second));
    // A knows its sealed commitment (nothing left to decide) and nothing of B's decision.
    let for_a = m.position_for(Viewer::Seat(Side::First));
    assert!(for_a.legal_decisions(Side::First).is_empty());
    assert_eq!(for_a.legal_decisions(Side::Second), fresh.legal_decisions(Side::Second));
    // A spectator knows neither.
    let public = m.position_for(Viewer::Spectator);
    for side in Side::BOTH {
        assert_eq!(public.legal_decisions(side), fresh.legal_decisions(side));
    }
    // Outside a simultaneous node everyone knows the position as it is.
    let red = quick("red-stone");
    assert_eq!(red.position_for(Viewer::Spectator).position_text(), red.position().position_text());
}

#[test]
fn the_record_grown_decision_by_decision_is_the_record_of_the_whole_game() {
    for (i, kind) in GameKind::all().enumerate() {
        let mut m = Match::open(kind, &kind.quick_pairs(), None).unwrap();
        let mut rng = seeded(50 + i as u64);
        for step in 0..400 {
            let Some(seat) = acting(&m) else { break };
            let legal = m.legal_for(seat);
            m.decide(seat, &legal[pick_index(&mut rng, legal.len())], 0).unwrap();
            if step % 7 == 3 {
                // An undo and a redo on the way leave the record as it was.
                m.undo().unwrap();
                m.redo().unwrap();
            }
            let decisions: Vec<String> = m.decisions().map(str::to_string).collect();
            let whole = m.start().record_tokens(&decisions).unwrap();
            assert_eq!(m.record_moves(), whole.moves.as_slice(), "{} after {} decisions", kind.slug(), m.len());
            assert_eq!(m.pending(), whole.pending);
        }
    }
}

#[test]
fn loading_replays_every_decision_and_names_the_first_bad_one() {
    let mut m = quick("throngs");
    let mut rng = seeded(8);
    for _ in 0..20 {
        let Some(seat) = acting(&m) else { break };
        let legal = m.legal_for(seat);
        m.decide(seat, &legal[pick_index(&mut rng, legal.len())], 5).unwrap();
    }
    let decisions: Vec<(&str, u64)> = m.played().iter().map(|p| (p.decision.as_str(), p.at_ms)).collect();
    let loaded = Match::load(m.start().clone_box(), decisions.iter().copied()).unwrap();
    assert_eq!(loaded.played(), m.played());
    assert_eq!(loaded.position().position_text(), m.position().position_text());
    let mut bad = decisions.clone();
    bad[3].0 = "nonsense";
    let err = Match::load(m.start().clone_box(), bad).err().unwrap();
    assert_eq!((err.index, err.decision.as_str()), (4, "nonsense"), "{err}");
}

#[test]
fn a_match_the_rules_ended_says_who_won_by_them() {
    let mut m = quick("tic-tac-toe");
    while !m.is_over() {
        assert_eq!(m.end(), None);
        let seat = Side::BOTH.into_iter().find(|&s| !m.legal_for(s).is_empty()).unwrap();
        let d = m.legal_for(seat)[0].clone();
        m.decide(seat, &d, 0).unwrap();
    }
    let winner = match m.position().status() {
        Status::Over(Outcome::Winner(side)) => Some(side),
        _ => None,
    };
    assert_eq!(m.end(), Some(MatchEnd { winner, how: EndKind::Rules }));
    assert_eq!(m.result(), Some(status_json(m.position())));
}
