//! Reads each game's lesson and practice books when they are first wanted: the desktop build
//! holds them; the browser fetches `pkg/lessons/<game>.json` and `pkg/practice/<game>.json` beside
//! the game's module (`stoneyard lessons --export`), so they cost the module's download nothing.

use crate::app::lesson_state::{BookState, BookWanted, Books, LessonBooks, PracticeBooks};
use crate::games::GameKind;
use crate::lessons::LessonBook;
use crate::lessons::practice::PracticeBook;
use bevy::prelude::*;
use std::sync::Arc;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (ask_for_books, take_arrived_books).chain().in_set(crate::app::AppSystems::RecordInput));
}

/// The two kinds of book: the folder each is in, and how one is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shelf {
    Lessons,
    Practice,
}

impl Shelf {
    fn folder(self) -> &'static str {
        match self {
            Shelf::Lessons => "lessons",
            Shelf::Practice => "practice",
        }
    }
}

/// A book of one shelf read from its text, checked to be `kind`'s.
/// Natively the repository's RON; in the browser the JSON `stoneyard lessons --export` makes
/// (the page already holds a JSON reader; a RON one would add to its download).
trait Book: Sized + Send + Sync + 'static + serde::de::DeserializeOwned {
    const SHELF: Shelf;
    fn game(&self) -> &str;
    fn parse(text: &str) -> Result<Self, String> {
        #[cfg(target_arch = "wasm32")]
        let read = serde_json::from_str(text).map_err(|e| e.to_string());
        #[cfg(not(target_arch = "wasm32"))]
        let read = ron::from_str(text).map_err(|e| e.to_string());
        read.map_err(|e| format!("not a {} book: {e}", Self::SHELF.folder()))
    }
}

impl Book for LessonBook {
    const SHELF: Shelf = Shelf::Lessons;
    fn game(&self) -> &str {
        &self.game
    }
}

impl Book for PracticeBook {
    const SHELF: Shelf = Shelf::Practice;
    fn game(&self) -> &str {
        &self.game
    }
}

/// Starts reading every book asked for and not yet read or on its way.
fn ask_for_books(
    mut wanted: MessageReader<BookWanted>,
    mut lessons: ResMut<LessonBooks>,
    mut practice: ResMut<PracticeBooks>,
) {
    for BookWanted(kind) in wanted.read().copied().collect::<Vec<_>>() {
        ask(&mut lessons, kind);
        ask(&mut practice, kind);
    }
}

fn ask<B: Book>(books: &mut Books<B>, kind: GameKind) {
    if matches!(books.0.get(&kind), Some(BookState::Ready(_) | BookState::Loading)) {
        return;
    }
    let state = match source::start(B::SHELF, kind) {
        Some(Ok(text)) => read(kind, &text),
        Some(Err(e)) => BookState::Failed(e),
        None => BookState::Loading,
    };
    books.0.insert(kind, state);
}

