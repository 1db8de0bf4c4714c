//! Lessons: short positions that teach a game by doing, read from `assets/lessons/<game>.ron` (data
//! a person edits and reviews, not code), and the check that every lesson still plays as written.
//!
//! A lesson starts from a position (the rule book's position text and options); the learner is
//! the side to move there. Each solution is a line of moves in the rule book's record notation, in
//! the order they are played: the learner's, and between them the opponent's scripted replies.
//! Played, each move is the atomic decisions the app offers (`LessonPlan`). A lesson is solved
//! when the learner's decisions follow a solution to its end. A wrong decision names what it causes and why;
//! the app plays it, shows its real effects, says why and offers Retry.

mod commitments;
pub mod practice;
mod verdict;

use crate::games::{DynGame, GameKind};
use crate::rules::{Outcome, Side, Status, ToMove};
use crate::save::token_decisions;
use serde::{Deserialize, Serialize};

/// One game's lessons, in the order they are taught.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct LessonBook {
    /// The game's slug (`red-stone`).
    pub game: String,
    pub lessons: Vec<Lesson>,
}

/// One lesson.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Lesson {
    /// Unique in its book; progress is kept under it.
    pub id: String,
    pub title: String,
    /// One sentence: what to do.
    pub goal: String,
    /// What the lesson explains before the first decision (a few short sentences at most).
    #[serde(default)]
    pub intro: String,
    /// The game's options (`size = 5`), as the setup and the records name them.
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// The start position in the rule book's position text (the game's start when absent).
    #[serde(default)]
    pub position: Option<String>,
    /// The lines that solve it: every decision in the order it is played, the learner's and the
    /// opponent's scripted replies.
    pub solutions: Vec<Vec<String>>,
    /// Said when the lesson is solved.
    pub success: String,
    /// Hints, one at a time, for a learner who asks.
    #[serde(default)]
    pub hints: Vec<String>,
    /// Spaces marked on the board from the start (the spaces the goal talks about).
    #[serde(default)]
    pub marks: Vec<String>,
    /// Arrows drawn on the board from the start, each from one space to another.
    #[serde(default)]
    pub arrows: Vec<(String, String)>,
    /// Tempting wrong decisions and what they cause.
    #[serde(default)]
    pub wrong: Vec<WrongDecision>,
    /// The rules window's section this lesson teaches (`captures`).
    #[serde(default)]
    pub teaches: Option<String>,
    /// Every solution wins the game for the learner (the check holds the lesson to it).
    #[serde(default)]
    pub wins: bool,
    /// What the panel shows after every solution, where the success text states a number: a
    /// side's counter as `Black score: 1`, a counter of no side as `Red stones: 2` (the check holds
    /// the lesson to each).
    #[serde(default)]
    pub shows: Vec<String>,
    /// The learner's side as the game names it (`White`); by default the side to move at the
    /// start. Games whose sides move at once (Hidden Intention) name it.
    #[serde(default)]
    pub learner: Option<String>,
}

/// A tempting decision that does not solve the lesson.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct WrongDecision {
    /// The decisions before it (a start of a solution; empty: the first decision).
    #[serde(default)]
    pub after: Vec<String>,
    pub decision: String,
    /// One sentence: what it causes and why it fails.
    pub why: String,
}

impl LessonBook {
    /// Reads a book from its text (RON).
    pub fn parse(text: &str) -> Result<LessonBook, String> {
        ron::from_str(text).map_err(|e| format!("not a lesson book: {e}"))
    }

    /// Reads a book from the JSON the browser gets (`stoneyard lessons --export`): the page
    /// already holds a JSON reader, and a RON one would add to its download.
    pub fn from_json(text: &str) -> Result<LessonBook, String> {
        serde_json::from_str(text).map_err(|e| format!("not a lesson book: {e}"))
    }

    /// The book's game.
    pub fn kind(&self) -> Result<GameKind, String> {
        GameKind::from_slug(&self.game)
            .ok_or_else(|| format!("unknown game '{}'; the games are {}", self.game, GameKind::all_slugs()))
    }
}

impl Lesson {
    /// The lesson's start position.
    pub fn open(&self, kind: GameKind) -> Result<Box<dyn DynGame>, String> {
        kind.open(&self.options, self.position.as_deref()).map_err(|e| format!("its position does not open: {e}"))
    }

    /// The learner's side: the one named (as the game names its sides), else the side to move.
    pub fn learner(&self, start: &dyn DynGame) -> Option<Side> {
        match &self.learner {
            Some(name) => Side::BOTH.into_iter().find(|&s| start.kind().side_name(s).eq_ignore_ascii_case(name)),
            None => match start.to_move()? {
                ToMove::One(side) => Some(side),
                ToMove::Both => None,
            },
        }
    }

