//! The online protocol: the JSON messages a client and `stoneyard serve` exchange over a WebSocket.
//!
//! One text frame carries one message, tagged by `"type"`. A game's decisions are numbered by their
//! ply (0 for the first decision of the game); a client names the ply it means to fill, so a stale or
//! repeated move is recognised and a retried one is never applied twice.

use crate::games::GameKind;
use crate::online::clock::ClockView;
use crate::online::directory::{
    Challenge, Leader, LiveGame, Phrase, PlayerCard, PlayerPage, RatingChange, TimeControl,
};
use crate::rules::Side;
use serde::{Deserialize, Serialize};

/// The protocol this build speaks (sent in `Welcome`). Version 2: a Hidden Intention commitment
/// is one `move`, its decisions joined by `;` (`online::table::COMMITMENT_SEPARATOR`). Version 3:
/// players, challenges, quick play, watching, phrases and ratings (older messages unchanged).
/// Version 5: the lobby lists the newest challenges; `OlderChallenges` pages through the rest.
pub const PROTOCOL_VERSION: u32 = 5;

/// The largest message either side accepts, in bytes; a bigger one closes the connection.
pub const MAX_MESSAGE_BYTES: usize = 8 * 1024;

/// The most tokens one `List` may ask about.
pub const MAX_LISTED_GAMES: usize = 200;

/// The path of the game server's WebSocket on the host.
pub const SOCKET_PATH: &str = "/ws";

/// Which seat the creator of a game takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatChoice {
    First,
    Second,
    Random,
}

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Creates a game; the answer is `Created` (then the creator `Open`s it).
    Create {
        game: GameKind,
        options: Vec<(String, String)>,
        seat: SeatChoice,
    },
    /// Takes the free seat of the game with this invite code; the answer is `Joined`.
    Join {
        code: String,
    },
    /// Follows a game: the answer is `State` with every decision from `have` on, then every change.
    /// Without a token (or with another game's) the view is read-only.
    Open {
        game_id: String,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        have: u32,
    },
    /// Stops following a game.
    Close {
        game_id: String,
    },
    /// Plays `decision` as the game's decision number `ply` (at a simultaneous node, the seat's
    /// whole commitment).
    Move {
        game_id: String,
        token: String,
        ply: u32,
        decision: String,
    },
    /// Gives up the game.
    Resign {
        game_id: String,
        token: String,
    },
    /// Offers a rematch (or accepts the opponent's offer): the new game has the seats swapped.
    Rematch {
        game_id: String,
        token: String,
    },
    /// Asks for a summary of the games these seat tokens belong to.
    List {
        tokens: Vec<String>,
    },
    /// Keeps an idle connection alive; the answer is `Pong`. (Written with braces so that, like
    /// every other message, it refuses fields it does not have.)
    Ping {},
    /// Chooses a display name the first time online: the answer is `SignedIn` with the key this
    /// device keeps to sign in again.
    Register {
        name: String,
    },
    /// Signs in with the device's player key: `SignedIn`.
    SignIn {
        key: String,
    },
    /// Signs in on another device by name and password: `SignedIn` with a new key for it.
    Login {
        name: String,
        password: String,
    },
    /// Adds or changes the signed-in player's password: `PasswordSet`.
    SetPassword {
        password: String,
    },
    /// Posts a challenge (signed in): a game waiting in the lobby for someone to accept it, or for
    /// the player named by `to`. The answer is `Created`, as for `Create`.
    Challenge {
        game: GameKind,
        options: Vec<(String, String)>,
        seat: SeatChoice,
        rated: bool,
        #[serde(default)]
        time_control: Option<TimeControl>,
        #[serde(default)]
        to: Option<String>,
    },
    /// Accepts an open challenge (signed in): `Joined`, or `Taken` when someone was first.
    Accept {
        game_id: String,
    },
    /// Withdraws a challenge or an invite nobody has taken yet: `Cancelled`.
    Cancel {
        game_id: String,
        token: String,
    },
    /// Follows the lobby: `Lobby`, then `ChallengeAdded`, `ChallengeRemoved`, `ChallengeAged` and
    /// `LiveGames`.
    WatchLobby {},
    LeaveLobby {},
    /// The open challenges posted before the one at (`before_ms`, `before_id`) in the lobby's
    /// order (newest first): `OlderChallenges`. The lobby follows only the newest
    /// (`directory::LISTED_CHALLENGES`); this pages through the rest, once, not followed.
    OlderChallenges {
        before_ms: i64,
        before_id: String,
    },
    /// Waits for an opponent of similar rating at `game` (signed in): `QuickPlayWaiting`, then
    /// `Joined` when paired, or `QuickPlayOffer` (the computer) when nobody came in time.
    QuickPlay {
        game: GameKind,
    },
    StopQuickPlay {},
    /// Says a preset phrase in a game (a seat only): `Said` to everyone following it.
    Say {
        game_id: String,
        token: String,
        phrase: Phrase,
    },
    /// A player's page: `Page`.
    PlayerPage {
        name: String,
    },
    /// The best rated players at a game: `Leaders`.
    Leaderboard {
        game: GameKind,
    },
    /// The signed-in player's games, on any device: `Games`, each with a seat token for this device.
    MyGames {},
    /// Claims the win of a timed game: the opponent's correspondence time ran out, or the live
    /// opponent has been disconnected for the grace period. `Ended`, or an error saying why not.
    Claim {
        game_id: String,
        token: String,
    },
    /// Starts (`on`) or ends the signed-in player's vacation: their correspondence clocks stand
    /// still while it lasts, up to their allowance. `Vacation`.
    Vacation {
        on: bool,
    },
    /// Gives the signed-in player's e-mail address for the daily digest of games waiting for
    /// them (empty: forgets it). `EmailSet`.
    SetEmail {
        address: String,
    },
}

