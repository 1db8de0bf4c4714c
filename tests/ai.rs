//! The computer opponents on tiny games, and the arena.
//!
//! Tic-tac-toe (the core's toy game), and defined here Nim, a ring walk that never ends, and
//! sealed simultaneous games: rock-paper-scissors and a two-step hidden guess.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use stoneyard::ai::{
    AlphaBeta, ArenaGame, ArenaPlayer, ArenaSeries, ArenaTally, Budget, Calibration, DecideError, Knowledge, Level,
    MctsConfig, RandomStrategy, Searcher, StopReason, Strategy, play_game, run_arena, start_session,
};
use stoneyard::rules::{EffectSink, NoOptions, Notation, Outcome, PlayError, Rules, Side, Status, ToMove};

// ---------------------------------------------------------------------------------------------
// Tic-tac-toe, the core's toy game (cells a1..c3 are 0..8 row by row; First is X).

use stoneyard::games::tic_tac_toe::Position as TicTacToe;

/// A position from a picture such as "XX.|OO.|..." (rows from a1's; X = First).
fn rows(picture: &str) -> TicTacToe {
    TicTacToe::parse_position(&NoOptions, &picture.replace('|', "/")).expect("a tic-tac-toe position")
}

// ---------------------------------------------------------------------------------------------
// Nim, normal play: take any number from one heap; whoever takes the last stone wins.

#[derive(Clone, Debug)]
struct Nim {
    heaps: Vec<u8>,
    next: Side,
}

/// No game knowledge: uniform playouts, draws at the cap.
impl Knowledge for Nim {}

impl Rules for Nim {
    type Move = (u8, u8);
    type Options = NoOptions;

    fn new(_: &NoOptions) -> Self {
        Nim { heaps: vec![3, 4, 5], next: Side::First }
    }
    fn options(&self) -> &NoOptions {
        &NoOptions
    }
    fn to_move(&self) -> Option<ToMove> {
        (!self.status().is_over()).then_some(ToMove::One(self.next))
    }
    fn status(&self) -> Status {
        // The player who just moved took the last stone.
        if self.heaps.iter().all(|&h| h == 0) {
            Status::Over(Outcome::Winner(self.next.opponent()))
        } else {
            Status::Ongoing
        }
    }
    fn legal_moves(&self, out: &mut Vec<(u8, u8)>) {
        out.clear();
        for (heap, &size) in self.heaps.iter().enumerate() {
            out.extend((1..=size).map(|take| (heap as u8, take)));
        }
    }
    fn mover(&self, _m: &(u8, u8)) -> Side {
        self.next
    }
    fn check(&self, &(heap, take): &(u8, u8)) -> Result<(), PlayError> {
        match self.heaps.get(heap as usize) {
            Some(&size) if take >= 1 && take <= size => Ok(()),
            _ => Err(PlayError::new("no such take")),
        }
    }
    fn place(&mut self, &(heap, take): &(u8, u8), _: &mut impl EffectSink) {
        self.heaps[heap as usize] -= take;
        self.next = self.next.opponent();
    }
    fn zobrist(&self) -> u64 {
        // Exercises the Zobrist path of tree reuse (any injective nonzero key will do here).
        self.heaps.iter().fold(1u64 + self.next.index() as u64, |k, &h| k * 31 + h as u64)
    }
}

// ---------------------------------------------------------------------------------------------
// Simultaneous games: each side seals `steps` decisions among `options` values, then the round is
// resolved; after `rounds` rounds the side with more round wins wins. With steps = 1 and options =
// 3 a round is rock-paper-scissors (0 rock, 1 paper, 2 scissors); with steps = 2 and options = 2 it
// is a hidden guess: Second wins the round if its two bits equal First's.

#[derive(Clone, Debug)]
struct Sealed {
    steps: usize,
    options: u8,
    rounds_left: u8,
    /// Rounds won by First minus rounds won by Second.
    score: i8,
    chosen: [Vec<u8>; 2],
}

impl Sealed {
    fn rps() -> Self {
        Sealed { steps: 1, options: 3, rounds_left: 1, score: 0, chosen: [Vec::new(), Vec::new()] }
    }
    fn guess() -> Self {
        Sealed { steps: 2, options: 2, rounds_left: 1, score: 0, chosen: [Vec::new(), Vec::new()] }
    }
    /// The round's result for First: +1, 0 or -1.
    fn round_result(&self) -> i8 {
        let [a, b] = &self.chosen;
        if self.options == 3 {
            match (3 + b[0] - a[0]) % 3 {
                0 => 0,
                1 => -1,
                _ => 1,
            }
        } else if a == b {
            -1
        } else {
            1
        }
    }
}

