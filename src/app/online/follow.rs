//! The followed online game on the ordinary board. Its seat (`crate::online::seat`) takes in what
//! the server says; the board then catches up: the opponent's new decisions enter the match the
//! way the computer's do (one a frame, after the last animation, through the ordered resolution),
//! a reveal that reorders decisions or a refused decision takes the board back to where the two
//! agree, and the person's own decisions go to the seat, shown at once and marked pending until
//! the server stores them. Resigning and rematches go through the server too.

use super::catch_up::{Agreement, CatchUp};
use super::seats::KeptSeats;
use super::socket::Connection;
use super::{FollowGame, FromServer, SocketOpened, ToServer};
use crate::app::AppSystems;
use crate::app::match_state::{CurrentMatch, MatchCommand, NewMatch};
use crate::app::playing::{
    BoardAnimating, DecisionChosen, OnlineRequest, OnlineStatus, OpponentPresence, RematchOffer, Replay,
};
use crate::app::screen::Screen;
use crate::app::settings::SaveStore;
use crate::online::directory::{Phrase, RatingChange};
use crate::online::protocol::{ClientMessage, EndKind, ServerMessage};
use crate::online::seat::OnlineSeat;
use crate::rules::Side;
use crate::save::KeptSeat;
use bevy::prelude::*;

/// The followed game and how far the board has caught up with it.
#[derive(Resource, Debug, Default)]
pub struct Followed {
    pub seat: Option<OnlineSeat>,
    /// Show the game on the board as soon as its state arrives.
    open_board: bool,
    /// Show it once the opponent has joined (the creator waits on the invite).
    open_when_joined: bool,
    /// The board shows this game (its match was made from the seat's state).
    on_board: bool,
    /// How many of the board's decisions the seat has been told about.
    told: usize,
    /// How far the board and the seat's match were found to agree.
    agreement: Agreement,
    resign_sent: bool,
    /// Who plays, whether rated, how many watch (the server's `Players`).
    names: [Option<String>; 2],
    rated: bool,
    watchers: u32,
    said: Vec<(Side, Phrase)>,
    rating_changes: Vec<RatingChange>,
    /// When the seat's clocks last arrived.
    clock_since: Option<web_time::Instant>,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Followed>();
    app.add_systems(PreUpdate, want_connection);
    app.add_systems(
        Update,
        (start_following, hear_server).chain().in_set(AppSystems::Menus).after(super::lobby_state::LobbySystems),
    );
    app.add_systems(Update, (tell_seat, catch_up_board, send_requests).chain().in_set(AppSystems::Choose));
    app.add_systems(Update, tell_status.in_set(AppSystems::Present).run_if(resource_exists::<CurrentMatch>));
    app.add_systems(OnEnter(Screen::Title), stop_following);
    app.add_systems(Update, play_the_computer_instead.in_set(AppSystems::Menus));
}

/// Quick play found nobody and the player took the computer: a game at the offered level.
fn play_the_computer_instead(
    mut new_match: MessageWriter<NewMatch>,
    mut requests: MessageReader<super::PlayComputerInstead>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(request) = requests.read().last().cloned() else { return };
    let level = request.level.parse().unwrap_or(crate::ai::Level::Medium);
    match request.game.open(&request.game.quick_pairs(), None) {
        Ok(start) => {
            let mut current = CurrentMatch::new(start);
            current.players = [None, Some(level)];
            new_match.write(NewMatch(Box::new(current)));
            next.set(Screen::Playing);
        }
        Err(e) => error!("{} does not open: {e}", request.game.name()),
    }
}

/// The connection is needed on the online screen and while a game is followed.
fn want_connection(screen: Res<State<Screen>>, followed: Res<Followed>, mut connection: ResMut<Connection>) {
    let wanted = *screen.get() == Screen::Online || followed.seat.is_some();
    if connection.wanted != wanted {
        connection.wanted = wanted;
    }
}

/// Back at the title, the online game is left (it goes on on the server; "My online games" finds
/// it again) and its board is closed: it is not a game in progress on this device.
fn stop_following(
    mut commands: Commands,
    mut followed: ResMut<Followed>,
    current: Option<Res<CurrentMatch>>,
    mut out: MessageWriter<ToServer>,
) {
    if let Some(seat) = followed.seat.take() {
        out.write(ToServer(ClientMessage::Close { game_id: seat.game_id }));
    }
    *followed = Followed::default();
    if current.is_some_and(|c| c.remote.is_some()) {
        commands.remove_resource::<CurrentMatch>();
    }
}