/// One decision of a game as a seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireMove {
    pub ply: u32,
    pub by: Side,
    /// `None`: a Hidden Intention commitment of the other seat, sealed until both are in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// The referee's result: `"draw"` or `{"winner": side}` in the game's notation.
    pub result: serde_json::Value,
    /// Why, in words ("A resigned", the rules' own reason).
    pub reason: String,
    /// What ended it, for a client to act on (`reason` is only to be shown). Endings stored
    /// before the server sent it have none: [`Ending::kind`] reads theirs from the words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub how: Option<EndKind>,
}

/// What ended a game (the match's own, on the wire as `"rules"`, `"resignation"`, `"time"`).
pub use crate::session::EndKind;

impl Ending {
    /// What ended the game: as the server said, or for an ending stored before it said so, as
    /// its words tell (the server's own phrases: "… resigned", "… ran out of time…", "… left the game…").
    pub fn kind(&self) -> EndKind {
        self.how.unwrap_or_else(|| {
            if self.reason.ends_with("resigned") {
                EndKind::Resignation
            } else if self.reason.contains("ran out of time") || self.reason.contains("left the game") {
                EndKind::Time
            } else {
                EndKind::Rules
            }
        })
    }
}

/// A game in a `Games` answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    pub game_id: String,
    pub token: String,
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    pub seat: Side,
    /// The invite code while the other seat is free.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    pub opponent_joined: bool,
    pub plies: u32,
    /// The seat can make a decision now.
    pub your_turn: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Ending>,
}

/// What a client did wrong, or why the server could not do it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not a message of this protocol (bad JSON, unknown type, a binary frame).
    BadMessage,
    /// The game's options or name are not accepted.
    BadGame,
    NoSuchGame,
    NoSuchCode,
    /// Both seats of the game are taken.
    GameFull,
    /// The token is not a seat of this game.
    BadToken,
    /// The seat cannot decide now (the other seat's turn, or its commitment is sealed).
    NotYourTurn,
    /// The ply is not the game's next one and the decision is not the one stored there.
    StalePly,
    /// The rules refuse the decision.
    Illegal,
    /// The game has ended.
    GameOver,
    /// Too many messages; slow down (the connection closes if it goes on).
    RateLimited,
    /// The server failed (its store); nothing was changed.
    Unavailable,
    /// Someone else accepted the challenge first (or it was withdrawn).
    Taken,
    /// The name breaks the rules for names.
    BadName,
    /// Another player has the name.
    NameTaken,
    /// The request needs a signed-in player.
    NotSignedIn,
    /// The name and password do not match, or the password breaks the rules for passwords.
    BadPassword,
    NoSuchPlayer,
}

