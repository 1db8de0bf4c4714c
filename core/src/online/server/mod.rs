//! `stoneyard serve`: one process that serves the browser build and the game server's WebSocket,
//! storing every game in SQLite (the default) or a PostgreSQL shared by several instances.

mod accounts;
mod announcements;
mod clocks;
mod connection;
mod digest;
mod following;
mod hub;
mod ids;
mod listener;
mod lobby;
mod lobby_feed;
mod mail_pages;
mod news;
mod outbox;
mod password_work;
mod people;
mod plies;
mod rate_limit;
mod rating;
mod rematches;
mod room;
mod smtp;
mod store;
mod time;
mod timeouts;
mod upkeep;
mod vacations;
mod web_root;

pub use crate::online::directory::LISTED_CHALLENGES;
pub use connection::REQUESTS_PER_SECOND;
pub use hub::INVITES_PER_ADDRESS;
pub use ids::normalise_code;
pub use lobby::CHALLENGES_PER_PLAYER;
pub use smtp::SmtpOptions;
pub use store::{Backend, GameStore};
pub use time::{ManualClock, ServerClock, system_ms};
pub use upkeep::{
    CHALLENGE_LIFETIME_MS, IDLE_LIVE_GAME_MS, INVITE_LIFETIME_MS, LIVE_CHALLENGE_LIFETIME_MS, POSTER_GRACE_MS,
    UPKEEP_EVERY_MS,
};

