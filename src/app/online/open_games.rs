//! What the lobby shows from the server: the open challenges and the games being played (followed
//! live while the online screen is open), quick play's wait and its offer of the computer, and
//! the player page or leaderboard last asked for.

use super::player::{OnlinePlayer, SignedIn};
use super::socket::Connection;
use super::{FromServer, SocketOpened, ToServer};
use crate::app::AppSystems;
use crate::app::screen::Screen;
use crate::games::GameKind;
use crate::online::directory::{Challenge, LISTED_CHALLENGES, Leader, LiveGame, PlayerPage};
use crate::online::protocol::{ClientMessage, ErrorCode, ServerMessage};
use bevy::prelude::*;

/// Quick play's state.
#[derive(Debug, Default, Clone, PartialEq)]
pub enum QuickPlayState {
    #[default]
    Idle,
    /// Asked; the server looks for an opponent.
    Waiting(GameKind),
    /// Nobody came: the server offers the computer at this level.
    Offered { game: GameKind, level: String },
}

/// The lobby as the server last told it.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct OpenGames {
    /// The newest open challenges, followed as they change.
    pub challenges: Vec<Challenge>,
    /// Older ones, as far as asked for (as they were then: taking one already taken says so).
    pub older: Vec<Challenge>,
    /// Whether older challenges may remain beyond those shown.
    pub more_older: bool,
    pub live: Vec<LiveGame>,
    /// The server sends this connection the lobby's changes.
    pub following: bool,
    /// The lobby has arrived at least once on this connection.
    pub heard: bool,
    pub quick: QuickPlayState,
    pub page: Option<PlayerPage>,
    pub leaders: Option<(GameKind, Vec<Leader>)>,
    /// A refused accept ("already taken"), a missing player.
    pub problem: Option<String>,
}

impl OpenGames {
    /// Every challenge shown, newest first: the followed ones, then the older pages.
    pub fn shown_challenges(&self) -> impl Iterator<Item = &Challenge> {
        self.challenges.iter().chain(&self.older)
    }

    /// Whether the screen offers older challenges: the followed list is full (the server lists
    /// only `LISTED_CHALLENGES`), and the older pages asked for so far did not reach the end.
    pub fn may_have_older(&self) -> bool {
        self.challenges.len() as i64 >= LISTED_CHALLENGES && (self.older.is_empty() || self.more_older)
    }

    /// The request for the page after the oldest challenge shown.
    pub fn ask_older(&self) -> Option<ClientMessage> {
        let last = self.shown_challenges().last()?;
        Some(ClientMessage::OlderChallenges { before_ms: last.posted_ms, before_id: last.game_id.clone() })
    }

    /// Newer challenges pushed `game_id` out of the followed list: it stays in view, heading the
    /// older ones (it is the newest of them; an in-flight page asked for after it fills in behind).
    fn age(&mut self, game_id: &str) {
        let Some(at) = self.challenges.iter().position(|c| c.game_id == game_id) else { return };
        if self.older.is_empty() {
            // No page asked for yet: older ones may follow it.
            self.more_older = true;
        }
        let aged = self.challenges.remove(at);
        // In the lobby's order: newest first, then by id.
        let place = |c: &Challenge| (std::cmp::Reverse(c.posted_ms), c.game_id.clone());
        let at = self.older.partition_point(|o| place(o) < place(&aged));
        self.older.insert(at, aged);
    }

    fn forget(&mut self, game_id: &str) {
        self.challenges.retain(|c| c.game_id != game_id);
        self.older.retain(|c| c.game_id != game_id);
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<OpenGames>();
    app.add_systems(
        Update,
        (hear_server, follow_the_lobby).chain().in_set(AppSystems::Menus).after(super::player::PlayerSystems),
    );
}

/// Follows the lobby while the online screen is open on an open connection (again after a
/// reconnection or a sign-in, whose view differs by the direct challenges).
fn follow_the_lobby(
    screen: Res<State<Screen>>,
    connection: Res<Connection>,
    player: Res<OnlinePlayer>,
    mut opened: MessageReader<SocketOpened>,
    mut signed: MessageReader<SignedIn>,
    mut games: ResMut<OpenGames>,
    mut out: MessageWriter<ToServer>,
) {
    if opened.read().count() > 0 || signed.read().count() > 0 {
        games.following = false;
    }
    let wanted = *screen.get() == Screen::Online && connection.is_open() && !player.asking;
    if wanted && !games.following {
        out.write(ToServer(ClientMessage::WatchLobby {}));
        games.following = true;
    } else if !wanted && games.following {
        if connection.is_open() {
            out.write(ToServer(ClientMessage::LeaveLobby {}));
        }
        games.following = false;
    }
}

fn hear_server(mut heard: MessageReader<FromServer>, mut games: ResMut<OpenGames>) {
    for FromServer(message) in heard.read() {
        match message {
            ServerMessage::Lobby { challenges, live } => {
                games.challenges = challenges.clone();
                games.older.clear();
                games.live = live.clone();
                games.heard = true;
            }
            ServerMessage::OlderChallenges { challenges, more } => {
                let page: Vec<Challenge> = challenges
                    .iter()
                    .filter(|c| !games.shown_challenges().any(|s| s.game_id == c.game_id))
                    .cloned()
                    .collect();
                games.older.extend(page);
                games.more_older = *more;
            }
            ServerMessage::ChallengeAdded { challenge } => {
                games.forget(&challenge.game_id);
                games.challenges.push((**challenge).clone());
                // Newest first, as the server lists them.
                games.challenges.sort_by_key(|c| std::cmp::Reverse(c.posted_ms));
            }
            ServerMessage::ChallengeRemoved { game_id } => games.forget(game_id),
            ServerMessage::ChallengeAged { game_id } => games.age(game_id),
            ServerMessage::LiveGames { live } => games.live = live.clone(),
            ServerMessage::QuickPlayWaiting { game } => games.quick = QuickPlayState::Waiting(*game),
            ServerMessage::QuickPlayOffer { game, level } => {
                games.quick = QuickPlayState::Offered { game: *game, level: level.clone() };
            }
            ServerMessage::Joined { .. } => games.quick = QuickPlayState::Idle,
            ServerMessage::Page { page } => games.page = Some(page.clone()),
            ServerMessage::Leaders { game, leaders } => games.leaders = Some((*game, leaders.clone())),
            ServerMessage::Error { code: ErrorCode::Taken | ErrorCode::NoSuchPlayer, message, game_id, .. } => {
                // An older challenge is shown as it was when asked for: one taken since goes.
                if let Some(game_id) = game_id {
                    games.older.retain(|c| c.game_id != *game_id);
                }
                games.problem = Some(message.clone());
            }
            _ => {}
        }
    }
}
