//! Finding an opponent online (issue 44) end to end on loopback: names, keys and passwords, the
//! lobby's challenges (public and direct, newest first, the accept race, withdrawals, a restart
//! and a SIGKILL), private games kept from strangers,
//! quick play and its computer offer, Glicko-2 ratings, player pages and leaderboards, watching a
//! game (Hidden Intention's sealed commitments stay sealed on the raw frames), preset phrases,
//! what the store keeps of keys and tokens, and (with `STONEYARD_TEST_POSTGRES`) two instances
//! sharing the lobby and quick play's queue.

use crate::online_support;

use online_support::*;
use sha2::{Digest, Sha256};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use stoneyard::games::{DynGame, GameKind};
use stoneyard::online::client::Client;
use stoneyard::online::directory::{Challenge, LiveGame, PROVISIONAL_DEVIATION, Phrase, RatingChange, TimeControl};
use stoneyard::online::protocol::{ClientMessage, ErrorCode, SeatChoice, ServerMessage};
use stoneyard::online::server::{CHALLENGES_PER_PLAYER, LISTED_CHALLENGES, Running, ServeOptions, start};
use stoneyard::online::table::leaves_commitment_open;
use stoneyard::rules::{Side, seeded};

/// Quick play's wait in these tests (the server's default is a minute).
const QUICK_PLAY_WAIT: Duration = Duration::from_millis(300);

fn gravel() -> GameKind {
    GameKind::named("gravel")
}

/// A server for fast test players: every test player connects from 127.0.0.1, so the per-address
/// sign-in limit is raised (one test checks it at a small size).
async fn lobby_server(database: String) -> (String, Running) {
    lobby_server_with(database, QUICK_PLAY_WAIT).await
}

async fn lobby_server_with(database: String, quick_play_wait: Duration) -> (String, Running) {
    let options = ServeOptions {
        requests_per_second: FAST_PLAYERS,
        sign_ins_per_minute: 100_000.0,
        quick_play_wait,
        // The scenarios rate many games between the same two players (the limit has a test of its own).
        rated_games_per_pair_per_day: u32::MAX,
        ..ServeOptions::local(database)
    };
    let running = start(options).await.unwrap();
    (format!("ws://{}/ws", running.addr), running)
}

/// Sends a request and reads until its answer: a message `want` accepts, or an error.
async fn ask(c: &mut Client, m: ClientMessage, want: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
    c.send(&m).await.unwrap();
    c.recv_until(|r| want(r) || matches!(r, ServerMessage::Error { .. })).await.unwrap()
}

/// The code of an error (which must say why in words).
fn code_of(m: &ServerMessage) -> ErrorCode {
    match m {
        ServerMessage::Error { code, message, .. } => {
            assert!(!message.is_empty(), "{m:?}");
            *code
        }
        other => panic!("expected an error, got {other:?}"),
    }
}

/// A new connection that registers `name`: it and the device's player key.
async fn register(url: &str, name: &str) -> (Client, String) {
    let mut c = Client::connect(url).await.unwrap();
    match c.request(&ClientMessage::Register { name: name.into() }).await.unwrap() {
        ServerMessage::SignedIn { player, key: Some(key) } => {
            assert_eq!(player.name, name);
            (c, key)
        }
        other => panic!("registering {name}: {other:?}"),
    }
}

/// A new connection signed in with a player key.
async fn sign_in(url: &str, key: &str) -> Client {
    let mut c = Client::connect(url).await.unwrap();
    let signed = c.request(&ClientMessage::SignIn { key: key.into() }).await.unwrap();
    assert!(matches!(signed, ServerMessage::SignedIn { key: None, .. }), "{signed:?}");
    c
}

fn challenge_of(game: GameKind, rated: bool, to: Option<&str>) -> ClientMessage {
    ClientMessage::Challenge {
        game,
        options: game.quick_pairs(),
        seat: SeatChoice::First,
        rated,
        time_control: None,
        to: to.map(str::to_string),
    }
}

/// Posts a challenge of `game` (the poster plays first): its game id and the poster's token.
async fn post(c: &mut Client, game: GameKind, rated: bool, to: Option<&str>) -> (String, String) {
    match ask(c, challenge_of(game, rated, to), |m| matches!(m, ServerMessage::Created { .. })).await {
        ServerMessage::Created { game_id, seat, token, .. } => {
            assert_eq!(seat, Side::First);
            (game_id, token)
        }
        other => panic!("posting a challenge: {other:?}"),
    }
}

/// Accepts a challenge: `Joined` or an error.
async fn accept(c: &mut Client, game_id: &str) -> ServerMessage {
    ask(c, ClientMessage::Accept { game_id: game_id.into() }, |m| matches!(m, ServerMessage::Joined { .. })).await
}

/// Accepts a challenge that must still be open: the accepter's token.
async fn accepted(c: &mut Client, game_id: &str) -> String {
    match accept(c, game_id).await {
        ServerMessage::Joined { game_id: joined, seat, token } => {
            assert_eq!((joined.as_str(), seat), (game_id, Side::Second));
            token
        }
        other => panic!("accepting {game_id}: {other:?}"),
    }
}

/// Follows the lobby: the challenges and live games it holds now.
async fn watch_lobby(c: &mut Client) -> (Vec<Challenge>, Vec<LiveGame>) {
    match ask(c, ClientMessage::WatchLobby {}, |m| matches!(m, ServerMessage::Lobby { .. })).await {
        ServerMessage::Lobby { challenges, live } => (challenges, live),
        other => panic!("{other:?}"),
    }
}

/// Sends a ping and returns everything received before its pong.
async fn until_pong(c: &mut Client) -> Vec<ServerMessage> {
    c.send(&ClientMessage::Ping {}).await.unwrap();
    let mut before = Vec::new();
    loop {
        match c.recv().await.unwrap() {
            ServerMessage::Pong => return before,
            m => before.push(m),
        }
    }
}

/// Follows a game with a seat's token (or none): its `State`.
async fn open(c: &mut Client, game_id: &str, token: Option<&str>) -> ServerMessage {
    let message = ClientMessage::Open { game_id: game_id.into(), token: token.map(str::to_string), have: 0 };
    ask(c, message, |m| matches!(m, ServerMessage::State { game_id: g, .. } if g == game_id)).await
}

/// Plays `plies` random decisions, each seat in its turn, both players following every one.
async fn play_plies(players: &mut [Player; 2], rng: &mut stoneyard::rules::GameRng, plies: usize) {
    while players[0].seat.moves.len() < plies {
        let mut any = false;
        for i in 0..2 {
            if players[i].play_random(rng).await.is_some() {
                any = true;
                let total = players[i].seat.moves.len();
                players[1 - i].pump_until(|s| s.moves.len() >= total).await;
            }
        }
        assert!(any, "nobody could move");
    }
}

