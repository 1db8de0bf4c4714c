//! Hot-seat secrecy for simultaneous games (Hidden Intention): while one player builds a sealed
//! commitment the other looks away; between the two a hand-over screen hides the board, and the
//! move list never shows a sealed decision before both are resolved. Keeps `playing::Secrecy`.

use super::AppSystems;
use super::input::{Action, ActionPressed};
use super::match_state::{CurrentMatch, side_label};
use super::playing::{BoardAnimating, EventLog, MoveList, Replay, Secrecy};
use super::screen::Screen;
use super::ui::root_ui;
use crate::rules::{EffectKind, Side, ToMove};
use crate::session::Viewer;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// What the secrecy was last computed from.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
struct Tracker {
    /// The side whose decision the board waited for last time.
    last_acting: Option<Side>,
}

/// What changed since the last decision (the inputs of `update_secrecy`).
struct Observed {
    simultaneous: bool,
    /// Both sides are people on this device (only then is a hand-over needed).
    hot_seat: bool,
    acting: Option<Side>,
    /// The decisions anyone may see (the match's visibility rule, for a spectator).
    public: usize,
}

/// Recomputes who may see what after a decision (pure, for tests).
fn update_secrecy(s: &mut Secrecy, t: &mut Tracker, now: &Observed) {
    s.revealed = now.public;
    if now.simultaneous && now.hot_seat && t.last_acting.is_some() && now.acting != t.last_acting {
        s.handover = now.acting;
    }
    if !now.simultaneous || !now.hot_seat {
        s.handover = None;
    }
    t.last_acting = now.acting;
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Tracker>();
    app.add_systems(OnEnter(Screen::Playing), start_secrecy);
    app.add_systems(Update, track_secrecy.in_set(AppSystems::Project));
    app.add_systems(Update, confirm_handover.in_set(AppSystems::Present));
    app.add_systems(EguiPrimaryContextPass, draw_handover.run_if(in_state(Screen::Playing)));
}

/// On entering the board: what is public so far, and, in a hot-seat game of secret choices, the
/// hand-over first (a game continued later may hold a sealed choice, and whoever holds the device
/// must say who they are before the board shows).
fn start_secrecy(
    mut secrecy: ResMut<Secrecy>,
    mut tracker: ResMut<Tracker>,
    current: Option<Res<CurrentMatch>>,
    replay: Res<Replay>,
) {
    let Some(current) = current else { return };
    let simultaneous = current.position().to_move() == Some(ToMove::Both);
    let handover =
        (simultaneous && hot_seat(&current, &replay) && !current.is_empty()).then(|| current.acting_side()).flatten();
    *secrecy = Secrecy { revealed: current.session.public_len(Viewer::Spectator), handover };
    *tracker = Tracker { last_acting: current.acting_side() };
}

/// Whether both sides are people at this device: not the computer, a remote player or a lesson's
/// scripted side (a lesson has one learner: nobody to hand over to), and not a replay (a game
/// already played).
fn hot_seat(current: &CurrentMatch, replay: &Replay) -> bool {
    !replay.active
        && current.players.iter().all(Option::is_none)
        && current.remote.is_none()
        && current.scripted.is_none()
}

fn track_secrecy(
    current: Res<CurrentMatch>,
    replay: Res<Replay>,
    mut secrecy: ResMut<Secrecy>,
    mut tracker: ResMut<Tracker>,
) {
    if !current.is_changed() && !replay.is_changed() {
        return;
    }
    let (mut s, mut t) = (secrecy.clone(), tracker.clone());
    update_secrecy(
        &mut s,
        &mut t,
        &Observed {
            simultaneous: current.position().to_move() == Some(ToMove::Both),
            hot_seat: hot_seat(&current, &replay),
            acting: current.acting_side(),
            public: current.session.public_len(Viewer::Spectator),
        },
    );
    secrecy.set_if_neq(s);
    tracker.set_if_neq(t);
}

/// The next player confirms with Select or Confirm; Esc (or Menu) leaves for the title, the game
/// kept. Only a press made while the hand-over screen
/// already shows counts: the press that sealed the last commitment (same frame) must not also
/// dismiss the screen meant to hide the board from the next player.
fn confirm_handover(
    mut actions: MessageReader<ActionPressed>,
    mut secrecy: ResMut<Secrecy>,
    animating: Res<BoardAnimating>,
    mut showing: Local<bool>,
    mut next: ResMut<NextState<Screen>>,
) {
    let pressed: Vec<Action> = actions.read().map(|a| a.0).collect();
    if secrecy.handover.is_some() && pressed.iter().any(|a| matches!(a, Action::Back | Action::Menu)) {
        next.set(Screen::Title);
        *showing = false;
        return;
    }
    let pressed = pressed.iter().any(|a| matches!(a, Action::Select | Action::Confirm));
    if secrecy.handover.is_none() || animating.0 {
        *showing = false;
    } else if *showing && pressed {
        secrecy.handover = None;
        *showing = false;
    } else {
        *showing = true;
    }
}