    /// The lesson as the atomic decisions the app plays, from `start` (its position).
    pub fn plan(&self, start: &dyn DynGame) -> Result<LessonPlan, String> {
        let lines = self.solutions.iter().map(|line| decisions_of(start, line)).collect::<Result<Vec<_>, _>>()?;
        let mut wrong = Vec::new();
        for w in &self.wrong {
            let after = decisions_of(start, &w.after)?;
            let mut there = start.clone_box();
            for d in &after {
                there.play_decision(d).map_err(|e| format!("{d}: {e}"))?;
            }
            let decision = decisions_of(there.as_ref(), std::slice::from_ref(&w.decision))
                .map_err(|e| format!("wrong decision {} after {:?}: {e}", w.decision, w.after))?;
            wrong.push(PlannedWrong { after, decisions: decision, why: w.why.clone() });
        }
        Ok(LessonPlan { lines, wrong })
    }
}

/// A lesson's solutions and wrong decisions as atomic decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonPlan {
    pub lines: Vec<Vec<String>>,
    pub wrong: Vec<PlannedWrong>,
}

/// A wrong move as atomic decisions, after the decisions `after`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedWrong {
    pub after: Vec<String>,
    pub decisions: Vec<String>,
    pub why: String,
}

/// How a learner stands after some decisions of a lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// On a solution's way, or on the way to a wrong move the lesson names (a turn of several
    /// decisions is judged when it is complete), or not started.
    OnTheWay,
    Solved,
    /// A wrong move the lesson names: why it fails.
    Wrong(String),
    /// Off every solution, and not a wrong move the lesson names.
    Astray,
}

impl LessonPlan {
    /// How `played` (the decisions since the lesson's start) stands.
    pub fn standing(&self, played: &[String]) -> Standing {
        if self.solved_by(played) {
            return Standing::Solved;
        }
        if let Some(wrong) = self.wrong_move(played) {
            return Standing::Wrong(wrong.why.clone());
        }
        let on_a_line = self.lines.iter().any(|line| line.starts_with(played));
        let towards_a_wrong_move = self.wrong.iter().any(|w| {
            let mut whole = w.after.clone();
            whole.extend(w.decisions.iter().cloned());
            whole.len() > played.len() && whole.starts_with(played)
        });
        if on_a_line || towards_a_wrong_move { Standing::OnTheWay } else { Standing::Astray }
    }

    /// The next decision of a solution that `played` follows, if any (the opponent's scripted
    /// reply when the opponent is to move).
    pub fn next_of_a_solution(&self, played: &[String]) -> Option<&str> {
        self.lines
            .iter()
            .find(|line| line.len() > played.len() && line.starts_with(played))
            .map(|l| l[played.len()].as_str())
    }

    /// Whether `played` is a whole solution.
    pub fn solved_by(&self, played: &[String]) -> bool {
        self.lines.iter().any(|line| line.as_slice() == played)
    }

    /// The wrong move `played` ends with, when the lesson names it.
    pub fn wrong_move(&self, played: &[String]) -> Option<&PlannedWrong> {
        self.wrong.iter().find(|w| {
            played.len() == w.after.len() + w.decisions.len()
                && played.starts_with(&w.after)
                && played[w.after.len()..] == w.decisions[..]
        })
    }
}

/// The atomic decisions the record moves `tokens` stand for, played one after another from `start`.
fn decisions_of(start: &dyn DynGame, tokens: &[String]) -> Result<Vec<String>, String> {
    let mut game = start.clone_box();
    let mut out = Vec::new();
    for token in tokens {
        let decisions = token_decisions(game.as_ref(), token).map_err(|e| format!("move {token}: {e}"))?;
        for d in &decisions {
            game.play_decision(d).map_err(|e| format!("move {token}: {e}"))?;
        }
        out.extend(decisions);
    }
    Ok(out)
}

/// Who makes `decision` at `game`: the side to move, or at a simultaneous node (Hidden Intention's
/// commitments) the side the decision belongs to; and whether the node was simultaneous.
fn maker(game: &dyn DynGame, decision: &str) -> Option<(Side, bool)> {
    match game.to_move()? {
        ToMove::One(side) => Some((side, false)),
        ToMove::Both => game.describe_decision(decision).map(|info| (info.side, true)),
    }
}

