//! A lesson on the board: opens its position as the match with the learner's opponent a scripted
//! seat, plays the script's replies (after the learner's move has been seen), judges every change
//! of the match against the lesson's solutions and wrong moves, keeps the learner's progress, and
//! carries out Retry, Next, Hint and leaving.

use crate::ai::Level;
use crate::app::AppSystems;
use crate::app::input::{Action, ActionPressed};
use crate::app::lesson_state::{BookWanted, LearnChoice, LessonBooks, LessonCommand, LessonRun, PracticeRun};
use crate::app::match_state::{CurrentMatch, NewMatch};
use crate::app::playing::{BoardAnimating, DecisionChosen, HintRequested, Replay};
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::games::GameKind;
use crate::lessons::Standing;
use bevy::prelude::*;

/// Seconds the script waits after the learner's move has been drawn, so its reply reads as one.
const REPLY_PAUSE: f32 = 0.4;

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (hints_are_the_lessons, confirm_answers_the_card, carry_out_commands).chain().in_set(AppSystems::Menus),
    );
    app.add_systems(
        Update,
        (
            // After a new match has taken the board: the run and its match arrive in one frame.
            (forget_lesson_of_another_match, play_scripted_reply).chain().in_set(AppSystems::Choose),
            judge.in_set(AppSystems::Project),
        )
            // Each system checks for itself: an earlier one may end the lesson in the same frame.
            .distributive_run_if(resource_exists::<LessonRun>.and_then(resource_exists::<CurrentMatch>)),
    );
}

/// In a lesson, "Hint" (key, pad or footer) shows the lesson's next hint, not the computer's.
fn hints_are_the_lessons(
    mut requests: MessageReader<HintRequested>,
    run: Option<Res<LessonRun>>,
    mut commands: MessageWriter<LessonCommand>,
) {
    if requests.read().count() > 0 && run.is_some() {
        commands.write(LessonCommand::Hint);
    }
}

/// Confirm (E, or the pad's upper button) presses the card's button: Next once solved (after the
/// last lesson, the game against the computer), Retry after a wrong move.
fn confirm_answers_the_card(
    mut actions: MessageReader<ActionPressed>,
    run: Option<Res<LessonRun>>,
    screen: Res<State<Screen>>,
    mut commands: MessageWriter<LessonCommand>,
) {
    let confirmed = actions.read().any(|a| a.0 == Action::Confirm);
    let Some(run) = run.filter(|_| confirmed && *screen.get() == Screen::Playing) else { return };
    match run.standing {
        Standing::Solved if run.is_last() => commands.write(LessonCommand::PlayComputer),
        Standing::Solved => commands.write(LessonCommand::Next),
        Standing::Wrong(_) => commands.write(LessonCommand::Retry),
        Standing::OnTheWay | Standing::Astray => return,
    };
}

