//! The gallery's online stage: a loopback server seeded with players, rated games, open
//! challenges (on their clocks) and a game being played on a correspondence clock, so the online
//! screens are pictured as a player sees them.

use stoneyard::games::GameKind;
use stoneyard::online::client::Client;
use stoneyard::online::directory::{Phrase, TimeControl};
use stoneyard::online::protocol::{ClientMessage, SeatChoice, ServerMessage};
use stoneyard::online::seat::OnlineSeat;
use stoneyard::online::server::{Background, ServeOptions};
use stoneyard::rules::{pick_index, seeded};
use stoneyard::save::{KeptPlayer, Store, keep_player};

/// The name the gallery's own player goes by.
pub const YOU: &str = "Ada";
/// The player whose page is pictured.
pub const PICTURED_PLAYER: &str = "Mira";
/// Decisions of the game being played before it is watched.
const LIVE_PLIES: usize = 14;

/// The running server and the players the seeding left connected (they keep the game being
/// played live and the challenges' posters online).
pub struct OnlineStage {
    pub url: String,
    pub live_game: String,
    _server: Background,
    _runtime: tokio::runtime::Runtime,
}

/// A seeded player's connection, signed in.
struct Seeded {
    client: Client,
}

impl Seeded {
    async fn register(url: &str, name: &str) -> (Seeded, String) {
        let mut client = Client::connect(url).await.expect("the gallery's server answers");
        match client.request(&ClientMessage::Register { name: name.into() }).await {
            Ok(ServerMessage::SignedIn { key: Some(key), .. }) => (Seeded { client }, key),
            other => panic!("registering {name}: {other:?}"),
        }
    }

    async fn ask(&mut self, m: ClientMessage, want: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
        self.client.send(&m).await.expect("the gallery's server takes a request");
        match self.client.recv_until(|r| want(r) || matches!(r, ServerMessage::Error { .. })).await {
            Ok(ServerMessage::Error { message, .. }) => panic!("the gallery's server refused {m:?}: {message}"),
            Ok(answer) => answer,
            Err(e) => panic!("the gallery's server went silent: {e}"),
        }
    }

    /// Posts a challenge; its game id and the poster's token.
    async fn post(
        &mut self,
        game: GameKind,
        options: Vec<(String, String)>,
        rated: bool,
        time_control: Option<TimeControl>,
    ) -> (String, String) {
        let challenge =
            ClientMessage::Challenge { game, options, seat: SeatChoice::First, rated, time_control, to: None };
        match self.ask(challenge, |m| matches!(m, ServerMessage::Created { .. })).await {
            ServerMessage::Created { game_id, token, .. } => (game_id, token),
            _ => unreachable!(),
        }
    }

    async fn accept(&mut self, game_id: &str) -> String {
        match self
            .ask(ClientMessage::Accept { game_id: game_id.into() }, |m| matches!(m, ServerMessage::Joined { .. }))
            .await
        {
            ServerMessage::Joined { token, .. } => token,
            _ => unreachable!(),
        }
    }

    /// Follows a game from a seat until its state arrives.
    async fn sit(&mut self, seat: &mut OnlineSeat) {
        for m in seat.on_connect() {
            self.client.send(&m).await.expect("the gallery's server takes a request");
        }
        self.pump(seat, |s| s.setup.is_some()).await;
    }

    /// Handles the server's messages for `seat` until `done` holds.
    async fn pump(&mut self, seat: &mut OnlineSeat, done: impl Fn(&OnlineSeat) -> bool) {
        while !done(seat) {
            let m = self.client.recv().await.expect("the gallery's server answers");
            for reply in seat.receive(&m) {
                self.client.send(&reply).await.expect("the gallery's server takes a request");
            }
        }
    }
}

/// Plays random decisions from two seats of one game, each seen by both, until `enough` holds
/// for the plies played and which seats have moved.
async fn play(
    table: &mut [&mut Seeded; 2],
    seats: &mut [OnlineSeat; 2],
    rng: &mut stoneyard::rules::GameRng,
    enough: impl Fn(usize, [bool; 2]) -> bool,
) {
    let (mut plies, mut moved) = (0, [false; 2]);
    while !enough(plies, moved) {
        let mover = if seats[0].legal().is_empty() { 1 } else { 0 };
        let legal = seats[mover].legal();
        assert!(!legal.is_empty(), "somebody moves in the gallery's game");
        let decision = legal[pick_index(rng, legal.len())].clone();
        for m in seats[mover].decide(decision) {
            table[mover].client.send(&m).await.expect("the gallery's server takes a move");
        }
        table[mover].pump(&mut seats[mover], |s| s.pending.is_empty()).await;
        plies += 1;
        moved[mover] = true;
        let total = seats[mover].moves.len();
        table[1 - mover].pump(&mut seats[1 - mover], |s| s.moves.len() >= total).await;
    }
}

