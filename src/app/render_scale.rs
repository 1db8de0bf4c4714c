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
//! side sizes the canvas's box by it ([`CanvasBox`]) and stretches it back with a CSS transform
//! (winit sizes the drawing buffer from the box before transforms), and overrides the window's
//! scale factor by the same share, so that the layout in logical pixels stays the page's. The box,
//! the window's physical size and its scale factor change in one update: a click that came
//! between a box changed in one update and the page's resize observer telling winit in a later
//! one was mapped with the old scale factor and landed elsewhere on the board.

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
    use super::{CanvasBox, RenderScale};
    use bevy::prelude::*;
    use bevy::window::PrimaryWindow;
    use std::cell::RefCell;
    use wasm_bindgen::JsCast;

    thread_local! {
        /// The renderer's times for the frames it finished since the app last looked (ms).
        static DRAWN: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    }

    /// The share chosen and the canvas box that carries it out.
    #[derive(Resource, Default)]
    struct DrawingShare {
        chosen: RenderScale,
        /// The box last given to the canvas; `None` while the page's own (every pixel) is kept.
        applied: Option<CanvasBox>,
    }

    pub fn plugin(app: &mut App) {
        crate::app::frame_pacing::on_frame_drawn(|ms| DRAWN.with(|drawn| drawn.borrow_mut().push(ms)));
        app.init_resource::<DrawingShare>();
        // First, before anything is laid out: the canvas's box, the window's physical size and
        // its scale factor change together, inside one update, so that the frame and every
        // pointer event after it map page pixels the same way.
        app.add_systems(First, fit_drawing_to_the_renderer);
    }

    fn fit_drawing_to_the_renderer(
        mut windows: Query<&mut Window, With<PrimaryWindow>>,
        mut share: ResMut<DrawingShare>,
        mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    ) {
        let Ok(mut window) = windows.single_mut() else { return };
        let device_ratio = window.resolution.base_scale_factor();
        for ms in DRAWN.with(|drawn| std::mem::take(&mut *drawn.borrow_mut())) {
            if let Some(now) = share.chosen.frame_drawn(ms, device_ratio) {
                info!(
                    "the renderer took {ms:.0} ms over a frame: drawing {:.0}% of the page's pixels across",
                    now * 100.0
                );
            }
        }
        if share.chosen.settling() {
            redraw.write(bevy::window::RequestRedraw);
        }
        let Some(canvas) = canvas() else { return };
        let scale = pinned_scale(&canvas).unwrap_or_else(|| share.chosen.scale());
        // Until the first change the page's own box (the whole page) stands; after it, the box is
        // this module's, and follows the page's size too.
        if share.applied.is_none() && scale >= 1.0 {
            return;
        }
        let Some(page) = canvas.parent_element().map(|p| Vec2::new(p.client_width() as f32, p.client_height() as f32))
        else {
            return;
        };
        let Some(wanted) = CanvasBox::for_page(page, device_ratio, scale) else { return };
        if share.applied == Some(wanted) {
            return;
        }
        wanted.apply_to(&canvas);
        // The drawing buffer is the window's physical size: set here rather than waiting for the
        // page's resize observer (Bevy then asks winit for the same box), so that no update maps
        // a pointer in the new box with the old scale factor.
        window.resolution.set_physical_resolution(wanted.physical.x, wanted.physical.y);
        window.resolution.set_scale_factor_override(Some(wanted.scale_factor()));
        share.applied = Some(wanted);
        redraw.write(bevy::window::RequestRedraw);
    }

    fn canvas() -> Option<web_sys::HtmlElement> {
        web_sys::window()?.document()?.get_element_by_id("bevy")?.dyn_into().ok()
    }

    /// A share pinned by the page (`data-pin-render-scale` on the canvas): the browser test
    /// changes the scale at moments of its choosing with it.
    fn pinned_scale(canvas: &web_sys::HtmlElement) -> Option<f32> {
        let pinned: f32 = canvas.get_attribute("data-pin-render-scale")?.parse().ok()?;
        (pinned.is_finite() && pinned > 0.0).then(|| pinned.min(1.0))
    }

    impl CanvasBox {
        /// The canvas's box shrunk to the drawing buffer's size in page pixels and stretched back
        /// to fill the page.
        fn apply_to(&self, canvas: &web_sys::HtmlElement) {
            let style = canvas.style();
            let (width, height) = self.box_size();
            let _ = style.set_property("width", &format!("{width}px"));
            let _ = style.set_property("height", &format!("{height}px"));
            // winit keeps the window's smallest size (Bevy's 180 × 120) as the box's: a smaller
            // box holds the same layout now.
            let _ = style.set_property("min-width", "0");
            let _ = style.set_property("min-height", "0");
            let _ = style.set_property("transform-origin", "0 0");
            let (across, down) = self.stretch();
            let _ = style.set_property("transform", &format!("scale({across}, {down})"));
            let _ = canvas.set_attribute("data-render-scale", &format!("{:.2}", self.scale));
        }
    }
}

