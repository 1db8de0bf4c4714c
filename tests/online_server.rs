//! The online game server end to end on loopback: whole games of every game between two protocol
//! clients, reconnection, a SIGKILL and restart, every kind of bad input, Hidden Intention's
//! secrecy on the raw frames, and (with `STONEYARD_TEST_POSTGRES`) two instances sharing PostgreSQL.
#![cfg(feature = "server")]

use std::process::{Child, Command, Stdio};
use stoneyard::games::GameKind;
use stoneyard::online::board::SeatBoard;
use stoneyard::online::client::{Client, Closed};
use stoneyard::online::protocol::{ClientMessage, ErrorCode, MAX_MESSAGE_BYTES, SeatChoice, ServerMessage};
use stoneyard::online::seat::OnlineSeat;
use stoneyard::online::server::{ServeOptions, start};
use stoneyard::rules::{GameRng, Side, pick_index, seeded};

/// A fresh SQLite file for one test.
fn scratch_database(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("stoneyard-online-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite://{}", dir.join("games.sqlite3").display())
}

/// Test players decide as fast as the machine allows, far above a person's pace: the rate limit
/// is raised for them (the bad-input test keeps the default).
const FAST_PLAYERS: f64 = 10_000.0;

async fn server(database: String) -> (String, stoneyard::online::server::Running) {
    let running =
        start(ServeOptions { requests_per_second: FAST_PLAYERS, ..ServeOptions::local(database) }).await.unwrap();
    (format!("ws://{}/ws", running.addr), running)
}

/// One player: a connection, its seat's state and board.
struct Player {
    client: Client,
    seat: OnlineSeat,
    board: Option<SeatBoard>,
}

impl Player {
    async fn open(url: &str, game_id: &str, token: &str) -> Player {
        let client = Client::connect(url).await.unwrap();
        let mut p = Player { client, seat: OnlineSeat::new(game_id, Some(token.to_string())), board: None };
        for m in p.seat.on_connect() {
            p.client.send(&m).await.unwrap();
        }
        p.pump_until(|s| s.setup.is_some()).await;
        p
    }

    /// Handles messages until the seat's state satisfies `done`.
    async fn pump_until(&mut self, done: impl Fn(&OnlineSeat) -> bool) {
        while !done(&self.seat) {
            let m = self.client.recv().await.unwrap();
            if let ServerMessage::Error { code, message, .. } = &m {
                panic!("unexpected error {code:?}: {message}");
            }
            for reply in self.seat.receive(&m) {
                self.client.send(&reply).await.unwrap();
            }
        }
    }

    fn legal(&mut self) -> Vec<String> {
        let (kind, options) = self.seat.setup.clone().unwrap();
        let board = self.board.get_or_insert_with(|| SeatBoard::new(kind, &options).unwrap());
        board.sync(&self.seat.board_decisions()).unwrap();
        if self.seat.ended.is_some() {
            return vec![];
        }
        board.legal_for(self.seat.seat.unwrap())
    }

    /// Plays one random legal decision, if the seat has one, and waits until it is stored.
    async fn play_random(&mut self, rng: &mut GameRng) -> Option<String> {
        let legal = self.legal();
        if legal.is_empty() {
            return None;
        }
        let d = legal[pick_index(rng, legal.len())].clone();
        for m in self.seat.play(d.clone()) {
            self.client.send(&m).await.unwrap();
        }
        self.pump_until(|s| s.pending.is_empty()).await;
        Some(d)
    }
}

async fn create(url: &str, kind: GameKind, seat: SeatChoice) -> (String, Side, String, String) {
    let mut c = Client::connect(url).await.unwrap();
    match c.request(&ClientMessage::Create { game: kind, options: kind.quick_pairs(), seat }).await.unwrap() {
        ServerMessage::Created { game_id, seat, token, code } => (game_id, seat, token, code),
        other => panic!("{other:?}"),
    }
}

async fn join(url: &str, code: &str) -> (String, Side, String) {
    let mut c = Client::connect(url).await.unwrap();
    match c.request(&ClientMessage::Join { code: code.to_lowercase() }).await.unwrap() {
        ServerMessage::Joined { game_id, seat, token } => (game_id, seat, token),
        other => panic!("{other:?}"),
    }
}

/// Two players of one new game (the creator first), both following it.
async fn table(url_a: &str, url_b: &str, kind: GameKind) -> [Player; 2] {
    let (game_id, seat, token, code) = create(url_a, kind, SeatChoice::First).await;
    assert_eq!(seat, Side::First);
    let (joined_id, joined_seat, token_b) = join(url_b, &code).await;
    assert_eq!((joined_id.as_str(), joined_seat), (game_id.as_str(), Side::Second));
    [Player::open(url_a, &game_id, &token).await, Player::open(url_b, &game_id, &token_b).await]
}

