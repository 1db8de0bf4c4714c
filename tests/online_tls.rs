//! The desktop's online client over `wss://`: through a TLS-terminating proxy to a real server.
//!
//! A host puts `stoneyard serve` behind a TLS reverse proxy (docs/hosting.md, "Hosting a server"); desktop
//! players then connect to `wss://HOST/ws`. This test stands up that arrangement on loopback: a
//! small rustls proxy with a certificate for `localhost` (signed by the test CA in
//! `tests/fixtures/tls/`) in front of the server, and the app's WebSocket client (ewebsock, built
//! with the app's TLS features) connecting through it. It runs alone in its binary because it sets
//! `SSL_CERT_FILE`, where the client's trusted certificates come from.

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use stoneyard::games::GameKind;
use stoneyard::online::protocol::{ClientMessage, SeatChoice, ServerMessage, parse_server};
use stoneyard::online::server::Background;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tls").join(name)
}

/// A TLS proxy on a loopback port that passes each connection's bytes on to `backend`.
fn tls_proxy(backend: std::net::SocketAddr) -> u16 {
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_file_iter(fixture("localhost.pem")).unwrap().collect::<Result<_, _>>().unwrap();
    let key = PrivateKeyDer::from_pem_file(fixture("localhost.key")).unwrap();
    let config = Arc::new(rustls::ServerConfig::builder().with_no_client_auth().with_single_cert(certs, key).unwrap());
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let config = config.clone();
            std::thread::spawn(move || relay(client, backend, config));
        }
    });
    port
}

/// Decrypts what the client sends to the backend and encrypts what comes back, until either closes.
fn relay(client: TcpStream, backend: std::net::SocketAddr, config: Arc<rustls::ServerConfig>) {
    let Ok(mut server) = TcpStream::connect(backend) else { return };
    let poll = Some(Duration::from_millis(5));
    client.set_read_timeout(poll).unwrap();
    server.set_read_timeout(poll).unwrap();
    let mut tls = rustls::StreamOwned::new(rustls::ServerConnection::new(config).unwrap(), client);
    let mut buffer = [0u8; 16 * 1024];
    let waiting = |e: &std::io::Error| matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut);
    loop {
        match tls.read(&mut buffer) {
            Ok(0) => return,
            Ok(n) => {
                if server.write_all(&buffer[..n]).is_err() {
                    return;
                }
            }
            Err(e) if waiting(&e) => {}
            Err(_) => return,
        }
        match server.read(&mut buffer) {
            Ok(0) => return,
            Ok(n) => {
                if tls.write_all(&buffer[..n]).and_then(|()| tls.flush()).is_err() {
                    return;
                }
            }
            Err(e) if waiting(&e) => {}
            Err(_) => return,
        }
    }
}

/// The next event from the socket, waiting up to 20 s.
fn next_event(receiver: &ewebsock::WsReceiver) -> ewebsock::WsEvent {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(event) = receiver.try_recv() {
            return event;
        }
        assert!(Instant::now() < until, "no event from the socket in 20 s");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_desktop_client_plays_through_a_tls_proxy_and_refuses_an_untrusted_certificate() {
    let dir = std::env::temp_dir().join(format!("stoneyard-online-tls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let server = Background::start(format!("sqlite://{}", dir.join("games.sqlite3").display()), None).unwrap();
    let port = tls_proxy(server.addr);
    let url = format!("wss://localhost:{port}/ws");

    // With no local certificates (only the built-in public roots) the client must refuse the proxy's
    // certificate: the test CA is not a public one.
    let no_local_certificates = dir.join("none.pem");
    std::fs::write(&no_local_certificates, "").unwrap();
    // SAFETY: nothing else in this test binary runs or reads the environment yet.
    unsafe { std::env::set_var("SSL_CERT_FILE", &no_local_certificates) };
    let (_sender, receiver) = ewebsock::connect(&url, ewebsock::Options::default()).unwrap();
    match next_event(&receiver) {
        ewebsock::WsEvent::Error(why) => assert!(why.contains("UnknownIssuer"), "{why}"),
        other => panic!("an untrusted certificate was accepted: {other:?}"),
    }

    // Trusting the CA that signed it (as a host's players trust a real certificate authority), the
    // same address carries the protocol: a game is created and its invite code comes back.
    // SAFETY: the first connection's thread has reported its error and ended; no other thread reads
    // the environment.
    unsafe { std::env::set_var("SSL_CERT_FILE", fixture("ca.pem")) };
    let (mut sender, receiver) = ewebsock::connect(&url, ewebsock::Options::default()).unwrap();
    assert!(matches!(next_event(&receiver), ewebsock::WsEvent::Opened), "the wss:// connection did not open");
    let create = ClientMessage::Create { game: GameKind::named("red-stone"), options: vec![], seat: SeatChoice::First };
    sender.send(ewebsock::WsMessage::Text(create.to_json()));
    loop {
        match next_event(&receiver) {
            ewebsock::WsEvent::Message(ewebsock::WsMessage::Text(text)) => match parse_server(&text).unwrap() {
                ServerMessage::Created { code, token, .. } => {
                    assert!(!code.is_empty() && !token.is_empty());
                    break;
                }
                ServerMessage::Error { message, .. } => panic!("the server refused: {message}"),
                _ => {}
            },
            ewebsock::WsEvent::Message(_) => {}
            other => panic!("the wss:// connection failed: {other:?}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