/// Everything wrong with `book`: each problem names its lesson. Every lesson must open and have a
/// learner; every solution must be legal decision by decision, made by the side whose turn it is,
/// and end with the learner's decision (or the scripted commitment that completes it); every wrong
/// move must be legal after a solution's start, not be a solution's move there, and say why; every
/// marked space must exist; a lesson that `wins` must win, and the panel must show what a lesson
/// says it `shows` after every solution.
pub fn problems(book: &LessonBook) -> Vec<String> {
    let kind = match book.kind() {
        Ok(kind) => kind,
        Err(e) => return vec![e],
    };
    let mut found = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for lesson in &book.lessons {
        let mut say = |what: String| found.push(format!("{} lesson '{}': {what}", book.game, lesson.id));
        if !ids.insert(lesson.id.as_str()) {
            say("its id is used twice".into());
        }
        for (field, text) in [("title", &lesson.title), ("goal", &lesson.goal), ("success", &lesson.success)] {
            if text.trim().is_empty() {
                say(format!("its {field} is empty"));
            }
        }
        if let Some(id) = lesson.teaches.as_deref().filter(|id| kind.rules.section(id).is_none()) {
            say(format!("it teaches '{id}', which is not a section of the game's rules"));
        }
        let start = match lesson.open(kind) {
            Ok(game) => game,
            Err(e) => {
                say(e);
                continue;
            }
        };
        let Some(learner) = lesson.learner(start.as_ref()) else {
            say("its learner is not a side of the game, or both sides move at its start and it names none".into());
            continue;
        };
        if lesson.solutions.is_empty() {
            say("it has no solution".into());
        }
        let plan = match lesson.plan(start.as_ref()) {
            Ok(plan) => plan,
            Err(e) => {
                say(e);
                continue;
            }
        };
        for (line, tokens) in plan.lines.iter().zip(&lesson.solutions) {
            let end = match replay(start.as_ref(), line, learner) {
                Ok(end) => end,
                Err(e) => {
                    say(format!("solution {tokens:?}: {e}"));
                    continue;
                }
            };
            if lesson.wins && end.status() != Status::Over(Outcome::Winner(learner)) {
                say(format!("solution {tokens:?} does not win: {:?}", end.status()));
            }
            let shown = panel_lines(end.as_ref());
            for claim in lesson.shows.iter().filter(|claim| !shown.contains(claim)) {
                say(format!("after solution {tokens:?} the panel does not show '{claim}' (it shows {shown:?})"));
            }
        }
        for (wrong, written) in plan.wrong.iter().zip(&lesson.wrong) {
            if written.why.trim().is_empty() {
                say(format!("wrong move {} says nothing", written.decision));
            }
            let passed = |line: &Vec<String>| line.len() > wrong.after.len() && line.starts_with(&wrong.after);
            if !plan.lines.iter().any(passed) {
                say(format!(
                    "wrong move {} comes after {:?}, which no solution passes",
                    written.decision, written.after
                ));
            }
            let mut solving = wrong.after.clone();
            solving.extend(wrong.decisions.iter().cloned());
            if plan.lines.iter().any(|line| line.starts_with(&solving)) {
                say(format!("wrong move {} is a solution's move there", written.decision));
            }
        }
        let view = start.board_view();
        let named = |space: &str| view.cell_named(space).is_some();
        for space in lesson.marks.iter().chain(lesson.arrows.iter().flat_map(|(a, b)| [a, b])) {
            if !named(space) {
                say(format!("it marks {space}, which the board does not have"));
            }
        }
    }
    found
}

/// The panel's counters of `game` as a lesson states them: `Black score: 1`, `Red stones: 2`.
fn panel_lines(game: &dyn DynGame) -> Vec<String> {
    let counters = game.board_view().counters.into_iter();
    counters
        .map(|c| match c.side {
            Some(side) => format!("{} {}: {}", game.kind().side_name(side), c.label, c.value),
            None => format!("{}: {}", c.label, c.value),
        })
        .collect()
}

