//! The online game server end to end on loopback: whole games of every game between two protocol
//! clients, reconnection, a SIGKILL and restart, every kind of bad input, Hidden Intention's
//! secrecy on the raw frames (byte for byte the same whatever was committed), and (with
//! `STONEYARD_TEST_POSTGRES`) two instances sharing PostgreSQL.

use crate::online_support;

use online_support::*;
use stoneyard::games::{DynGame, GameKind};
use stoneyard::online::client::{Client, Closed};
use stoneyard::online::protocol::{ClientMessage, ErrorCode, MAX_MESSAGE_BYTES, SeatChoice, ServerMessage};
use stoneyard::online::server::{ServeOptions, start};
use stoneyard::online::table::leaves_commitment_open;
use stoneyard::rules::{Side, seeded};

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
    let mut b = Player { client: Client::connect(&url).await.unwrap(), seat: b_seat };
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
        if flood.send(&ClientMessage::Ping {}).await.is_err() {
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
    assert_eq!(c.request(&ClientMessage::Ping {}).await.unwrap(), ServerMessage::Pong);
    strict.stop().await;
    running.stop().await;
}

/// A's whole commitments of every shape at `position`: every figure (each pawn form), a knight
/// facing each corner, and a swap before each of them (the first target square and swap each time).
fn commitment_shapes(position: &dyn DynGame, side: Side) -> Vec<String> {
    fn branch(decision: &str) -> bool {
        let rest = decision.split_once(':').map_or(decision, |(_, r)| r);
        rest.len() == 1 || rest.starts_with('/')
    }
    fn grow(position: &dyn DynGame, side: Side, parts: Vec<String>, out: &mut Vec<String>) {
        let legal = position.legal_decisions(side);
        let swaps: Vec<&String> = legal.iter().filter(|d| d.contains("<>")).take(1).collect();
        let squares: Vec<&String> = legal.iter().filter(|d| !d.contains("<>") && !branch(d)).take(1).collect();
        let choices = legal.iter().filter(|d| branch(d)).chain(swaps).chain(squares);
        for d in choices {
            let mut parts = parts.clone();
            parts.push(d.clone());
            if leaves_commitment_open(position, d) {
                let mut next = position.clone_box();
                next.play_decision(d).unwrap();
                grow(next.as_ref(), side, parts, out);
            } else {
                out.push(parts.join(";"));
            }
        }
    }
    let mut out = Vec::new();
    grow(position, side, Vec::new(), &mut out);
    out
}

/// A whole commitment of `side`: its first legal decision at each stage (the last for the second
/// side, so the two do not name the same square and burn it).
fn first_commitment(position: &dyn DynGame, side: Side) -> String {
    let mut trial = position.clone_box();
    let mut parts = Vec::new();
    loop {
        let legal = trial.legal_decisions(side);
        let d = if side == Side::First { legal[0].clone() } else { legal[legal.len() - 1].clone() };
        let open = leaves_commitment_open(trial.as_ref(), &d);
        trial.play_decision(&d).unwrap();
        parts.push(d);
        if !open {
            return parts.join(";");
        }
    }
}

/// Plays one ply of `player`'s seat and waits until the server stored it.
async fn play_ply(player: &mut Player, ply: String) {
    for m in player.seat.play(ply) {
        player.client.send(&m).await.unwrap();
    }
    player.pump_until(|s| s.pending.is_empty()).await;
}

