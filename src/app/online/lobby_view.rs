//! Draws the "Play online" screen: the connection, then each row of `lobby_rows` under its
//! section's heading (the player, quick play, open challenges, posting, games being played, one's
//! own games, joining), or a player page or leaderboard (`people_view`).

use super::FollowGame;
use super::lobby_state::{LobbyRow, OnlineLobby, OnlineView, connection_text, standing};
use super::lobby_widgets::{invite_card, join_row, server_row};
use super::open_games::{OpenGames, QuickPlayState};
use super::people_view::{self, provisional, rating_words};
use super::player::OnlinePlayer;
use super::seats::KeptSeats;
use super::socket::Connection;
use crate::app::Launch;
use crate::app::settings::CurrentSettings;
use crate::app::theme::text_size;
use crate::app::ui::{
    MenuClicked, MenuFocus, OPTION_CONTROLS, button, card_row, follow_focus, item, key_hints, number_item,
    screen_frame, value_item,
};
use crate::online::clock::DAY_MS;
use crate::online::directory::{Challenge, TimeControl, name_key, time_control_words};
use crate::online::protocol::SeatChoice;
use crate::rules::{OptionKind, Side};
use crate::save::KeptSeat;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_lobby.run_if(in_state(crate::app::screen::Screen::Online)));
}

