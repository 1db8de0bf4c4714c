//! Every lesson book under assets/lessons plays as written: positions open, solutions are legal
//! to their end, wrong decisions are legal and explained, marked spaces exist (`stoneyard lessons
//! --check` runs the same check).

use stoneyard::lessons::{LessonBook, problems};

/// Every book in `assets/<folder>`, read by `parse`, with its path.
fn read_books<B>(folder: &str, parse: impl Fn(&str) -> Result<B, String>) -> Vec<(String, B)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join(folder);
    let mut books = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a file").path();
        if path.extension().is_some_and(|e| e == "ron") {
            let text = std::fs::read_to_string(&path).expect("a book");
            let book = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            books.push((path.display().to_string(), book));
        }
    }
    books
}

fn books() -> Vec<(String, LessonBook)> {
    read_books("lessons", LessonBook::parse)
}

#[test]
fn every_lesson_plays_as_written() {
    let books = books();
    assert!(!books.is_empty(), "no lesson books");
    for (path, book) in &books {
        assert_eq!(problems(book), Vec::<String>::new(), "{path}");
    }
}

#[test]
fn each_book_is_named_after_its_game_and_teaches_eight_to_fifteen_lessons() {
    let mut games: Vec<&str> = books().iter().map(|(_, b)| b.kind().map_or("?", |k| k.slug())).collect();
    games.sort();
    let mut all: Vec<&str> = stoneyard::games::GameKind::all().map(|k| k.slug()).collect();
    all.sort();
    assert_eq!(games, all, "one book per game");
    for (path, book) in books() {
        let kind = book.kind().unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(path.ends_with(&format!("{}.ron", kind.slug())), "{path} holds {}", kind.slug());
        assert!((8..=15).contains(&book.lessons.len()), "{path}: {} lessons", book.lessons.len());
    }
}

/// The practice books under assets/practice.
fn practice_books() -> Vec<(String, stoneyard::lessons::practice::PracticeBook)> {
    read_books("practice", |text| ron::from_str(text).map_err(|e| e.to_string()))
}

#[test]
fn every_practice_position_still_has_its_solution_as_the_unique_best_turn() {
    use stoneyard::lessons::practice::{TURN_CAP, problems};
    let books = practice_books();
    assert!(!books.is_empty(), "no practice books");
    // One thread a book: the searches are independent, and the slowest book sets the time.
    let found: Vec<Vec<String>> = std::thread::scope(|scope| {
        let searches: Vec<_> = books.iter().map(|(_, book)| scope.spawn(|| problems(book, TURN_CAP))).collect();
        searches.into_iter().map(|s| s.join().expect("a search")).collect()
    });
    for ((path, book), problems) in books.iter().zip(found) {
        assert_eq!(problems, Vec::<String>::new(), "{path}");
        assert!(book.positions.len() >= 30, "{path}: {} positions", book.positions.len());
        let grades: Vec<u8> = book.positions.iter().map(|p| p.grade).collect();
        assert!(grades.is_sorted(), "{path}: easiest first");
    }
}
