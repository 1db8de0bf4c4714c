//! The computer reviews a game: it analyses the game's positions off the frame, several at once
//! (natively a thread per core, in the browser the page's analysis workers), fills `ReviewShown` in as
//! it goes, and keeps the finished review with the game so that reopening it costs nothing.

use super::search::AnswerAfterFrames;
use crate::ai::review::{GameReview, PositionAnalysis, ProbeJob, ReviewSettings};
use crate::app::match_state::CurrentMatch;
use crate::app::review_state::{AnalysisBoard, ReviewCommand, ReviewShown};
use crate::app::settings::SaveStore;
use crate::session::Match;
use bevy::prelude::*;

/// The seed of the app's reviews: the command line's default, so `stoneyard review` of the same
/// record prints the same review.
pub const REVIEW_SEED: u64 = 1;

/// The positions being analysed, several at once: natively one thread per core, in the browser
/// one per analysis worker of the page.
#[derive(Resource, Default)]
pub(super) struct ReviewRunner {
    running: Vec<Running>,
}

/// One position under analysis.
struct Running {
    probe: usize,
    work: Work,
}

enum Work {
    /// Thought out on the frame's thread (tests; a browser without a worker).
    Done(Result<PositionAnalysis, String>),
    #[cfg(not(target_arch = "wasm32"))]
    Thread(std::thread::JoinHandle<Result<PositionAnalysis, String>>),
    #[cfg(target_arch = "wasm32")]
    Worker(u32),
}

impl ReviewRunner {
    pub(super) fn clear(&mut self) {
        #[cfg(target_arch = "wasm32")]
        for running in &self.running {
            if let Work::Worker(id) = running.work {
                super::web_worker::forget(id);
            }
        }
        // A thread still thinking finishes its one position and its answer is dropped.
        self.running.clear();
    }

    pub(super) fn is_running(&self) -> bool {
        !self.running.is_empty()
    }

    /// How many positions may be analysed at once.
    fn capacity(inline: bool) -> usize {
        if inline {
            return 1;
        }
        #[cfg(not(target_arch = "wasm32"))]
        return crate::ai::cores();
        #[cfg(target_arch = "wasm32")]
        return super::web_worker::worker_count();
    }

    /// The first position of `review` neither analysed nor under analysis.
    fn next_probe(&self, review: &GameReview) -> Option<usize> {
        (0..review.analyses.len()).find(|&i| review.analyses[i].is_none() && !self.running.iter().any(|r| r.probe == i))
    }

    pub(super) fn start(&mut self, index: usize, job: ProbeJob, inline: bool) {
        let run = move |job: ProbeJob| job.run().map_err(|e| e.to_string());
        let work = if inline {
            Work::Done(run(job))
        } else {
            #[cfg(not(target_arch = "wasm32"))]
            {
                Work::Thread(std::thread::spawn(move || run(job)))
            }
            #[cfg(target_arch = "wasm32")]
            match super::web_worker::analyse(&job.to_json()) {
                Some(id) => Work::Worker(id),
                // Without a worker the page thinks, one position a frame.
                None => Work::Done(run(job)),
            }
        };
        self.running.push(Running { probe: index, work });
    }

    /// The analyses finished since the last call.
    pub(super) fn poll(&mut self) -> Vec<(usize, Result<PositionAnalysis, String>)> {
        let mut finished = Vec::new();
        let mut k = 0;
        while k < self.running.len() {
            match Self::poll_one(&mut self.running[k].work) {
                Some(answer) => finished.push((self.running.swap_remove(k).probe, answer)),
                None => k += 1,
            }
        }
        finished.sort_by_key(|(probe, _)| *probe);
        finished
    }

    fn poll_one(work: &mut Work) -> Option<Result<PositionAnalysis, String>> {
        match work {
            Work::Done(answer) => Some(std::mem::replace(answer, Err(String::new()))),
            #[cfg(not(target_arch = "wasm32"))]
            Work::Thread(handle) => {
                if !handle.is_finished() {
                    return None;
                }
                let Work::Thread(handle) = std::mem::replace(work, Work::Done(Err(String::new()))) else {
                    return None;
                };
                Some(handle.join().unwrap_or_else(|_| Err("the analysis stopped unexpectedly".to_string())))
            }
            #[cfg(target_arch = "wasm32")]
            Work::Worker(id) => {
                use super::web_worker::{Answer, answer};
                match answer(*id)? {
                    Answer::Analysis(text) => Some(serde_json::from_str(&text).map_err(|e| e.to_string())),
                    Answer::Failed(why) => Some(Err(why)),
                    Answer::Decision { .. } => Some(Err("the worker answered with a decision".to_string())),
                }
            }
        }
    }
}

