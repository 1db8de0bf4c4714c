//! The "Play online" screen: the server and the connection, create a game (the game, its options
//! with the setup screen's own rows, the seat) and invite with a code shown big and a link, join
//! with a code, and "My online games": every kept seat with whose turn it is or how it ended,
//! to open on the board. In the browser, a page opened with `?join=CODE` joins that game at once.

use super::address::{invite_link_for_server, tidy_code};
use super::seats::KeptSeats;
use super::socket::{Connection, LinkState};
use super::{FollowGame, FromServer, SocketOpened, ToServer};
use crate::app::input::ActionPressed;
use crate::app::menus::SetupChoice;
use crate::app::screen::Screen;
use crate::app::settings::{CurrentSettings, SaveStore};
use crate::app::theme::text_size;
use crate::app::ui::{
    MenuClicked, MenuFocus, MenuInput, button, card, card_row, follow_focus, item, key_hints, number_item,
    read_menu_inputs, reset_focus, screen_frame, value_item,
};
use crate::app::{AppSystems, Launch};
use crate::games::GameKind;
use crate::online::protocol::{ClientMessage, GameSummary, SeatChoice, ServerMessage};
use crate::rules::{OptionKind, Side};
use crate::save::KeptSeat;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The lobby's systems, before the followed game's (a game chosen here is followed the same frame).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct LobbySystems;

/// A game just created, shown with its invite code until the opponent comes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invite {
    pub game_id: String,
    pub token: String,
    pub code: String,
}

/// What the online screen shows and what has been asked of the server.
#[derive(Resource, Debug, Clone)]
pub struct OnlineLobby {
    /// The game to create and its options (the setup screen's choice; its players are unused).
    pub create: SetupChoice,
    pub seat: SeatChoice,
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
    /// The game a create request is for, while it is on its way.
    pub creating: Option<GameKind>,
    pub joining: bool,
    /// The last refusal or problem.
    pub message: Option<String>,
}

impl Default for OnlineLobby {
    fn default() -> Self {
        let mut create = SetupChoice::default();
        create.select(create.kind, &[]);
        OnlineLobby {
            create,
            seat: SeatChoice::First,
            join_code: String::new(),
            server_text: None,
            invite: None,
            show_invite: false,
            summaries: Vec::new(),
            listed: false,
            creating: None,
            joining: false,
            message: None,
        }
    }
}

/// The focusable rows, in the order they show: Join, the kept games, then the game to create,
/// its options, the seat and Create (the long form last), and Back.
pub struct Rows {
    options: usize,
    games: usize,
}

