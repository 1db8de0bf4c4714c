//! The "Play online" screen's state: what it shows (the lobby, a player's page, a leaderboard),
//! the rows in their order, what has been asked of the server, and the words and links its rows
//! are made of. The input (`lobby`) changes it; the view (`lobby_view`, `people_view`) reads it.

use super::open_games::{OpenGames, QuickPlayState};
use super::player::OnlinePlayer;
use super::socket::{Connection, LinkState};
use crate::app::menus::SetupChoice;
use crate::games::GameKind;
use crate::online::protocol::{GameSummary, SeatChoice};
use bevy::prelude::*;

/// The lobby's systems, before the followed game's (a game chosen here is followed the same frame).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct LobbySystems;

/// A game just created, shown with its invite code until the opponent comes (a posted challenge:
/// with its place in the open list instead).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invite {
    pub game_id: String,
    pub token: String,
    pub code: String,
    pub challenge: bool,
}

/// What the online screen shows and what has been asked of the server.
#[derive(Resource, Debug, Clone)]
pub struct OnlineLobby {
    pub view: OnlineView,
    /// The game to create or post and its options (the setup screen's choice; its players are unused).
    pub create: SetupChoice,
    pub seat: SeatChoice,
    /// A posted challenge is rated.
    pub rated: bool,
    /// A posted challenge's time control: 0 untimed, else `clock::CHOICES[time - 1]`.
    pub time: usize,
    /// A posted challenge is for this player only (empty: anyone).
    pub challenge_to: String,
    /// The game quick play looks for.
    pub quick_game: GameKind,
    /// The name being chosen, and a sign-in's name and password, and a new password.
    pub name_text: String,
    pub login_name: String,
    pub login_password: String,
    pub password_text: String,
    /// The address typed for the daily digest (filled from the player's card once signed in).
    pub email_text: Option<String>,
    /// The invite code being typed.
    pub join_code: String,
    /// The server address being typed (native).
    pub server_text: Option<String>,
    pub invite: Option<Invite>,
    /// The invite just came: scroll it into view once.
    pub show_invite: bool,
    /// The server's summaries of the kept seats' games, and whether they answered the last list.
    pub summaries: Vec<GameSummary>,
    pub listed: bool,
    /// The game a create request is for, while it is on its way, and whether it is a challenge.
    pub creating: Option<GameKind>,
    pub posting: bool,
    pub joining: bool,
    /// The last refusal or problem.
    pub message: Option<String>,
    /// The rows as the screen shows them now (what keys and clicks move over).
    pub shown_rows: Vec<LobbyRow>,
}

impl Default for OnlineLobby {
    fn default() -> Self {
        // Posting a game offers every option, its variants too.
        let mut create = SetupChoice { more: true, ..SetupChoice::default() };
        create.select(create.kind, &[]);
        OnlineLobby {
            view: OnlineView::Lobby,
            quick_game: create.kind,
            create,
            seat: SeatChoice::Random,
            rated: true,
            time: 0,
            challenge_to: String::new(),
            name_text: String::new(),
            login_name: String::new(),
            login_password: String::new(),
            password_text: String::new(),
            email_text: None,
            join_code: String::new(),
            server_text: None,
            invite: None,
            show_invite: false,
            summaries: Vec::new(),
            listed: false,
            creating: None,
            posting: false,
            joining: false,
            message: None,
            shown_rows: Vec::new(),
        }
    }
}

impl OnlineLobby {
    /// The time control chosen for a challenge (`None`: untimed).
    pub fn time_control(&self) -> Option<crate::online::directory::TimeControl> {
        self.time.checked_sub(1).and_then(|i| crate::online::clock::CHOICES.get(i).copied())
    }
}

/// What the online screen shows: the lobby, a player's page, or a game's leaderboard.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum OnlineView {
    #[default]
    Lobby,
    Player(String),
    Leaders(GameKind),
}

/// One focusable row of the online screen, in the order they show (built each frame from what
/// there is: keys, pad and mouse move over the same list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LobbyRow {
    /// The name to choose (not signed in yet), and signing in by name and password instead.
    Name,
    LogIn,
    /// Signed in: one's own page, a password to add, ratings hidden or shown.
    MyPage,
    Password,
    HideRatings,
    /// Correspondence clocks stand still while the player is away.
    Vacation,
    /// A notification when a game waits for the player's move while the window is hidden.
    TurnNotices,
    /// An e-mail address for the server's daily digest of games waiting.
    Email,
    QuickGame,
    QuickPlay,
    /// Quick play found nobody: the computer instead.
    PlayComputer,
    Challenge(usize),
    /// Asks for the next page of older challenges.
    OlderChallenges,
    PostGame,
    PostOption(usize),
    PostSide,
    PostRated,
    PostTime,
    PostTo,
    Post,
    /// The same game as a private invite with a code.
    Invite,
    Live(usize),
    Mine(usize),
    Join,
    Leaders,
    /// On a player page or a leaderboard.
    Recent(usize),
    Leader(usize),
    LeadersGame,
    Back,
}

impl LobbyRow {
    /// The heading of the section the row starts or belongs to.
    pub fn section(self) -> &'static str {
        use LobbyRow::*;
        match self {
            Name | LogIn | MyPage => "You",
            Password | HideRatings | Vacation | TurnNotices | Email => "Your account",
            QuickGame | QuickPlay | PlayComputer => "Quick play",
            Challenge(_) | OlderChallenges => "Open challenges",
            PostGame | PostOption(_) | PostSide | PostRated | PostTime | PostTo | Post | Invite => "Post a challenge",
            Live(_) => "Games being played",
            Mine(_) => "My online games",
            Join => "Join with a code",
            Leaders | Back => "",
            Recent(_) => "Recent games",
            Leader(_) | LeadersGame => "Leaderboard",
        }
    }
}

