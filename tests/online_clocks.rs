//! Timed online games on a clock moved by hand (never real minutes or days): a live flag, a flag
//! when the opponent could not have won, a correspondence timeout claimed and one left waiting,
//! a vacation standing a clock still, and the grace period after a live player disconnects.

use crate::online_support;

use online_support::{FAST_PLAYERS, scratch_database};
use std::sync::Arc;
use stoneyard::games::GameKind;
use stoneyard::online::client::Client;
use stoneyard::online::clock::{ClockView, DAY_MS, LIVE_GRACE_MS};
use stoneyard::online::directory::TimeControl;
use stoneyard::online::protocol::{ClientMessage, ErrorCode, SeatChoice, ServerMessage};
use stoneyard::online::seat::OnlineSeat;
use stoneyard::online::server::{
    CHALLENGE_LIFETIME_MS, LIVE_CHALLENGE_LIFETIME_MS, ManualClock, POSTER_GRACE_MS, Running, ServeOptions,
    ServerClock, start, system_ms,
};
use stoneyard::rules::{Side, ToMove, pick_index, seeded};

const THREE_PLUS_TWO: TimeControl = TimeControl::Live { base_seconds: 180, increment_seconds: 2 };
const ONE_DAY: TimeControl = TimeControl::Correspondence { days_per_move: 1 };
/// 2026-11-28 12:00 UTC.
const NOON: i64 = 1_795_867_200_000;
const HOUR: i64 = 3_600_000;

async fn timed_server(database: String, clock: &Arc<ManualClock>) -> (String, Running) {
    let options = ServeOptions {
        requests_per_second: FAST_PLAYERS,
        sign_ins_per_minute: 100_000.0,
        clock: ServerClock::Manual(clock.clone()),
        ..ServeOptions::local(database)
    };
    let running = start(options).await.unwrap();
    (format!("ws://{}/ws", running.addr), running)
}

/// A signed-in player following one game from a seat.
struct Player {
    client: Client,
    seat: OnlineSeat,
}

impl Player {
    /// Handles messages until `done` holds of the seat.
    async fn until(&mut self, what: &str, done: impl Fn(&OnlineSeat) -> bool) {
        while !done(&self.seat) {
            let m = self.client.recv().await.unwrap_or_else(|e| panic!("waiting for {what}: {e}"));
            for reply in self.seat.receive(&m) {
                self.client.send(&reply).await.unwrap();
            }
        }
    }

    /// Sends a request about the game and reads until its answer (the seat takes in the rest).
    async fn ask(&mut self, m: ClientMessage) -> ServerMessage {
        self.client.send(&m).await.unwrap();
        loop {
            let got = self.client.recv().await.unwrap();
            let answer = matches!(got, ServerMessage::Ended { .. } | ServerMessage::Error { .. });
            for reply in self.seat.receive(&got) {
                self.client.send(&reply).await.unwrap();
            }
            if answer {
                return got;
            }
        }
    }

    async fn play(&mut self, decision: &str) {
        for m in self.seat.decide(decision.to_string()) {
            self.client.send(&m).await.unwrap();
        }
        self.until("the decision stored", |s| s.pending.is_empty()).await;
    }

    fn claim(&self) -> ClientMessage {
        ClientMessage::Claim { game_id: self.seat.game_id.clone(), token: self.seat.token.clone().unwrap() }
    }

    fn clock(&self) -> ClockView {
        self.seat.clock.clone().expect("a timed game has clocks")
    }
}

async fn register(url: &str, name: &str) -> Client {
    let mut c = Client::connect(url).await.unwrap();
    let signed = c.request(&ClientMessage::Register { name: name.into() }).await.unwrap();
    assert!(matches!(signed, ServerMessage::SignedIn { .. }), "{signed:?}");
    c
}

/// Ada posts `game` with `control` (Ada plays first), Bob accepts: both follow it.
async fn timed_game(url: &str, game: &str, control: TimeControl) -> (Player, Player) {
    timed_game_across(url, url, game, control, ["Ada", "Bob"]).await
}

