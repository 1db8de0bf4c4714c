//! Ordered rule resolution: a chosen decision goes `Intent` → `Place` → `CaptureSweep` → `Cascade`
//! → `EndCheck` → `Project` → `Present` in one frame, each rules step calling the same-named phase
//! of the current game and writing its effects as messages.

use super::match_state::CurrentMatch;
use super::screen::Screen;
use crate::rules::Effect;
use bevy::prelude::*;

/// The chained steps of resolving one decision.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnSystems {
    Intent,
    Place,
    CaptureSweep,
    Cascade,
    EndCheck,
    /// Board entities follow the position.
    Project,
    /// Animation, sound, HUD.
    Present,
}

/// A player (board, HUD, AI or test) chose this atomic decision, in the game's notation.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct DecisionChosen(pub String);

/// One effect of the decision resolved this frame, in order.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct EffectHappened {
    pub effect: Effect,
    /// Which decision of the match (1-based) caused it.
    pub decision: usize,
}

/// A decision was refused (for the "illegal" sound and the HUD message).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct DecisionRefused(pub String);

/// The decision being resolved this frame, between `Intent` and `EndCheck`.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Resolving(pub Option<String>);

pub fn plugin(app: &mut App) {
    app.add_message::<DecisionChosen>().add_message::<EffectHappened>().add_message::<DecisionRefused>();
    app.init_resource::<Resolving>();
    app.configure_sets(
        Update,
        (
            TurnSystems::Intent,
            TurnSystems::Place,
            TurnSystems::CaptureSweep,
            TurnSystems::Cascade,
            TurnSystems::EndCheck,
            TurnSystems::Project,
            TurnSystems::Present,
        )
            .chain()
            .after(super::AppSystems::Update)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<CurrentMatch>)),
    );
    app.add_systems(
        Update,
        (
            take_intent.in_set(TurnSystems::Intent),
            place.in_set(TurnSystems::Place),
            capture_sweep.in_set(TurnSystems::CaptureSweep),
            cascade.in_set(TurnSystems::Cascade),
            end_check_system.in_set(TurnSystems::EndCheck),
        ),
    );
}

/// Takes the first decision chosen this frame if it is legal for the acting side.
pub fn take_intent(
    mut chosen: MessageReader<DecisionChosen>,
    mut current: ResMut<CurrentMatch>,
    mut resolving: ResMut<Resolving>,
    mut refused: MessageWriter<DecisionRefused>,
) {
    resolving.0 = None;
    // One decision per frame: later ones in the same frame were made against a stale board.
    let Some(DecisionChosen(text)) = chosen.read().next().cloned() else { return };
    chosen.clear();
    if current.is_over() {
        current.message = Some("The game is over.".to_string());
        refused.write(DecisionRefused(text));
        return;
    }
    if !current.decisions_now().contains(&text) {
        current.message = Some(format!("'{text}' is not legal now."));
        refused.write(DecisionRefused(text));
        return;
    }
    resolving.0 = Some(text);
}

fn place(
    mut current: ResMut<CurrentMatch>,
    mut resolving: ResMut<Resolving>,
    mut out: MessageWriter<EffectHappened>,
    mut refused: MessageWriter<DecisionRefused>,
) {
    let Some(text) = resolving.0.clone() else { return };
    let before = current.game.clone_box();
    let maker = current.acting_side().unwrap_or(crate::rules::Side::First);
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

/// Runs one later phase of the decision being resolved and forwards its effects.
fn run_phase(
    current: &mut CurrentMatch,
    resolving: &Resolving,
    out: &mut MessageWriter<EffectHappened>,
    phase: fn(&mut dyn crate::games::DynGame) -> crate::rules::Effects,
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

pub fn end_check_system(
    mut current: ResMut<CurrentMatch>,
    resolving: Res<Resolving>,
    mut out: MessageWriter<EffectHappened>,
) {
    run_phase(&mut current, &resolving, &mut out, |g| g.phase_end_check());
}
