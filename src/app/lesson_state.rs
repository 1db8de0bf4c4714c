//! The lessons' vocabulary: each game's book as loaded, the lesson on the board and how the
//! learner stands in it, and the commands that open, retry, advance and leave lessons. The
//! `lesson` feature keeps them; the menus, the panel and the board read them and write commands.

use crate::games::GameKind;
use crate::lessons::{Lesson, LessonBook, LessonPlan, Standing};
use bevy::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

pub fn plugin(app: &mut App) {
    app.add_message::<LessonCommand>().add_message::<BookWanted>();
    app.init_resource::<LessonBooks>().init_resource::<LearnChoice>();
}

/// One game's book: on its way (the browser fetches it), read, or why it could not be.
#[derive(Debug, Clone)]
pub enum BookState {
    Loading,
    Ready(Arc<LessonBook>),
    Failed(String),
}

/// The books asked for so far, by game.
#[derive(Resource, Debug, Default)]
pub struct LessonBooks(pub HashMap<GameKind, BookState>);

impl LessonBooks {
    /// The game's book when it has been read.
    pub fn book(&self, kind: GameKind) -> Option<&Arc<LessonBook>> {
        match self.0.get(&kind) {
            Some(BookState::Ready(book)) => Some(book),
            _ => None,
        }
    }
}

/// Asks for a game's book to be read (once; later asks do nothing).
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
