//! The computer opponent in the app: when the computer is to act it thinks without stalling the
//! frame (a background task natively, small slices per frame in the single-threaded browser),
//! shows that it is thinking, can be told to move now, and plays through the same `DecisionChosen`
//! path as a person.

use super::match_state::CurrentMatch;
use super::screen::Screen;
use super::turn::{DecisionChosen, TurnSystems};
use crate::ai::{AiSession, Level};
use crate::rules::Side;
use bevy::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The search in progress, if the computer is thinking.
#[derive(Resource, Default)]
pub struct Thinking {
    /// Which decision of the match it is thinking about (the history length when it started).
    for_decision: Option<usize>,
    pub side: Option<Side>,
    pub level: Option<Level>,
    /// Raised by "move now".
    pub stop: Arc<AtomicBool>,
    #[cfg(not(target_arch = "wasm32"))]
    task: Option<bevy::tasks::Task<String>>,
    #[cfg(target_arch = "wasm32")]
    session: Option<std::sync::Mutex<Box<dyn AiSession>>>,
    /// Wall-clock start, for the indicator.
    pub started: Option<web_time::Instant>,
}

impl Thinking {
    pub fn is_thinking(&self) -> bool {
        self.for_decision.is_some()
    }

    /// Asks the search to answer with what it has.
    pub fn move_now(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    fn clear(&mut self) {
        // A search thinking about a position that is gone must stop, not run out its budget.
        self.stop.store(true, Ordering::Relaxed);
        *self = Thinking::default();
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Thinking>();
    // Registered by the window plugin in the game; headless apps need it too.
    app.add_message::<bevy::window::RequestRedraw>();
    app.add_systems(OnExit(Screen::Playing), |mut t: ResMut<Thinking>| t.clear());
    app.add_systems(Update, drive_computer.in_set(TurnSystems::Intent).before(super::turn::take_intent));
}

fn drive_computer(
    current: Res<CurrentMatch>,
    mut thinking: ResMut<Thinking>,
    mut decide: MessageWriter<DecisionChosen>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let Some((side, level)) = current.computer_to_act() else {
        if thinking.is_thinking() {
            thinking.clear();
        }
        return;
    };
    let n = current.history.len();
    if thinking.for_decision != Some(n) {
        // A new decision to make (or the position changed under an old search: undo).
        thinking.clear();
        let seed = current.seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let stop = thinking.stop.clone();
        let session: Box<dyn AiSession> = match current.game.ai_session(side, level, seed, Some(stop)) {
            Ok(s) => s,
            Err(e) => {
                warn!("the computer cannot decide here: {e}");
                return;
            }
        };
        thinking.for_decision = Some(n);
        thinking.side = Some(side);
        thinking.level = Some(level);
        thinking.started = Some(web_time::Instant::now());
        #[cfg(not(target_arch = "wasm32"))]
        {
            let mut session = session;
            thinking.task = Some(bevy::tasks::AsyncComputeTaskPool::get().spawn(async move {
                while !session.think(u64::MAX) {}
                session.decision()
            }));
        }
        #[cfg(target_arch = "wasm32")]
        {
            thinking.session = Some(std::sync::Mutex::new(session));
        }
    }
    // Keep frames coming while thinking, even in reactive mode.
    redraw.write(bevy::window::RequestRedraw);
    let answer = poll(&mut thinking);
    if let Some(decision) = answer {
        if !decision.is_empty() {
            decide.write(DecisionChosen(decision));
        }
        // Wait for the next decision (the match changes this frame).
        thinking.task_done();
    }
}

impl Thinking {
    fn task_done(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.task = None;
        }
        #[cfg(target_arch = "wasm32")]
        {
            self.session = None;
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn poll(thinking: &mut Thinking) -> Option<String> {
    let task = thinking.task.as_mut()?;
    bevy::tasks::block_on(bevy::tasks::futures_lite::future::poll_once(task))
}

/// Search time per frame in the browser: a few milliseconds, then the frame goes on.
#[cfg(target_arch = "wasm32")]
const SLICE: std::time::Duration = std::time::Duration::from_millis(6);

#[cfg(target_arch = "wasm32")]
fn poll(thinking: &mut Thinking) -> Option<String> {
    let session = thinking.session.as_mut()?.get_mut().ok()?;
    let start = web_time::Instant::now();
    loop {
        // Small chunks keep the slice close to its time whatever one iteration costs.
        if session.think(16) {
            return Some(session.decision());
        }
        if start.elapsed() >= SLICE {
            return None;
        }
    }
}