/// Milliseconds since 1970 on this device.
fn unix_ms() -> i64 {
    web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// What a row's text fields changed this frame.
#[derive(Default)]
struct Typed {
    option: Option<(usize, String)>,
}

/// A challenge's two lines: "Gravel · Ada 1500?" and "Rated · Untimed · you play White · 9×9".
fn challenge_words(challenge: &Challenge, own: bool, settings: &CurrentSettings) -> (String, String) {
    let rating = rating_words(settings, challenge.rating, challenge.deviation);
    let by = if own { "Your challenge".to_string() } else { format!("{} {rating}", challenge.by).trim().to_string() };
    let title = format!("{} · {by}", challenge.game.name());
    let mut detail = vec![
        if challenge.rated { "Rated" } else { "Casual" }.to_string(),
        time_control_words(challenge.time_control.as_ref()),
    ];
    let yours = challenge.seat.opponent();
    if own {
        detail.push(format!("you play {}", challenge.game.side_name(challenge.seat)));
    } else {
        detail.push(format!("you play {}", challenge.game.side_name(yours)));
    }
    // The options that differ from the game's usual ones (a 5×5 board, a turn limit).
    let usual = challenge.game.open(&[], None).map(|g| g.option_pairs()).unwrap_or_default();
    let options: Vec<String> = challenge
        .options
        .iter()
        .filter(|pair| !usual.contains(pair))
        .map(|(k, v)| option_words(challenge.game, k, v))
        .collect();
    detail.extend(options);
    if let Some(to) = &challenge.to {
        detail.push(if own { format!("for {to} only") } else { "for you".to_string() });
    }
    if !own && !settings.0.hide_ratings && provisional(challenge.deviation) {
        detail.push(format!("{}'s rating is provisional (?): few rated games yet", challenge.by));
    }
    let action = if own { " · select to withdraw" } else { " · select to accept" };
    (title, format!("{}{action}", detail.join(" · ")))
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
pub fn draw_lobby(
    mut contexts: EguiContexts,
    focus: Res<MenuFocus>,
    mut lobby: ResMut<OnlineLobby>,
    (kept, games, player): (Res<KeptSeats>, Res<OpenGames>, Res<OnlinePlayer>),
    connection: Res<Connection>,
    mut settings: ResMut<CurrentSettings>,
    mut launch: Option<ResMut<Launch>>,
    mut clicks: MessageWriter<MenuClicked>,
    mut follow: MessageWriter<FollowGame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lobby = &mut *lobby;
    match lobby.view.clone() {
        OnlineView::Player(name) => {
            people_view::draw_page(ctx, &name, lobby, &games, &settings, focus.0, &mut clicks);
            return Ok(());
        }
        OnlineView::Leaders(game) => {
            people_view::draw_leaders(ctx, game, lobby, &games, &settings, focus.0, &mut clicks);
            return Ok(());
        }
        OnlineView::Lobby => {}
    }
    let mine: Vec<KeptSeat> = kept.on_server(&connection.url).cloned().collect();
    let rows = lobby.shown_rows.clone();
    let mut typed = Typed::default();
    let subtitle = "Find an opponent, watch a game, or invite a friend";
    screen_frame(ctx, "Play online", subtitle, |ui| {
        server_row(ui, lobby, &connection, &mut settings, launch.as_deref_mut());
        if let Some(invite) = lobby.invite.clone() {
            let shown =
                if invite.challenge { posted_card(ui) } else { invite_card(ui, &invite, &connection, &mut follow) };
            if std::mem::take(&mut lobby.show_invite) {
                shown.scroll_to_me(Some(egui::Align::Min));
            }
        }
        if let Some(message) = lobby.message.clone().or(games.problem.clone()) {
            ui.colored_label(ui.visuals().warn_fg_color, egui::RichText::new(message).size(text_size::BODY));
        }
        let mut section = "";
        for (index, row) in rows.iter().enumerate() {
            if row.section() != section {
                // Sections with nothing in them between the last one and this still say so.
                for skipped in sections_between(section, row.section()) {
                    empty_section(ui, skipped, &empty_note(skipped, &games, &connection));
                }
                section = row.section();
                if !section.is_empty() {
                    ui.add_space(8.0);
                    ui.label(egui::RichText::new(section).size(text_size::HEADING).strong());
                }
            }
            let focused = focus.0 == index;
            draw_row(ui, *row, index, focused, lobby, (&games, &player, &mine), &mut settings, &mut clicks, &mut typed);
        }
        if let Some(problem) = &kept.problem {
            ui.colored_label(ui.visuals().warn_fg_color, problem);
        }
        key_hints(ui, OPTION_CONTROLS);
    });
    if let Some((index, value)) = typed.option {
        lobby.create.set(index, value);
    }
    Ok(())
}

/// The lobby's sections in the order they show (`lobby_rows`): every one, or a section missing
/// here counts as the start and the empty ones are listed again after it.
const SECTIONS: [&str; 8] = [
    "You",
    "Quick play",
    "Open challenges",
    "Games being played",
    "My online games",
    "Post a challenge",
    "Join with a code",
    "Your account",
];

/// The sections that may be empty and come after `from` and before `to`.
fn sections_between(from: &str, to: &str) -> Vec<&'static str> {
    let at = |s: &str| SECTIONS.iter().position(|x| *x == s);
    let start = at(from).map_or(0, |i| i + 1);
    let end = at(to).unwrap_or(SECTIONS.len());
    SECTIONS[start.min(end)..end]
        .iter()
        .copied()
        .filter(|s| matches!(*s, "Open challenges" | "Games being played" | "My online games"))
        .collect()
}

/// What an empty section says.
fn empty_note(section: &str, games: &OpenGames, connection: &Connection) -> String {
    if !connection.is_open() {
        return connection_text(connection);
    }
    match section {
        "Open challenges" if !games.heard => "Asking the server…".to_string(),
        "Open challenges" => "None right now: post one below, or use quick play.".to_string(),
        "Games being played" => "None right now.".to_string(),
        _ => "None yet: accept or post a challenge.".to_string(),
    }
}

fn empty_section(ui: &mut egui::Ui, heading: &str, note: &str) {
    ui.add_space(8.0);
    ui.label(egui::RichText::new(heading).size(text_size::HEADING).strong());
    ui.label(egui::RichText::new(note).weak());
}

/// The card after posting a challenge: it waits in the open list.
fn posted_card(ui: &mut egui::Ui) -> egui::Response {
    let shown = crate::app::ui::card(ui, true).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(egui::RichText::new("Your challenge is posted.").size(text_size::BODY).strong());
        ui.label(
            egui::RichText::new(
                "It waits in the open challenges until someone accepts it (for days if need be); the board opens then. Select it in the list to withdraw it.",
            )
            .size(text_size::SMALL),
        );
    });
    ui.add_space(8.0);
    shown.response
}

