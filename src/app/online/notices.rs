//! Your-turn notices: the window's title (the browser tab's) counts the online games waiting for
//! the player's move, "(2) Your turn · Stoneyard", and when a game starts waiting while the
//! window is in the background a system notification says so (the desktop's, or the browser's
//! with the player's permission). The games waiting are the one on the board and the kept games
//! the server last listed (listed again every minute while connected).

use super::ToServer;
use super::lobby_state::OnlineLobby;
use super::seats::KeptSeats;
use super::socket::Connection;
use crate::app::AppSystems;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::OnlineStatus;
use crate::app::settings::CurrentSettings;
use crate::online::protocol::ClientMessage;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use std::collections::BTreeMap;
use std::time::Duration;

/// How often the kept games are listed again while connected (a correspondence opponent's move).
const LIST_EVERY: Duration = Duration::from_secs(60);

/// The title without games waiting.
pub const TITLE: &str = "Stoneyard";

/// The online games waiting for this player's decision: game id → what to call it.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct YourTurn {
    pub games: BTreeMap<String, String>,
}

/// A notice to show outside the app (the platform's notifier shows it; tests read it).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct TurnNotice {
    pub title: String,
    pub body: String,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<YourTurn>().add_message::<TurnNotice>();
    app.add_systems(Update, list_now_and_then.in_set(AppSystems::Menus));
    app.add_systems(Update, (count_your_turns, show_your_turns, deliver).chain().in_set(AppSystems::Present));
}

/// Lists the kept games again every minute while connected, so a move made in a game not on the
/// board is noticed.
fn list_now_and_then(
    time: Res<Time<Real>>,
    mut since: Local<Duration>,
    connection: Res<Connection>,
    kept: Res<KeptSeats>,
    mut out: MessageWriter<ToServer>,
) {
    *since += time.delta();
    if *since < LIST_EVERY || !connection.is_open() {
        return;
    }
    *since = Duration::ZERO;
    let tokens: Vec<String> = kept.on_server(&connection.url).map(|s| s.token.clone()).collect();
    if !tokens.is_empty() {
        out.write(ToServer(ClientMessage::List { tokens }));
    }
}

/// Which online games wait for this player now.
fn count_your_turns(
    current: Option<Res<CurrentMatch>>,
    status: Res<OnlineStatus>,
    lobby: Res<OnlineLobby>,
    followed: Res<super::follow::Followed>,
    mut turns: ResMut<YourTurn>,
) {
    let mut games = BTreeMap::new();
    for summary in lobby.summaries.iter().filter(|s| s.your_turn && s.ended.is_none()) {
        games.insert(summary.game_id.clone(), summary.game.name().to_string());
    }
    // The game on the board knows better than the last list.
    if let (Some(current), Some(seat)) = (current.as_deref(), followed.seat.as_ref())
        && status.active
        && !status.watching
    {
        let person_acts = current.acting_side().is_some_and(|side| current.person_plays(side));
        if person_acts && !current.is_over() && status.opponent != crate::app::playing::OpponentPresence::NotJoined {
            let against = current.remote.and_then(|s| status.names[s.index()].clone());
            let words = match against {
                Some(name) => format!("{} against {name}", current.position().kind().name()),
                None => current.position().kind().name().to_string(),
            };
            games.insert(seat.game_id.clone(), words);
        } else {
            games.remove(&seat.game_id);
        }
    }
    turns.set_if_neq(YourTurn { games });
}

/// The title counts the games waiting; a game that starts waiting while the window is in the
/// background gets a notice.
fn show_your_turns(
    turns: Res<YourTurn>,
    mut before: Local<YourTurn>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    settings: Res<CurrentSettings>,
    mut notices: MessageWriter<TurnNotice>,
) {
    if *turns == *before {
        return;
    }
    let title = match turns.games.len() {
        0 => TITLE.to_string(),
        n => format!("({n}) Your turn · {TITLE}"),
    };
    let mut background = true;
    if let Ok(mut window) = windows.single_mut() {
        background = !window.focused;
        if window.title != title {
            window.title = title.clone();
        }
    }
    set_page_title(&title);
    background |= page_hidden();
    let new: Vec<&String> =
        turns.games.iter().filter(|(id, _)| !before.games.contains_key(*id)).map(|(_, w)| w).collect();
    if background && settings.0.turn_notices && !new.is_empty() {
        let body = match new.as_slice() {
            [one] => format!("Your move in {one}"),
            many => format!("Your move in {} games", many.len()),
        };
        notices.write(TurnNotice { title: "Your turn · Stoneyard".to_string(), body });
    }
    *before = turns.clone();
}

/// Shows the notices with the platform's notifier.
fn deliver(mut notices: MessageReader<TurnNotice>) {
    for notice in notices.read() {
        notify(notice);
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn notify(notice: &TurnNotice) {
    let notice = notice.clone();
    // D-Bus (or the platform's service) may take a moment: never in the frame.
    std::thread::spawn(move || {
        let shown = notify_rust::Notification::new()
            .summary(&notice.title)
            .body(&notice.body)
            .appname(TITLE)
            .timeout(notify_rust::Timeout::Milliseconds(10_000))
            .show();
        if let Err(e) = shown {
            bevy::log::warn!("online: the desktop did not show a notice: {e}");
        }
    });
}

#[cfg(target_arch = "wasm32")]
fn notify(notice: &TurnNotice) {
    use web_sys::{Notification, NotificationOptions, NotificationPermission};
    if Notification::permission() != NotificationPermission::Granted {
        return;
    }
    let options = NotificationOptions::new();
    options.set_body(&notice.body);
    options.set_tag("stoneyard-your-turn");
    if let Err(e) = Notification::new_with_options(&notice.title, &options) {
        bevy::log::warn!("online: the browser did not show a notice: {e:?}");
    }
}

#[cfg(target_arch = "wasm32")]
fn set_page_title(title: &str) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(title);
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn set_page_title(_title: &str) {}

/// The browser tab is in the background.
#[cfg(target_arch = "wasm32")]
fn page_hidden() -> bool {
    web_sys::window().and_then(|w| w.document()).is_some_and(|d| d.hidden() || !d.has_focus().unwrap_or(true))
}

#[cfg(not(target_arch = "wasm32"))]
fn page_hidden() -> bool {
    false
}

/// Asks the browser for permission to show notices (from the player's click on the setting).
#[cfg(target_arch = "wasm32")]
pub fn ask_permission() {
    if let Ok(promise) = web_sys::Notification::request_permission() {
        // The answer is read when a notice is due; nothing waits for it here.
        drop(promise);
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn ask_permission() {}

/// What the browser says of notices: `None` on the desktop (always allowed).
#[cfg(target_arch = "wasm32")]
pub fn permission_words() -> Option<&'static str> {
    use web_sys::{Notification, NotificationPermission};
    Some(match Notification::permission() {
        NotificationPermission::Granted => "allowed by the browser",
        NotificationPermission::Denied => "blocked in the browser's site settings",
        _ => "select to let the browser show them",
    })
}

#[cfg(not(target_arch = "wasm32"))]
pub fn permission_words() -> Option<&'static str> {
    None
}
