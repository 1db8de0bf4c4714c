//! Hot-seat secrecy for simultaneous games (Hidden Intention): while one player builds a sealed
//! commitment the other looks away; between the two a hand-over screen hides the board, and the
//! move list never shows a sealed decision before both are resolved.

use super::board::fx::Tween;
use super::board::{BoardCursor, BoardState, middle_cell};
use super::input::{Action, ActionPressed};
use super::match_state::{CurrentMatch, side_label};
use super::screen::Screen;
use super::turn::TurnSystems;
use crate::rules::{Side, ToMove};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// What the players may see of the decisions made so far.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Secrecy {
    /// Decisions `0..revealed` of the history are public.
    pub revealed: usize,
    /// The side whose decision the board waited for last time.
    last_acting: Option<Side>,
    /// The public position text last time: it changes only when commitments are resolved.
    last_position: String,
    /// The board is hidden until this side's player confirms they hold the device.
    pub handover: Option<Side>,
    /// Where each player left the board cursor when the device went to the other.
    cursors: [Option<usize>; 2],
    /// The hand-over the cursors were last switched for.
    cursors_for: Option<Side>,
}

impl Secrecy {
    /// Whether decision `index` of the history may be shown.
    pub fn is_public(&self, index: usize) -> bool {
        index < self.revealed
    }
}

/// What changed since the last decision (the inputs of `update_secrecy`).
pub struct Observed<'a> {
    pub simultaneous: bool,
    /// Both sides are people on this device (only then is a hand-over needed).
    pub hot_seat: bool,
    pub acting: Option<Side>,
    pub history_len: usize,
    /// The public position text (no staged or sealed decisions in it).
    pub position: &'a str,
}

/// Recomputes who may see what after a decision (pure, for tests).
pub fn update_secrecy(s: &mut Secrecy, now: &Observed) {
    if !now.simultaneous || now.position != s.last_position {
        // Sequential play, or commitments were just resolved: everything so far is public.
        s.revealed = now.history_len;
    }
    if now.simultaneous && now.hot_seat && s.last_acting.is_some() && now.acting != s.last_acting {
        s.handover = now.acting;
    }
    if !now.simultaneous || !now.hot_seat {
        s.handover = None;
    }
    s.revealed = s.revealed.min(now.history_len);
    s.last_acting = now.acting;
    s.last_position = now.position.to_string();
}

/// Whether undo is allowed now: always in sequential games; in a simultaneous node only for the
/// acting player's own unresolved decisions, so nobody steps back into another's sealed choice.
pub fn undo_allowed(current: &CurrentMatch, secrecy: &Secrecy) -> bool {
    if !current.can_undo() {
        return false;
    }
    current.game.to_move() != Some(ToMove::Both)
        || (current.history.len() > secrecy.revealed && current.makers.last().copied() == current.acting_side())
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Secrecy>();
    app.add_systems(OnEnter(Screen::Playing), start_secrecy);
    app.add_systems(
        Update,
        (track_secrecy, keep_each_players_cursor, confirm_handover).chain().in_set(TurnSystems::Present),
    );
    app.add_systems(EguiPrimaryContextPass, draw_handover.run_if(in_state(Screen::Playing)));
}

fn start_secrecy(mut secrecy: ResMut<Secrecy>, current: Option<Res<CurrentMatch>>) {
    let Some(current) = current else { return };
    *secrecy = Secrecy {
        revealed: current.history.len(),
        last_acting: current.acting_side(),
        last_position: current.game.position_text(),
        ..Secrecy::default()
    };
}

fn track_secrecy(
    current: Res<CurrentMatch>,
    replay: Res<super::replay::Replay>,
    mut secrecy: ResMut<Secrecy>,
    state: Res<BoardState>,
    mut roots: Query<&mut Visibility>,
    animating: Query<(), With<Tween>>,
) {
    if current.is_changed() || replay.is_changed() {
        let mut s = secrecy.clone();
        let position = current.game.position_text();
        update_secrecy(
            &mut s,
            &Observed {
                simultaneous: current.game.to_move() == Some(ToMove::Both),
                // A replay shows a game already played: nothing is secret, nobody hands over.
                hot_seat: !replay.active && current.players.iter().all(Option::is_none),
                acting: current.acting_side(),
                history_len: current.history.len(),
                position: &position,
            },
        );
        secrecy.set_if_neq(s);
    }
    if let Some(root) = state.root
        && let Ok(mut v) = roots.get_mut(root)
    {
        // The board stays in view while the revealed attempt animates, then hides for the hand-over.
        let hide = secrecy.handover.is_some() && animating.is_empty();
        let want = if hide { Visibility::Hidden } else { Visibility::Inherited };
        v.set_if_neq(want);
    }
}