#[allow(clippy::too_many_arguments)] // one row: its place, the screen's state and what it writes
fn draw_row(
    ui: &mut egui::Ui,
    row: LobbyRow,
    index: usize,
    focused: bool,
    lobby: &mut OnlineLobby,
    (games, player, mine): (&OpenGames, &OnlinePlayer, &[KeptSeat]),
    settings: &mut CurrentSettings,
    clicks: &mut MessageWriter<MenuClicked>,
    typed: &mut Typed,
) {
    use LobbyRow::*;
    match row {
        Name => {
            let asking = player.asking;
            text_row(
                ui,
                (index, focused),
                ("Choose a name", "3–20 letters, digits, - or _. Others see it; no e-mail needed."),
                (&mut lobby.name_text, false),
                if asking { "Asking…" } else { "Play as this name" },
                clicks,
            );
            if let Some(problem) = &player.problem {
                ui.colored_label(ui.visuals().warn_fg_color, egui::RichText::new(problem).size(text_size::BODY));
            }
        }
        LogIn => {
            let shown = card_row(ui, focused, |ui| {
                ui.label(egui::RichText::new("Have a name already? Sign in").size(18.0).strong());
                ui.horizontal_wrapped(|ui| {
                    ui.add(egui::TextEdit::singleline(&mut lobby.login_name).hint_text("name").desired_width(140.0));
                    let password = ui.add(
                        egui::TextEdit::singleline(&mut lobby.login_password)
                            .password(true)
                            .hint_text("password")
                            .desired_width(140.0),
                    );
                    let entered = password.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    if button(ui, "Sign in").clicked() || entered {
                        clicks.write(MenuClicked { index, delta: 0 });
                    }
                });
                ui.label(
                    egui::RichText::new("With the password you added on your other device.")
                        .size(text_size::SMALL)
                        .weak(),
                );
            });
            follow_focus(&shown.response, index, focused);
            ui.add_space(4.0);
        }
        MyPage => {
            let card = player.card.as_ref();
            let name = card.map_or("", |c| c.name.as_str());
            let ratings: Vec<String> = card
                .map(|c| {
                    c.ratings
                        .iter()
                        .map(|r| format!("{} {}", r.game.name(), rating_words(settings, r.rating, r.deviation)))
                        .collect()
                })
                .unwrap_or_default();
            let detail = if ratings.is_empty() || settings.0.hide_ratings {
                "Your page: your games and ratings".to_string()
            } else if ratings.iter().any(|r| r.ends_with('?')) {
                format!("{} (? provisional)", ratings.join(" · "))
            } else {
                ratings.join(" · ")
            };
            item(ui, index, focused, &format!("Playing as {name}"), &detail, clicks);
        }
        Password => {
            let has = player.card.as_ref().is_some_and(|c| c.has_password);
            let help = if player.password_set {
                "Password saved: sign in with it on another device."
            } else if has {
                "You have a password; type a new one to change it."
            } else {
                "Add one to sign in on another device and find your games there."
            };
            text_row(ui, (index, focused), ("Password", help), (&mut lobby.password_text, true), "Save", clicks);
        }
        HideRatings => {
            let value = if settings.0.hide_ratings { "Hidden" } else { "Shown" };
            let help = "Hide every rating from your own screens (yours and others').";
            value_item(ui, index, focused, ("Ratings", help), value, None, clicks);
        }
        Email => {
            let saved = player.card.as_ref().and_then(|c| c.email.clone());
            let text = lobby.email_text.get_or_insert_with(|| saved.clone().unwrap_or_default());
            let confirmed = player.card.as_ref().is_some_and(|c| c.email_confirmed);
            let help = match &saved {
                Some(address) if !confirmed => {
                    format!("Open the mail sent to {address} and confirm it: no digest goes out before.")
                }
                Some(address) => {
                    format!("A mail a day at most to {address} when games wait for you; empty it to stop.")
                }
                None => "A mail a day at most when games wait for your move (if this server sends mail).".to_string(),
            };
            text_row(ui, (index, focused), ("E-mail digest", &help), (text, false), "Save", clicks);
        }
        TurnNotices => {
            let value = match (settings.0.turn_notices, super::notices::permission_words()) {
                (false, _) => "Off".to_string(),
                (true, None) => "On".to_string(),
                (true, Some(browser)) => format!("On · {browser}"),
            };
            let help = "A notification when a game waits for your move while Stoneyard is in the background.";
            value_item(ui, index, focused, ("Your-turn notices", help), &value, None, clicks);
        }
        Vacation => {
            let card = player.card.as_ref();
            let left_days = card.map_or(0, |c| c.vacation_left_ms) / DAY_MS;
            let value = match card.and_then(|c| c.vacation_until_ms) {
                Some(until) => {
                    let days = ((until - unix_ms()).max(0) + DAY_MS - 1) / DAY_MS;
                    format!("On for {days} more days · select to come back")
                }
                None => format!("Off · {left_days} days left this year"),
            };
            let help = "Your clocks in games of a day or more a move stand still while you are away.";
            value_item(ui, index, focused, ("Vacation", help), &value, None, clicks);
        }
        QuickGame => {
            let kind = lobby.quick_game;
            value_item(
                ui,
                index,
                focused,
                ("Game", "Quick play pairs you with someone near your rating."),
                kind.name(),
                None,
                clicks,
            );
        }
        QuickPlay => {
            let (label, detail) = match &games.quick {
                QuickPlayState::Waiting(game) => (
                    format!("Looking for a {} opponent…", game.name()),
                    "Select to stop. After a minute with nobody, the computer is offered.".to_string(),
                ),
                QuickPlayState::Offered { .. } => {
                    ("Quick play again".to_string(), "Nobody came this time.".to_string())
                }
                QuickPlayState::Idle => {
                    ("Quick play".to_string(), "A rated game with the next player who comes".to_string())
                }
            };
            item(ui, index, focused, &label, &detail, clicks);
        }
        PlayComputer => {
            let (game, level) = match &games.quick {
                QuickPlayState::Offered { game, level } => (game.name(), level.clone()),
                _ => ("", String::new()),
            };
            let level = level_word(&level);
            item(
                ui,
                index,
                focused,
                &format!("Play the computer ({level}) instead"),
                &format!("Nobody came for {game} within a minute; the computer is always there."),
                clicks,
            );
        }
        Challenge(i) => {
            if let Some(challenge) = games.shown_challenges().nth(i) {
                let own = player.name().is_some_and(|n| name_key(n) == name_key(&challenge.by));
                let (title, detail) = challenge_words(challenge, own, settings);
                item(ui, index, focused, &title, &detail, clicks);
            }
        }
        OlderChallenges => {
            let shown = games.shown_challenges().count();
            let detail = format!("The {shown} newest are listed; more were posted before them.");
            item(ui, index, focused, "Older challenges", &detail, clicks);
        }
        PostGame => {
            let kind = lobby.create.kind;
            value_item(ui, index, focused, ("Game", kind.tagline), kind.name(), None, clicks);
        }
        PostOption(i) => {
            let Some(spec) = lobby.create.specs.get(i).cloned() else { return };
            let kind = lobby.create.kind;
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
                    if let Some(v) = number_item(ui, index, focused, (spec.label, spec.help), now, (min, max), clicks) {
                        typed.option = Some((i, v.to_string()));
                    }
                }
                OptionKind::Choice(_) => {
                    let words = kind.option_value_words(spec.key, &value);
                    value_item(ui, index, focused, (spec.label, spec.help), &words, None, clicks);
                }
                OptionKind::Text => {
                    let mut text = value.clone();
                    card_row(ui, focused, |ui| {
                        ui.label(egui::RichText::new(spec.label).size(18.0).strong());
                        ui.add(egui::TextEdit::singleline(&mut text).desired_width(180.0));
                    });
                    if text != value {
                        typed.option = Some((i, text));
                    }
                }
            }
        }
        PostSide => {
            let kind = lobby.create.kind;
            let words = match lobby.seat {
                SeatChoice::First => format!("You play {} and move first", kind.side_name(Side::First)),
                SeatChoice::Second => format!("You play {} and move second", kind.side_name(Side::Second)),
                SeatChoice::Random => "Decided at random".to_string(),
            };
            value_item(ui, index, focused, ("Your side", "Your opponent gets the other."), &words, None, clicks);
        }
        PostRated => {
            let value = if lobby.rated { "Rated" } else { "Casual" };
            let help = "A rated game changes both players' ratings; a casual one does not.";
            value_item(ui, index, focused, ("Rated or casual", help), value, None, clicks);
        }
        PostTime => {
            let value = match lobby.time_control() {
                None => "Untimed".to_string(),
                Some(control @ TimeControl::Live { .. }) => format!("Live {}", time_control_words(Some(&control))),
                Some(control) => time_control_words(Some(&control)),
            };
            let help = "Live: minutes each plus seconds a move; out of time loses. A day or more a move: \
                        out of time, the opponent may claim the win. Untimed suits friends.";
            value_item(ui, index, focused, ("Clock", help), &value, None, clicks);
        }
        PostTo => {
            let shown = card_row(ui, focused, |ui| {
                ui.label(egui::RichText::new("To").size(18.0).strong());
                ui.add(
                    egui::TextEdit::singleline(&mut lobby.challenge_to)
                        .hint_text("anyone (or a player's name)")
                        .desired_width(220.0),
                );
                ui.label(
                    egui::RichText::new("Leave empty for the open list; a name shows it to that player only.")
                        .size(text_size::SMALL)
                        .weak(),
                );
            });
            follow_focus(&shown.response, index, focused);
            ui.add_space(4.0);
        }
        Post => {
            let detail = if lobby.creating.is_some() && lobby.posting {
                "Asking the server…"
            } else {
                "It waits until someone accepts it"
            };
            item(ui, index, focused, "Post challenge", detail, clicks);
        }
        Invite => {
            let detail = if lobby.creating.is_some() && !lobby.posting {
                "Asking the server…"
            } else {
                "A private game: you get a code and a link to send a friend"
            };
            item(ui, index, focused, "Invite a friend with a code", detail, clicks);
        }
        Live(i) => {
            if let Some(game) = games.live.get(i) {
                let title = format!("{} · {} vs {}", game.game.name(), game.names[0], game.names[1]);
                let rated = if game.rated { "Rated" } else { "Casual" };
                item(
                    ui,
                    index,
                    focused,
                    &title,
                    &format!("{rated} · move {} · select to watch", game.plies + 1),
                    clicks,
                );
            }
        }
        Mine(j) => {
            let Some(seat) = mine.get(j) else { return };
            let summary = lobby.summaries.iter().find(|s| s.game_id == seat.game_id);
            let game = summary.map(|s| s.game).or(seat.game);
            let side = game.map_or_else(|| format!("{:?}", seat.seat), |k| k.side_name(seat.seat).to_string());
            let title = format!("{} · you play {side}", game.map_or("Online game", |k| k.name()));
            let detail = match summary {
                Some(summary) => standing(summary),
                None if lobby.listed => "Not on this server any more".to_string(),
                None => "Asking the server…".to_string(),
            };
            item(ui, index, focused, &title, &detail, clicks);
        }
        Join => join_row(ui, lobby, index, focused, clicks),
        Leaders => {
            ui.add_space(8.0);
            item(ui, index, focused, "Leaderboards", "The best rated players of each game", clicks);
        }
        Back => item(ui, index, focused, "Back", "", clicks),
        Recent(_) | Leader(_) | LeadersGame => {}
    }
}

