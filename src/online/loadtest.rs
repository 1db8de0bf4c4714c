//! `stoneyard loadtest`: plays many concurrent online games against a running server, two
//! connections each, and reports how long a decision takes to reach the opponent. Every player
//! reconnects by itself, so a server killed and restarted during the run is part of the test; at
//! the end every acknowledged decision is looked up on the server ("lost" must be 0).

use super::client::{Client, Closed};
use super::protocol::{ClientMessage, SeatChoice, ServerMessage};
use super::seat::OnlineSeat;
use crate::games::GameKind;
use crate::rules::{GameRng, Side, pick_index, seeded};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct LoadtestArgs {
    /// The server's WebSocket address.
    #[arg(long, default_value = "ws://127.0.0.1:7878/ws")]
    pub server: String,
    /// Concurrent games (two connections each).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seconds of play (games that end are replaced by new ones).
    #[arg(long, default_value_t = 60.0)]
    pub seconds: f64,
    /// Milliseconds a player waits before each decision (on average; 0.5–1.5 times this).
    #[arg(long, default_value_t = 2000)]
    pub think_ms: u64,
    /// Connect the second player of every game here instead (another instance sharing the store).
    #[arg(long)]
    pub second_server: Option<String>,
    /// One game for every table (default: the five games in turn).
    #[arg(long, value_parser = |s: &str| s.parse::<GameKind>())]
    pub game: Option<GameKind>,
    /// Seed of the players' random decisions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds over which the games start (connections are not opened all at once).
    #[arg(long, default_value_t = 10.0)]
    pub ramp: f64,
}

/// A game played, one seat's token, and the decisions the server acknowledged to that seat.
type PlayedTable = (String, String, Vec<(u32, String)>);

/// What the whole run measured.
#[derive(Default)]
struct Totals {
    /// Microseconds from a decision's first send to the opponent receiving it.
    delivery_us: Vec<u64>,
    decisions: u64,
    games_started: u64,
    games_finished: u64,
    reconnects: u64,
    refusals: u64,
    failures: Vec<String>,
    /// Acknowledged decisions looked up at the end, and how many were missing.
    checked: u64,
    lost: u64,
}

/// One player of one table.
struct Player {
    url: String,
    client: Option<Client>,
    seat: OnlineSeat,
    /// When each of this seat's decisions was first sent, in the seat's order.
    sent: Vec<Instant>,
    next_at: Option<Instant>,
}

impl Player {
    fn side(&self) -> Option<Side> {
        self.seat.seat
    }

    async fn send_all(&mut self, messages: Vec<ClientMessage>) {
        if let Some(client) = self.client.as_mut() {
            for m in messages {
                if client.send(&m).await.is_err() {
                    self.client = None;
                    return;
                }
            }
        }
    }