/// Each player of a hot-seat game has their own board cursor: at a hand-over the cursor the last
/// player left (on the square they just chose) is put away, and the next player's comes back (the
/// middle of the board the first time).
fn keep_each_players_cursor(mut secrecy: ResMut<Secrecy>, state: Res<BoardState>, mut cursor: ResMut<BoardCursor>) {
    if secrecy.handover == secrecy.cursors_for {
        return;
    }
    secrecy.cursors_for = secrecy.handover;
    let (Some(to), Some(view)) = (secrecy.handover, &state.view) else { return };
    secrecy.cursors[to.opponent().index()] = Some(cursor.index);
    cursor.index = secrecy.cursors[to.index()].filter(|&i| i < view.cells.len()).unwrap_or_else(|| middle_cell(view));
}

/// The next player confirms with Select or Confirm. Only a press made while the hand-over screen
/// already shows counts: the press that sealed the last commitment (same frame) must not also
/// dismiss the screen meant to hide the board from the next player.
fn confirm_handover(
    mut actions: MessageReader<ActionPressed>,
    mut secrecy: ResMut<Secrecy>,
    animating: Query<(), With<Tween>>,
    mut showing: Local<bool>,
) {
    let pressed = actions.read().any(|a| matches!(a.0, Action::Select | Action::Confirm));
    if secrecy.handover.is_none() || !animating.is_empty() {
        *showing = false;
    } else if *showing && pressed {
        secrecy.handover = None;
        *showing = false;
    } else {
        *showing = true;
    }
}

fn draw_handover(
    mut contexts: EguiContexts,
    mut secrecy: ResMut<Secrecy>,
    current: Option<Res<CurrentMatch>>,
    moves: Res<super::hud::MoveList>,
    animating: Query<(), With<Tween>>,
) -> Result {
    let (Some(side), Some(current)) = (secrecy.handover, current) else { return Ok(()) };
    if !animating.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let who = side_label(current.game.as_ref(), side);
    let mut ready = false;
    let mut root = super::menus::widgets::root_ui(ctx, "handover");
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() / 3.0);
            ui.label(egui::RichText::new(format!("Pass the device to {who}")).size(36.0).strong());
            ui.label(egui::RichText::new("The other player looks away while the choice is made in secret.").size(18.0));
            // The attempt just revealed (only whole attempts are listed, so nothing sealed shows).
            if let Some(last) = moves.lines.last() {
                ui.add_space(8.0);
                ui.label(egui::RichText::new(format!("Last attempt: {}", last.trim())).size(18.0).monospace());
                // The line is "  n. A|B    <attempt>" (the attempt may hold a space after a swap).
                let attempt = last.split_once("A|B").map_or(last.as_str(), |(_, a)| a.trim());
                if let Some(square) = super::labels::burned_square(attempt) {
                    ui.label(egui::RichText::new(format!("Both chose {square}: it burned, and both choose again.")));
                }
            }
            ui.add_space(16.0);
            ready = ui.button(egui::RichText::new(format!("I am {who} — show the board")).size(22.0)).clicked();
            ui.label(egui::RichText::new("Enter or A button").weak());
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

    fn observe(s: &mut Secrecy, acting: Side, len: usize, position: &str) {
        update_secrecy(
            s,
            &Observed { simultaneous: true, hot_seat: true, acting: Some(acting), history_len: len, position },
        );
    }

    #[test]
    fn sealed_decisions_stay_hidden_until_both_are_resolved() {
        let mut s = Secrecy::default();
        observe(&mut s, Side::First, 0, "p0");
        // A stages two decisions and seals: the device goes to B, nothing of A's is public.
        observe(&mut s, Side::First, 1, "p0");
        observe(&mut s, Side::Second, 2, "p0");
        assert_eq!(s.handover, Some(Side::Second));
        assert!(!s.is_public(0) && !s.is_public(1));
        // B seals: the commitments are resolved (new position), everything is public.
        s.handover = None;
        observe(&mut s, Side::Second, 3, "p0");
        observe(&mut s, Side::First, 4, "p1");
        assert!(s.is_public(3));
        assert_eq!(s.handover, Some(Side::First));
    }

    #[test]
    fn against_the_computer_there_is_no_hand_over() {
        let mut s = Secrecy::default();
        update_secrecy(
            &mut s,
            &Observed {
                simultaneous: true,
                hot_seat: false,
                acting: Some(Side::Second),
                history_len: 0,
                position: "p",
            },
        );
        update_secrecy(
            &mut s,
            &Observed { simultaneous: true, hot_seat: false, acting: Some(Side::First), history_len: 3, position: "p" },
        );
        assert_eq!(s.handover, None);
        assert!(!s.is_public(2));
    }

    #[test]
    fn sequential_games_show_everything() {
        let mut s = Secrecy::default();
        update_secrecy(
            &mut s,
            &Observed {
                simultaneous: false,
                hot_seat: true,
                acting: Some(Side::Second),
                history_len: 5,
                position: "x",
            },
        );
        assert!(s.is_public(4));
        assert_eq!(s.handover, None);
    }
}
