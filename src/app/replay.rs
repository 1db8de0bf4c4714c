//! Replay: step through a game move by move (keys, gamepad, buttons), auto-play, jump to any
//! move, and play on from any point as a new match. A replayed match is the ordinary
//! `CurrentMatch` with its decisions on the redo stack, so stepping is undo and redo.

use super::AppSystems;
use super::input::{Action, ActionPressed};
use super::match_state::{CurrentMatch, MatchCommand};
use super::playing::{Replay, ReplayMoves, ReplayStep};
use super::review_state::ReviewCommand;
use super::screen::Screen;
use bevy::prelude::*;

impl Replay {
    fn seconds_per_step(&self) -> f32 {
        if self.pace > 0.0 { self.pace } else { 1.0 }
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(OnExit(Screen::Playing), leave_replay);
    app.add_systems(
        Update,
        // These run every frame (not behind a run condition) so their message readers stay
        // current: a replay must not act on presses made before it opened.
        (replay_keys, auto_play, apply_steps).chain().in_set(AppSystems::Choose),
    );
}

/// A replayed game is not a match to continue: leaving the board closes it.
fn leave_replay(mut commands: Commands, mut replay: ResMut<Replay>) {
    if replay.active {
        commands.remove_resource::<CurrentMatch>();
    }
    replay.set_if_neq(Replay::default());
}

fn replay_keys(
    mut actions: MessageReader<ActionPressed>,
    mut steps: MessageWriter<ReplayStep>,
    mut review: MessageWriter<ReviewCommand>,
    mut next: ResMut<NextState<Screen>>,
    replay: Res<Replay>,
) {
    if !replay.active {
        actions.clear();
        return;
    }
    for ActionPressed(action) in actions.read() {
        let step = match action {
            Action::Back | Action::Menu => {
                next.set(Screen::Title);
                continue;
            }
            Action::Left | Action::Undo => ReplayStep::Back,
            Action::Right | Action::Redo => ReplayStep::Forward,
            Action::Up => ReplayStep::First,
            Action::Down => ReplayStep::Last,
            Action::Select | Action::Confirm => ReplayStep::ToggleAuto,
            // In a replay the computer's help is its review of the whole game.
            Action::Suggest => {
                review.write(ReviewCommand::Start);
                continue;
            }
            _ => continue,
        };
        steps.write(step);
    }
}

fn auto_play(
    mut replay: ResMut<Replay>,
    current: Res<CurrentMatch>,
    time: Res<Time>,
    mut waited: Local<f32>,
    mut steps: MessageWriter<ReplayStep>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if !replay.active || !replay.auto {
        *waited = 0.0;
        return;
    }
    if !current.can_redo() {
        replay.auto = false;
        return;
    }
    redraw.write(bevy::window::RequestRedraw);
    *waited += time.delta_secs();
    if *waited >= replay.seconds_per_step() {
        *waited = 0.0;
        steps.write(ReplayStep::Forward);
    }
}

/// Turns the replay's steps into the match's commands (a jump to a move), applied with the
/// frame's other changes in `AppSystems::Intent`.
fn apply_steps(
    mut steps: MessageReader<ReplayStep>,
    current: Option<Res<CurrentMatch>>,
    mut replay: ResMut<Replay>,
    mut whole: ResMut<ReplayMoves>,
    mut commands: MessageWriter<MatchCommand>,
) {
    let (Some(current), true) = (current, replay.active) else {
        steps.clear();
        return;
    };
    // Where the replay stands after the steps so far this frame.
    let mut at = current.len();
    let total = at + current.redo_len();
    // Steps go move by move as the record numbers them (a Gravel turn of several actions is one
    // step, a Hidden Intention attempt is one step, not its figure and square).
    let stops = whole.refresh(&current).stops();
    for step in steps.read() {
        let to = match *step {
            ReplayStep::First => 0,
            ReplayStep::Back => stops.iter().rev().copied().find(|&s| s < at).unwrap_or(0),
            ReplayStep::Forward => stops.iter().copied().find(|&s| s > at).unwrap_or(total),
            ReplayStep::Last => total,
            ReplayStep::To(n) => n.min(total),
            ReplayStep::ToggleAuto => {
                replay.auto = !replay.auto;
                if at < total {
                    continue;
                }
                0
            }
            ReplayStep::PlayOn(players) => {
                commands.write(MatchCommand::DropRedo);
                commands.write(MatchCommand::Reseat(players));
                *replay = Replay::default();
                return;
            }
        };
        commands.write(MatchCommand::GoTo(to));
        at = to;
    }
}
