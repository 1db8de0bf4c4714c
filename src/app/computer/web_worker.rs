//! The page's Web Workers for the computer (`web/ai-worker.js`, running the Bevy-free rules and AI
//! of `ai-worker/`): the first started on first use, more when Hard thinks (each worker one
//! searcher of the decision, from its own seed) or a review analyses several positions at once;
//! sent the decisions to think about, their answers kept until the search asks for them. Each
//! worker keeps the match between decisions and is sent only the decisions it lacks (a
//! `JobFeed` per worker). If the worker cannot start or stops working, [`think`] says so and the
//! search thinks on the page instead.

// The app draws no frames while it waits for the worker: its answers wake it.
use crate::ai::Level;
use crate::ai::job::JobFeed;
use crate::app::frame_pacing::wake_app;
use crate::rules::Side;
use crate::session::Match;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

/// What the worker answered about one decision.
pub enum Answer {
    Decision {
        decision: String,
        iterations: u64,
        /// Each root decision's visits (summed over the workers thinking about one decision).
        visits: Vec<(String, u64)>,
    },
    /// A reviewed position's analysis (a `PositionAnalysis`'s JSON).
    Analysis(String),
    /// It could not think about it (the search then thinks on the page).
    Failed(String),
}

/// Answers by decision id, and whether the worker is out of order.
#[derive(Default)]
struct Inbox {
    answers: HashMap<u32, Answer>,
    broken: bool,
}

/// The most workers the computer thinks or a review analyses on (each holds its own copy of the
/// engine).
const MAX_WORKERS: usize = 4;

/// The page's workers: the first started on first use, the others when Hard or a review first
/// wants them. Their answers share one inbox.
struct Bridge {
    workers: Vec<Worker>,
    /// What each worker holds of the match (by the workers' order).
    feeds: Vec<JobFeed>,
    inbox: Rc<RefCell<Inbox>>,
    next_id: u32,
    /// The worker each analysis under way was sent to.
    analyses: HashMap<u32, usize>,
    /// The worker each decision under way was sent to.
    thinking: HashMap<u32, usize>,
}

struct Worker {
    worker: web_sys::Worker,
    // Kept alive as long as the worker: its message and error handlers.
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

thread_local! {
    /// The page's workers: `None` before the first decision, `Some(None)` when none can start.
    static BRIDGE: RefCell<Option<Option<Bridge>>> = const { RefCell::new(None) };
}

fn start() -> Option<Bridge> {
    let inbox = Rc::new(RefCell::new(Inbox::default()));
    let worker = start_worker(&inbox)?;
    Some(Bridge {
        workers: vec![worker],
        feeds: vec![JobFeed::default()],
        inbox,
        next_id: 0,
        analyses: HashMap::new(),
        thinking: HashMap::new(),
    })
}

fn start_worker(inbox: &Rc<RefCell<Inbox>>) -> Option<Worker> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options("./ai-worker.js", &options)
        .map_err(|e| bevy::log::warn!("the computer thinks on the page: no Web Worker ({e:?})"))
        .ok()?;
    let on_message = {
        let inbox = inbox.clone();
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let message: Value =
                event.data().as_string().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
            let id = message["id"].as_u64().and_then(|id| u32::try_from(id).ok());
            let text = |key: &str| message[key].as_str().unwrap_or_default().to_string();
            let mut inbox = inbox.borrow_mut();
            match (message["kind"].as_str(), id) {
                (Some("decision"), Some(id)) => {
                    let iterations = message["iterations"].as_f64().unwrap_or(0.0) as u64;
                    let visits = serde_json::from_str(&text("visits")).unwrap_or_default();
                    inbox.answers.insert(id, Answer::Decision { decision: text("decision"), iterations, visits });
                }
                (Some("analysis"), Some(id)) => {
                    inbox.answers.insert(id, Answer::Analysis(text("analysis")));
                }
                (Some("failed"), Some(id)) => {
                    inbox.answers.insert(id, Answer::Failed(text("error")));
                }
                _ => {
                    bevy::log::warn!("the computer thinks on the page: its worker says {message}");
                    inbox.broken = true;
                }
            }
            drop(inbox);
            wake_app();
        })
    };
    let on_error = {
        let inbox = inbox.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |_event: web_sys::Event| {
            bevy::log::warn!("the computer thinks on the page: its worker failed to load or stopped");
            inbox.borrow_mut().broken = true;
            wake_app();
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Some(Worker { worker, _on_message: on_message, _on_error: on_error })
}

/// Runs `f` on the workers, starting the first if needed; `None` when there is no working worker.
fn with_bridge<R>(f: impl FnOnce(&mut Bridge) -> R) -> Option<R> {
    BRIDGE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let bridge = slot.get_or_insert_with(start).as_mut()?;
        if bridge.inbox.borrow().broken {
            return None;
        }
        Some(f(bridge))
    })
}

fn send(worker: &Worker, message: Value) -> bool {
    worker.worker.post_message(&message.to_string().into()).is_ok()
}

/// How many workers the computer thinks on (Hard) and a review analyses on at once: one per core
/// but one, which the page keeps for its own frames, and at most [`MAX_WORKERS`].
pub fn worker_count() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency()) as usize;
    cores.saturating_sub(1).clamp(1, MAX_WORKERS)
}

