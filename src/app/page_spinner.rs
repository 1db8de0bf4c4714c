//! The panel's "busy" spinner. On the desktop it is egui's own. In the browser the page draws it:
//! egui leaves its place empty and an element over the canvas turns there by a CSS animation,
//! so while the computer thinks the game need not draw a frame (every frame of the board costs a
//! phone's battery, and a software renderer hundreds of milliseconds) to keep something moving.

use bevy::prelude::*;
use bevy_egui::egui;

/// A spinner of `size` points, in the stroke colour egui's spinner would use.
pub fn spinner(ui: &mut egui::Ui, size: f32) {
    #[cfg(not(target_arch = "wasm32"))]
    ui.add(egui::Spinner::new().size(size));
    #[cfg(target_arch = "wasm32")]
    {
        let (rect, _) = ui.allocate_exact_size(egui::Vec2::splat(size), egui::Sense::hover());
        if ui.is_rect_visible(rect) {
            let shown = Shown { rect, colour: ui.visuals().strong_text_color(), layer: ui.layer_id() };
            let pass = ui.ctx().cumulative_pass_nr();
            ui.ctx().data_mut(|d| {
                let list = d.get_temp_mut_or_default::<PassSpinners>(egui::Id::new(LIST));
                if list.pass != pass {
                    *list = PassSpinners { pass, shown: Vec::new() };
                }
                list.shown.push(shown);
            });
        }
    }
}

/// In the browser: the page's spinner elements follow the spinners the last egui pass laid out.
pub fn plugin(_app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    _app.add_systems(Last, web::place_spinners);
}

#[cfg(target_arch = "wasm32")]
const LIST: &str = "stoneyard-page-spinners";

/// A spinner laid out by egui, in points.
#[cfg(target_arch = "wasm32")]
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shown {
    rect: egui::Rect,
    colour: egui::Color32,
    layer: egui::LayerId,
}

/// The spinners of one egui pass (a pass that lays out none leaves an older list behind).
#[cfg(target_arch = "wasm32")]
#[derive(Clone, Debug, Default)]
struct PassSpinners {
    pass: u64,
    shown: Vec<Shown>,
}

#[cfg(target_arch = "wasm32")]
mod web {
    use super::{LIST, PassSpinners, Shown};
    use crate::app::playing::BoardAnimating;
    use bevy::prelude::*;
    use bevy_egui::{EguiContexts, egui};

    /// The page's spinner elements and what each shows, to touch the page only on a change.
    #[derive(Default)]
    pub(super) struct Elements {
        made: Vec<(web_sys::Element, Option<String>)>,
    }

    pub(super) fn place_spinners(
        mut contexts: EguiContexts,
        animating: Option<Res<BoardAnimating>>,
        mut elements: Local<Elements>,
    ) {
        let Ok(ctx) = contexts.ctx_mut() else { return };
        let pass = ctx.cumulative_pass_nr();
        let list = ctx.data(|d| d.get_temp::<PassSpinners>(egui::Id::new(LIST))).unwrap_or_default();
        // Spinners laid out before the pass just ended are gone; one under a window is hidden by it.
        // While the board animates the move just made they wait: under a software renderer each
        // of the spinner's frames is the whole page composited again, beside the move's own frames.
        let current = list.pass + 1 == pass && !animating.is_some_and(|a| a.0);
        let shown: Vec<Shown> = if current { list.shown } else { Vec::new() };
        let shown = shown.into_iter().filter(|s| ctx.layer_id_at(s.rect.center()).is_none_or(|top| top == s.layer));
        // Points to the page's CSS pixels: the canvas fills the page from its top-left corner.
        let Some(window) = web_sys::window() else { return };
        let css_per_point = ctx.pixels_per_point() / window.device_pixel_ratio() as f32;
        let styles: Vec<String> = shown.map(|s| style(&s, css_per_point)).collect();
        let Some(document) = window.document() else { return };
        while elements.made.len() < styles.len() {
            let Ok(element) = document.create_element("div") else { return };
            let _ = element.set_attribute("class", "page-spinner");
            let _ = element.set_attribute("aria-hidden", "true");
            if let Some(body) = document.body() {
                let _ = body.append_child(&element);
            }
            elements.made.push((element, None));
        }
        for (k, (element, current)) in elements.made.iter_mut().enumerate() {
            let wanted = styles.get(k).cloned();
            if *current != wanted {
                let _ = element.set_attribute("style", wanted.as_deref().unwrap_or("display: none"));
                *current = wanted;
            }
        }
    }

    /// The element's place, size and colour: a ring egui's size, its stroke 3 points as egui's.
    fn style(s: &Shown, css_per_point: f32) -> String {
        // egui strokes its arc 2 points inside the rectangle, 3 points wide.
        let r = s.rect.shrink(0.5);
        let px = |points: f32| points * css_per_point;
        let [red, green, blue, _] = s.colour.to_array();
        format!(
            "left: {:.1}px; top: {:.1}px; width: {:.1}px; height: {:.1}px; border-width: {:.1}px; \
             border-color: rgb({red}, {green}, {blue}); display: block",
            px(r.min.x),
            px(r.min.y),
            px(r.width()),
            px(r.height()),
            px(3.0)
        )
    }
}
