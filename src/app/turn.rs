//! Ordered rule resolution: a chosen decision goes `Intent` → `Place` → `CaptureSweep` → `Cascade`
//! → `EndCheck` in one frame (the root's `AppSystems`), each rules step calling the same-named
//! phase of the current game and writing its effects as messages for `Project` and `Present`.

use super::AppSystems;
use super::match_state::CurrentMatch;
use super::playing::{DecisionChosen, DecisionRefused, EffectHappened, Replay};
use crate::games::DynGame;
use crate::rules::{Effects, Side};
use bevy::prelude::*;

/// The decision being resolved this frame, between `Intent` and `EndCheck`.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
struct Resolving(Option<String>);

pub fn plugin(app: &mut App) {
    app.init_resource::<Resolving>();
    app.add_systems(
        Update,
        (
            play_forced_decision.in_set(AppSystems::Choose),
            take_intent.in_set(AppSystems::Intent),
            place.in_set(AppSystems::Place),
            capture_sweep.in_set(AppSystems::CaptureSweep),
            cascade.in_set(AppSystems::Cascade),
            end_check.in_set(AppSystems::EndCheck),
        ),
    );
}

/// After a person's decision leaves them a single decision that names no space (Gravel's "end"
/// once no action is allowed), the board plays it: no second press for what cannot be otherwise.
/// Only when the history grew, so a step back with undo or in a replay is left alone.
fn play_forced_decision(
    current: Option<Res<CurrentMatch>>,
    replay: Res<Replay>,
    mut seen: Local<usize>,
    mut chosen: MessageWriter<DecisionChosen>,
) {
    let Some(current) = current else { return };
    let grew = current.history.len() > *seen;
    *seen = current.history.len();
    if !grew || replay.active {
        return;
    }
    if let Some(decision) = current.forced_continuation() {
        chosen.write(DecisionChosen(decision));
    }
}

/// Takes the first decision chosen this frame if it is legal for the acting side.
fn take_intent(
    mut chosen: MessageReader<DecisionChosen>,
    mut current: ResMut<CurrentMatch>,
    mut resolving: ResMut<Resolving>,
    mut refused: MessageWriter<DecisionRefused>,
) {
    resolving.set_if_neq(Resolving(None));
    // One decision per frame: later ones in the same frame were made against a stale board.
    let Some(DecisionChosen(text)) = chosen.read().next().cloned() else { return };
    chosen.clear();
    let refusal = if current.is_over() {
        Some("The game is over.".to_string())
    } else if !current.decisions_now().contains(&text) {
        Some(format!("'{text}' is not legal now."))
    } else {
        None
    };
    match refusal {
        Some(why) => {
            current.message = Some(why);
            refused.write(DecisionRefused(text));
        }
        None => resolving.0 = Some(text),
    }
}

fn place(
    mut current: ResMut<CurrentMatch>,
    mut resolving: ResMut<Resolving>,
    mut out: MessageWriter<EffectHappened>,
    mut refused: MessageWriter<DecisionRefused>,
) {
    let Some(text) = resolving.0.clone() else { return };
    let before = current.game.clone_box();
    let maker = current.acting_side().unwrap_or(Side::First);
    match current.game.phase_place(&text) {
        Ok(effects) => {
            current.push_undo(before, &text, maker, &effects);
            let n = current.history.len();
            out.write_batch(effects.into_iter().map(|effect| EffectHappened { effect, decision: n }));
        }
        Err(e) => {
            current.game = before;
            current.message = Some(e.to_string());
            resolving.0 = None;
            refused.write(DecisionRefused(text));
        }
    }
}

/// Runs one later phase of the decision being resolved and forwards its effects. The match is
/// only touched (and so only marked changed) while a decision is being resolved.
fn run_phase(
    current: &mut ResMut<CurrentMatch>,
    resolving: &Resolving,
    out: &mut MessageWriter<EffectHappened>,
    phase: fn(&mut dyn DynGame) -> Effects,
) {
    if resolving.0.is_none() {
        return;
    }
    let effects = phase(current.game.as_mut());
    let n = current.history.len();
    out.write_batch(effects.into_iter().map(|effect| EffectHappened { effect, decision: n }));
}

fn capture_sweep(mut current: ResMut<CurrentMatch>, resolving: Res<Resolving>, mut out: MessageWriter<EffectHappened>) {
    run_phase(&mut current, &resolving, &mut out, |g| g.phase_capture_sweep());
}

fn cascade(mut current: ResMut<CurrentMatch>, resolving: Res<Resolving>, mut out: MessageWriter<EffectHappened>) {
    run_phase(&mut current, &resolving, &mut out, |g| g.phase_cascade());
}

fn end_check(mut current: ResMut<CurrentMatch>, resolving: Res<Resolving>, mut out: MessageWriter<EffectHappened>) {
    run_phase(&mut current, &resolving, &mut out, |g| g.phase_end_check());
}
