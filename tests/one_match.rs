//! One game in progress, however it is held: random games of every registry game played as the
//! app's match (`session::Match`), the server's table and the arena reach the same positions, the
//! same record and the same result from the same decisions.

use std::sync::{Arc, Mutex};
use stoneyard::ai::{Budget, DecideError, Strategy, play_game};
use stoneyard::games::GameKind;
use stoneyard::online::table::{MoveCheck, Table, leaves_commitment_open};
use stoneyard::rules::{GameRng, Notation, Outcome, Side, pick_index, seeded};
use stoneyard::session::{Match, Viewer};

/// A random game as the match plays it: the seat that acts (the first with a decision at a
/// simultaneous node) makes a random legal decision, until the end or `limit` decisions.
fn random_game(kind: GameKind, options: &[(String, String)], rng: &mut GameRng, limit: usize) -> Match {
    let mut m = Match::open(kind, options, None).unwrap();
    while m.len() < limit {
        let Some(seat) = Side::BOTH.into_iter().find(|&s| !m.legal_for(s).is_empty()) else { break };
        let legal = m.legal_for(seat);
        m.decide(seat, &legal[pick_index(rng, legal.len())], 0).unwrap();
    }
    m
}

/// The same decisions through the server's table: each ply a decision, or a whole commitment.
fn through_the_table(kind: GameKind, options: &[(String, String)], game: &Match) -> Table {
    let mut table = Table::new("g".into(), kind, options, "CODE".into()).unwrap();
    let mut trial = Match::open(kind, options, None).unwrap();
    let mut ply: Vec<String> = Vec::new();
    for played in game.played() {
        let open = leaves_commitment_open(trial.position(), &played.decision);
        trial.decide(played.seat, &played.decision, 0).unwrap();
        ply.push(played.decision.clone());
        if !open {
            let text = ply.join(";");
            let n = table.next_ply();
            assert_eq!(table.check_move(played.seat, n, &text), Ok(MoveCheck::New), "{} ply {n}: {text}", kind.slug());
            table.apply(played.seat, text);
            ply.clear();
        }
    }
    table
}

/// A player of the arena that makes the recorded decisions of its seat, in order, and writes
/// down each decision it is asked for.
struct Scripted {
    seat: Side,
    script: Arc<Mutex<Vec<(Side, String)>>>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl<G: Notation + Send + Sync + 'static> Strategy<G> for Scripted {
    fn decide(&mut self, pos: &G, _side: Side, _: &Budget) -> Result<G::Move, DecideError> {
        let mut script = self.script.lock().unwrap();
        let at = script.iter().position(|(seat, _)| *seat == self.seat).ok_or(DecideError::GameOver)?;
        let (_, text) = script.remove(at);
        let m = pos.parse_move(&text).map_err(|_| DecideError::GameOver)?;
        self.asked.lock().unwrap().push(text);
        Ok(m)
    }
}

/// The same decisions through the arena (its seats, its simultaneous moves, its pie swaps): the
/// decisions it asked each seat for, in order, and its outcome by seat.
fn through_the_arena<G: Notation + Send + Sync + Clone + 'static>(game: &Match) -> (Vec<String>, Outcome) {
    let start = game.start().as_any().downcast_ref::<G>().expect("the registry's type").clone();
    let script = Arc::new(Mutex::new(game.played().iter().map(|p| (p.seat, p.decision.clone())).collect::<Vec<_>>()));
    let asked = Arc::new(Mutex::new(Vec::new()));
    let player = |seat| Scripted { seat, script: script.clone(), asked: asked.clone() };
    let (mut a, mut b) = (player(Side::First), player(Side::Second));
    let budget = Budget::iterations(0);
    let (outcome, played) = play_game(&start, [&mut a, &mut b], [&budget, &budget], game.len() as u64);
    let asked = asked.lock().unwrap().clone();
    assert_eq!(played as usize, asked.len());
    (asked, outcome)
}

fn arena_for(game: &Match) -> (Vec<String>, Outcome) {
    macro_rules! by_type {
        ($($game:ty),* $(,)?) => {
            $(if game.kind().slug() == <$game as Notation>::SLUG {
                return through_the_arena::<$game>(game);
            })*
        };
    }
    stoneyard::for_each_game!(by_type);
    panic!("no arena type for {}", game.kind())
}

/// The match's result as the arena counts it: the winning seat.
fn by_seat(game: &Match) -> Option<Outcome> {
    match game.position().status() {
        stoneyard::rules::Status::Ongoing => None,
        stoneyard::rules::Status::Over(Outcome::Winner(side)) => Some(Outcome::Winner(game.seat_of(side))),
        stoneyard::rules::Status::Over(draw) => Some(draw),
    }
}

#[test]
fn the_match_the_table_and_the_arena_agree_on_random_games_of_every_game() {
    let mut played = 0;
    for (i, kind) in GameKind::all().enumerate() {
        let mut option_sets = vec![kind.quick_pairs()];
        if kind.slug() == "throngs" {
            option_sets.push(vec![("opening".into(), "pie".into())]);
        }
        for (j, options) in option_sets.iter().enumerate() {
            for seed in 0..4 {
                let mut rng = seeded(1000 * i as u64 + 100 * j as u64 + seed);
                let limit = if seed == 0 { 5_000 } else { 60 };
                let game = random_game(kind, options, &mut rng, limit);
                played += game.len();
                let what = format!("{} {options:?} seed {seed}", kind.slug());
                // The server's table.
                let table = through_the_table(kind, options, &game);
                assert_eq!(table.game.position().position_text(), game.position().position_text(), "{what}");
                assert_eq!(table.game.record_moves(), game.record_moves(), "{what}");
                assert_eq!(table.game.seats_swapped(), game.seats_swapped(), "{what}");
                assert_eq!(table.ending.as_ref().map(|e| e.result.clone()), game.result(), "{what}");
                let everything: Vec<Option<String>> = table.view(None, 0).into_iter().map(|m| m.decision).collect();
                let sealed = game.view(Viewer::Spectator).filter(Option::is_none).count();
                assert_eq!(everything.iter().filter(|d| d.is_none()).count(), usize::from(sealed > 0), "{what}");
                // The arena (whole games only: it plays on until the end).
                if game.is_over() {
                    let (seen, outcome) = arena_for(&game);
                    assert_eq!(seen, game.decisions().collect::<Vec<_>>(), "{what}");
                    assert_eq!(Some(outcome), by_seat(&game), "{what}");
                }
                // And a loaded copy of the match (saved-game replay, the computer's jobs).
                let loaded =
                    Match::load(game.start().clone_box(), game.played().iter().map(|p| (p.decision.as_str(), p.at_ms)))
                        .unwrap();
                assert_eq!(loaded.position().position_text(), game.position().position_text(), "{what}");
                assert_eq!(loaded.record_moves(), game.record_moves(), "{what}");
            }
        }
    }
    assert!(played > 2_000, "only {played} decisions were played");
}
