//! `stoneyard lessons --check`: every lesson book replayed through its engine, each problem named.

use super::{LessonsArgs, fail};
use crate::lessons::{LessonBook, problems};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the lesson books are, beside the game's other assets.
pub const LESSONS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/lessons");

/// The lesson books in `dir`, by name.
pub fn books_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    Ok(files)
}

/// The problems of the book in `file` (its reading included).
pub fn check_file(file: &Path) -> Vec<String> {
    let named = |p: String| format!("{}: {p}", file.display());
    match std::fs::read_to_string(file).map_err(|e| e.to_string()).and_then(|text| LessonBook::parse(&text)) {
        Ok(book) => problems(&book).into_iter().map(named).collect(),
        Err(e) => vec![named(e)],
    }
}

pub fn run(args: LessonsArgs) -> ExitCode {
    if !args.check {
        return fail("say what to do: `stoneyard lessons --check [FILE…]`");
    }
    let files = if args.files.is_empty() {
        match books_in(Path::new(LESSONS_DIR)) {
            Ok(files) => files,
            Err(e) => return fail(format!("cannot read {LESSONS_DIR}: {e}")),
        }
    } else {
        args.files
    };
    let mut found = 0;
    for file in &files {
        let problems = check_file(file);
        found += problems.len();
        for p in &problems {
            println!("{p}");
        }
        let lessons =
            std::fs::read_to_string(file).ok().and_then(|t| LessonBook::parse(&t).ok()).map_or(0, |b| b.lessons.len());
        if problems.is_empty() {
            println!("{}: {lessons} lessons, all play as written", file.display());
        }
    }
    if found > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
