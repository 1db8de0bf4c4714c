//! `stoneyard serve`: one process that serves the browser build and the game server's WebSocket,
//! storing every game in SQLite (the default) or a PostgreSQL shared by several instances.

mod connection;
mod hub;
mod ids;
mod store;

pub use connection::REQUESTS_PER_SECOND;
pub use ids::normalise_code;
pub use store::{Backend, GameStore};

use crate::online::protocol::{MAX_MESSAGE_BYTES, SOCKET_PATH};
use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::response::IntoResponse;
use axum::routing::get;
use hub::Hub;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

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
}

impl ServeOptions {
    /// Loopback on any free port, the default rate limit.
    pub fn local(database: String) -> ServeOptions {
        ServeOptions {
            listen: ([127, 0, 0, 1], 0).into(),
            database,
            web: None,
            requests_per_second: REQUESTS_PER_SECOND,
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

async fn socket(ws: WebSocketUpgrade, State(hub): State<Arc<Hub>>) -> impl IntoResponse {
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| connection::serve_socket(socket, hub))
}

async fn no_page() -> &'static str {
    "Stoneyard game server. This instance serves no browser build (start it with --web DIR).\n"
}

/// Starts a server on the current tokio runtime.
pub async fn start(options: ServeOptions) -> Result<Running, String> {
    let store = GameStore::open(&options.database)
        .await
        .map_err(|e| format!("cannot open the store {}: {e}", options.database))?;
    let backend = store.backend;
    let hub = Arc::new(Hub::new(store, options.requests_per_second));
    if backend == Backend::Postgres {
        listen_to_other_instances(&options.database, hub.clone()).await?;
    }
    let mut app = Router::new().route(SOCKET_PATH, get(socket)).route("/healthz", get(|| async { "ok\n" }));
    app = match &options.web {
        Some(dir) => {
            if !dir.join("index.html").is_file() {
                return Err(format!("{} has no index.html (build it with `make web`)", dir.display()));
            }
            app.fallback_service(tower_http::services::ServeDir::new(dir))
        }
        None => app.fallback(no_page),
    };
    let app = app.with_state(hub);
    let listener = tokio::net::TcpListener::bind(options.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let served = axum::serve(listener, app).with_graceful_shutdown(async move {
            let _ = stopped.await;
        });
        if let Err(e) = served.await {
            eprintln!("stoneyard serve: {e}");
        }
    });
    Ok(Running { addr, backend, stop, task })
}

/// Follows the other instances' announcements through PostgreSQL's LISTEN, reconnecting when the
/// database connection drops.
async fn listen_to_other_instances(url: &str, hub: Arc<Hub>) -> Result<(), String> {
    let mut listener =
        sqlx::postgres::PgListener::connect(url).await.map_err(|e| format!("cannot LISTEN on {url}: {e}"))?;
    listener.listen("stoneyard").await.map_err(|e| format!("cannot LISTEN on {url}: {e}"))?;
    tokio::spawn(async move {
        loop {
            match listener.recv().await {
                Ok(note) => hub.on_announcement(note.payload()).await,
                Err(e) => {
                    eprintln!("stoneyard serve: LISTEN connection: {e}; retrying");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
        }
    });
    Ok(())
}

/// `stoneyard serve`: runs until Ctrl-C or SIGTERM.
pub fn serve(options: ServeOptions) -> Result<(), String> {
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

/// A database URL without its password, for logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let creds = &url[scheme + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
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
                let options = ServeOptions { web, ..ServeOptions::local(database) };
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
    }
}
