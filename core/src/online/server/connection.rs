//! One WebSocket connection: reads requests (bounded in size and rate), hands them to the hub,
//! and writes what the hub queues for it. A misbehaving client gets clear errors, then a close;
//! nothing it sends can stop the server or touch another client.

use super::hub::Hub;
use super::outbox::{Out, outbox};
use super::rate_limit::RateLimit;
use crate::online::protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

/// Requests a connection may make per second on average by default (a person makes a few; a
/// reconnecting client re-sends a handful at once, hence the burst of twice as many).
pub const REQUESTS_PER_SECOND: f64 = 20.0;
/// Refused requests (over the rate, or not of the protocol) after which the connection is closed.
const STRIKES: u32 = 50;
/// A connection that sends nothing (not even pings) for this long is closed.
const IDLE: Duration = Duration::from_secs(120);

/// How long a closing connection's last messages may take to leave.
const WRITER_GRACE: Duration = Duration::from_secs(5);

/// Close codes of RFC 6455.
const CLOSE_INVALID_DATA: u16 = 1007;
const CLOSE_POLICY: u16 = 1008;
const CLOSE_TOO_BIG: u16 = 1009;

/// What one incoming frame is, for the limits: every kind of frame counts.
enum Frame {
    Request(String),
    /// A binary frame: not part of the protocol.
    Binary,
    /// A WebSocket ping or pong (answered by the WebSocket layer itself).
    Control,
    Closed,
}

/// Serves one connection until it closes, the client stops reading, or it misbehaves too often.
pub async fn serve_socket(socket: WebSocket, hub: Arc<Hub>, client: IpAddr) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut inbox) = outbox();
    let overflow = inbox.overflow();
    let mut writer = tokio::spawn(async move {
        while let Some(item) = inbox.recv().await {
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
    let mut session = hub.session(out.clone(), client);
    out.send(Out::Text(ServerMessage::Welcome { version: PROTOCOL_VERSION }.to_json()));
    let mut limit = RateLimit::new(hub.requests_per_second, 2.0 * hub.requests_per_second);
    let mut strikes = 0u32;
    let refuse = |code: ErrorCode, why: String| out.send(Out::Text(ServerMessage::error(code, why).to_json()));
    let mut stopped_reading = false;
    loop {
        let quick_play = session.quick_play_until;
        let next = tokio::select! {
            next = tokio::time::timeout(IDLE, stream.next()) => next,
            () = overflow.wait() => {
                stopped_reading = true;
                break;
            }
            () = until(quick_play) => {
                hub.quick_play_expired(&mut session).await;
                continue;
            }
        };
        let frame = match next {
            Ok(Some(Ok(Message::Text(text)))) => Frame::Request(text.to_string()),
            Ok(Some(Ok(Message::Binary(_)))) => Frame::Binary,
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) => Frame::Closed,
            Ok(Some(Ok(_))) => Frame::Control,
            Ok(Some(Err(e))) => {
                if let Some((code, reason)) = close_for_error(&e.to_string()) {
                    out.send(Out::Close(code, reason.into()));
                }
                break;
            }
            Err(_) => {
                out.send(Out::Close(CLOSE_POLICY, "idle for too long".into()));
                break;
            }
        };
        if matches!(frame, Frame::Closed) {
            break;
        }
        if strikes >= STRIKES {
            out.send(Out::Close(CLOSE_POLICY, "too many refused messages".into()));
            break;
        }
        if !limit.allow() {
            strikes += 1;
            refuse(ErrorCode::RateLimited, "too many messages; slow down".into());
            continue;
        }
        let text = match frame {
            Frame::Request(text) => text,
            Frame::Binary => {
                strikes += 1;
                refuse(ErrorCode::BadMessage, "binary frames are not part of the protocol; send JSON text".into());
                continue;
            }
            Frame::Control | Frame::Closed => continue,
        };
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
    if stopped_reading {
        // Its queue is full and it reads nothing: a close frame would wait behind it for ever.
        writer.abort();
    }
    if tokio::time::timeout(WRITER_GRACE, &mut writer).await.is_err() {
        writer.abort();
    }
}

/// Waits until `deadline`, or for ever without one.
async fn until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The close frame for a connection whose WebSocket layer failed on a frame (`None`: the
/// connection itself is gone).
fn close_for_error(error: &str) -> Option<(u16, &'static str)> {
    let error = error.to_lowercase();
    if error.contains("utf-8") || error.contains("utf8") {
        Some((CLOSE_INVALID_DATA, "text frames must be UTF-8"))
    } else if error.contains("too long") || error.contains("too big") || error.contains("size") {
        Some((CLOSE_TOO_BIG, "message too big"))
    } else {
        None
    }
}
