//! The computer in the app: when the computer is to act it thinks without stalling the frame (a
//! background task natively, the page's Web Worker in the browser: `search`), shows
//! that it is thinking, can be told to move now, and plays through the same `DecisionChosen` path
//! as a person. The same search answers a person's request for a hint, and paces games where the
//! computer plays both sides so they can be watched.

mod analysis;
mod review;
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
use crate::rules::Side;
use crate::session::Match;
use bevy::prelude::*;
pub use search::AnswerAfterFrames;
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

/// The search for a hint: the whole turn the computer would play in the person's place, found a
/// decision at a time on a copy of the match (each search in the background, or the page's worker).
#[derive(Resource, Default)]
struct HintSearch {
    search: Search,
    /// The match's length the hint is for.
    for_len: usize,
    side: Option<Side>,
    seed: u64,
    /// The copy of the match the turn found so far is played on.
    on: Option<Match>,
    /// The turn's decisions found so far.
    turn: Vec<String>,
}

impl HintSearch {
    /// Looks for the turn's next decision on the copy.
    fn think_on(&mut self, inline: Option<AnswerAfterFrames>) {
        let (Some(on), Some(side)) = (self.on.as_ref(), self.side) else { return };
        let seed = crate::rules::splitmix64_nth(self.seed, self.turn.len() as u64);
        let mut search = std::mem::take(&mut self.search);
        search.start(on, side, HINT_LEVEL, seed, inline);
        self.search = search;
    }

    fn clear(&mut self) {
        self.search.clear();
        *self = HintSearch::default();
    }
}

/// The level that gives hints: strong enough to be worth asking, quick enough to wait for.
const HINT_LEVEL: Level = Level::Medium;

pub fn plugin(app: &mut App) {
    app.init_resource::<Thinking>().init_resource::<HintSearch>().init_resource::<review::ReviewRunner>();
    app.init_resource::<analysis::GameAside>().init_resource::<analysis::AnalysisRunner>();
    // Registered by the window plugin in the game; headless apps need it too.
    app.add_message::<bevy::window::RequestRedraw>();
    app.add_systems(OnExit(Screen::Playing), forget_searches);
    app.add_systems(Update, (drive_computer, drive_hint, tell_status).chain().in_set(AppSystems::Choose));
    app.add_systems(
        Update,
        (
            review::take_commands,
            analysis::swap_boards,
            review::start_review,
            review::drive_review,
            review::show_preferred,
            analysis::drive_analysis,
        )
            .chain()
            .after(AppSystems::Menus)
            .before(AppSystems::Choose),
    );
    app.add_systems(OnExit(Screen::Playing), (forget_review, analysis::forget_analysis));
    #[cfg(target_arch = "wasm32")]
    {
        app.add_systems(Update, wait_for_the_worker.after(AppSystems::Present));
    }
}

/// In a game against the computer, and while a search thinks in the page's worker, the app draws
/// no frame until the worker answers, the player does something or an animation asks for one,
/// rather than its usual one a second: while the computer thinks nothing on the canvas changes
/// (the page turns the spinner), and on a slow renderer every frame holds the page's frames up.
#[cfg(target_arch = "wasm32")]
fn wait_for_the_worker(
    thinking: Res<Thinking>,
    hint: Res<HintSearch>,
    current: Option<Res<CurrentMatch>>,
    screen: Res<State<Screen>>,
    settings: Option<ResMut<bevy::winit::WinitSettings>>,
    (mut usual, mut hooked): (Local<Option<bevy::winit::WinitSettings>>, Local<bool>),
) {
    use bevy::winit::{UpdateMode, WinitSettings};
    if !*hooked {
        // The worker's search pauses while the page's renderer lags behind the screen.
        super::frame_pacing::on_renderer_lag(web_worker::hold_back);
        *hooked = true;
    }
    if *screen.get() == Screen::Playing
        && let Some(current) = &current
    {
        // As many as the computer's level thinks on (hints, at Medium, on one).
        let kind = current.session.kind();
        let thinks_on = |level: &Option<Level>| {
            level.map_or(1, |level| crate::ai::games::searchers_for(kind, level, web_worker::worker_count()))
        };
        web_worker::warm_up(current.players.iter().map(thinks_on).max().unwrap_or(1));
    }
    let Some(mut settings) = settings else { return };
    // For the whole of a game against the computer, not only while it thinks: changing the mode
    // makes the app draw a frame at once, which at the move that gives the computer its turn was
    // drawn beside the move's own frames (the page's frames are paced to one in flight).
    let computer_plays = *screen.get() == Screen::Playing
        && current.is_some_and(|c| c.players.iter().any(Option::is_some))
        && web_worker::usable();
    let waiting = computer_plays || thinking.search.in_worker() || hint.search.in_worker();
    if waiting && usual.is_none() {
        *usual = Some(settings.clone());
        // An hour: the worker's answer, an input or a resize wakes the app long before.
        let wait = UpdateMode::reactive(std::time::Duration::from_secs(3600));
        *settings = WinitSettings { focused_mode: wait, unfocused_mode: wait };
    } else if !waiting && let Some(usual) = usual.take() {
        *settings = usual;
    }
}

