//! `stoneyard loadtest`: plays many concurrent online games against a running server, two
//! connections each, with spectators following them and a busy lobby, and reports how long a
//! decision takes to reach the opponent and the spectators. Players register names (the server's
//! per-address sign-in limit must allow it: `serve --max-sign-ins-per-minute`), start each game
//! with a rated direct challenge, and follow it; posters keep posting public challenges and
//! withdrawing them while lobby followers read the feed. Every connection reconnects by itself,
//! so a server killed and restarted during the run is part of the test; at the end every
//! acknowledged decision is looked up on the server, every challenge acknowledged and not
//! withdrawn must still be listed ("lost" must be 0), and with two instances both must list the
//! same challenges.

use super::client::{Client, Closed};
use super::directory::TimeControl;
use super::protocol::{ClientMessage, ErrorCode, SeatChoice, ServerMessage};
use super::seat::OnlineSeat;
use crate::games::GameKind;
use crate::rules::{GameRng, Side, pick_index, seeded};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

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
    /// Spectators: each follows one table's game read-only (the tables in turn), and the table's
    /// next game when one ends.
    #[arg(long, default_value_t = 1000)]
    pub spectators: usize,
    /// Connections that follow the lobby.
    #[arg(long, default_value_t = 200)]
    pub lobby_followers: usize,
    /// Players who keep posting public challenges and withdrawing them.
    #[arg(long, default_value_t = 20)]
    pub posters: usize,
    /// Milliseconds between a poster's challenges (on average; 0.5–1.5 times this). A poster keeps
    /// at most [`POSTER_OPEN`] open, withdrawing its oldest before it posts another.
    #[arg(long, default_value_t = 1000)]
    pub post_every_ms: u64,
    /// Every table's games on a live clock, `MINUTES+SECONDS` (say `5+3`); untimed without it.
    #[arg(long, value_parser = parse_clock)]
    pub clock: Option<TimeControl>,
}

/// A live time control as players write it: `5+3` is five minutes each and three seconds a move.
fn parse_clock(text: &str) -> Result<TimeControl, String> {
    let (minutes, seconds) = text.split_once('+').ok_or("write the clock as MINUTES+SECONDS, say 5+3")?;
    let minutes: u32 = minutes.trim().parse().map_err(|_| format!("'{minutes}' is not a number of minutes"))?;
    let seconds: u32 = seconds.trim().parse().map_err(|_| format!("'{seconds}' is not a number of seconds"))?;
    let control = TimeControl::Live { base_seconds: minutes * 60, increment_seconds: seconds };
    super::clock::check_time_control(&control)?;
    Ok(control)
}

/// The challenges a poster keeps open at most (as many as the server allows).
const POSTER_OPEN: usize = crate::online::server::CHALLENGES_PER_PLAYER as usize;

/// The game a table plays now, for its spectators: its id and when each ply was first sent.
struct LiveTable {
    game_id: String,
    sent: Mutex<HashMap<u32, Instant>>,
}

/// A table's current game, published to its spectators.
type TableFeed = watch::Sender<Option<Arc<LiveTable>>>;

/// A player's name and, once registered, their device key.
struct Identity {
    name: String,
    key: Option<String>,
}

impl Identity {
    /// Signs a new connection in: registers the name the first time, then signs in with its key.
    async fn sign_in(&mut self, client: &mut Client) -> Result<(), String> {
        let request = match &self.key {
            Some(key) => ClientMessage::SignIn { key: key.clone() },
            None => ClientMessage::Register { name: self.name.clone() },
        };
        match client.request(&request).await? {
            ServerMessage::SignedIn { key, .. } => {
                if key.is_some() {
                    self.key = key;
                }
                Ok(())
            }
            ServerMessage::Error { code: ErrorCode::NameTaken, .. } if self.key.is_none() => {
                // Registered, but the answer was lost (a killed server): a new name next time.
                self.name.push('x');
                Err(format!("{} was registered but its key was lost", self.name))
            }
            other => Err(format!("signing in as {}: {other:?}", self.name)),
        }
    }
}

/// A game played, one seat's token, and the decisions the server acknowledged to that seat.
/// A seat's game, token, acknowledged decisions, and the flag it was told of (the ending's reason).
type PlayedTable = (String, String, Vec<(u32, String)>, Option<String>);