fn start_following(
    mut requests: MessageReader<FollowGame>,
    mut followed: ResMut<Followed>,
    connection: Res<Connection>,
    mut out: MessageWriter<ToServer>,
) {
    let Some(request) = requests.read().last().cloned() else { return };
    if let Some(old) = followed.seat.take()
        && old.game_id != request.game_id
    {
        out.write(ToServer(ClientMessage::Close { game_id: old.game_id }));
    }
    let mut seat = OnlineSeat::new(request.game_id, request.token);
    let hello = seat.on_connect();
    *followed = Followed {
        seat: Some(seat),
        open_board: request.open_board,
        open_when_joined: !request.open_board,
        ..Followed::default()
    };
    if connection.is_open() {
        out.write_batch(hello.into_iter().map(ToServer));
    }
}

/// The game's id a server message is about, if any.
fn game_of(message: &ServerMessage) -> Option<&str> {
    match message {
        ServerMessage::State { game_id, .. }
        | ServerMessage::Moved { game_id, .. }
        | ServerMessage::Revealed { game_id, .. }
        | ServerMessage::Ack { game_id, .. }
        | ServerMessage::Presence { game_id, .. }
        | ServerMessage::Ended { game_id, .. }
        | ServerMessage::RematchOffered { game_id, .. }
        | ServerMessage::RematchReady { game_id, .. }
        | ServerMessage::Players { game_id, .. }
        | ServerMessage::Said { game_id, .. }
        | ServerMessage::Rated { game_id, .. }
        | ServerMessage::Clock { game_id, .. }
        | ServerMessage::Cancelled { game_id } => Some(game_id),
        ServerMessage::Error { game_id, .. } => game_id.as_deref(),
        _ => None,
    }
}

/// Feeds the followed game's seat; opens the board when the game is known; follows a rematch.
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn hear_server(
    mut new_match: MessageWriter<NewMatch>,
    mut heard: MessageReader<FromServer>,
    mut opened: MessageReader<SocketOpened>,
    mut followed: ResMut<Followed>,
    (mut kept, mut store): (ResMut<KeptSeats>, ResMut<SaveStore>),
    connection: Res<Connection>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut out: MessageWriter<ToServer>,
) {
    let reconnected = opened.read().count() > 0;
    let Some(seat) = followed.seat.as_mut() else {
        heard.clear();
        return;
    };
    if reconnected {
        out.write_batch(seat.on_connect().into_iter().map(ToServer));
    }
    let mut rematch = None;
    let mut cancelled = false;
    let mut heard_now = Vec::new();
    for FromServer(message) in heard.read() {
        if game_of(message) != Some(seat.game_id.as_str()) {
            continue;
        }
        out.write_batch(seat.receive(message).into_iter().map(ToServer));
        match message {
            ServerMessage::RematchReady { .. } => rematch = seat.rematch.clone(),
            ServerMessage::Cancelled { .. } => cancelled = true,
            ServerMessage::Players { .. } | ServerMessage::Said { .. } | ServerMessage::Rated { .. } => {
                heard_now.push(message.clone());
            }
            ServerMessage::Clock { .. } => heard_now.push(message.clone()),
            _ => {}
        }
    }
    for message in heard_now {
        match message {
            ServerMessage::Players { names, rated, watchers, .. } => {
                followed.names = names;
                followed.rated = rated;
                followed.watchers = watchers;
            }
            ServerMessage::Said { by, phrase, .. } => followed.said.push((by, phrase)),
            ServerMessage::Rated { changes, .. } => followed.rating_changes = changes,
            ServerMessage::Clock { .. } => followed.clock_since = Some(web_time::Instant::now()),
            _ => {}
        }
    }
    if cancelled {
        // The game was withdrawn before anyone joined: nothing to follow.
        *followed = Followed::default();
        return;
    }
    let seat = followed.seat.as_ref().expect("followed above");
    let (game_id, joined) = (seat.game_id.clone(), seat.joined == [true, true]);
    let board = (!followed.on_board && seat.setup.is_some()).then(|| board_of(seat));
    // The game is known: make its board (once), and show it when asked to.
    if let Some(board) = board {
        match board {
            Ok(current) => {
                // A seat taken with a code learns its game here; the kept seat says it from now on.
                if let Some(k) = kept.find(&game_id).filter(|k| k.game.is_none()).cloned() {
                    kept.keep(&mut store, KeptSeat { game: Some(current.position().kind()), ..k });
                }
                followed.told = current.len();
                new_match.write(NewMatch(Box::new(current)));
                followed.on_board = true;
            }
            Err(e) => warn!("online: the game cannot be shown: {e}"),
        }
    }
    if followed.on_board && (followed.open_board || (followed.open_when_joined && joined)) {
        followed.open_board = false;
        followed.open_when_joined = false;
        if *screen.get() != Screen::Playing {
            next.set(Screen::Playing);
        }
    }
    // Both asked for a rematch: keep the new seat, then follow it on the board.
    if let Some(new) = rematch {
        let game = followed.seat.as_ref().and_then(|s| s.setup.as_ref()).map(|(kind, _)| *kind);
        let created_unix = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        kept.keep(
            &mut store,
            KeptSeat {
                game_id: new.game_id.clone(),
                token: new.token.clone(),
                game,
                seat: new.seat,
                server: connection.url.clone(),
                created_unix,
                code: None,
            },
        );
        let mut seat = OnlineSeat::new(new.game_id, Some(new.token));
        if connection.is_open() {
            out.write_batch(seat.on_connect().into_iter().map(ToServer));
        }
        *followed = Followed { seat: Some(seat), open_board: true, ..Followed::default() };
    }
}

