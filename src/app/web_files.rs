//! Files in the browser: download a record (a link to a Blob, clicked) and upload one (a file
//! input, read by the browser in the background and picked up by the next frame).

use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

thread_local! {
    /// The text of the file the player uploaded, or why it could not be read; taken by `take_upload`.
    static UPLOADED: RefCell<Option<Result<String, String>>> = const { RefCell::new(None) };
}

fn js_error(what: &str, e: wasm_bindgen::JsValue) -> String {
    format!("{what}: {}", e.as_string().unwrap_or_else(|| format!("{e:?}")))
}

/// Offers `text` to the player as a file called `file_name` (the browser's download).
pub fn download(file_name: &str, text: &str) -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no page to download from")?;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/plain;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| js_error("cannot make the file", e))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| js_error("cannot link the file", e))?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| js_error("cannot make a link", e))?
        .dyn_into()
        .map_err(|_| "not a link element")?;
    link.set_href(&url);
    link.set_download(file_name);
    link.click();
    // The click has started the download; the object URL is no longer needed.
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Opens the browser's file chooser; the chosen file's text arrives through [`take_upload`].
pub fn start_upload() -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no page to upload to")?;
    let input: web_sys::HtmlInputElement = document
        .create_element("input")
        .map_err(|e| js_error("cannot make a file chooser", e))?
        .dyn_into()
        .map_err(|_| "not an input element")?;
    input.set_type("file");
    input.set_accept(".json,.txt,text/plain,application/json");
    let chooser = input.clone();
    let on_change = Closure::once_into_js(move || {
        let Some(file) = chooser.files().and_then(|files| files.get(0)) else { return };
        let on_text: Closure<dyn FnMut(wasm_bindgen::JsValue)> = Closure::once(move |text: wasm_bindgen::JsValue| {
            let result = text.as_string().ok_or_else(|| "the file is not text".to_string());
            UPLOADED.with(|slot| *slot.borrow_mut() = Some(result));
        });
        let on_error: Closure<dyn FnMut(wasm_bindgen::JsValue)> = Closure::once(move |e: wasm_bindgen::JsValue| {
            UPLOADED.with(|slot| *slot.borrow_mut() = Some(Err(js_error("the file cannot be read", e))));
        });
        let _ = file.text().then2(&on_text, &on_error);
        // The browser calls one of them later; they must outlive this function.
        on_text.forget();
        on_error.forget();
    });
    input.set_onchange(Some(on_change.unchecked_ref()));
    input.click();
    Ok(())
}

/// The uploaded file's text (once), if one has arrived since the last call.
pub fn take_upload() -> Option<Result<String, String>> {
    UPLOADED.with(|slot| slot.borrow_mut().take())
}
