//! A connection's outgoing queue, bounded in bytes: a client that does not read what it is sent is
//! closed, never buffered for (the server's memory stays bounded whatever a client does).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use tokio::sync::{Notify, mpsc};

/// The most bytes of messages waiting for one client. One message always fits into an empty queue
/// (a long game's `state` may be larger on its own).
pub const OUTBOX_BYTES: usize = 1 << 20;

/// What a connection's writer sends: a text frame, or a close frame with its code and reason.
#[derive(Debug)]
pub enum Out {
    Text(String),
    Close(u16, String),
}

impl Out {
    fn bytes(&self) -> usize {
        match self {
            Out::Text(text) => text.len(),
            Out::Close(_, reason) => reason.len(),
        }
    }
}

struct Shared {
    queued: AtomicUsize,
    overflowed: AtomicBool,
    notify: Notify,
}

/// The sending end, cheap to clone (the hub keeps one per follower).
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::UnboundedSender<Out>,
    shared: Arc<Shared>,
}

/// The connection's end: its writer takes messages from here, its reader waits for an overflow.
pub struct Inbox {
    rx: mpsc::UnboundedReceiver<Out>,
    shared: Arc<Shared>,
}

/// A new queue for one connection.
pub fn outbox() -> (Outbox, Inbox) {
    let (tx, rx) = mpsc::unbounded_channel();
    let shared =
        Arc::new(Shared { queued: AtomicUsize::new(0), overflowed: AtomicBool::new(false), notify: Notify::new() });
    (Outbox { tx, shared: shared.clone() }, Inbox { rx, shared })
}

impl Outbox {
    /// Queues a message, unless the client has left more than [`OUTBOX_BYTES`] unread: then the
    /// queue is marked overflowed (the connection closes) and the message is dropped.
    pub fn send(&self, out: Out) {
        if self.shared.overflowed.load(Ordering::Relaxed) {
            return;
        }
        let bytes = out.bytes();
        let before = self.shared.queued.fetch_add(bytes, Ordering::Relaxed);
        if before > 0 && before + bytes > OUTBOX_BYTES {
            self.shared.queued.fetch_sub(bytes, Ordering::Relaxed);
            self.shared.overflowed.store(true, Ordering::Relaxed);
            self.shared.notify.notify_one();
            return;
        }
        if self.tx.send(out).is_err() {
            self.shared.queued.fetch_sub(bytes, Ordering::Relaxed);
        }
    }
}

impl Inbox {
    /// The next message to write (`None` once every sender is gone).
    pub async fn recv(&mut self) -> Option<Out> {
        let out = self.rx.recv().await?;
        self.shared.queued.fetch_sub(out.bytes(), Ordering::Relaxed);
        Some(out)
    }

    /// A handle that resolves when the client stops reading.
    pub fn overflow(&self) -> Overflow {
        Overflow(self.shared.clone())
    }
}

/// Resolves once a connection's queue has overflowed.
pub struct Overflow(Arc<Shared>);

impl Overflow {
    pub async fn wait(&self) {
        loop {
            let notified = self.0.notify.notified();
            if self.0.overflowed.load(Ordering::Relaxed) {
                return;
            }
            notified.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queue_that_is_not_read_overflows_at_its_byte_limit() {
        let (out, mut inbox) = outbox();
        let big = "x".repeat(OUTBOX_BYTES * 2);
        out.send(Out::Text(big.clone()));
        assert!(!out.shared.overflowed.load(Ordering::Relaxed), "one message always fits an empty queue");
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            assert!(matches!(inbox.recv().await, Some(Out::Text(t)) if t == big));
        });
        let line = "y".repeat(1000);
        let mut sent = 0;
        while !out.shared.overflowed.load(Ordering::Relaxed) {
            out.send(Out::Text(line.clone()));
            sent += 1;
            assert!(sent <= OUTBOX_BYTES / 1000 + 1, "no overflow after {sent} messages");
        }
        assert_eq!(sent, OUTBOX_BYTES / 1000 + 1);
        assert!(out.shared.queued.load(Ordering::Relaxed) <= OUTBOX_BYTES);
        runtime.block_on(async { inbox.overflow().wait().await });
    }
}
