//! In the browser, a renderer too slow for all of the page's pixels draws fewer of them: the
//! canvas gets a smaller drawing buffer, stretched by the page to fill the same place, and the
//! game keeps the layout it had (its window's scale factor follows), only softer.
//!
//! Why: a software renderer (Chromium's SwiftShader, where a browser has no GPU to use) takes
//! about 230 ms per million pixels for a frame of the game, whatever the page does: 200 ms for a
//! 1280×720 page, 300 ms for a phone's at device scale 2, and the page gets no frame of its own
//! meanwhile (docs/browser.md). Drawing fewer pixels is the one cure; a renderer that keeps up
//! never changes anything.
//!
//! How: [`RenderScale`] hears how long the renderer took over each frame (the frame pacing's
//! fence) and chooses the share of the page's device pixels (per side) to draw; the browser's
//! side sizes the canvas's box by it and stretches it back with a CSS transform (winit sizes the
//! drawing buffer from the box before transforms), and overrides the window's scale factor by
//! the same share, so that the layout in logical pixels stays the page's.

use bevy::prelude::*;

/// The browser adapts its drawing to the renderer (the desktop always draws every pixel).
pub fn plugin(_app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    web::plugin(_app);
}

/// A frame that took the renderer longer than this (ms) is slow.
#[cfg(any(target_arch = "wasm32", test))]
const SLOW_MS: f64 = 75.0;
/// The scale is chosen for frames of about this long (ms): well under 100 ms between frames.
#[cfg(any(target_arch = "wasm32", test))]
const AIM_MS: f64 = 55.0;
/// Frames this quick (ms) leave room for more pixels.
#[cfg(any(target_arch = "wasm32", test))]
const QUICK_MS: f64 = 20.0;
/// Slow frames in a row before drawing fewer pixels: one slow frame may be a screen's first
/// (its pictures and pipelines made on the way).
#[cfg(any(target_arch = "wasm32", test))]
const SLOW_IN_A_ROW: u32 = 3;
/// Quick frames in a row before drawing more pixels again.
#[cfg(any(target_arch = "wasm32", test))]
const QUICK_IN_A_ROW: u32 = 30;
/// Frames measured after the start or a change before the scale counts as settled: until then
/// the app draws frame after frame, so that a slow renderer is found out within a second or two
/// (an idle screen draws about one frame a second) rather than in the middle of a game.
#[cfg(any(target_arch = "wasm32", test))]
const SETTLED_AFTER: u32 = 6;
/// Scales are multiples of this, so that small changes in frame times do not resize the canvas.
#[cfg(any(target_arch = "wasm32", test))]
const STEP: f32 = 0.05;
/// Never fewer drawn pixels than this per page (CSS) pixel, across: text stays readable.
#[cfg(any(target_arch = "wasm32", test))]
const FEWEST_PER_PAGE_PIXEL: f32 = 0.5;

/// The share of the page's device pixels, per side, that the game draws, chosen from how long
/// the renderer takes over a frame. The cost of a frame grows with the pixels drawn, the square
/// of the scale.
#[cfg(any(target_arch = "wasm32", test))]
#[derive(Debug)]
struct RenderScale {
    scale: f32,
    /// Frames measured since the start or the last change of scale.
    measured: u32,
    slow: u32,
    /// Quick frames in a row, and the longest of them.
    quick: u32,
    quick_longest: f64,
}

#[cfg(any(target_arch = "wasm32", test))]
impl Default for RenderScale {
    fn default() -> Self {
        Self { scale: 1.0, measured: 0, slow: 0, quick: 0, quick_longest: 0.0 }
    }
}

#[cfg(any(target_arch = "wasm32", test))]
impl RenderScale {
    fn scale(&self) -> f32 {
        self.scale
    }

    /// The renderer took `ms` over a frame on a page of `device_ratio` device pixels per page
    /// pixel; `Some(scale)` when the game should now draw another share of them.
    fn frame_drawn(&mut self, ms: f64, device_ratio: f32) -> Option<f32> {
        self.measured = self.measured.saturating_add(1);
        let lowest = (FEWEST_PER_PAGE_PIXEL / device_ratio.max(f32::EPSILON)).min(1.0);
        if ms > SLOW_MS {
            self.quick = 0;
            self.slow += 1;
            if self.slow < SLOW_IN_A_ROW {
                return None;
            }
            self.slow = 0;
            let wanted = steps_down(self.scale * (AIM_MS / ms).sqrt() as f32).max(lowest);
            return self.change_to(wanted.min(self.scale));
        }
        self.slow = 0;
        if ms >= QUICK_MS || self.scale >= 1.0 {
            self.quick = 0;
            return None;
        }
        self.quick_longest = if self.quick == 0 { ms } else { self.quick_longest.max(ms) };
        self.quick += 1;
        if self.quick < QUICK_IN_A_ROW {
            return None;
        }
        self.quick = 0;
        let room = (AIM_MS / self.quick_longest.max(1.0)).sqrt() as f32;
        let wanted = steps_down(self.scale * room).max(self.scale + STEP).min(1.0);
        self.change_to(wanted)
    }