/// Plays `line` from `start`: each decision legal and made by the side whose turn it is, the last
/// one the learner's (or, at a simultaneous node, the scripted commitment that completes the
/// learner's); returns the game at its end.
fn replay(start: &dyn DynGame, line: &[String], learner: Side) -> Result<Box<dyn DynGame>, String> {
    let mut game = start.clone_box();
    let mut last = None;
    let mut learner_decided = false;
    for (i, decision) in line.iter().enumerate() {
        let (by, simultaneous) =
            maker(game.as_ref(), decision).ok_or_else(|| format!("nobody may make {decision} there"))?;
        game.play_decision(decision).map_err(|e| format!("decision {} ({decision}) is not legal: {e}", i + 1))?;
        learner_decided |= by == learner;
        last = Some((by, simultaneous));
    }
    match last {
        Some((side, simultaneous)) if learner_decided && (side == learner || simultaneous) => Ok(game),
        Some(_) => Err("it ends with the opponent's reply, not the learner's decision".into()),
        None => Err("a solution is empty".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str = r#"(
        game: "red-stone",
        lessons: [(
            id: "capture",
            title: "Capture with red",
            goal: "Take the two white stones.",
            options: [("size", "5")],
            position: Some("..X../.XOX./.XO../..X../....O b"),
            solutions: [["D3*"]],
            success: "Red took both white stones.",
            marks: ["D3"],
            wrong: [(decision: "D2", why: "A black stone there takes nothing: the white group still breathes at D3.")],
            shows: ["White stones: 1", "Red stones: 1"],
        )],
    )"#;

    #[test]
    fn a_book_reads_and_its_lessons_check() {
        let book = LessonBook::parse(BOOK).unwrap();
        assert_eq!(book.lessons[0].solutions, vec![vec!["D3*".to_string()]]);
        assert_eq!(problems(&book), Vec::<String>::new());
        let kind = book.kind().unwrap();
        let plan = book.lessons[0].plan(book.lessons[0].open(kind).unwrap().as_ref()).unwrap();
        assert!(plan.solved_by(&["D3*".to_string()]));
        assert_eq!(
            plan.wrong_move(&["D2".to_string()]).map(|w| w.why.as_str()),
            Some(book.lessons[0].wrong[0].why.as_str())
        );
        assert_eq!(plan.standing(&[]), Standing::OnTheWay);
        assert_eq!(plan.standing(&["D3*".to_string()]), Standing::Solved);
        assert_eq!(plan.standing(&["D2".to_string()]), Standing::Wrong(book.lessons[0].wrong[0].why.clone()));
        assert_eq!(plan.standing(&["B2".to_string()]), Standing::Astray);
    }

    #[test]
    fn the_check_finds_illegal_solutions_unreachable_wrong_decisions_and_missing_spaces() {
        let mut book = LessonBook::parse(BOOK).unwrap();
        let lesson = &mut book.lessons[0];
        lesson.wrong.push(WrongDecision { after: vec!["A1".into()], decision: "B1".into(), why: "x".into() });
        lesson.wrong.push(WrongDecision { after: vec![], decision: "D3*".into(), why: "x".into() });
        lesson.marks.push("Z9".into());
        lesson.teaches = Some("castling".into());
        let found = problems(&book);
        assert!(found.iter().any(|p| p.contains("teaches 'castling'")), "{found:?}");
        assert!(found.iter().any(|p| p.contains("which no solution passes")), "{found:?}");
        assert!(found.iter().any(|p| p.contains("is a solution's move there")), "{found:?}");
        assert!(found.iter().any(|p| p.contains("Z9")), "{found:?}");
        // A solution with an illegal move.
        let mut book = LessonBook::parse(BOOK).unwrap();
        book.lessons[0].solutions.push(vec!["D3".into()]);
        let found = problems(&book);
        assert!(found.iter().any(|p| p.contains("move D3")), "{found:?}");
        // A lesson said to win whose solution leaves White its stone on E1.
        let mut book = LessonBook::parse(BOOK).unwrap();
        book.lessons[0].wins = true;
        let found = problems(&book);
        assert!(found.iter().any(|p| p.contains("does not win")), "{found:?}");
        // A count the panel does not show after the solution (White keeps one stone, not none).
        let mut book = LessonBook::parse(BOOK).unwrap();
        book.lessons[0].shows.push("White stones: 0".into());
        let found = problems(&book);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("does not show 'White stones: 0'") && found[0].contains("White stones: 1"),
            "{found:?}"
        );
    }

    #[test]
    fn a_lesson_of_simultaneous_commitments_names_its_learner_and_scripts_the_other_side() {
        let text = r#"(
            game: "hidden-intention",
            lessons: [(
                id: "first",
                title: "Your first figure",
                goal: "Place your queen on d4.",
                learner: Some("White"),
                solutions: [["Qd4 | Re5"]],
                success: "Both commitments are revealed at once.",
            )],
        )"#;
        let book = LessonBook::parse(text).unwrap();
        assert_eq!(problems(&book), Vec::<String>::new());
        let start = book.lessons[0].open(book.kind().unwrap()).unwrap();
        let plan = book.lessons[0].plan(start.as_ref()).unwrap();
        // White's decisions, then Black's scripted ones.
        let line = &plan.lines[0];
        let white = start.describe_decision(&line[0]).unwrap().side;
        assert_eq!(Some(white), book.lessons[0].learner(start.as_ref()));
        // Without a named learner nobody is to move alone at the start.
        let mut unnamed = book.clone();
        unnamed.lessons[0].learner = None;
        assert!(problems(&unnamed).iter().any(|p| p.contains("names none")), "{:?}", problems(&unnamed));
    }
}