/// `timed_game` with Ada connected to `url` and Bob to `bob_url` (another instance), by `names`.
async fn timed_game_across(
    url: &str,
    bob_url: &str,
    game: &str,
    control: TimeControl,
    names: [&str; 2],
) -> (Player, Player) {
    let game = GameKind::named(game);
    let (mut ada, mut bob) = (register(url, names[0]).await, register(bob_url, names[1]).await);
    let challenge = ClientMessage::Challenge {
        game,
        options: game.quick_pairs(),
        seat: SeatChoice::First,
        rated: false,
        time_control: Some(control),
        to: None,
    };
    let ServerMessage::Created { game_id, token: ada_token, .. } = ada.request(&challenge).await.unwrap() else {
        panic!("no challenge")
    };
    let accepted = bob.request(&ClientMessage::Accept { game_id: game_id.clone() }).await.unwrap();
    let ServerMessage::Joined { token: bob_token, .. } = accepted else { panic!("{accepted:?}") };
    let mut players = Vec::new();
    for (client, token) in [(ada, ada_token), (bob, bob_token)] {
        let mut p = Player { client, seat: OnlineSeat::new(&game_id, Some(token)) };
        for m in p.seat.on_connect() {
            p.client.send(&m).await.unwrap();
        }
        p.until("the clocks", |s| s.setup.is_some() && s.clock.is_some()).await;
        players.push(p);
    }
    let bob = players.pop().unwrap();
    (players.pop().unwrap(), bob)
}

fn winner(ended: &ServerMessage) -> serde_json::Value {
    match ended {
        ServerMessage::Ended { ending, .. } => ending.result.clone(),
        other => panic!("expected the end, got {other:?}"),
    }
}

/// The result that `side` won, in the game's notation.
fn won_by(game: &str, side: Side) -> serde_json::Value {
    let kind = GameKind::named(game);
    let position = kind.open(&kind.quick_pairs(), None).unwrap();
    serde_json::json!({ "winner": position.side_name(side) })
}

