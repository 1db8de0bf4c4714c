//! The review of a game with the computer as the features share it: the review itself (filled in
//! as the computer analyses its positions: `computer/review.rs`), what went wrong, and the
//! commands about it (from the game-over card, the replay, Saved games and the history). The
//! panel draws it (`hud/review_panel.rs`).

use crate::ai::review::{GameReview, Judgement, PositionAnalysis};
use bevy::prelude::*;

/// The review on the screen, if any.
#[derive(Resource, Debug, Default, Clone)]
pub struct ReviewShown {
    pub review: Option<GameReview>,
    /// It was read back from the store (nothing was thought about again).
    pub reloaded: bool,
    /// Why there is no review, or why it stopped.
    pub problem: Option<String>,
    /// A review was asked for and waits for the game to be on the board.
    pub requested: bool,
    /// The most positions analysed at the same time so far (one per core or worker).
    pub most_at_once: usize,
}

/// What can be asked of the review.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewCommand {
    /// Review the game on the board (the whole game when it is replayed).
    Start,
    /// Put the review away.
    Close,
    /// Open the analysis board at the position on the board.
    Analyse,
    /// Leave the analysis board: the game comes back as it was.
    BackToGame,
}

/// The analysis board: a copy of the position on the board where the player tries other moves
/// (both sides' moves are theirs) while the computer says how they stand, thinking longer the
/// longer the position stays; the game itself waits aside, unchanged, until "Back to the game".
#[derive(Resource, Debug, Default, Clone)]
pub struct AnalysisBoard {
    pub active: bool,
    /// The latest analysis of the position on the board, with the number of decisions it is for.
    pub analysis: Option<(usize, PositionAnalysis)>,
    /// The computer is thinking about the position (a first look, or a deeper one).
    pub thinking: bool,
    /// A change asked for: open the board (`true`) or go back to the game (`false`).
    pub wanted: Option<bool>,
}

impl AnalysisBoard {
    /// The analysis of the position after `played` decisions, if it is the latest.
    pub fn at(&self, played: usize) -> Option<&PositionAnalysis> {
        self.analysis.as_ref().filter(|(n, _)| *n == played).map(|(_, a)| a)
    }
}

impl ReviewShown {
    /// The turns whose record move ends after `played` decisions (two where both sides sealed).
    pub fn turns_ending_at(&self, played: usize) -> Vec<usize> {
        let Some(review) = &self.review else { return Vec::new() };
        review.turns.iter().enumerate().filter(|(_, t)| t.end == played).map(|(i, _)| i).collect()
    }

    /// The analysis of the position after `played` decisions (its side to move's best), once done.
    pub fn analysis_at(&self, played: usize) -> Option<&PositionAnalysis> {
        let review = self.review.as_ref()?;
        let index = review.probes.iter().position(|p| p.prefix == played)?;
        review.analyses[index].as_ref()
    }

    /// Turn `t`'s judgement, once done.
    pub fn judgement(&self, t: usize) -> Option<Judgement> {
        self.review.as_ref()?.judgement(t)
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<ReviewShown>().init_resource::<AnalysisBoard>();
    app.add_message::<ReviewCommand>();
}