    /// Too few frames measured since the start or the last change to trust the scale.
    fn settling(&self) -> bool {
        self.measured < SETTLED_AFTER
    }

    fn change_to(&mut self, wanted: f32) -> Option<f32> {
        ((wanted - self.scale).abs() >= STEP / 2.0).then(|| {
            self.measured = 0;
            self.scale = wanted;
            wanted
        })
    }
}

/// `scale` rounded down to a whole number of steps (at least one).
#[cfg(any(target_arch = "wasm32", test))]
fn steps_down(scale: f32) -> f32 {
    ((scale / STEP + 1e-3).floor() * STEP).max(STEP)
}

#[cfg(target_arch = "wasm32")]
mod web {
    use super::RenderScale;
    use bevy::prelude::*;
    use bevy::window::PrimaryWindow;
    use std::cell::RefCell;
    use wasm_bindgen::JsCast;

    thread_local! {
        /// The renderer's times for the frames it finished since the app last looked (ms).
        static DRAWN: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    }

    /// The share chosen and how far the page has carried it out.
    #[derive(Resource, Default)]
    struct DrawingShare {
        chosen: RenderScale,
        /// The share the canvas's box has now.
        boxed: Option<f32>,
        /// The box was changed and its drawing buffer not yet resized: the window's physical size
        /// then, and the frames since.
        resizing: Option<(UVec2, u32)>,
    }

    /// Frames to wait for the drawing buffer's resize before the scale factor follows anyway.
    const RESIZE_WAIT: u32 = 30;

    pub fn plugin(app: &mut App) {
        crate::app::frame_pacing::on_frame_drawn(|ms| DRAWN.with(|drawn| drawn.borrow_mut().push(ms)));
        app.init_resource::<DrawingShare>();
        // First: the frame that brings the resized drawing buffer (winit's resize is applied
        // before the update) is laid out with the scale factor that goes with it, never with one
        // of the two alone (a frame laid out at twice or half the page's size).
        app.add_systems(First, follow_the_resized_canvas);
        // Last: a new share resizes the canvas's box; the page's resize observer tells winit
        // before the next frame.
        app.add_systems(Last, fit_drawing_to_the_renderer.before(crate::app::frame_pacing::PaceFrames));
    }

    fn follow_the_resized_canvas(
        mut windows: Query<&mut Window, With<PrimaryWindow>>,
        mut share: ResMut<DrawingShare>,
    ) {
        let Ok(mut window) = windows.single_mut() else { return };
        if let Some((size, frames)) = share.resizing {
            if window.resolution.physical_size() == size && frames < RESIZE_WAIT {
                return;
            }
            share.resizing = None;
        }
        // Also when the page's own device ratio changed (a zoom, another screen).
        let boxed = share.boxed.unwrap_or(1.0);
        let wanted = (boxed < 1.0).then(|| window.resolution.base_scale_factor() * boxed);
        if window.resolution.scale_factor_override() != wanted {
            window.resolution.set_scale_factor_override(wanted);
        }
    }

    fn fit_drawing_to_the_renderer(
        windows: Query<&Window, With<PrimaryWindow>>,
        mut share: ResMut<DrawingShare>,
        mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    ) {
        let Ok(window) = windows.single() else { return };
        let device_ratio = window.resolution.base_scale_factor();
        for ms in DRAWN.with(|drawn| std::mem::take(&mut *drawn.borrow_mut())) {
            if let Some(now) = share.chosen.frame_drawn(ms, device_ratio) {
                info!(
                    "the renderer took {ms:.0} ms over a frame: drawing {:.0}% of the page's pixels across",
                    now * 100.0
                );
            }
        }
        let chosen = share.chosen.scale();
        if share.boxed.unwrap_or(1.0) != chosen {
            stretch_canvas(chosen);
            share.boxed = Some(chosen);
            share.resizing = Some((window.resolution.physical_size(), 0));
        }
        if let Some((_, frames)) = &mut share.resizing {
            *frames += 1;
        }
        if share.chosen.settling() || share.resizing.is_some() {
            redraw.write(bevy::window::RequestRedraw);
        }
    }

