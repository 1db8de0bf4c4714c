//! The daily digest on a clock moved by hand: a player who gave an address, and confirmed it from
//! the mail that asks, gets one mail a day listing the games waiting for their move (never one
//! per move), delivered to an SMTP sink this test starts; the mail's way out (RFC 8058's one-click
//! POST; a link followed only shows a button) forgets the address; the store keeps no token.

use crate::online_support;

use online_support::{FAST_PLAYERS, scratch_database};
use std::sync::{Arc, Mutex};
use stoneyard::games::GameKind;
use stoneyard::online::client::Client;
use stoneyard::online::clock::DAY_MS;
use stoneyard::online::directory::TimeControl;
use stoneyard::online::protocol::{ClientMessage, ErrorCode, SeatChoice, ServerMessage};
use stoneyard::online::server::{ManualClock, ServeOptions, ServerClock, SmtpOptions, start};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const NOON: i64 = 1_795_867_200_000;
const HOUR: i64 = 3_600_000;

/// A minimal SMTP server that keeps every message it is given.
async fn smtp_sink() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mails = Arc::new(Mutex::new(Vec::new()));
    let kept = mails.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let kept = kept.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 sink ready\r\n").await.unwrap();
                let mut data: Option<String> = None;
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some(mail) = data.as_mut() {
                        if line == "." {
                            kept.lock().unwrap().push(std::mem::take(mail));
                            data = None;
                            write.write_all(b"250 kept\r\n").await.unwrap();
                        } else {
                            mail.push_str(&line);
                            mail.push('\n');
                        }
                        continue;
                    }
                    let verb = line.split_whitespace().next().unwrap_or_default().to_ascii_uppercase();
                    let answer: &[u8] = match verb.as_str() {
                        "EHLO" | "HELO" => b"250 sink\r\n",
                        "DATA" => {
                            data = Some(String::new());
                            b"354 go on\r\n"
                        }
                        "QUIT" => {
                            write.write_all(b"221 bye\r\n").await.unwrap();
                            return;
                        }
                        _ => b"250 ok\r\n",
                    };
                    write.write_all(answer).await.unwrap();
                }
            });
        }
    });
    (port, mails)
}

async fn register(url: &str, name: &str) -> Client {
    register_keyed(url, name).await.0
}

/// A new player's connection and device key.
async fn register_keyed(url: &str, name: &str) -> (Client, String) {
    let mut c = Client::connect(url).await.unwrap();
    let signed = c.request(&ClientMessage::Register { name: name.into() }).await.unwrap();
    let ServerMessage::SignedIn { key: Some(key), .. } = signed else { panic!("{signed:?}") };
    (c, key)
}