/// Starts `workers` workers (at most [`worker_count`]) ahead of the first decision (a game begins:
/// the computer or a hint will want them): their module then loads and compiles beside the
/// board's first frames, not beside the first move's animation, where on a slow machine it held
/// the page's frames up for 100-200 ms.
pub fn warm_up(workers: usize) {
    with_bridge(|bridge| grow(bridge, workers.min(worker_count())));
}

/// Starts workers until there are `workers` (fewer if one cannot start); how many there are.
fn grow(bridge: &mut Bridge, workers: usize) -> usize {
    while bridge.workers.len() < workers {
        let Some(worker) = start_worker(&bridge.inbox) else { break };
        bridge.workers.push(worker);
        bridge.feeds.push(JobFeed::default());
    }
    bridge.workers.len()
}

/// Holds the worker's thinking back while the page's renderer lags (`true`: it pauses between
/// two slices of its search, for half a second at most) or lets it go on (`false`). On a machine
/// that draws the board in software the two share the processor, and each frame took twice as
/// long beside the search. Only a running worker is told; none is started for it.
pub fn hold_back(hold: bool) {
    BRIDGE.with(|cell| {
        if let Some(Some(bridge)) = cell.borrow().as_ref() {
            let message = if hold { r#"{"kind":"pause","ms":500}"# } else { r#"{"kind":"resume"}"# };
            for worker in &bridge.workers {
                let _ = worker.worker.post_message(&message.into());
            }
        }
    });
}

/// Whether decisions go to the worker: it has not failed to start, nor stopped working.
pub fn usable() -> bool {
    BRIDGE.with(|cell| match &*cell.borrow() {
        None => true,
        Some(None) => false,
        Some(Some(bridge)) => !bridge.inbox.borrow().broken,
    })
}

/// Sends `side`'s decision in `current` to think about to as many workers as it takes (Hard:
/// [`worker_count`], each one searcher from its own seed, `DecisionJob::for_searcher`), each
/// with only the decisions it lacks; an id per searcher, in order, or none without a worker.
pub fn think(current: &Match, side: Side, level: Level, seed: u64) -> Vec<u32> {
    with_bridge(|bridge| {
        let wanted = crate::ai::games::searchers_for(current.kind(), level, worker_count());
        let searchers = grow(bridge, wanted).min(wanted);
        let mut ids = Vec::with_capacity(searchers);
        for searcher in 0..searchers {
            bridge.next_id = bridge.next_id.wrapping_add(1);
            let id = bridge.next_id;
            let job_json = bridge.feeds[searcher].job(current, side, level, seed).for_searcher(searcher).to_json();
            if !send(&bridge.workers[searcher], json!({ "kind": "think", "id": id, "job": job_json })) {
                // Whether it got the job is not known: the next job brings every decision.
                bridge.feeds[searcher].reset();
                break;
            }
            bridge.thinking.insert(id, searcher);
            ids.push(id);
        }
        ids
    })
    .unwrap_or_default()
}

/// Sends a reviewed position to analyse (a `ProbeJob`'s JSON) to the worker with the fewest
/// positions under way, starting another while there are fewer than [`worker_count`]; its id,
/// or `None` without a worker.
pub fn analyse(job_json: &str) -> Option<u32> {
    with_bridge(|bridge| {
        bridge.next_id = bridge.next_id.wrapping_add(1);
        let id = bridge.next_id;
        let load = |bridge: &Bridge, w: usize| bridge.analyses.values().filter(|&&on| on == w).count();
        let mut chosen = (0..bridge.workers.len()).min_by_key(|&w| load(bridge, w)).unwrap_or(0);
        if load(bridge, chosen) > 0
            && bridge.workers.len() < worker_count()
            && let Some(worker) = start_worker(&bridge.inbox)
        {
            bridge.workers.push(worker);
            chosen = bridge.workers.len() - 1;
        }
        let sent = send(&bridge.workers[chosen], json!({ "kind": "analyse", "id": id, "job": job_json }));
        sent.then(|| {
            bridge.analyses.insert(id, chosen);
            id
        })
    })
    .flatten()
}

/// Asks for the decision now.
pub fn move_now(id: u32) {
    with_bridge(|bridge| {
        if let Some(&worker) = bridge.thinking.get(&id) {
            send(&bridge.workers[worker], json!({ "kind": "move-now", "id": id }));
        }
    });
}

/// Drops a decision or analysis nobody waits for any more.
pub fn forget(id: u32) {
    with_bridge(|bridge| {
        // An analysis runs whole once begun: only its answer is dropped.
        bridge.analyses.remove(&id);
        if let Some(worker) = bridge.thinking.remove(&id) {
            send(&bridge.workers[worker], json!({ "kind": "forget", "id": id }));
        }
        bridge.inbox.borrow_mut().answers.remove(&id);
    });
}

/// The worker's answer about decision `id`, once; a failure when the worker stopped working.
pub fn answer(id: u32) -> Option<Answer> {
    BRIDGE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let Some(Some(bridge)) = slot.as_mut() else {
            return Some(Answer::Failed("no worker".into()));
        };
        let mut inbox = bridge.inbox.borrow_mut();
        let answer = match inbox.answers.remove(&id) {
            Some(answer) => answer,
            None if inbox.broken => Answer::Failed("the worker stopped".into()),
            None => return None,
        };
        drop(inbox);
        bridge.analyses.remove(&id);
        // A worker that could not think about a decision may hold no match now.
        if let (Some(worker), Answer::Failed(_)) = (bridge.thinking.remove(&id), &answer) {
            bridge.feeds[worker].reset();
        }
        Some(answer)
    })
}
