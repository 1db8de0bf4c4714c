//! The "Play online" screen's input: a name to choose (or a sign-in by password), quick play, the
//! open challenges to accept, a challenge to post (to anyone or to a named player, rated or
//! casual) or the same game as a private invite with a code, the games being played to watch, "My
//! online games", joining with a code, and the player pages and leaderboards; what each row asks
//! of the server, and what the server's answers change in the screen's state (`lobby_state`). In
//! the browser, a page opened with `?join=CODE` joins that game at once.

use super::address::tidy_code;
use super::lobby_state::{Invite, LobbyRow, LobbySystems, OnlineLobby, OnlineView, PlayComputerInstead, lobby_rows};
use super::open_games::{OpenGames, QuickPlayState};
use super::player::{OnlinePlayer, PlayerRequest};
use super::seats::KeptSeats;
use super::socket::Connection;
use super::{FollowGame, FromServer, SocketOpened, ToServer};
use crate::app::AppSystems;
use crate::app::input::ActionPressed;
use crate::app::screen::Screen;
use crate::app::settings::{CurrentSettings, SaveStore};
use crate::app::ui::{MenuClicked, MenuFocus, MenuInput, read_menu_inputs, reset_focus};
use crate::games::GameKind;
use crate::online::directory::name_key;
use crate::online::protocol::{ClientMessage, ErrorCode, SeatChoice, ServerMessage};
use crate::save::KeptSeat;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.init_resource::<OnlineLobby>();
    app.configure_sets(Update, LobbySystems.in_set(AppSystems::Menus).after(super::player::PlayerSystems));
    app.add_systems(Startup, join_from_page_address);
    app.add_systems(OnEnter(Screen::Online), (reset_focus, list_games, back_to_the_lobby));
    app.add_systems(
        Update,
        (hear_server, show_rows, lobby_input.run_if(in_state(Screen::Online))).chain().in_set(LobbySystems),
    );
}

/// The screen opens on the lobby.
fn back_to_the_lobby(mut lobby: ResMut<OnlineLobby>) {
    lobby.view = OnlineView::Lobby;
}

/// Keeps the list of rows the screen shows.
fn show_rows(
    mut lobby: ResMut<OnlineLobby>,
    player: Res<OnlinePlayer>,
    games: Res<OpenGames>,
    kept: Res<KeptSeats>,
    connection: Res<Connection>,
) {
    let rows = lobby_rows(&lobby, &player, &games, kept.on_server(&connection.url).count());
    if lobby.shown_rows != rows {
        lobby.shown_rows = rows;
    }
}

/// The tokens of the seats kept for this server.
fn list_request(kept: &KeptSeats, connection: &Connection) -> Option<ClientMessage> {
    let tokens: Vec<String> = kept.on_server(&connection.url).map(|s| s.token.clone()).collect();
    (!tokens.is_empty()).then_some(ClientMessage::List { tokens })
}

/// Asks how the kept games stand (when the screen opens on an open connection; otherwise when it opens).
fn list_games(
    kept: Res<KeptSeats>,
    connection: Res<Connection>,
    mut lobby: ResMut<OnlineLobby>,
    mut out: MessageWriter<ToServer>,
) {
    lobby.listed = false;
    if connection.is_open()
        && let Some(request) = list_request(&kept, &connection)
    {
        out.write(ToServer(request));
    }
}