/// The canvas's box for one share of the page's device pixels: its drawing buffer in device
/// pixels, and the page it is stretched to fill.
#[cfg(any(target_arch = "wasm32", test))]
#[derive(Debug, Clone, Copy, PartialEq)]
struct CanvasBox {
    /// The drawing buffer (the window's physical size).
    physical: UVec2,
    /// The page's size in page (CSS) pixels.
    page: Vec2,
    device_ratio: f32,
    scale: f32,
}

#[cfg(any(target_arch = "wasm32", test))]
impl CanvasBox {
    /// `None` for an empty page (a hidden one has nothing to draw).
    fn for_page(page: Vec2, device_ratio: f32, scale: f32) -> Option<Self> {
        if page.x < 1.0 || page.y < 1.0 || device_ratio <= 0.0 {
            return None;
        }
        let physical = (page * device_ratio * scale).floor().max(Vec2::ONE).as_uvec2();
        Some(Self { physical, page, device_ratio, scale })
    }

    /// The box in page pixels: winit sizes the drawing buffer from it at the device ratio.
    fn box_size(&self) -> (f32, f32) {
        (self.physical.x as f32 / self.device_ratio, self.physical.y as f32 / self.device_ratio)
    }

    /// The transform that stretches the box back over the page.
    fn stretch(&self) -> (f32, f32) {
        let (width, height) = self.box_size();
        (self.page.x / width, self.page.y / height)
    }

    /// Device pixels per logical pixel, so that the layout keeps the page's size.
    fn scale_factor(&self) -> f32 {
        self.physical.x as f32 / self.page.x
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

    /// Where a pointer at page point `point` lands in the layout: the page hands winit the
    /// point inside the untransformed box, winit scales it by the device ratio, and Bevy divides
    /// by the window's scale factor.
    fn pointer_in_layout(canvas: &CanvasBox, point: Vec2) -> Vec2 {
        let (across, down) = canvas.stretch();
        let in_box = Vec2::new(point.x / across, point.y / down);
        in_box * canvas.device_ratio / canvas.scale_factor()
    }

    #[test]
    fn a_shrunk_canvas_keeps_the_page_layout_and_maps_pointers_to_the_same_spot() {
        for (page, ratio, scale) in [
            (Vec2::new(1280.0, 720.0), 1.0, 0.8),
            (Vec2::new(390.0, 844.0), 2.0, 0.3),
            (Vec2::new(1366.0, 641.0), 1.25, 0.55),
        ] {
            let canvas = CanvasBox::for_page(page, ratio, scale).unwrap();
            let logical = canvas.physical.as_vec2() / canvas.scale_factor();
            assert!((logical - page).abs().max_element() < 2.0, "{canvas:?}: layout {logical} on a page of {page}");
            let (width, height) = canvas.box_size();
            let (across, down) = canvas.stretch();
            assert!((width * across - page.x).abs() < 1e-3 && (height * down - page.y).abs() < 1e-3, "{canvas:?}");
            let drawn = canvas.physical.as_vec2() / (page * ratio);
            assert!((drawn - Vec2::splat(scale)).abs().max_element() < 0.01, "{canvas:?} draws {drawn}");
            for point in [Vec2::ZERO, page / 2.0, page * 0.9, Vec2::new(page.x * 0.1, page.y * 0.7)] {
                let landed = pointer_in_layout(&canvas, point);
                assert!((landed - point).abs().max_element() < 1.0, "{canvas:?}: {point} lands at {landed}");
            }
        }
        assert_eq!(CanvasBox::for_page(Vec2::ZERO, 1.0, 0.5), None, "a hidden page has no box");
        let tiny = CanvasBox::for_page(Vec2::new(3.0, 3.0), 1.0, 0.05).unwrap();
        assert_eq!(tiny.physical, UVec2::ONE, "never an empty drawing buffer");
    }

    #[test]
    fn scales_are_whole_steps() {
        let mut scale = RenderScale::default();
        let now = frames(&mut scale, SLOW_IN_A_ROW, 130.0, 1.0).unwrap();
        let steps = now / STEP;
        assert!((steps - steps.round()).abs() < 1e-4, "{now}");
    }
}
