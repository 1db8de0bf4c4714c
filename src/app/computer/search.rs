//! One search of the computer's, for its own decision or a hint: natively a background task; in
//! the browser the page's Web Worker (`web_worker`), or small slices per frame on the page when
//! there is no worker. Either way the same job gives the same decision.

use crate::ai::{AiSession, Level};
use crate::app::playing::ThinkingReport;
use crate::rules::Side;
use crate::session::Match;
use bevy::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where a browser search thinks.
#[cfg(target_arch = "wasm32")]
#[derive(Default)]
enum OnPage {
    #[default]
    Nowhere,
    /// In the workers, one searcher each, as decisions `ids`; their answers as they come; the
    /// session is the fallback should every worker fail.
    Workers {
        ids: Vec<u32>,
        answers: Vec<Option<super::web_worker::Answer>>,
        /// The decision's seed (its searchers' merge draws from it).
        seed: u64,
        simultaneous: bool,
        fallback: std::sync::Mutex<Box<dyn AiSession>>,
    },
    /// On the page, a slice per frame.
    Slices(std::sync::Mutex<Box<dyn AiSession>>),
}

/// One search in progress (or none).
#[derive(Default)]
pub struct Search {
    /// Which decision of the match it is about (the history length when it started).
    pub for_decision: Option<usize>,
    /// Raised by "move now", or when the position it thinks about is gone.
    stop: Arc<AtomicBool>,
    #[cfg(not(target_arch = "wasm32"))]
    task: Option<bevy::tasks::Task<(String, u64)>>,
    #[cfg(target_arch = "wasm32")]
    on_page: OnPage,
    /// Wall-clock start, for the indicator.
    pub started: Option<web_time::Instant>,
    /// Thought out on the frame's own thread (see [`AnswerAfterFrames`]): the answer, and the
    /// frames left before it is given.
    inline: Option<(u32, (String, u64))>,
}

/// The test harness's computer: it thinks to the end on the frame's own thread when its search
/// starts, and gives the answer this many frames later (a person's presses meanwhile meet a
/// thinking computer). No background thread, no clock: the same frames give the same game.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerAfterFrames(pub u32);

impl Search {
    pub fn is_running(&self) -> bool {
        self.for_decision.is_some()
    }

    /// Whether the app must keep drawing frames while this search runs: natively it looks for the
    /// background task's answer every frame (and egui's spinner turns); in the browser the page's
    /// worker wakes the app when it answers and the page turns the spinner, but without a worker
    /// the search thinks in slices, one a frame.
    pub fn needs_frames(&self) -> bool {
        if self.inline.is_some() {
            return true;
        }
        #[cfg(target_arch = "wasm32")]
        return matches!(self.on_page, OnPage::Slices(_));
        #[cfg(not(target_arch = "wasm32"))]
        return self.is_running();
    }

    /// Whether it thinks in the page's Web Workers.
    #[cfg(target_arch = "wasm32")]
    pub fn in_worker(&self) -> bool {
        matches!(self.on_page, OnPage::Workers { .. })
    }

    /// Asks the search to answer with what it has.
    pub fn move_now(&self) {
        self.stop.store(true, Ordering::Relaxed);
        #[cfg(target_arch = "wasm32")]
        if let OnPage::Workers { ids, .. } = &self.on_page {
            ids.iter().for_each(|&id| super::web_worker::move_now(id));
        }
    }

    /// Stops and forgets the search.
    pub fn clear(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        #[cfg(target_arch = "wasm32")]
        if let OnPage::Workers { ids, .. } = &self.on_page {
            ids.iter().for_each(|&id| super::web_worker::forget(id));
        }
        *self = Search::default();
    }

    /// Starts thinking for `side` about the match's next decision (number `history.len()`).
    pub fn start(&mut self, current: &Match, side: Side, level: Level, seed: u64, inline: Option<AnswerAfterFrames>) {
        self.clear();
        let session: Box<dyn AiSession> =
            match crate::ai::games::session(current.position(), side, level, seed, Some(self.stop.clone())) {
                Ok(s) => s,
                Err(e) => {
                    warn!("the computer cannot decide here: {e}");
                    return;
                }
            };
        self.for_decision = Some(current.len());
        self.started = Some(web_time::Instant::now());
        if let Some(AnswerAfterFrames(frames)) = inline {
            let mut session = session;
            while !session.think(u64::MAX) {}
            self.inline = Some((frames, (session.decision(), session.iterations())));
            return;
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let mut session = session;
            self.task = Some(bevy::tasks::AsyncComputeTaskPool::get().spawn(async move {
                while !session.think(u64::MAX) {}
                (session.decision(), session.iterations())
            }));
        }
        #[cfg(target_arch = "wasm32")]
        {
            let session = std::sync::Mutex::new(session);
            let ids = super::web_worker::think(current, side, level, seed);
            self.on_page = if ids.is_empty() {
                OnPage::Slices(session)
            } else {
                let simultaneous = current.position().to_move() == Some(crate::rules::ToMove::Both);
                let answers = ids.iter().map(|_| None).collect();
                OnPage::Workers { ids, answers, seed, simultaneous, fallback: session }
            };
        }
    }