/// What B and a viewer receive while A's commitment is sealed, with the game's id, the seats'
/// tokens and the code written as placeholders.
async fn what_the_others_learn(url: &str, opening: &[String], commitment: &str, probes: &[String]) -> Vec<String> {
    let kind = GameKind::named("hidden-intention");
    let [mut a, mut b] = table(url, url, kind).await;
    let game_id = a.seat.game_id.clone();
    let token_b = b.seat.token.clone().unwrap();
    let mut viewer = Client::connect(url).await.unwrap();
    viewer.request(&ClientMessage::Open { game_id: game_id.clone(), token: None, have: 0 }).await.unwrap();
    a.pump_until(|s| s.online == [true, true]).await;
    b.pump_until(|s| s.online == [true, true]).await;
    for (i, ply) in opening.iter().enumerate() {
        let player = if i % 2 == 0 { &mut a } else { &mut b };
        play_ply(player, ply.clone()).await;
        b.pump_until(|s| s.moves.len() > i).await;
        if i % 2 == 1 {
            a.pump_until(|s| s.revealed() as usize > i).await;
            viewer.recv_until(|m| matches!(m, ServerMessage::Revealed { .. })).await.unwrap();
        }
    }
    b.client.raw.clear();
    viewer.raw.clear();
    let sealed_at = a.seat.moves.len();
    play_ply(&mut a, commitment.to_string()).await;
    b.pump_until(|s| s.moves.len() > sealed_at).await;
    viewer.recv_until(|m| matches!(m, ServerMessage::Moved { .. })).await.unwrap();
    // B asks for the game, its list, and probes A's state with A's decisions under its own seat.
    let open = ClientMessage::Open { game_id: game_id.clone(), token: Some(token_b.clone()), have: 0 };
    b.client.request(&open).await.unwrap();
    b.client.request(&ClientMessage::List { tokens: vec![token_b.clone()] }).await.unwrap();
    for probe in probes {
        for ply in [sealed_at as u32 + 1, sealed_at as u32] {
            let mv =
                ClientMessage::Move { game_id: game_id.clone(), token: token_b.clone(), ply, decision: probe.clone() };
            b.client.request(&mv).await.unwrap();
        }
    }
    viewer.request(&ClientMessage::Open { game_id: game_id.clone(), token: None, have: 0 }).await.unwrap();
    let placeholders = |text: &String| text.replace(&game_id, "GAME").replace(&token_b, "TOKEN-B");
    let mut seen: Vec<String> = b.client.raw.iter().map(placeholders).collect();
    seen.push("-- viewer --".into());
    seen.extend(viewer.raw.iter().map(placeholders));
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sealed_commitment_tells_the_other_seat_and_viewers_the_same_whatever_it_is() {
    let (url, running) = server(scratch_database("secret")).await;
    // An opening after which A may swap two of its figures: both play their first commitments.
    let kind = GameKind::named("hidden-intention");
    let mut position = kind.open(&kind.quick_pairs(), None).unwrap();
    let mut opening = Vec::new();
    while !position.legal_decisions(Side::First).iter().any(|d| d.contains("<>")) {
        assert!(opening.len() < 20, "no swap after {} plies", opening.len());
        for side in Side::BOTH {
            let commitment = first_commitment(position.as_ref(), side);
            for part in commitment.split(';') {
                position.play_decision(part).unwrap();
            }
            opening.push(commitment);
        }
    }
    let shapes = commitment_shapes(position.as_ref(), Side::First);
    let has = |what: &dyn Fn(&String) -> bool| shapes.iter().any(what);
    assert!(has(&|c| c.contains("<>") && c.contains("/")), "a swap and a knight: {shapes:?}");
    assert!(has(&|c| c.matches(';').count() == 1), "a plain figure: {shapes:?}");
    assert!(shapes.len() >= 12, "{shapes:?}");
    // Probes: every first decision A could make, sent by B.
    let probes: Vec<String> = position.legal_decisions(Side::First);
    let mut first: Option<(String, Vec<String>)> = None;
    for shape in &shapes {
        let seen = what_the_others_learn(&url, &opening, shape, &probes).await;
        assert!(seen.iter().any(|m| m.contains(r#""type":"moved""#)), "{seen:?}");
        assert!(!seen.iter().any(|m| m.contains(shape.as_str())), "{shape} leaked: {seen:?}");
        match &first {
            None => first = Some((shape.clone(), seen)),
            Some((first_shape, first_seen)) => {
                assert_eq!(&seen, first_seen, "B and a viewer tell {shape} from {first_shape}");
            }
        }
    }
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_intention_commitments_are_revealed_together_once_both_are_in() {
    let (url, running) = server(scratch_database("reveal")).await;
    let [mut a, mut b] = table(&url, &url, GameKind::named("hidden-intention")).await;
    let mut rng = seeded(5);
    for round in 0..4 {
        if a.seat.ended.is_some() {
            break;
        }
        // A builds its commitment decision by decision: nothing leaves A until it is whole.
        let mut a_decisions = Vec::new();
        let sent_before = a.seat.moves.len();
        while let Some(d) = a.play_random(&mut rng).await {
            a_decisions.push(d);
        }
        assert!(!a_decisions.is_empty(), "round {round}: A could not commit");
        assert_eq!(a.seat.moves.len(), sent_before + 1, "round {round}: one ply for A's commitment");
        let n = a.seat.moves.len();
        b.pump_until(|s| s.moves.len() >= n).await;
        assert_eq!(b.seat.moves[n - 1].decision, None, "round {round}: B sees A's commitment sealed");
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
        assert_eq!(a.seat.board_decisions(), b.seat.board_decisions());
        let raw_after = b.client.raw.join("\n");
        assert!(raw_after.contains(&a_decisions.join(";")), "round {round}: A's commitment revealed to B");
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