use crate::online::protocol::{MAX_MESSAGE_BYTES, SOCKET_PATH};
use axum::Router;
use axum::extract::{ConnectInfo, State, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::routing::get;
use hub::Hub;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The time a client has to send its whole HTTP request head by default.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Open connections allowed from one address by default (a household or a school behind one
/// address still has room; one client cannot take the server's files).
pub const CONNECTIONS_PER_ADDRESS: usize = 64;
/// Invite codes one address may try per minute by default (on average; twice as many at once).
pub const JOINS_PER_MINUTE: f64 = 30.0;
/// Names one address may register and passwords or keys it may try per minute by default.
pub const SIGN_INS_PER_MINUTE: f64 = 10.0;
/// How long quick play looks for an opponent before it offers the computer.
pub const QUICK_PLAY_WAIT: Duration = Duration::from_secs(60);
/// Rated games two players may play against each other in 24 hours by default: the ones after
/// are played as agreed but change no rating (two accounts cannot farm one's rating).
pub const RATED_GAMES_PER_PAIR_PER_DAY: u32 = 3;

/// How to run a server.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub listen: SocketAddr,
    /// `sqlite://FILE` or `postgres://…`.
    pub database: String,
    /// The browser build to serve at `/` (a folder with index.html).
    pub web: Option<PathBuf>,
    /// Each connection's request rate limit.
    pub requests_per_second: f64,
    /// The time a client has to send its HTTP request head.
    pub handshake_timeout: Duration,
    /// Open connections allowed from one address.
    pub max_connections_per_address: usize,
    /// Invite codes one address may try per minute.
    pub joins_per_minute: f64,
    /// Names one address may register, and passwords or player keys it may try, per minute.
    pub sign_ins_per_minute: f64,
    /// How long quick play looks for an opponent before it offers the computer.
    pub quick_play_wait: Duration,
    /// Rated games two players may play against each other in 24 hours.
    pub rated_games_per_pair_per_day: u32,
    /// Reverse proxies in front of the server: their connections are not limited per address and
    /// their `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<IpAddr>,
    /// The time clocks run by (the system's; tests move a clock by hand).
    pub clock: ServerClock,
    /// Where the daily digest is sent from (none: no mails).
    pub smtp: Option<SmtpOptions>,
}

impl ServeOptions {
    /// Loopback on any free port, the default limits.
    pub fn local(database: String) -> ServeOptions {
        ServeOptions {
            listen: ([127, 0, 0, 1], 0).into(),
            database,
            web: None,
            requests_per_second: REQUESTS_PER_SECOND,
            handshake_timeout: HANDSHAKE_TIMEOUT,
            max_connections_per_address: CONNECTIONS_PER_ADDRESS,
            joins_per_minute: JOINS_PER_MINUTE,
            sign_ins_per_minute: SIGN_INS_PER_MINUTE,
            quick_play_wait: QUICK_PLAY_WAIT,
            rated_games_per_pair_per_day: RATED_GAMES_PER_PAIR_PER_DAY,
            trusted_proxies: Vec::new(),
            clock: ServerClock::System,
            smtp: None,
        }
    }
}

/// The default SQLite file: `server.sqlite3` in the platform's data directory.
pub fn default_database() -> Result<String, String> {
    let dirs = directories::ProjectDirs::from("", "", "stoneyard")
        .ok_or("no data directory for this user; pass --database sqlite://FILE")?;
    let dir = dirs.data_dir();
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(format!("sqlite://{}", dir.join("server.sqlite3").display()))
}

/// A running server: where it listens, and how to stop it.
pub struct Running {
    pub addr: SocketAddr,
    pub backend: Backend,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    /// Stops accepting, closes the connections and waits for the server to end.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}

async fn socket(
    ws: WebSocketUpgrade,
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> axum::response::Response {
    let client = listener::client_address(peer, &headers, &hub.trusted_proxies);
    // A trusted proxy's connections are not counted by the accept loop (it carries many clients):
    // the client it names holds a slot of its own address for as long as its WebSocket is open.
    let slot = if hub.trusted_proxies.contains(&peer.ip()) {
        match hub.connection_slots.take(client) {
            Some(slot) => Some(slot),
            None => {
                let why = "too many connections from your address at once; close some and try again\n";
                return (axum::http::StatusCode::TOO_MANY_REQUESTS, why).into_response();
            }
        }
    } else {
        None
    };
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| async move {
            connection::serve_socket(socket, hub, client).await;
            drop(slot);
        })
        .into_response()
}

async fn no_page() -> &'static str {
    "Stoneyard game server. This instance serves no browser build (start it with --web DIR).\n"
}

/// Starts a server on the current tokio runtime.
pub async fn start(options: ServeOptions) -> Result<Running, String> {
    let database = &options.database;
    let store = GameStore::open(database)
        .await
        .map_err(|e| redact_in(&format!("cannot open the store {database}: {e}"), database))?;
    let backend = store.backend;
    if backend == Backend::Sqlite {
        // One instance owns a SQLite store: whoever waited in quick play was connected to it, and
        // a restart (a crash included) ended those connections.
        store.clear_quick_play().await.map_err(|e| format!("cannot clear quick play's queue: {e}"))?;
        // Their posters left with it too: nobody may accept a live challenge of someone gone.
        store.withdraw_all_live_challenges().await.map_err(|e| format!("cannot withdraw live challenges: {e}"))?;
    }
    let connection_slots = listener::AddressSlots::new(options.max_connections_per_address);
    let limits = hub::HubLimits {
        connection_slots: connection_slots.clone(),
        requests_per_second: options.requests_per_second,
        joins_per_minute: options.joins_per_minute,
        sign_ins_per_minute: options.sign_ins_per_minute,
        quick_play_wait: options.quick_play_wait,
        rated_games_per_pair_per_day: options.rated_games_per_pair_per_day,
        clock: options.clock.clone(),
        smtp: options.smtp.clone(),
    };
    let hub = Arc::new(Hub::new(store, limits, options.trusted_proxies.clone()));
    let lobby = tokio::spawn(hub.clone().refresh_lobby_forever());
    let timer = tokio::spawn(hub.clone().keep_clocks_forever());
    let upkeep = tokio::spawn(hub.clone().upkeep_forever());
    let digest = options.smtp.clone().map(|smtp| tokio::spawn(hub.clone().send_digests_forever(smtp)));
    if backend == Backend::Postgres {
        listen_to_other_instances(database, hub.clone()).await.map_err(|e| redact_in(&e, database))?;
    }
    let mut app = Router::new()
        .route(SOCKET_PATH, get(socket))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/unsubscribe", get(mail_pages::unsubscribe_form).post(mail_pages::unsubscribe))
        .route("/confirm", get(mail_pages::confirm_form).post(mail_pages::confirm));
    app = match &options.web {
        Some(dir) => app.fallback_service(web_root::WebRoot::open(dir)?.service()),
        None => app.fallback(no_page),
    };
    let app = app.with_state(hub);
    let tcp = tokio::net::TcpListener::bind(options.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.listen))?;
    let addr = tcp.local_addr().map_err(|e| e.to_string())?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let admission = listener::Admission {
        handshake_timeout: options.handshake_timeout,
        slots: connection_slots,
        trusted_proxies: options.trusted_proxies.clone(),
    };
    let task = tokio::spawn(async move {
        listener::serve(tcp, app, admission, async move {
            let _ = stopped.await;
        })
        .await;
        lobby.abort();
        timer.abort();
        upkeep.abort();
        if let Some(digest) = digest {
            digest.abort();
        }
    });
    Ok(Running { addr, backend, stop, task })
}

