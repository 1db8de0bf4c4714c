//! Ordered rule resolution: the match's commands and a chosen decision go `Intent` → `Place` →
//! `CaptureSweep` → `Cascade` → `EndCheck` in one frame (the root's `AppSystems`): the match
//! resolves the decision through the engine's phases in `Place`, and each later step passes on
//! the effects of its same-named phase as messages for `Project` and `Present`.

use super::AppSystems;
use super::match_state::{CurrentMatch, MatchCommand, NewMatch};
use super::playing::{DecisionChosen, DecisionRefused, EffectHappened, MatchChanged, Replay, TurnWarning};
use super::screen::Screen;
use crate::rules::Effects;
use crate::session::{Happened, PhasedEffects};
use bevy::prelude::*;

/// The effects of the decision being resolved this frame, phase by phase, between `Place` and
/// `EndCheck`: the match resolves the decision whole in `Place`; each later system passes on its
/// own phase's effects, so every reader sees them in the rules' order.
#[derive(Resource, Debug, Default)]
struct Resolving(Option<(usize, PhasedEffects)>);

/// The decision chosen this frame, checked, waiting for `Place`.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
struct Intent(Option<String>);

pub fn plugin(app: &mut App) {
    app.init_resource::<Resolving>().init_resource::<Intent>();
    app.add_message::<NewMatch>();
    app.add_systems(Update, start_new_match.in_set(AppSystems::NewMatch));
    app.add_systems(OnExit(Screen::Playing), |mut warning: ResMut<TurnWarning>| *warning = TurnWarning::default());
    app.add_systems(
        Update,
        (
            play_forced_decision.in_set(AppSystems::Choose),
            (apply_commands, take_intent).chain().in_set(AppSystems::Intent),
            place.in_set(AppSystems::Place),
            capture_sweep.in_set(AppSystems::CaptureSweep),
            cascade.in_set(AppSystems::Cascade),
            end_check.in_set(AppSystems::EndCheck),
        ),
    );
}

/// Puts the last match asked for this frame on the board: the one place a match is replaced.
fn start_new_match(mut asked: ResMut<Messages<NewMatch>>, mut commands: Commands) {
    if let Some(NewMatch(current)) = asked.drain().last() {
        commands.insert_resource(*current);
    }
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
    let grew = current.len() > *seen;
    *seen = current.len();
    if !grew || replay.active {
        return;
    }
    if let Some(decision) = current.forced_continuation() {
        chosen.write(DecisionChosen(decision));
    }
}

/// Carries out the match's other commands (undo, redo, resign, a replay's jump, a decision from
/// the network) in the order they came, before this frame's chosen decision.
fn apply_commands(
    mut commands: MessageReader<MatchCommand>,
    current: Option<ResMut<CurrentMatch>>,
    mut changed: MessageWriter<MatchChanged>,
) {
    let Some(mut current) = current else {
        commands.clear();
        return;
    };
    for command in commands.read() {
        match current.apply(command.clone()) {
            Ok(happened) => {
                changed.write_batch(happened.into_iter().map(MatchChanged));
            }
            Err(refusal) => current.message = Some(refusal.0),
        }
    }
}

/// Takes the first decision chosen this frame if it is legal for the acting side. A person's
/// decision that would let the opponent win at once waits for their confirmation (`TurnWarning`).
fn take_intent(
    mut chosen: MessageReader<DecisionChosen>,
    mut current: ResMut<CurrentMatch>,
    mut intent: ResMut<Intent>,
    mut refused: MessageWriter<DecisionRefused>,
    mut warning: ResMut<TurnWarning>,
) {
    intent.set_if_neq(Intent(None));
    // A warning is about one position: any change of the match answers it.
    if warning.pending.as_ref().is_some_and(|(_, _, len)| *len != current.len()) {
        warning.pending = None;
    }
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
        None if needs_warning(&current, &mut warning, &text) => {}
        None => intent.0 = Some(text),
    }
}

/// Whether `decision` is held back for a warning (and then it is, in `warning`): only a person's
/// own decision, and not once they confirmed it.
fn needs_warning(current: &CurrentMatch, warning: &mut TurnWarning, decision: &str) -> bool {
    let len = current.len();
    if warning.confirmed.take().is_some_and(|(d, at)| d == decision && at == len) {
        return false;
    }
    if !current.acting_side().is_some_and(|side| current.person_plays(side)) {
        return false;
    }
    let Some(said) = current.position().warning_before(decision) else { return false };
    warning.pending = Some((decision.to_string(), said, len));
    true
}

/// The match makes the decision; its placing effects go out now, the rest phase by phase.
fn place(
    mut current: ResMut<CurrentMatch>,
    mut intent: ResMut<Intent>,
    mut resolving: ResMut<Resolving>,
    mut out: MessageWriter<EffectHappened>,
    mut refused: MessageWriter<DecisionRefused>,
    mut changed: MessageWriter<MatchChanged>,
) {
    resolving.0 = None;
    let Some(text) = intent.0.take() else { return };
    match current.decide(&text) {
        Ok(decided) => {
            let n = decided.index + 1;
            out.write_batch(
                decided.effects.place.iter().map(|effect| EffectHappened { effect: effect.clone(), decision: n }),
            );
            resolving.0 = Some((n, decided.effects.clone()));
            changed.write(MatchChanged(Happened::Decided(decided)));
        }
        Err(refusal) => {
            current.message = Some(refusal.0);
            refused.write(DecisionRefused(text));
        }
    }
}

/// Passes on one later phase's effects of the decision being resolved.
fn forward(resolving: &Resolving, out: &mut MessageWriter<EffectHappened>, phase: fn(&PhasedEffects) -> &Effects) {
    let Some((n, effects)) = &resolving.0 else { return };
    out.write_batch(phase(effects).iter().map(|effect| EffectHappened { effect: effect.clone(), decision: *n }));
}

fn capture_sweep(resolving: Res<Resolving>, mut out: MessageWriter<EffectHappened>) {
    forward(&resolving, &mut out, |e| &e.capture_sweep);
}

fn cascade(resolving: Res<Resolving>, mut out: MessageWriter<EffectHappened>) {
    forward(&resolving, &mut out, |e| &e.cascade);
}

fn end_check(resolving: Res<Resolving>, mut out: MessageWriter<EffectHappened>) {
    forward(&resolving, &mut out, |e| &e.end_check);
}
