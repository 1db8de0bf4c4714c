//! `stoneyard lessons --check`: every lesson book replayed through its engine and every practice
//! position searched again, each problem named; `stoneyard lessons --find GAME`: practice
//! positions met in the computer's self-play, printed as a practice book; `--export DIR`: the
//! books as JSON for the browser.

use super::{LessonsArgs, fail};
use crate::lessons::practice::{PracticeBook, TURN_CAP, find};
use crate::lessons::{LessonBook, problems};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the lesson books are, beside the game's other assets.
pub const LESSONS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/lessons");
/// Where the practice books are.
pub const PRACTICE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/practice");

/// The lesson books in `dir`, by name.
pub fn books_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    Ok(files)
}

/// The problems of the book in `file` (its reading included), and what it holds: a lesson book,
/// or a practice book (a file with `positions:`).
pub fn check_file(file: &Path) -> (Vec<String>, String) {
    let named = |p: String| format!("{}: {p}", file.display());
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => return (vec![named(e.to_string())], String::new()),
    };
    if text.contains("positions:") {
        return match ron::from_str::<PracticeBook>(&text) {
            Ok(book) => (
                crate::lessons::practice::problems(&book, TURN_CAP).into_iter().map(named).collect(),
                format!("{} practice positions, each the unique best", book.positions.len()),
            ),
            Err(e) => (vec![named(format!("not a practice book: {e}"))], String::new()),
        };
    }
    match LessonBook::parse(&text) {
        Ok(book) => (
            problems(&book).into_iter().map(named).collect(),
            format!("{} lessons, all play as written", book.lessons.len()),
        ),
        Err(e) => (vec![named(e)], String::new()),
    }
}

/// Prints a practice book of the positions found in self-play.
fn print_found(args: &LessonsArgs, kind: crate::games::GameKind) -> ExitCode {
    let options = if args.options.is_empty() { kind.quick_pairs() } else { args.options.clone() };
    let positions = find(kind, &options, (args.seed, args.games), args.count, TURN_CAP);
    let book = PracticeBook { game: kind.slug().to_string(), positions };
    let pretty = ron::ser::PrettyConfig::new().depth_limit(3);
    match ron::ser::to_string_pretty(&book, pretty) {
        Ok(text) => {
            let mut how =
                format!("stoneyard lessons --find {} --seed {} --games {}", kind.slug(), args.seed, args.games);
            for (k, v) in &args.options {
                how.push_str(&format!(" --option {k}={v}"));
            }
            println!("// {} practice positions found in self-play by `{how}`.", book.positions.len());
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(format!("cannot write the book: {e}")),
    }
}

/// Writes every book as JSON under `dir` (`lessons/<game>.json`, `practice/<game>.json`).
fn export(dir: &Path) -> ExitCode {
    for (from, to) in [(LESSONS_DIR, "lessons"), (PRACTICE_DIR, "practice")] {
        let files = match books_in(Path::new(from)) {
            Ok(files) => files,
            Err(e) => return fail(format!("cannot read {from}: {e}")),
        };
        let out = dir.join(to);
        if let Err(e) = std::fs::create_dir_all(&out) {
            return fail(format!("cannot make {}: {e}", out.display()));
        }
        for file in files {
            let text = match std::fs::read_to_string(&file) {
                Ok(text) => text,
                Err(e) => return fail(format!("{}: {e}", file.display())),
            };
            let json = if to == "practice" {
                ron::from_str::<PracticeBook>(&text).map_err(|e| e.to_string()).and_then(|b| to_json(&b))
            } else {
                LessonBook::parse(&text).and_then(|b| to_json(&b))
            };
            let target = out.join(file.with_extension("json").file_name().unwrap_or_default());
            match json.and_then(|json| std::fs::write(&target, json).map_err(|e| e.to_string())) {
                Ok(()) => {}
                Err(e) => return fail(format!("{}: {e}", file.display())),
            }
        }
    }
    ExitCode::SUCCESS
}

fn to_json(book: &impl serde::Serialize) -> Result<String, String> {
    serde_json::to_string(book).map_err(|e| e.to_string())
}

pub fn run(args: LessonsArgs) -> ExitCode {
    if let Some(dir) = &args.export {
        return export(dir);
    }
    if let Some(kind) = args.find {
        return print_found(&args, kind);
    }
    if !args.check {
        return fail("say what to do: `stoneyard lessons --check [FILE…]` or `stoneyard lessons --find GAME`");
    }
    let files = if args.files.is_empty() {
        let mut files = Vec::new();
        for dir in [LESSONS_DIR, PRACTICE_DIR] {
            match books_in(Path::new(dir)) {
                Ok(found) => files.extend(found),
                Err(e) => return fail(format!("cannot read {dir}: {e}")),
            }
        }
        files
    } else {
        args.files
    };
    let mut found = 0;
    for file in &files {
        let (problems, holds) = check_file(file);
        found += problems.len();
        for p in &problems {
            println!("{p}");
        }
        if problems.is_empty() {
            println!("{}: {holds}", file.display());
        }
    }
    if found > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
