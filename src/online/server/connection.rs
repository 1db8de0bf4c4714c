//! One WebSocket connection: reads requests (bounded in size and rate), hands them to the hub,
//! and writes what the hub queues for it. A misbehaving client gets clear errors, then a close;
//! nothing it sends can stop the server or touch another client.

use super::hub::{Hub, Out};
use crate::online::protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Requests a connection may make per second on average by default (a person makes a few; a
/// reconnecting client re-sends a handful at once, hence the burst of twice as many).
pub const REQUESTS_PER_SECOND: f64 = 20.0;
/// Refused requests (over the rate, or not of the protocol) after which the connection is closed.
const STRIKES: u32 = 50;
/// A connection that sends nothing (not even pings) for this long is closed.
const IDLE: Duration = Duration::from_secs(120);

/// Close codes of RFC 6455.
const CLOSE_POLICY: u16 = 1008;
const CLOSE_TOO_BIG: u16 = 1009;

/// A token bucket: twice `per_second` requests at once, `per_second` on average.
struct RateLimit {
    per_second: f64,
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    fn new(per_second: f64) -> RateLimit {
        RateLimit { per_second, tokens: 2.0 * per_second, last: Instant::now() }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(2.0 * self.per_second);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Serves one connection until it closes.
pub async fn serve_socket(socket: WebSocket, hub: Arc<Hub>) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut queue) = mpsc::unbounded_channel::<Out>();
    let writer = tokio::spawn(async move {
        while let Some(item) = queue.recv().await {
            let result = match item {
                Out::Text(text) => sink.send(Message::Text(text.into())).await,
                Out::Close(code, reason) => {
                    let _ = sink.send(Message::Close(Some(CloseFrame { code, reason: reason.into() }))).await;
                    break;
                }
            };
            if result.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut session = hub.session(out.clone());
    let _ = out.send(Out::Text(ServerMessage::Welcome { version: PROTOCOL_VERSION }.to_json()));
    let mut limit = RateLimit::new(hub.requests_per_second);
    let mut strikes = 0u32;
    let refuse = |code: ErrorCode, why: String| {
        let _ = out.send(Out::Text(ServerMessage::error(code, why).to_json()));
    };
    loop {
        let next = match tokio::time::timeout(IDLE, stream.next()).await {
            Ok(Some(next)) => next,
            Ok(None) => break,
            Err(_) => {
                let _ = out.send(Out::Close(CLOSE_POLICY, "idle for too long".into()));
                break;
            }
        };
        let text = match next {
            Ok(Message::Text(text)) => text,
            Ok(Message::Binary(_)) => {
                strikes += 1;
                refuse(ErrorCode::BadMessage, "binary frames are not part of the protocol; send JSON text".into());
                continue;
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => continue, // pings and pongs are answered by the WebSocket layer
            Err(e) => {
                let too_big = e.to_string().to_lowercase().contains("too long")
                    || e.to_string().to_lowercase().contains("too big")
                    || e.to_string().to_lowercase().contains("size");
                if too_big {
                    let _ = out.send(Out::Close(CLOSE_TOO_BIG, "message too big".into()));
                }
                break;
            }
        };
        if strikes >= STRIKES {
            let _ = out.send(Out::Close(CLOSE_POLICY, "too many refused messages".into()));
            break;
        }
        if !limit.allow() {
            strikes += 1;
            refuse(ErrorCode::RateLimited, "too many messages; slow down".into());
            continue;
        }
        match ClientMessage::parse(&text) {
            Ok(message) => {
                strikes = strikes.saturating_sub(1);
                hub.handle(&mut session, message).await;
            }
            Err(why) => {
                strikes += 1;
                refuse(ErrorCode::BadMessage, why);
            }
        }
    }
    hub.disconnect(&mut session).await;
    drop(session);
    drop(out);
    let _ = writer.await;
}
