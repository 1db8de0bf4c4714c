//! The connection to the game server: one WebSocket (ewebsock: tungstenite on a thread natively,
//! the browser's own WebSocket in wasm32), open while the online screen or an online game needs
//! it, opened again by itself after a drop (after 0.5 s, doubling up to 5 s), kept alive with a
//! ping every 20 s. Incoming messages wake the app, which otherwise idles between frames (an idle
//! app still has a frame every second or few, soon enough to connect again).

use super::address::{DEFAULT_NATIVE_SERVER, complete_server};
use super::{FromServer, SocketOpened, ToServer};
use crate::app::settings::CurrentSettings;
use crate::app::{AppSystems, Launch};
use crate::online::protocol::{ClientMessage, ServerMessage, parse_server};
use bevy::prelude::*;
use std::time::Duration;
use web_time::Instant;

/// The first wait before connecting again after a drop; it doubles up to `LONGEST_WAIT`.
const FIRST_WAIT: Duration = Duration::from_millis(500);
const LONGEST_WAIT: Duration = Duration::from_secs(5);
/// A quiet connection sends a ping this often, so proxies and the server keep it.
const PING_EVERY: Duration = Duration::from_secs(20);

/// Where the connection stands.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum LinkState {
    /// Not needed, not open.
    #[default]
    Closed,
    Connecting,
    Open,
    /// Dropped or refused: connecting again soon.
    Waiting,
}

/// The connection as the rest of the feature sees it.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Connection {
    /// The server's socket address.
    pub url: String,
    /// Something needs the connection (the online screen, a followed game).
    pub wanted: bool,
    pub state: LinkState,
    /// Why the last connection failed or dropped, in words.
    pub problem: Option<String>,
    /// Half the last measured round trip (a ping to its pong): how late the server's clocks
    /// arrive, which the shown clocks take off.
    pub delay_ms: u32,
}

impl Connection {
    pub fn is_open(&self) -> bool {
        self.state == LinkState::Open
    }
}

/// The socket itself: a browser WebSocket cannot leave its thread, so this is non-send data.
#[derive(Default)]
struct Socket {
    link: Option<(ewebsock::WsSender, ewebsock::WsReceiver)>,
    /// The address `link` goes to.
    url: String,
    /// How long to wait after the next drop.
    wait: Duration,
    retry_at: Option<Instant>,
    /// When the ping waiting for its pong went out.
    ping_sent: Option<Instant>,
    last_sent: Option<Instant>,
    /// Requests made while the connection was down, sent when it opens.
    outbox: Vec<ClientMessage>,
}

pub fn plugin(app: &mut App) {
    app.init_non_send::<Socket>();
    app.init_resource::<Connection>();
    app.add_systems(Update, (choose_server, receive).chain().in_set(AppSystems::RecordInput));
    // Sent in the frame they were written in: an idle app may not have another frame for a while.
    app.add_systems(Last, send);
}

/// The server's address: `--server` for this run, else the settings', else this platform's
/// default (this computer natively, the page's own server in the browser).
fn server_address(launch: Option<&Launch>, settings: &CurrentSettings) -> String {
    let chosen = launch.and_then(|l| l.server.clone()).unwrap_or_else(|| settings.0.online_server.clone());
    if let Ok(url) = complete_server(&chosen) {
        return url;
    }
    page_server().unwrap_or_else(|| DEFAULT_NATIVE_SERVER.to_string())
}

/// The socket of the server that served this page.
#[cfg(target_arch = "wasm32")]
fn page_server() -> Option<String> {
    let location = web_sys::window()?.location();
    Some(super::address::socket_of_page(&location.protocol().ok()?, &location.host().ok()?))
}

#[cfg(not(target_arch = "wasm32"))]
fn page_server() -> Option<String> {
    None
}

fn choose_server(launch: Option<Res<Launch>>, settings: Res<CurrentSettings>, mut connection: ResMut<Connection>) {
    if settings.is_changed() || connection.url.is_empty() {
        let url = server_address(launch.as_deref(), &settings);
        if connection.url != url {
            connection.url = url;
            connection.problem = None;
        }
    }
}