fn forget_searches(mut thinking: ResMut<Thinking>, mut hint: ResMut<HintSearch>, mut shown: ResMut<HintShown>) {
    thinking.search.clear();
    thinking.answer = None;
    hint.clear();
    *shown = HintShown::default();
}

/// Leaving the board puts the review away (a kept review comes back when it is asked for again).
fn forget_review(mut runner: ResMut<review::ReviewRunner>, mut shown: ResMut<crate::app::review_state::ReviewShown>) {
    runner.clear();
    // A review asked for from a menu waits for the board; only a shown one goes.
    if !shown.requested || shown.review.is_some() {
        *shown = default();
    }
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
    if shown.searching != hint.search.is_running() {
        shown.searching = hint.search.is_running();
    }
}

/// Seeds each decision's search from the match seed and the decision number.
fn decision_seed(current: &CurrentMatch, n: usize, salt: u64) -> u64 {
    current.seed ^ (n as u64).wrapping_mul(crate::rules::GOLDEN_GAMMA) ^ salt
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn drive_computer(
    current: Res<CurrentMatch>,
    mut thinking: ResMut<Thinking>,
    spectating: Res<Spectating>,
    animating: Res<BoardAnimating>,
    mut move_now: MessageReader<MoveNow>,
    inline: Option<Res<AnswerAfterFrames>>,
    time: Res<Time>,
    mut last_change: Local<Option<(usize, f32)>>,
    mut decide: MessageWriter<DecisionChosen>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if move_now.read().count() > 0 {
        thinking.search.move_now();
    }
    let n = current.len();
    if last_change.is_none_or(|(len, _)| len != n) {
        *last_change = Some((n, time.elapsed_secs()));
    }
    let Some((side, level)) = current.computer_to_act() else {
        if thinking.search.is_running() {
            thinking.search.clear();
        }
        return;
    };
    if current.players.iter().all(Option::is_some) && thinking.search.for_decision != Some(n) {
        // Computer against computer: wait for the pace (and while paused) so people can follow.
        let waited = last_change.map_or(0.0, |(_, at)| time.elapsed_secs() - at);
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
        thinking.search.start(&current.session, side, level, seed, inline.as_deref().copied());
    }
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
    // Keep frames coming, even in reactive mode, where the search needs them, and while an answer
    // waits for the board.
    if thinking.search.needs_frames() || thinking.answer.is_some() {
        redraw.write(bevy::window::RequestRedraw);
    }
}

fn drive_hint(
    current: Res<CurrentMatch>,
    mut hint: ResMut<HintSearch>,
    mut shown: ResMut<HintShown>,
    mut requests: MessageReader<HintRequested>,
    inline: Option<Res<AnswerAfterFrames>>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let n = current.len();
    if hint.search.is_running() && hint.for_len != n {
        hint.clear();
    }
    let inline = inline.as_deref().copied();
    if !requests.is_empty() {
        requests.clear();
        if let Some(side) = current.acting_side().filter(|&s| current.person_plays(s))
            && !current.is_over()
            // A lesson answers with its own hints.
            && current.scripted.is_none()
            && shown.current(&current).is_none()
            && !hint.search.is_running()
        {
            let seed = decision_seed(&current, n, 0x4849_4E54);
            *hint = HintSearch { for_len: n, side: Some(side), seed, on: Some(current.session.clone()), ..default() };
            hint.think_on(inline);
        }
    }
    if !hint.search.is_running() {
        return;
    }
    if hint.search.needs_frames() {
        redraw.write(bevy::window::RequestRedraw);
    }
    let Some((decision, _)) = hint.search.poll() else { return };
    hint.search.for_decision = None;
    let (Some(side), Some(on)) = (hint.side, hint.on.as_mut()) else { return };
    let seat = on.seat_of(side);
    let played = !decision.is_empty() && on.decide(seat, &decision, 0).is_ok();
    let more = played && crate::ai::still_deciding(on.position(), side);
    if played {
        hint.turn.push(decision);
    }
    if more && hint.turn.len() < crate::ai::MAX_TURN_DECISIONS {
        hint.think_on(inline);
        return;
    }
    if hint.turn.is_empty() {
        // No answer, or one that does not play: no hint.
        hint.clear();
        return;
    }
    // The whole turn is found: why it is worth playing, from a dry run on the position the side
    // may know.
    let known = current.session.position_for(crate::session::Viewer::Seat(current.session.seat_of(side)));
    let reason = crate::ai::turn_reason(known.as_ref(), side, &hint.turn).ok().map(|r| r.sentence());
    let turn = std::mem::take(&mut hint.turn);
    *shown = HintShown { suggestion: turn.first().map(|d| (n, d.clone())), turn, reason, searching: false };
    hint.clear();
}