/// Books the browser has fetched since the last frame.
fn take_arrived_books(
    mut lessons: ResMut<LessonBooks>,
    mut practice: ResMut<PracticeBooks>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    for (shelf, kind, arrived) in source::arrived() {
        let failed = |e: String| format!("The {} could not be fetched: {e}", shelf.folder());
        match (shelf, arrived) {
            (Shelf::Lessons, Ok(text)) => drop(lessons.0.insert(kind, read(kind, &text))),
            (Shelf::Practice, Ok(text)) => drop(practice.0.insert(kind, read(kind, &text))),
            (Shelf::Lessons, Err(e)) => drop(lessons.0.insert(kind, BookState::Failed(failed(e)))),
            (Shelf::Practice, Err(e)) => drop(practice.0.insert(kind, BookState::Failed(failed(e)))),
        }
    }
    // A page draws only on input: frames must keep coming to take up a book when it arrives.
    if lessons.loading() || practice.loading() {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// The book in `text`, checked to be `kind`'s.
fn read<B: Book>(kind: GameKind, text: &str) -> BookState<B> {
    let what = B::SHELF.folder();
    match B::parse(text) {
        Ok(book) if book.game() == kind.slug() => BookState::Ready(Arc::new(book)),
        Ok(book) => BookState::Failed(format!("the {what} of {} are those of '{}'", kind.name(), book.game())),
        Err(e) => {
            error!("{} {what}: {e}", kind.name());
            BookState::Failed(format!("The {what} of {} cannot be read: {e}", kind.name()))
        }
    }
}

/// The desktop's copies, built in.
#[cfg(not(target_arch = "wasm32"))]
mod source {
    use super::Shelf;
    use crate::games::GameKind;

    // Every file under assets/lessons and assets/practice (written by build.rs).
    include!(concat!(env!("OUT_DIR"), "/books.rs"));

    /// The book's text at once.
    pub fn start(shelf: Shelf, kind: GameKind) -> Option<Result<String, String>> {
        let found = BOOKS.iter().find(|(folder, slug, _)| *folder == shelf.folder() && *slug == kind.slug());
        Some(
            found
                .map(|(_, _, text)| text.to_string())
                .ok_or_else(|| format!("no {} for {}", shelf.folder(), kind.slug())),
        )
    }

    pub fn arrived() -> Vec<(Shelf, GameKind, Result<String, String>)> {
        Vec::new()
    }
}

/// The browser's: fetched from the page's `pkg/lessons/`, taken up by a later frame.
#[cfg(target_arch = "wasm32")]
mod source {
    use super::Shelf;
    use crate::games::GameKind;
    use std::cell::RefCell;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};

    /// A fetched book's text, or why it could not be fetched.
    type Arrived = (Shelf, GameKind, Result<String, String>);

    thread_local! {
        static ARRIVED: RefCell<Vec<Arrived>> = const { RefCell::new(Vec::new()) };
    }

    fn say(e: JsValue) -> String {
        e.as_string().unwrap_or_else(|| format!("{e:?}"))
    }

    fn arrive(shelf: Shelf, kind: GameKind, result: Result<String, String>) {
        ARRIVED.with(|a| a.borrow_mut().push((shelf, kind, result)));
    }

    /// Starts the fetch; the book comes through [`arrived`].
    pub fn start(shelf: Shelf, kind: GameKind) -> Option<Result<String, String>> {
        let Some(window) = web_sys::window() else { return Some(Err("no page".into())) };
        let url = format!("./pkg/{}/{}.json", shelf.folder(), kind.slug());
        let arrive = move |result| arrive(shelf, kind, result);
        let on_response: Closure<dyn FnMut(JsValue)> = Closure::once(move |response: JsValue| {
            let ok = js_sys::Reflect::get(&response, &"ok".into()).ok().and_then(|v| v.as_bool()).unwrap_or(false);
            if !ok {
                let status = js_sys::Reflect::get(&response, &"status".into()).ok().and_then(|v| v.as_f64());
                arrive(Err(format!("the server answered {}", status.unwrap_or(0.0))));
                return;
            }
            // `response.text()`, called through reflection (no web-sys feature for Response).
            let text = js_sys::Reflect::get(&response, &"text".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .and_then(|f| f.call0(&response).ok())
                .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
            let Some(text) = text else {
                arrive(Err("the answer has no text".into()));
                return;
            };
            let on_text: Closure<dyn FnMut(JsValue)> = Closure::once(move |text: JsValue| {
                arrive(text.as_string().ok_or_else(|| "the answer is not text".to_string()));
            });
            let on_error: Closure<dyn FnMut(JsValue)> = Closure::once(move |e: JsValue| arrive(Err(say(e))));
            let _ = text.then2(&on_text, &on_error);
            // The browser calls one of them later; they must outlive this function.
            on_text.forget();
            on_error.forget();
        });
        let on_error: Closure<dyn FnMut(JsValue)> = Closure::once(move |e: JsValue| arrive(Err(say(e))));
        let _ = window.fetch_with_str(&url).then2(&on_response, &on_error);
        on_response.forget();
        on_error.forget();
        None
    }

    pub fn arrived() -> Vec<Arrived> {
        ARRIVED.with(|a| std::mem::take(&mut *a.borrow_mut()))
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_desktop_builds_in_both_books_of_every_game_and_reads_them_as_that_game_s() {
        for kind in GameKind::all() {
            for shelf in [Shelf::Lessons, Shelf::Practice] {
                let text = source::start(shelf, kind).expect("at once").unwrap_or_else(|e| panic!("{e}"));
                let ready = match shelf {
                    Shelf::Lessons => matches!(read::<LessonBook>(kind, &text), BookState::Ready(_)),
                    Shelf::Practice => matches!(read::<PracticeBook>(kind, &text), BookState::Ready(_)),
                };
                assert!(ready, "{} {}", shelf.folder(), kind.slug());
            }
        }
    }
}