    async fn reconnect(&mut self, totals: &Mutex<Totals>) {
        match Client::connect(&self.url).await {
            Ok(mut client) => {
                client.keep_raw = false;
                self.client = Some(client);
                totals.lock().expect("totals").reconnects += 1;
                let hello = self.seat.on_connect();
                self.send_all(hello).await;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
        }
    }
}

fn think(rng: &mut GameRng, think_ms: u64) -> Duration {
    let spread = pick_index(rng, 1001) as u64;
    Duration::from_millis(think_ms / 2 + think_ms * spread / 1000)
}

async fn receive(client: &mut Option<Client>) -> Result<ServerMessage, Closed> {
    match client {
        Some(c) => c.next_message().await,
        None => std::future::pending().await,
    }
}

/// Receives the next message of whichever player has one (or notes a dropped connection).
async fn next_message(players: &mut [Player; 2], wake: Instant) -> Option<(usize, Result<ServerMessage, Closed>)> {
    let [a, b] = players;
    tokio::select! {
        m = receive(&mut a.client) => Some((0, m)),
        m = receive(&mut b.client) => Some((1, m)),
        _ = tokio::time::sleep_until(wake.into()) => None,
    }
}

/// Plays tables one after another until the deadline, keeping one game of this slot live.
async fn run_slot(index: usize, args: Arc<LoadtestArgs>, totals: Arc<Mutex<Totals>>, start: Instant) {
    let mut rng = seeded(args.seed.wrapping_mul(1_000_003).wrapping_add(index as u64));
    let deadline = start + Duration::from_secs_f64(args.seconds);
    let ramp = Duration::from_secs_f64(args.ramp * index as f64 / args.games.max(1) as f64);
    tokio::time::sleep_until((start + ramp).into()).await;
    let kind = args.game.unwrap_or_else(|| GameKind::all().nth(index % 5).expect("five games"));
    let mut acked: Vec<PlayedTable> = Vec::new();
    while Instant::now() < deadline {
        match play_table(kind, &args, &totals, &mut rng, deadline).await {
            Ok(tables) => acked.extend(tables),
            Err(e) => {
                totals.lock().expect("totals").failures.push(e);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
    // Every decision the server acknowledged must still be there.
    let grace = Instant::now() + Duration::from_secs(30);
    for (game_id, token, moves) in acked {
        let mut client = loop {
            match Client::connect(&args.server).await {
                Ok(c) => break Some(c),
                Err(_) if Instant::now() < grace => tokio::time::sleep(Duration::from_millis(500)).await,
                Err(_) => break None,
            }
        };
        let found = match client.as_mut() {
            Some(client) => {
                client.keep_raw = false;
                let open = ClientMessage::Open { game_id: game_id.clone(), token: Some(token), have: 0 };
                match client.request(&open).await {
                    Ok(ServerMessage::State { moves: stored, .. }) => Some(stored),
                    _ => None,
                }
            }
            None => None,
        };
        let lost = moves
            .iter()
            .filter(|(ply, decision)| {
                !found.as_ref().is_some_and(|stored| {
                    stored.get(*ply as usize).is_some_and(|m| m.decision.as_ref() == Some(decision))
                })
            })
            .count() as u64;
        {
            let mut t = totals.lock().expect("totals");
            t.checked += moves.len() as u64;
            t.lost += lost;
        }
        if let Some(c) = client {
            c.close().await;
        }
    }
}

/// Creates, joins and plays one game until it ends or the run does. Returns, for each seat, the
/// game, the seat's token and the decisions the server acknowledged to it.
async fn play_table(
    kind: GameKind,
    args: &LoadtestArgs,
    totals: &Mutex<Totals>,
    rng: &mut GameRng,
    deadline: Instant,
) -> Result<Vec<PlayedTable>, String> {
    let second_url = args.second_server.clone().unwrap_or_else(|| args.server.clone());
    let mut first = Client::connect(&args.server).await?;
    first.keep_raw = false;
    let created = first
        .request(&ClientMessage::Create { game: kind, options: kind.quick_pairs(), seat: SeatChoice::First })
        .await?;
    let ServerMessage::Created { game_id, token, code, .. } = created else {
        return Err(format!("create: {created:?}"));
    };
    let mut second = Client::connect(&second_url).await?;
    second.keep_raw = false;
    let joined = second.request(&ClientMessage::Join { code }).await?;
    let ServerMessage::Joined { token: token_b, .. } = joined else { return Err(format!("join: {joined:?}")) };
    totals.lock().expect("totals").games_started += 1;
    let player = |url: String, client: Client, token: String| Player {
        url,
        client: Some(client),
        seat: OnlineSeat::new(game_id.clone(), Some(token)),
        sent: Vec::new(),
        next_at: None,
    };
    let mut players = [player(args.server.clone(), first, token.clone()), player(second_url, second, token_b)];
    for p in players.iter_mut() {
        let hello = p.seat.on_connect();
        p.send_all(hello).await;
    }
    while Instant::now() < deadline && players[0].seat.ended.is_none() {
        let wake = players.iter().filter_map(|p| p.next_at).min().unwrap_or(deadline).min(deadline);
        // Reconnect whoever is down (a killed server comes back).
        for player in players.iter_mut() {
            if player.client.is_none() {
                player.reconnect(totals).await;
            }
        }
        match next_message(&mut players, wake).await {
            Some((i, Ok(message))) => {
                let before: [usize; 2] = [0, 1].map(|s| moves_by(&players[i].seat, s));
                let replies = players[i].seat.receive(&message);
                players[i].send_all(replies).await;
                if let ServerMessage::Moved { mv, .. } = &message {
                    // The opponent's decision arrived: how long since it was first sent.
                    let mover = mv.by.index();
                    if mover != i && moves_by(&players[i].seat, mover) > before[mover] {
                        let k = moves_by(&players[i].seat, mover) - 1;
                        if let Some(sent) = players[mover].sent.get(k) {
                            totals.lock().expect("totals").delivery_us.push(sent.elapsed().as_micros() as u64);
                        }
                    }
                }
                if matches!(message, ServerMessage::Error { .. }) {
                    totals.lock().expect("totals").refusals += 1;
                }
                if players[i].seat.refused.take().is_some() {
                    players[i].next_at = None;
                }
            }
            Some((i, Err(_))) => players[i].client = None,
            None => {}
        }
        for player in players.iter_mut() {
            step_player(player, args.think_ms, rng, totals).await?;
        }
    }
    if players[0].seat.ended.is_some() {
        totals.lock().expect("totals").games_finished += 1;
    }
    // Each seat's decisions the server acknowledged (stored and sent back to it).
    let mut played = Vec::new();
    for p in players {
        let seat = &p.seat;
        let acked = seat
            .moves
            .iter()
            .filter(|m| Some(m.by) == seat.seat)
            .filter_map(|m| m.decision.clone().map(|d| (m.ply, d)))
            .collect();
        played.push((game_id.clone(), seat.token.clone().unwrap_or_default(), acked));
        if let Some(c) = p.client {
            c.close().await;
        }
    }
    Ok(played)
}

fn moves_by(seat: &OnlineSeat, side: usize) -> usize {
    seat.moves.iter().filter(|m| m.by.index() == side).count()
}

/// Makes a player's decision when its thinking time is over.
async fn step_player(p: &mut Player, think_ms: u64, rng: &mut GameRng, totals: &Mutex<Totals>) -> Result<(), String> {
    if p.seat.setup.is_none() || p.side().is_none() {
        return Ok(());
    }
    if let Some(why) = &p.seat.board_error {
        return Err(why.clone());
    }
    let can = p.seat.ended.is_none() && p.seat.pending.is_empty() && p.client.is_some();
    let legal = if can { p.seat.legal() } else { Vec::new() };
    if legal.is_empty() {
        p.next_at = None;
        return Ok(());
    }
    match p.next_at {
        None => p.next_at = Some(Instant::now() + think(rng, think_ms)),
        Some(at) if at <= Instant::now() => {
            let decision = legal[pick_index(rng, legal.len())].clone();
            let out = p.seat.decide(decision);
            if !out.is_empty() {
                // A ply went out (a decision staged into a commitment sends nothing yet).
                p.sent.push(Instant::now());
                totals.lock().expect("totals").decisions += 1;
            }
            p.send_all(out).await;
            p.next_at = None;
        }
        Some(_) => {}
    }
    Ok(())
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

/// Runs the load test and prints its report.
pub fn run(args: LoadtestArgs) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => return super::super::cli::fail(format!("cannot start the runtime: {e}")),
    };
    let args = Arc::new(args);
    let totals = Arc::new(Mutex::new(Totals::default()));
    let start = Instant::now();
    runtime.block_on(async {
        let slots: Vec<_> =
            (0..args.games).map(|i| tokio::spawn(run_slot(i, args.clone(), totals.clone(), start))).collect();
        for slot in slots {
            let _ = slot.await;
        }
    });
    let mut t = totals.lock().expect("totals");
    let elapsed = args.seconds;
    t.delivery_us.sort_unstable();
    let d = &t.delivery_us;
    println!(
        "loadtest: {} concurrent games ({} connections) for {:.0} s against {}",
        args.games,
        args.games * 2,
        elapsed,
        args.server
    );
    println!(
        "  games started {}, finished {}, decisions {} ({:.0}/s)",
        t.games_started,
        t.games_finished,
        t.decisions,
        t.decisions as f64 / elapsed
    );
    println!(
        "  delivery to the opponent (ms): p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}  ({} measured)",
        percentile(d, 0.5),
        percentile(d, 0.9),
        percentile(d, 0.99),
        percentile(d, 1.0),
        d.len()
    );
    println!("  reconnects {}, refused requests {}, failed tables {}", t.reconnects, t.refusals, t.failures.len());
    for f in t.failures.iter().take(5) {
        println!("    failure: {f}");
    }
    println!("  acknowledged decisions checked {}, lost {}", t.checked, t.lost);
    if t.lost > 0 || t.games_started == 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
