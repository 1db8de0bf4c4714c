//! The computer in the app: when the computer is to act it thinks without stalling the frame (a
//! background task natively, the page's Web Worker in the browser: `search`), shows
//! that it is thinking, can be told to move now, and plays through the same `DecisionChosen` path
//! as a person. The same search answers a person's request for a hint, and paces games where the
//! computer plays both sides so they can be watched.

mod search;
#[cfg(target_arch = "wasm32")]
mod web_worker;

use super::AppSystems;
use super::match_state::CurrentMatch;
use super::playing::{
    BoardAnimating, ComputerStatus, DecisionChosen, HintRequested, HintShown, MoveNow, Spectating, ThinkingReport,
};
use super::screen::Screen;
use crate::ai::Level;
use bevy::prelude::*;
use search::Search;

/// The computer's own search for its next decision, and its answer once found (it waits while
/// the board still animates the last move).
#[derive(Resource, Default)]
struct Thinking {
    search: Search,
    answer: Option<String>,
    /// How the last answer was found.
    report: Option<ThinkingReport>,
}

/// The search for a hint: the decision the computer would make in the person's place.
#[derive(Resource, Default)]
struct HintSearch(Search);

/// The level that gives hints: strong enough to be worth asking, quick enough to wait for.
const HINT_LEVEL: Level = Level::Medium;

pub fn plugin(app: &mut App) {
    app.init_resource::<Thinking>().init_resource::<HintSearch>();
    // Registered by the window plugin in the game; headless apps need it too.
    app.add_message::<bevy::window::RequestRedraw>();
    app.add_systems(OnExit(Screen::Playing), forget_searches);
    app.add_systems(Update, (drive_computer, drive_hint, tell_status).chain().in_set(AppSystems::Choose));
}

fn forget_searches(mut thinking: ResMut<Thinking>, mut hint: ResMut<HintSearch>, mut shown: ResMut<HintShown>) {
    thinking.search.clear();
    thinking.answer = None;
    hint.0.clear();
    *shown = HintShown::default();
}

/// Tells the other features what the computer is doing.
fn tell_status(
    thinking: Res<Thinking>,
    hint: Res<HintSearch>,
    mut status: ResMut<ComputerStatus>,
    mut shown: ResMut<HintShown>,
) {
    let since = if thinking.search.is_running() { thinking.search.started } else { None };
    status.set_if_neq(ComputerStatus { thinking_since: since, last: thinking.report });
    if shown.searching != hint.0.is_running() {
        shown.searching = hint.0.is_running();
    }
}

/// Seeds each decision's search from the match seed and the decision number.
fn decision_seed(current: &CurrentMatch, n: usize, salt: u64) -> u64 {
    current.seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn drive_computer(
    current: Res<CurrentMatch>,
    mut thinking: ResMut<Thinking>,
    spectating: Res<Spectating>,
    animating: Res<BoardAnimating>,
    mut move_now: MessageReader<MoveNow>,
    mut last_change: Local<Option<(usize, web_time::Instant)>>,
    mut decide: MessageWriter<DecisionChosen>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if move_now.read().count() > 0 {
        thinking.search.move_now();
    }
    let n = current.history.len();
    if last_change.is_none_or(|(len, _)| len != n) {
        *last_change = Some((n, web_time::Instant::now()));
    }
    let Some((side, level)) = current.computer_to_act() else {
        if thinking.search.is_running() {
            thinking.search.clear();
        }
        return;
    };
    if current.players.iter().all(Option::is_some) && thinking.search.for_decision != Some(n) {
        // Computer against computer: wait for the pace (and while paused) so people can follow.
        let waited = last_change.map_or(0.0, |(_, at)| at.elapsed().as_secs_f32());
        if spectating.paused || waited < spectating.pace {
            if !spectating.paused {
                redraw.write(bevy::window::RequestRedraw);
            }
            return;
        }
    }
    if thinking.search.for_decision != Some(n) {
        // A new decision to make (or the position changed under an old search: undo).
        thinking.answer = None;
        let seed = decision_seed(&current, n, 0);
        thinking.search.start(&current, side, level, seed);
    }
    // Keep frames coming while thinking, even in reactive mode.
    redraw.write(bevy::window::RequestRedraw);
    if let Some((decision, report)) = thinking.search.poll().filter(|(d, _)| !d.is_empty()) {
        thinking.answer = Some(decision);
        thinking.report = Some(report);
    }
    // The answer waits while the last move still animates, so the computer's move never hides it.
    if !animating.0
        && let Some(decision) = thinking.answer.take()
    {
        decide.write(DecisionChosen(decision));
    }
}

fn drive_hint(
    current: Res<CurrentMatch>,
    mut search: ResMut<HintSearch>,
    mut shown: ResMut<HintShown>,
    mut requests: MessageReader<HintRequested>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let n = current.history.len();
    if search.0.for_decision.is_some_and(|m| m != n) {
        search.0.clear();
    }
    if !requests.is_empty() {
        requests.clear();
        if let Some(side) = current.acting_side().filter(|&s| current.person_plays(s))
            && !current.is_over()
            && shown.current(&current).is_none()
            && !search.0.is_running()
        {
            let seed = decision_seed(&current, n, 0x4849_4E54);
            search.0.start(&current, side, HINT_LEVEL, seed);
        }
    }
    if search.0.is_running() {
        redraw.write(bevy::window::RequestRedraw);
        if let Some((decision, _)) = search.0.poll() {
            search.0.for_decision = None;
            if !decision.is_empty() {
                shown.suggestion = Some((n, decision));
            }
        }
    }
}