/// The square the last decision burned (both commitments named it, spec §6.6), from its effects.
fn burned_by_last_decision(current: &CurrentMatch) -> Option<String> {
    let last = current.len().checked_sub(1)?;
    let before = current.position_before(last)?;
    let effects = before.clone_box().play_decision(current.decision(last)).ok()?;
    let cell = effects.iter().find_map(|e| match e.kind {
        EffectKind::Burned { cell } => Some(cell),
        _ => None,
    })?;
    before.board_view().cells.into_iter().find(|c| c.cell == cell).map(|c| c.name)
}

fn draw_handover(
    mut contexts: EguiContexts,
    mut secrecy: ResMut<Secrecy>,
    current: Option<Res<CurrentMatch>>,
    moves: Res<MoveList>,
    events: Res<EventLog>,
    animating: Res<BoardAnimating>,
) -> Result {
    let (Some(side), Some(current)) = (secrecy.handover, current) else { return Ok(()) };
    if animating.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let who = side_label(current.position(), side);
    let mut ready = false;
    let mut root = root_ui(ctx, "handover");
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() / 3.0);
            ui.label(egui::RichText::new(format!("Pass the device to {who}")).size(36.0).strong());
            ui.label(egui::RichText::new("The other player looks away while the choice is made in secret.").size(18.0));
            // The attempt just revealed (only whole attempts are listed, so nothing sealed shows).
            if let Some(last) = moves.lines.last() {
                ui.add_space(8.0);
                let text = last.text(moves.joiner);
                ui.label(egui::RichText::new(format!("Last attempt: {}", text.trim())).size(18.0).monospace());
                if let Some(square) = burned_by_last_decision(&current) {
                    ui.label(egui::RichText::new(format!("Both chose {square}: it burned, and both choose again.")));
                }
            }
            // What the reveal did, for both players to see before the device changes hands.
            for (_, line) in events.lines.iter().filter(|(n, _)| *n == current.len()) {
                ui.label(egui::RichText::new(line).size(18.0));
            }
            ui.add_space(16.0);
            ready = ui.button(egui::RichText::new(format!("I am {who} — show the board")).size(22.0)).clicked();
            if let Some(device) = super::ui::playing_with(ui) {
                let controls = [("Enter", "A", "show the board"), ("Esc", "B", "back to the title, the game is kept")];
                ui.label(egui::RichText::new(super::ui::controls_words(device, &controls)).weak());
            }
        });
    });
    if ready {
        secrecy.handover = None;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observe((s, t): &mut (Secrecy, Tracker), acting: Side, public: usize) {
        update_secrecy(s, t, &Observed { simultaneous: true, hot_seat: true, acting: Some(acting), public });
    }

    #[test]
    fn the_device_changes_hands_when_the_other_player_is_to_choose() {
        let mut st = (Secrecy::default(), Tracker::default());
        observe(&mut st, Side::First, 0);
        // A stages two decisions and seals: the device goes to B, nothing of A's is public.
        observe(&mut st, Side::First, 0);
        observe(&mut st, Side::Second, 0);
        assert_eq!(st.0.handover, Some(Side::Second));
        assert!(!st.0.is_public(0) && !st.0.is_public(1));
        // B seals: the match reveals both (everything public), and the device goes back to A.
        st.0.handover = None;
        observe(&mut st, Side::Second, 0);
        observe(&mut st, Side::First, 4);
        assert!(st.0.is_public(3));
        assert_eq!(st.0.handover, Some(Side::First));
    }

    #[test]
    fn against_the_computer_there_is_no_hand_over() {
        let (mut s, mut t) = (Secrecy::default(), Tracker::default());
        for (acting, public) in [(Side::Second, 0), (Side::First, 0)] {
            update_secrecy(
                &mut s,
                &mut t,
                &Observed { simultaneous: true, hot_seat: false, acting: Some(acting), public },
            );
        }
        assert_eq!(s.handover, None);
        assert!(!s.is_public(2));
    }

    #[test]
    fn sequential_games_show_everything_and_need_no_hand_over() {
        let (mut s, mut t) = (Secrecy::default(), Tracker::default());
        for (acting, public) in [(Side::First, 4), (Side::Second, 5)] {
            update_secrecy(
                &mut s,
                &mut t,
                &Observed { simultaneous: false, hot_seat: true, acting: Some(acting), public },
            );
        }
        assert!(s.is_public(4));
        assert_eq!(s.handover, None);
    }
}