    /// The answer and how it was found, once the search is done (then the search is over).
    pub fn poll(&mut self) -> Option<(String, ThinkingReport)> {
        if let Some((frames, answer)) = self.inline.take() {
            if frames > 0 {
                self.inline = Some((frames - 1, answer));
                return None;
            }
            let (decision, iterations) = answer;
            return Some((decision, ThinkingReport { place: "frame", iterations, millis: 0, searchers: 1 }));
        }
        let answer = self.poll_inner().map(|(decision, place, iterations, searchers)| {
            let millis = self.started.map_or(0, |t| t.elapsed().as_millis() as u64);
            (decision, ThinkingReport { place, iterations, millis, searchers })
        });
        if answer.is_some() {
            #[cfg(not(target_arch = "wasm32"))]
            {
                self.task = None;
            }
            #[cfg(target_arch = "wasm32")]
            {
                self.on_page = OnPage::Nowhere;
            }
        }
        answer
    }

    /// The decision, where it was thought about, its iterations and how many searched it.
    #[cfg(not(target_arch = "wasm32"))]
    fn poll_inner(&mut self) -> Option<(String, &'static str, u64, usize)> {
        let task = self.task.as_mut()?;
        let (decision, iterations) = bevy::tasks::block_on(bevy::tasks::futures_lite::future::poll_once(task))?;
        Some((decision, "task", iterations, 1))
    }

    #[cfg(target_arch = "wasm32")]
    fn poll_inner(&mut self) -> Option<(String, &'static str, u64, usize)> {
        use super::web_worker::{Answer, answer};
        if let OnPage::Workers { ids, answers, seed, simultaneous, .. } = &mut self.on_page {
            for (id, slot) in ids.iter().zip(answers.iter_mut()) {
                if slot.is_none() {
                    *slot = answer(*id);
                }
            }
            if answers.iter().any(Option::is_none) {
                return None;
            }
            // Every searcher has answered: their summed root visits decide, as natively on as
            // many threads; a failed worker's searcher is left out.
            let (mut visits, mut iterations, mut decisions) = (Vec::new(), 0, Vec::new());
            for answer in answers.iter_mut().filter_map(Option::take) {
                match answer {
                    Answer::Decision { decision, iterations: n, visits: v } => {
                        visits.push(v);
                        iterations += n;
                        decisions.push(decision);
                    }
                    Answer::Analysis(_) => warn!("the computer's worker answered a decision with an analysis"),
                    Answer::Failed(why) => warn!("one of the computer's workers could not think ({why})"),
                }
            }
            // One searcher's own decision is the one it would take natively (its choice may weigh
            // more than visits).
            let searchers = decisions.len();
            let merged = match searchers {
                1 => decisions.pop(),
                _ => crate::ai::job::decision_of_searchers(*seed, visits, *simultaneous)
                    .or_else(|| decisions.first().cloned()),
            };
            if let Some(decision) = merged {
                return Some((decision, "worker", iterations, searchers));
            }
            warn!("the computer thinks on the page: its workers could not");
            if let OnPage::Workers { fallback, .. } = std::mem::take(&mut self.on_page) {
                self.on_page = OnPage::Slices(fallback);
            }
        }
        let OnPage::Slices(session) = &mut self.on_page else { return None };
        let session = session.get_mut().ok()?;
        let start = web_time::Instant::now();
        loop {
            // Small chunks keep the slice close to its time whatever one iteration costs.
            if session.think(16) {
                return Some((session.decision(), "page", session.iterations(), 1));
            }
            if start.elapsed() >= SLICE {
                return None;
            }
        }
    }
}

/// Search time per frame on the page (without a worker): a few milliseconds, then the frame goes on.
#[cfg(target_arch = "wasm32")]
const SLICE: std::time::Duration = std::time::Duration::from_millis(6);