/// The lesson `index` of `kind`'s book as a match and its run, when the book is read.
fn open(books: &LessonBooks, kind: GameKind, index: usize) -> Result<(CurrentMatch, LessonRun), String> {
    let book = books.book(kind).ok_or("the lessons are not read yet")?;
    let lesson = book.lessons.get(index).ok_or("there is no such lesson")?;
    let start = lesson.open(kind)?;
    let learner = lesson.learner(start.as_ref()).ok_or("the lesson has no learner")?;
    let plan = lesson.plan(start.as_ref())?;
    let mut current = CurrentMatch::new(start);
    // Nobody has swapped yet: the seat of a side is the side.
    current.scripted = Some(learner.opponent());
    current.exercise = true;
    current.seed = 0;
    let run = LessonRun {
        game: kind,
        index,
        count: book.lessons.len(),
        lesson: lesson.clone(),
        plan,
        learner,
        standing: Standing::OnTheWay,
        hints_shown: 0,
        match_id: current.session.version().0,
    };
    Ok((current, run))
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or message
fn carry_out_commands(
    mut commands: Commands,
    mut new_match: MessageWriter<NewMatch>,
    mut asked: MessageReader<LessonCommand>,
    books: Res<LessonBooks>,
    run: Option<ResMut<LessonRun>>,
    mut choice: ResMut<LearnChoice>,
    mut replay: ResMut<Replay>,
    mut next: ResMut<NextState<Screen>>,
    mut wanted: MessageWriter<BookWanted>,
    mut pressed: ResMut<Messages<ActionPressed>>,
) {
    let Some(command) = asked.read().last().copied() else { return };
    let here = run.as_ref().map(|r| (r.game, r.index));
    let to_open = match (command, here) {
        (LessonCommand::Open { game, index }, _) => Some((game, index)),
        (LessonCommand::Retry, Some(here)) => Some(here),
        (LessonCommand::Next, Some((game, index))) => Some((game, index + 1)),
        (LessonCommand::Hint, _) => {
            if let Some(mut run) = run {
                run.hints_shown = (run.hints_shown + 1).min(run.hint_count());
            }
            return;
        }
        (LessonCommand::Leave, Some((game, _))) => {
            commands.remove_resource::<LessonRun>();
            choice.game = Some(game);
            next.set(Screen::Learn);
            return;
        }
        (LessonCommand::PlayComputer, Some((game, _))) => {
            commands.remove_resource::<LessonRun>();
            match game.open(&[], None) {
                Ok(start) => {
                    let mut current = CurrentMatch::new(start);
                    current.players = [None, Some(Level::Easy)];
                    new_match.write(NewMatch(Box::new(current)));
                }
                Err(e) => error!("{} does not open: {e}", game.name()),
            }
            next.set(Screen::Playing);
            return;
        }
        _ => None,
    };
    let Some((game, index)) = to_open else { return };
    wanted.write(BookWanted(game));
    match open(&books, game, index) {
        Ok(opened) => {
            super::put_on_board::<LessonRun, PracticeRun>(
                (&mut commands, &mut new_match),
                opened,
                (&mut replay, &mut pressed, &mut next),
            );
        }
        Err(e) => warn!("{} lesson {}: {e}", game.name(), index + 1),
    }
}

/// A match other than the lesson's is on the board (the player started a game): the lesson is over.
fn forget_lesson_of_another_match(mut commands: Commands, run: Res<LessonRun>, current: Res<CurrentMatch>) {
    if current.session.version().0 != run.match_id {
        commands.remove_resource::<LessonRun>();
    }
}

/// The script's next decision when its seat is to act on a solution's way, once the board has
/// shown the learner's move and a short pause has passed.
fn play_scripted_reply(
    run: Res<LessonRun>,
    current: Res<CurrentMatch>,
    animating: Res<BoardAnimating>,
    time: Res<Time>,
    mut since: Local<Option<(usize, f32)>>,
    mut decide: MessageWriter<DecisionChosen>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let scripted_to_act = current.acting_side().is_some_and(|side| current.is_scripted(side));
    if run.match_id != current.session.version().0 || current.is_over() || !scripted_to_act || animating.0 {
        *since = None;
        return;
    }
    let n = current.len();
    let started = match *since {
        Some((len, at)) if len == n => at,
        _ => {
            *since = Some((n, time.elapsed_secs()));
            time.elapsed_secs()
        }
    };
    if time.elapsed_secs() - started < REPLY_PAUSE {
        // Reactive windows draw only on input: keep frames coming until the reply is made.
        redraw.write(bevy::window::RequestRedraw);
        return;
    }
    if let Some(reply) = run.plan.next_of_a_solution(&current.history()) {
        decide.write(DecisionChosen(reply.to_string()));
        *since = None;
    }
}

/// How the learner stands after every change of the match; a solved lesson is ticked for good.
fn judge(mut run: ResMut<LessonRun>, current: Res<CurrentMatch>, mut settings: ResMut<CurrentSettings>) {
    if !current.is_changed() || run.match_id != current.session.version().0 {
        return;
    }
    let standing = run.plan.standing(&current.history());
    if standing == Standing::Solved {
        let done = settings.0.lessons_done.get(run.game.slug()).is_some_and(|ids| ids.contains(&run.lesson.id));
        if !done {
            settings.0.lessons_done.entry(run.game.slug().to_string()).or_default().insert(run.lesson.id.clone());
        }
    }
    if run.standing != standing {
        run.standing = standing;
    }
}