impl Rows {
    pub fn of(lobby: &OnlineLobby, kept: usize) -> Rows {
        Rows { options: lobby.create.specs.len(), games: kept }
    }
    pub fn join(&self) -> usize {
        0
    }
    pub fn first_game(&self) -> usize {
        1
    }
    /// The game to create; its options follow it.
    pub fn game(&self) -> usize {
        1 + self.games
    }
    pub fn seat(&self) -> usize {
        self.game() + self.options + 1
    }
    pub fn create(&self) -> usize {
        self.seat() + 1
    }
    pub fn back(&self) -> usize {
        self.create() + 1
    }
    fn len(&self) -> usize {
        self.back() + 1
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<OnlineLobby>();
    app.configure_sets(Update, LobbySystems.in_set(AppSystems::Menus));
    app.add_systems(Startup, join_from_page_address);
    app.add_systems(OnEnter(Screen::Online), (reset_focus, list_games));
    app.add_systems(Update, (hear_server, lobby_input.run_if(in_state(Screen::Online))).chain().in_set(LobbySystems));
    app.add_systems(EguiPrimaryContextPass, draw_lobby.run_if(in_state(Screen::Online)));
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
                lobby.invite = Some(Invite { game_id: game_id.clone(), token: token.clone(), code: code.clone() });
                lobby.show_invite = true;
                follow.write(FollowGame { game_id: game_id.clone(), token: token.clone(), open_board: false });
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
                follow.write(FollowGame { game_id: game_id.clone(), token: token.clone(), open_board: true });
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
            ServerMessage::Error { message, game_id, .. } if game_id.is_none() || on_screen => {
                lobby.creating = None;
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

/// Asks the server for a game with the chosen options and seat.
fn create(lobby: &mut OnlineLobby, out: &mut MessageWriter<ToServer>) {
    if let Err(e) = lobby.create.kind.open(&lobby.create.values, None) {
        lobby.message = Some(e.to_string());
        return;
    }
    lobby.message = None;
    lobby.invite = None;
    lobby.creating = Some(lobby.create.kind);
    out.write(ToServer(ClientMessage::Create {
        game: lobby.create.kind,
        options: lobby.create.values.clone(),
        seat: lobby.seat,
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

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn lobby_input(
    mut focus: ResMut<MenuFocus>,
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    mut lobby: ResMut<OnlineLobby>,
    kept: Res<KeptSeats>,
    connection: Res<Connection>,
    mut next: ResMut<NextState<Screen>>,
    mut follow: MessageWriter<FollowGame>,
    mut out: MessageWriter<ToServer>,
) {
    let games: Vec<KeptSeat> = kept.on_server(&connection.url).cloned().collect();
    let rows = Rows::of(&lobby, games.len());
    let (game, seat) = (rows.game(), rows.seat());
    for input in read_menu_inputs(&mut focus, rows.len(), &mut actions, &mut clicks) {
        match input {
            MenuInput::Back => next.set(Screen::Title),
            MenuInput::Activate(i) if i == rows.join() => join(&mut lobby, &mut out),
            MenuInput::Activate(i) if i >= rows.first_game() && i < game => {
                let kept = &games[i - rows.first_game()];
                follow.write(FollowGame { game_id: kept.game_id.clone(), token: kept.token.clone(), open_board: true });
            }
            MenuInput::Adjust(i, d) if i == game => {
                let kind = step_game(lobby.create.kind, d);
                lobby.create.select(kind, &[]);
            }
            MenuInput::Activate(i) if i == game => {
                let kind = step_game(lobby.create.kind, 1);
                lobby.create.select(kind, &[]);
            }
            MenuInput::Adjust(i, d) if i > game && i < seat => lobby.create.adjust(i - game - 1, d),
            MenuInput::Activate(i) if i > game && i < seat => lobby.create.adjust(i - game - 1, 1),
            MenuInput::Adjust(i, d) if i == seat => lobby.seat = step_seat(lobby.seat, d),
            MenuInput::Activate(i) if i == seat => lobby.seat = step_seat(lobby.seat, 1),
            MenuInput::Activate(i) if i == rows.create() => create(&mut lobby, &mut out),
            MenuInput::Activate(_) => next.set(Screen::Title),
            MenuInput::Adjust(..) => {}
        }
    }
}

/// The browser page opened with `?join=CODE`: join that game on the online screen, and take the
/// code out of the address so a reload does not try to join again.
#[cfg(target_arch = "wasm32")]
fn join_from_page_address(
    mut lobby: ResMut<OnlineLobby>,
    mut next: ResMut<NextState<Screen>>,
    mut out: MessageWriter<ToServer>,
) {
    let Some(window) = web_sys::window() else { return };
    let Some(code) = window.location().search().ok().and_then(|q| super::address::join_code_in_query(&q)) else {
        return;
    };
    if let (Ok(history), Ok(path)) = (window.history(), window.location().pathname()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
    }
    lobby.join_code = code;
    join(&mut lobby, &mut out);
    next.set(Screen::Online);
}

#[cfg(not(target_arch = "wasm32"))]
fn join_from_page_address() {}

/// The link that opens this game for the invited player.
fn invite_link(connection: &Connection, code: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(page) = web_sys::window().and_then(|w| w.location().href().ok()) {
        return super::address::invite_link_for_page(&page, code);
    }
    invite_link_for_server(&connection.url, code)
}

/// "Your turn", "Their turn", "Waiting for opponent to join", or how it ended.
fn standing(summary: &GameSummary) -> String {
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
fn connection_text(connection: &Connection) -> String {
    match connection.state {
        LinkState::Open => format!("Connected to {}", connection.url),
        LinkState::Connecting | LinkState::Closed => format!("Connecting to {}…", connection.url),
        LinkState::Waiting => match &connection.problem {
            Some(why) => format!("Cannot reach {} ({why}). Trying again…", connection.url),
            None => format!("Reconnecting to {}…", connection.url),
        },
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn draw_lobby(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    mut lobby: ResMut<OnlineLobby>,
    kept: Res<KeptSeats>,
    connection: Res<Connection>,
    mut settings: ResMut<CurrentSettings>,
    mut launch: Option<ResMut<Launch>>,
    mut clicks: MessageWriter<MenuClicked>,
    mut follow: MessageWriter<FollowGame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let games: Vec<KeptSeat> = kept.on_server(&connection.url).cloned().collect();
    let rows = Rows::of(&lobby, games.len());
    let lobby = &mut *lobby;
    let mut typed: Option<(usize, String)> = None;
    screen_frame(ctx, "Play online", "Invite a friend with a code, or join their game", |ui| {
        server_row(ui, lobby, &connection, &mut settings, launch.as_deref_mut());
        if let Some(invite) = lobby.invite.clone() {
            let shown = invite_card(ui, &invite, &connection, &mut follow);
            if std::mem::take(&mut lobby.show_invite) {
                shown.scroll_to_me(Some(egui::Align::Min));
            }
        }
        ui.add_space(8.0);
        ui.label(egui::RichText::new("Join a game").size(text_size::HEADING).strong());
        join_row(ui, lobby, rows.join(), focus.0 == rows.join(), &mut clicks);
        if let Some(message) = &lobby.message {
            ui.colored_label(ui.visuals().warn_fg_color, egui::RichText::new(message).size(text_size::BODY));
        }
        ui.add_space(8.0);
        ui.label(egui::RichText::new("My online games").size(text_size::HEADING).strong());
        if games.is_empty() {
            ui.label(egui::RichText::new("None yet: create one or join one.").weak());
        }
        for (j, seat) in games.iter().enumerate() {
            let row = rows.first_game() + j;
            let summary = lobby.summaries.iter().find(|s| s.game_id == seat.game_id);
            let game = summary.map(|s| s.game).or(seat.game);
            let side = game.map_or_else(|| format!("{:?}", seat.seat), |k| k.side_name(seat.seat).to_string());
            let title = format!("{} · you play {side}", game.map_or("Online game", |k| k.name()));
            let detail = match summary {
                Some(summary) => standing(summary),
                None if lobby.listed => "Not on this server any more".to_string(),
                None if connection.is_open() => "Asking the server…".to_string(),
                None => "Waiting for the connection".to_string(),
            };
            item(ui, row, focus.0 == row, &title, &detail, &mut clicks);
        }
        ui.add_space(8.0);
        ui.label(egui::RichText::new("Create a game").size(text_size::HEADING).strong());
        let kind = lobby.create.kind;
        let game_row = rows.game();
        let focused = focus.0 == game_row;
        value_item(ui, game_row, focused, ("Game", kind.tagline), kind.name(), None, &mut clicks);
        for (i, spec) in lobby.create.specs.iter().enumerate() {
            let row = game_row + 1 + i;
            let value = lobby
                .create
                .values
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(spec.key))
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            match spec.kind {
                OptionKind::Int { min, max } => {
                    let now = value.parse().unwrap_or(min);
                    let focused = focus.0 == row;
                    if let Some(v) =
                        number_item(ui, row, focused, (spec.label, spec.help), now, (min, max), &mut clicks)
                    {
                        typed = Some((i, v.to_string()));
                    }
                }
                OptionKind::Choice(_) => {
                    let words = kind.option_value_words(spec.key, &value);
                    value_item(ui, row, focus.0 == row, (spec.label, spec.help), &words, None, &mut clicks);
                }
                OptionKind::Text => {
                    let mut text = value.clone();
                    card_row(ui, focus.0 == row, |ui| {
                        ui.label(egui::RichText::new(spec.label).size(18.0).strong());
                        ui.add(egui::TextEdit::singleline(&mut text).desired_width(180.0));
                    });
                    if text != value {
                        typed = Some((i, text));
                    }
                }
            }
        }
        let seat_words = match lobby.seat {
            SeatChoice::First => format!("You play {} and move first", kind.side_name(Side::First)),
            SeatChoice::Second => format!("You play {} and move second", kind.side_name(Side::Second)),
            SeatChoice::Random => "Decided at random".to_string(),
        };
        let seat_help = "Which side you take; your friend gets the other.";
        value_item(ui, rows.seat(), focus.0 == rows.seat(), ("Your side", seat_help), &seat_words, None, &mut clicks);
        let create_detail = if lobby.creating.is_some() { "Asking the server…" } else { "You get a code to share" };
        item(ui, rows.create(), focus.0 == rows.create(), "Create game", create_detail, &mut clicks);
        if let Some(problem) = &kept.problem {
            ui.colored_label(ui.visuals().warn_fg_color, problem);
        }
        item(ui, rows.back(), focus.0 == rows.back(), "Back", "", &mut clicks);
        key_hints(ui, "Up/Down: choose · Left/Right: change · Enter or A: select · Esc or B: back");
    });
    if let Some((index, value)) = typed {
        lobby.create.set(index, value);
    }
    Ok(())
}

/// The connection line, and natively the server's address to change.
fn server_row(
    ui: &mut egui::Ui,
    lobby: &mut OnlineLobby,
    connection: &Connection,
    settings: &mut CurrentSettings,
    launch: Option<&mut Launch>,
) {
    let colour = if connection.is_open() { ui.visuals().text_color() } else { ui.visuals().warn_fg_color };
    let mut text = lobby.server_text.clone().unwrap_or_else(|| connection.url.clone());
    let mut apply = false;
    card_row(ui, false, |ui| {
        ui.colored_label(colour, egui::RichText::new(connection_text(connection)).size(text_size::SMALL));
        // The browser's page always talks to the server it came from.
        if cfg!(not(target_arch = "wasm32")) {
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new("Server").size(text_size::BODY));
                let edit = ui.add(egui::TextEdit::singleline(&mut text).desired_width(260.0));
                apply = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                apply |= button(ui, "Use").clicked();
            });
        }
    });
    if apply {
        match super::address::complete_server(&text) {
            Ok(url) => {
                settings.0.online_server = url;
                // The player's choice now holds over `--server`, which only chose the first one.
                if let Some(launch) = launch {
                    launch.server = None;
                }
                lobby.server_text = None;
                lobby.summaries.clear();
                lobby.message = None;
            }
            Err(e) => lobby.message = Some(e),
        }
    } else if text != connection.url || lobby.server_text.is_some() {
        lobby.server_text = Some(text);
    }
    ui.add_space(8.0);
}

/// The invite: the code big, copy buttons for it and for the link, and the way to the board.
fn invite_card(
    ui: &mut egui::Ui,
    invite: &Invite,
    connection: &Connection,
    follow: &mut MessageWriter<FollowGame>,
) -> egui::Response {
    let link = invite_link(connection, &invite.code);
    let shown = card(ui, true).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.vertical_centered(|ui| {
            ui.label(egui::RichText::new("Your game is ready. Invite code:").size(text_size::BODY));
            ui.label(egui::RichText::new(&invite.code).size(48.0).monospace().strong());
            ui.horizontal_wrapped(|ui| {
                if button(ui, "Copy code").clicked() {
                    ui.ctx().copy_text(invite.code.clone());
                }
                if button(ui, "Copy link").clicked() {
                    ui.ctx().copy_text(link.clone());
                }
                if button(ui, "Go to the board").clicked() {
                    follow.write(FollowGame {
                        game_id: invite.game_id.clone(),
                        token: invite.token.clone(),
                        open_board: true,
                    });
                }
            });
            ui.label(egui::RichText::new(&link).size(text_size::SMALL).monospace());
            ui.label(egui::RichText::new("The board opens when your friend joins.").size(text_size::SMALL).weak());
        });
    });
    ui.add_space(8.0);
    shown.response
}

/// The code field and its Join button.
fn join_row(
    ui: &mut egui::Ui,
    lobby: &mut OnlineLobby,
    index: usize,
    focused: bool,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    let shown = card_row(ui, focused, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new("Code").size(18.0).strong());
            let edit = ui.add(
                egui::TextEdit::singleline(&mut lobby.join_code)
                    .desired_width(160.0)
                    .font(egui::TextStyle::Monospace)
                    .hint_text("AB12CD"),
            );
            let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let label = if lobby.joining { "Joining…" } else { "Join" };
            if button(ui, label).clicked() || entered {
                clicks.write(MenuClicked { index, delta: 0 });
            }
        });
        ui.label(egui::RichText::new("The code your friend's game shows.").size(text_size::SMALL).weak());
    });
    follow_focus(&shown.response, index, focused);
    ui.add_space(4.0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::protocol::Ending;

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
        s.ended = Some(Ending { result: serde_json::json!({ "winner": mine }), reason: "B resigned".into() });
        assert_eq!(standing(&s), "You won — B resigned");
        s.ended = Some(Ending { result: serde_json::json!("draw"), reason: "no moves".into() });
        assert_eq!(standing(&s), "Draw — no moves");
    }

    #[test]
    fn games_and_seats_step_round() {
        let first = GameKind::all().next().unwrap();
        assert_eq!(step_game(step_game(first, 1), -1), first);
        assert_eq!(step_seat(SeatChoice::Random, 1), SeatChoice::First);
    }
}
