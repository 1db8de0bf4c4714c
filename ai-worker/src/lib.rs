//! The computer player of the browser build, as its own small WebAssembly module: the page's Web
//! Worker (`web/ai-worker.js`) thinks with it so the page's thread only draws.
//!
//! A [`Thinker`] is one decision: it is made from a [`DecisionJob`]'s JSON (the game's options,
//! start and moves, the side, level and seed), thinks in slices the worker interleaves with its
//! messages ("move now", "forget"), and gives the decision in the game's notation. Same job, same
//! decision as on the desktop: the levels' budgets are iterations and every random choice comes
//! from the job's seed. The worker keeps the match between decisions ([`JobReceiver`]): a job
//! brings only the decisions made since the last one.

use std::cell::RefCell;
use stoneyard_core::ai::AiSession;
use stoneyard_core::ai::job::{DecisionJob, JobReceiver};
use stoneyard_core::ai::review::ProbeJob;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The match this worker thinks about, kept from one job to the next.
    static HELD: RefCell<JobReceiver> = RefCell::new(JobReceiver::default());
}

/// One decision of the computer in progress.
#[wasm_bindgen]
pub struct Thinker {
    session: Box<dyn AiSession>,
}

#[wasm_bindgen]
impl Thinker {
    /// Opens the job (JSON of a `DecisionJob`); the error says why it cannot be thought about.
    #[wasm_bindgen(constructor)]
    pub fn new(job: &str) -> Result<Thinker, String> {
        let job = DecisionJob::from_json(job).map_err(|e| e.to_string())?;
        let session = HELD.with(|held| held.borrow_mut().session(&job, None)).map_err(|e| e.to_string())?;
        Ok(Thinker { session })
    }

    /// Thinks for at most `iterations` more iterations; `true` once the level has thought enough.
    pub fn think(&mut self, iterations: u32) -> bool {
        self.session.think(u64::from(iterations))
    }

    /// The decision now, in the game's notation (at any time: "move now" takes it early).
    pub fn decision(&mut self) -> String {
        self.session.decision()
    }

    /// Search iterations done so far.
    pub fn iterations(&self) -> f64 {
        self.session.iterations() as f64
    }

    /// Each root decision's visits so far, as JSON (`[["C3", 812], …]`): the page sums those of
    /// its workers thinking about the same decision from their own seeds.
    pub fn visits(&self) -> String {
        serde_json::to_string(&self.session.root_visits()).unwrap_or_default()
    }
}

/// Analyses one position of a reviewed game (a `ProbeJob`'s JSON) and returns the analysis as
/// JSON: the same job gives the same analysis as on the desktop.
#[wasm_bindgen]
pub fn analyse(job: &str) -> Result<String, String> {
    ProbeJob::run_json(job)
}
