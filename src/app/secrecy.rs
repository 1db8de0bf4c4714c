//! Hot-seat secrecy for simultaneous games (Hidden Intention): while one player builds a sealed
//! commitment the other looks away; between the two a hand-over screen hides the board, and the
//! move list never shows a sealed decision before both are resolved.

use super::board::BoardState;
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
    /// The side whose decision the board waited for last frame.
    last_acting: Option<Side>,
    /// The board is hidden until this side's player confirms they hold the device.
    pub handover: Option<Side>,
}

impl Secrecy {
    /// Whether decision `index` of the history may be shown.
    pub fn is_public(&self, index: usize) -> bool {
        index < self.revealed
    }
}

/// Recomputes who may see what after a decision (pure, for tests).
pub fn update_secrecy(s: &mut Secrecy, simultaneous: bool, acting: Option<Side>, history_len: usize) {
    if !simultaneous {
        s.revealed = history_len;
        s.handover = None;
    } else {
        // A new acting side within a simultaneous node: the previous one sealed. When it is the
        // first side again, both commitments were resolved and everything so far is public.
        if acting != s.last_acting && s.last_acting.is_some() {
            if acting == Some(Side::First) {
                s.revealed = history_len;
            }
            s.handover = acting;
        }
        s.revealed = s.revealed.min(history_len);
    }
    s.last_acting = acting;
}

/// Whether undo is allowed now: always in sequential games; in a simultaneous node only for the
/// first player's own staged decisions, so nobody can step back into a sealed commitment.
pub fn undo_allowed(current: &CurrentMatch, secrecy: &Secrecy) -> bool {
    if !current.can_undo() {
        return false;
    }
    current.game.to_move() != Some(ToMove::Both)
        || (current.acting_side() == Some(Side::First) && current.history.len() > secrecy.revealed)
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Secrecy>();
    app.add_systems(OnEnter(Screen::Playing), start_secrecy);
    app.add_systems(Update, (track_secrecy, confirm_handover).chain().in_set(TurnSystems::Present));
    app.add_systems(EguiPrimaryContextPass, draw_handover.run_if(in_state(Screen::Playing)));
}

fn start_secrecy(mut secrecy: ResMut<Secrecy>, current: Option<Res<CurrentMatch>>) {
    let Some(current) = current else { return };
    *secrecy = Secrecy { revealed: current.history.len(), last_acting: current.acting_side(), handover: None };
}

fn track_secrecy(
    current: Res<CurrentMatch>,
    mut secrecy: ResMut<Secrecy>,
    state: Res<BoardState>,
    mut roots: Query<&mut Visibility>,
) {
    if current.is_changed() {
        let simultaneous = current.game.to_move() == Some(ToMove::Both);
        let mut s = secrecy.clone();
        update_secrecy(&mut s, simultaneous, current.acting_side(), current.history.len());
        secrecy.set_if_neq(s);
    }
    if let Some(root) = state.root {
        if let Ok(mut v) = roots.get_mut(root) {
            let want = if secrecy.handover.is_some() { Visibility::Hidden } else { Visibility::Inherited };
            v.set_if_neq(want);
        }
    }
}

fn confirm_handover(mut actions: MessageReader<ActionPressed>, mut secrecy: ResMut<Secrecy>) {
    if secrecy.handover.is_some() && actions.read().any(|a| matches!(a.0, Action::Select | Action::Confirm)) {
        secrecy.handover = None;
    }
}

fn draw_handover(
    mut contexts: EguiContexts,
    mut secrecy: ResMut<Secrecy>,
    current: Option<Res<CurrentMatch>>,
) -> Result {
    let (Some(side), Some(current)) = (secrecy.handover, current) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let who = side_label(current.game.as_ref(), side);
    let mut ready = false;
    let mut root = super::menus::widgets::root_ui(ctx, "handover");
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() / 3.0);
            ui.label(egui::RichText::new(format!("Pass the device to {who}")).size(36.0).strong());
            ui.label(egui::RichText::new("The other player looks away while the choice is made in secret.").size(18.0));
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

    #[test]
    fn sealed_decisions_stay_hidden_until_both_are_resolved() {
        let mut s = Secrecy::default();
        update_secrecy(&mut s, true, Some(Side::First), 0);
        // A stages two decisions and seals: the device goes to B, nothing of A's is public.
        update_secrecy(&mut s, true, Some(Side::First), 1);
        update_secrecy(&mut s, true, Some(Side::Second), 2);
        assert_eq!(s.handover, Some(Side::Second));
        assert!(!s.is_public(0) && !s.is_public(1));
        // B seals: both resolved, everything public, the device goes back to A.
        s.handover = None;
        update_secrecy(&mut s, true, Some(Side::Second), 3);
        update_secrecy(&mut s, true, Some(Side::First), 4);
        assert!(s.is_public(3));
        assert_eq!(s.handover, Some(Side::First));
    }

    #[test]
    fn sequential_games_show_everything() {
        let mut s = Secrecy::default();
        update_secrecy(&mut s, false, Some(Side::Second), 5);
        assert!(s.is_public(4));
        assert_eq!(s.handover, None);
    }
}