/// The app's match of a known game: the seat's own match (every decision it shows); without a
/// seat, the game watched (both seats played elsewhere).
fn board_of(seat: &OnlineSeat) -> Result<CurrentMatch, String> {
    if let Some(why) = &seat.board_error {
        return Err(why.clone());
    }
    let board = seat.board().ok_or("the game is not known yet")?;
    let mut current = CurrentMatch::of(board.clone());
    match seat.seat {
        Some(mine) => current.remote = Some(mine.opponent()),
        None => {
            current.remote = Some(Side::First);
            current.watching = true;
        }
    }
    Ok(current)
}

/// The person's new decisions on the board go to the seat (which sends them).
fn tell_seat(
    current: Option<Res<CurrentMatch>>,
    replay: Res<Replay>,
    mut followed: ResMut<Followed>,
    mut out: MessageWriter<ToServer>,
) {
    let Some(current) = current.filter(|c| c.remote.is_some()) else { return };
    if !followed.on_board || replay.active {
        return;
    }
    let followed = &mut *followed;
    let Some(seat) = followed.seat.as_mut() else { return };
    for i in followed.told.min(current.len())..current.len() {
        let Some(shown) = seat.board() else { break };
        let decision = current.decision(i).to_string();
        if shown.played().get(i).is_some_and(|p| p.decision == decision) {
            continue;
        }
        // Beyond what the seat shows, only the person here adds decisions (the opponent's come
        // from the seat): anything else is a divergence the board catches up with below.
        if shown.len() != i {
            break;
        }
        out.write_batch(seat.decide(decision).into_iter().map(ToServer));
    }
    followed.told = current.len();
}