/// What the whole run measured.
#[derive(Default)]
struct Totals {
    /// Microseconds from a decision's first send to the opponent receiving it.
    delivery_us: Vec<u64>,
    /// Microseconds from a decision's first send to a spectator receiving it.
    spectator_us: Vec<u64>,
    /// Microseconds from a challenge's post to a lobby follower hearing of it.
    lobby_us: Vec<u64>,
    /// Microseconds between the time a clock shows on a player's device when a turn ends and the
    /// time the server charged (its mover's own count, its opponent's countdown).
    clock_skew_us: Vec<u64>,
    /// Games ended by a flag.
    flags: u64,
    spectator_reconnects: u64,
    follower_reconnects: u64,
    lobby_messages: u64,
    posted: u64,
    withdrawn: u64,
    /// Challenges acknowledged and never withdrawn (looked up in the lobby at the end).
    open_challenges: Vec<String>,
    decisions: u64,
    games_started: u64,
    games_finished: u64,
    reconnects: u64,
    refusals: u64,
    failures: Vec<String>,
    /// Acknowledged decisions looked up at the end, and how many were missing.
    checked: u64,
    lost: u64,
    flags_checked: u64,
    flags_lost: u64,
}

/// One player of one table.
struct Player {
    url: String,
    client: Option<Client>,
    seat: OnlineSeat,
    /// When each of this seat's decisions was first sent, in the seat's order.
    sent: Vec<Instant>,
    next_at: Option<Instant>,
    /// The clocks as last told, and when they arrived.
    clock: Option<(super::clock::ClockView, Instant)>,
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

/// What this run's players' names start with (a name is taken for good, so each run has its own).
fn run_prefix() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
    format!("L{:05x}-", now & 0xfffff)
}

/// When a spectator or a lobby follower starts: spread over the ramp like the tables.
fn ramped(start: Instant, args: &LoadtestArgs, index: usize, count: usize) -> Instant {
    start + Duration::from_secs_f64(args.ramp * index as f64 / count.max(1) as f64)
}

