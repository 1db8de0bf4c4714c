//! The server's accept loop: each TCP connection is served by hyper's HTTP/1 with a deadline for
//! its request head (a client that never finishes its handshake is closed), at most so many
//! connections are open from one address at a time, and each request carries the client's address.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// How long the last HTTP connections may take to finish when the server stops.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The connections open from each address: counted here for direct clients, and by the WebSocket
/// handler for the clients a trusted proxy forwards (their address is known from the request).
#[derive(Clone, Debug)]
pub struct AddressSlots {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    max: usize,
}

/// One counted connection; dropping it frees its address's slot.
pub struct Slot {
    slots: AddressSlots,
    ip: IpAddr,
}

impl AddressSlots {
    /// At most `max` connections open from one address at a time.
    pub fn new(max: usize) -> AddressSlots {
        AddressSlots { open: Arc::new(Mutex::new(HashMap::new())), max }
    }

    /// A slot of `ip`'s, while it has one free.
    pub fn take(&self, ip: IpAddr) -> Option<Slot> {
        let mut open = self.open.lock().expect("address slots lock");
        let count = open.entry(ip).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(Slot { slots: self.clone(), ip })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.slots.open.lock().expect("address slots lock");
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A TCP stream that holds its address's slot for as long as it is open (through a WebSocket
/// upgrade too: the upgraded connection owns the stream).
struct Counted {
    stream: TcpStream,
    _slot: Option<Slot>,
}

impl AsyncRead for Counted {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// How connections are accepted.
#[derive(Clone, Debug)]
pub struct Admission {
    /// The time a client has to send its whole request head.
    pub handshake_timeout: Duration,
    /// The connections open from each address (shared with the WebSocket handler, which counts
    /// the clients of trusted proxies).
    pub slots: AddressSlots,
    /// Reverse proxies whose own connections are not counted per address (each carries one
    /// client, counted by its `X-Forwarded-For` address once its request is read).
    pub trusted_proxies: Vec<IpAddr>,
}

/// Serves `app` on `listener` until `stop` resolves, then lets the open HTTP exchanges finish.
pub async fn serve(listener: TcpListener, app: Router, admission: Admission, stop: impl Future<Output = ()>) {
    let slots = admission.slots.clone();
    let (closing, closing_seen) = watch::channel(false);
    let mut stop = std::pin::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of files or a connection reset before it was accepted: wait, go on.
                    eprintln!("stoneyard serve: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let slot = if admission.trusted_proxies.contains(&peer.ip()) {
            None
        } else {
            match slots.take(peer.ip()) {
                Some(slot) => Some(slot),
                None => continue, // dropped: closed at once
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Counted { stream, _slot: slot });
        let app = app.clone();
        let timeout = admission.handshake_timeout;
        let mut closing = closing_seen.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                app.clone().oneshot(request.map(axum::body::Body::new))
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(timeout);
            let connection = builder.serve_connection(io, service).with_upgrades();
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = closing.wait_for(|c| *c) => {}
            }
            connection.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(SHUTDOWN_GRACE, connection).await;
        });
    }
    drop(listener);
    drop(closing_seen);
    let _ = closing.send(true);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, closing.closed()).await;
}

/// The client's address for per-address limits: the peer, or the address a trusted proxy says it
/// forwards for (the last `X-Forwarded-For` entry, the one that proxy added).
pub fn client_address(peer: SocketAddr, headers: &axum::http::HeaderMap, trusted_proxies: &[IpAddr]) -> IpAddr {
    if !trusted_proxies.contains(&peer.ip()) {
        return peer.ip();
    }
    // Only the last entry: the earlier ones are whatever the client itself wrote there.
    headers
        .get_all("x-forwarded-for")
        .iter()
        .map(|v| v.to_str().unwrap_or(""))
        .flat_map(|v| v.split(','))
        .next_back()
        .and_then(|a| a.trim().parse::<IpAddr>().ok())
        .unwrap_or(peer.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_slots_and_gets_them_back_when_they_close() {
        let slots = AddressSlots { open: Arc::new(Mutex::new(HashMap::new())), max: 2 };
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = slots.take(a).unwrap();
        let _second = slots.take(a).unwrap();
        assert!(slots.take(a).is_none());
        assert!(slots.take(b).is_some(), "another address is not affected");
        drop(first);
        assert!(slots.take(a).is_some());
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let mut headers = axum::http::HeaderMap::new();
        headers.append("x-forwarded-for", "203.0.113.9, 198.51.100.7".parse().unwrap());
        let proxy: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let stranger: SocketAddr = "192.0.2.1:5000".parse().unwrap();
        assert_eq!(client_address(proxy, &headers, &[proxy.ip()]), "198.51.100.7".parse::<IpAddr>().unwrap());
        assert_eq!(client_address(stranger, &headers, &[proxy.ip()]), stranger.ip());
        assert_eq!(client_address(proxy, &axum::http::HeaderMap::new(), &[proxy.ip()]), proxy.ip());
    }
}
