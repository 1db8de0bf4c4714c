//! Shared helpers of the online server's tests: scratch stores, servers in process and as child
//! processes, and protocol players that keep a seat and its board.
#![allow(dead_code)]

use std::process::{Child, Command, Stdio};
use stoneyard::games::GameKind;
use stoneyard::online::client::Client;
use stoneyard::online::protocol::{ClientMessage, SeatChoice, ServerMessage};
use stoneyard::online::seat::OnlineSeat;
use stoneyard::online::server::{ServeOptions, start};
use stoneyard::rules::{GameRng, Side, pick_index};

/// A fresh SQLite file for one test.
pub fn scratch_database(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("stoneyard-online-{}", unique(name)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite://{}", dir.join("games.sqlite3").display())
}

/// `name` made unique to this test run and call: every online test runs in one process (tests/pure.rs)
/// and those on PostgreSQL share one database, so a player's name must differ between them.
pub fn unique(name: &str) -> String {
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{name}{}{call}", std::process::id() % 100_000)
}

/// Test players decide as fast as the machine allows, far above a person's pace: the rate limit
/// is raised for them (the bad-input test keeps the default).
pub const FAST_PLAYERS: f64 = 10_000.0;

pub async fn server(database: String) -> (String, stoneyard::online::server::Running) {
    let running =
        start(ServeOptions { requests_per_second: FAST_PLAYERS, ..ServeOptions::local(database) }).await.unwrap();
    (format!("ws://{}/ws", running.addr), running)
}

/// One player: a connection and its seat (with the seat's board).
pub struct Player {
    pub client: Client,
    pub seat: OnlineSeat,
}

impl Player {
    pub async fn open(url: &str, game_id: &str, token: &str) -> Player {
        let client = Client::connect(url).await.unwrap();
        let mut p = Player { client, seat: OnlineSeat::new(game_id, Some(token.to_string())) };
        for m in p.seat.on_connect() {
            p.client.send(&m).await.unwrap();
        }
        p.pump_until(|s| s.setup.is_some()).await;
        p
    }

    /// Handles messages until the seat's state satisfies `done`.
    pub async fn pump_until(&mut self, done: impl Fn(&OnlineSeat) -> bool) {
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

    pub fn legal(&mut self) -> Vec<String> {
        assert_eq!(self.seat.board_error, None);
        self.seat.legal()
    }

    /// Plays one random legal decision, if the seat has one, and waits until it is stored.
    pub async fn play_random(&mut self, rng: &mut GameRng) -> Option<String> {
        let legal = self.legal();
        if legal.is_empty() {
            return None;
        }
        let d = legal[pick_index(rng, legal.len())].clone();
        for m in self.seat.decide(d.clone()) {
            self.client.send(&m).await.unwrap();
        }
        self.pump_until(|s| s.pending.is_empty()).await;
        Some(d)
    }
}

pub async fn create(url: &str, kind: GameKind, seat: SeatChoice) -> (String, Side, String, String) {
    let mut c = Client::connect(url).await.unwrap();
    match c.request(&ClientMessage::Create { game: kind, options: kind.quick_pairs(), seat }).await.unwrap() {
        ServerMessage::Created { game_id, seat, token, code } => (game_id, seat, token, code),
        other => panic!("{other:?}"),
    }
}

pub async fn join(url: &str, code: &str) -> (String, Side, String) {
    let mut c = Client::connect(url).await.unwrap();
    match c.request(&ClientMessage::Join { code: code.to_lowercase() }).await.unwrap() {
        ServerMessage::Joined { game_id, seat, token } => (game_id, seat, token),
        other => panic!("{other:?}"),
    }
}

/// Two players of one new game (the creator first), both following it.
pub async fn table(url_a: &str, url_b: &str, kind: GameKind) -> [Player; 2] {
    let (game_id, seat, token, code) = create(url_a, kind, SeatChoice::First).await;
    assert_eq!(seat, Side::First);
    let (joined_id, joined_seat, token_b) = join(url_b, &code).await;
    assert_eq!((joined_id.as_str(), joined_seat), (game_id.as_str(), Side::Second));
    [Player::open(url_a, &game_id, &token).await, Player::open(url_b, &game_id, &token_b).await]
}

/// Plays random decisions in turn until the game ends; both players must agree on every stored
/// decision and on the ending.
pub async fn play_to_the_end(players: &mut [Player; 2], rng: &mut GameRng, limit: usize) {
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

/// `stoneyard serve` as a child process (so it can be killed); killed when dropped.
pub struct Serve(pub Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn spawn_serve(database: &str, port: u16) -> Serve {
    spawn_serve_with(database, port, &[])
}

/// `stoneyard serve` as a child process, with `more` options on its command line.
pub fn spawn_serve_with(database: &str, port: u16, more: &[&str]) -> Serve {
    Serve(
        Command::new(env!("CARGO_BIN_EXE_stoneyard"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--database", database])
            .args(["--max-requests-per-second", &FAST_PLAYERS.to_string()])
            .args(more)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    )
}

pub async fn connect_retrying(url: &str) -> Client {
    for _ in 0..100 {
        if let Ok(c) = Client::connect(url).await {
            return c;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no server at {url}");
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}
