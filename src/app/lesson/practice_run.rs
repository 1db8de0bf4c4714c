//! A practice position on the board: opens it as a match against the computer (Medium, which
//! answers the learner's turn), judges the learner's whole turn against the position's solution
//! (the same position reached, in any order), keeps the streak and the positions solved, and
//! carries out Retry, Next and leaving.

use crate::ai::Level;
use crate::app::AppSystems;
use crate::app::lesson_state::{Answer, BookWanted, LearnChoice, LessonCommand, LessonRun, PracticeBooks, PracticeRun};
use crate::app::match_state::{CurrentMatch, NewMatch};
use crate::app::playing::Replay;
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::games::GameKind;
use crate::lessons::practice::Practice;
use crate::rules::{Side, ToMove};
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (confirm_goes_on, carry_out_commands).chain().in_set(AppSystems::Menus));
    app.add_systems(
        Update,
        // After a new match has taken the board: the run and its match arrive in one frame.
        (forget_practice_of_another_match.in_set(AppSystems::Choose), judge.in_set(AppSystems::Project))
            .distributive_run_if(resource_exists::<PracticeRun>.and_then(resource_exists::<CurrentMatch>)),
    );
}

/// Position `index` of `kind`'s practice book as a match and its run, when the book is read.
fn open(books: &PracticeBooks, kind: GameKind, index: usize) -> Result<(CurrentMatch, PracticeRun), String> {
    let book = books.book(kind).ok_or("the practice positions are not read yet")?;
    let practice = book.positions.get(index).ok_or("there is no such position")?;
    let start = kind.open(&practice.options, Some(&practice.position)).map_err(|e| e.to_string())?;
    let learner = match (start.to_move(), practice.learner) {
        (Some(ToMove::One(side)), _) | (Some(ToMove::Both), Some(side)) => side,
        _ => return Err("the position does not say whose turn it is".into()),
    };
    let mut current = CurrentMatch::new(start);
    // Nobody has swapped yet: the seat of a side is the side.
    current.players[learner.opponent().index()] = Some(Level::Medium);
    current.exercise = true;
    current.seed = index as u64;
    let run = PracticeRun {
        game: kind,
        index,
        count: book.positions.len(),
        practice: practice.clone(),
        answer: Answer::Thinking,
        match_id: current.session.version().0,
    };
    Ok((current, run))
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn carry_out_commands(
    mut commands: Commands,
    mut new_match: MessageWriter<NewMatch>,
    mut asked: MessageReader<LessonCommand>,
    books: Res<PracticeBooks>,
    run: Option<Res<PracticeRun>>,
    mut choice: ResMut<LearnChoice>,
    mut replay: ResMut<Replay>,
    mut next: ResMut<NextState<Screen>>,
    (mut wanted, mut pressed): (MessageWriter<BookWanted>, ResMut<Messages<crate::app::input::ActionPressed>>),
) {
    let Some(command) = asked.read().last().copied() else { return };
    let here = run.as_ref().map(|r| (r.game, r.index, r.count));
    let (game, index) = match (command, here) {
        (LessonCommand::Practise { game, index }, _) => (game, index),
        (LessonCommand::Retry, Some((game, index, _))) => (game, index),
        (LessonCommand::Next, Some((game, index, count))) => (game, (index + 1) % count.max(1)),
        (LessonCommand::Leave, Some((game, ..))) => {
            commands.remove_resource::<PracticeRun>();
            choice.game = Some(game);
            next.set(Screen::Learn);
            return;
        }
        _ => return,
    };
    wanted.write(BookWanted(game));
    match open(&books, game, index) {
        Ok(opened) => {
            super::put_on_board::<PracticeRun, LessonRun>(
                (&mut commands, &mut new_match),
                opened,
                (&mut replay, &mut pressed, &mut next),
            );
        }
        Err(e) => warn!("{} practice {}: {e}", game.name(), index + 1),
    }
}

/// Confirm (E, or the pad's upper button) after an answer: the next position.
fn confirm_goes_on(
    mut actions: MessageReader<crate::app::input::ActionPressed>,
    run: Option<Res<PracticeRun>>,
    screen: Res<State<Screen>>,
    mut commands: MessageWriter<LessonCommand>,
) {
    let confirmed = actions.read().any(|a| a.0 == crate::app::input::Action::Confirm);
    if confirmed && *screen.get() == Screen::Playing && run.is_some_and(|r| r.answer != Answer::Thinking) {
        commands.write(LessonCommand::Next);
    }
}

/// A match other than the position's is on the board: the practice is over.
fn forget_practice_of_another_match(mut commands: Commands, run: Res<PracticeRun>, current: Res<CurrentMatch>) {
    if current.session.version().0 != run.match_id {
        commands.remove_resource::<PracticeRun>();
    }
}

/// The learner's decisions from the start, once their turn is complete: the side to move at the
/// start made them, and it is no longer theirs to act (or the game is over). Where both sides
/// commit at once: the learner's decisions once they seal their commitment.
fn learner_turn(current: &CurrentMatch, practice: &Practice) -> Option<Vec<String>> {
    let learner = match (current.start().to_move()?, practice.learner) {
        (ToMove::One(side), _) => side,
        (ToMove::Both, Some(side)) => return sealed_commitment(current, side),
        (ToMove::Both, None) => return None,
    };
    let made = (0..current.len()).take_while(|&i| current.maker(i) == Some(learner)).count();
    let complete = made > 0 && (made < current.len() || current.is_over() || current.acting_side() != Some(learner));
    complete.then(|| (0..made).map(|i| current.decision(i).to_string()).collect())
}

/// `learner`'s decisions up to the one that sealed their commitment (played on the start without
/// the opponent's, which the learner could not see), once it is sealed.
fn sealed_commitment(current: &CurrentMatch, learner: Side) -> Option<Vec<String>> {
    let mut own = current.start().clone_box();
    let mut made = Vec::new();
    for i in (0..current.len()).filter(|&i| current.maker(i) == Some(learner)) {
        made.push(current.decision(i).to_string());
        own.play_decision(current.decision(i)).ok()?;
        if own.legal_decisions(learner).is_empty() {
            return Some(made);
        }
    }
    None
}

/// Judges the learner's turn once it is complete: right when it leaves the solution's position.
fn judge(mut run: ResMut<PracticeRun>, current: Res<CurrentMatch>, mut settings: ResMut<CurrentSettings>) {
    if !current.is_changed() || run.match_id != current.session.version().0 || run.answer != Answer::Thinking {
        return;
    }
    let Some(made) = learner_turn(&current, &run.practice) else { return };
    // Compared by the position they leave (the same turn in another order is right); a sealed
    // commitment leaves nothing to see, and is compared decision by decision.
    let leaves = |decisions: &[String]| {
        let mut position = current.start().clone_box();
        decisions.iter().all(|d| position.play_decision(d).is_ok()).then(|| position.position_text())
    };
    let right = match run.practice.learner {
        Some(_) => made == run.practice.solution,
        None => leaves(&made).is_some() && leaves(&made) == leaves(&run.practice.solution),
    };
    run.answer = if right { Answer::Right } else { Answer::Wrong };
    let slug = run.game.slug().to_string();
    let settings = &mut settings.0;
    if right {
        settings.practice_done.entry(slug.clone()).or_default().insert(run.practice.id.clone());
        let streak = settings.practice_streak.entry(slug.clone()).or_default();
        *streak += 1;
        let streak = *streak;
        let best = settings.practice_best.entry(slug).or_default();
        *best = (*best).max(streak);
    } else {
        settings.practice_streak.insert(slug, 0);
    }
}