fn now_unix() -> u64 {
    web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Keeps the seats the server gives (before showing them) and lists the games' state.
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn hear_server(
    mut heard: MessageReader<FromServer>,
    mut opened: MessageReader<SocketOpened>,
    mut lobby: ResMut<OnlineLobby>,
    (mut kept, mut store): (ResMut<KeptSeats>, ResMut<SaveStore>),
    connection: Res<Connection>,
    screen: Res<State<Screen>>,
    mut follow: MessageWriter<FollowGame>,
    mut out: MessageWriter<ToServer>,
) {
    let on_screen = *screen.get() == Screen::Online;
    if opened.read().count() > 0 && on_screen {
        lobby.listed = false;
        out.write_batch(list_request(&kept, &connection).map(ToServer));
    }
    for FromServer(message) in heard.read() {
        match message {
            ServerMessage::Created { game_id, seat, token, code } => {
                let game = lobby.creating.take().or(Some(lobby.create.kind));
                let kept_seat = KeptSeat {
                    game_id: game_id.clone(),
                    token: token.clone(),
                    game,
                    seat: *seat,
                    server: connection.url.clone(),
                    created_unix: now_unix(),
                    code: Some(code.clone()),
                };
                kept.keep(&mut store, kept_seat);
                let challenge = std::mem::take(&mut lobby.posting);
                lobby.invite =
                    Some(Invite { game_id: game_id.clone(), token: token.clone(), code: code.clone(), challenge });
                lobby.show_invite = true;
                follow.write(FollowGame { game_id: game_id.clone(), token: Some(token.clone()), open_board: false });
                out.write_batch(list_request(&kept, &connection).map(ToServer));
            }
            ServerMessage::Joined { game_id, seat, token } => {
                lobby.joining = false;
                let kept_seat = KeptSeat {
                    game_id: game_id.clone(),
                    token: token.clone(),
                    game: None,
                    seat: *seat,
                    server: connection.url.clone(),
                    created_unix: now_unix(),
                    code: None,
                };
                kept.keep(&mut store, kept_seat);
                lobby.join_code.clear();
                follow.write(FollowGame { game_id: game_id.clone(), token: Some(token.clone()), open_board: true });
            }
            ServerMessage::Games { games } => {
                // The invite card goes once its game has its opponent (or has ended).
                let invite_done = lobby.invite.as_ref().is_some_and(|invite| {
                    games.iter().any(|g| g.game_id == invite.game_id && (g.opponent_joined || g.ended.is_some()))
                });
                if invite_done {
                    lobby.invite = None;
                }
                lobby.summaries = games.clone();
                lobby.listed = true;
            }
            ServerMessage::Cancelled { game_id } => {
                if lobby.invite.as_ref().is_some_and(|i| i.game_id == *game_id) {
                    lobby.invite = None;
                }
                if let Some(k) = kept.find(game_id).cloned() {
                    kept.forget(&mut store, &k);
                }
            }
            ServerMessage::Error { code, message, game_id, .. }
                if (game_id.is_none() || on_screen) && !is_players_refusal(*code) =>
            {
                lobby.creating = None;
                lobby.posting = false;
                lobby.joining = false;
                lobby.message = Some(message.clone());
            }
            _ => {}
        }
    }
}

/// The next or previous of the five games.
fn step_game(kind: GameKind, delta: i32) -> GameKind {
    let all: Vec<GameKind> = GameKind::all().collect();
    let at = all.iter().position(|k| *k == kind).unwrap_or(0) as i32;
    all[(at + delta).rem_euclid(all.len() as i32) as usize]
}

fn step_seat(seat: SeatChoice, delta: i32) -> SeatChoice {
    const ALL: [SeatChoice; 3] = [SeatChoice::First, SeatChoice::Second, SeatChoice::Random];
    let at = ALL.iter().position(|s| *s == seat).unwrap_or(0) as i32;
    ALL[(at + delta).rem_euclid(3) as usize]
}

/// Refusals the player's own part of the screen shows (a taken name, a wrong password).
fn is_players_refusal(code: ErrorCode) -> bool {
    matches!(code, ErrorCode::BadName | ErrorCode::NameTaken | ErrorCode::BadPassword | ErrorCode::NotSignedIn)
}

/// Asks the server for a private game with the chosen options and seat (an invite code).
fn create(lobby: &mut OnlineLobby, out: &mut MessageWriter<ToServer>) {
    if let Err(e) = lobby.create.kind.open(&lobby.create.values, None) {
        lobby.message = Some(e.to_string());
        return;
    }
    lobby.message = None;
    lobby.invite = None;
    lobby.creating = Some(lobby.create.kind);
    lobby.posting = false;
    out.write(ToServer(ClientMessage::Create {
        game: lobby.create.kind,
        options: lobby.create.values.clone(),
        seat: lobby.seat,
    }));
}

/// Posts the chosen game as a challenge: to anyone, or to the named player.
fn post(lobby: &mut OnlineLobby, out: &mut MessageWriter<ToServer>) {
    if let Err(e) = lobby.create.kind.open(&lobby.create.values, None) {
        lobby.message = Some(e.to_string());
        return;
    }
    let to = lobby.challenge_to.trim().to_string();
    if !to.is_empty()
        && let Err(why) = crate::online::directory::check_name(&to)
    {
        lobby.message = Some(format!("The player to challenge: {why}"));
        return;
    }
    lobby.message = None;
    lobby.invite = None;
    lobby.creating = Some(lobby.create.kind);
    lobby.posting = true;
    out.write(ToServer(ClientMessage::Challenge {
        game: lobby.create.kind,
        options: lobby.create.values.clone(),
        seat: lobby.seat,
        rated: lobby.rated,
        time_control: lobby.time_control(),
        to: (!to.is_empty()).then_some(to),
    }));
}

/// Asks for the free seat of the game with the typed code.
fn join(lobby: &mut OnlineLobby, out: &mut MessageWriter<ToServer>) {
    let code = tidy_code(&lobby.join_code);
    if code.is_empty() {
        lobby.message = Some("Type the invite code you were given.".to_string());
        return;
    }
    lobby.message = None;
    lobby.joining = true;
    out.write(ToServer(ClientMessage::Join { code }));
}

/// What the online screen's rows ask for, by keys, pad or mouse.
#[derive(bevy::ecs::system::SystemParam)]
struct LobbyWriters<'w> {
    follow: MessageWriter<'w, FollowGame>,
    out: MessageWriter<'w, ToServer>,
    player: MessageWriter<'w, PlayerRequest>,
    computer: MessageWriter<'w, PlayComputerInstead>,
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn lobby_input(
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    mut lobby: ResMut<OnlineLobby>,
    (mut games, player, kept): (ResMut<OpenGames>, Res<OnlinePlayer>, Res<KeptSeats>),
    (connection, mut settings): (Res<Connection>, ResMut<CurrentSettings>),
    mut next: ResMut<NextState<Screen>>,
    mut to: LobbyWriters,
) {
    use LobbyRow::*;
    let mine: Vec<KeptSeat> = kept.on_server(&connection.url).cloned().collect();
    let rows = lobby.shown_rows.clone();
    for input in read_menu_inputs(&mut focus, rows.len(), &mut actions, &mut clicks) {
        let (row, delta) = match input {
            MenuInput::Back if lobby.view != OnlineView::Lobby => {
                lobby.view = OnlineView::Lobby;
                focus.0 = 0;
                continue;
            }
            MenuInput::Back => {
                next.set(Screen::Title);
                continue;
            }
            MenuInput::Activate(i) => (rows.get(i).copied(), 0),
            MenuInput::Adjust(i, d) => (rows.get(i).copied(), d),
        };
        let Some(row) = row else { continue };
        let activate = delta == 0;
        let step = if activate { 1 } else { delta };
        games.problem = None;
        match row {
            Name if activate => {
                to.player.write(PlayerRequest::Register(lobby.name_text.clone()));
            }
            LogIn if activate => {
                let (name, password) = (lobby.login_name.clone(), lobby.login_password.clone());
                to.player.write(PlayerRequest::LogIn { name, password });
            }
            MyPage if activate => {
                if let Some(name) = player.name() {
                    open_page(&mut lobby, &mut games, name, &mut to.out);
                    focus.0 = 0;
                }
            }
            Password if activate => {
                to.player.write(PlayerRequest::SetPassword(lobby.password_text.clone()));
            }
            HideRatings => settings.0.hide_ratings = !settings.0.hide_ratings,
            QuickGame => lobby.quick_game = step_game(lobby.quick_game, step),
            QuickPlay if activate => match games.quick {
                QuickPlayState::Waiting(_) => {
                    to.out.write(ToServer(ClientMessage::StopQuickPlay {}));
                    games.quick = QuickPlayState::Idle;
                }
                _ => {
                    games.quick = QuickPlayState::Waiting(lobby.quick_game);
                    to.out.write(ToServer(ClientMessage::QuickPlay { game: lobby.quick_game }));
                }
            },
            PlayComputer if activate => {
                if let QuickPlayState::Offered { game, level } = std::mem::take(&mut games.quick) {
                    to.computer.write(PlayComputerInstead { game, level });
                }
            }
            Challenge(i) if activate => {
                let Some(challenge) = games.shown_challenges().nth(i).cloned() else { continue };
                let own = player.name().is_some_and(|n| name_key(n) == name_key(&challenge.by));
                if own {
                    if let Some(seat) = kept.find(&challenge.game_id) {
                        let (game_id, token) = (seat.game_id.clone(), seat.token.clone());
                        to.out.write(ToServer(ClientMessage::Cancel { game_id, token }));
                    }
                } else if player.signed_in() {
                    to.out.write(ToServer(ClientMessage::Accept { game_id: challenge.game_id }));
                } else {
                    lobby.message = Some("Choose a name first: the challenge's player will see it.".to_string());
                    focus.0 = 0;
                }
            }
            OlderChallenges if activate => {
                if let Some(ask) = games.ask_older() {
                    to.out.write(ToServer(ask));
                }
            }
            PostGame => {
                let kind = step_game(lobby.create.kind, step);
                lobby.create.select(kind, &[]);
            }
            PostOption(i) => lobby.create.adjust(i, step),
            PostSide => lobby.seat = step_seat(lobby.seat, step),
            PostRated => lobby.rated = !lobby.rated,
            PostTime => {
                let choices = crate::online::clock::CHOICES.len() as i32 + 1;
                lobby.time = (lobby.time as i32 + step).rem_euclid(choices) as usize;
            }
            Email if activate => {
                let address = lobby.email_text.clone().unwrap_or_default();
                to.out.write(ToServer(ClientMessage::SetEmail { address }));
            }
            TurnNotices => {
                settings.0.turn_notices = !settings.0.turn_notices;
                if settings.0.turn_notices {
                    super::notices::ask_permission();
                }
            }
            Vacation if activate => {
                let on = player.card.as_ref().is_some_and(|c| c.vacation_until_ms.is_some());
                to.out.write(ToServer(ClientMessage::Vacation { on: !on }));
            }
            Post if activate => post(&mut lobby, &mut to.out),
            Invite if activate => create(&mut lobby, &mut to.out),
            Live(i) if activate => {
                if let Some(game) = games.live.get(i) {
                    to.follow.write(FollowGame { game_id: game.game_id.clone(), token: None, open_board: true });
                }
            }
            Mine(i) if activate => {
                if let Some(kept) = mine.get(i) {
                    let (game_id, token) = (kept.game_id.clone(), Some(kept.token.clone()));
                    to.follow.write(FollowGame { game_id, token, open_board: true });
                }
            }
            Join if activate => join(&mut lobby, &mut to.out),
            Leaders if activate => {
                let game = lobby.quick_game;
                open_leaders(&mut lobby, &mut games, game, &mut to.out);
                focus.0 = 0;
            }
            LeadersGame => {
                if let OnlineView::Leaders(game) = lobby.view {
                    open_leaders(&mut lobby, &mut games, step_game(game, step), &mut to.out);
                }
            }
            Leader(i) if activate => {
                let name = games.leaders.as_ref().and_then(|(_, l)| l.get(i)).map(|l| l.name.clone());
                if let Some(name) = name {
                    open_page(&mut lobby, &mut games, &name, &mut to.out);
                    focus.0 = 0;
                }
            }
            Recent(i) if activate => {
                let game = games.page.as_ref().and_then(|p| p.recent.get(i)).map(|g| g.game_id.clone());
                if let Some(game_id) = game {
                    // A finished game opens read-only at its end: its replay and review are there.
                    to.follow.write(FollowGame { game_id, token: None, open_board: true });
                }
            }
            Back if activate => {
                if lobby.view == OnlineView::Lobby {
                    next.set(Screen::Title);
                } else {
                    lobby.view = OnlineView::Lobby;
                    focus.0 = 0;
                }
            }
            _ => {}
        }
    }
}

/// Shows a player's page (asked of the server).
pub(super) fn open_page(lobby: &mut OnlineLobby, games: &mut OpenGames, name: &str, out: &mut MessageWriter<ToServer>) {
    lobby.view = OnlineView::Player(name.to_string());
    if games.page.as_ref().is_none_or(|p| name_key(&p.name) != name_key(name)) {
        games.page = None;
    }
    out.write(ToServer(ClientMessage::PlayerPage { name: name.to_string() }));
}

/// Shows a game's leaderboard (asked of the server).
pub(super) fn open_leaders(
    lobby: &mut OnlineLobby,
    games: &mut OpenGames,
    game: GameKind,
    out: &mut MessageWriter<ToServer>,
) {
    lobby.view = OnlineView::Leaders(game);
    if games.leaders.as_ref().is_none_or(|(g, _)| *g != game) {
        games.leaders = None;
    }
    out.write(ToServer(ClientMessage::Leaderboard { game }));
}

/// The browser page opened with `?join=CODE`: join that game on the online screen, and take the
/// code out of the address so a reload does not try to join again. Opened with `?watch=GAME`:
/// watch that game (a reload watches it again).
#[cfg(target_arch = "wasm32")]
fn join_from_page_address(
    mut lobby: ResMut<OnlineLobby>,
    mut next: ResMut<NextState<Screen>>,
    mut out: MessageWriter<ToServer>,
    mut follow: MessageWriter<FollowGame>,
) {
    let Some(window) = web_sys::window() else { return };
    let search = window.location().search().unwrap_or_default();
    if let Some(game_id) = super::address::watched_game_in_query(&search) {
        follow.write(FollowGame { game_id, token: None, open_board: true });
        next.set(Screen::Online);
        return;
    }
    let Some(code) = super::address::join_code_in_query(&search) else { return };
    if let (Ok(history), Ok(path)) = (window.history(), window.location().pathname()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
    }
    lobby.join_code = code;
    join(&mut lobby, &mut out);
    next.set(Screen::Online);
}

#[cfg(not(target_arch = "wasm32"))]
fn join_from_page_address() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_and_seats_step_round() {
        let first = GameKind::all().next().unwrap();
        assert_eq!(step_game(step_game(first, 1), -1), first);
        assert_eq!(step_seat(SeatChoice::Random, 1), SeatChoice::First);
    }
}