/// Plays the seat's whole turn: its first decision each time, ending the turn when it may.
async fn play_turn(p: &mut Player) {
    while let Some(d) = {
        let legal = p.seat.legal();
        legal.iter().find(|d| *d == "end").or(legal.first()).cloned()
    } {
        p.play(&d).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_player_out_of_time_loses_and_the_flag_survives_a_restart() {
    let clock = ManualClock::starting_at(NOON);
    let database = scratch_database("clock-flag");
    let (url, running) = timed_server(database.clone(), &clock).await;
    let (mut ada, mut bob) = timed_game(&url, "red-stone", THREE_PLUS_TWO).await;
    assert_eq!((ada.clock().left_ms, ada.clock().running), ([180_000, 180_000], [true, false]));

    // Ada thinks 10 s: 170 s left plus the 2 s increment; Bob's clock runs.
    clock.advance(10_000);
    let first = ada.seat.legal()[0].clone();
    ada.play(&first).await;
    bob.until("Ada's move and clock", |s| s.moves.len() == 1 && s.clock.as_ref().is_some_and(|c| c.running[1])).await;
    assert_eq!(bob.clock().left_ms, [172_000, 180_000]);

    // Bob lets his three minutes run out: the server's timer flags him, without anyone asking.
    clock.advance(179_999);
    clock.advance(1);
    ada.until("the flag", |s| s.ended.is_some()).await;
    let ending = ada.seat.ended.clone().unwrap();
    assert_eq!(ending.result, won_by("red-stone", Side::First), "{ending:?}");
    assert!(ending.reason.contains("ran out of time"), "{ending:?}");
    bob.until("the flag", |s| s.ended.is_some()).await;
    // A decision after the flag is refused.
    let late = bob.seat.legal().first().cloned();
    assert!(late.is_none(), "the game is over for Bob's seat too");
    running.stop().await;

    // The flag is stored: after a restart the game is still over, its clocks stopped at zero.
    let (url, running) = timed_server(database, &clock).await;
    let mut again = Client::connect(&url).await.unwrap();
    let open = ClientMessage::Open { game_id: ada.seat.game_id.clone(), token: None, have: 0 };
    let state = again.request(&open).await.unwrap();
    assert!(matches!(&state, ServerMessage::State { ended: Some(e), .. } if e.result == ending.result), "{state:?}");
    let ServerMessage::Clock { clock: stopped, .. } =
        again.recv_until(|m| matches!(m, ServerMessage::Clock { .. })).await.unwrap()
    else {
        unreachable!()
    };
    assert_eq!((stopped.left_ms, stopped.running), ([172_000, 0], [false, false]));
    running.stop().await;
}

/// Red Stone, 5×5, after the first 27 decisions of a random game (seed 2): White to move, and
/// every way the game can go from here ends with White winning.
fn black_cannot_win_any_more() -> Vec<String> {
    let kind = GameKind::named("red-stone");
    let mut game = kind.open(&kind.quick_pairs(), None).unwrap();
    let mut rng = seeded(2);
    let mut decisions = Vec::new();
    for _ in 0..27 {
        let Some(ToMove::One(side)) = game.to_move() else { panic!("Red Stone decides one side at a time") };
        let legal = game.legal_decisions(side);
        let d = legal[pick_index(&mut rng, legal.len())].clone();
        game.play_decision(&d).unwrap();
        decisions.push(d);
    }
    assert_eq!(game.position_text(), ".OOOO/RO.OO/XXR.O/XX.RO/XXXXX w");
    decisions
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_is_a_draw_when_the_opponent_could_not_have_won() {
    let clock = ManualClock::starting_at(NOON);
    let (url, running) = timed_server(scratch_database("clock-draw"), &clock).await;
    let (mut ada, mut bob) = timed_game(&url, "red-stone", THREE_PLUS_TWO).await;
    for decision in black_cannot_win_any_more() {
        let mover = if ada.seat.legal().contains(&decision) { &mut ada } else { &mut bob };
        mover.play(&decision).await;
        let plies = mover.seat.moves.len();
        ada.until("the move", |s| s.moves.len() == plies).await;
        bob.until("the move", |s| s.moves.len() == plies).await;
    }
    // White to move runs out of time; Black could not have won: a draw.
    clock.advance(10 * 60_000);
    ada.until("the flag", |s| s.ended.is_some()).await;
    let ending = ada.seat.ended.clone().unwrap();
    assert_eq!(ending.result, serde_json::json!("draw"), "{ending:?}");
    assert!(ending.reason.contains("could not have won"), "{ending:?}");
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_timeout_is_claimed_or_left_waiting() {
    let clock = ManualClock::starting_at(NOON);
    let (url, running) = timed_server(scratch_database("clock-claim"), &clock).await;
    let (mut ada, mut bob) = timed_game(&url, "gravel", ONE_DAY).await;
    assert_eq!(ada.clock().left_ms, [DAY_MS, DAY_MS]);

    // Nearly a day: Ada still has time; Bob may not claim.
    clock.advance(23 * HOUR);
    let early = bob.ask(bob.claim()).await;
    assert!(
        matches!(&early, ServerMessage::Error { code: ErrorCode::BadMessage, message, .. } if message.contains("still has time")),
        "{early:?}"
    );
    // Past the day Bob could claim but waits: nothing ends by itself, and Ada may still move.
    clock.advance(3 * HOUR);
    play_turn(&mut ada).await;
    bob.until("Ada's turn and a day for Bob", |s| s.clock.as_ref().is_some_and(|c| c.running == [false, true])).await;
    assert_eq!(bob.clock().left_ms[1], DAY_MS);
    assert!(bob.seat.ended.is_none());

    // Bob lets his day pass; Ada's client sees that she may claim, and claims.
    clock.advance(DAY_MS + HOUR);
    let claimed = ada.ask(ada.claim()).await;
    assert_eq!(winner(&claimed), won_by("gravel", Side::First), "{claimed:?}");
    bob.until("the claim", |s| s.ended.is_some()).await;
    assert!(bob.seat.ended.as_ref().unwrap().reason.contains("claimed"), "{:?}", bob.seat.ended);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_stands_a_correspondence_clock_still() {
    let clock = ManualClock::starting_at(NOON);
    let (url, running) = timed_server(scratch_database("clock-vacation"), &clock).await;
    let (mut ada, mut bob) = timed_game(&url, "gravel", ONE_DAY).await;

    // Ada goes on vacation after two hours; three days pass.
    clock.advance(2 * HOUR);
    let on = ada.client.request(&ClientMessage::Vacation { on: true }).await.unwrap();
    let ServerMessage::Vacation { until_ms: Some(_), left_ms } = on else { panic!("{on:?}") };
    assert_eq!(left_ms, 0, "the whole allowance is planned for this vacation");
    bob.until("Ada's clock paused", |s| s.clock.as_ref().is_some_and(|c| c.paused == [true, false])).await;
    clock.advance(3 * DAY_MS);
    let refused = bob.ask(bob.claim()).await;
    assert!(matches!(refused, ServerMessage::Error { .. }), "{refused:?}");

    // Back: 22 hours left, and 27 of the year's 30 vacation days.
    let off = ada.client.request(&ClientMessage::Vacation { on: false }).await.unwrap();
    assert_eq!(off, ServerMessage::Vacation { until_ms: None, left_ms: 27 * DAY_MS });
    bob.until("Ada's clock running", |s| s.clock.as_ref().is_some_and(|c| c.paused == [false, false])).await;
    assert_eq!(bob.clock().left_ms[0], 22 * HOUR);
    clock.advance(22 * HOUR);
    let claimed = bob.ask(bob.claim()).await;
    assert_eq!(winner(&claimed), won_by("gravel", Side::Second), "{claimed:?}");
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_player_who_disconnects_has_a_grace_period_then_the_opponent_may_claim() {
    let clock = ManualClock::starting_at(NOON);
    let (url, running) = timed_server(scratch_database("clock-grace"), &clock).await;
    let (mut ada, bob) = timed_game(&url, "red-stone", THREE_PLUS_TWO).await;
    let first = ada.seat.legal()[0].clone();
    ada.play(&first).await;

    // Bob's connection drops: Ada is told she may claim in 30 s.
    drop(bob);
    ada.until("Bob away", |s| s.clock.as_ref().is_some_and(|c| c.claimable_in_ms[1] == Some(LIVE_GRACE_MS))).await;
    clock.advance(LIVE_GRACE_MS - 1_000);
    let early = ada.ask(ada.claim()).await;
    assert!(
        matches!(&early, ServerMessage::Error { message, .. } if message.contains("may still come back for 1 s")),
        "{early:?}"
    );
    clock.advance(1_000);
    let claimed = ada.ask(ada.claim()).await;
    assert_eq!(winner(&claimed), won_by("red-stone", Side::First), "{claimed:?}");
    match claimed {
        ServerMessage::Ended { ending, .. } => assert!(ending.reason.contains("left the game"), "{ending:?}"),
        _ => unreachable!(),
    }
    running.stop().await;
}

/// Two instances sharing the test's PostgreSQL, on one clock, and a live 3+2 game between a player
/// on each after White's first move.
struct TwoInstances {
    clock: Arc<ManualClock>,
    first: Running,
    second: Running,
    url_2: String,
    names: [String; 2],
    ada: Player,
    bob: Player,
    /// This test's turn, until it ends.
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

/// The tests on two instances take turns: each moves its own clock minutes ahead, and its
/// instances' sweeps read every game of the shared database, so they would flag the other test's
/// game as out of time.
static ONE_CLOCK_AHEAD_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn live_game_on_two_instances() -> TwoInstances {
    let turn = ONE_CLOCK_AHEAD_AT_A_TIME.lock().await;
    let database = std::env::var("STONEYARD_TEST_POSTGRES").expect("STONEYARD_TEST_POSTGRES is set");
    // One clock for both instances, as one machine's time: each has its own timer on it. It starts
    // at the real time, as the other tests' servers sharing the database run on it (and sweep it).
    let clock = ManualClock::starting_at(system_ms());
    let (url_1, first) = timed_server(database.clone(), &clock).await;
    let (url_2, second) = timed_server(database, &clock).await;
    let names = [online_support::unique("Ada"), online_support::unique("Bob")];
    let (mut ada, mut bob) =
        timed_game_across(&url_1, &url_2, "red-stone", THREE_PLUS_TWO, [&names[0], &names[1]]).await;
    let first_move = ada.seat.legal()[0].clone();
    ada.play(&first_move).await;
    bob.until("Ada's move", |s| s.moves.len() == 1).await;
    TwoInstances { clock, first, second, url_2, names, ada, bob, _turn: turn }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: STONEYARD_TEST_POSTGRES=postgres://… (make test-postgres)"]
async fn two_instances_flag_a_live_clock_once() {
    let TwoInstances { clock, first, second, mut ada, mut bob, _turn, .. } = live_game_on_two_instances().await;
    // Bob's time runs out: both instances' timers see it; the game ends once, the same for both.
    clock.advance(200_000);
    ada.until("the flag", |s| s.ended.is_some()).await;
    bob.until("the flag", |s| s.ended.is_some()).await;
    assert_eq!(ada.seat.ended, bob.seat.ended);
    assert!(ada.seat.ended.as_ref().unwrap().reason.contains("ran out of time"));
    // Each seat heard of the end once: nothing more comes before a ping's answer.
    for p in [&mut ada, &mut bob] {
        p.client.send(&ClientMessage::Ping {}).await.unwrap();
        let mut ends = 0;
        loop {
            match p.client.recv().await.unwrap() {
                ServerMessage::Pong => break,
                ServerMessage::Ended { .. } => ends += 1,
                _ => {}
            }
        }
        assert_eq!(ends, 0, "the end was told once (before the ping)");
    }
    first.stop().await;
    second.stop().await;
}

/// Posts a challenge of Red Stone on `control` from the signed-in client: its game id.
async fn post(client: &mut Client, control: TimeControl) -> String {
    let kind = GameKind::named("red-stone");
    let challenge = ClientMessage::Challenge {
        game: kind,
        options: kind.quick_pairs(),
        seat: SeatChoice::First,
        rated: false,
        time_control: Some(control),
        to: None,
    };
    match client.request(&challenge).await.unwrap() {
        ServerMessage::Created { game_id, .. } => game_id,
        other => panic!("no challenge: {other:?}"),
    }
}

/// The ids of the challenges a fresh look at the lobby lists.
async fn listed(url: &str) -> Vec<String> {
    let mut look = Client::connect(url).await.unwrap();
    match look.request(&ClientMessage::WatchLobby {}).await.unwrap() {
        ServerMessage::Lobby { challenges, .. } => challenges.into_iter().map(|c| c.game_id).collect(),
        other => panic!("no lobby: {other:?}"),
    }
}

/// Waits until `watcher` (following the lobby) sees the challenge `id` (the lobby is read again
/// a moment after a change: the clock must not move on before).
async fn until_listed(watcher: &mut Client, id: &str) {
    watcher
        .recv_until(|m| matches!(m, ServerMessage::ChallengeAdded { challenge } if challenge.game_id == id))
        .await
        .unwrap_or_else(|e| panic!("waiting for {id} to be listed: {e}"));
}

/// Waits until `watcher` (following the lobby) hears that the challenge `id` was withdrawn.
async fn until_withdrawn(watcher: &mut Client, id: &str) {
    watcher
        .recv_until(|m| matches!(m, ServerMessage::ChallengeRemoved { game_id } if game_id == id))
        .await
        .unwrap_or_else(|e| panic!("waiting for {id} to be withdrawn: {e}"));
}

/// Lets the server handle a closed connection before the clock moves on (the time it notes the
/// poster gone is the server's clock when it does).
async fn let_the_close_arrive() {
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_game_nobody_follows_ends_when_a_clock_runs_out_even_after_a_restart() {
    let clock = ManualClock::starting_at(NOON);
    let database = scratch_database("clock-abandoned");
    let (url, running) = timed_server(database.clone(), &clock).await;
    let (mut ada, bob) = timed_game(&url, "red-stone", THREE_PLUS_TWO).await;
    let first = ada.seat.legal()[0].clone();
    ada.play(&first).await;
    let game_id = ada.seat.game_id.clone();
    drop((ada, bob));
    running.stop().await;

    // The server restarts; nobody opens the game again. It is still being played…
    let (url, running) = timed_server(database, &clock).await;
    let mut carl = register(&url, "Carl").await;
    let ServerMessage::Lobby { live, .. } = carl.request(&ClientMessage::WatchLobby {}).await.unwrap() else {
        panic!("no lobby")
    };
    assert!(live.iter().any(|g| g.game_id == game_id), "{live:?}");
    // …until Bob's three minutes run out: the sweep over the store flags him.
    clock.advance(180_000);
    carl.recv_until(|m| matches!(m, ServerMessage::LiveGames { live } if live.is_empty())).await.unwrap();
    let page = carl.request(&ClientMessage::PlayerPage { name: "Ada".into() }).await.unwrap();
    let ServerMessage::Page { page } = page else { panic!("{page:?}") };
    let game = page.recent.iter().find(|g| g.game_id == game_id).expect("the game ended");
    assert_eq!(game.outcome, "won", "{game:?}");
    assert!(game.reason.contains("ran out of time"), "{game:?}");
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_challenge_is_withdrawn_once_its_poster_has_been_gone_for_the_grace() {
    let clock = ManualClock::starting_at(NOON);
    let (url, running) = timed_server(scratch_database("clock-gone-poster"), &clock).await;
    let mut carl = register(&url, "Carl").await;
    carl.request(&ClientMessage::WatchLobby {}).await.unwrap();
    let mut dan = register(&url, "Dan").await;
    let dans = post(&mut dan, THREE_PLUS_TWO).await;
    let mut ada = register(&url, "Ada").await;
    let adas_live = post(&mut ada, THREE_PLUS_TWO).await;
    let adas_correspondence = post(&mut ada, ONE_DAY).await;
    let mut eve = Client::connect(&url).await.unwrap();
    let signed = eve.request(&ClientMessage::Register { name: "Eve".into() }).await.unwrap();
    let ServerMessage::SignedIn { key: Some(eves_key), .. } = signed else { panic!("{signed:?}") };
    let eves = post(&mut eve, THREE_PLUS_TWO).await;
    until_listed(&mut carl, &eves).await;
    drop(dan);
    let_the_close_arrive().await;
    clock.advance(POSTER_GRACE_MS / 2);
    drop((ada, eve));
    let_the_close_arrive().await;
    clock.advance(POSTER_GRACE_MS / 2);
    // Dan has been gone for the grace, Ada and Eve for half of it: only Dan's challenge goes.
    until_withdrawn(&mut carl, &dans).await;
    let now = listed(&url).await;
    assert!([&adas_live, &adas_correspondence, &eves].iter().all(|id| now.contains(id)), "{now:?}");
    // Eve comes back in time; Ada does not: her live challenge goes, Eve's and a correspondence
    // challenge (which waits days for a move anyway) stay.
    let mut eve = Client::connect(&url).await.unwrap();
    eve.request(&ClientMessage::SignIn { key: eves_key }).await.unwrap();
    clock.advance(POSTER_GRACE_MS / 2);
    until_withdrawn(&mut carl, &adas_live).await;
    let now = listed(&url).await;
    assert!(now.contains(&adas_correspondence) && now.contains(&eves), "{now:?}");
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_and_invites_nobody_takes_expire() {
    let clock = ManualClock::starting_at(NOON);
    let (url, running) = timed_server(scratch_database("clock-expiry"), &clock).await;
    let mut carl = register(&url, "Carl").await;
    carl.request(&ClientMessage::WatchLobby {}).await.unwrap();
    let mut ada = register(&url, "Ada").await;
    let live = post(&mut ada, THREE_PLUS_TWO).await;
    let correspondence = post(&mut ada, ONE_DAY).await;
    let (_, _, _, code) = online_support::create(&url, GameKind::named("gravel"), SeatChoice::First).await;
    until_listed(&mut carl, &correspondence).await;

    // Ada stays, but nobody takes her live challenge for an hour: it is withdrawn.
    clock.advance(LIVE_CHALLENGE_LIFETIME_MS);
    until_withdrawn(&mut carl, &live).await;
    assert!(listed(&url).await.contains(&correspondence));
    // Two weeks: the correspondence challenge goes, and the week-old invite with it.
    clock.advance(CHALLENGE_LIFETIME_MS);
    until_withdrawn(&mut carl, &correspondence).await;
    let mut bob = Client::connect(&url).await.unwrap();
    let refused = bob.request(&ClientMessage::Join { code }).await.unwrap();
    assert!(matches!(refused, ServerMessage::Error { code: ErrorCode::NoSuchCode, .. }), "{refused:?}");
    drop(ada);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: STONEYARD_TEST_POSTGRES=postgres://… (make test-postgres)"]
async fn two_instances_end_an_abandoned_live_game_once() {
    let TwoInstances { clock, first, second, url_2, names, ada, bob, _turn } = live_game_on_two_instances().await;
    let game_id = ada.seat.game_id.clone();
    // Both leave; nobody follows the game on either instance. Bob's time runs out: one of the
    // two sweeps ends it, once.
    drop((ada, bob));
    let_the_close_arrive().await;
    clock.advance(200_000);
    let mut carl = Client::connect(&url_2).await.unwrap();
    let mut ended = Vec::new();
    for _ in 0..100 {
        let page = carl.request(&ClientMessage::PlayerPage { name: names[0].clone() }).await.unwrap();
        let ServerMessage::Page { page } = page else { panic!("{page:?}") };
        ended = page.recent.into_iter().filter(|g| g.game_id == game_id).collect();
        if !ended.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(ended.len(), 1, "{ended:?}");
    assert!(ended[0].outcome == "won" && ended[0].reason.contains("ran out of time"), "{ended:?}");
    first.stop().await;
    second.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_started_from_several_devices_at_once_is_one_and_each_uses_a_day_at_least() {
    let clock = ManualClock::starting_at(NOON);
    let (url, running) = timed_server(scratch_database("clock-vacation-race"), &clock).await;
    let (mut ada, mut bob) = timed_game(&url, "gravel", ONE_DAY).await;
    let set = ada.client.request(&ClientMessage::SetPassword { password: "correct horse".into() }).await.unwrap();
    assert!(matches!(set, ServerMessage::PasswordSet {}), "{set:?}");
    let mut devices = Vec::new();
    for _ in 0..6 {
        let mut device = Client::connect(&url).await.unwrap();
        let login = ClientMessage::Login { name: "Ada".into(), password: "correct horse".into() };
        let signed = device.request(&login).await.unwrap();
        assert!(matches!(signed, ServerMessage::SignedIn { .. }), "{signed:?}");
        devices.push(device);
    }

    // Two hours in, all six devices start a vacation at the same moment: one period is stored.
    clock.advance(2 * HOUR);
    for device in devices.iter_mut() {
        device.send(&ClientMessage::Vacation { on: true }).await.unwrap();
    }
    for device in devices.iter_mut() {
        let answer = device.recv_until(|m| matches!(m, ServerMessage::Vacation { .. })).await.unwrap();
        assert!(matches!(answer, ServerMessage::Vacation { until_ms: Some(_), .. }), "{answer:?}");
    }
    bob.until("Ada's clock paused", |s| s.clock.as_ref().is_some_and(|c| c.paused == [true, false])).await;
    clock.advance(3 * DAY_MS);
    let off = devices[0].request(&ClientMessage::Vacation { on: false }).await.unwrap();
    assert_eq!(off, ServerMessage::Vacation { until_ms: None, left_ms: 27 * DAY_MS });
    // Ada's clock stood still for the three days once, not six times.
    bob.until("Ada's clock running", |s| s.clock.as_ref().is_some_and(|c| c.paused == [false, false])).await;
    assert_eq!(bob.clock().left_ms[0], 22 * HOUR);

    // Switching vacations on and off uses a day each time: 27 more, then none are left.
    let mut taken = 0;
    loop {
        clock.advance(60_000);
        match devices[1].request(&ClientMessage::Vacation { on: true }).await.unwrap() {
            ServerMessage::Vacation { until_ms: Some(_), .. } => taken += 1,
            ServerMessage::Error { message, .. } if message.contains("no vacation days are left") => break,
            other => panic!("{other:?}"),
        }
        devices[1].request(&ClientMessage::Vacation { on: false }).await.unwrap();
        assert!(taken <= 27, "more vacations than days");
    }
    assert_eq!(taken, 27);
    drop(ada);
    running.stop().await;
}