/// Opens, reopens or closes the socket as needed, and passes on what the server said.
fn receive(
    mut socket: NonSendMut<Socket>,
    mut connection: ResMut<Connection>,
    waker: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    mut heard: MessageWriter<FromServer>,
    mut opened: MessageWriter<SocketOpened>,
) {
    let socket = &mut *socket;
    if socket.link.is_some() && (!connection.wanted || socket.url != connection.url) {
        socket.link = None; // dropping the sender closes the socket
        socket.retry_at = None;
        connection.set_if_neq(Connection { state: LinkState::Closed, ..connection.clone() });
    }
    if !connection.wanted {
        socket.outbox.clear();
        socket.wait = FIRST_WAIT;
        return;
    }
    if socket.link.is_none() && socket.retry_at.is_none_or(|at| Instant::now() >= at) {
        socket.url = connection.url.clone();
        socket.retry_at = None;
        let wake = waker.map(|w| (**w).clone());
        let wake_up = move || {
            if let Some(proxy) = &wake {
                let _ = proxy.send_event(bevy::winit::WinitUserEvent::WakeUp);
            }
        };
        match ewebsock::connect_with_wakeup(socket.url.clone(), ewebsock::Options::default(), wake_up) {
            Ok(link) => {
                socket.link = Some(link);
                connection.state = LinkState::Connecting;
            }
            Err(e) => dropped(socket, &mut connection, e),
        }
    }
    while let Some(event) = socket.link.as_ref().and_then(|(_, receiver)| receiver.try_recv()) {
        match event {
            ewebsock::WsEvent::Opened => {
                socket.wait = FIRST_WAIT;
                socket.last_sent = Some(Instant::now());
                connection.state = LinkState::Open;
                connection.problem = None;
                opened.write(SocketOpened);
                let waiting = std::mem::take(&mut socket.outbox);
                if let Some((sender, _)) = socket.link.as_mut() {
                    // A first ping measures the connection's delay.
                    sender.send(ewebsock::WsMessage::Text(ClientMessage::Ping {}.to_json()));
                    socket.ping_sent = Some(Instant::now());
                    for message in waiting {
                        sender.send(ewebsock::WsMessage::Text(message.to_json()));
                    }
                }
            }
            ewebsock::WsEvent::Message(ewebsock::WsMessage::Text(text)) => match parse_server(&text) {
                Ok(message) => {
                    if message == ServerMessage::Pong
                        && let Some(sent) = socket.ping_sent.take()
                    {
                        connection.delay_ms = (sent.elapsed().as_millis() / 2).min(u128::from(u32::MAX)) as u32;
                    }
                    heard.write(FromServer(message));
                }
                Err(e) => warn!("online: {e}"),
            },
            ewebsock::WsEvent::Message(_) => {}
            ewebsock::WsEvent::Error(e) => {
                dropped(socket, &mut connection, e);
                break;
            }
            ewebsock::WsEvent::Closed => {
                dropped(socket, &mut connection, "the server closed the connection".to_string());
                break;
            }
        }
    }
}

/// The socket failed: try again after a wait that doubles each time.
fn dropped(socket: &mut Socket, connection: &mut Connection, why: String) {
    debug!("online: connection to {} lost: {why}", socket.url);
    socket.link = None;
    socket.retry_at = Some(Instant::now() + socket.wait);
    socket.wait = (socket.wait * 2).clamp(FIRST_WAIT, LONGEST_WAIT);
    connection.state = LinkState::Waiting;
    connection.problem = Some(in_words(&why).to_string());
}

/// A connection failure as a player reads it: the WebSocket libraries' own wording ("Connect: URL
/// error: Unable to connect to …", "IO error: … (os error 111)") names their internals, not the
/// player's problem. The raw text stays in the log.
fn in_words(raw: &str) -> &'static str {
    let raw = raw.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| raw.contains(w));
    if has(&["certificate", "unknownissuer", "notvalidforname"]) {
        "the server's certificate is not trusted here"
    } else if has(&["tls", "handshake"]) {
        "the secure (wss://) connection failed"
    } else if has(&["lookup", "dns", "not known", "resolve", "no such host"]) {
        "no machine has that name"
    } else if has(&["timed out", "timeout"]) {
        "the server did not answer in time"
    } else if has(&["refused", "unable to connect", "os error 111", "unreachable"]) {
        "no server answers at that address"
    } else if has(&["closed"]) {
        "the server closed the connection"
    } else if has(&["url", "scheme", "invalid"]) {
        "that is not a server address"
    } else {
        "the connection failed"
    }
}

/// Sends what the feature wrote this frame, keeps requests while the connection is down, pings.
fn send(mut socket: NonSendMut<Socket>, connection: Res<Connection>, mut outgoing: MessageReader<ToServer>) {
    let socket = &mut *socket;
    let open = connection.is_open() && socket.link.is_some();
    for ToServer(message) in outgoing.read() {
        if open {
            if let Some((sender, _)) = socket.link.as_mut() {
                sender.send(ewebsock::WsMessage::Text(message.to_json()));
                socket.last_sent = Some(Instant::now());
            }
        } else if matches!(
            message,
            ClientMessage::Create { .. }
                | ClientMessage::Join { .. }
                | ClientMessage::List { .. }
                | ClientMessage::Resign { .. }
                | ClientMessage::Rematch { .. }
        ) {
            // Follows and moves are the game's seat's to send again once connected; requests wait.
            socket.outbox.push(message.clone());
        }
    }
    if open && socket.last_sent.is_some_and(|at| at.elapsed() >= PING_EVERY) {
        if let Some((sender, _)) = socket.link.as_mut() {
            sender.send(ewebsock::WsMessage::Text(ClientMessage::Ping {}.to_json()));
            socket.ping_sent = Some(Instant::now());
        }
        socket.last_sent = Some(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::in_words;

    #[test]
    fn connection_failures_read_as_the_players_problem() {
        assert_eq!(
            in_words("Connect: URL error: Unable to connect to ws://127.0.0.1:7878/ws"),
            "no server answers at that address"
        );
        assert_eq!(in_words("IO error: Connection refused (os error 111)"), "no server answers at that address");
        assert_eq!(
            in_words("IO error: failed to lookup address information: Name or service not known"),
            "no machine has that name"
        );
        assert_eq!(
            in_words("TLS error: rustls error: invalid peer certificate: UnknownIssuer"),
            "the server's certificate is not trusted here"
        );
        assert_eq!(
            in_words("TLS error: rustls error: received fatal alert: HandshakeFailure"),
            "the secure (wss://) connection failed"
        );
        assert_eq!(in_words("the server closed the connection"), "the server closed the connection");
        assert_eq!(in_words("URL error: URL scheme not supported"), "that is not a server address");
        assert_eq!(in_words("error"), "the connection failed");
    }
}