/// A message from the server (read through [`ServerWire`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", try_from = "ServerWire")]
pub enum ServerMessage {
    /// Sent once when the connection opens.
    Welcome {
        version: u32,
    },
    /// A new game: the creator's seat and token, and the code that gives the other seat.
    Created {
        game_id: String,
        seat: Side,
        token: String,
        code: String,
    },
    /// The seat taken with an invite code, and its token.
    Joined {
        game_id: String,
        seat: Side,
        token: String,
    },
    /// A followed game: its setup and the decisions from the `have` asked for.
    State {
        game_id: String,
        game: GameKind,
        options: Vec<(String, String)>,
        /// The asker's seat (`None`: a read-only view).
        seat: Option<Side>,
        /// Every decision from `from` on (the earlier ones the client said it has).
        from: u32,
        moves: Vec<WireMove>,
        /// Which seats are taken, and which are connected now.
        joined: [bool; 2],
        online: [bool; 2],
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ended: Option<Ending>,
        /// A rematch offered by this seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rematch_offered_by: Option<Side>,
    },
    /// A decision was stored (sent to every follower, sealed for the other seat where it must be).
    Moved {
        game_id: String,
        mv: WireMove,
    },
    /// Sealed commitments revealed together with the decision that completed them (sent instead of
    /// that decision's `Moved`).
    Revealed {
        game_id: String,
        moves: Vec<WireMove>,
    },
    /// The asker's decision at `ply` is stored.
    Ack {
        game_id: String,
        ply: u32,
    },
    /// A seat was taken, connected or left.
    Presence {
        game_id: String,
        joined: [bool; 2],
        online: [bool; 2],
    },
    Ended {
        game_id: String,
        ending: Ending,
    },
    RematchOffered {
        game_id: String,
        by: Side,
    },
    /// The rematch of `game_id` exists: this seat's place in it.
    RematchReady {
        game_id: String,
        new_game_id: String,
        seat: Side,
        token: String,
    },
    Games {
        games: Vec<GameSummary>,
    },
    /// Signed in; `key` is this device's new player key (kept like a seat token), after
    /// `Register` and `Login`.
    SignedIn {
        player: PlayerCard,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
    PasswordSet {},
    /// The lobby: every open challenge this player may accept or posted, and games being played.
    Lobby {
        challenges: Vec<Challenge>,
        live: Vec<LiveGame>,
    },
    /// A page of older open challenges, newest first; `more` when there may be older still.
    OlderChallenges {
        challenges: Vec<Challenge>,
        more: bool,
    },
    ChallengeAdded {
        challenge: Box<Challenge>,
    },
    /// Accepted, withdrawn or ended.
    ChallengeRemoved {
        game_id: String,
    },
    /// Still open, but newer ones pushed it out of the newest `LISTED_CHALLENGES`: it now belongs
    /// to the older pages.
    ChallengeAged {
        game_id: String,
    },
    LiveGames {
        live: Vec<LiveGame>,
    },
    /// The challenge or invite is withdrawn.
    Cancelled {
        game_id: String,
    },
    QuickPlayWaiting {
        game: GameKind,
    },
    /// Nobody came: a game against the computer at this level (`easy`, `medium`, `hard`) instead.
    QuickPlayOffer {
        game: GameKind,
        level: String,
    },
    Said {
        game_id: String,
        by: Side,
        phrase: Phrase,
    },
    /// Who plays a followed game, whether it is rated, and how many watch (sent with `State` and
    /// whenever it changes).
    Players {
        game_id: String,
        names: [Option<String>; 2],
        rated: bool,
        watchers: u32,
    },
    /// A rated game ended: each seat's rating before and after.
    Rated {
        game_id: String,
        changes: Vec<RatingChange>,
    },
    Page {
        page: PlayerPage,
    },
    /// A timed game's clocks (after `State`, after every decision, and when a seat connects or
    /// leaves): each seat's time left when the message was sent.
    Clock {
        game_id: String,
        clock: ClockView,
    },
    /// The signed-in player's vacation: under way until `until_ms` or not, and the allowance
    /// left this year (sent after signing in and after `Vacation`).
    Vacation {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        until_ms: Option<i64>,
        left_ms: i64,
    },
    /// The player's address for the daily digest now (`None`: no mails), and whether it is
    /// confirmed (a new one waits for the player to confirm it from the mail sent to it).
    EmailSet {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        address: Option<String>,
        #[serde(default)]
        confirmed: bool,
    },
    Leaders {
        game: GameKind,
        leaders: Vec<Leader>,
    },
    Pong,
    Error {
        code: ErrorCode,
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game_id: Option<String>,
        /// The game's next ply, with `StalePly`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_ply: Option<u32>,
    },
}

/// How a server message is read: one flat record of every variant's fields, then the variant its
/// `type` names. It reads exactly what the tagged form `ServerMessage` is written in; serde's own
/// reader for an internally tagged enum buffers each message and has a reader per variant, which
/// made it the largest function of the browser's game module (40 kB).
#[derive(Deserialize)]
struct ServerWire {
    #[serde(rename = "type")]
    kind: String,
    version: Option<u32>,
    game_id: Option<String>,
    seat: Option<Side>,
    token: Option<String>,
    /// An invite code (`created`) or an error's code (`error`): both are strings.
    code: Option<String>,
    game: Option<GameKind>,
    options: Option<Vec<(String, String)>>,
    from: Option<u32>,
    moves: Option<Vec<WireMove>>,
    joined: Option<[bool; 2]>,
    online: Option<[bool; 2]>,
    ended: Option<Ending>,
    rematch_offered_by: Option<Side>,
    mv: Option<WireMove>,
    ply: Option<u32>,
    ending: Option<Ending>,
    by: Option<Side>,
    new_game_id: Option<String>,
    games: Option<Vec<GameSummary>>,
    message: Option<String>,
    next_ply: Option<u32>,
    player: Option<PlayerCard>,
    key: Option<String>,
    challenges: Option<Vec<Challenge>>,
    live: Option<Vec<LiveGame>>,
    challenge: Option<Box<Challenge>>,
    level: Option<String>,
    phrase: Option<Phrase>,
    names: Option<[Option<String>; 2]>,
    rated: Option<bool>,
    watchers: Option<u32>,
    changes: Option<Vec<RatingChange>>,
    page: Option<PlayerPage>,
    leaders: Option<Vec<Leader>>,
    clock: Option<ClockView>,
    until_ms: Option<i64>,
    left_ms: Option<i64>,
    address: Option<String>,
    confirmed: Option<bool>,
    more: Option<bool>,
}

impl TryFrom<ServerWire> for ServerMessage {
    type Error = String;