/// Plays tables one after another until the deadline, keeping one game of this slot live.
async fn run_slot(
    index: usize,
    args: Arc<LoadtestArgs>,
    totals: Arc<Mutex<Totals>>,
    start: Instant,
    names: [String; 2],
    feed: TableFeed,
) -> Vec<PlayedTable> {
    let mut rng = seeded(args.seed.wrapping_mul(1_000_003).wrapping_add(index as u64));
    let deadline = start + Duration::from_secs_f64(args.seconds);
    tokio::time::sleep_until(ramped(start, &args, index, args.games).into()).await;
    let kind = args.game.unwrap_or_else(|| GameKind::all().nth(index % 5).expect("five games"));
    let mut acked: Vec<PlayedTable> = Vec::new();
    let mut identities = names.map(|name| Identity { name, key: None });
    while Instant::now() < deadline {
        match play_table(kind, &args, &totals, &mut rng, deadline, &mut identities, &feed).await {
            Ok(tables) => acked.extend(tables),
            Err(e) => {
                totals.lock().expect("totals").failures.push(e);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
    acked
}

/// A seat's stored decisions and the game's ending as the server answers them (`None`: it could
/// not be asked).
async fn stored_moves(
    url: &str,
    game_id: &str,
    token: &str,
    grace: Instant,
) -> Option<(Vec<super::protocol::WireMove>, Option<super::protocol::Ending>)> {
    let mut client = loop {
        match Client::connect(url).await {
            Ok(c) => break c,
            Err(_) if Instant::now() < grace => tokio::time::sleep(Duration::from_millis(500)).await,
            Err(_) => return None,
        }
    };
    client.keep_raw = false;
    let open = ClientMessage::Open { game_id: game_id.to_string(), token: Some(token.to_string()), have: 0 };
    let stored = match client.request(&open).await {
        Ok(ServerMessage::State { moves, ended, .. }) => Some((moves, ended)),
        _ => None,
    };
    client.close().await;
    stored
}

/// Looks up a seat's acknowledged decisions on the server, once every connection of the run has
/// closed. An instance still catching up with another's news (PostgreSQL) may answer from a copy
/// a moment old: a decision missing is looked up again a few times before it counts as lost.
async fn check_acknowledged(url: String, (game_id, token, moves, flag): PlayedTable, totals: Arc<Mutex<Totals>>) {
    let grace = Instant::now() + Duration::from_secs(30);
    let mut lost = moves.len() as u64;
    let mut flag_lost = flag.is_some();
    for attempt in 0..5 {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
        let (found, ended) = stored_moves(&url, &game_id, &token, grace).await.unzip();
        flag_lost = flag.as_ref().is_some_and(|reason| ended.flatten().is_none_or(|e| e.reason != *reason));
        lost = moves
            .iter()
            .filter(|(ply, decision)| {
                !found.as_ref().is_some_and(|stored| {
                    stored.get(*ply as usize).is_some_and(|m| m.decision.as_ref() == Some(decision))
                })
            })
            .count() as u64;
        if lost == 0 && !flag_lost {
            break;
        }
    }
    let mut t = totals.lock().expect("totals");
    t.checked += moves.len() as u64;
    t.lost += lost;
    t.flags_checked += u64::from(flag.is_some());
    t.flags_lost += u64::from(flag_lost);
}

/// Notes when each ply among `messages` was first sent.
fn note_sent(live: &LiveTable, messages: &[ClientMessage]) {
    let now = Instant::now();
    for m in messages {
        if let ClientMessage::Move { ply, .. } = m {
            live.sent.lock().expect("sent plies").entry(*ply).or_insert(now);
        }
    }
}

/// Starts one game (the first player challenges the second by name, rated; the second accepts)
/// and plays it until it ends or the run does. Returns, for each seat, the game, the seat's token
/// and the decisions the server acknowledged to it.
async fn play_table(
    kind: GameKind,
    args: &LoadtestArgs,
    totals: &Mutex<Totals>,
    rng: &mut GameRng,
    deadline: Instant,
    identities: &mut [Identity; 2],
    feed: &TableFeed,
) -> Result<Vec<PlayedTable>, String> {
    let second_url = args.second_server.clone().unwrap_or_else(|| args.server.clone());
    let mut second = Client::connect(&second_url).await?;
    second.keep_raw = false;
    identities[1].sign_in(&mut second).await?;
    let mut first = Client::connect(&args.server).await?;
    first.keep_raw = false;
    identities[0].sign_in(&mut first).await?;
    let challenge = ClientMessage::Challenge {
        game: kind,
        options: kind.quick_pairs(),
        seat: SeatChoice::First,
        rated: true,
        time_control: args.clock,
        to: Some(identities[1].name.clone()),
    };
    let created = first.request(&challenge).await?;
    let ServerMessage::Created { game_id, token, .. } = created else {
        return Err(format!("challenge: {created:?}"));
    };
    let joined = second.request(&ClientMessage::Accept { game_id: game_id.clone() }).await?;
    let ServerMessage::Joined { token: token_b, .. } = joined else { return Err(format!("accept: {joined:?}")) };
    totals.lock().expect("totals").games_started += 1;
    let live = Arc::new(LiveTable { game_id: game_id.clone(), sent: Mutex::new(HashMap::new()) });
    feed.send_replace(Some(live.clone()));
    let player = |url: String, client: Client, token: String| Player {
        url,
        client: Some(client),
        seat: OnlineSeat::new(game_id.clone(), Some(token)),
        sent: Vec::new(),
        next_at: None,
        clock: None,
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
                note_sent(&live, &replies);
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
                if let ServerMessage::Clock { clock, .. } = &message {
                    let skew = clock_skew(&players[i], clock);
                    totals.lock().expect("totals").clock_skew_us.extend(skew);
                    players[i].clock = Some((clock.clone(), Instant::now()));
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
            step_player(player, args.think_ms, rng, totals, &live).await?;
        }
    }
    if let Some(ending) = &players[0].seat.ended {
        let mut totals = totals.lock().expect("totals");
        totals.games_finished += 1;
        totals.flags += u64::from(ending.reason.contains("ran out of time"));
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
        let flag = seat.ended.as_ref().filter(|e| e.reason.contains("ran out of time")).map(|e| e.reason.clone());
        played.push((game_id.clone(), seat.token.clone().unwrap_or_default(), acked, flag));
        if let Some(c) = p.client {
            c.close().await;
        }
    }
    Ok(played)
}

/// How close a device's clock and the server's should be when a turn ends (the goal).
const CLOCKS_AGREE_US: u64 = 50_000;

/// When a clock stops (its seat's turn ended), how far the server's time for it is from what
/// this player's device showed: for its own clock, the time it counted until it sent its last
/// decision; for the opponent's, its countdown now. Microseconds, one per clock that stopped.
fn clock_skew(player: &Player, now_told: &super::clock::ClockView) -> Vec<u64> {
    let Some((before, told_at)) = &player.clock else { return Vec::new() };
    let increment = match now_told.control {
        TimeControl::Live { increment_seconds, .. } => i64::from(increment_seconds) * 1000,
        TimeControl::Correspondence { .. } => return Vec::new(),
    };
    let mine = player.side().map(Side::index);
    let mut skews = Vec::new();
    for seat in 0..2 {
        if !before.running[seat] || now_told.running[seat] || player.seat.ended.is_some() {
            continue;
        }
        let until = match (Some(seat) == mine, player.sent.last()) {
            (true, Some(&sent)) if sent >= *told_at => sent,
            (true, _) => continue,
            (false, _) => Instant::now(),
        };
        let shown_us = before.left_ms[seat] * 1000 - until.duration_since(*told_at).as_micros() as i64;
        let server_us = (now_told.left_ms[seat] - increment) * 1000;
        skews.push((server_us - shown_us).unsigned_abs());
    }
    skews
}

fn moves_by(seat: &OnlineSeat, side: usize) -> usize {
    seat.moves.iter().filter(|m| m.by.index() == side).count()
}

/// Makes a player's decision when its thinking time is over.
async fn step_player(
    p: &mut Player,
    think_ms: u64,
    rng: &mut GameRng,
    totals: &Mutex<Totals>,
    live: &LiveTable,
) -> Result<(), String> {
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
                note_sent(live, &out);
                totals.lock().expect("totals").decisions += 1;
            }
            p.send_all(out).await;
            p.next_at = None;
        }
        Some(_) => {}
    }
    Ok(())
}