/// The rows of the online screen as it shows now.
pub fn lobby_rows(lobby: &OnlineLobby, player: &OnlinePlayer, games: &OpenGames, kept: usize) -> Vec<LobbyRow> {
    use LobbyRow::*;
    let mut rows = Vec::new();
    match &lobby.view {
        OnlineView::Player(_) => {
            let recent = games.page.as_ref().map_or(0, |p| p.recent.len());
            rows.extend((0..recent).map(Recent));
            rows.push(Back);
            return rows;
        }
        OnlineView::Leaders(_) => {
            rows.push(LeadersGame);
            let leaders = games.leaders.as_ref().map_or(0, |(_, l)| l.len());
            rows.extend((0..leaders).map(Leader));
            rows.push(Back);
            return rows;
        }
        OnlineView::Lobby => {}
    }
    if player.signed_in() {
        rows.extend([MyPage, QuickGame, QuickPlay]);
        if matches!(games.quick, QuickPlayState::Offered { .. }) {
            rows.push(PlayComputer);
        }
    } else {
        rows.extend([Name, LogIn]);
    }
    rows.extend((0..games.shown_challenges().count()).map(Challenge));
    if games.may_have_older() {
        rows.push(OlderChallenges);
    }
    rows.extend((0..games.live.len()).map(Live));
    rows.extend((0..kept).map(Mine));
    // The long form last.
    rows.push(PostGame);
    rows.extend((0..lobby.create.specs.len()).map(PostOption));
    rows.push(PostSide);
    if player.signed_in() {
        rows.extend([PostRated, PostTime, PostTo, Post]);
    }
    rows.push(Invite);
    rows.push(Join);
    if player.signed_in() {
        rows.extend([Password, HideRatings, Vacation, TurnNotices, Email]);
    }
    rows.extend([Leaders, Back]);
    rows
}

/// Quick play found nobody and the player takes the computer at this level instead.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct PlayComputerInstead {
    pub game: GameKind,
    pub level: String,
}

/// The link that watches game `game_id`, read-only.
pub(super) fn watch_link(connection: &Connection, game_id: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(page) = web_sys::window().and_then(|w| w.location().href().ok()) {
        return super::address::watch_link_for_page(&page, game_id);
    }
    super::address::watch_link_for_server(&connection.url, game_id)
}

/// The link that opens this game for the invited player.
pub(super) fn invite_link(connection: &Connection, code: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(page) = web_sys::window().and_then(|w| w.location().href().ok()) {
        return super::address::invite_link_for_page(&page, code);
    }
    super::address::invite_link_for_server(&connection.url, code)
}

/// "Your turn", "Their turn", "Waiting for opponent to join", or how it ended.
pub(super) fn standing(summary: &GameSummary) -> String {
    if let Some(ending) = &summary.ended {
        let names = summary.game.open(&summary.options, None).ok();
        let winner = ending.result.get("winner").and_then(|w| w.as_str());
        let mine = names.map(|g| g.side_name(summary.seat));
        let result = match (winner, mine) {
            (Some(w), Some(m)) if w == m => "You won",
            (Some(_), _) => "You lost",
            (None, _) => "Draw",
        };
        return format!("{result} — {}", ending.reason);
    }
    if !summary.opponent_joined {
        return match &summary.code {
            Some(code) => format!("Waiting for opponent to join · code {code}"),
            None => "Waiting for opponent to join".to_string(),
        };
    }
    if summary.your_turn { "Your turn".to_string() } else { "Their turn".to_string() }
}

/// What the connection line says.
pub(super) fn connection_text(connection: &Connection) -> String {
    match connection.state {
        LinkState::Open => format!("Connected to {}", connection.url),
        LinkState::Connecting | LinkState::Closed => format!("Connecting to {}…", connection.url),
        LinkState::Waiting => match &connection.problem {
            Some(why) => format!("Cannot reach {} ({why}). Trying again…", connection.url),
            None => format!("Reconnecting to {}…", connection.url),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::protocol::{EndKind, Ending};
    use crate::rules::Side;

    fn summary() -> GameSummary {
        GameSummary {
            game_id: "g".into(),
            token: "t".into(),
            game: GameKind::named("red-stone"),
            options: vec![],
            seat: Side::First,
            code: Some("AB12".into()),
            opponent_joined: false,
            plies: 0,
            your_turn: false,
            ended: None,
        }
    }

    #[test]
    fn a_kept_game_says_whose_turn_it_is_or_how_it_ended() {
        let mut s = summary();
        assert_eq!(standing(&s), "Waiting for opponent to join · code AB12");
        s.opponent_joined = true;
        s.code = None;
        assert_eq!(standing(&s), "Their turn");
        s.your_turn = true;
        assert_eq!(standing(&s), "Your turn");
        let mine = GameKind::named("red-stone").open(&[], None).unwrap().side_name(Side::First);
        s.ended = Some(Ending {
            result: serde_json::json!({ "winner": mine }),
            reason: "B resigned".into(),
            how: Some(EndKind::Resignation),
        });
        assert_eq!(standing(&s), "You won — B resigned");
        s.ended =
            Some(Ending { result: serde_json::json!("draw"), reason: "no moves".into(), how: Some(EndKind::Rules) });
        assert_eq!(standing(&s), "Draw — no moves");
    }
}