    fn try_from(w: ServerWire) -> Result<ServerMessage, String> {
        fn need<T>(field: Option<T>, name: &str) -> Result<T, String> {
            field.ok_or_else(|| format!("missing field `{name}`"))
        }
        use ServerMessage as M;
        let game_id = || need(w.game_id.clone(), "game_id");
        Ok(match w.kind.as_str() {
            "welcome" => M::Welcome { version: need(w.version, "version")? },
            "created" => M::Created {
                game_id: game_id()?,
                seat: need(w.seat, "seat")?,
                token: need(w.token, "token")?,
                code: need(w.code, "code")?,
            },
            "joined" => M::Joined { game_id: game_id()?, seat: need(w.seat, "seat")?, token: need(w.token, "token")? },
            "state" => M::State {
                game_id: game_id()?,
                game: need(w.game, "game")?,
                options: need(w.options, "options")?,
                seat: w.seat,
                from: need(w.from, "from")?,
                moves: need(w.moves, "moves")?,
                joined: need(w.joined, "joined")?,
                online: need(w.online, "online")?,
                ended: w.ended,
                rematch_offered_by: w.rematch_offered_by,
            },
            "moved" => M::Moved { game_id: game_id()?, mv: need(w.mv, "mv")? },
            "revealed" => M::Revealed { game_id: game_id()?, moves: need(w.moves, "moves")? },
            "ack" => M::Ack { game_id: game_id()?, ply: need(w.ply, "ply")? },
            "presence" => M::Presence {
                game_id: game_id()?,
                joined: need(w.joined, "joined")?,
                online: need(w.online, "online")?,
            },
            "ended" => M::Ended { game_id: game_id()?, ending: need(w.ending, "ending")? },
            "rematch_offered" => M::RematchOffered { game_id: game_id()?, by: need(w.by, "by")? },
            "rematch_ready" => M::RematchReady {
                game_id: game_id()?,
                new_game_id: need(w.new_game_id, "new_game_id")?,
                seat: need(w.seat, "seat")?,
                token: need(w.token, "token")?,
            },
            "games" => M::Games { games: need(w.games, "games")? },
            "signed_in" => M::SignedIn { player: need(w.player, "player")?, key: w.key },
            "password_set" => M::PasswordSet {},
            "lobby" => M::Lobby { challenges: need(w.challenges, "challenges")?, live: need(w.live, "live")? },
            "older_challenges" => {
                M::OlderChallenges { challenges: need(w.challenges, "challenges")?, more: need(w.more, "more")? }
            }
            "challenge_added" => M::ChallengeAdded { challenge: need(w.challenge, "challenge")? },
            "challenge_removed" => M::ChallengeRemoved { game_id: game_id()? },
            "challenge_aged" => M::ChallengeAged { game_id: game_id()? },
            "live_games" => M::LiveGames { live: need(w.live, "live")? },
            "cancelled" => M::Cancelled { game_id: game_id()? },
            "quick_play_waiting" => M::QuickPlayWaiting { game: need(w.game, "game")? },
            "quick_play_offer" => M::QuickPlayOffer { game: need(w.game, "game")?, level: need(w.level, "level")? },
            "said" => M::Said { game_id: game_id()?, by: need(w.by, "by")?, phrase: need(w.phrase, "phrase")? },
            "players" => M::Players {
                game_id: game_id()?,
                names: need(w.names, "names")?,
                rated: need(w.rated, "rated")?,
                watchers: need(w.watchers, "watchers")?,
            },
            "rated" => M::Rated { game_id: game_id()?, changes: need(w.changes, "changes")? },
            "page" => M::Page { page: need(w.page, "page")? },
            "clock" => M::Clock { game_id: game_id()?, clock: need(w.clock, "clock")? },
            "vacation" => M::Vacation { until_ms: w.until_ms, left_ms: need(w.left_ms, "left_ms")? },
            "email_set" => M::EmailSet { address: w.address, confirmed: w.confirmed.unwrap_or(false) },
            "leaders" => M::Leaders { game: need(w.game, "game")?, leaders: need(w.leaders, "leaders")? },
            "pong" => M::Pong,
            "error" => {
                use serde::de::IntoDeserializer;
                let code = need(w.code, "code")?;
                let code = ErrorCode::deserialize(code.as_str().into_deserializer())
                    .map_err(|e: serde::de::value::Error| e.to_string())?;
                M::Error { code, message: need(w.message, "message")?, game_id: w.game_id, next_ply: w.next_ply }
            }
            other => return Err(format!("unknown message type `{other}`")),
        })
    }
}

impl ServerMessage {
    /// An error about no game in particular.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error { code, message: message.into(), game_id: None, next_ply: None }
    }