/// Starts the server and seeds it; keeps `YOU`'s key in `store` as the app keeps it.
pub fn stage(store: &mut Store) -> OnlineStage {
    let dir = std::env::temp_dir().join(format!("stoneyard-gallery-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder for the gallery's server");
    // The seeding players play whole turns at once: more requests a second than a person makes.
    let options = ServeOptions {
        requests_per_second: 1_000.0,
        ..ServeOptions::local(format!("sqlite://{}", dir.join("games.sqlite3").display()))
    };
    let server = Background::start_with(options).expect("the server starts");
    let url = server.socket_url();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime for the seeding players");
    let (key, live_game) = runtime.block_on(seed(&url));
    keep_player(store, KeptPlayer { server: url.clone(), name: YOU.into(), key }).expect("the memory store keeps it");
    OnlineStage { url, live_game, _server: server, _runtime: runtime }
}

/// Players with a history of rated games, two open challenges, and a game being played with a
/// phrase said. Returns `YOU`'s key and the game being played.
async fn seed(url: &str) -> (String, String) {
    let (mut you, key) = Seeded::register(url, YOU).await;
    let mut players = Vec::new();
    for name in [PICTURED_PLAYER, "Tomas", "Lena_K", "Kofi"] {
        players.push(Seeded::register(url, name).await.0);
    }
    // Rated games for the ratings, the leaderboard and Mira's page: (first, second, who resigns).
    let gravel = GameKind::named("gravel");
    let results = [(0, 1, 1), (0, 2, 1), (1, 0, 0), (0, 3, 1), (2, 0, 1), (0, 1, 1), (3, 2, 1), (0, 2, 1)];
    for (first, second, loser) in results {
        let (game_id, first_token) = players[first].post(gravel, gravel.quick_pairs(), true, None).await;
        let second_token = players[second].accept(&game_id).await;
        // Both sides move first: a game resigned before a side has moved is an unrated abort.
        let mut seats = [
            OnlineSeat::new(&game_id, Some(first_token.clone())),
            OnlineSeat::new(&game_id, Some(second_token.clone())),
        ];
        {
            let [a, b] = players.get_disjoint_mut([first, second]).expect("two players");
            let mut table = [a, b];
            for (player, seat) in table.iter_mut().zip(seats.iter_mut()) {
                player.sit(seat).await;
            }
            let mut rng = seeded((first * 10 + second) as u64);
            play(&mut table, &mut seats, &mut rng, |_, moved| moved == [true, true]).await;
        }
        let (loser_index, token) = if loser == 0 { (first, first_token) } else { (second, second_token) };
        let resign = ClientMessage::Resign { game_id: game_id.clone(), token };
        players[loser_index]
            .ask(resign, |m| matches!(m, ServerMessage::Ended { game_id: g, .. } if *g == game_id))
            .await;
        // The store orders a player's games by the millisecond they ended.
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }
    // The open list is in the order of posting (to the millisecond): one apart, the same each run.
    // Their clocks: untimed, a day a move, a live 5+3.
    you.post(GameKind::named("inchworm"), GameKind::named("inchworm").quick_pairs(), false, None).await;
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    let a_day = Some(TimeControl::Correspondence { days_per_move: 1 });
    players[0].post(GameKind::named("red-stone"), vec![("size".into(), "13".into())], true, a_day).await;
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    let five_plus_three = Some(TimeControl::Live { base_seconds: 300, increment_seconds: 3 });
    players[3].post(GameKind::named("hidden-intention"), Vec::new(), false, five_plus_three).await;

    // Tomas and Lena play Red Stone at three days a move (a clock that reads the same however long
    // the gallery takes); Lena says hello.
    let red_stone = GameKind::named("red-stone");
    let three_days = Some(TimeControl::Correspondence { days_per_move: 3 });
    let (live_game, tomas_token) = players[1].post(red_stone, red_stone.quick_pairs(), true, three_days).await;
    let lena_token = players[2].accept(&live_game).await;
    let mut seats =
        [OnlineSeat::new(&live_game, Some(tomas_token)), OnlineSeat::new(&live_game, Some(lena_token.clone()))];
    let (tomas_and_before, lena_and_after) = players.split_at_mut(2);
    let mut table = [&mut tomas_and_before[1], &mut lena_and_after[0]];
    for (player, seat) in table.iter_mut().zip(seats.iter_mut()) {
        player.sit(seat).await;
    }
    let mut rng = seeded(19);
    play(&mut table, &mut seats, &mut rng, |plies, _| plies >= LIVE_PLIES).await;
    // The seeding players stay connected (answering the server) while the gallery runs; Lena
    // says hello every few seconds, so whoever watches hears a phrase (a phrase is heard live).
    for (index, player) in players.into_iter().chain([you]).enumerate() {
        let hello = (index == 2).then(|| ClientMessage::Say {
            game_id: live_game.clone(),
            token: lena_token.clone(),
            phrase: Phrase::Hello,
        });
        tokio::spawn(async move {
            let mut client = player.client;
            let mut every = tokio::time::interval(std::time::Duration::from_secs(3));
            loop {
                tokio::select! {
                    heard = client.next_message() => if heard.is_err() { return },
                    _ = every.tick() => if let Some(hello) = &hello {
                        let _ = client.send(hello).await;
                    },
                }
            }
        });
    }
    (key, live_game)
}
