//! The pages the digest's links open: a link followed (`GET`, as mail scanners do on their own)
//! only shows a page with a button; the button, or a mail program's one-click unsubscribe (a
//! `POST`, RFC 8058), acts. Wrong tokens are limited per client address, and the store is asked
//! for hashes of tokens only.

use super::hub::Hub;
use super::listener;
use crate::online::protocol::ServerMessage;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Html;
use std::net::SocketAddr;
use std::sync::Arc;

type Page = (StatusCode, Html<String>);

/// The token a link carries, when it looks like one.
fn token_in(uri: &Uri) -> Option<String> {
    let token = uri.query()?.split('&').find_map(|pair| pair.strip_prefix("token="))?;
    (token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())).then(|| token.to_string())
}

/// The pages wear the game's light theme, as its loading page does (parchment, ink, the
/// terracotta of its buttons), in a card the width of a phone.
const PAGE_STYLE: &str = "body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;\
background:#dec8a0;color:#281e14;font:18px/1.45 system-ui,sans-serif}\
main{background:#fbf3e2;border-radius:12px;box-shadow:0 2px 10px #0003;max-width:30em;margin:1em;padding:1.5em 2em}\
.brand{margin:0;font-size:14px;letter-spacing:.12em;text-transform:uppercase;color:#963c1e}\
h1{margin:.2em 0 .5em;font-size:28px}\
button{font:inherit;font-size:20px;padding:10px 28px;border:0;border-radius:8px;background:#963c1e;color:#fbf3e2;cursor:pointer}\
button:focus-visible{outline:3px solid #281e14;outline-offset:2px}";

fn page(status: StatusCode, title: &str, body: &str) -> Page {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><meta name=\"theme-color\" content=\"#963c1e\"><title>{title} · Stoneyard</title><style>{PAGE_STYLE}</style></head><body><main><p class=\"brand\">Stoneyard</p><h1>{title}</h1>{body}</main></body></html>\n"
    );
    (status, Html(html))
}

fn not_a_link(what: &str) -> Page {
    page(StatusCode::BAD_REQUEST, "Not a working link", &format!("<p>This link is not {what}.</p>"))
}

/// A page whose button sends the same link as a `POST`.
fn ask(path: &str, token: &str, title: &str, question: &str, button: &str) -> Page {
    let body = format!(
        "<p>{question}</p><form method=\"post\" action=\"{path}?token={token}\"><button type=\"submit\">{button}</button></form>"
    );
    page(StatusCode::OK, title, &body)
}

fn too_many() -> Page {
    page(
        StatusCode::TOO_MANY_REQUESTS,
        "Too many tries",
        "<p>Too many links from your address; try again in a minute.</p>",
    )
}

fn unavailable(e: impl std::fmt::Display) -> Page {
    eprintln!("stoneyard serve: a mail link: {e}");
    page(
        StatusCode::SERVICE_UNAVAILABLE,
        "Not available just now",
        "<p>The server could not reach its store; try again.</p>",
    )
}

/// `GET /unsubscribe?token=…`: asks.
pub async fn unsubscribe_form(uri: Uri) -> Page {
    match token_in(&uri) {
        Some(token) => ask(
            "/unsubscribe",
            &token,
            "Stop Stoneyard's mails?",
            "Stoneyard sends this address a digest of the games waiting for your move, once a day at most.",
            "Send me no more mails",
        ),
        None => not_a_link("a way out of Stoneyard's digest"),
    }
}

/// `POST /unsubscribe?token=…` (the page's button, or a mail program's one-click): forgets the
/// address at once.
pub async fn unsubscribe(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    uri: Uri,
) -> Page {
    let link = Link { hub: &hub, peer, headers: &headers, uri: &uri, what: "a way out of Stoneyard's digest" };
    let done = ("Done", "<p>Stoneyard will send you no more e-mails.</p>");
    let nothing = ("Nothing to do", "<p>This address already gets no e-mails from Stoneyard.</p>");
    let store = hub.store.clone();
    link.act(|hash| async move { store.unsubscribe(&hash).await }, done, nothing).await
}

/// `GET /confirm?token=…`: asks.
pub async fn confirm_form(uri: Uri) -> Page {
    match token_in(&uri) {
        Some(token) => ask(
            "/confirm",
            &token,
            "Confirm your address?",
            "Stoneyard will send it a digest of the games waiting for your move, once a day at most, and only when games wait.",
            "Yes, send me the digest",
        ),
        None => not_a_link("a confirmation of an address for Stoneyard"),
    }
}

/// `POST /confirm?token=…`: the address gets digests from now on.
pub async fn confirm(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    uri: Uri,
) -> Page {
    let link =
        Link { hub: &hub, peer, headers: &headers, uri: &uri, what: "a confirmation of an address for Stoneyard" };
    let done = ("Confirmed", "<p>Your daily digest is on. Every mail has a way out.</p>");
    let nothing = ("Nothing to confirm", "<p>This link was used already, or a newer address was given since.</p>");
    let confirming = hub.clone();
    let confirm = |hash: String| async move {
        let Some((player, address)) = confirming.store.confirm_email(&hash).await? else { return Ok(false) };
        // The player's open screens say so at once (on this instance).
        confirming.lobby.tell_player(&player, &ServerMessage::EmailSet { address: Some(address), confirmed: true });
        Ok(true)
    };
    link.act(confirm, done, nothing).await
}

/// A link of a mail, followed by a `POST`.
struct Link<'a> {
    hub: &'a Hub,
    peer: SocketAddr,
    headers: &'a HeaderMap,
    uri: &'a Uri,
    /// What the link is, in words, for a link that is not one.
    what: &'a str,
}

impl Link<'_> {
    /// Acts on the link's token (`act` is given its hash) within the client's limit; the page
    /// says `done` or, when no address had the token, `nothing` (each a title and a paragraph).
    async fn act<F, Fut>(self, act: F, done: (&str, &str), nothing: (&str, &str)) -> Page
    where
        F: FnOnce(String) -> Fut,
        Fut: std::future::Future<Output = Result<bool, super::store::StoreError>>,
    {
        let Some(token) = token_in(self.uri) else { return not_a_link(self.what) };
        if !self.hub.mail_links.allow(listener::client_address(self.peer, self.headers, &self.hub.trusted_proxies)) {
            return too_many();
        }
        match act(super::ids::token_hash(&token)).await {
            Ok(true) => page(StatusCode::OK, done.0, done.1),
            Ok(false) => page(StatusCode::OK, nothing.0, nothing.1),
            Err(e) => unavailable(e),
        }
    }
}