/// An option as a challenge's line says it: "Board size 5", "Layout: Squares".
fn option_words(game: crate::games::GameKind, key: &str, value: &str) -> String {
    let label = game.option_specs().iter().find(|s| s.key.eq_ignore_ascii_case(key)).map_or(key, |s| s.label);
    format!("{label} {}", game.option_value_words(key, value))
}

/// "medium" → "Medium".
fn level_word(level: &str) -> String {
    let mut chars = level.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// A row with a text field and a button (a name, a password).
fn text_row(
    ui: &mut egui::Ui,
    (index, focused): (usize, bool),
    (label, help): (&str, &str),
    (text, secret): (&mut String, bool),
    action: &str,
    clicks: &mut MessageWriter<MenuClicked>,
) {
    let shown = card_row(ui, focused, |ui| {
        ui.label(egui::RichText::new(label).size(18.0).strong());
        ui.horizontal_wrapped(|ui| {
            let edit = ui.add(egui::TextEdit::singleline(text).password(secret).desired_width(200.0));
            let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if button(ui, action).clicked() || entered {
                clicks.write(MenuClicked { index, delta: 0 });
            }
        });
        ui.label(egui::RichText::new(help).size(text_size::SMALL).weak());
    });
    follow_focus(&shown.response, index, focused);
    ui.add_space(4.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_empty_section_is_listed_once_between_the_sections_around_it() {
        assert_eq!(sections_between("", "Quick play"), Vec::<&str>::new());
        assert_eq!(
            sections_between("Quick play", "Post a challenge"),
            ["Open challenges", "Games being played", "My online games"]
        );
        assert_eq!(sections_between("Open challenges", "My online games"), ["Games being played"]);
        // A signed-in player's lobby ends with the account's rows, then Leaderboard and Back (no
        // heading): nothing is listed again there.
        assert_eq!(sections_between("Your account", ""), Vec::<&str>::new());
        assert_eq!(sections_between("Join with a code", "Your account"), Vec::<&str>::new());
        // Every section a row of the lobby can have is known.
        use super::super::lobby_state::LobbyRow::*;
        for row in [Name, LogIn, MyPage, Password, QuickPlay, Challenge(0), Live(0), Mine(0), PostGame, Join] {
            assert!(SECTIONS.contains(&row.section()), "{}", row.section());
        }
    }
}