    /// An error about `game_id`.
    pub fn game_error(code: ErrorCode, game_id: &str, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error { code, message: message.into(), game_id: Some(game_id.to_string()), next_ply: None }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages serialise")
    }
}

impl ClientMessage {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("client messages serialise")
    }

    /// Reads one client message, refusing oversized text before parsing it.
    pub fn parse(text: &str) -> Result<ClientMessage, String> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(format!("message of {} bytes; the limit is {MAX_MESSAGE_BYTES}", text.len()));
        }
        serde_json::from_str(text).map_err(|e| format!("not a Stoneyard message: {e}"))
    }
}

/// Reads one server message.
pub fn parse_server(text: &str) -> Result<ServerMessage, String> {
    serde_json::from_str(text).map_err(|e| format!("not a Stoneyard server message: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::directory::{Rating, RatingPoint, RecentGame};

    #[test]
    fn client_messages_round_trip_through_json_with_a_type_tag() {
        let m = ClientMessage::Move { game_id: "g1".into(), token: "t".into(), ply: 3, decision: "d4".into() };
        let text = m.to_json();
        assert!(text.contains(r#""type":"move""#), "{text}");
        assert_eq!(ClientMessage::parse(&text).unwrap(), m);
        let create =
            ClientMessage::parse(r#"{"type":"create","game":"gravel","options":[["size","9"]],"seat":"random"}"#)
                .unwrap();
        assert_eq!(
            create,
            ClientMessage::Create {
                game: GameKind::named("gravel"),
                options: vec![("size".into(), "9".into())],
                seat: SeatChoice::Random
            }
        );
    }

    #[test]
    fn every_client_message_reads_back_as_written() {
        let gravel = GameKind::named("gravel");
        let g = || "g1".to_string();
        let t = || "t".to_string();
        let all = [
            ClientMessage::Create { game: gravel, options: vec![("size".into(), "9".into())], seat: SeatChoice::First },
            ClientMessage::Join { code: "ABCD-EFGH".into() },
            ClientMessage::Open { game_id: g(), token: Some(t()), have: 3 },
            ClientMessage::Open { game_id: g(), token: None, have: 0 },
            ClientMessage::Close { game_id: g() },
            ClientMessage::Move { game_id: g(), token: t(), ply: 2, decision: "A:N;A:d4".into() },
            ClientMessage::Resign { game_id: g(), token: t() },
            ClientMessage::Rematch { game_id: g(), token: t() },
            ClientMessage::List { tokens: vec![t(), "u".into()] },
            ClientMessage::Ping {},
            ClientMessage::Register { name: "Ada".into() },
            ClientMessage::SignIn { key: "k".into() },
            ClientMessage::Login { name: "Ada".into(), password: "correct horse".into() },
            ClientMessage::SetPassword { password: "correct horse".into() },
            ClientMessage::Challenge {
                game: GameKind::named("throngs"),
                options: vec![],
                seat: SeatChoice::Second,
                rated: true,
                time_control: Some(TimeControl::Live { base_seconds: 180, increment_seconds: 2 }),
                to: Some("Bea".into()),
            },
            ClientMessage::Challenge {
                game: gravel,
                options: vec![],
                seat: SeatChoice::Random,
                rated: false,
                time_control: Some(TimeControl::Correspondence { days_per_move: 3 }),
                to: None,
            },
            ClientMessage::Challenge {
                game: gravel,
                options: vec![],
                seat: SeatChoice::Random,
                rated: false,
                time_control: None,
                to: None,
            },
            ClientMessage::Accept { game_id: g() },
            ClientMessage::Cancel { game_id: g(), token: t() },
            ClientMessage::WatchLobby {},
            ClientMessage::LeaveLobby {},
            ClientMessage::OlderChallenges { before_ms: 1_700_000_000_000, before_id: g() },
            ClientMessage::QuickPlay { game: GameKind::named("hidden-intention") },
            ClientMessage::StopQuickPlay {},
            ClientMessage::Say { game_id: g(), token: t(), phrase: Phrase::TakeYourTime },
            ClientMessage::PlayerPage { name: "Ada".into() },
            ClientMessage::Leaderboard { game: GameKind::named("inchworm") },
            ClientMessage::MyGames {},
            ClientMessage::Claim { game_id: g(), token: t() },
            ClientMessage::Vacation { on: true },
            ClientMessage::SetEmail { address: "ada@example.org".into() },
        ];
        for m in all {
            let text = m.to_json();
            assert_eq!(ClientMessage::parse(&text), Ok(m), "{text}");
        }
        // The optional fields of a challenge may be left out; unknown fields are refused.
        let short = r#"{"type":"challenge","game":"gravel","options":[],"seat":"first","rated":false}"#;
        assert!(matches!(
            ClientMessage::parse(short),
            Ok(ClientMessage::Challenge { time_control: None, to: None, .. })
        ));
        assert!(ClientMessage::parse(r#"{"type":"watch_lobby","all":true}"#).is_err());
        assert!(ClientMessage::parse(r#"{"type":"say","game_id":"g","token":"t","phrase":"insult"}"#).is_err());
    }

    #[test]
    fn unknown_types_fields_games_and_oversized_text_are_refused() {
        assert!(ClientMessage::parse(r#"{"type":"teleport"}"#).is_err());
        assert!(ClientMessage::parse(r#"{"type":"create","game":"chess","options":[],"seat":"first"}"#).is_err());
        assert!(ClientMessage::parse("{").is_err());
        assert_eq!(ClientMessage::parse(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping {}));
        assert!(ClientMessage::parse(r#"{"type":"ping","extra":1}"#).is_err(), "ping refuses unknown fields too");
        let big = format!(r#"{{"type":"join","code":"{}"}}"#, "x".repeat(MAX_MESSAGE_BYTES));
        assert!(ClientMessage::parse(&big).unwrap_err().contains("limit"));
    }

    #[test]
    fn an_ending_says_what_ended_it_and_one_stored_before_that_is_read_from_its_words() {
        let stored = |reason: &str| {
            serde_json::from_str::<Ending>(&format!(r#"{{"result":"draw","reason":"{reason}"}}"#)).unwrap().kind()
        };
        assert_eq!(stored("White resigned"), EndKind::Resignation);
        assert_eq!(stored("Black ran out of time; White claimed the game"), EndKind::Time);
        assert_eq!(stored("Light left the game; Dark claimed it"), EndKind::Time);
        assert_eq!(stored("Black has no stones left"), EndKind::Rules);
        // A reason that reads like a resignation does not overrule what the server said.
        let said = Ending { result: serde_json::json!("draw"), reason: "resigned".into(), how: Some(EndKind::Rules) };
        assert_eq!(said.kind(), EndKind::Rules);
        let text = serde_json::to_string(&said).unwrap();
        assert!(text.contains(r#""how":"rules""#), "{text}");
    }

    #[test]
    fn every_server_message_reads_back_as_written() {
        let side = Side::Second;
        let mv = WireMove { ply: 4, by: side, decision: Some("c3".into()) };
        let ending = Ending {
            result: serde_json::json!({ "winner": "B" }),
            reason: "B resigned".into(),
            how: Some(EndKind::Resignation),
        };
        let summary = GameSummary {
            game_id: "g".into(),
            token: "t".into(),
            game: GameKind::named("gravel"),
            options: vec![("size".into(), "9".into())],
            seat: side,
            code: Some("ABCD-EFGH".into()),
            opponent_joined: false,
            plies: 3,
            your_turn: true,
            ended: None,
        };
        let g = || "g1".to_string();
        let gravel = GameKind::named("gravel");
        let rating = Rating { game: gravel, rating: 1662.3125, deviation: 290.5, games: 1 };
        let card = PlayerCard {
            name: "Ada".into(),
            ratings: vec![rating.clone()],
            has_password: true,
            vacation_until_ms: Some(1_800_000_000_000),
            vacation_left_ms: 86_400_000,
            email: Some("ada@example.org".into()),
            email_confirmed: true,
        };
        let challenge = Challenge {
            game_id: g(),
            game: gravel,
            options: vec![("size".into(), "9".into())],
            by: "Ada".into(),
            rating: 1500.0,
            deviation: 350.0,
            seat: Side::Second,
            rated: true,
            time_control: None,
            to: None,
            posted_ms: 1_700_000_000_000,
        };
        let direct = Challenge {
            game_id: "g2".into(),
            time_control: Some(TimeControl::Correspondence { days_per_move: 1 }),
            to: Some("Bea".into()),
            rated: false,
            ..challenge.clone()
        };
        let live = LiveGame {
            game_id: g(),
            game: GameKind::named("red-stone"),
            options: vec![],
            names: ["Ada".into(), "Bea".into()],
            rated: true,
            plies: 12,
        };
        let change = RatingChange {
            name: "Ada".into(),
            before: 1_337.689_106_093_739_8,
            after: 1_662.310_893_906_260_2,
            deviation: 290.318_965_346_024_3,
        };
        let page = PlayerPage {
            name: "Ada".into(),
            ratings: vec![rating],
            history: vec![RatingPoint { game: gravel, at_ms: 5, rating: 1662.3125, deviation: 290.5 }],
            recent: vec![
                RecentGame {
                    game_id: g(),
                    game: gravel,
                    options: vec![],
                    seat: Side::First,
                    opponent: Some("Bea".into()),
                    outcome: "won".into(),
                    reason: "B resigned".into(),
                    rated: true,
                    change: Some(162.3125),
                    ended_ms: 6,
                },
                RecentGame {
                    game_id: "g2".into(),
                    game: gravel,
                    options: vec![],
                    seat: Side::Second,
                    opponent: None,
                    outcome: "drawn".into(),
                    reason: "no moves".into(),
                    rated: false,
                    change: None,
                    ended_ms: 7,
                },
            ],
            joined_ms: 1,
        };
        let all = [
            ServerMessage::Welcome { version: PROTOCOL_VERSION },
            ServerMessage::Created { game_id: g(), seat: side, token: "t".into(), code: "ABCD-EFGH".into() },
            ServerMessage::Joined { game_id: g(), seat: side, token: "t".into() },
            ServerMessage::State {
                game_id: g(),
                game: GameKind::named("red-stone"),
                options: vec![],
                seat: None,
                from: 2,
                moves: vec![mv.clone(), WireMove { ply: 5, by: Side::First, decision: None }],
                joined: [true, false],
                online: [false, true],
                ended: Some(ending.clone()),
                rematch_offered_by: Some(side),
            },
            ServerMessage::State {
                game_id: g(),
                game: GameKind::named("throngs"),
                options: vec![("board".into(), "R153".into())],
                seat: Some(side),
                from: 0,
                moves: vec![],
                joined: [true, true],
                online: [true, true],
                ended: None,
                rematch_offered_by: None,
            },
            ServerMessage::Moved { game_id: g(), mv: mv.clone() },
            ServerMessage::Revealed { game_id: g(), moves: vec![mv] },
            ServerMessage::Ack { game_id: g(), ply: 7 },
            ServerMessage::Presence { game_id: g(), joined: [true, true], online: [true, false] },
            ServerMessage::Ended { game_id: g(), ending },
            ServerMessage::RematchOffered { game_id: g(), by: side },
            ServerMessage::RematchReady { game_id: g(), new_game_id: "g2".into(), seat: side, token: "u".into() },
            ServerMessage::Games { games: vec![summary] },
            ServerMessage::SignedIn { player: card.clone(), key: Some("k".into()) },
            ServerMessage::SignedIn {
                player: PlayerCard {
                    ratings: vec![],
                    has_password: false,
                    vacation_until_ms: None,
                    email: None,
                    email_confirmed: false,
                    ..card
                },
                key: None,
            },
            ServerMessage::PasswordSet {},
            ServerMessage::Lobby { challenges: vec![challenge.clone(), direct.clone()], live: vec![live.clone()] },
            ServerMessage::Lobby { challenges: vec![], live: vec![] },
            ServerMessage::OlderChallenges { challenges: vec![challenge.clone()], more: true },
            ServerMessage::OlderChallenges { challenges: vec![], more: false },
            ServerMessage::ChallengeAdded { challenge: Box::new(direct) },
            ServerMessage::ChallengeAdded { challenge: Box::new(challenge) },
            ServerMessage::ChallengeRemoved { game_id: g() },
            ServerMessage::ChallengeAged { game_id: g() },
            ServerMessage::LiveGames { live: vec![live] },
            ServerMessage::Cancelled { game_id: g() },
            ServerMessage::QuickPlayWaiting { game: GameKind::named("inchworm") },
            ServerMessage::QuickPlayOffer { game: GameKind::named("inchworm"), level: "medium".into() },
            ServerMessage::Said { game_id: g(), by: Side::First, phrase: Phrase::GoodGame },
            ServerMessage::Players { game_id: g(), names: [Some("Ada".into()), None], rated: false, watchers: 0 },
            ServerMessage::Players {
                game_id: g(),
                names: [Some("Ada".into()), Some("Bea".into())],
                rated: true,
                watchers: 1000,
            },
            ServerMessage::Rated { game_id: g(), changes: vec![change.clone(), change] },
            ServerMessage::Page { page },
            ServerMessage::Leaders {
                game: GameKind::named("gravel"),
                leaders: vec![Leader { name: "Ada".into(), rating: 1662.5, deviation: 290.25, games: 1 }],
            },
            ServerMessage::Leaders { game: GameKind::named("throngs"), leaders: vec![] },
            ServerMessage::Clock {
                game_id: g(),
                clock: ClockView {
                    control: TimeControl::Live { base_seconds: 180, increment_seconds: 2 },
                    left_ms: [171_250, 3],
                    running: [false, true],
                    paused: [false, false],
                    claimable_in_ms: [None, Some(12_000)],
                },
            },
            ServerMessage::Vacation { until_ms: Some(1_800_000_000_000), left_ms: 86_400_000 },
            ServerMessage::Vacation { until_ms: None, left_ms: 0 },
            ServerMessage::EmailSet { address: Some("ada@example.org".into()), confirmed: true },
            ServerMessage::EmailSet { address: None, confirmed: false },
            ServerMessage::Pong,
            ServerMessage::error(ErrorCode::RateLimited, "slow down"),
            ServerMessage::Error {
                code: ErrorCode::StalePly,
                message: "m".into(),
                game_id: Some(g()),
                next_ply: Some(9),
            },
        ];
        let mut all = all.to_vec();
        let codes = [
            ErrorCode::BadMessage,
            ErrorCode::BadGame,
            ErrorCode::NoSuchGame,
            ErrorCode::NoSuchCode,
            ErrorCode::GameFull,
            ErrorCode::BadToken,
            ErrorCode::NotYourTurn,
            ErrorCode::StalePly,
            ErrorCode::Illegal,
            ErrorCode::GameOver,
            ErrorCode::RateLimited,
            ErrorCode::Unavailable,
            ErrorCode::Taken,
            ErrorCode::BadName,
            ErrorCode::NameTaken,
            ErrorCode::NotSignedIn,
            ErrorCode::BadPassword,
            ErrorCode::NoSuchPlayer,
        ];
        all.extend(codes.map(|code| ServerMessage::game_error(code, "g1", "why")));
        for m in all {
            let text = m.to_json();
            assert_eq!(parse_server(&text), Ok(m), "{text}");
        }
    }

    #[test]
    fn a_server_message_missing_a_field_or_of_an_unknown_type_is_refused() {
        let missing = parse_server(r#"{"type":"ack","game_id":"g"}"#).unwrap_err();
        assert!(missing.contains("missing field `ply`"), "{missing}");
        let unknown = parse_server(r#"{"type":"teleport"}"#).unwrap_err();
        assert!(unknown.contains("unknown message type `teleport`"), "{unknown}");
        let code = parse_server(r#"{"type":"error","code":"no_such_thing","message":"m"}"#).unwrap_err();
        assert!(code.contains("no_such_thing"), "{code}");
        assert!(parse_server(r#"{"type":"ack","game_id":"g","ply":"seven"}"#).is_err());
    }

    #[test]
    fn a_sealed_move_carries_no_decision_field() {
        let sealed =
            ServerMessage::Moved { game_id: "g".into(), mv: WireMove { ply: 2, by: Side::First, decision: None } };
        let text = sealed.to_json();
        assert!(!text.contains("decision"), "{text}");
        assert_eq!(parse_server(&text).unwrap(), sealed);
    }
}