/// No game knowledge: uniform playouts, draws at the cap.
impl Knowledge for Sealed {}

impl Rules for Sealed {
    type Move = (Side, u8);
    type Options = NoOptions;

    fn new(_: &NoOptions) -> Self {
        Sealed::rps()
    }
    fn options(&self) -> &NoOptions {
        &NoOptions
    }
    fn to_move(&self) -> Option<ToMove> {
        (self.rounds_left > 0).then_some(ToMove::Both)
    }
    fn status(&self) -> Status {
        match (self.rounds_left, self.score.signum()) {
            (1.., _) => Status::Ongoing,
            (0, 1) => Status::Over(Outcome::Winner(Side::First)),
            (0, -1) => Status::Over(Outcome::Winner(Side::Second)),
            _ => Status::Over(Outcome::Draw),
        }
    }
    fn legal_moves(&self, out: &mut Vec<(Side, u8)>) {
        out.clear();
        for side in Side::BOTH {
            if self.rounds_left > 0 && self.chosen[side.index()].len() < self.steps {
                out.extend((0..self.options).map(|v| (side, v)));
            }
        }
    }
    fn legal_moves_for(&self, side: Side, out: &mut Vec<(Side, u8)>) {
        self.legal_moves(out);
        out.retain(|m| m.0 == side);
    }
    fn mover(&self, m: &(Side, u8)) -> Side {
        m.0
    }
    fn check(&self, m: &(Side, u8)) -> Result<(), PlayError> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.contains(m) { Ok(()) } else { Err(PlayError::new("already sealed")) }
    }
    fn place(&mut self, m: &(Side, u8), _: &mut impl EffectSink) {
        self.chosen[m.0.index()].push(m.1);
        if self.chosen.iter().all(|c| c.len() == self.steps) {
            self.score += self.round_result();
            self.rounds_left -= 1;
            self.chosen = [Vec::new(), Vec::new()];
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A game that never ends: a token steps around a ring of four spaces. Its positions repeat, so
// with transpositions the search graph has cycles.

#[derive(Clone, Debug)]
struct Ring {
    at: u8,
    next: Side,
}

/// No game knowledge: uniform playouts, draws at the cap.
impl Knowledge for Ring {}

impl Rules for Ring {
    type Move = bool;
    type Options = NoOptions;

    fn new(_: &NoOptions) -> Self {
        Ring { at: 0, next: Side::First }
    }
    fn options(&self) -> &NoOptions {
        &NoOptions
    }
    fn to_move(&self) -> Option<ToMove> {
        Some(ToMove::One(self.next))
    }
    fn status(&self) -> Status {
        Status::Ongoing
    }
    fn legal_moves(&self, out: &mut Vec<bool>) {
        out.clear();
        out.extend([false, true]);
    }
    fn mover(&self, _m: &bool) -> Side {
        self.next
    }
    fn place(&mut self, clockwise: &bool, _: &mut impl EffectSink) {
        self.at = (self.at + if *clockwise { 1 } else { 3 }) % 4;
        self.next = self.next.opponent();
    }
    fn zobrist(&self) -> u64 {
        1 + u64::from(self.at) * 2 + self.next.index() as u64
    }
}

// ---------------------------------------------------------------------------------------------

fn searcher<R: Rules>(seed: u64) -> Searcher<R> {
    Searcher::new(MctsConfig::default(), seed)
}

#[test]
fn tic_tac_toe_takes_the_immediate_win() {
    let pos = rows("XX.|OO.|...");
    for seed in 0..5 {
        let m = searcher(seed).decide(&pos, Side::First, &Budget::iterations(2_000));
        assert_eq!(m, Ok(2), "seed {seed}");
    }
}

#[test]
fn tic_tac_toe_blocks_the_immediate_loss() {
    let pos = rows("XX.|.O.|...");
    assert_eq!(pos.to_move(), Some(ToMove::One(Side::Second)));
    for seed in 0..5 {
        let m = searcher(seed).decide(&pos, Side::Second, &Budget::iterations(3_000));
        assert_eq!(m, Ok(2), "seed {seed}");
    }
}

/// Plays `games` games of tic-tac-toe between a fresh player from `make_ai` and random play,
/// sides alternating, and checks that the player never loses.
fn never_loses_to_random_play<S: Strategy<TicTacToe>>(games: u64, budget: &Budget, make_ai: impl Fn(u64) -> S) {
    let random_budget = Budget::iterations(0);
    for game in 0..games {
        let mut ai = make_ai(game);
        let mut random = RandomStrategy::new(1_000 + game);
        let start = TicTacToe::new(&NoOptions);
        let (outcome, ai_side) = if game % 2 == 0 {
            (play_game(&start, [&mut ai, &mut random], [budget, &random_budget], 100).0, Side::First)
        } else {
            (play_game(&start, [&mut random, &mut ai], [&random_budget, budget], 100).0, Side::Second)
        };
        assert_ne!(outcome, Outcome::Winner(ai_side.opponent()), "game {game}");
    }
}

#[test]
fn tic_tac_toe_never_loses_to_random_play() {
    never_loses_to_random_play(20, &Budget::iterations(3_000), searcher::<TicTacToe>);
}

#[test]
fn nim_finds_the_only_winning_move() {
    // 2 ^ 3 ^ 4 = 5: only taking 3 from the last heap leaves a zero nim-sum.
    let pos = Nim { heaps: vec![2, 3, 4], next: Side::First };
    for seed in 0..3 {
        let m = searcher(seed).decide(&pos, Side::First, &Budget::iterations(20_000));
        assert_eq!(m, Ok((2, 3)), "seed {seed}");
    }
}

#[test]
fn same_seed_same_decisions() {
    let play = |seed| {
        let mut ai = searcher::<TicTacToe>(seed);
        let mut pos = TicTacToe::new(&NoOptions);
        let mut record = Vec::new();
        while let Some(ToMove::One(side)) = pos.to_move() {
            let m = ai.decide(&pos, side, &Budget::iterations(500)).expect("a decision");
            pos.play(&m).expect("legal");
            ai.observe(&m);
            record.push(m);
        }
        record
    };
    assert_eq!(play(11), play(11));
    let mut nim_a = searcher::<Nim>(5);
    let mut nim_b = searcher::<Nim>(5);
    let pos = Nim { heaps: vec![5, 6, 7, 9], next: Side::First };
    let budget = Budget::iterations(300);
    assert_eq!(nim_a.decide(&pos, Side::First, &budget), nim_b.decide(&pos, Side::First, &budget));
    assert_eq!(nim_a.root_statistics(), nim_b.root_statistics());
}

#[test]
fn the_time_limit_stops_the_search() {
    let pos = Nim { heaps: vec![9, 9, 9, 9], next: Side::First };
    let mut ai = searcher::<Nim>(1);
    ai.begin(&pos, Side::First).expect("First to move");
    let budget = Budget::iterations(u64::MAX).with_time_limit(Duration::from_millis(50));
    let report = ai.think(&budget);
    assert_eq!(report.stopped_by, StopReason::TimeLimit);
    assert!(report.seconds < 2.0 && report.iterations > 0, "{report:?}");
    assert!(pos.is_legal(&ai.choice().expect("a decision")));
}

#[test]
fn the_stop_flag_stops_the_search() {
    let pos = Nim { heaps: vec![9, 9, 9, 9], next: Side::First };
    let stop = Arc::new(AtomicBool::new(false));
    let raiser = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let mut ai = searcher::<Nim>(1);
    ai.begin(&pos, Side::First).expect("First to move");
    let report = ai.think(&Budget::iterations(u64::MAX).with_stop(Arc::clone(&stop)));
    raiser.join().expect("thread");
    assert_eq!(report.stopped_by, StopReason::StopFlag);
    assert!(report.seconds < 5.0, "{report:?}");
    // Asked to move before thinking at all: still a legal decision.
    let m = searcher::<Nim>(2).decide(&pos, Side::First, &Budget::iterations(u64::MAX).with_stop(stop));
    assert!(pos.is_legal(&m.expect("a decision")));
}

#[test]
fn refuses_positions_it_cannot_decide_in() {
    let mut ai = searcher::<TicTacToe>(1);
    let budget = Budget::iterations(10);
    let start = TicTacToe::new(&NoOptions);
    assert_eq!(ai.decide(&start, Side::Second, &budget), Err(DecideError::NotYourTurn));
    let over = rows("XXX|OO.|...");
    assert_eq!(ai.decide(&over, Side::Second, &budget), Err(DecideError::GameOver));
    // A forced decision needs no search.
    let forced = rows("XOX|XOO|OX.");
    assert_eq!(ai.decide(&forced, Side::First, &budget), Ok(8));
}

#[test]
fn the_tree_is_kept_for_the_observed_line() {
    let mut ai = searcher::<TicTacToe>(3);
    let mut pos = TicTacToe::new(&NoOptions);
    let mine = ai.decide(&pos, Side::First, &Budget::iterations(5_000)).expect("a decision");
    let size_before = ai.tree_size();
    pos.play(&mine).expect("legal");
    ai.observe(&mine);
    // The opponent answers with the reply the tree knows best.
    let mut reply_search = searcher::<TicTacToe>(4);
    let reply = reply_search.decide(&pos, Side::Second, &Budget::iterations(2_000)).expect("a reply");
    pos.play(&reply).expect("legal");
    ai.observe(&reply);
    ai.begin(&pos, Side::First).expect("First to move");
    assert!(ai.root_visits() > 0, "the subtree after the two decisions was dropped");
    assert!(ai.tree_size() < size_before);
    // Its statistics are those of this position: every root decision is legal here.
    assert!(ai.root_statistics().iter().all(|s| pos.is_legal(&s.mv)));
    assert!(pos.is_legal(&ai.choice().expect("a decision")));
    // A position that does not follow from the observed decisions starts a fresh tree.
    let elsewhere = rows("X..|.O.|..X");
    ai.begin(&elsewhere, Side::Second).expect("Second to move");
    assert_eq!(ai.root_visits(), 0);
    // Zobrist-keyed reuse (Nim has a Zobrist key).
    let mut nim_ai = searcher::<Nim>(1);
    let mut nim = Nim { heaps: vec![2, 3], next: Side::First };
    let m = nim_ai.decide(&nim, Side::First, &Budget::iterations(2_000)).expect("a decision");
    nim.play(&m).expect("legal");
    nim_ai.observe(&m);
    nim_ai.begin(&nim, Side::Second).expect("Second to move");
    assert!(nim_ai.root_visits() > 0);
}

#[test]
fn rock_paper_scissors_is_played_as_a_mixed_strategy() {
    let pos = Sealed::rps();
    let mut counts = [0u32; 3];
    for seed in 0..150 {
        for side in Side::BOTH {
            let m = searcher::<Sealed>(seed).decide(&pos, side, &Budget::iterations(3_000)).expect("a decision");
            assert_eq!(m.0, side);
            counts[m.1 as usize] += 1;
        }
    }
    // 300 decisions: a uniform mix gives about 100 each; a pure strategy would give 300 to one.
    assert!(counts.iter().all(|&c| (60..=145).contains(&c)), "{counts:?}");
    // And the search believes the game is even for the side deciding.
    let mut ai = searcher::<Sealed>(9);
    ai.decide(&pos, Side::Second, &Budget::iterations(5_000)).expect("a decision");
    for stat in ai.root_statistics() {
        assert!(stat.mean.abs() < 0.25, "{stat:?}");
    }
}

#[test]
fn never_reads_the_opponents_sealed_decision() {
    // First has sealed rock. Reading it, Second would always answer paper; the AI refuses instead.
    let mut sealed = Sealed::rps();
    sealed.play(&(Side::First, 0)).expect("legal");
    let mut ai = searcher::<Sealed>(1);
    assert_eq!(ai.decide(&sealed, Side::Second, &Budget::iterations(1_000)), Err(DecideError::OpponentSealed));
    assert_eq!(
        RandomStrategy::new(1).decide(&sealed, Side::Second, &Budget::iterations(0)),
        Err(DecideError::OpponentSealed)
    );
    // It may continue its own commitment while the opponent's is pending.
    let mut own_step = Sealed::guess();
    own_step.play(&(Side::Second, 1)).expect("legal");
    assert!(ai.decide(&own_step, Side::Second, &Budget::iterations(500)).is_ok());

    // Inside the search, the hidden guess (two sealed bits each; Second wins on a match) is worth
    // 1/4 win, 3/4 loss = -0.5 to Second when neither side sees the other's bits. A search in which
    // Second's second bit could depend on First's first bit would rate it near +1.
    let pos = Sealed::guess();
    let mut ai = searcher::<Sealed>(2);
    ai.decide(&pos, Side::Second, &Budget::iterations(20_000)).expect("a decision");
    for stat in ai.root_statistics() {
        assert!((stat.mean + 0.5).abs() < 0.2, "Second's value {stat:?}");
    }
    let mut ai = searcher::<Sealed>(3);
    ai.decide(&pos, Side::First, &Budget::iterations(20_000)).expect("a decision");
    for stat in ai.root_statistics() {
        assert!((stat.mean - 0.5).abs() < 0.2, "First's value {stat:?}");
    }
    // Played through the arena, whose sides choose from positions without the other's bits,
    // Second matches about a quarter of the time.
    let budget = Budget::iterations(1_000);
    let mut second_wins = 0;
    for seed in 0..80 {
        let mut a = searcher::<Sealed>(seed);
        let mut b = searcher::<Sealed>(seed + 1_000);
        if play_game(&pos, [&mut a, &mut b], [&budget, &budget], 10).0 == Outcome::Winner(Side::Second) {
            second_wins += 1;
        }
    }
    assert!((6..=36).contains(&second_wins), "{second_wins} of 80");
}

#[test]
fn arena_hard_beats_random_at_tic_tac_toe() {
    let start = TicTacToe::new(&NoOptions);
    let series = |games, seed| ArenaSeries { games, seed, jobs: 1 };
    let report = run_arena(
        &start,
        "tic-tac-toe",
        &Calibration::GENERIC,
        ArenaPlayer::Level(Level::Random),
        ArenaPlayer::Level(Level::Hard),
        series(8, 7),
        &|_, _| {},
    );
    assert_eq!(report.games, 8);
    assert_eq!(report.a_wins + report.draws + report.b_wins, 8);
    assert_eq!(report.a_wins, 0, "{report:?}");
    assert!(report.b_wins >= 5, "{report:?}");
    assert!(report.elo < -150.0, "{report:?}");
    assert!(report.elo_ci95[0] <= report.elo && report.elo <= report.elo_ci95[1]);
    // Reproducible from the seed.
    let random_vs_easy = || {
        let (random, easy) = (ArenaPlayer::Level(Level::Random), ArenaPlayer::Level(Level::Easy));
        run_arena(&start, "tic-tac-toe", &Calibration::GENERIC, random, easy, series(4, 3), &|_, _| {})
    };
    assert_eq!(random_vs_easy(), random_vs_easy());
    let json = serde_json::to_value(&report).expect("serialises");
    for key in ["game", "a", "b", "games", "a_wins", "draws", "b_wins", "elo", "elo_ci95"] {
        assert!(json.get(key).is_some(), "{key}");
    }
}

#[test]
fn arena_on_several_threads_reports_every_game_and_the_same_tally() {
    let start = TicTacToe::new(&NoOptions);
    let heard = std::sync::Mutex::new(Vec::<(ArenaGame, ArenaTally)>::new());
    let listen = |game: &ArenaGame, tally: &ArenaTally| heard.lock().unwrap().push((*game, *tally));
    let one = run_arena(
        &start,
        "tic-tac-toe",
        &Calibration::GENERIC,
        ArenaPlayer::Level(Level::Random),
        ArenaPlayer::Level(Level::Easy),
        ArenaSeries { games: 9, seed: 5, jobs: 1 },
        &listen,
    );
    let heard_one = std::mem::take(&mut *heard.lock().unwrap());
    let three = run_arena(
        &start,
        "tic-tac-toe",
        &Calibration::GENERIC,
        ArenaPlayer::Level(Level::Random),
        ArenaPlayer::Level(Level::Easy),
        ArenaSeries { games: 9, seed: 5, jobs: 3 },
        &listen,
    );
    assert_eq!(one, three, "the result does not depend on the number of threads");
    let mut heard_three = heard.into_inner().unwrap();
    // Each game is heard once, with a running tally one game longer than the last.
    for heard in [&heard_one, &heard_three] {
        assert_eq!(heard.len(), 9);
        for (i, (game, tally)) in heard.iter().enumerate() {
            assert_eq!(tally.games() as usize, i + 1);
            assert!(game.decisions >= 5 && game.decisions <= 9, "{game:?}");
            // Each player was asked for its own decisions, and took some time over them.
            assert_eq!(game.asked[0] + game.asked[1], game.decisions, "{game:?}");
            assert!(game.seconds.iter().all(|s| *s >= 0.0) && game.seconds[1] > 0.0, "{game:?}");
            let a_side = if game.number.is_multiple_of(2) { Side::First } else { Side::Second };
            assert_eq!(game.a_side, a_side);
        }
        let last = heard[8].1;
        assert_eq!((last.a_wins, last.draws, last.b_wins), (one.a_wins, one.draws, one.b_wins));
    }
    // The same games, whatever order they finished in.
    heard_three.sort_by_key(|(game, _)| game.number);
    let games = |heard: &[(ArenaGame, ArenaTally)]| {
        heard.iter().map(|(g, _)| (g.number, g.a_side, g.outcome, g.decisions, g.asked)).collect::<Vec<_>>()
    };
    assert_eq!(games(&heard_one), games(&heard_three));
}

#[test]
fn sessions_think_in_slices_move_now_and_play_the_arena() {
    let pos = rows("XX.|OO.|...");
    let generic = Calibration::GENERIC;
    let decide = |side, level| -> Result<String, DecideError> {
        let mut session = start_session(&pos, side, level, &generic, 1, None)?;
        while !session.think(u64::MAX) {}
        Ok(session.decision())
    };
    assert_eq!(decide(Side::First, Level::Easy), Ok("c1".to_string()));
    assert!(matches!(decide(Side::Second, Level::Hard), Err(DecideError::NotYourTurn)));
    // Thinking in slices, as the web build does once per frame.
    let mut session = start_session(&pos, Side::First, Level::Medium, &generic, 1, None).expect("First to move");
    let mut slices = 0;
    while !session.think(100) {
        slices += 1;
        assert!(slices < 1_000, "the level's budget never ran out");
    }
    assert!(slices >= 10, "{slices} slices of 100 for Medium");
    assert_eq!(session.decision(), "c1");
    // "Move now": a raised flag ends thinking at once with a legal decision.
    let stop = Arc::new(AtomicBool::new(true));
    let mut session = start_session(&pos, Side::First, Level::Hard, &generic, 1, Some(stop)).expect("First to move");
    assert!(session.think(u64::MAX));
    let decision = pos.parse_move(&session.decision()).expect("a cell name");
    assert!(pos.is_legal(&decision));
    let random = decide(Side::First, Level::Random).expect("a decision");
    assert!(["c1", "c2", "a3", "b3", "c3"].contains(&random.as_str()));

    let report = run_arena(
        &TicTacToe::new(&NoOptions),
        "tic-tac-toe",
        &generic,
        ArenaPlayer::Level(Level::Hard),
        ArenaPlayer::Level(Level::Random),
        ArenaSeries { games: 4, seed: 1, jobs: 1 },
        &|_, _| {},
    );
    assert_eq!((report.game.as_str(), report.a.as_str(), report.b.as_str()), ("tic-tac-toe", "hard", "random"));
    assert_eq!(report.b_wins, 0, "{report:?}");
}

#[test]
fn the_tree_is_kept_through_a_simultaneous_node() {
    let mut pos = Sealed { rounds_left: 3, ..Sealed::guess() };
    let mut ai = searcher::<Sealed>(5);
    let budget = Budget::iterations(20_000);
    let mine = ai.decide(&pos, Side::Second, &budget).expect("a decision");
    let mut own = pos.clone();
    own.play(&mine).expect("legal");
    // Second's own second bit, decided from a position holding only its own first bit.
    let mine_too = ai.decide(&own, Side::Second, &budget).expect("a decision");
    // The round is revealed: First's bits, then Second's.
    for m in [(Side::First, 1), (Side::First, 0), mine, mine_too] {
        pos.play(&m).expect("legal");
        ai.observe(&m);
    }
    assert_eq!(pos.rounds_left, 2);
    // The decision for the own second bit started a fresh tree (its root held a sealed bit of
    // Second's that First's search must not know), so this cannot reuse; a fresh searcher that
    // observed the whole round from the start can.
    let mut fresh = searcher::<Sealed>(6);
    let start = Sealed { rounds_left: 3, ..Sealed::guess() };
    fresh.decide(&start, Side::First, &budget).expect("a decision");
    for m in [(Side::First, 1), (Side::First, 0), mine, mine_too] {
        fresh.observe(&m);
    }
    fresh.begin(&pos, Side::First).expect("First to decide");
    assert!(fresh.root_visits() > 0, "the subtree after the joint step was dropped");
    assert!(fresh.root_statistics().iter().all(|s| s.mv.0 == Side::First && s.visits > 0));
    assert!(pos.is_legal(&fresh.choice().expect("a decision")));
}

#[test]
fn transpositions_share_nodes_and_cycles_end() {
    let pos = Nim { heaps: vec![2, 3, 4], next: Side::First };
    let budget = Budget::iterations(20_000);
    let mut shared = searcher::<Nim>(1);
    let mut plain = Searcher::<Nim>::new(MctsConfig { transpositions: false, ..MctsConfig::default() }, 1);
    assert_eq!(shared.decide(&pos, Side::First, &budget), Ok((2, 3)));
    assert_eq!(plain.decide(&pos, Side::First, &budget), Ok((2, 3)));
    // Nim [2, 3, 4] has 3 * 4 * 5 * 2 = 120 positions; the plain tree repeats them.
    assert!(shared.tree_size() <= 120 && plain.tree_size() > 1_000, "{} {}", shared.tree_size(), plain.tree_size());
    // A game whose positions repeat for ever: the search still ends and answers.
    let mut ring = searcher::<Ring>(1);
    let report = {
        ring.begin(&Ring::new(&NoOptions), Side::First).expect("First to move");
        ring.think(&Budget::iterations(2_000))
    };
    assert_eq!(report.iterations, 2_000);
    assert!(ring.tree_size() <= 8);
    assert!(ring.choice().is_some());
}

/// Release-build throughput on the toy games: `cargo test --release --no-default-features --test ai
/// -- --ignored --nocapture`.
#[test]
#[ignore = "a speed report (release build, by hand): speed is measured by make bench, not by tests"]
fn iterations_per_second() {
    let measure = |name: &str, strategy: &mut dyn Strategy<TicTacToe>| {
        let start = std::time::Instant::now();
        strategy.decide(&TicTacToe::new(&NoOptions), Side::First, &Budget::iterations(200_000)).expect("a decision");
        eprintln!("tic-tac-toe, {name}: {:.0} iterations/s", 200_000.0 / start.elapsed().as_secs_f64());
    };
    measure(
        "uniform playouts",
        stoneyard::ai::strategy_for::<TicTacToe>(Level::Medium, &Calibration::GENERIC, 1).as_mut(),
    );
    measure(
        "decisive playouts",
        stoneyard::ai::strategy_for::<TicTacToe>(Level::Hard, &Calibration::GENERIC, 1).as_mut(),
    );
    let start = std::time::Instant::now();
    searcher::<Sealed>(1).decide(&Sealed::guess(), Side::First, &Budget::iterations(200_000)).expect("a decision");
    eprintln!("hidden guess (simultaneous): {:.0} iterations/s", 200_000.0 / start.elapsed().as_secs_f64());
}

// ---------------------------------------------------------------------------------------------
// The arena follows the seats through a pie swap.

mod arena_seats {
    use super::*;
    use std::sync::Mutex;
    use stoneyard::games::red_stone::{Move, Position, RedStoneOptions};

    /// Plays `swap` whenever it may, otherwise the first legal decision, and logs each side it
    /// was asked to decide for.
    struct Logger<'a> {
        seat: usize,
        log: &'a Mutex<Vec<(usize, Side)>>,
    }

    impl Strategy<Position> for Logger<'_> {
        fn decide(&mut self, pos: &Position, side: Side, _: &Budget) -> Result<Move, DecideError> {
            self.log.lock().unwrap().push((self.seat, side));
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            Ok(moves.iter().find(|m| **m == Move::Swap).copied().unwrap_or(moves[0]))
        }
    }

    #[test]
    fn after_a_swap_each_seat_plays_the_other_colour_and_wins_are_counted_by_seat() {
        let start = Position::new(&RedStoneOptions::with_size(5).unwrap());
        let log = Mutex::new(Vec::new());
        let (mut a, mut b) = (Logger { seat: 0, log: &log }, Logger { seat: 1, log: &log });
        let budget = Budget::iterations(1);
        let (outcome, decisions) = play_game(&start, [&mut a, &mut b], [&budget, &budget], 500);
        let log = log.into_inner().unwrap();
        assert_eq!(decisions, log.len() as u64, "every decision asked for was played and counted");
        assert_eq!(&log[..3], &[(0, Side::First), (1, Side::Second), (0, Side::Second)]);
        // From the swap on, seat 0 plays White and seat 1 Black.
        assert!(log[2..].iter().all(|&(seat, side)| side.index() != seat));
        // The winning colour is reported as the seat that played it: replay the decisions.
        let mut replay = start.clone();
        for (seat, side) in &log {
            let mut moves = Vec::new();
            replay.legal_moves(&mut moves);
            assert_eq!(replay.to_move(), Some(ToMove::One(*side)), "seat {seat}");
            let m = moves.iter().find(|m| **m == Move::Swap).copied().unwrap_or(moves[0]);
            replay.play(&m).unwrap();
        }
        let Status::Over(Outcome::Winner(colour)) = replay.status() else { panic!("not over: {outcome:?}") };
        assert_eq!(outcome, Outcome::Winner(colour.opponent()), "the seats swapped colours");
    }
}