/// Each seat plays its first turn, through connections of its own: a rated game both sides moved
/// in, which a resignation then ends rated (before that it would be aborted, unrated).
async fn first_turn_each(url: &str, game_id: &str, tokens: [&str; 2]) {
    let mut players = [Player::open(url, game_id, tokens[0]).await, Player::open(url, game_id, tokens[1]).await];
    let mut rng = seeded(7);
    // A turn may take the first seat several plies (Gravel's): on until the second has played.
    while !players[0].seat.moves.iter().any(|m| m.by == Side::Second) {
        let plies = players[0].seat.moves.len() + 1;
        play_plies(&mut players, &mut rng, plies).await;
    }
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The name with this run's process id, for stores that outlive a run (PostgreSQL).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_follow_the_rules_and_a_player_signs_in_with_a_key_or_a_password() {
    let (url, running) = lobby_server(scratch_database("names")).await;
    let mut c = Client::connect(&url).await.unwrap();
    for (bad, why) in [
        ("ab", "at least 3"),
        ("abcdefghijklmnopqrstu", "at most 20"),
        ("Ada Lovelace", "a space"),
        ("<b>Ada</b>", "'<'"),
        ("Computer", "kept for the game"),
    ] {
        let refused = c.request(&ClientMessage::Register { name: bad.into() }).await.unwrap();
        assert_eq!(code_of(&refused), ErrorCode::BadName, "{bad}");
        let ServerMessage::Error { message, .. } = refused else { unreachable!() };
        assert!(message.contains(why), "{bad}: {message}");
    }
    // Asking for what needs a name before having one.
    assert_eq!(code_of(&c.request(&ClientMessage::MyGames {}).await.unwrap()), ErrorCode::NotSignedIn);
    let set = ClientMessage::SetPassword { password: "long enough".into() };
    assert_eq!(code_of(&c.request(&set).await.unwrap()), ErrorCode::NotSignedIn);
    let (mut ada, key) = register(&url, "Ada").await;
    assert_eq!(
        code_of(&c.request(&ClientMessage::Register { name: "ada".into() }).await.unwrap()),
        ErrorCode::NameTaken
    );
    assert_eq!(
        code_of(&c.request(&ClientMessage::Register { name: " ADA ".into() }).await.unwrap()),
        ErrorCode::NameTaken
    );
    // The device's key signs in again; another key does not.
    let mut again = Client::connect(&url).await.unwrap();
    match again.request(&ClientMessage::SignIn { key: key.clone() }).await.unwrap() {
        ServerMessage::SignedIn { player, key: None } => {
            assert_eq!(player.name, "Ada");
            assert!(!player.has_password);
        }
        other => panic!("{other:?}"),
    }
    let last = if key.ends_with('0') { '1' } else { '0' };
    let wrong = ClientMessage::SignIn { key: format!("{}{last}", &key[..key.len() - 1]) };
    assert_eq!(code_of(&c.request(&wrong).await.unwrap()), ErrorCode::NoSuchPlayer);
    // A password: too short is refused, then one is set.
    let short = ClientMessage::SetPassword { password: "short".into() };
    assert_eq!(code_of(&ada.request(&short).await.unwrap()), ErrorCode::BadPassword);
    let long = ClientMessage::SetPassword { password: "x".repeat(129) };
    assert_eq!(code_of(&ada.request(&long).await.unwrap()), ErrorCode::BadPassword);
    let set = ClientMessage::SetPassword { password: "correct horse".into() };
    assert_eq!(ada.request(&set).await.unwrap(), ServerMessage::PasswordSet {});
    // Another device logs in by name (any case) and password, and gets a key of its own.
    let mut other = Client::connect(&url).await.unwrap();
    let login = ClientMessage::Login { name: "aDA".into(), password: "correct horse".into() };
    let other_key = match other.request(&login).await.unwrap() {
        ServerMessage::SignedIn { player, key: Some(new_key) } => {
            assert_eq!(player.name, "Ada");
            assert!(player.has_password);
            new_key
        }
        other => panic!("{other:?}"),
    };
    assert_ne!(other_key, key);
    let ServerMessage::SignedIn { player, .. } =
        Client::connect(&url).await.unwrap().request(&ClientMessage::SignIn { key: other_key }).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(player.name, "Ada");
    // The first key still works, a wrong password or an unknown name does not.
    sign_in(&url, &key).await;
    let wrong = ClientMessage::Login { name: "Ada".into(), password: "correct horsf".into() };
    assert_eq!(code_of(&c.request(&wrong).await.unwrap()), ErrorCode::BadPassword);
    let nobody = ClientMessage::Login { name: "Nobody".into(), password: "correct horse".into() };
    assert_eq!(code_of(&c.request(&nobody).await.unwrap()), ErrorCode::BadPassword);
    // A player without a password cannot be logged into by name.
    register(&url, "Bea").await;
    let no_password = ClientMessage::Login { name: "Bea".into(), password: "anything at all".into() };
    assert_eq!(code_of(&c.request(&no_password).await.unwrap()), ErrorCode::BadPassword);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_keys_and_passwords_tried_from_one_address_are_limited() {
    let options = ServeOptions {
        requests_per_second: FAST_PLAYERS,
        sign_ins_per_minute: 3.0,
        ..ServeOptions::local(scratch_database("sign-in-limit"))
    };
    let running = start(options).await.unwrap();
    let url = format!("ws://{}/ws", running.addr);
    let (_, key) = register(&url, "Ada").await;
    sign_in(&url, &key).await;
    let mut c = Client::connect(&url).await.unwrap();
    let wrong = ClientMessage::Login { name: "Ada".into(), password: "not the password".into() };
    assert_eq!(code_of(&c.request(&wrong).await.unwrap()), ErrorCode::BadPassword);
    // The fourth try within the minute, from any connection of the address, whatever it is.
    for refused in [
        ClientMessage::Register { name: "Bea".into() },
        ClientMessage::SignIn { key: key.clone() },
        ClientMessage::Login { name: "Ada".into(), password: "not the password".into() },
    ] {
        let mut fresh = Client::connect(&url).await.unwrap();
        let answer = fresh.request(&refused).await.unwrap();
        assert_eq!(code_of(&answer), ErrorCode::RateLimited, "{refused:?}");
    }
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_keeps_hashes_of_player_keys_and_seat_tokens_never_the_secrets() {
    let database = scratch_database("hashed");
    let (url, running) = lobby_server(database.clone()).await;
    let (mut ada, ada_key) = register(&url, "Ada").await;
    let (mut bea, bea_key) = register(&url, "Bea").await;
    let mut secrets = vec![ada_key.clone(), bea_key.clone()];
    // A challenge played a little and resigned, then a rematch.
    let (game_id, ada_token) = post(&mut ada, gravel(), true, None).await;
    let bea_token = accepted(&mut bea, &game_id).await;
    secrets.extend([ada_token.clone(), bea_token.clone()]);
    let mut players = [Player::open(&url, &game_id, &ada_token).await, Player::open(&url, &game_id, &bea_token).await];
    let mut rng = seeded(4);
    players[0].play_random(&mut rng).await.unwrap();
    players[1].pump_until(|s| s.moves.len() == 1).await;
    let resign = ClientMessage::Resign { game_id: game_id.clone(), token: bea_token.clone() };
    players[1].client.send(&resign).await.unwrap();
    for p in players.iter_mut() {
        p.pump_until(|s| s.ended.is_some()).await;
    }
    for p in players.iter_mut() {
        let token = p.seat.token.clone().unwrap();
        p.client.send(&ClientMessage::Rematch { game_id: game_id.clone(), token }).await.unwrap();
    }
    for p in players.iter_mut() {
        p.pump_until(|s| s.rematch.is_some()).await;
        secrets.push(p.seat.rematch.clone().unwrap().token);
    }
    // A password, another device's key and the seats it is granted.
    let set = ClientMessage::SetPassword { password: "correct horse".into() };
    assert_eq!(ada.request(&set).await.unwrap(), ServerMessage::PasswordSet {});
    let mut phone = Client::connect(&url).await.unwrap();
    let login = ClientMessage::Login { name: "Ada".into(), password: "correct horse".into() };
    let ServerMessage::SignedIn { key: Some(phone_key), .. } = phone.request(&login).await.unwrap() else { panic!() };
    secrets.push(phone_key);
    let ServerMessage::Games { games } = phone.request(&ClientMessage::MyGames {}).await.unwrap() else { panic!() };
    assert_eq!(games.len(), 2, "the game and its rematch: {games:?}");
    secrets.extend(games.iter().map(|g| g.token.clone()));
    // Quick play's seats (grants of each device's key).
    let (mut cal, cal_key) = register(&url, "Cal").await;
    let (mut dee, dee_key) = register(&url, "Dee").await;
    secrets.extend([cal_key, dee_key]);
    let waiting = ask(&mut cal, ClientMessage::QuickPlay { game: gravel() }, |m| {
        matches!(m, ServerMessage::QuickPlayWaiting { .. })
    })
    .await;
    assert!(matches!(waiting, ServerMessage::QuickPlayWaiting { .. }), "{waiting:?}");
    let ServerMessage::Joined { token: dee_token, .. } =
        ask(&mut dee, ClientMessage::QuickPlay { game: gravel() }, |m| matches!(m, ServerMessage::Joined { .. })).await
    else {
        panic!()
    };
    let ServerMessage::Joined { token: cal_token, .. } =
        cal.recv_until(|m| matches!(m, ServerMessage::Joined { .. })).await.unwrap()
    else {
        panic!()
    };
    secrets.extend([cal_token, dee_token]);
    running.stop().await;
    drop(players);
    assert!(secrets.iter().all(|s| s.len() >= 32), "{secrets:?}");
    // The tables keep the hashes…
    use sqlx::{Connection, Row};
    let mut store = sqlx::SqliteConnection::connect(&database).await.unwrap();
    let column = |sql: &'static str| sqlx::query(sql);
    let mut kept: Vec<String> = Vec::new();
    for sql in [
        "SELECT key_hash AS v FROM player_keys",
        "SELECT hash AS v FROM seat_grants",
        "SELECT token_first AS v FROM games WHERE token_first IS NOT NULL",
        "SELECT token_second AS v FROM games WHERE token_second IS NOT NULL",
        "SELECT rematch_offer_hash AS v FROM games WHERE rematch_offer_hash IS NOT NULL",
    ] {
        for row in column(sql).fetch_all(&mut store).await.unwrap() {
            kept.push(row.try_get("v").unwrap());
        }
    }
    for key in [&ada_key, &bea_key] {
        assert!(kept.contains(&sha256_hex(key)), "a key's hash is kept");
    }
    assert!(kept.contains(&sha256_hex(&ada_token)) && kept.contains(&sha256_hex(&bea_token)));
    let password: String =
        sqlx::query("SELECT password FROM players WHERE name = 'Ada'").fetch_one(&mut store).await.unwrap().get(0);
    assert!(password.starts_with("$argon2id$"), "{password}");
    assert!(!password.contains("correct horse"));
    store.close().await.unwrap();
    // …and no byte of the store's files holds a key, a token or the password.
    let path = database.trim_start_matches("sqlite://").to_string();
    let mut bytes = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        if let Ok(b) = std::fs::read(format!("{path}{suffix}")) {
            bytes.extend(b);
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    for secret in secrets.iter().chain([&"correct horse".to_string()]) {
        assert!(!text.contains(secret.as_str()), "the store holds a secret as it is: {secret}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_signed_in_on_another_device_finds_their_game_and_plays_it() {
    let (url, running) = lobby_server(scratch_database("device")).await;
    let (mut ada, _) = register(&url, "Ada").await;
    let (mut bea, _) = register(&url, "Bea").await;
    let (game_id, _) = post(&mut ada, GameKind::named("red-stone"), false, None).await;
    let bea_token = accepted(&mut bea, &game_id).await;
    let set = ClientMessage::SetPassword { password: "correct horse".into() };
    assert_eq!(ada.request(&set).await.unwrap(), ServerMessage::PasswordSet {});
    // Ada's phone: logs in, lists her games, and plays with the token it is given.
    let mut phone = Client::connect(&url).await.unwrap();
    let login = ClientMessage::Login { name: "Ada".into(), password: "correct horse".into() };
    let ServerMessage::SignedIn { key: Some(phone_key), .. } = phone.request(&login).await.unwrap() else { panic!() };
    let ServerMessage::Games { games } = phone.request(&ClientMessage::MyGames {}).await.unwrap() else { panic!() };
    assert_eq!(games.len(), 1, "{games:?}");
    let summary = &games[0];
    assert_eq!((summary.game_id.as_str(), summary.seat), (game_id.as_str(), Side::First));
    assert!(summary.opponent_joined && summary.your_turn && summary.ended.is_none());
    // The same token again when asked again.
    let ServerMessage::Games { games: again } = phone.request(&ClientMessage::MyGames {}).await.unwrap() else {
        panic!()
    };
    assert_eq!(again[0].token, summary.token);
    // Another player's key gets none of Ada's seats.
    let (mut cal, _) = register(&url, "Cal").await;
    let ServerMessage::Games { games: none } = cal.request(&ClientMessage::MyGames {}).await.unwrap() else { panic!() };
    assert!(none.is_empty(), "{none:?}");
    let mut phone_seat = Player::open(&url, &game_id, &summary.token).await;
    assert_eq!(phone_seat.seat.seat, Some(Side::First));
    let mut b = Player::open(&url, &game_id, &bea_token).await;
    let mut rng = seeded(12);
    phone_seat.play_random(&mut rng).await.expect("Ada's phone plays her first move");
    b.pump_until(|s| s.moves.len() == 1).await;
    b.play_random(&mut rng).await.unwrap();
    phone_seat.pump_until(|s| s.moves.len() == 2).await;
    // The phone signs in with its own key later and still finds the game.
    let mut later = sign_in(&url, &phone_key).await;
    let ServerMessage::Games { games } = later.request(&ClientMessage::MyGames {}).await.unwrap() else { panic!() };
    assert_eq!((games[0].game_id.as_str(), games[0].plies), (game_id.as_str(), 2));
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_two_players_accepting_one_challenge_at_once_exactly_one_gets_it() {
    let (url, running) = lobby_server(scratch_database("race")).await;
    let (mut ada, _) = register(&url, "Ada").await;
    let (mut bea, _) = register(&url, "Bea").await;
    let (mut cal, _) = register(&url, "Cal").await;
    let mut wins = [0, 0];
    for round in 0..10 {
        let (game_id, ada_token) = post(&mut ada, gravel(), round % 2 == 0, None).await;
        let message = ClientMessage::Accept { game_id: game_id.clone() };
        // Both requests leave before either answer is read.
        bea.send(&message).await.unwrap();
        cal.send(&message).await.unwrap();
        let want = |m: &ServerMessage| matches!(m, ServerMessage::Joined { .. } | ServerMessage::Error { .. });
        let answers = [bea.recv_until(want).await.unwrap(), cal.recv_until(want).await.unwrap()];
        let joined: Vec<usize> = (0..2).filter(|&i| matches!(answers[i], ServerMessage::Joined { .. })).collect();
        assert_eq!(joined.len(), 1, "round {round}: {answers:?}");
        let winner = joined[0];
        wins[winner] += 1;
        let ServerMessage::Joined { game_id: joined_id, seat, .. } = &answers[winner] else { unreachable!() };
        assert_eq!((joined_id, *seat), (&game_id, Side::Second));
        match &answers[1 - winner] {
            ServerMessage::Error { code: ErrorCode::Taken, message, game_id: Some(id), .. } => {
                assert!(message.contains("already taken"), "{message}");
                assert_eq!(id, &game_id);
            }
            other => panic!("round {round}: the other acceptor got {other:?}"),
        }
        // The store agrees: the game's players are Ada and the winner.
        let mut viewer = Client::connect(&url).await.unwrap();
        let state = open(&mut viewer, &game_id, None).await;
        assert!(matches!(state, ServerMessage::State { joined: [true, true], .. }), "{state:?}");
        let players = viewer.recv_until(|m| matches!(m, ServerMessage::Players { .. })).await.unwrap();
        let ServerMessage::Players { names, .. } = players else { unreachable!() };
        assert_eq!(names, [Some("Ada".to_string()), Some(["Bea", "Cal"][winner].to_string())]);
        // Withdrawing it now is too late.
        let cancel = ClientMessage::Cancel { game_id: game_id.clone(), token: ada_token };
        assert_eq!(
            code_of(&ask(&mut ada, cancel, |m| matches!(m, ServerMessage::Cancelled { .. })).await),
            ErrorCode::Taken
        );
    }
    eprintln!("accept race: Bea won {} rounds, Cal {}", wins[0], wins[1]);
    // A poster cannot accept their own challenge.
    let (own, _) = post(&mut ada, gravel(), false, None).await;
    assert_eq!(code_of(&accept(&mut ada, &own).await), ErrorCode::BadMessage);
    // Nor can anyone who is not signed in, nor anyone accept a game that is not a challenge.
    let mut anonymous = Client::connect(&url).await.unwrap();
    assert_eq!(code_of(&accept(&mut anonymous, &own).await), ErrorCode::NotSignedIn);
    let (private, ..) = create(&url, gravel(), SeatChoice::First).await;
    assert_eq!(code_of(&accept(&mut bea, &private).await), ErrorCode::Taken);
    assert_eq!(code_of(&accept(&mut bea, "no-such-game").await), ErrorCode::Taken);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direct_challenge_shows_to_its_two_players_only() {
    let (url, running) = lobby_server(scratch_database("direct")).await;
    let (mut ada, _) = register(&url, "Ada").await;
    let (mut bea, bea_key) = register(&url, "Bea").await;
    let (mut cal, _) = register(&url, "Cal").await;
    let mut anonymous = Client::connect(&url).await.unwrap();
    for c in [&mut ada, &mut bea, &mut cal, &mut anonymous] {
        assert_eq!(watch_lobby(c).await, (vec![], vec![]));
    }
    // To a name that nobody has, to oneself, and with a clock: refused.
    let nobody = challenge_of(gravel(), true, Some("Nobody"));
    assert_eq!(code_of(&ada.request(&nobody).await.unwrap()), ErrorCode::NoSuchPlayer);
    let myself = challenge_of(gravel(), true, Some("ADA"));
    let refused = ada.request(&myself).await.unwrap();
    assert_eq!(code_of(&refused), ErrorCode::BadMessage);
    // A time control outside what the server offers (1 to 14 days a move) is refused.
    let clocked = ClientMessage::Challenge {
        game: gravel(),
        options: vec![],
        seat: SeatChoice::First,
        rated: false,
        time_control: Some(TimeControl::Correspondence { days_per_move: 15 }),
        to: None,
    };
    assert_eq!(code_of(&ada.request(&clocked).await.unwrap()), ErrorCode::BadGame);
    assert_eq!(
        code_of(&anonymous.request(&challenge_of(gravel(), false, None)).await.unwrap()),
        ErrorCode::NotSignedIn
    );
    // To Bea (named in any case).
    let (game_id, _) = post(&mut ada, gravel(), true, Some("bea")).await;
    let added = |m: &ServerMessage| matches!(m, ServerMessage::ChallengeAdded { .. });
    let ServerMessage::ChallengeAdded { challenge } = bea.recv_until(added).await.unwrap() else { unreachable!() };
    assert_eq!((challenge.game_id.as_str(), challenge.by.as_str()), (game_id.as_str(), "Ada"));
    assert_eq!(challenge.to.as_deref(), Some("Bea"));
    assert!(challenge.rated);
    let ServerMessage::ChallengeAdded { challenge: own } = ada.recv_until(added).await.unwrap() else { unreachable!() };
    assert_eq!(own.game_id, game_id, "the poster sees their own");
    // Bea has heard of it, so the lobby's refresh is done: Cal and an anonymous follower were told nothing.
    for c in [&mut cal, &mut anonymous] {
        let heard = until_pong(c).await;
        assert!(!heard.iter().any(added), "{heard:?}");
    }
    // Newly followed lobbies: Bea's lists it, Cal's does not.
    let (listed, _) = watch_lobby(&mut sign_in(&url, &bea_key).await).await;
    assert_eq!(listed.iter().map(|c| c.game_id.as_str()).collect::<Vec<_>>(), [game_id.as_str()]);
    let (listed, _) = watch_lobby(&mut Client::connect(&url).await.unwrap()).await;
    assert!(listed.is_empty(), "{listed:?}");
    // The older pages too (asked from the start here): only its two players see it.
    let from_the_start = ClientMessage::OlderChallenges { before_ms: i64::MAX, before_id: String::new() };
    for (viewer, sees) in [(&mut bea, true), (&mut ada, true), (&mut cal, false), (&mut anonymous, false)] {
        let is_older = |m: &ServerMessage| matches!(m, ServerMessage::OlderChallenges { .. });
        let ServerMessage::OlderChallenges { challenges, more } = ask(viewer, from_the_start.clone(), is_older).await
        else {
            unreachable!()
        };
        assert_eq!(challenges.iter().any(|c| c.game_id == game_id), sees, "{challenges:?}");
        assert!(!more);
    }
    // Cal cannot take it; Bea can.
    assert_eq!(code_of(&accept(&mut cal, &game_id).await), ErrorCode::Taken);
    let token = accepted(&mut bea, &game_id).await;
    assert!(!token.is_empty());
    let removed = |m: &ServerMessage| matches!(m, ServerMessage::ChallengeRemoved { .. });
    let ServerMessage::ChallengeRemoved { game_id: gone } = ada.recv_until(removed).await.unwrap() else {
        unreachable!()
    };
    assert_eq!(gone, game_id);
    // Its game is private: the games being played list a public game, never it…
    let (public, _) = post(&mut cal, gravel(), false, None).await;
    accepted(&mut bea, &public).await;
    let live_games = |m: &ServerMessage| matches!(m, ServerMessage::LiveGames { live } if !live.is_empty());
    let ServerMessage::LiveGames { live } = anonymous.recv_until(live_games).await.unwrap() else { unreachable!() };
    assert_eq!(live.iter().map(|g| g.game_id.as_str()).collect::<Vec<_>>(), [public.as_str()]);
    // …and once it has ended, Ada's page shows it to its players only.
    let resign = ClientMessage::Resign { game_id: game_id.clone(), token };
    ask(&mut bea, resign, |m| matches!(m, ServerMessage::Ended { .. })).await;
    let page = ClientMessage::PlayerPage { name: "Ada".into() };
    let is_page = |m: &ServerMessage| matches!(m, ServerMessage::Page { .. });
    for (viewer, sees) in [(&mut bea, true), (&mut ada, true), (&mut cal, false), (&mut anonymous, false)] {
        let ServerMessage::Page { page } = ask(viewer, page.clone(), is_page).await else { unreachable!() };
        let recent: Vec<String> = page.recent.into_iter().map(|g| g.game_id).collect();
        assert_eq!(recent.contains(&game_id), sees, "{recent:?}");
    }
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_challenges_with_ratings_and_follows_them_and_the_games_being_played() {
    let (url, running) = lobby_server(scratch_database("feed")).await;
    let (mut ada, _) = register(&url, "Ada").await;
    let (mut bea, _) = register(&url, "Bea").await;
    let mut follower = Client::connect(&url).await.unwrap();
    assert_eq!(watch_lobby(&mut follower).await, (vec![], vec![]));
    let added = |m: &ServerMessage| matches!(m, ServerMessage::ChallengeAdded { .. });
    let removed = |m: &ServerMessage| matches!(m, ServerMessage::ChallengeRemoved { .. });
    let live_games = |m: &ServerMessage| matches!(m, ServerMessage::LiveGames { .. });
    // Posting: the follower is told, with the poster's name and (starting) rating.
    let (first, ada_token) = post(&mut ada, gravel(), true, None).await;
    let ServerMessage::ChallengeAdded { challenge } = follower.recv_until(added).await.unwrap() else { unreachable!() };
    assert_eq!(challenge.game_id, first);
    assert_eq!((challenge.by.as_str(), challenge.seat, challenge.rated), ("Ada", Side::First, true));
    assert_eq!((challenge.game, challenge.rating, challenge.deviation), (gravel(), 1500.0, 350.0));
    assert_eq!((challenge.to.clone(), challenge.time_control), (None, None));
    // Accepted: removed, and the game is live with both names.
    let bea_token = accepted(&mut bea, &first).await;
    let ServerMessage::ChallengeRemoved { game_id: gone } = follower.recv_until(removed).await.unwrap() else {
        unreachable!()
    };
    assert_eq!(gone, first);
    let ServerMessage::LiveGames { live } = follower.recv_until(live_games).await.unwrap() else { unreachable!() };
    assert_eq!(live.len(), 1, "{live:?}");
    assert_eq!((live[0].game_id.as_str(), live[0].rated, live[0].plies), (first.as_str(), true, 0));
    assert_eq!(live[0].names, ["Ada".to_string(), "Bea".to_string()]);
    // Ada wins it: her rating is no longer the starting one, and the game leaves the live list.
    open(&mut ada, &first, Some(&ada_token)).await;
    first_turn_each(&url, &first, [&ada_token, &bea_token]).await;
    let resign = ClientMessage::Resign { game_id: first.clone(), token: bea_token };
    ask(&mut bea, resign, |m| matches!(m, ServerMessage::Ended { .. })).await;
    let ServerMessage::Rated { changes, .. } =
        ada.recv_until(|m| matches!(m, ServerMessage::Rated { .. })).await.unwrap()
    else {
        unreachable!()
    };
    let ada_rating = changes[0].after;
    assert!(ada_rating > 1600.0, "{changes:?}");
    // (The list changed as they moved; it ends empty.)
    follower.recv_until(|m| matches!(m, ServerMessage::LiveGames { live } if live.is_empty())).await.unwrap();
    // Her next challenge carries her rating, in the feed and in a new follower's list alike.
    let (game_id, ada_token) = post(&mut ada, gravel(), false, None).await;
    let ServerMessage::ChallengeAdded { challenge } = follower.recv_until(added).await.unwrap() else { unreachable!() };
    assert_eq!((challenge.game_id.as_str(), challenge.rated), (game_id.as_str(), false));
    assert!((challenge.rating - ada_rating).abs() < 1e-9 && challenge.deviation < 350.0, "{challenge:?}");
    let mut later = Client::connect(&url).await.unwrap();
    let (challenges, live) = watch_lobby(&mut later).await;
    assert_eq!(challenges, vec![*challenge.clone()]);
    assert!(live.is_empty(), "{live:?}");
    let bea_token = accepted(&mut bea, &game_id).await;
    for c in [&mut follower, &mut later] {
        let ServerMessage::ChallengeRemoved { game_id: gone } = c.recv_until(removed).await.unwrap() else {
            unreachable!()
        };
        assert_eq!(gone, game_id);
        let ServerMessage::LiveGames { live } = c.recv_until(live_games).await.unwrap() else { unreachable!() };
        assert_eq!(live.iter().map(|g| (g.game_id.as_str(), g.rated)).collect::<Vec<_>>(), [(game_id.as_str(), false)]);
        assert_eq!(live[0].names, ["Ada".to_string(), "Bea".to_string()]);
    }
    // Withdrawn: removed too.
    let (withdrawn, withdrawn_token) = post(&mut bea, GameKind::named("throngs"), true, None).await;
    let ServerMessage::ChallengeAdded { challenge } = follower.recv_until(added).await.unwrap() else { unreachable!() };
    assert_eq!((challenge.game_id.as_str(), challenge.by.as_str()), (withdrawn.as_str(), "Bea"));
    let cancel = ClientMessage::Cancel { game_id: withdrawn.clone(), token: withdrawn_token.clone() };
    let cancelled = ask(&mut bea, cancel.clone(), |m| matches!(m, ServerMessage::Cancelled { .. })).await;
    assert_eq!(cancelled, ServerMessage::Cancelled { game_id: withdrawn.clone() });
    let ServerMessage::ChallengeRemoved { game_id: gone } = follower.recv_until(removed).await.unwrap() else {
        unreachable!()
    };
    assert_eq!(gone, withdrawn);
    // A withdrawn challenge cannot be accepted, nor withdrawn twice, nor by a token not its own.
    assert_eq!(code_of(&accept(&mut ada, &withdrawn).await), ErrorCode::Taken);
    let again = ask(&mut bea, cancel, |m| matches!(m, ServerMessage::Cancelled { .. })).await;
    assert!(matches!(code_of(&again), ErrorCode::NoSuchGame | ErrorCode::Taken), "{again:?}");
    let (kept, _) = post(&mut bea, gravel(), true, None).await;
    let wrong = ClientMessage::Cancel { game_id: kept.clone(), token: ada_token.clone() };
    let refused = ask(&mut ada, wrong, |m| matches!(m, ServerMessage::Cancelled { .. })).await;
    assert_eq!(code_of(&refused), ErrorCode::BadToken);
    let wrong = ClientMessage::Cancel { game_id: game_id.clone(), token: bea_token };
    let refused = ask(&mut bea, wrong, |m| matches!(m, ServerMessage::Cancelled { .. })).await;
    assert_eq!(code_of(&refused), ErrorCode::Taken, "a game both seats hold is not withdrawn");
    // Leaving the lobby: no more news (`later` still follows, so once it has heard, so would have
    // the one who left).
    let added_kept =
        |m: &ServerMessage| matches!(m, ServerMessage::ChallengeAdded { challenge } if challenge.game_id == kept);
    follower.recv_until(added_kept).await.unwrap();
    later.recv_until(added_kept).await.unwrap();
    follower.send(&ClientMessage::LeaveLobby {}).await.unwrap();
    until_pong(&mut follower).await;
    let (another, _) = post(&mut ada, gravel(), true, None).await;
    let ServerMessage::ChallengeAdded { challenge } = later.recv_until(added).await.unwrap() else { unreachable!() };
    assert_eq!(challenge.game_id, another);
    let heard = until_pong(&mut follower).await;
    assert!(!heard.iter().any(added), "{heard:?}");
    // The lobby lists the open ones, newest first.
    let (challenges, _) = watch_lobby(&mut Client::connect(&url).await.unwrap()).await;
    assert_eq!(challenges.iter().map(|c| c.game_id.clone()).collect::<Vec<_>>(), [another, kept]);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_challenge_survives_a_restart() {
    let database = scratch_database("restart");
    let (url, running) = lobby_server(database.clone()).await;
    let (mut ada, ada_key) = register(&url, "Ada").await;
    let (_, bea_key) = register(&url, "Bea").await;
    let (game_id, ada_token) = post(&mut ada, GameKind::named("inchworm"), true, None).await;
    running.stop().await;
    let (url, running) = lobby_server(database).await;
    let mut bea = sign_in(&url, &bea_key).await;
    let (challenges, _) = watch_lobby(&mut bea).await;
    assert_eq!(challenges.len(), 1, "{challenges:?}");
    assert_eq!((challenges[0].game_id.as_str(), challenges[0].by.as_str()), (game_id.as_str(), "Ada"));
    let bea_token = accepted(&mut bea, &game_id).await;
    // Both seats play on; Ada's key still signs her in.
    sign_in(&url, &ada_key).await;
    let mut a = Player::open(&url, &game_id, &ada_token).await;
    let mut b = Player::open(&url, &game_id, &bea_token).await;
    let mut rng = seeded(21);
    a.play_random(&mut rng).await.unwrap();
    b.pump_until(|s| s.moves.len() == 1).await;
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_challenge_and_nobody_waiting_in_quick_play_survive_a_sigkill() {
    let database = scratch_database("lobby-kill");
    let port = free_port();
    let url = format!("ws://127.0.0.1:{port}/ws");
    let mut child = spawn_serve(&database, port);
    drop(connect_retrying(&url).await);
    let (mut ada, _) = register(&url, "Ada").await;
    let (_, bea_key) = register(&url, "Bea").await;
    let (mut cal, _) = register(&url, "Cal").await;
    let (game_id, _) = post(&mut ada, gravel(), true, None).await;
    // Cal waits in quick play when the server dies.
    let waiting = ask(&mut cal, ClientMessage::QuickPlay { game: gravel() }, |m| {
        matches!(m, ServerMessage::QuickPlayWaiting { .. })
    })
    .await;
    assert!(matches!(waiting, ServerMessage::QuickPlayWaiting { .. }), "{waiting:?}");
    child.0.kill().unwrap();
    child.0.wait().unwrap();
    let _child = spawn_serve(&database, port);
    drop(connect_retrying(&url).await);
    let mut bea = sign_in(&url, &bea_key).await;
    let (challenges, _) = watch_lobby(&mut bea).await;
    assert_eq!(challenges.iter().map(|c| c.game_id.as_str()).collect::<Vec<_>>(), [game_id.as_str()]);
    accepted(&mut bea, &game_id).await;
    // Cal's connection died with the server: quick play must not pair anyone with Cal now.
    let waiting = ask(&mut bea, ClientMessage::QuickPlay { game: gravel() }, |m| {
        matches!(m, ServerMessage::QuickPlayWaiting { .. } | ServerMessage::Joined { .. })
    })
    .await;
    assert!(matches!(waiting, ServerMessage::QuickPlayWaiting { .. }), "paired with a player who is gone: {waiting:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_play_pairs_two_players_and_offers_the_computer_to_one_left_alone() {
    let (url, running) = lobby_server(scratch_database("quick")).await;
    let (mut ada, _) = register(&url, "Ada").await;
    let (mut bea, _) = register(&url, "Bea").await;
    let mut anonymous = Client::connect(&url).await.unwrap();
    let quick = |game: GameKind| ClientMessage::QuickPlay { game };
    assert_eq!(code_of(&anonymous.request(&quick(gravel())).await.unwrap()), ErrorCode::NotSignedIn);
    let answer = |m: &ServerMessage| {
        matches!(
            m,
            ServerMessage::QuickPlayWaiting { .. }
                | ServerMessage::Joined { .. }
                | ServerMessage::QuickPlayOffer { .. }
        )
    };
    let waiting = ask(&mut ada, quick(gravel()), answer).await;
    assert_eq!(waiting, ServerMessage::QuickPlayWaiting { game: gravel() });
    let ServerMessage::Joined { game_id, seat: bea_seat, token: bea_token } =
        ask(&mut bea, quick(gravel()), answer).await
    else {
        panic!()
    };
    let ServerMessage::Joined { game_id: ada_game, seat: ada_seat, token: ada_token } = ada.recv().await.unwrap()
    else {
        panic!("Ada was not told of the pairing")
    };
    assert_eq!(ada_game, game_id);
    assert_eq!(ada_seat, bea_seat.opponent());
    // Both seats play, and the game is rated between the two names.
    let mut players = [Player::open(&url, &game_id, &ada_token).await, Player::open(&url, &game_id, &bea_token).await];
    let players_message = players[0].client.recv_until(|m| matches!(m, ServerMessage::Players { .. })).await.unwrap();
    let ServerMessage::Players { names, rated, .. } = players_message else { unreachable!() };
    assert!(rated);
    let mut expected = [Some("Ada".to_string()), Some("Bea".to_string())];
    if ada_seat == Side::Second {
        expected.reverse();
    }
    assert_eq!(names, expected);
    play_plies(&mut players, &mut seeded(8), 4).await;
    // Paired, Ada is offered no computer when her wait would have run out.
    tokio::time::sleep(QUICK_PLAY_WAIT * 2).await;
    let heard = until_pong(&mut ada).await;
    assert!(!heard.iter().any(|m| matches!(m, ServerMessage::QuickPlayOffer { .. })), "{heard:?}");
    // Alone: waiting, then the computer at a new player's level, after the wait.
    let (mut cal, _) = register(&url, "Cal").await;
    let asked = Instant::now();
    assert_eq!(ask(&mut cal, quick(gravel()), answer).await, ServerMessage::QuickPlayWaiting { game: gravel() });
    let offer = cal.recv().await.unwrap();
    assert_eq!(offer, ServerMessage::QuickPlayOffer { game: gravel(), level: "medium".into() });
    assert!(asked.elapsed() >= QUICK_PLAY_WAIT, "offered after {:?}", asked.elapsed());
    // Stopping before the wait is over: no offer, and nobody is paired with the one who left.
    let (mut dee, _) = register(&url, "Dee").await;
    assert_eq!(ask(&mut dee, quick(gravel()), answer).await, ServerMessage::QuickPlayWaiting { game: gravel() });
    dee.send(&ClientMessage::StopQuickPlay {}).await.unwrap();
    let (mut eve, _) = register(&url, "Eve").await;
    assert_eq!(ask(&mut eve, quick(gravel()), answer).await, ServerMessage::QuickPlayWaiting { game: gravel() });
    // Waiting at another game pairs nobody with Eve either.
    let (mut fay, _) = register(&url, "Fay").await;
    let inchworm = GameKind::named("inchworm");
    assert_eq!(ask(&mut fay, quick(inchworm), answer).await, ServerMessage::QuickPlayWaiting { game: inchworm });
    tokio::time::sleep(QUICK_PLAY_WAIT * 2).await;
    let heard = until_pong(&mut dee).await;
    assert!(heard.is_empty(), "{heard:?}");
    assert_eq!(eve.recv().await.unwrap(), ServerMessage::QuickPlayOffer { game: gravel(), level: "medium".into() });
    assert_eq!(fay.recv().await.unwrap(), ServerMessage::QuickPlayOffer { game: inchworm, level: "medium".into() });
    // A player who left quick play by closing the connection is not paired either.
    let (mut gus, _) = register(&url, "Gus").await;
    assert_eq!(ask(&mut gus, quick(gravel()), answer).await, ServerMessage::QuickPlayWaiting { game: gravel() });
    gus.close().await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(ask(&mut eve, quick(gravel()), answer).await, ServerMessage::QuickPlayWaiting { game: gravel() });
    running.stop().await;
}

/// A finished game as a player page lists it: the game, "won" or "lost", the rating change.
type Finished = (String, &'static str, Option<f64>);

/// The ratings a test expects: every player's Glicko-2 rating per game, computed here with
/// skillratings, one rating period per game, as the server promises.
#[derive(Default)]
struct Expected {
    ratings: HashMap<String, Glicko2Rating>,
    games: HashMap<String, u32>,
    /// Each player's (rating, deviation) after each rated game, oldest first.
    history: HashMap<String, Vec<(f64, f64)>>,
    /// Each player's finished games, newest last.
    recent: HashMap<String, Vec<Finished>>,
}

impl Expected {
    fn rating(&self, name: &str) -> Glicko2Rating {
        self.ratings.get(name).copied().unwrap_or_default()
    }

    /// A game between `first` and `second` won by `winner`: the changes the server must announce.
    fn play(&mut self, game_id: &str, names: [&str; 2], winner: Side, rated: bool) -> Vec<RatingChange> {
        let outcome = if winner == Side::First { Outcomes::WIN } else { Outcomes::LOSS };
        let before = names.map(|n| self.rating(n));
        let (a, b) = glicko2(&before[0], &before[1], &outcome, &Glicko2Config::new());
        let after = [a, b];
        let mut changes = Vec::new();
        for i in 0..2 {
            let name = names[i].to_string();
            let won = if Side::BOTH[i] == winner { "won" } else { "lost" };
            let change = rated.then(|| after[i].rating - before[i].rating);
            self.recent.entry(name.clone()).or_default().push((game_id.to_string(), won, change));
            if rated {
                self.ratings.insert(name.clone(), after[i]);
                *self.games.entry(name.clone()).or_default() += 1;
                self.history.entry(name.clone()).or_default().push((after[i].rating, after[i].deviation));
                changes.push(RatingChange {
                    name,
                    before: before[i].rating,
                    after: after[i].rating,
                    deviation: after[i].deviation,
                });
            }
        }
        changes
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn same_changes(got: &[RatingChange], want: &[RatingChange]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| {
            g.name == w.name && close(g.before, w.before) && close(g.after, w.after) && close(g.deviation, w.deviation)
        })
}

/// `first` posts a challenge, `second` accepts, both follow it, and the loser's seat resigns.
/// Returns the game id and the `Rated` changes both seats received (none for a casual game).
async fn play_and_resign(
    url: &str,
    first: &mut Client,
    second: &mut Client,
    game: GameKind,
    rated: bool,
    loser: Side,
) -> (String, Option<Vec<RatingChange>>) {
    let (game_id, first_token) = post(first, game, rated, None).await;
    let second_token = accepted(second, &game_id).await;
    open(first, &game_id, Some(&first_token)).await;
    open(second, &game_id, Some(&second_token)).await;
    first_turn_each(url, &game_id, [&first_token, &second_token]).await;
    let (resigner, other, token) = match loser {
        Side::First => (first, second, first_token),
        Side::Second => (second, first, second_token),
    };
    resigner.send(&ClientMessage::Resign { game_id: game_id.clone(), token }).await.unwrap();
    // The resigner's answers come before its pong: a rating would be among them.
    let heard = until_pong(resigner).await;
    let rated_for = |m: &ServerMessage| matches!(m, ServerMessage::Rated { game_id: g, .. } if *g == game_id);
    let ended_for = |m: &ServerMessage| matches!(m, ServerMessage::Ended { game_id: g, .. } if *g == game_id);
    assert!(heard.iter().any(ended_for), "{heard:?}");
    other.recv_until(ended_for).await.unwrap();
    let changes = if rated {
        let Some(ServerMessage::Rated { changes, .. }) = heard.iter().find(|m| rated_for(m)).cloned() else {
            panic!("no rating after a rated game: {heard:?}")
        };
        let ServerMessage::Rated { changes: theirs, .. } = other.recv_until(rated_for).await.unwrap() else {
            unreachable!()
        };
        assert_eq!(theirs, changes, "both seats are told the same changes");
        Some(changes)
    } else {
        assert!(!heard.iter().any(rated_for), "a casual game was rated: {heard:?}");
        None
    };
    for c in [resigner, other] {
        c.send(&ClientMessage::Close { game_id: game_id.clone() }).await.unwrap();
    }
    // The store orders a player's games by the millisecond they ended: one apart.
    tokio::time::sleep(Duration::from_millis(3)).await;
    (game_id, changes)
}

/// Resigns `game_id` from `resigner`'s seat: whether a rating arrived before the resigner's pong
/// (the store rates before it answers the resignation).
async fn resign_and_hear_rating(resigner: &mut Client, game_id: &str, token: &str) -> bool {
    resigner.send(&ClientMessage::Resign { game_id: game_id.into(), token: token.into() }).await.unwrap();
    let heard = until_pong(resigner).await;
    assert!(heard.iter().any(|m| matches!(m, ServerMessage::Ended { game_id: g, .. } if g == game_id)), "{heard:?}");
    heard.iter().any(|m| matches!(m, ServerMessage::Rated { game_id: g, .. } if g == game_id))
}

/// The games `name` has been rated in at `game`.
async fn rated_games(c: &mut Client, name: &str, game: GameKind) -> u32 {
    let ServerMessage::Page { page } = c.request(&ClientMessage::PlayerPage { name: name.into() }).await.unwrap()
    else {
        panic!("no page of {name}")
    };
    page.ratings.iter().find(|r| r.game == game).map_or(0, |r| r.games)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aborted_games_games_against_oneself_and_a_pairs_fourth_game_of_the_day_change_no_rating() {
    let options = ServeOptions {
        requests_per_second: FAST_PLAYERS,
        sign_ins_per_minute: 100_000.0,
        ..ServeOptions::local(scratch_database("fair"))
    };
    assert_eq!(options.rated_games_per_pair_per_day, 3, "the default limit");
    let running = start(options).await.unwrap();
    let url = format!("ws://{}/ws", running.addr);
    let game = GameKind::named("red-stone");
    let (mut ada, ada_key) = register(&url, "Ada").await;
    let (mut bea, _) = register(&url, "Bea").await;
    // Resigned before anyone moved, and after only Ada moved: aborted, nobody is rated.
    for ada_moves in [false, true] {
        let (game_id, ada_token) = post(&mut ada, game, true, None).await;
        let bea_token = accepted(&mut bea, &game_id).await;
        if ada_moves {
            let mut ada_seat = Player::open(&url, &game_id, &ada_token).await;
            assert!(ada_seat.play_random(&mut seeded(3)).await.is_some());
        }
        assert!(!resign_and_hear_rating(&mut bea, &game_id, &bea_token).await, "an aborted game was rated");
    }
    assert_eq!((rated_games(&mut ada, "Ada", game).await, rated_games(&mut ada, "Bea", game).await), (0, 0));
    // Three rated games in a day between the two change their ratings; the fourth does not.
    for _ in 0..3 {
        play_and_resign(&url, &mut ada, &mut bea, game, true, Side::Second).await;
    }
    let (game_id, ada_token) = post(&mut ada, game, true, None).await;
    let bea_token = accepted(&mut bea, &game_id).await;
    first_turn_each(&url, &game_id, [&ada_token, &bea_token]).await;
    assert!(!resign_and_hear_rating(&mut bea, &game_id, &bea_token).await, "a pair's fourth game of the day was rated");
    assert_eq!((rated_games(&mut ada, "Ada", game).await, rated_games(&mut ada, "Bea", game).await), (3, 3));
    // Ada joins her own rated challenge by its invite code from another device: no rating.
    let ServerMessage::Created { game_id, token: ada_token, code, .. } =
        ask(&mut ada, challenge_of(game, true, None), |m| matches!(m, ServerMessage::Created { .. })).await
    else {
        panic!("no challenge")
    };
    let mut ada_again = sign_in(&url, &ada_key).await;
    let ServerMessage::Joined { token: other_token, .. } =
        ask(&mut ada_again, ClientMessage::Join { code }, |m| matches!(m, ServerMessage::Joined { .. })).await
    else {
        panic!("Ada could not join her own challenge")
    };
    first_turn_each(&url, &game_id, [&ada_token, &other_token]).await;
    assert!(!resign_and_hear_rating(&mut ada_again, &game_id, &other_token).await, "a game against oneself was rated");
    assert_eq!(rated_games(&mut ada, "Ada", game).await, 3);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_follow_glicko_2_game_by_game_and_casual_games_change_nothing() {
    let (url, running) = lobby_server(scratch_database("ratings")).await;
    let game = GameKind::named("red-stone");
    let mut clients = HashMap::new();
    for name in ["Ada", "Bea", "Cal"] {
        clients.insert(name, register(&url, name).await.0);
    }
    let mut expected = Expected::default();
    // Ada and Bea play until both ratings are established (Ada winning two games of three), Cal
    // then beats Bea twice (provisional, rated above both), and casual games fall in between.
    let mut schedule: Vec<([&str; 2], Side, bool)> = Vec::new();
    for i in 0..18 {
        let winner = if i % 3 == 2 { Side::Second } else { Side::First };
        let names = if i % 2 == 0 { ["Ada", "Bea"] } else { ["Bea", "Ada"] };
        let winner = if i % 2 == 0 { winner } else { winner.opponent() };
        schedule.push((names, winner, true));
        if i % 6 == 0 {
            schedule.push((["Cal", "Ada"], Side::Second, false));
        }
    }
    schedule.push((["Cal", "Bea"], Side::First, true));
    schedule.push((["Bea", "Cal"], Side::First, false));
    schedule.push((["Bea", "Cal"], Side::Second, true));
    for (names, winner, rated) in schedule {
        let mut first = clients.remove(names[0]).unwrap();
        let mut second = clients.remove(names[1]).unwrap();
        let loser = winner.opponent();
        let (game_id, changes) = play_and_resign(&url, &mut first, &mut second, game, rated, loser).await;
        let want = expected.play(&game_id, names, winner, rated);
        match changes {
            Some(got) => assert!(same_changes(&got, &want), "{names:?}: got {got:?}, want {want:?}"),
            None => assert!(want.is_empty()),
        }
        clients.insert(names[0], first);
        clients.insert(names[1], second);
    }
    // The scenario has what the leaderboard must order: established and provisional ratings, a
    // provisional one above the established ones.
    let provisional = |name: &str| expected.rating(name).deviation >= PROVISIONAL_DEVIATION;
    assert!(!provisional("Ada") && !provisional("Bea") && provisional("Cal"), "{:?}", expected.ratings);
    assert!(expected.rating("Cal").rating > expected.rating("Ada").rating);
    assert!(expected.rating("Ada").rating > expected.rating("Bea").rating);
    // Player pages: the rating, every rated game's point, the latest games with their outcomes.
    let c = clients.get_mut("Cal").unwrap();
    for name in ["Ada", "Bea", "Cal"] {
        let ServerMessage::Page { page } =
            c.request(&ClientMessage::PlayerPage { name: name.to_lowercase() }).await.unwrap()
        else {
            panic!()
        };
        assert_eq!(page.name, name);
        let want = expected.rating(name);
        assert_eq!(page.ratings.len(), 1, "{page:?}");
        let rating = &page.ratings[0];
        assert_eq!((rating.game, rating.games), (game, expected.games[name]));
        assert!(close(rating.rating, want.rating) && close(rating.deviation, want.deviation), "{name}: {rating:?}");
        let history: Vec<(f64, f64)> = page.history.iter().map(|p| (p.rating, p.deviation)).collect();
        let want_history = &expected.history[name];
        assert_eq!(history.len(), want_history.len(), "{name}");
        assert!(history.iter().zip(want_history).all(|(g, w)| close(g.0, w.0) && close(g.1, w.1)), "{name}");
        assert!(page.history.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        let want_recent: Vec<_> = expected.recent[name].iter().rev().take(20).collect();
        assert_eq!(page.recent.len(), want_recent.len(), "{name}");
        for (got, (id, outcome, change)) in page.recent.iter().zip(want_recent) {
            assert_eq!((&got.game_id, got.outcome.as_str(), got.rated), (id, *outcome, change.is_some()), "{name}");
            assert!(got.reason.contains("resigned"), "{got:?}");
            assert!(got.opponent.is_some());
            match (got.change, change) {
                (Some(g), Some(w)) => assert!(close(g, *w), "{name}: {g} vs {w}"),
                (None, None) => {}
                other => panic!("{name}: {other:?}"),
            }
        }
    }
    let unknown = c.request(&ClientMessage::PlayerPage { name: "Nobody".into() }).await.unwrap();
    assert_eq!(code_of(&unknown), ErrorCode::NoSuchPlayer);
    // The leaderboard: established ratings first, best first, then the provisional ones.
    let ServerMessage::Leaders { game: board_game, leaders } =
        c.request(&ClientMessage::Leaderboard { game }).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(board_game, game);
    let names: Vec<&str> = leaders.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["Ada", "Bea", "Cal"]);
    for leader in &leaders {
        let want = expected.rating(&leader.name);
        assert!(close(leader.rating, want.rating) && close(leader.deviation, want.deviation), "{leader:?}");
        assert_eq!(leader.games, expected.games[leader.name.as_str()]);
    }
    // Another game's board is empty; a signed-in player's card carries their ratings.
    let ServerMessage::Leaders { leaders, .. } =
        c.request(&ClientMessage::Leaderboard { game: gravel() }).await.unwrap()
    else {
        panic!()
    };
    assert!(leaders.is_empty());
    running.stop().await;
}

/// A whole commitment of `side`: its first legal decision at each stage (the last for the second
/// side, so the two do not name the same square).
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

/// The watcher counts in the `Players` messages a connection received for a game, in order.
fn watcher_counts(c: &Client, game_id: &str) -> Vec<u32> {
    c.raw
        .iter()
        .filter_map(|t| match stoneyard::online::protocol::parse_server(t) {
            Ok(ServerMessage::Players { game_id: g, watchers, .. }) if g == game_id => Some(watchers),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_watches_without_learning_a_sealed_commitment_and_is_counted() {
    let (url, running) = lobby_server(scratch_database("watch")).await;
    let kind = GameKind::named("hidden-intention");
    let (mut ada, _) = register(&url, "Ada").await;
    let (mut bea, _) = register(&url, "Bea").await;
    let (game_id, ada_token) = post(&mut ada, kind, true, None).await;
    let bea_token = accepted(&mut bea, &game_id).await;
    for (c, token) in [(&mut ada, &ada_token), (&mut bea, &bea_token)] {
        let state = open(c, &game_id, Some(token)).await;
        assert!(matches!(state, ServerMessage::State { seat: Some(_), .. }), "{state:?}");
        c.recv_until(|m| matches!(m, ServerMessage::Players { watchers: 0, .. })).await.unwrap();
    }
    // A spectator opens the game without a token: both seats' count goes to 1.
    let mut spectator = Client::connect(&url).await.unwrap();
    let state = open(&mut spectator, &game_id, None).await;
    let ServerMessage::State { seat, moves, joined, .. } = &state else { unreachable!() };
    assert_eq!((seat, moves.len(), joined), (&None, 0, &[true, true]));
    let ServerMessage::Players { names, rated, watchers, .. } =
        spectator.recv_until(|m| matches!(m, ServerMessage::Players { .. })).await.unwrap()
    else {
        unreachable!()
    };
    assert_eq!((names, rated, watchers), ([Some("Ada".to_string()), Some("Bea".to_string())], true, 1));
    for c in [&mut ada, &mut bea] {
        c.recv_until(|m| matches!(m, ServerMessage::Players { watchers: 1, .. })).await.unwrap();
    }
    // Ada's commitment is sealed for the spectator (and Bea); Bea's completes the pair.
    let mut position = kind.open(&kind.quick_pairs(), None).unwrap();
    let ada_commitment = first_commitment(position.as_ref(), Side::First);
    for part in ada_commitment.split(';') {
        position.play_decision(part).unwrap();
    }
    let bea_commitment = first_commitment(position.as_ref(), Side::Second);
    let mv = |token: &str, ply: u32, decision: &str| ClientMessage::Move {
        game_id: game_id.clone(),
        token: token.into(),
        ply,
        decision: decision.into(),
    };
    let acked = |m: &ServerMessage| matches!(m, ServerMessage::Ack { .. });
    assert!(acked(&ask(&mut ada, mv(&ada_token, 0, &ada_commitment), acked).await));
    let moved = spectator.recv_until(|m| matches!(m, ServerMessage::Moved { .. })).await.unwrap();
    let ServerMessage::Moved { mv: sealed, .. } = moved else { unreachable!() };
    assert_eq!((sealed.ply, sealed.by, sealed.decision), (0, Side::First, None));
    // A spectator who comes now gets it sealed too (and is counted: 2, then 1 once gone).
    let mut late = Client::connect(&url).await.unwrap();
    let ServerMessage::State { moves, .. } = open(&mut late, &game_id, None).await else { unreachable!() };
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].decision, None);
    late.recv_until(|m| matches!(m, ServerMessage::Players { watchers: 2, .. })).await.unwrap();
    let late_frames = late.raw.clone();
    late.close().await;
    for c in [&mut ada, &mut bea] {
        c.recv_until(|m| matches!(m, ServerMessage::Players { watchers: 2, .. })).await.unwrap();
        c.recv_until(|m| matches!(m, ServerMessage::Players { watchers: 1, .. })).await.unwrap();
    }
    // No raw frame a spectator (or Bea) received so far holds any part of Ada's commitment.
    assert!(spectator.raw.iter().any(|f| f.contains(r#""type":"moved""#)));
    for part in ada_commitment.split(';') {
        for (who, frames) in [("spectator", &spectator.raw), ("late", &late_frames), ("Bea", &bea.raw)] {
            assert!(!frames.iter().any(|f| f.contains(part)), "{who} saw '{part}' of {ada_commitment}: {frames:?}");
        }
    }
    assert!(acked(&ask(&mut bea, mv(&bea_token, 1, &bea_commitment), acked).await));
    let revealed = spectator.recv_until(|m| matches!(m, ServerMessage::Revealed { .. })).await.unwrap();
    let ServerMessage::Revealed { moves, .. } = revealed else { unreachable!() };
    let decisions: Vec<Option<String>> = moves.into_iter().map(|m| m.decision).collect();
    assert_eq!(decisions, [Some(ada_commitment.clone()), Some(bea_commitment)]);
    // A spectator cannot play or resign.
    let refused = spectator.request(&mv("", 2, "A:N")).await.unwrap();
    assert_eq!(code_of(&refused), ErrorCode::BadToken);
    // The spectator leaves: back to 0; a second one who just drops is counted out too.
    spectator.send(&ClientMessage::Close { game_id: game_id.clone() }).await.unwrap();
    for c in [&mut ada, &mut bea] {
        c.recv_until(|m| matches!(m, ServerMessage::Players { watchers: 0, .. })).await.unwrap();
    }
    let mut dropping = Client::connect(&url).await.unwrap();
    open(&mut dropping, &game_id, None).await;
    ada.recv_until(|m| matches!(m, ServerMessage::Players { watchers: 1, .. })).await.unwrap();
    dropping.close().await;
    ada.recv_until(|m| matches!(m, ServerMessage::Players { watchers: 0, .. })).await.unwrap();
    until_pong(&mut ada).await;
    // Every count Ada was sent, in order (the late spectator came and went in between).
    let counts = watcher_counts(&ada, &game_id);
    assert_eq!(counts.first(), Some(&0));
    assert_eq!(counts.last(), Some(&0));
    assert!(counts.windows(2).all(|w| w[0].abs_diff(w[1]) == 1), "{counts:?}");
    assert!(counts.iter().all(|&n| n <= 2), "{counts:?}");
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phrase_reaches_the_table_and_watchers_and_is_limited() {
    let (url, running) = lobby_server(scratch_database("phrases")).await;
    let (mut ada, ada_key) = register(&url, "Ada").await;
    let (mut bea, _) = register(&url, "Bea").await;
    let (game_id, ada_token) = post(&mut ada, gravel(), false, None).await;
    let bea_token = accepted(&mut bea, &game_id).await;
    open(&mut ada, &game_id, Some(&ada_token)).await;
    open(&mut bea, &game_id, Some(&bea_token)).await;
    let mut spectator = Client::connect(&url).await.unwrap();
    open(&mut spectator, &game_id, None).await;
    let mut ada_elsewhere = sign_in(&url, &ada_key).await;
    let say =
        |token: &str, phrase: Phrase| ClientMessage::Say { game_id: game_id.clone(), token: token.into(), phrase };
    let said = |m: &ServerMessage| matches!(m, ServerMessage::Said { .. });
    let hello = ServerMessage::Said { game_id: game_id.clone(), by: Side::First, phrase: Phrase::Hello };
    assert_eq!(ask(&mut ada, say(&ada_token, Phrase::Hello), said).await, hello);
    assert_eq!(bea.recv_until(said).await.unwrap(), hello);
    assert_eq!(spectator.recv_until(said).await.unwrap(), hello);
    // (Ada follows the game: her own phrase reached her as well as the answer.)
    let heard = until_pong(&mut ada).await;
    assert_eq!(heard, vec![hello]);
    // A second phrase within two seconds is refused and reaches nobody.
    let again = ask(&mut ada, say(&ada_token, Phrase::GoodGame), said).await;
    assert_eq!(code_of(&again), ErrorCode::RateLimited);
    // Also from her other device: the limit is the player's, not the connection's.
    let again = ask(&mut ada_elsewhere, say(&ada_token, Phrase::GoodGame), said).await;
    assert_eq!(code_of(&again), ErrorCode::RateLimited);
    // Bea says hers; the spectator hears Bea's next, not Ada's refused one.
    let answer = ask(&mut bea, say(&bea_token, Phrase::Thanks), said).await;
    assert!(matches!(answer, ServerMessage::Said { by: Side::Second, phrase: Phrase::Thanks, .. }), "{answer:?}");
    let heard = spectator.recv_until(said).await.unwrap();
    assert!(matches!(heard, ServerMessage::Said { by: Side::Second, phrase: Phrase::Thanks, .. }), "{heard:?}");
    // Without a seat of this game there is nothing to say: no token, a made-up one, another game's.
    let (other_game, other_token) = post(&mut ada, gravel(), false, None).await;
    assert_ne!(other_game, game_id);
    let mut elsewhere = Client::connect(&url).await.unwrap();
    for token in [String::new(), "0".repeat(32)] {
        let refused = ask(&mut spectator, say(&token, Phrase::Oops), said).await;
        assert_eq!(code_of(&refused), ErrorCode::BadToken);
    }
    let refused = ask(&mut elsewhere, say(&other_token, Phrase::Oops), said).await;
    assert_eq!(code_of(&refused), ErrorCode::BadToken);
    // None of the refused phrases reached the table.
    for c in [&mut ada, &mut bea, &mut spectator] {
        let heard = until_pong(c).await;
        assert!(
            !heard.iter().any(|m| matches!(m, ServerMessage::Said { phrase: Phrase::GoodGame | Phrase::Oops, .. })),
            "{heard:?}"
        );
    }
    running.stop().await;
}

/// Two instances sharing one PostgreSQL database: the lobby and quick play's queue are the
/// store's, so each instance's followers and players see the other's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: STONEYARD_TEST_POSTGRES=postgres://… (make test-postgres)"]
async fn two_instances_sharing_postgresql_share_the_lobby_and_quick_play() {
    let database = std::env::var("STONEYARD_TEST_POSTGRES").expect("STONEYARD_TEST_POSTGRES is set");
    // Quick play waits long enough here for a pairing to cross the instances first.
    let wait = Duration::from_secs(20);
    let (url_1, first) = lobby_server_with(database.clone(), wait).await;
    let (url_2, second) = lobby_server_with(database, wait).await;
    let (ada_name, bea_name) = (unique("Ada"), unique("Bea"));
    let (mut ada, _) = register(&url_1, &ada_name).await;
    let (mut bea, _) = register(&url_2, &bea_name).await;
    let mut follower_1 = Client::connect(&url_1).await.unwrap();
    let mut follower_2 = Client::connect(&url_2).await.unwrap();
    watch_lobby(&mut follower_1).await;
    watch_lobby(&mut follower_2).await;
    // Posted on the first instance: both instances' followers are told.
    let (game_id, ada_token) = post(&mut ada, GameKind::named("throngs"), true, None).await;
    let added = |id: String| move |m: &ServerMessage| matches!(m, ServerMessage::ChallengeAdded { challenge } if challenge.game_id == id);
    for f in [&mut follower_1, &mut follower_2] {
        let ServerMessage::ChallengeAdded { challenge } = f.recv_until(added(game_id.clone())).await.unwrap() else {
            unreachable!()
        };
        assert_eq!(challenge.by, ada_name);
    }
    let (listed, _) = watch_lobby(&mut bea).await;
    assert!(listed.iter().any(|c| c.game_id == game_id), "{listed:?}");
    // Accepted on the second: removed on both, and the seats play across the instances.
    let bea_token = accepted(&mut bea, &game_id).await;
    let removed = |id: String| move |m: &ServerMessage| matches!(m, ServerMessage::ChallengeRemoved { game_id } if *game_id == id);
    for f in [&mut follower_1, &mut follower_2] {
        f.recv_until(removed(game_id.clone())).await.unwrap();
    }
    for url in [&url_1, &url_2] {
        let (listed, _) = watch_lobby(&mut Client::connect(url).await.unwrap()).await;
        assert!(!listed.iter().any(|c| c.game_id == game_id), "{listed:?}");
    }
    let mut a = Player::open(&url_1, &game_id, &ada_token).await;
    let mut b = Player::open(&url_2, &game_id, &bea_token).await;
    let mut rng = seeded(31);
    a.play_random(&mut rng).await.unwrap();
    b.pump_until(|s| s.moves.len() == 1).await;
    // A withdrawal on one instance reaches the other's followers.
    let (withdrawn, token) = post(&mut bea, gravel(), false, None).await;
    follower_1.recv_until(added(withdrawn.clone())).await.unwrap();
    let cancel = ClientMessage::Cancel { game_id: withdrawn.clone(), token };
    ask(&mut bea, cancel, |m| matches!(m, ServerMessage::Cancelled { .. })).await;
    follower_1.recv_until(removed(withdrawn.clone())).await.unwrap();
    // Quick play: one waits on the first instance, the other comes to the second.
    let (mut cal, _) = register(&url_1, &unique("Cal")).await;
    let (mut dee, _) = register(&url_2, &unique("Dee")).await;
    let inchworm = GameKind::named("inchworm");
    let answer = |m: &ServerMessage| matches!(m, ServerMessage::QuickPlayWaiting { .. } | ServerMessage::Joined { .. });
    assert_eq!(
        ask(&mut cal, ClientMessage::QuickPlay { game: inchworm }, answer).await,
        ServerMessage::QuickPlayWaiting { game: inchworm }
    );
    let ServerMessage::Joined { game_id: paired, seat: dee_seat, token: dee_token } =
        ask(&mut dee, ClientMessage::QuickPlay { game: inchworm }, answer).await
    else {
        panic!("Dee was not paired")
    };
    let ServerMessage::Joined { game_id: cal_game, seat: cal_seat, token: cal_token } =
        cal.recv_until(|m| matches!(m, ServerMessage::Joined { .. })).await.unwrap()
    else {
        unreachable!()
    };
    assert_eq!((cal_game.as_str(), cal_seat), (paired.as_str(), dee_seat.opponent()));
    let mut players =
        [Player::open(&url_1, &paired, &cal_token).await, Player::open(&url_2, &paired, &dee_token).await];
    play_plies(&mut players, &mut rng, 4).await;
    first.stop().await;
    second.stop().await;
}

/// Applies the lobby's news to `followed` until it holds `wanted` and is full, noting each
/// challenge aged out of it in `aged`. A refresh's news go out together, so once the list looks
/// right a ping's answer comes after the rest of that refresh's news.
async fn follow_until(follower: &mut Client, followed: &mut Vec<Challenge>, aged: &mut Vec<String>, wanted: &str) {
    let apply = |news: ServerMessage, followed: &mut Vec<Challenge>, aged: &mut Vec<String>| match news {
        ServerMessage::ChallengeAdded { challenge } => followed.insert(0, *challenge),
        ServerMessage::ChallengeAged { game_id } => {
            followed.retain(|c| c.game_id != game_id);
            aged.push(game_id);
        }
        ServerMessage::ChallengeRemoved { game_id } => panic!("{game_id} was removed, though still open"),
        _ => {}
    };
    loop {
        for news in until_pong(follower).await {
            apply(news, followed, aged);
        }
        if followed.iter().any(|c| c.game_id == wanted) && followed.len() as i64 == LISTED_CHALLENGES {
            return;
        }
        apply(follower.recv().await.unwrap(), followed, aged);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_challenges_hides_no_new_one_and_the_lobby_answer_stays_small() {
    let (url, running) = lobby_server(scratch_database("flood")).await;
    // 25 throwaway names post 5 challenges each; a sixth is refused.
    let mut posters = Vec::new();
    let mut last_posted = String::new();
    for i in 0..25 {
        let (mut c, _) = register(&url, &format!("Squat{i}")).await;
        for _ in 0..CHALLENGES_PER_PLAYER {
            last_posted = post(&mut c, gravel(), false, None).await.0;
        }
        posters.push(c);
    }
    let refused =
        ask(&mut posters[0], challenge_of(gravel(), false, None), |m| matches!(m, ServerMessage::Created { .. }));
    assert_eq!(code_of(&refused.await), ErrorCode::RateLimited);
    // A newcomer's challenge is the first anyone sees, and every answer is bounded.
    let mut follower = Client::connect(&url).await.unwrap();
    let (mut followed, _) = watch_lobby(&mut follower).await;
    // The follower keeps the newest LISTED_CHALLENGES from the news alone: a challenge pushed out
    // by a newer one is "aged" (still open, on the older pages), never "removed". First the news
    // of the flood's last challenges (the list it was sent may have been read just before them).
    let mut aged = Vec::new();
    follow_until(&mut follower, &mut followed, &mut aged, &last_posted).await;
    let aged_by_the_flood = aged.len();
    let (mut ada, _) = register(&url, "Ada").await;
    let (newest, _) = post(&mut ada, gravel(), false, None).await;
    follow_until(&mut follower, &mut followed, &mut aged, &newest).await;
    assert_eq!(aged.len(), aged_by_the_flood + 1, "Ada's challenge pushed exactly one out: {aged:?}");
    let mut look = Client::connect(&url).await.unwrap();
    let answer = look.request(&ClientMessage::WatchLobby {}).await.unwrap();
    let size = answer.to_json().len();
    let ServerMessage::Lobby { challenges, .. } = answer else { panic!("{answer:?}") };
    assert_eq!(challenges.len() as i64, LISTED_CHALLENGES);
    assert_eq!(challenges[0].game_id, newest);
    let ids = |list: &[Challenge]| list.iter().map(|c| c.game_id.clone()).collect::<std::collections::BTreeSet<_>>();
    assert_eq!(ids(&followed), ids(&challenges), "the news kept the follower's list as the server's");
    assert!(challenges.windows(2).all(|w| w[0].posted_ms >= w[1].posted_ms), "newest first");
    assert!(size < 40_000, "the lobby's answer is {size} bytes");
    // The rest is paged, from the oldest listed on: every open challenge once, newest first.
    let mut seen: Vec<Challenge> = challenges;
    loop {
        let last = seen.last().unwrap();
        let older = ClientMessage::OlderChallenges { before_ms: last.posted_ms, before_id: last.game_id.clone() };
        let ServerMessage::OlderChallenges { challenges: page, more } = look.request(&older).await.unwrap() else {
            panic!("no page of older challenges")
        };
        assert!(
            page.iter()
                .all(|c| (c.posted_ms, std::cmp::Reverse(&c.game_id))
                    < (last.posted_ms, std::cmp::Reverse(&last.game_id)))
        );
        seen.extend(page);
        if !more {
            break;
        }
    }
    let mut ids: Vec<&str> = seen.iter().map(|c| c.game_id.as_str()).collect();
    assert_eq!(ids.len() as i64, 25 * CHALLENGES_PER_PLAYER + 1);
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len() as i64, 25 * CHALLENGES_PER_PLAYER + 1, "a challenge listed twice");
    running.stop().await;
}
