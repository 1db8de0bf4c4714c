//! The lessons' vocabulary: each game's lesson and practice books as loaded, the lesson or
//! practice position on the board and how the learner stands in it, and the commands that open,
//! retry, advance and leave them. The `lesson` feature keeps them; the menus, the panel and the
//! board read them and write commands.

use crate::games::GameKind;
use crate::lessons::practice::{Practice, PracticeBook};
use crate::lessons::{Lesson, LessonBook, LessonPlan, Standing};
use bevy::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

pub fn plugin(app: &mut App) {
    app.add_message::<LessonCommand>().add_message::<BookWanted>();
    app.init_resource::<LessonBooks>().init_resource::<PracticeBooks>().init_resource::<LearnChoice>();
}

/// One game's book: on its way (the browser fetches it), read, or why it could not be.
#[derive(Debug, Clone)]
pub enum BookState<T> {
    Loading,
    Ready(Arc<T>),
    Failed(String),
}

/// The books of one kind asked for so far, by game.
#[derive(Resource, Debug)]
pub struct Books<T: Send + Sync + 'static>(pub HashMap<GameKind, BookState<T>>);

impl<T: Send + Sync + 'static> Default for Books<T> {
    fn default() -> Self {
        Books(HashMap::new())
    }
}

impl<T: Send + Sync + 'static> Books<T> {
    /// The game's book when it has been read.
    pub fn book(&self, kind: GameKind) -> Option<&Arc<T>> {
        match self.0.get(&kind) {
            Some(BookState::Ready(book)) => Some(book),
            _ => None,
        }
    }

    /// Some book is on its way.
    pub fn loading(&self) -> bool {
        self.0.values().any(|b| matches!(b, BookState::Loading))
    }
}

/// Each game's lessons.
pub type LessonBooks = Books<LessonBook>;
/// Each game's practice positions.
pub type PracticeBooks = Books<PracticeBook>;

impl Books<PracticeBook> {
    /// The first position of the game's book the player has not solved (the first when all are).
    pub fn first_unsolved(&self, settings: &crate::save::Settings, kind: GameKind) -> usize {
        let done = settings.practice_done.get(kind.slug());
        self.book(kind)
            .and_then(|b| b.positions.iter().position(|p| done.is_none_or(|d| !d.contains(&p.id))))
            .unwrap_or(0)
    }
}

/// Asks for a game's lesson and practice books to be read (once; later asks do nothing).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookWanted(pub GameKind);

/// What the Learn screen shows: the five games, or one game's lessons.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct LearnChoice {
    /// The game whose lessons are listed; `None`: the list of games.
    pub game: Option<GameKind>,
    /// The Learn screen was opened from this game's setup (Back returns there).
    pub from_setup: bool,
}

/// What the learner asks of lessons.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonCommand {
    /// Plays lesson `index` of the game's book.
    Open { game: GameKind, index: usize },
    /// Starts the lesson on the board again.
    Retry,
    /// The book's next lesson.
    Next,
    /// Shows the lesson's next hint.
    Hint,
    /// Back to the game's list of lessons.
    Leave,
    /// After the last lesson: a game against the computer (Easy) with the game's usual options.
    PlayComputer,
    /// Plays practice position `index` of the game's practice book.
    Practise { game: GameKind, index: usize },
}

/// The lesson on the board. Its match is the `CurrentMatch` whose id is `match_id`; the
/// learner's opponent is a scripted seat of that match.
#[derive(Resource, Debug, Clone)]
pub struct LessonRun {
    pub game: GameKind,
    /// Its place in the book (0-based) and the book's number of lessons.
    pub index: usize,
    pub count: usize,
    pub lesson: Lesson,
    pub plan: LessonPlan,
    /// The side the learner plays.
    pub learner: crate::rules::Side,
    /// How the learner stands after the decisions played.
    pub standing: Standing,
    /// How many of the lesson's hints are shown; one more than it has: the next decision of its
    /// way is shown too.
    pub hints_shown: usize,
    /// The match this lesson plays (`Match::version().0`).
    pub match_id: u64,
}

impl LessonRun {
    /// This is the book's last lesson.
    pub fn is_last(&self) -> bool {
        self.index + 1 >= self.count
    }

    /// The hints the learner can ask for: the lesson's, then the next decision of its way.
    pub fn hint_count(&self) -> usize {
        self.lesson.hints.len() + 1
    }

    /// The next decision of the lesson's way after `played`, once every written hint is shown.
    pub fn way_shown(&self, played: &[String]) -> Option<&str> {
        (self.hints_shown > self.lesson.hints.len()).then(|| self.plan.next_of_a_solution(played)).flatten()
    }
}

/// How the learner's answer to a practice position stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Their turn is not complete yet.
    Thinking,
    Right,
    /// Another turn: the solution was this, in the position's notation.
    Wrong,
}

/// The practice position on the board (its match is the `CurrentMatch` whose id is `match_id`;
/// the computer answers the learner's turn).
#[derive(Resource, Debug, Clone)]
pub struct PracticeRun {
    pub game: GameKind,
    pub index: usize,
    pub count: usize,
    pub practice: Practice,
    pub answer: Answer,
    pub match_id: u64,
}

impl PracticeRun {
    /// What the position asks, in one sentence.
    pub fn goal(&self) -> String {
        if self.practice.learner.is_some() {
            // Both sides commit at once: the answer must hold whatever the opponent commits.
            return match self.practice.wins {
                None => "Your commitment: find the one that wins the game whatever your opponent commits.".into(),
                Some(1) => {
                    "Your commitment: find the one that comes out a figure ahead whatever your opponent commits.".into()
                }
                Some(n) => format!(
                    "Your commitment: find the one that comes out {n} figures ahead whatever your opponent commits."
                ),
            };
        }
        match self.practice.wins {
            None => "Your move: find the turn that wins the game.".to_string(),
            Some(1) => "Your move: find the turn that wins a piece.".to_string(),
            Some(n) => format!("Your move: find the turn that wins {n} pieces."),
        }
    }
}
