//! What a game's levels are made of (the search, its iterations, its playouts), apart from how
//! they run: each game's numbers sit with its knowledge (`Knowledge::CALIBRATION`), the levels
//! read them (`level`).

/// Which search a level uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Monte Carlo tree search (`mcts::Searcher`); iterations are playouts.
    Mcts,
    /// Alpha-beta (`alpha_beta::AlphaBeta`); iterations are positions visited.
    AlphaBeta,
}

/// How simulated games choose their decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutQuality {
    /// Uniformly random: the most iterations per second.
    Uniform,
    /// Takes an immediately winning decision when a few trial plays find one (fewer, better
    /// playouts).
    Decisive,
    /// The game's own playout policy (`Knowledge::playout_decision`), uniform where it has none.
    Informed,
}

/// One game's numbers for Easy, Medium and Hard.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// The search of Easy, Medium, Hard.
    pub engines: [Engine; 3],
    /// Iterations per decision for Easy, Medium, Hard (positions visited for alpha-beta).
    pub iterations: [u64; 3],
    /// How the playouts of Easy, Medium, Hard choose.
    pub playouts: [PlayoutQuality; 3],
    /// Decisions a playout of Easy, Medium, Hard makes before the game's evaluation scores it.
    pub playout_caps: [u32; 3],
    /// MCTS iterations per position when the computer reviews a game (`ai::review`), with Hard's
    /// playout policy.
    pub review_iterations: u64,
    /// Decisions a review's playout makes before the evaluation scores it: 0 scores each new
    /// leaf of the tree at once, which gives the review's win chances far less noise from one
    /// seed to another than random playouts (see `stoneyard bench --review`).
    pub review_playout_cap: u32,
}

impl Calibration {
    /// Numbers fit for small games with cheap playouts (the tests' toy games): MCTS, ten times the
    /// iterations a level, Hard's playouts take a winning decision when they see one.
    pub const GENERIC: Calibration = Calibration {
        engines: [Engine::Mcts; 3],
        iterations: [300, 3_000, 30_000],
        playouts: [PlayoutQuality::Uniform, PlayoutQuality::Uniform, PlayoutQuality::Decisive],
        playout_caps: [1_000; 3],
        review_iterations: 3_000,
        review_playout_cap: 1_000,
    };
}
