//! A protocol client on tokio, for the load test and the server's tests: connects, sends client
//! messages, receives server messages (keeping every raw frame, so tests can read exactly what
//! crossed the wire).

use super::protocol::{ClientMessage, ServerMessage, parse_server};
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long [`Client::recv`] waits before it calls the server silent.
pub const RECEIVE_TIMEOUT: Duration = Duration::from_secs(10);

/// One WebSocket connection to a Stoneyard server.
pub struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text frame received, in order.
    pub raw: Vec<String>,
    /// Whether to keep `raw` (the load test does not).
    pub keep_raw: bool,
}

/// What ended a connection, as a client sees it.
#[derive(Debug, PartialEq, Eq)]
pub enum Closed {
    /// A close frame with its code and reason.
    Frame(u16, String),
    /// The connection went away without one, or timed out.
    Gone(String),
}

impl Client {
    /// Connects to `url` (`ws://host:port/ws`) and reads the server's `Welcome`.
    pub async fn connect(url: &str) -> Result<Client, String> {
        let (socket, _) =
            tokio_tungstenite::connect_async(url).await.map_err(|e| format!("cannot connect to {url}: {e}"))?;
        let mut client = Client { socket, raw: Vec::new(), keep_raw: true };
        match client.recv().await {
            Ok(ServerMessage::Welcome { .. }) => Ok(client),
            other => Err(format!("expected Welcome, got {other:?}")),
        }
    }

    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), String> {
        self.send_text(message.to_json()).await
    }

    /// Sends any text frame (tests send malformed ones).
    pub async fn send_text(&mut self, text: String) -> Result<(), String> {
        self.socket.send(Message::Text(text.into())).await.map_err(|e| e.to_string())
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> Result<(), String> {
        self.socket.send(Message::Binary(bytes.into())).await.map_err(|e| e.to_string())
    }

    /// The next server message, or how the connection ended (waiting at most `RECEIVE_TIMEOUT`).
    pub async fn recv_or_close(&mut self) -> Result<ServerMessage, Closed> {
        tokio::time::timeout(RECEIVE_TIMEOUT, self.next_message())
            .await
            .map_err(|_| Closed::Gone("no message for 10 s".into()))?
    }

    /// The next server message, or how the connection ended, however long it takes (cancel-safe).
    pub async fn next_message(&mut self) -> Result<ServerMessage, Closed> {
        loop {
            match self.socket.next().await {
                Some(Ok(Message::Text(text))) => {
                    if self.keep_raw {
                        self.raw.push(text.to_string());
                    }
                    return parse_server(&text).map_err(Closed::Gone);
                }
                Some(Ok(Message::Close(frame))) => {
                    return Err(match frame {
                        Some(f) => Closed::Frame(f.code.into(), f.reason.to_string()),
                        None => Closed::Frame(1005, String::new()),
                    });
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(Closed::Gone(e.to_string())),
                None => return Err(Closed::Gone("the connection ended".into())),
            }
        }
    }

    pub async fn recv(&mut self) -> Result<ServerMessage, String> {
        self.recv_or_close().await.map_err(|c| format!("{c:?}"))
    }

    /// Receives until a message `want` accepts, returning it (skipping the others).
    pub async fn recv_until(&mut self, want: impl Fn(&ServerMessage) -> bool) -> Result<ServerMessage, String> {
        loop {
            let m = self.recv().await?;
            if want(&m) {
                return Ok(m);
            }
        }
    }

    /// Sends a request and returns the first answer that is not a broadcast of a followed game.
    pub async fn request(&mut self, message: &ClientMessage) -> Result<ServerMessage, String> {
        self.send(message).await?;
        self.recv_until(|m| {
            !matches!(
                m,
                ServerMessage::Moved { .. }
                    | ServerMessage::Revealed { .. }
                    | ServerMessage::Presence { .. }
                    | ServerMessage::Players { .. }
                    | ServerMessage::Said { .. }
                    | ServerMessage::Rated { .. }
                    | ServerMessage::ChallengeAdded { .. }
                    | ServerMessage::ChallengeRemoved { .. }
                    | ServerMessage::ChallengeAged { .. }
                    | ServerMessage::LiveGames { .. }
                    | ServerMessage::Clock { .. }
            )
        })
        .await
    }

    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}