/// The board follows the game: plays the opponent's new decisions, goes back where they part,
/// shows a refusal once, and ends the game as the server ended it (all as the match's commands).
fn catch_up_board(
    current: Option<ResMut<CurrentMatch>>,
    replay: Res<Replay>,
    animating: Res<BoardAnimating>,
    mut followed: ResMut<Followed>,
    mut chosen: MessageWriter<DecisionChosen>,
    mut commands: MessageWriter<MatchCommand>,
) {
    let Some(mut current) = current.filter(|c| c.remote.is_some()) else { return };
    if !followed.on_board || replay.active {
        return;
    }
    let followed = &mut *followed;
    let Some(seat) = followed.seat.as_mut() else { return };
    if let Some(why) = seat.refused.take() {
        current.message = Some(why);
    }
    if let Some(why) = &seat.board_error {
        current.message = Some(format!("The server's game cannot be shown: {why}"));
    }
    let Some(game) = seat.board() else { return };
    match followed.agreement.catch_up(&current.session, game) {
        CatchUp::InStep => {
            // A resignation or a timeout is not in the rules' position: the server's ending says it.
            if let Some(ending) = seat.ended.clone()
                && !current.is_over()
            {
                let winner = winner_of(&current, &ending.result);
                match winner {
                    Some(winner) if ending.kind() == EndKind::Resignation => {
                        commands.write(MatchCommand::Resign(winner.opponent()));
                    }
                    _ => {
                        commands.write(MatchCommand::EndOnTime(winner, ending.reason));
                    }
                }
            }
        }
        CatchUp::Play(decisions) => {
            let next = &decisions[0];
            if current.resigned().is_some() {
                // Only a resignation ends a match early; the game went on: take it back.
                commands.write(MatchCommand::Undo);
            }
            if current.decisions_now().contains(next) && current.resigned().is_none() {
                // The opponent's move waits for the last animation, as the computer's does.
                if !animating.0 {
                    chosen.write(DecisionChosen(next.clone()));
                }
            } else {
                commands.write(MatchCommand::PlayQuietly(next.clone()));
            }
        }
        CatchUp::Rewind { keep } => {
            commands.write(MatchCommand::GoTo(keep));
            commands.write(MatchCommand::DropRedo);
            followed.told = keep;
        }
    }
    followed.told = followed.told.min(current.len());
}

/// The side a referee result (`{"winner": "<side>"}`) names.
fn winner_of(current: &CurrentMatch, result: &serde_json::Value) -> Option<Side> {
    let name = result.get("winner")?.as_str()?;
    Side::BOTH.into_iter().find(|&s| current.position().side_name(s) == name)
}

/// Resign and rematch from the panel.
fn send_requests(
    mut requests: MessageReader<OnlineRequest>,
    mut followed: ResMut<Followed>,
    mut out: MessageWriter<ToServer>,
) {
    for request in requests.read() {
        let Some(seat) = followed.seat.as_ref() else { continue };
        let (Some(token), game_id) = (seat.token.clone(), seat.game_id.clone()) else { continue };
        match request {
            OnlineRequest::Resign => {
                out.write(ToServer(ClientMessage::Resign { game_id, token }));
                followed.resign_sent = true;
            }
            OnlineRequest::Rematch => {
                out.write(ToServer(ClientMessage::Rematch { game_id, token }));
            }
            OnlineRequest::Say(phrase) => {
                out.write(ToServer(ClientMessage::Say { game_id, token, phrase: *phrase }));
            }
            OnlineRequest::Claim => {
                out.write(ToServer(ClientMessage::Claim { game_id, token }));
            }
        }
    }
}

/// What the panel shows of the online game.
fn tell_status(
    current: Res<CurrentMatch>,
    followed: Res<Followed>,
    connection: Res<Connection>,
    kept: Res<KeptSeats>,
    settings: Res<crate::app::settings::CurrentSettings>,
    mut status: ResMut<OnlineStatus>,
) {
    let now = match (&followed.seat, current.remote) {
        (Some(seat), Some(remote)) if followed.on_board => {
            let other = remote.index();
            OnlineStatus {
                active: true,
                connected: connection.is_open(),
                opponent: match (seat.joined[other], seat.online[other]) {
                    (false, _) => OpponentPresence::NotJoined,
                    (true, false) => OpponentPresence::Offline,
                    (true, true) => OpponentPresence::Online,
                },
                pending: seat.pending.len(),
                invite: if seat.joined[other] { None } else { kept.find(&seat.game_id).and_then(|k| k.code.clone()) },
                rematch: match seat.rematch_offered_by {
                    None => RematchOffer::None,
                    Some(side) if Some(side) == seat.seat => RematchOffer::ByYou,
                    Some(_) => RematchOffer::ByOpponent,
                },
                resign_sent: followed.resign_sent && seat.ended.is_none(),
                watching: seat.seat.is_none(),
                names: followed.names.clone(),
                watchers: followed.watchers,
                rated: followed.rated,
                said: followed.said.clone(),
                rating_changes: followed.rating_changes.clone(),
                hide_ratings: settings.0.hide_ratings,
                watch_link: Some(super::lobby_state::watch_link(&connection, &seat.game_id)),
                clock: seat.clock.clone(),
                clock_since: followed.clock_since,
                delay_ms: connection.delay_ms,
            }
        }
        _ => OnlineStatus::default(),
    };
    status.set_if_neq(now);
}