/// Connects (again), or waits a little when the server is away. `true` once connected.
async fn reconnect(client: &mut Option<Client>, url: &str) -> bool {
    match Client::connect(url).await {
        Ok(mut c) => {
            c.keep_raw = false;
            *client = Some(c);
            true
        }
        Err(_) => {
            tokio::time::sleep(Duration::from_millis(250)).await;
            false
        }
    }
}

/// Waits for the table's next game (for ever once the table is gone).
async fn next_game(feed: &mut watch::Receiver<Option<Arc<LiveTable>>>) {
    if feed.changed().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// A spectator: follows its table's game read-only (the next one when it ends) and measures how
/// long each decision took from its first send to here.
async fn run_spectator(
    url: String,
    mut feed: watch::Receiver<Option<Arc<LiveTable>>>,
    totals: Arc<Mutex<Totals>>,
    begin: Instant,
    deadline: Instant,
) {
    tokio::time::sleep_until(begin.into()).await;
    let mut client: Option<Client> = None;
    let mut following: Option<Arc<LiveTable>> = None;
    let mut seen: HashSet<u32> = HashSet::new();
    let mut connections = 0u64;
    while Instant::now() < deadline {
        if client.is_none() {
            if !reconnect(&mut client, &url).await {
                continue;
            }
            connections += 1;
            following = None;
        }
        let current = feed.borrow_and_update().clone();
        if current.as_ref().map(|t| &t.game_id) != following.as_ref().map(|t| &t.game_id) {
            let mut requests = Vec::new();
            if let Some(old) = &following {
                requests.push(ClientMessage::Close { game_id: old.game_id.clone() });
            }
            if let Some(new) = &current {
                requests.push(ClientMessage::Open { game_id: new.game_id.clone(), token: None, have: 0 });
            }
            let c = client.as_mut().expect("connected above");
            let mut sent = true;
            for m in &requests {
                sent = sent && c.send(m).await.is_ok();
            }
            if !sent {
                client = None;
                continue;
            }
            following = current;
            seen.clear();
        }
        let mut delivered = |game_id: &str, ply: u32| {
            let Some(live) = following.as_ref().filter(|t| t.game_id == game_id) else { return };
            if seen.insert(ply)
                && let Some(at) = live.sent.lock().expect("sent plies").get(&ply)
            {
                totals.lock().expect("totals").spectator_us.push(at.elapsed().as_micros() as u64);
            }
        };
        tokio::select! {
            m = receive(&mut client) => match m {
                // What the game held when followed (again) arrived with it, not as news: a
                // commitment sealed then and revealed later is not measured from its sending.
                Ok(ServerMessage::State { game_id, moves, .. }) => {
                    if following.as_ref().is_some_and(|t| t.game_id == game_id) {
                        seen.extend(moves.iter().map(|m| m.ply));
                    }
                }
                Ok(ServerMessage::Moved { game_id, mv }) => delivered(&game_id, mv.ply),
                Ok(ServerMessage::Revealed { game_id, moves }) => {
                    for mv in moves {
                        delivered(&game_id, mv.ply);
                    }
                }
                Ok(_) => {}
                Err(_) => client = None,
            },
            () = next_game(&mut feed) => {}
            _ = tokio::time::sleep_until(deadline.into()) => {}
        }
    }
    totals.lock().expect("totals").spectator_reconnects += connections.saturating_sub(1);
    if let Some(c) = client {
        c.close().await;
    }
}

/// A lobby follower: reads the lobby's feed, measuring how long a posted challenge took to reach it.
async fn run_follower(
    url: String,
    posted: Arc<Mutex<HashMap<String, Instant>>>,
    totals: Arc<Mutex<Totals>>,
    begin: Instant,
    deadline: Instant,
) {
    tokio::time::sleep_until(begin.into()).await;
    let mut client: Option<Client> = None;
    let mut connections = 0u64;
    while Instant::now() < deadline {
        if client.is_none() {
            if !reconnect(&mut client, &url).await {
                continue;
            }
            connections += 1;
            let c = client.as_mut().expect("connected above");
            if c.send(&ClientMessage::WatchLobby {}).await.is_err() {
                client = None;
                continue;
            }
        }
        tokio::select! {
            m = receive(&mut client) => match m {
                Ok(ServerMessage::ChallengeAdded { challenge }) => {
                    let at = posted.lock().expect("posted").get(&challenge.game_id).copied();
                    let mut t = totals.lock().expect("totals");
                    t.lobby_messages += 1;
                    if let Some(at) = at {
                        t.lobby_us.push(at.elapsed().as_micros() as u64);
                    }
                }
                Ok(ServerMessage::ChallengeRemoved { .. }
                | ServerMessage::ChallengeAged { .. }
                | ServerMessage::LiveGames { .. }
                | ServerMessage::Lobby { .. }) => {
                    totals.lock().expect("totals").lobby_messages += 1;
                }
                Ok(_) => {}
                Err(_) => client = None,
            },
            _ = tokio::time::sleep_until(deadline.into()) => {}
        }
    }
    totals.lock().expect("totals").follower_reconnects += connections.saturating_sub(1);
    if let Some(c) = client {
        c.close().await;
    }
}

/// A poster: posts a public challenge every so often, withdrawing its oldest when it has
/// [`POSTER_OPEN`]; at the end, the challenges it was told were posted and did not withdraw.
async fn run_poster(
    index: usize,
    args: Arc<LoadtestArgs>,
    url: String,
    name: String,
    posted: Arc<Mutex<HashMap<String, Instant>>>,
    totals: Arc<Mutex<Totals>>,
    start: Instant,
) {
    let deadline = start + Duration::from_secs_f64(args.seconds);
    let mut rng = seeded(args.seed.wrapping_mul(7_000_003).wrapping_add(index as u64));
    let mut identity = Identity { name, key: None };
    let mut client: Option<Client> = None;
    let mut open: VecDeque<(String, String)> = VecDeque::new();
    // Challenges whose withdrawal was sent but not answered (the server went away meanwhile).
    let mut doubtful: HashSet<String> = HashSet::new();
    let mut next_at = ramped(start, &args, index, args.posters);
    let kinds: Vec<GameKind> = GameKind::all().collect();
    let mut posts = index;
    while Instant::now() < deadline {
        if client.is_none() {
            if !reconnect(&mut client, &url).await {
                continue;
            }
            let c = client.as_mut().expect("connected above");
            if let Err(e) = identity.sign_in(c).await {
                totals.lock().expect("totals").failures.push(e);
                client = None;
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        }
        tokio::time::sleep_until(next_at.min(deadline).into()).await;
        if Instant::now() >= deadline {
            break;
        }
        let c = client.as_mut().expect("connected above");
        if open.len() >= POSTER_OPEN
            && let Some((game_id, token)) = open.front().cloned()
        {
            match c.request(&ClientMessage::Cancel { game_id: game_id.clone(), token }).await {
                Ok(ServerMessage::Cancelled { .. }) => {
                    totals.lock().expect("totals").withdrawn += 1;
                    open.pop_front();
                }
                // Already withdrawn (the answer to an earlier try was lost), or taken.
                Ok(ServerMessage::Error { code: ErrorCode::NoSuchGame | ErrorCode::Taken, .. }) => {
                    open.pop_front();
                }
                Ok(other) => {
                    totals.lock().expect("totals").failures.push(format!("withdrawing a challenge: {other:?}"));
                    open.pop_front();
                }
                Err(_) => {
                    doubtful.insert(game_id);
                    client = None;
                    continue;
                }
            }
        }
        let kind = kinds[posts % kinds.len()];
        posts += 1;
        let challenge = ClientMessage::Challenge {
            game: kind,
            options: kind.quick_pairs(),
            seat: SeatChoice::Random,
            rated: pick_index(&mut rng, 2) == 0,
            time_control: None,
            to: None,
        };
        let sent = Instant::now();
        match c.request(&challenge).await {
            Ok(ServerMessage::Created { game_id, token, .. }) => {
                posted.lock().expect("posted").insert(game_id.clone(), sent);
                totals.lock().expect("totals").posted += 1;
                open.push_back((game_id, token));
            }
            Ok(other) => totals.lock().expect("totals").failures.push(format!("posting a challenge: {other:?}")),
            Err(_) => client = None,
        }
        next_at += think(&mut rng, args.post_every_ms);
    }
    let kept = open.into_iter().map(|(id, _)| id).filter(|id| !doubtful.contains(id));
    totals.lock().expect("totals").open_challenges.extend(kept);
    if let Some(c) = client {
        c.close().await;
    }
}

/// The public challenges a server's lobby lists now (`None`: it could not be asked).
async fn listed_challenges(url: &str) -> Option<HashSet<String>> {
    let mut client = Client::connect(url).await.ok()?;
    client.keep_raw = false;
    let answer = client.request(&ClientMessage::WatchLobby {}).await.ok()?;
    client.close().await;
    match answer {
        ServerMessage::Lobby { challenges, .. } => Some(challenges.into_iter().map(|c| c.game_id).collect()),
        _ => None,
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

/// A latency line of the report: p50, p90, p99 and max in milliseconds.
fn latency_line(what: &str, samples: &mut [u64]) {
    samples.sort_unstable();
    println!(
        "  {what} (ms): p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}  ({} measured)",
        percentile(samples, 0.5),
        percentile(samples, 0.9),
        percentile(samples, 0.99),
        percentile(samples, 1.0),
        samples.len()
    );
}

/// Runs the load test and prints its report: whether every game and lobby held (`Err` when the
/// test could not run).
pub fn run(args: LoadtestArgs) -> Result<bool, String> {
    // Every connection is an open file: a few thousand of them pass the usual soft limit.
    #[cfg(unix)]
    if let Err(e) = rlimit::increase_nofile_limit(u64::MAX) {
        eprintln!("loadtest: could not raise the open-file limit: {e}");
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => return Err(format!("cannot start the runtime: {e}")),
    };
    let args = Arc::new(args);
    let totals = Arc::new(Mutex::new(Totals::default()));
    let posted = Arc::new(Mutex::new(HashMap::new()));
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(args.seconds);
    let servers: Vec<String> = std::iter::once(args.server.clone()).chain(args.second_server.clone()).collect();
    let prefix = run_prefix();
    let lists = runtime.block_on(async {
        let mut feeds = Vec::with_capacity(args.games);
        let mut slots = Vec::with_capacity(args.games);
        for i in 0..args.games {
            let (feed, watching) = watch::channel(None);
            feeds.push(watching);
            let names = [format!("{prefix}{i}a"), format!("{prefix}{i}b")];
            slots.push(tokio::spawn(run_slot(i, args.clone(), totals.clone(), start, names, feed)));
        }
        let mut others = Vec::new();
        for i in 0..args.spectators {
            if feeds.is_empty() {
                break;
            }
            let feed = feeds[i % feeds.len()].clone();
            let url = servers[i % servers.len()].clone();
            // After its table's first game has started.
            let begin = ramped(start, &args, i % feeds.len(), feeds.len());
            others.push(tokio::spawn(run_spectator(url, feed, totals.clone(), begin, deadline)));
        }
        drop(feeds);
        for i in 0..args.lobby_followers {
            let url = servers[i % servers.len()].clone();
            let begin = ramped(start, &args, i, args.lobby_followers);
            others.push(tokio::spawn(run_follower(url, posted.clone(), totals.clone(), begin, deadline)));
        }
        for i in 0..args.posters {
            let url = servers[(i + 1) % servers.len()].clone();
            let name = format!("{prefix}p{i}");
            let task = run_poster(i, args.clone(), url, name, posted.clone(), totals.clone(), start);
            others.push(tokio::spawn(task));
        }
        let mut acked = Vec::new();
        for slot in slots {
            acked.extend(slot.await.unwrap_or_default());
        }
        for task in others {
            let _ = task.await;
        }
        // Every decision the server acknowledged must still be there.
        let checks = Arc::new(tokio::sync::Semaphore::new(64));
        let mut checking = Vec::with_capacity(acked.len());
        for table in acked {
            let permit = checks.clone().acquire_owned().await.expect("the semaphore stays open");
            let task = check_acknowledged(args.server.clone(), table, totals.clone());
            checking.push(tokio::spawn(async move {
                task.await;
                drop(permit);
            }));
        }
        for task in checking {
            let _ = task.await;
        }
        // The lobbies settle (a refresh gathers changes for a moment; the other instance hears
        // through NOTIFY), then each server is asked what it lists.
        tokio::time::sleep(Duration::from_secs(1)).await;
        let mut lists = Vec::new();
        for url in &servers {
            lists.push(listed_challenges(url).await);
        }
        lists
    });
    let mut t = totals.lock().expect("totals");
    let elapsed = args.seconds;
    println!(
        "loadtest: {} concurrent games ({} connections), {} spectators, {} lobby followers, {} posters for {:.0} s against {}",
        args.games,
        args.games * 2,
        args.spectators,
        args.lobby_followers,
        args.posters,
        elapsed,
        servers.join(" and ")
    );
    println!(
        "  games started {}, finished {}, decisions {} ({:.0}/s)",
        t.games_started,
        t.games_finished,
        t.decisions,
        t.decisions as f64 / elapsed
    );
    latency_line("delivery to the opponent", &mut t.delivery_us);
    latency_line("delivery to the spectators", &mut t.spectator_us);
    if let Some(control) = &args.clock {
        println!("  clocks {}: games flagged {}", super::directory::time_control_words(Some(control)), t.flags);
        latency_line("clock difference, device to server, at each turn's end", &mut t.clock_skew_us);
        let over = t.clock_skew_us.iter().filter(|&&us| us > CLOCKS_AGREE_US).count();
        println!("  clocks more than {} ms apart: {over} of {}", CLOCKS_AGREE_US / 1000, t.clock_skew_us.len());
    }
    println!(
        "  challenges posted {} ({:.1}/s), withdrawn {} ({:.1}/s); lobby messages to followers {}",
        t.posted,
        t.posted as f64 / elapsed,
        t.withdrawn,
        t.withdrawn as f64 / elapsed,
        t.lobby_messages
    );
    latency_line("a challenge to the lobby's followers", &mut t.lobby_us);
    println!(
        "  reconnects: players {}, spectators {}, lobby followers {}; refused requests {}, failed tables {}",
        t.reconnects,
        t.spectator_reconnects,
        t.follower_reconnects,
        t.refusals,
        t.failures.len()
    );
    for f in t.failures.iter().take(5) {
        println!("    failure: {f}");
    }
    println!("  acknowledged decisions checked {}, lost {}", t.checked, t.lost);
    if args.clock.is_some() {
        println!("  flags a player was told of, checked {}, lost {}", t.flags_checked, t.flags_lost);
    }
    let mut bad_lobby = false;
    match &lists[0] {
        Some(listed) => {
            let lost = t.open_challenges.iter().filter(|id| !listed.contains(*id)).count();
            println!(
                "  open challenges acknowledged and not withdrawn {}, lost {} (the lobby lists {})",
                t.open_challenges.len(),
                lost,
                listed.len()
            );
            bad_lobby |= lost > 0;
        }
        None => {
            println!("  the lobby could not be read at the end");
            bad_lobby = true;
        }
    }
    if let [Some(first), Some(second)] = &lists[..] {
        let same = first == second;
        println!(
            "  both instances list the same challenges: {} ({} and {})",
            if same { "yes" } else { "NO" },
            first.len(),
            second.len()
        );
        bad_lobby |= !same;
    } else if lists.len() == 2 {
        println!("  the second instance's lobby could not be read at the end");
        bad_lobby = true;
    }
    Ok(!(t.lost > 0 || t.flags_lost > 0 || t.games_started == 0 || bad_lobby))
}