    /// The canvas's box shrunk to `scale` of the page and stretched back to fill it; its drawing
    /// buffer follows the box.
    fn stretch_canvas(scale: f32) {
        let Some(canvas) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("bevy"))
            .and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok())
        else {
            return;
        };
        let style = canvas.style();
        let percent = format!("{}%", scale * 100.0);
        let _ = style.set_property("width", &percent);
        let _ = style.set_property("height", &percent);
        // winit keeps the window's smallest size (Bevy's 180 × 120) as the box's: a smaller box
        // holds the same layout now.
        let _ = style.set_property("min-width", "0");
        let _ = style.set_property("min-height", "0");
        let _ = style.set_property("transform-origin", "0 0");
        let _ = style.set_property("transform", &format!("scale({})", 1.0 / scale));
        let _ = canvas.set_attribute("data-render-scale", &format!("{scale:.2}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `count` frames of `ms` each; the last change of scale they made.
    fn frames(scale: &mut RenderScale, count: u32, ms: f64, device_ratio: f32) -> Option<f32> {
        (0..count).filter_map(|_| scale.frame_drawn(ms, device_ratio)).last()
    }

    #[test]
    fn a_renderer_that_keeps_up_draws_every_pixel() {
        let mut scale = RenderScale::default();
        assert_eq!(frames(&mut scale, 200, 8.0, 2.0), None);
        assert_eq!(frames(&mut scale, 200, 40.0, 2.0), None);
        assert_eq!(scale.scale(), 1.0);
    }

    #[test]
    fn a_slow_frame_now_and_then_changes_nothing() {
        let mut scale = RenderScale::default();
        for _ in 0..20 {
            assert_eq!(scale.frame_drawn(300.0, 1.0), None);
            assert_eq!(scale.frame_drawn(300.0, 1.0), None);
            assert_eq!(scale.frame_drawn(30.0, 1.0), None);
        }
        assert_eq!(scale.scale(), 1.0);
    }

    #[test]
    fn slow_frames_draw_fewer_pixels_to_bring_a_frame_near_the_aim() {
        // The desktop page under a software renderer: 200 ms a frame at every pixel.
        let mut scale = RenderScale::default();
        let now = frames(&mut scale, SLOW_IN_A_ROW, 200.0, 1.0).expect("three slow frames change the scale");
        let expected_ms = 200.0 * f64::from(now * now);
        assert!(expected_ms <= AIM_MS && expected_ms > AIM_MS * 0.7, "{now} gives {expected_ms} ms");
        // Frames near the aim keep it.
        assert_eq!(frames(&mut scale, 100, expected_ms, 1.0), None);
    }

    #[test]
    fn the_drawing_never_falls_below_half_a_pixel_per_page_pixel() {
        let mut scale = RenderScale::default();
        assert_eq!(frames(&mut scale, 30, 2000.0, 1.0), Some(0.5));
        assert_eq!(scale.scale(), 0.5);
        // A phone's page at device scale 2 may go down to a quarter of its device pixels.
        let mut phone = RenderScale::default();
        frames(&mut phone, 30, 2000.0, 2.0);
        assert_eq!(phone.scale(), 0.25);
    }

    #[test]
    fn quick_frames_win_pixels_back_step_by_step_up_to_all() {
        let mut scale = RenderScale::default();
        frames(&mut scale, 30, 2000.0, 1.0);
        let mut last = scale.scale();
        let mut changes = 0;
        while scale.scale() < 1.0 {
            assert_eq!(
                frames(&mut scale, QUICK_IN_A_ROW - 1, 10.0, 1.0),
                None,
                "not before {QUICK_IN_A_ROW} quick frames"
            );
            let now = scale.frame_drawn(10.0, 1.0).expect("quick frames raise the scale");
            assert!(now > last && now <= 1.0);
            last = now;
            changes += 1;
            assert!(changes < 10);
        }
        assert_eq!(frames(&mut scale, 100, 10.0, 1.0), None);
    }

    #[test]
    fn the_scale_settles_after_a_few_frames_from_the_start_and_from_each_change() {
        let mut scale = RenderScale::default();
        assert!(scale.settling());
        frames(&mut scale, SETTLED_AFTER, 30.0, 1.0);
        assert!(!scale.settling());
        let mut slow = RenderScale::default();
        frames(&mut slow, SLOW_IN_A_ROW, 200.0, 1.0).unwrap();
        assert!(slow.settling(), "measuring again after a change");
        frames(&mut slow, SETTLED_AFTER, 50.0, 1.0);
        assert!(!slow.settling());
    }

    #[test]
    fn scales_are_whole_steps() {
        let mut scale = RenderScale::default();
        let now = frames(&mut scale, SLOW_IN_A_ROW, 130.0, 1.0).unwrap();
        let steps = now / STEP;
        assert!((steps - steps.round()).abs() < 1e-4, "{now}");
    }
}
