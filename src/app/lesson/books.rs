//! Reads each game's lesson book when it is first wanted: the desktop build holds the books; the
//! browser fetches `pkg/lessons/<game>.ron` beside the game's module, so lessons cost the
//! module's download nothing.

use crate::app::lesson_state::{BookState, BookWanted, LessonBooks};
use crate::games::GameKind;
use crate::lessons::LessonBook;
use bevy::prelude::*;
use std::sync::Arc;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (ask_for_books, take_arrived_books).chain().in_set(crate::app::AppSystems::RecordInput));
}

/// Starts reading every book asked for and not yet read or on its way.
fn ask_for_books(mut wanted: MessageReader<BookWanted>, mut books: ResMut<LessonBooks>) {
    for BookWanted(kind) in wanted.read().copied().collect::<Vec<_>>() {
        if matches!(books.0.get(&kind), Some(BookState::Ready(_) | BookState::Loading)) {
            continue;
        }
        let state = match source::start(kind) {
            Some(text) => read(kind, &text),
            None => BookState::Loading,
        };
        books.0.insert(kind, state);
    }
}

/// Books the browser has fetched since the last frame.
fn take_arrived_books(mut books: ResMut<LessonBooks>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    for (kind, arrived) in source::arrived() {
        let state = match arrived {
            Ok(text) => read(kind, &text),
            Err(e) => BookState::Failed(format!("The lessons could not be fetched: {e}")),
        };
        books.0.insert(kind, state);
    }
    // A page draws only on input: frames must keep coming to take up a book when it arrives.
    if books.0.values().any(|b| matches!(b, BookState::Loading)) {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// The book in `text`, checked to be `kind`'s.
fn read(kind: GameKind, text: &str) -> BookState {
    match LessonBook::parse(text) {
        Ok(book) if book.kind() == Ok(kind) => BookState::Ready(Arc::new(book)),
        Ok(book) => BookState::Failed(format!("the lessons of {} are those of '{}'", kind.name(), book.game)),
        Err(e) => {
            error!("{} lessons: {e}", kind.name());
            BookState::Failed(format!("The lessons of {} cannot be read: {e}", kind.name()))
        }
    }
}

/// The desktop's copies, built in.
#[cfg(not(target_arch = "wasm32"))]
mod source {
    use crate::games::GameKind;

    /// The book's text at once.
    pub fn start(kind: GameKind) -> Option<String> {
        Some(
            match kind.slug() {
                "gravel" => include_str!("../../../assets/lessons/gravel.ron"),
                "red-stone" => include_str!("../../../assets/lessons/red-stone.ron"),
                "throngs" => include_str!("../../../assets/lessons/throngs.ron"),
                "inchworm" => include_str!("../../../assets/lessons/inchworm.ron"),
                "hidden-intention" => include_str!("../../../assets/lessons/hidden-intention.ron"),
                other => return Some(format!("(game: \"{other}\", lessons: [])")),
            }
            .to_string(),
        )
    }

    pub fn arrived() -> Vec<(GameKind, Result<String, String>)> {
        Vec::new()
    }
}

/// The browser's: fetched from the page's `pkg/lessons/`, taken up by a later frame.
#[cfg(target_arch = "wasm32")]
mod source {
    use crate::games::GameKind;
    use std::cell::RefCell;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};

    thread_local! {
        static ARRIVED: RefCell<Vec<(GameKind, Result<String, String>)>> = const { RefCell::new(Vec::new()) };
    }

    fn say(e: JsValue) -> String {
        e.as_string().unwrap_or_else(|| format!("{e:?}"))
    }

    fn arrive(kind: GameKind, result: Result<String, String>) {
        ARRIVED.with(|a| a.borrow_mut().push((kind, result)));
    }

    /// Starts the fetch; the book comes through [`arrived`].
    pub fn start(kind: GameKind) -> Option<String> {
        let Some(window) = web_sys::window() else {
            arrive(kind, Err("no page".into()));
            return None;
        };
        let url = format!("./pkg/lessons/{}.ron", kind.slug());
        let on_response: Closure<dyn FnMut(JsValue)> = Closure::once(move |response: JsValue| {
            let ok = js_sys::Reflect::get(&response, &"ok".into()).ok().and_then(|v| v.as_bool()).unwrap_or(false);
            if !ok {
                let status = js_sys::Reflect::get(&response, &"status".into()).ok().and_then(|v| v.as_f64());
                arrive(kind, Err(format!("the server answered {}", status.unwrap_or(0.0))));
                return;
            }
            // `response.text()`, called through reflection (no web-sys feature for Response).
            let text = js_sys::Reflect::get(&response, &"text".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .and_then(|f| f.call0(&response).ok())
                .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
            let Some(text) = text else {
                arrive(kind, Err("the answer has no text".into()));
                return;
            };
            let on_text: Closure<dyn FnMut(JsValue)> = Closure::once(move |text: JsValue| {
                arrive(kind, text.as_string().ok_or_else(|| "the answer is not text".to_string()));
            });
            let on_error: Closure<dyn FnMut(JsValue)> = Closure::once(move |e: JsValue| arrive(kind, Err(say(e))));
            let _ = text.then2(&on_text, &on_error);
            // The browser calls one of them later; they must outlive this function.
            on_text.forget();
            on_error.forget();
        });
        let on_error: Closure<dyn FnMut(JsValue)> = Closure::once(move |e: JsValue| arrive(kind, Err(say(e))));
        let _ = window.fetch_with_str(&url).then2(&on_response, &on_error);
        on_response.forget();
        on_error.forget();
        None
    }

    pub fn arrived() -> Vec<(GameKind, Result<String, String>)> {
        ARRIVED.with(|a| std::mem::take(&mut *a.borrow_mut()))
    }
}