/// The whole game of the match on the board: its decisions and those a replay has yet to show.
fn whole_game(current: &CurrentMatch) -> Match {
    let mut whole = current.session.clone();
    let total = whole.len() + whole.redo_len();
    whole.go_to(total);
    whole
}

/// Takes in the review commands: a review asked for starts once a game is on the board.
pub(super) fn take_commands(
    mut commands: MessageReader<ReviewCommand>,
    mut shown: ResMut<ReviewShown>,
    mut runner: ResMut<ReviewRunner>,
    mut board: ResMut<AnalysisBoard>,
) {
    for command in commands.read() {
        match command {
            ReviewCommand::Start => shown.requested = true,
            ReviewCommand::Close => {
                runner.clear();
                *shown = ReviewShown::default();
            }
            ReviewCommand::Analyse => board.wanted = Some(true),
            ReviewCommand::BackToGame => board.wanted = Some(false),
        }
    }
}

/// Starts the review asked for: the one kept with the game, or a new one.
pub(super) fn start_review(
    current: Option<Res<CurrentMatch>>,
    store: Res<SaveStore>,
    mut shown: ResMut<ReviewShown>,
    mut runner: ResMut<ReviewRunner>,
) {
    if !shown.requested {
        return;
    }
    let Some(current) = current else { return };
    runner.clear();
    let whole = whole_game(&current);
    let decisions: Vec<String> = whole.decisions().map(str::to_string).collect();
    let game = whole.kind().slug();
    let options = whole.start().option_pairs();
    let kept = crate::save::load_review(&store.0, game, &options, whole.start_text(), &decisions);
    *shown = match kept {
        Some(review) => ReviewShown { review: Some(review), reloaded: true, ..default() },
        None => match GameReview::plan(&whole, ReviewSettings::default_for(whole.kind(), REVIEW_SEED)) {
            Ok(review) => ReviewShown { review: Some(review), ..default() },
            Err(e) => ReviewShown { problem: Some(format!("No review: {e}.")), ..default() },
        },
    };
}

/// Analyses the review's positions one after another, and keeps the review once it is complete.
/// A review whose game is no longer the one on the board (played on from the replay) is put away.
pub(super) fn drive_review(
    current: Option<Res<CurrentMatch>>,
    inline: Option<Res<AnswerAfterFrames>>,
    mut store: ResMut<SaveStore>,
    mut shown: ResMut<ReviewShown>,
    mut runner: ResMut<ReviewRunner>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let Some(review) = shown.review.as_ref() else { return };
    let Some(current) = current else { return };
    if current.is_changed() {
        let whole = whole_game(&current);
        if !whole.decisions().eq(review.decisions.iter().map(String::as_str)) {
            runner.clear();
            *shown = ReviewShown::default();
            return;
        }
    }
    for (index, answer) in runner.poll() {
        let Some(review) = shown.review.as_mut() else { return };
        match answer.and_then(|analysis| review.record(index, analysis)) {
            Ok(()) => {
                if review.is_complete() {
                    let now = web_time::SystemTime::now()
                        .duration_since(web_time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_millis() as u64);
                    if let Err(e) = crate::save::keep_review(&mut store.0, review, now) {
                        warn!("the review could not be kept: {e}");
                    }
                }
            }
            Err(e) => {
                runner.clear();
                shown.problem = Some(format!("The review stopped: {e}"));
                return;
            }
        }
    }
    let Some(review) = shown.review.as_ref() else { return };
    let capacity = ReviewRunner::capacity(inline.is_some());
    while shown.problem.is_none()
        && runner.running.len() < capacity
        && let Some(index) = runner.next_probe(review)
        && let Some(job) = review.job(index)
    {
        runner.start(index, job, inline.is_some());
    }
    if runner.running.len() > shown.most_at_once {
        shown.most_at_once = runner.running.len();
    }
    if runner.is_running() {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// Draws the computer's preferred decisions for the position on the board (as a hint is drawn)
/// while a review is shown.
pub(super) fn show_preferred(
    current: Option<Res<CurrentMatch>>,
    shown: Res<ReviewShown>,
    mut hint: ResMut<crate::app::playing::HintShown>,
) {
    let (Some(current), Some(_)) = (current, shown.review.as_ref()) else { return };
    if !(current.is_changed() || shown.is_changed()) {
        return;
    }
    let wanted = shown.analysis_at(current.len()).filter(|a| !a.best.is_empty()).map(|a| a.best.clone());
    let now = hint.current(&current).is_some();
    match wanted {
        Some(turn) if !now || hint.turn != turn => {
            hint.suggestion = Some((current.len(), turn[0].clone()));
            hint.turn = turn;
            hint.reason = None;
        }
        None if now => {
            hint.suggestion = None;
            hint.turn.clear();
        }
        _ => {}
    }
}