/// Plays random decisions in turn until the game ends; both players must agree on every stored
/// decision and on the ending.
async fn play_to_the_end(players: &mut [Player; 2], rng: &mut GameRng, limit: usize) {
    for _ in 0..limit {
        if players[0].seat.ended.is_some() {
            break;
        }
        let mut any = false;
        for i in 0..2 {
            if players[i].play_random(rng).await.is_some() {
                any = true;
                let total = players[i].seat.moves.len();
                players[1 - i].pump_until(|s| s.moves.len() >= total).await;
            }
        }
        assert!(any, "nobody could move in an unfinished game");
        if players[0].legal().is_empty() && players[1].legal().is_empty() {
            for p in players.iter_mut() {
                p.pump_until(|s| s.ended.is_some()).await;
            }
        }
    }
    assert!(players[0].seat.ended.is_some(), "the game did not end in {limit} rounds");
    players[1].pump_until(|s| s.ended.is_some()).await;
    assert_eq!(players[0].seat.ended, players[1].seat.ended);
    assert_eq!(players[0].seat.moves, players[1].seat.moves);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_play_a_whole_game_of_every_game_through_the_server() {
    let (url, running) = server(scratch_database("whole")).await;
    for (i, kind) in GameKind::all().enumerate() {
        eprintln!("playing {}", kind.slug());
        let mut players = table(&url, &url, kind).await;
        let mut rng = seeded(40 + i as u64);
        play_to_the_end(&mut players, &mut rng, 5_000).await;
        // The stored game replays to the same ending for a read-only viewer.
        let mut viewer = Client::connect(&url).await.unwrap();
        let open = ClientMessage::Open { game_id: players[0].seat.game_id.clone(), token: None, have: 0 };
        let ServerMessage::State { seat, moves, ended, .. } = viewer.request(&open).await.unwrap() else { panic!() };
        assert_eq!(seat, None);
        assert_eq!(moves, players[0].seat.moves, "{}", kind.slug());
        assert_eq!(ended, players[0].seat.ended);
    }
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_drops_gets_what_was_missed_and_the_game_goes_on() {
    let (url, running) = server(scratch_database("drop")).await;
    let kind = GameKind::named("red-stone");
    let [mut a, mut b] = table(&url, &url, kind).await;
    let mut rng = seeded(7);
    a.play_random(&mut rng).await.unwrap();
    b.pump_until(|s| s.moves.len() == 1).await;
    // B's connection drops; A sees B go offline, then plays on.
    let game_id = b.seat.game_id.clone();
    let token_b = b.seat.token.clone().unwrap();
    let b_seat = b.seat.clone();
    b.client.close().await;
    a.pump_until(|s| s.online == [true, false]).await;
    // B reconnects with what it had: the server sends only the rest.
    let mut b = Player { client: Client::connect(&url).await.unwrap(), seat: b_seat, board: None };
    assert_eq!(b.seat.token.as_deref(), Some(token_b.as_str()));
    for m in b.seat.on_connect() {
        assert!(matches!(&m, ClientMessage::Open { have: 1, .. }), "{m:?}");
        b.client.send(&m).await.unwrap();
    }
    let state = b.client.recv().await.unwrap();
    let ServerMessage::State { from, ref moves, online, .. } = state else { panic!("{state:?}") };
    assert_eq!(from, 1);
    assert!(moves.is_empty());
    assert_eq!(online, [true, true]);
    b.seat.receive(&state);
    a.pump_until(|s| s.online == [true, true]).await;
    let mut players = [a, b];
    play_to_the_end(&mut players, &mut rng, 5_000).await;
    assert_eq!(players[1].seat.game_id, game_id);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_sent_twice_is_stored_once_and_a_stale_one_is_refused() {
    let (url, running) = server(scratch_database("retry")).await;
    let [mut a, mut b] = table(&url, &url, GameKind::named("gravel")).await;
    let d = a.legal()[0].clone();
    let legal_first_of_a_game_that_b_would_try = || d.clone();
    let token = a.seat.token.clone().unwrap();
    let game_id = a.seat.game_id.clone();
    let mv = ClientMessage::Move { game_id: game_id.clone(), token: token.clone(), ply: 0, decision: d.clone() };
    assert_eq!(a.client.request(&mv).await.unwrap(), ServerMessage::Ack { game_id: game_id.clone(), ply: 0 });
    assert_eq!(a.client.request(&mv).await.unwrap(), ServerMessage::Ack { game_id: game_id.clone(), ply: 0 });
    b.pump_until(|s| s.moves.len() == 1).await;
    // A stale ply from B (it means ply 0, which is taken) is refused with the next ply.
    let b_token = b.seat.token.clone().unwrap();
    let b_move = legal_first_of_a_game_that_b_would_try();
    let stale = ClientMessage::Move { game_id: game_id.clone(), token: b_token, ply: 0, decision: b_move };
    let ServerMessage::Error { code, next_ply, .. } = b.client.request(&stale).await.unwrap() else { panic!() };
    assert_eq!((code, next_ply), (ErrorCode::StalePly, Some(1)));
    let mut viewer = Client::connect(&url).await.unwrap();
    let ServerMessage::State { moves, .. } =
        viewer.request(&ClientMessage::Open { game_id, token: None, have: 0 }).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(moves.len(), 1);
    running.stop().await;
}

/// `stoneyard serve` as a child process (so it can be killed); killed when dropped.
struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn_serve(database: &str, port: u16) -> Serve {
    Serve(
        Command::new(env!("CARGO_BIN_EXE_stoneyard"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--database", database])
            .args(["--max-requests-per-second", &FAST_PLAYERS.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    )
}

async fn connect_retrying(url: &str) -> Client {
    for _ in 0..100 {
        if let Ok(c) = Client::connect(url).await {
            return c;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no server at {url}");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_decision_survives_a_sigkill_and_restart() {
    let database = scratch_database("kill");
    let port = free_port();
    let url = format!("ws://127.0.0.1:{port}/ws");
    let mut child = spawn_serve(&database, port);
    drop(connect_retrying(&url).await);
    let [mut a, mut b] = table(&url, &url, GameKind::named("inchworm")).await;
    let mut rng = seeded(11);
    for _ in 0..6 {
        if a.play_random(&mut rng).await.is_some() {
            let n = a.seat.moves.len();
            b.pump_until(|s| s.moves.len() >= n).await;
        }
        if b.play_random(&mut rng).await.is_some() {
            let n = b.seat.moves.len();
            a.pump_until(|s| s.moves.len() >= n).await;
        }
    }
    let acknowledged = a.seat.moves.clone();
    assert!(acknowledged.len() >= 6);
    child.0.kill().unwrap(); // SIGKILL: no chance to flush anything
    child.0.wait().unwrap();
    while a.client.recv_or_close().await.is_ok() {} // what was already sent, then the end
    let child = spawn_serve(&database, port);
    let mut players = [a, b];
    for p in players.iter_mut() {
        p.client = connect_retrying(&url).await;
        for m in p.seat.on_connect() {
            p.client.send(&m).await.unwrap();
        }
        p.pump_until(|s| s.online == [true, true] || s.online[s.seat.unwrap().index()]).await;
    }
    let mut viewer = connect_retrying(&url).await;
    let open = ClientMessage::Open { game_id: players[0].seat.game_id.clone(), token: None, have: 0 };
    let ServerMessage::State { moves, .. } = viewer.request(&open).await.unwrap() else { panic!() };
    assert_eq!(moves, acknowledged, "every acknowledged decision is still there, in order");
    play_to_the_end(&mut players, &mut rng, 5_000).await;
    drop(child);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_a_clear_error_changes_nothing_and_the_server_keeps_serving() {
    let running = start(ServeOptions::local(scratch_database("bad"))).await.unwrap();
    let url = format!("ws://{}/ws", running.addr);
    let [mut a, mut b] = table(&url, &url, GameKind::named("red-stone")).await;
    let game_id = a.seat.game_id.clone();
    let token_a = a.seat.token.clone().unwrap();
    let token_b = b.seat.token.clone().unwrap();
    let legal = a.legal();
    let mut c = Client::connect(&url).await.unwrap();
    let code_of = |m: ServerMessage| match m {
        ServerMessage::Error { code, message, .. } => {
            assert!(!message.is_empty());
            code
        }
        other => panic!("expected an error, got {other:?}"),
    };
    // Not the protocol.
    c.send_text("{ not json".into()).await.unwrap();
    assert_eq!(code_of(c.recv().await.unwrap()), ErrorCode::BadMessage);
    c.send_text(r#"{"type":"launch_missiles"}"#.into()).await.unwrap();
    assert_eq!(code_of(c.recv().await.unwrap()), ErrorCode::BadMessage);
    c.send_binary(vec![0, 1, 2]).await.unwrap();
    assert_eq!(code_of(c.recv().await.unwrap()), ErrorCode::BadMessage);
    // Bad games, codes, tokens, plies and decisions.
    let bad_create = ClientMessage::Create {
        game: GameKind::named("gravel"),
        options: vec![("size".into(), "4000".into())],
        seat: SeatChoice::First,
    };
    assert_eq!(code_of(c.request(&bad_create).await.unwrap()), ErrorCode::BadGame);
    assert_eq!(
        code_of(c.request(&ClientMessage::Join { code: "XXXX-XXXX".into() }).await.unwrap()),
        ErrorCode::NoSuchCode
    );
    let open = ClientMessage::Open { game_id: "nope".into(), token: None, have: 0 };
    assert_eq!(code_of(c.request(&open).await.unwrap()), ErrorCode::NoSuchGame);
    let mv = |token: &str, ply: u32, decision: &str| ClientMessage::Move {
        game_id: game_id.clone(),
        token: token.into(),
        ply,
        decision: decision.into(),
    };
    assert_eq!(code_of(c.request(&mv("", 0, &legal[0])).await.unwrap()), ErrorCode::BadToken);
    assert_eq!(code_of(c.request(&mv("f00d", 0, &legal[0])).await.unwrap()), ErrorCode::BadToken);
    assert_eq!(code_of(c.request(&mv(&token_b, 0, &legal[0])).await.unwrap()), ErrorCode::NotYourTurn);
    assert_eq!(code_of(c.request(&mv(&token_a, 0, "z99")).await.unwrap()), ErrorCode::Illegal);
    assert_eq!(code_of(c.request(&mv(&token_a, 0, &"x".repeat(5000))).await.unwrap()), ErrorCode::Illegal);
    assert_eq!(code_of(c.request(&mv(&token_a, 7, &legal[0])).await.unwrap()), ErrorCode::StalePly);
    let resign = ClientMessage::Resign { game_id: game_id.clone(), token: token_b.clone() + "x" };
    assert_eq!(code_of(c.request(&resign).await.unwrap()), ErrorCode::BadToken);
    // None of it was stored or reached the players.
    let ServerMessage::State { moves, ended, .. } =
        c.request(&ClientMessage::Open { game_id: game_id.clone(), token: None, have: 0 }).await.unwrap()
    else {
        panic!()
    };
    assert!(moves.is_empty() && ended.is_none());
    // An oversized message closes that connection with 1009.
    let mut big = Client::connect(&url).await.unwrap();
    big.send_text(format!(r#"{{"type":"join","code":"{}"}}"#, "A".repeat(MAX_MESSAGE_BYTES * 2))).await.unwrap();
    match big.recv_or_close().await {
        Err(Closed::Frame(code, _)) => assert_eq!(code, 1009),
        Err(Closed::Gone(_)) => {} // the server may close before the client reads the frame
        other => panic!("{other:?}"),
    }
    // A flood is throttled, then closed. (Its server allows one request a second, so the flood
    // overruns it however slowly a loaded machine reads it; the limit's size is a setting.)
    let strict = start(ServeOptions { requests_per_second: 1.0, ..ServeOptions::local(scratch_database("flood")) })
        .await
        .unwrap();
    let mut flood = Client::connect(&format!("ws://{}/ws", strict.addr)).await.unwrap();
    for _ in 0..200 {
        if flood.send(&ClientMessage::Ping).await.is_err() {
            break;
        }
    }
    let mut limited = 0;
    let closed = loop {
        match flood.recv_or_close().await {
            Ok(ServerMessage::Error { code: ErrorCode::RateLimited, .. }) => limited += 1,
            Ok(_) => {}
            Err(c) => break c,
        }
    };
    assert!(limited > 0, "the flood was not throttled");
    assert!(matches!(closed, Closed::Frame(1008, _) | Closed::Gone(_)), "{closed:?}");
    // Everyone else is still served: the players finish a move.
    let mut rng = seeded(3);
    a.play_random(&mut rng).await.unwrap();
    b.pump_until(|s| s.moves.len() == 1).await;
    assert_eq!(c.request(&ClientMessage::Ping).await.unwrap(), ServerMessage::Pong);
    strict.stop().await;
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_intention_commitments_never_reach_the_other_client_before_both_are_in() {
    let (url, running) = server(scratch_database("secret")).await;
    let [mut a, mut b] = table(&url, &url, GameKind::named("hidden-intention")).await;
    let mut rng = seeded(5);
    for round in 0..4 {
        if a.seat.ended.is_some() {
            break;
        }
        // A commits completely; B must see only "sealed" entries.
        b.client.raw.clear();
        let mut a_decisions = Vec::new();
        while let Some(d) = a.play_random(&mut rng).await {
            a_decisions.push(d);
        }
        assert!(!a_decisions.is_empty(), "round {round}: A could not commit");
        let n = a.seat.moves.len();
        b.pump_until(|s| s.moves.len() >= n).await;
        // Asking for the game list and making a mistake must not leak it either.
        b.client.send(&ClientMessage::List { tokens: vec![b.seat.token.clone().unwrap()] }).await.unwrap();
        b.pump_until(|_| true).await;
        let games = b.client.recv_until(|m| matches!(m, ServerMessage::Games { .. })).await.unwrap();
        assert!(matches!(games, ServerMessage::Games { ref games } if games.len() == 1 && games[0].your_turn));
        let raw_before_reveal = b.client.raw.join("\n");
        for d in &a_decisions {
            assert!(!raw_before_reveal.contains(&format!("\"{d}\"")), "round {round}: B saw A's sealed {d}");
        }
        assert!(
            b.seat
                .moves
                .iter()
                .filter(|m| m.by == Side::First)
                .all(|m| m.decision.is_none() || m.ply < n as u32 - a_decisions.len() as u32)
        );
        // B commits: both are revealed together.
        loop {
            b.play_random(&mut rng).await.expect("B can commit until both are revealed");
            if b.seat.revealed() as usize == b.seat.moves.len() {
                break;
            }
        }
        let n = b.seat.moves.len();
        a.pump_until(|s| s.moves.len() >= n && s.revealed() as usize == s.moves.len()).await;
        b.pump_until(|s| s.revealed() as usize == s.moves.len()).await;
        assert_eq!(a.seat.moves, b.seat.moves);
        let raw_after = b.client.raw.join("\n");
        assert!(a_decisions.iter().all(|d| raw_after.contains(&format!("\"{d}\""))));
    }
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_ends_the_game_and_a_rematch_swaps_the_seats() {
    let (url, running) = server(scratch_database("rematch")).await;
    let [mut a, mut b] = table(&url, &url, GameKind::named("throngs")).await;
    let game_id = a.seat.game_id.clone();
    let resign = ClientMessage::Resign { game_id: game_id.clone(), token: b.seat.token.clone().unwrap() };
    b.client.send(&resign).await.unwrap();
    a.pump_until(|s| s.ended.is_some()).await;
    b.pump_until(|s| s.ended.is_some()).await;
    let ending = a.seat.ended.clone().unwrap();
    assert!(ending.reason.contains("resigned"), "{ending:?}");
    assert_eq!(
        ending.result["winner"],
        serde_json::json!(GameKind::named("throngs").open(&[], None).unwrap().side_name(Side::First))
    );
    let rematch =
        |p: &Player| ClientMessage::Rematch { game_id: game_id.clone(), token: p.seat.token.clone().unwrap() };
    a.client.send(&rematch(&a)).await.unwrap();
    b.pump_until(|s| s.rematch_offered_by == Some(Side::First)).await;
    b.client.send(&rematch(&b)).await.unwrap();
    a.pump_until(|s| s.rematch.is_some()).await;
    b.pump_until(|s| s.rematch.is_some()).await;
    let (ra, rb) = (a.seat.rematch.clone().unwrap(), b.seat.rematch.clone().unwrap());
    assert_eq!(ra.game_id, rb.game_id);
    assert_eq!((ra.seat, rb.seat), (Side::Second, Side::First));
    let mut players =
        [Player::open(&url, &rb.game_id, &rb.token).await, Player::open(&url, &ra.game_id, &ra.token).await];
    let mut rng = seeded(9);
    players[0].play_random(&mut rng).await.unwrap();
    running.stop().await;
}

/// Two `serve` instances sharing one PostgreSQL database, the players on different instances.
/// Runs when `STONEYARD_TEST_POSTGRES` names a database (`make test` starts one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: STONEYARD_TEST_POSTGRES=postgres://… (make test-postgres)"]
async fn two_instances_sharing_postgresql_carry_a_game_between_players_on_each() {
    let database = std::env::var("STONEYARD_TEST_POSTGRES").expect("STONEYARD_TEST_POSTGRES is set");
    let (url_a, first) = server(database.clone()).await;
    let (url_b, second) = server(database).await;
    assert_ne!(url_a, url_b);
    for (i, kind) in GameKind::all().enumerate() {
        let mut players = table(&url_a, &url_b, kind).await;
        // Presence crosses instances too.
        players[0].pump_until(|s| s.online == [true, true]).await;
        let mut rng = seeded(100 + i as u64);
        play_to_the_end(&mut players, &mut rng, 5_000).await;
    }
    first.stop().await;
    second.stop().await;
}