#[test]
fn alpha_beta_takes_the_win_blocks_the_loss_and_never_loses_to_random_play() {
    let budget = Budget::iterations(100_000);
    let mut ai = AlphaBeta::new(3);
    // X to move wins at 2; O to move must block at 2 (its own win is not there).
    assert_eq!(ai.decide(&rows("XX.|OO.|..."), Side::First, &budget), Ok(2));
    assert_eq!(ai.decide(&rows("XX.|O..|..."), Side::Second, &budget), Ok(2));
    assert!(ai.last_depth >= 1);
    // The whole tree fits the budget, so the search proves the result and stops deepening.
    assert!(ai.last_depth < 10, "{}", ai.last_depth);
    never_loses_to_random_play(10, &budget, AlphaBeta::new);
}

#[test]
fn alpha_beta_is_reproducible_obeys_its_budget_and_declines_simultaneous_nodes() {
    let start = TicTacToe::new(&NoOptions);
    let decide = |seed, nodes| AlphaBeta::new(seed).decide(&start, Side::First, &Budget::iterations(nodes));
    assert_eq!(decide(9, 2_000), decide(9, 2_000));
    let mut ai = AlphaBeta::new(1);
    // A tiny budget still answers with a legal decision from the first iteration.
    let m = ai.decide(&start, Side::First, &Budget::iterations(12)).expect("a decision");
    assert!(start.is_legal(&m));
    assert_eq!(ai.last_depth, 1);
    // "Move now" answers at once with a legal decision.
    let stop = Arc::new(AtomicBool::new(true));
    let m = ai.decide(&start, Side::First, &Budget::iterations(u64::MAX).with_stop(stop)).expect("a decision");
    assert!(start.is_legal(&m));
    assert_eq!(ai.decide(&start, Side::Second, &Budget::iterations(10)), Err(DecideError::NotYourTurn));
    let sealed = Sealed::guess();
    assert_eq!(AlphaBeta::new(1).decide(&sealed, Side::First, &Budget::iterations(10)), Err(DecideError::Simultaneous));
}