/// Follows the other instances' announcements through PostgreSQL's LISTEN. The loop only parses
/// and hands each on (`Hub::on_announcement`), so it keeps up however busy the store is. When the
/// connection drops it is made again, and what was announced meanwhile is read from the store.
async fn listen_to_other_instances(url: &str, hub: Arc<Hub>) -> Result<(), String> {
    let shown = redact(url);
    let url = url.to_string();
    let mut listener = listen(&url).await.map_err(|e| format!("cannot LISTEN on {shown}: {e}"))?;
    tokio::spawn(async move {
        loop {
            match listener.try_recv().await {
                Ok(Some(note)) => hub.on_announcement(note.payload()),
                // sqlx connected and listened again before it returned.
                Ok(None) => hub.after_missed_announcements(),
                Err(e) => {
                    eprintln!("stoneyard serve: LISTEN connection: {}; retrying", redact_in(&e.to_string(), &url));
                    // A new listener, to know when it listens again (the old one would reconnect
                    // by itself, unseen).
                    listener = loop {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        match listen(&url).await {
                            Ok(listener) => break listener,
                            Err(e) => eprintln!(
                                "stoneyard serve: LISTEN connection: {}; retrying",
                                redact_in(&e.to_string(), &url)
                            ),
                        }
                    };
                    hub.after_missed_announcements();
                }
            }
        }
    });
    Ok(())
}

/// A connection listening to the other instances' announcements.
async fn listen(url: &str) -> Result<sqlx::postgres::PgListener, sqlx::Error> {
    let mut listener = sqlx::postgres::PgListener::connect(url).await?;
    listener.listen("stoneyard").await?;
    Ok(listener)
}

/// `stoneyard serve`: runs until Ctrl-C or SIGTERM.
pub fn serve(options: ServeOptions) -> Result<(), String> {
    raise_open_file_limit();
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let running = start(options.clone()).await?;
        println!(
            "stoneyard serve: listening on http://{} (WebSocket {}), store {}",
            running.addr,
            SOCKET_PATH,
            redact(&options.database)
        );
        shutdown_signal().await;
        println!("stoneyard serve: stopping");
        running.stop().await;
        Ok(())
    })
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("SIGTERM handler");
        tokio::select! {
            _ = ctrl_c => {},
            _ = term.recv() => {},
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

/// Every connection is an open file: the soft limit (often 1,024) goes up to the hard limit.
fn raise_open_file_limit() {
    #[cfg(unix)]
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => println!("stoneyard serve: up to {limit} open files"),
        Err(e) => eprintln!("stoneyard serve: could not raise the open-file limit: {e}"),
    }
}

