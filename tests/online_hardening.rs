//! The online server against a hostile client on loopback (issue 38): floods of every kind of
//! frame, a client that never reads, connections that never finish their handshake, invite-code
//! guessing, bad UTF-8, hidden files under `--web`, passwords in errors, hashed tokens; and, with
//! `STONEYARD_TEST_POSTGRES`, instances starting together, retries sent to two instances, and
//! instances whose LISTEN connections drop.

use crate::online_support;

use futures_util::{SinkExt, StreamExt};
use online_support::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;
use stoneyard::games::GameKind;
use stoneyard::online::client::{Client, Closed};
use stoneyard::online::protocol::{ClientMessage, ErrorCode, SeatChoice, ServerMessage};
use stoneyard::online::server::{GameStore, INVITES_PER_ADDRESS, ServeOptions, start};
use stoneyard::rules::Side;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};

/// Reads the next messages until the connection ends; counts the errors of `code` on the way.
async fn count_until_closed(client: &mut Client, code: ErrorCode) -> (usize, Closed) {
    let mut counted = 0;
    loop {
        match client.recv_or_close().await {
            Ok(ServerMessage::Error { code: c, .. }) if c == code => counted += 1,
            Ok(_) => {}
            Err(closed) => return (counted, closed),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_binary_frames_is_limited_and_closed() {
    let running = start(ServeOptions { requests_per_second: 5.0, ..ServeOptions::local(scratch_database("binary")) })
        .await
        .unwrap();
    let mut flood = Client::connect(&format!("ws://{}/ws", running.addr)).await.unwrap();
    for _ in 0..20_000 {
        if flood.send_binary(Vec::new()).await.is_err() {
            break;
        }
    }
    let (limited, closed) = count_until_closed(&mut flood, ErrorCode::RateLimited).await;
    assert!(limited > 0, "binary frames were not rate limited");
    assert!(matches!(closed, Closed::Frame(1008, _) | Closed::Gone(_)), "{closed:?}");
    running.stop().await;
}

/// A figure of the server process's memory in kB: "VmRSS" (resident now) or "VmHWM" (its peak).
fn memory_kb(pid: u32, figure: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(&format!("{figure}:"))).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The server process's resident memory in kB.
fn resident_kb(pid: u32) -> u64 {
    memory_kb(pid, "VmRSS")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_closed_and_the_server_memory_stays_bounded() {
    let port = free_port();
    let url = format!("ws://127.0.0.1:{port}/ws");
    let server = spawn_serve(&scratch_database("unread"), port);
    drop(connect_retrying(&url).await);
    let before = resident_kb(server.0.id());
    // A million pings, every one answered, none of the answers read.
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let ping = ClientMessage::Ping {}.to_json();
    let mut sent = 0u32;
    let mut refused = false;
    while sent < 1_000_000 {
        if socket.feed(Message::Text(ping.clone().into())).await.is_err() {
            refused = true;
            break;
        }
        sent += 1;
        if sent.is_multiple_of(1000) && socket.flush().await.is_err() {
            refused = true;
            break;
        }
    }
    let grown = resident_kb(server.0.id()).saturating_sub(before);
    assert!(grown < 48 * 1024, "the server grew by {grown} kB for a client that reads nothing");
    // What the server still sent, then the end: never an answer to every ping.
    let mut answers = 0u32;
    let ended = loop {
        match tokio::time::timeout(Duration::from_secs(10), socket.next()).await {
            Ok(Some(Ok(Message::Text(_)))) => answers += 1,
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(_))) | Ok(None) => break true,
            Err(_) => break false,
        }
    };
    eprintln!("sent {sent} pings (refused: {refused}), the server grew by {grown} kB, {answers} answers arrived");
    assert!(refused || ended, "the connection stayed open after {sent} unread answers");
    assert!(ended, "the server kept the connection of a client that reads nothing");
    assert!(answers < sent, "{answers} of {sent} answers arrived");
    // The server still serves others.
    let mut other = Client::connect(&url).await.unwrap();
    assert_eq!(other.request(&ClientMessage::Ping {}).await.unwrap(), ServerMessage::Pong);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_passwords_is_hashed_a_few_at_a_time_in_bounded_memory() {
    let port = free_port();
    let url = format!("ws://127.0.0.1:{port}/ws");
    let server = spawn_serve_with(&scratch_database("passwords"), port, &["--max-sign-ins-per-minute", "100000"]);
    drop(connect_retrying(&url).await);
    let before = resident_kb(server.0.id());
    // Twenty players, each signed in on three connections, each connection setting its password
    // four times without waiting: 240 hashes asked for at once (the attack took 5.8 GB with one
    // player on twenty connections).
    let mut connections = Vec::new();
    for p in 0..20 {
        let mut first = Client::connect(&url).await.unwrap();
        let name = unique("Flood");
        let key = match first.request(&ClientMessage::Register { name: name.clone() }).await.unwrap() {
            ServerMessage::SignedIn { key: Some(key), .. } => key,
            other => panic!("registering {name}: {other:?}"),
        };
        connections.push((p, first));
        for _ in 0..2 {
            let mut more = Client::connect(&url).await.unwrap();
            assert!(matches!(
                more.request(&ClientMessage::SignIn { key: key.clone() }).await.unwrap(),
                ServerMessage::SignedIn { .. }
            ));
            connections.push((p, more));
        }
    }
    let connected = resident_kb(server.0.id()).saturating_sub(before);
    let set = ClientMessage::SetPassword { password: "correct horse".into() };
    for (_, c) in &mut connections {
        for _ in 0..4 {
            c.send(&set).await.unwrap();
        }
    }
    // Every request is answered: set, or refused as busy or as too many for its player.
    let (mut set_by_player, mut busy, mut too_many) = ([0u32; 20], 0u32, 0u32);
    for (player, c) in &mut connections {
        for _ in 0..4 {
            match c
                .recv_until(|m| matches!(m, ServerMessage::PasswordSet {} | ServerMessage::Error { .. }))
                .await
                .unwrap()
            {
                ServerMessage::PasswordSet {} => set_by_player[*player] += 1,
                ServerMessage::Error { code: ErrorCode::RateLimited, message, .. } if message.contains("busy") => {
                    busy += 1
                }
                ServerMessage::Error { code: ErrorCode::RateLimited, message, .. } if message.contains("just now") => {
                    too_many += 1
                }
                other => panic!("{other:?}"),
            }
        }
    }
    let grown = memory_kb(server.0.id(), "VmHWM").saturating_sub(before);
    let kept = resident_kb(server.0.id()).saturating_sub(before);
    eprintln!(
        "240 passwords asked for at once: {} set, {busy} refused as busy, {too_many} as too many for their \
         player; the server's memory grew by {} MiB for the 60 connections, its peak by {} MiB in all, \
         and it kept {} MiB after",
        set_by_player.iter().sum::<u32>(),
        connected / 1024,
        grown / 1024,
        kept / 1024
    );
    // At most three a minute for each player, whatever the number of their connections; the
    // workers' queue refuses the rest of a burst at once instead of holding it in memory.
    assert!(set_by_player.iter().all(|&n| n <= 3), "{set_by_player:?}");
    assert!(set_by_player.iter().sum::<u32>() >= 2, "{set_by_player:?}");
    assert!(too_many > 0 && busy > 0, "{too_many} refused as too many for their player, {busy} as busy");
    // Two hashes at a time at 19 MiB each, not one per request, and given back after.
    assert!(grown < 96 * 1024, "the server's peak memory grew by {grown} kB");
    assert!(kept < 48 * 1024, "the server kept {kept} kB after the hashes");
    // The server still answers.
    let mut other = Client::connect(&url).await.unwrap();
    assert_eq!(other.request(&ClientMessage::Ping {}).await.unwrap(), ServerMessage::Pong);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_each_client_has_its_own_connection_cap() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let options = ServeOptions {
        max_connections_per_address: 5,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..ServeOptions::local(scratch_database("proxied"))
    };
    let running = start(options).await.unwrap();
    let url = format!("ws://{}/ws", running.addr);
    // Every connection comes from the proxy (127.0.0.1), each naming its client.
    let open = |client: &'static str| {
        let mut request = url.as_str().into_client_request().unwrap();
        request.headers_mut().insert("x-forwarded-for", client.parse().unwrap());
        tokio_tungstenite::connect_async(request)
    };
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(open("203.0.113.9").await.expect("a connection within the cap").0);
    }
    for _ in 0..3 {
        match open("203.0.113.9").await {
            Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => assert_eq!(answer.status(), 429),
            other => panic!("a sixth connection of one client: {:?}", other.map(|_| ())),
        }
    }
    // Another client of the same proxy is not held back, and a closed connection frees its slot.
    held.push(open("203.0.113.10").await.expect("another client").0);
    let mut closed = held.swap_remove(0);
    closed.close(None).await.unwrap();
    while closed.next().await.is_some() {}
    let mut again = None;
    for _ in 0..50 {
        if let Ok((socket, _)) = open("203.0.113.9").await {
            again = Some(socket);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "a closed connection's slot was not freed");
    running.stop().await;
}

/// True when the peer closes `stream` within `wait` (a read gives end of file or an error).
fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut byte = [0u8; 256];
    loop {
        match stream.read(&mut byte) {
            Ok(0) => return true,
            Ok(_) => continue, // an error page for a partial request, then the close
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut => {
                return false;
            }
            Err(_) => return true,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_never_finish_the_handshake_are_closed_and_each_address_has_a_cap() {
    let options = ServeOptions {
        handshake_timeout: Duration::from_millis(600),
        max_connections_per_address: 3,
        ..ServeOptions::local(scratch_database("handshake"))
    };
    let running = start(options).await.unwrap();
    let addr = running.addr;
    let checks = tokio::task::spawn_blocking(move || {
        // Silent, and a request line trickled in a byte at a time: both closed.
        let mut silent = TcpStream::connect(addr).unwrap();
        let mut trickle = TcpStream::connect(addr).unwrap();
        trickle.write_all(b"GET / HT").unwrap();
        assert!(closed_within(&mut silent, Duration::from_secs(5)), "a silent connection stayed open");
        assert!(closed_within(&mut trickle, Duration::from_secs(5)), "a partial request stayed open");
    });
    checks.await.unwrap();
    // The cap on a server whose handshakes may take long, so only the cap closes a connection
    // here, and the waits for the server to have accepted (or let go of) a connection can be
    // generous on a busy machine: a fourth connection let in would stay open for 30 s.
    let patient = ServeOptions {
        handshake_timeout: Duration::from_secs(30),
        max_connections_per_address: 3,
        ..ServeOptions::local(scratch_database("handshake-cap"))
    };
    let capped = start(patient).await.unwrap();
    let cap_addr = capped.addr;
    let checks = tokio::task::spawn_blocking(move || {
        // Three open from this address; a fourth is closed at once; one closes, one more fits.
        let mut open: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(cap_addr).unwrap()).collect();
        std::thread::sleep(Duration::from_millis(500));
        let mut fourth = TcpStream::connect(cap_addr).unwrap();
        assert!(closed_within(&mut fourth, Duration::from_secs(3)), "a fourth connection was accepted");
        assert!(!closed_within(&mut open[0], Duration::from_millis(100)), "an allowed connection was closed");
        drop(open.remove(0));
        std::thread::sleep(Duration::from_millis(500));
        let mut again = TcpStream::connect(cap_addr).unwrap();
        assert!(!closed_within(&mut again, Duration::from_millis(300)), "a freed slot was not given again");
    });
    checks.await.unwrap();
    capped.stop().await;
    // A WebSocket that finished its handshake is not timed out by it (the idle limit applies).
    let mut client = Client::connect(&format!("ws://{addr}/ws")).await.unwrap();
    tokio::time::sleep(Duration::from_millis(900)).await;
    assert_eq!(client.request(&ClientMessage::Ping {}).await.unwrap(), ServerMessage::Pong);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invite_codes_answer_alike_and_guessing_from_many_connections_is_refused() {
    let options = ServeOptions { joins_per_minute: 12.0, ..ServeOptions::local(scratch_database("codes")) };
    let running = start(options).await.unwrap();
    let url = format!("ws://{}/ws", running.addr);
    let refusal = |m: ServerMessage| match m {
        ServerMessage::Error { code, message, game_id, .. } => (code, message, game_id),
        other => panic!("expected a refusal, got {other:?}"),
    };
    let kind = GameKind::named("gravel");
    // A full game's code, a code of a game resigned before anyone joined, and a wrong code.
    let (_, _, _, full_code) = create(&url, kind, SeatChoice::First).await;
    join(&url, &full_code).await;
    let (resigned_id, _, resigned_token, resigned_code) = create(&url, kind, SeatChoice::First).await;
    let mut c = Client::connect(&url).await.unwrap();
    let resign = ClientMessage::Resign { game_id: resigned_id, token: resigned_token };
    assert!(matches!(c.request(&resign).await.unwrap(), ServerMessage::Ended { .. }));
    let mut answers = Vec::new();
    for code in [&full_code, &resigned_code, &"CDEF-GHJK".to_string()] {
        let (kind, message, game_id) = refusal(c.request(&ClientMessage::Join { code: code.clone() }).await.unwrap());
        assert_eq!(kind, ErrorCode::NoSuchCode);
        assert_eq!(game_id, None, "a refused code names no game");
        answers.push(message.replace(code.as_str(), "CODE"));
    }
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
    // Guessing from twenty connections of one address: the address's allowance runs out.
    let mut guessers = Vec::new();
    for _ in 0..20 {
        guessers.push(Client::connect(&url).await.unwrap());
    }
    let mut limited = 0;
    for (i, g) in guessers.iter_mut().enumerate() {
        let guess = ClientMessage::Join { code: format!("CDEF-GH{}", ["JK", "KM", "MN", "NP"][i % 4]) };
        for _ in 0..3 {
            let (code, _, _) = refusal(g.request(&guess).await.unwrap());
            if code == ErrorCode::RateLimited {
                limited += 1;
            } else {
                assert_eq!(code, ErrorCode::NoSuchCode);
            }
        }
    }
    // 12 a minute: at most 12 - 4 tries were left (and a little refill) of the 60 made.
    assert!(limited >= 48, "only {limited} of 60 guesses were refused");
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smaller_holes_are_closed() {
    let database = scratch_database("small");
    let web = std::env::temp_dir().join(format!("stoneyard-web-{}", std::process::id()));
    let outside = std::env::temp_dir().join(format!("stoneyard-outside-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&web);
    std::fs::create_dir_all(&web).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(web.join("index.html"), "<html>Stoneyard</html>").unwrap();
    std::fs::write(web.join(".env"), "SECRET=1").unwrap();
    std::fs::write(outside.join("private.txt"), "PRIVATE").unwrap();
    std::os::unix::fs::symlink(&outside, web.join("elsewhere")).unwrap();
    let options = ServeOptions { web: Some(web.clone()), ..ServeOptions::local(database.clone()) };
    let running = start(options).await.unwrap();
    let addr = running.addr;
    let url = format!("ws://{addr}/ws");
    // Hidden files and links out of the folder are not served; the page is.
    let status_of = move |path: &str| {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        reply
    };
    let statuses =
        tokio::task::spawn_blocking(move || ["/", "/.env", "/%2eenv", "/elsewhere/private.txt"].map(status_of))
            .await
            .unwrap();
    assert!(statuses[0].starts_with("HTTP/1.1 200") && statuses[0].contains("Stoneyard"), "{}", statuses[0]);
    for reply in &statuses[1..] {
        assert!(reply.starts_with("HTTP/1.1 404"), "{reply}");
        assert!(!reply.contains("SECRET") && !reply.contains("PRIVATE"), "{reply}");
    }
    // Text that is not UTF-8 closes with 1007 and a reason.
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    socket.next().await.unwrap().unwrap(); // welcome
    let frame = Frame::message(vec![0xff, 0xfe, 0x80], OpCode::Data(Data::Text), true);
    socket.send(Message::Frame(frame)).await.unwrap();
    let close = loop {
        match socket.next().await {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(_)) => continue,
            other => panic!("no close frame: {other:?}"),
        }
    };
    let close = close.expect("a close frame with a code");
    assert_eq!(u16::from(close.code), 1007);
    assert!(!close.reason.is_empty());
    // A ping with a field it does not have is refused like any other message.
    let mut c = Client::connect(&url).await.unwrap();
    c.send_text(r#"{"type":"ping","pad":"xxxx"}"#.into()).await.unwrap();
    assert!(matches!(c.recv().await.unwrap(), ServerMessage::Error { code: ErrorCode::BadMessage, .. }));
    // A list naming one game 200 times lists it once.
    let (game_id, _, token, _) = create(&url, GameKind::named("red-stone"), SeatChoice::First).await;
    let list = ClientMessage::List { tokens: vec![token.clone(); 200] };
    let ServerMessage::Games { games } = c.request(&list).await.unwrap() else { panic!() };
    assert_eq!(games.len(), 1);
    assert_eq!((games[0].game_id.as_str(), games[0].token.as_str()), (game_id.as_str(), token.as_str()));
    // The store keeps a hash of the token, not the token.
    let store = GameStore::open(&database).await.unwrap();
    let row = store.game(&game_id).await.unwrap().unwrap();
    let kept = row.tokens[0].clone().unwrap();
    assert_ne!(kept, token);
    assert_eq!(kept.len(), 64);
    assert!(!kept.contains(&token));
    running.stop().await;
    let _ = std::fs::remove_dir_all(&web);
    let _ = std::fs::remove_dir_all(&outside);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_the_first_version_is_migrated_and_its_players_keep_their_seats_and_games() {
    use sqlx::Connection;
    let database = scratch_database("version-1");
    let mut old = sqlx::SqliteConnection::connect(&format!("{database}?mode=rwc")).await.unwrap();
    // The tables as the first servers made them, seat tokens kept as they are, and a Hidden
    // Intention attempt stored one decision a row, the two seats' decisions interleaved.
    for statement in [
        "CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, code TEXT NOT NULL UNIQUE, \
         token_first TEXT UNIQUE, token_second TEXT UNIQUE, created_ms BIGINT NOT NULL, ending TEXT, \
         rematch_offered_by BIGINT, rematch TEXT)",
        "CREATE TABLE moves (game_id TEXT NOT NULL, ply BIGINT NOT NULL, seat BIGINT NOT NULL, decision TEXT NOT NULL, \
         at_ms BIGINT NOT NULL, PRIMARY KEY (game_id, ply))",
    ] {
        sqlx::query(statement).execute(&mut old).await.unwrap();
    }
    let kind = GameKind::named("hidden-intention");
    let options = serde_json::to_string(&kind.quick_pairs()).unwrap();
    sqlx::query("INSERT INTO games VALUES ('hi', 'hidden-intention', $1, 'CDEF-GHJK', 'token-a', 'token-b', 0, NULL, NULL, NULL)")
        .bind(&options)
        .execute(&mut old)
        .await
        .unwrap();
    let mut position = kind.open(&kind.quick_pairs(), None).unwrap();
    let mut rows = Vec::new();
    let mut whole = [Vec::new(), Vec::new()];
    let before = position.position_text();
    while position.position_text() == before {
        for side in [Side::First, Side::Second] {
            let legal = position.legal_decisions(side);
            if legal.is_empty() {
                continue; // sealed: the other seat goes on until the attempt is revealed
            }
            let d = if side == Side::First { legal[0].clone() } else { legal[legal.len() - 1].clone() };
            position.play_decision(&d).unwrap();
            whole[side.index()].push(d.clone());
            rows.push((side, d));
        }
    }
    assert!(rows.len() >= 4, "{rows:?}");
    for (ply, (side, d)) in rows.iter().enumerate() {
        sqlx::query("INSERT INTO moves VALUES ('hi', $1, $2, $3, 0)")
            .bind(ply as i64)
            .bind(side.index() as i64)
            .bind(d)
            .execute(&mut old)
            .await
            .unwrap();
    }
    old.close().await.unwrap();
    let running = start(ServeOptions::local(database.clone())).await.unwrap();
    let url = format!("ws://{}/ws", running.addr);
    let mut c = Client::connect(&url).await.unwrap();
    let open = ClientMessage::Open { game_id: "hi".into(), token: Some("token-b".into()), have: 0 };
    let ServerMessage::State { seat, moves, .. } = c.request(&open).await.unwrap() else { panic!() };
    assert_eq!(seat, Some(Side::Second), "the old token still holds its seat");
    let plies: Vec<String> = moves.into_iter().map(|m| m.decision.unwrap()).collect();
    assert_eq!(plies, vec![whole[0].join(";"), whole[1].join(";")], "one ply a commitment");
    let ServerMessage::Games { games } =
        c.request(&ClientMessage::List { tokens: vec!["token-a".into()] }).await.unwrap()
    else {
        panic!()
    };
    assert_eq!((games.len(), games[0].seat, games[0].plies), (1, Side::First, 2));
    let store = GameStore::open(&database).await.unwrap();
    let row = store.game("hi").await.unwrap().unwrap();
    assert!(row.tokens.iter().all(|t| t.as_ref().is_some_and(|t| t.len() == 64 && !t.starts_with("token"))));
    running.stop().await;
}

#[test]
fn no_message_of_the_server_shows_the_database_password() {
    let port = free_port();
    // In the URL's user part, and as PostgreSQL's `?password=` parameter.
    for url in [
        format!("postgres://stoneyard:Sup3rSecretPw@127.0.0.1:{port}/games"),
        format!("postgres://stoneyard@127.0.0.1:{port}/games?password=Sup3rSecretPw&sslmode=disable"),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_stoneyard"))
            .args(["serve", "--listen", "127.0.0.1:0", "--database", &url])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert!(!output.status.success(), "no database listens there");
        let said = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(said.contains("cannot open the store"), "{said}");
        assert!(!said.contains("Sup3rSecretPw"), "{url}: {said}");
    }
}

/// A new empty database on the test's PostgreSQL server.
async fn empty_postgres_database(name: &str) -> String {
    use sqlx::Connection;
    let base = std::env::var("STONEYARD_TEST_POSTGRES").expect("STONEYARD_TEST_POSTGRES is set");
    let mut admin = sqlx::PgConnection::connect(&base).await.unwrap();
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}")).execute(&mut admin).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.unwrap();
    let (server, _) = base.rsplit_once('/').unwrap();
    format!("{server}/{name}")
}

/// Runs when `STONEYARD_TEST_POSTGRES` names a database (`make test` starts one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: STONEYARD_TEST_POSTGRES=postgres://… (make test-postgres)"]
async fn postgres_instances_started_together_on_an_empty_database_all_start() {
    for attempt in 0..6 {
        let database = empty_postgres_database(&format!("stoneyard_fresh_{attempt}")).await;
        let starts = (0..3).map(|_| start(ServeOptions::local(database.clone())));
        let started = futures_util::future::join_all(starts).await;
        for (i, s) in started.into_iter().enumerate() {
            let running = s.unwrap_or_else(|e| panic!("attempt {attempt}: instance {i} failed: {e}"));
            running.stop().await;
        }
    }
}

/// Runs when `STONEYARD_TEST_POSTGRES` names a database (`make test` starts one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: STONEYARD_TEST_POSTGRES=postgres://… (make test-postgres)"]
async fn postgres_an_identical_retry_through_two_instances_is_acknowledged_by_both() {
    let database = empty_postgres_database("stoneyard_retry").await;
    let (url_a, first) = server(database.clone()).await;
    let (url_b, second) = server(database).await;
    let [mut a, mut b] = table(&url_a, &url_b, GameKind::named("inchworm")).await;
    let game_id = a.seat.game_id.clone();
    let mut through_a = Client::connect(&url_a).await.unwrap();
    let mut through_b = Client::connect(&url_b).await.unwrap();
    let mut rng = stoneyard::rules::seeded(21);
    for round in 0..20 {
        // The seat to move sends its next decision to both instances at once.
        let (mover, other) = if a.legal().is_empty() { (&mut b, &mut a) } else { (&mut a, &mut b) };
        let legal = mover.legal();
        if legal.is_empty() {
            break;
        }
        let decision = legal[stoneyard::rules::pick_index(&mut rng, legal.len())].clone();
        let ply = mover.seat.moves.len() as u32;
        let token = mover.seat.token.clone().unwrap();
        let mv = ClientMessage::Move { game_id: game_id.clone(), token, ply, decision };
        let (one, two) = tokio::join!(through_a.request(&mv), through_b.request(&mv));
        let ack = ServerMessage::Ack { game_id: game_id.clone(), ply };
        assert_eq!((one.unwrap(), two.unwrap()), (ack.clone(), ack), "round {round}");
        mover.pump_until(|s| s.moves.len() > ply as usize).await;
        other.pump_until(|s| s.moves.len() > ply as usize).await;
    }
    first.stop().await;
    second.stop().await;
}

/// Runs when `STONEYARD_TEST_POSTGRES` names a database (`make test` starts one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: STONEYARD_TEST_POSTGRES=postgres://… (make test-postgres)"]
async fn postgres_an_instance_whose_listen_connection_drops_reads_what_it_missed() {
    use sqlx::Connection;
    let database = empty_postgres_database("stoneyard_listen").await;
    let (url_a, first) = server(database.clone()).await;
    let (url_b, second) = server(database.clone()).await;
    let mut players = table(&url_a, &url_b, GameKind::named("inchworm")).await;
    players[0].pump_until(|s| s.online == [true, true]).await;
    // A decision stored without a word to anyone: as if announced while nobody listened.
    let decision = players[0].legal()[0].clone();
    let store = GameStore::open(&database).await.unwrap();
    assert!(store.append(&players[0].seat.game_id, 0, Side::First, &decision, 0, None).await.unwrap());
    let mut admin = sqlx::PgConnection::connect(&database).await.unwrap();
    let cut = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
               WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()";
    let listeners = sqlx::query(cut).fetch_all(&mut admin).await.unwrap();
    assert_eq!(listeners.len(), 2, "each instance listens on one connection");
    // Both listen again and read the game again: each player gets the decision, and the game goes on.
    for player in players.iter_mut() {
        player.pump_until(|s| s.moves.len() == 1).await;
        assert_eq!(player.seat.moves[0].decision.as_deref(), Some(decision.as_str()));
    }
    play_to_the_end(&mut players, &mut stoneyard::rules::seeded(22), 5_000).await;
    first.stop().await;
    second.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_like_an_existing_one_and_a_flood_of_invites_from_one_address_are_refused() {
    let options = ServeOptions {
        requests_per_second: FAST_PLAYERS,
        sign_ins_per_minute: 100_000.0,
        ..ServeOptions::local(scratch_database("lookalikes"))
    };
    let running = start(options).await.unwrap();
    let url = format!("ws://{}/ws", running.addr);
    let register = |name: &'static str| {
        let url = url.clone();
        async move {
            let mut c = Client::connect(&url).await.unwrap();
            c.request(&ClientMessage::Register { name: name.into() }).await.unwrap()
        }
    };
    assert!(matches!(register("Alice").await, ServerMessage::SignedIn { .. }));
    // A capital i for the l, a one, or another case of the same name: each refused, and why.
    for lookalike in ["AIice", "A1ice", "ALICE"] {
        let refused = register(lookalike).await;
        assert!(matches!(&refused, ServerMessage::Error { code: ErrorCode::NameTaken, .. }), "{refused:?}");
    }
    let ServerMessage::Error { message, .. } = register("AIice").await else { unreachable!() };
    assert!(message.contains("looks too much like") && message.contains("'Alice'"), "{message}");
    assert!(matches!(register("Alicia").await, ServerMessage::SignedIn { .. }));

    // One address holds at most INVITES_PER_ADDRESS invites nobody joined; a joined one frees a place.
    let mut codes = Vec::new();
    for _ in 0..INVITES_PER_ADDRESS {
        codes.push(create(&url, GameKind::named("gravel"), SeatChoice::First).await.3);
    }
    let mut creator = Client::connect(&url).await.unwrap();
    let gravel = GameKind::named("gravel");
    let another = ClientMessage::Create { game: gravel, options: gravel.quick_pairs(), seat: SeatChoice::First };
    let refused = creator.request(&another).await.unwrap();
    assert!(matches!(refused, ServerMessage::Error { code: ErrorCode::RateLimited, .. }), "{refused:?}");
    join(&url, &codes[0]).await;
    let created = creator.request(&another).await.unwrap();
    assert!(matches!(created, ServerMessage::Created { .. }), "{created:?}");
    running.stop().await;
}
