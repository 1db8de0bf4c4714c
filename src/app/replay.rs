//! Replay: step through a game move by move (keys, gamepad, buttons), auto-play, jump to any
//! move, and play on from any point as a new match. A replayed match is the ordinary
//! `CurrentMatch` with its decisions on the redo stack, so stepping is undo and redo.

use super::input::{Action, ActionPressed};
use super::match_state::CurrentMatch;
use super::screen::Screen;
use super::turn::TurnSystems;
use crate::ai::Level;
use crate::save::GameRecord;
use bevy::prelude::*;

/// Whether the playing screen replays a game instead of playing it.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Replay {
    pub active: bool,
    /// Steps forward on its own.
    pub auto: bool,
    /// Seconds between automatic steps.
    pub pace: f32,
    /// Who played the recorded game (the match itself has no players while replaying).
    pub players: [Option<Level>; 2],
}

impl Replay {
    fn seconds_per_step(&self) -> f32 {
        if self.pace > 0.0 { self.pace } else { 1.0 }
    }
}

/// A replay command from a key, a button or a test.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayStep {
    First,
    Back,
    Forward,
    Last,
    /// Show the position after this many decisions.
    To(usize),
    ToggleAuto,
    /// Leave the replay: play on from the position shown, with these players.
    PlayOn([Option<Level>; 2]),
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Replay>();
    app.add_message::<ReplayStep>();
    app.add_systems(OnExit(Screen::Playing), leave_replay);
    app.add_systems(
        Update,
        // These run every frame (not behind a run condition) so their message readers stay
        // current: a replay must not act on presses made before it opened.
        (replay_keys, auto_play, apply_steps).chain().in_set(TurnSystems::Intent).before(super::turn::take_intent),
    );
}

/// A replayed game is not a match to continue: leaving the board closes it.
fn leave_replay(mut commands: Commands, mut replay: ResMut<Replay>) {
    if replay.active {
        commands.remove_resource::<CurrentMatch>();
    }
    *replay = Replay::default();
}

/// The match a record describes, at its last move, with its players and seed; an illegal move is
/// reported with its number.
pub fn match_from_record(record: &GameRecord) -> Result<CurrentMatch, String> {
    let start = record.replay(Some(0)).map_err(|e| e.to_string())?;
    let mut current = CurrentMatch::new(start);
    current.seed = record.seed;
    current.started_unix = record.started_unix;
    current.start_text = record.start.clone();
    let level = |p: &crate::save::Player| match p {
        crate::save::Player::Human => None,
        crate::save::Player::Computer(l) => l.parse().ok(),
    };
    current.players = [level(&record.players[0]), level(&record.players[1])];
    for (i, m) in record.moves.iter().enumerate() {
        let before = current.game.clone_box();
        let maker = current.acting_side().unwrap_or(crate::rules::Side::First);
        let effects =
            current.game.play_decision(&m.decision).map_err(|e| format!("move {} ('{}'): {e}", i + 1, m.decision))?;
        current.push_undo(before, &m.decision, maker, &effects);
    }
    // The record's own times, not the moment it was opened.
    current.times = record.moves.iter().map(|m| m.at_ms).collect();
    Ok(current)
}

/// Opens `record` as a match at its last move, ready to be replayed (nobody plays while it is).
pub fn open_record(record: &GameRecord) -> Result<(CurrentMatch, Replay), String> {
    let mut current = match_from_record(record)?;
    let players = std::mem::take(&mut current.players);
    Ok((current, Replay { active: true, auto: false, pace: 1.0, players }))
}

/// Turns the current match into a replay of itself (from the game-over panel).
pub fn replay_current(current: &mut CurrentMatch) -> Replay {
    let replay = Replay { active: true, auto: false, pace: 1.0, players: current.players };
    current.players = [None, None];
    replay
}

fn replay_keys(
    mut actions: MessageReader<ActionPressed>,
    mut steps: MessageWriter<ReplayStep>,
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

fn apply_steps(
    mut steps: MessageReader<ReplayStep>,
    current: Option<ResMut<CurrentMatch>>,
    mut replay: ResMut<Replay>,
) {
    let (Some(mut current), true) = (current, replay.active) else {
        steps.clear();
        return;
    };
    for step in steps.read() {
        let at = current.history.len();
        let total = at + current.redo_len();
        match *step {
            ReplayStep::First => current.go_to(0),
            ReplayStep::Back => current.go_to(at.saturating_sub(1)),
            ReplayStep::Forward => current.go_to(at + 1),
            ReplayStep::Last => current.go_to(total),
            ReplayStep::To(n) => current.go_to(n),
            ReplayStep::ToggleAuto => {
                if !current.can_redo() {
                    current.go_to(0);
                }
                replay.auto = !replay.auto;
            }
            ReplayStep::PlayOn(players) => {
                current.drop_redo();
                current.players = players;
                *replay = Replay::default();
                return;
            }
        }
    }
}
