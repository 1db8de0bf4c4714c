//! The analysis board: the game on the board is put aside (unchanged) and a copy of its position
//! takes its place, where the player makes both sides' moves as a variation; the computer analyses
//! each position reached, a first look and then deeper ones, and "Back to the game" brings the
//! game back exactly as it was.

use super::review::{REVIEW_SEED, ReviewRunner};
use super::search::AnswerAfterFrames;
use crate::ai::review::{ProbeJob, ReviewSettings};
use crate::app::match_state::CurrentMatch;
use crate::app::playing::{HintShown, Replay};
use crate::app::review_state::{AnalysisBoard, ReviewShown};
use crate::rules::splitmix64_nth;
use bevy::prelude::*;

/// Each deeper look thinks this many times longer than the one before, up to [`DEEPEST`] looks.
const DEEPER: u64 = 4;
const DEEPEST: u32 = 3;

/// The game waiting aside while the analysis board is open.
#[derive(Resource, Default)]
pub(super) struct GameAside {
    current: Option<CurrentMatch>,
    replay: Replay,
    review: ReviewShown,
}

/// The analysis board's own search, and how deep its last finished look was.
#[derive(Resource, Default)]
pub(super) struct AnalysisRunner {
    runner: ReviewRunner,
    /// The position (decisions played) and look (1 = first) being thought about or last done.
    look: Option<(usize, u32)>,
}

/// Opens or closes the analysis board, as asked: swaps the game and its copy.
pub(super) fn swap_boards(world: &mut World) {
    let Some(open) = world.resource_mut::<AnalysisBoard>().wanted.take() else { return };
    let active = world.resource::<AnalysisBoard>().active;
    if open && !active {
        let Some(game) = world.remove_resource::<CurrentMatch>() else { return };
        let mut variation = game.session.clone();
        variation.drop_redo();
        let mut board = CurrentMatch::of(variation);
        // Not a game of the player's: never kept in progress or among the finished ones.
        board.exercise = true;
        board.seed = game.seed;
        let replay = std::mem::take(&mut *world.resource_mut::<Replay>());
        let review = std::mem::take(&mut *world.resource_mut::<ReviewShown>());
        world.insert_resource(GameAside { current: Some(game), replay, review });
        world.insert_resource(board);
        *world.resource_mut::<AnalysisBoard>() = AnalysisBoard { active: true, ..default() };
        *world.resource_mut::<HintShown>() = HintShown::default();
    } else if !open && active {
        let aside = std::mem::take(&mut *world.resource_mut::<GameAside>());
        if let Some(game) = aside.current {
            world.insert_resource(game);
        }
        *world.resource_mut::<Replay>() = aside.replay;
        *world.resource_mut::<ReviewShown>() = aside.review;
        *world.resource_mut::<AnalysisBoard>() = AnalysisBoard::default();
        *world.resource_mut::<HintShown>() = HintShown::default();
        world.resource_mut::<AnalysisRunner>().runner.clear();
        world.resource_mut::<AnalysisRunner>().look = None;
    }
}

/// Analyses the position on the analysis board, deeper and deeper while it stays.
pub(super) fn drive_analysis(
    current: Option<Res<CurrentMatch>>,
    inline: Option<Res<AnswerAfterFrames>>,
    mut board: ResMut<AnalysisBoard>,
    mut run: ResMut<AnalysisRunner>,
    mut hint: ResMut<HintShown>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if !board.active {
        return;
    }
    let Some(current) = current else { return };
    let here = current.len();
    for (index, answer) in run.runner.poll() {
        match answer {
            Ok(analysis) if index == here => {
                if let Some(first) = analysis.best.first() {
                    hint.suggestion = Some((here, first.clone()));
                    hint.turn = analysis.best.clone();
                    hint.reason = None;
                }
                board.analysis = Some((here, analysis));
            }
            Ok(_) => {}
            Err(e) => warn!("the analysis board's computer could not think: {e}"),
        }
    }
    let next_look = match run.look {
        Some((n, look)) if n == here => look + 1,
        _ => {
            run.runner.clear();
            1
        }
    };
    let busy = run.runner.is_running();
    if !busy && next_look <= DEEPEST && !current.is_over() {
        let Some(side) = current.acting_side() else { return };
        let settings = ReviewSettings::default_for(current.position().kind(), REVIEW_SEED);
        let job = ProbeJob {
            game: current.position().kind().slug().to_string(),
            options: current.start().option_pairs(),
            start: current.session.start_text().map(str::to_string),
            moves: current.history(),
            side,
            played: Vec::new(),
            iterations: settings.iterations * DEEPER.pow(next_look - 1),
            seed: splitmix64_nth(REVIEW_SEED, here as u64),
        };
        run.runner.start(here, job, inline.is_some());
        run.look = Some((here, next_look));
    }
    let thinking = run.runner.is_running();
    if board.thinking != thinking {
        board.thinking = thinking;
    }
    if thinking {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// Leaving the board closes the analysis board without bringing anything back.
pub(super) fn forget_analysis(
    mut board: ResMut<AnalysisBoard>,
    mut aside: ResMut<GameAside>,
    mut run: ResMut<AnalysisRunner>,
) {
    run.runner.clear();
    run.look = None;
    *aside = GameAside::default();
    *board = AnalysisBoard::default();
}