#[test]
fn the_arena_names_and_plays_a_turn_search() {
    let parsed = "turns:9:9:9".parse::<ArenaPlayer>().unwrap();
    assert_eq!(parsed.name(), "turns:9:9:9");
    for bad in ["turns:0:4:2", "turns:8:8", "turns:8:8:x", "turns:8:8:0"] {
        assert!(bad.parse::<ArenaPlayer>().is_err(), "{bad}");
    }
    // A tic-tac-toe turn is one decision and nine of them are all there are: searched nine turns
    // deep, keeping every one, the turn search plays perfectly, so it never loses.
    let start = TicTacToe::new(&NoOptions);
    let series = ArenaSeries { games: 6, seed: 3, jobs: 2 };
    let perfect = || "turns:9:9:9".parse::<ArenaPlayer>().unwrap();
    let calibration = &Calibration::GENERIC;
    let report =
        run_arena(&start, "tic-tac-toe", calibration, perfect(), ArenaPlayer::Level(Level::Random), series, &|_, _| {});
    assert_eq!(report.b_wins, 0, "{report:?}");
    assert!(report.a_wins >= 3, "{report:?}");
    let report = run_arena(&start, "tic-tac-toe", calibration, perfect(), perfect(), series, &|_, _| {});
    assert_eq!(report.draws, 6, "perfect play draws: {report:?}");
}

#[test]
fn the_arena_names_and_plays_alpha_beta() {
    assert_eq!("alphabeta:5000".parse(), Ok(ArenaPlayer::AlphaBeta { nodes: 5_000 }));
    assert_eq!("hard".parse(), Ok(ArenaPlayer::Level(Level::Hard)));
    for bad in ["alphabeta:0", "alphabeta:", "alphabeta:x", "alpha"] {
        assert!(bad.parse::<ArenaPlayer>().is_err(), "{bad}");
    }
    let start = TicTacToe::new(&NoOptions);
    let series = ArenaSeries { games: 6, seed: 2, jobs: 2 };
    let a = ArenaPlayer::AlphaBeta { nodes: 50_000 };
    let report = run_arena(
        &start,
        "tic-tac-toe",
        &Calibration::GENERIC,
        a,
        ArenaPlayer::Level(Level::Random),
        series,
        &|_, _| {},
    );
    assert_eq!((report.a.as_str(), report.b.as_str()), ("alphabeta:50000", "random"));
    assert_eq!(report.b_wins, 0, "{report:?}");
    assert!(report.a_wins >= 3, "{report:?}");
}