/// Every password a database URL holds: the user's in its authority (`user:password@host`), and
/// any parameter whose name ends in `password` (PostgreSQL's `?password=`, `?sslpassword=`).
fn passwords(url: &str) -> Vec<&str> {
    let mut found = Vec::new();
    if let Some(scheme) = url.find("://") {
        let rest = &url[scheme + 3..];
        let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
        if let Some(at) = authority.rfind('@')
            && let Some((_, password)) = authority[..at].split_once(':')
        {
            found.push(password);
        }
    }
    // PostgreSQL also takes `?password=` (and `sslpassword=`) among its parameters.
    if let Some((_, query)) = url.split_once('?') {
        for pair in query.split('&') {
            if let Some((key, value)) = pair.split_once('=')
                && key.to_ascii_lowercase().ends_with("password")
            {
                found.push(value);
            }
        }
    }
    found.retain(|p| !p.is_empty());
    found
}

/// A database URL without its password, for logs.
fn redact(url: &str) -> String {
    redact_in(url, url)
}

/// `text` with the password of the database `url` (as written, and percent-decoded) blotted out
/// wherever it appears (a driver's error may quote the URL or its parts).
fn redact_in(text: &str, url: &str) -> String {
    let mut text = text.to_string();
    for password in passwords(url) {
        let decoded = percent_encoding::percent_decode_str(password).decode_utf8_lossy().into_owned();
        text = text.replace(password, "***");
        if decoded.len() >= 3 {
            text = text.replace(&decoded, "***");
        }
    }
    text
}

/// A server on its own thread and runtime, for tests of code that is not async (the app's).
pub struct Background {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Background {
    /// Starts a server on 127.0.0.1 (any free port) with the given store.
    pub fn start(database: String, web: Option<PathBuf>) -> Result<Background, String> {
        Background::start_with(ServeOptions { web, ..ServeOptions::local(database) })
    }

    /// Starts a server with these options.
    pub fn start_with(options: ServeOptions) -> Result<Background, String> {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build();
            let runtime = match runtime {
                Ok(r) => r,
                Err(e) => {
                    let _ = ready_tx.send(Err(e.to_string()));
                    return;
                }
            };
            runtime.block_on(async move {
                match start(options).await {
                    Ok(running) => {
                        let _ = ready_tx.send(Ok(running.addr));
                        let _ = stop_rx.await;
                        running.stop().await;
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                }
            });
        });
        let addr = ready_rx.recv().map_err(|e| e.to_string())??;
        Ok(Background { addr, stop: Some(stop_tx), thread: Some(thread) })
    }

    /// The WebSocket address clients connect to.
    pub fn socket_url(&self) -> String {
        format!("ws://{}{}", self.addr, SOCKET_PATH)
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_are_not_logged() {
        assert_eq!(super::redact("postgres://me:secret@db/x"), "postgres://me:***@db/x");
        assert_eq!(super::redact("sqlite:///tmp/a.db"), "sqlite:///tmp/a.db");
        assert_eq!(super::redact("postgres://me@db/x"), "postgres://me@db/x");
        assert_eq!(
            super::redact("postgres://me@db/x?password=secret&sslmode=require"),
            "postgres://me@db/x?password=***&sslmode=require"
        );
        assert_eq!(
            super::redact("postgres://me:apple@db/x?sslpassword=b%21c&Password=pear"),
            "postgres://me:***@db/x?sslpassword=***&Password=***"
        );
        assert_eq!(super::redact("postgres://db/x?user=me@home"), "postgres://db/x?user=me@home");
        let url = "postgres://me:p%40ss:w@db/x";
        assert_eq!(super::redact_in(&format!("{url} refused p@ss:w"), url), "postgres://me:***@db/x refused ***");
    }
}