/// Waits (really, briefly) until the sink holds `count` mails, and returns them.
async fn mails_when(mails: &Mutex<Vec<String>>, count: usize) -> Vec<String> {
    for _ in 0..200 {
        if mails.lock().unwrap().len() >= count {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    mails.lock().unwrap().clone()
}

/// The token of the link to `path` in a mail (its body read as a mail program reads quoted-printable
/// text: soft line breaks joined, `=3D` an equals sign).
fn link_in(mail: &str, path: &str) -> String {
    let mail = mail.replace("=\n", "").replace("=3D", "=");
    mail.split("https://games.example.org")
        .find_map(|rest| rest.strip_prefix(path))
        .map(|rest| rest.chars().take_while(|c| c.is_ascii_hexdigit()).collect::<String>())
        .unwrap_or_else(|| panic!("no link to {path} in {mail}"))
}

/// A plain HTTP request to the server; the status line and body.
async fn http(addr: std::net::SocketAddr, method: &str, path: &str) -> String {
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut socket, &mut answer).await.unwrap();
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_digest_lists_the_games_waiting_and_its_way_out_is_honoured() {
    let (smtp_port, mails) = smtp_sink().await;
    let clock = ManualClock::starting_at(NOON);
    let database = scratch_database("digest");
    let options = ServeOptions {
        requests_per_second: FAST_PLAYERS,
        sign_ins_per_minute: 100_000.0,
        clock: ServerClock::Manual(clock.clone()),
        smtp: Some(SmtpOptions {
            url: format!("smtp://127.0.0.1:{smtp_port}"),
            from: "Stoneyard <games@example.org>".into(),
            public_url: "https://games.example.org".into(),
        }),
        ..ServeOptions::local(database.clone())
    };
    let running = start(options).await.unwrap();
    let url = format!("ws://{}/ws", running.addr);
    let (mut ada, ada_key) = register_keyed(&url, "Ada").await;
    let mut bob = register(&url, "Bob").await;

    // A bad address is refused; Ada gives hers. It waits for her to confirm it from the mail
    // that asks.
    let bad = ada.request(&ClientMessage::SetEmail { address: "not an address".into() }).await.unwrap();
    assert!(matches!(bad, ServerMessage::Error { code: ErrorCode::BadMessage, .. }), "{bad:?}");
    let set = ada.request(&ClientMessage::SetEmail { address: "ada@example.org".into() }).await.unwrap();
    assert_eq!(set, ServerMessage::EmailSet { address: Some("ada@example.org".into()), confirmed: false });
    let asking = mails_when(&mails, 1).await[0].clone();
    assert!(asking.contains("To: ada@example.org") && asking.contains("confirm"), "{asking}");
    let confirm = link_in(&asking, "/confirm?token=");

    // Bob challenges Ada at a day a move, Ada to move first: her game waits for her.
    let gravel = GameKind::named("gravel");
    let challenge = ClientMessage::Challenge {
        game: gravel,
        options: gravel.quick_pairs(),
        seat: SeatChoice::Second,
        rated: false,
        time_control: Some(TimeControl::Correspondence { days_per_move: 1 }),
        to: Some("Ada".into()),
    };
    let ServerMessage::Created { game_id, .. } = bob.request(&challenge).await.unwrap() else { panic!() };
    let joined = ada.request(&ClientMessage::Accept { game_id }).await.unwrap();
    assert!(matches!(joined, ServerMessage::Joined { .. }), "{joined:?}");

    // The hour comes round: no digest to an address nobody confirmed.
    clock.advance(HOUR);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(mails.lock().unwrap().len(), 1, "no digest before the address is confirmed");
    // Following the link (as a mail scanner does) only shows a button; pressing it confirms.
    let shown = http(running.addr, "GET", &format!("/confirm?token={confirm}")).await;
    assert!(shown.starts_with("HTTP/1.1 200") && shown.contains("<form method=\"post\""), "{shown}");
    let card = ada.request(&ClientMessage::SignIn { key: ada_key.clone() }).await.unwrap();
    assert!(matches!(&card, ServerMessage::SignedIn { player, .. } if !player.email_confirmed), "{card:?}");
    let confirmed = http(running.addr, "POST", &format!("/confirm?token={confirm}")).await;
    assert!(confirmed.contains("digest is on"), "{confirmed}");
    // Ada's open screen hears of it at once, and her card says so from now on.
    let told = ada.recv_until(|m| matches!(m, ServerMessage::EmailSet { .. })).await.unwrap();
    assert_eq!(told, ServerMessage::EmailSet { address: Some("ada@example.org".into()), confirmed: true });
    let card = ada.request(&ClientMessage::SignIn { key: ada_key.clone() }).await.unwrap();
    assert!(matches!(&card, ServerMessage::SignedIn { player, .. } if player.email_confirmed), "{card:?}");

    // The next hour: one digest, listing the game and its way out.
    clock.advance(HOUR);
    let got = mails_when(&mails, 2).await;
    assert_eq!(got.len(), 2, "{got:?}");
    let mail = got[1].clone();
    assert!(mail.contains("To: ada@example.org"), "{mail}");
    assert!(mail.contains("Gravel against Bob"), "{mail}");
    assert!(mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"), "{mail}");
    let way_out = link_in(&mail, "/unsubscribe?token=");

    // Hours later the game still waits: no second mail the same day.
    for _ in 0..5 {
        clock.advance(HOUR);
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(mails.lock().unwrap().len(), 2, "one digest a day");
    // A day on: the next digest.
    clock.advance(DAY_MS);
    assert_eq!(mails_when(&mails, 3).await.len(), 3);

    // The way out followed as a link (or a HEAD) changes nothing…
    for method in ["GET", "HEAD"] {
        let shown = http(running.addr, method, &format!("/unsubscribe?token={way_out}")).await;
        assert!(shown.starts_with("HTTP/1.1 200"), "{shown}");
    }
    clock.advance(DAY_MS);
    assert_eq!(mails_when(&mails, 4).await.len(), 4, "a link followed is not a way out");
    // …a mail program's one-click POST is: no more mail, and Ada's card says so.
    let answer = http(running.addr, "POST", &format!("/unsubscribe?token={way_out}")).await;
    assert!(answer.starts_with("HTTP/1.1 200") && answer.contains("no more e-mails"), "{answer}");
    let again = http(running.addr, "POST", &format!("/unsubscribe?token={way_out}")).await;
    assert!(again.contains("already gets no e-mails"), "{again}");
    clock.advance(2 * DAY_MS);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(mails.lock().unwrap().len(), 4, "nothing after the way out");
    // No byte of the store's files holds a token a mail carried (it keeps their hashes).
    let path = database.trim_start_matches("sqlite://").to_string();
    let mut bytes = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        bytes.extend(std::fs::read(format!("{path}{suffix}")).unwrap_or_default());
    }
    let text = String::from_utf8_lossy(&bytes);
    assert!(!text.contains(&way_out) && !text.contains(&confirm), "the store holds a mail's token");

    // Guessing tokens: a few a minute from one address, then refused.
    let mut refused = 0;
    for guess in 0..40 {
        let answer = http(running.addr, "POST", &format!("/unsubscribe?token={guess:032x}")).await;
        refused += usize::from(answer.starts_with("HTTP/1.1 429"));
    }
    assert!(refused >= 40 - 30, "{refused} of 40 guesses refused");
    running.stop().await;
}
