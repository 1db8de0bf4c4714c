//! In the browser, the game's frames wait for the renderer: the next frame of an animation is
//! asked for only once WebGL has finished drawing the last one, and while a frame takes longer
//! than a screen refresh the features that share the machine with it (the computer's worker)
//! are told to hold back.
//!
//! Why: a browser keeps two or three of a page's frames in flight. Under a software renderer
//! (Chromium's SwiftShader, or a weak phone) a frame of the board costs 60-80 ms to draw, so
//! frames asked for at the screen's rate queued up, and the page got no frame of its own for
//! 150-250 ms at every move; the computer's search, running beside them, made each one twice as
//! slow. With a real GPU a frame is drawn long before the next refresh and nothing changes.
//!
//! How: after each frame is presented the render world puts a fence into the WebGL context's
//! commands; the app's requests for frames (its redraw messages and egui's repaints) are held
//! while that fence is pending, and a short timer loop on the page wakes the app when it
//! signals. [`Pacing`] makes the decisions; the browser's side only carries them out.

use bevy::prelude::*;

/// The browser paces frames (the desktop draws at its display's rate as before).
pub fn plugin(_app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    web::plugin(_app);
}

#[cfg(target_arch = "wasm32")]
pub use web::{on_frame_drawn, on_renderer_lag, wake_app};

/// Where, in `Last`, the app's requests for another frame are taken to be paced: a request
/// must be made before it.
#[cfg(target_arch = "wasm32")]
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct PaceFrames;

/// A frame still being drawn this long (ms) after it was presented lags the screen's refresh.
#[cfg(any(target_arch = "wasm32", test))]
const LAGGING_MS: f64 = 12.0;
/// A fence that never signals (a lost context) stops holding frames after this long (ms).
#[cfg(any(target_arch = "wasm32", test))]
const GIVE_UP_MS: f64 = 500.0;

/// The pacing decisions, apart from the page: when to hold a frame back, when to wake the app,
/// when to say that the renderer lags or has caught up. Times are in milliseconds.
#[cfg(any(target_arch = "wasm32", test))]
#[derive(Debug, Default)]
struct Pacing {
    /// An update is under way (from its start until its frame is presented).
    in_update: bool,
    /// When the fence after the last presented frame was put in, while it is pending.
    fence_since: Option<f64>,
    /// The lag was told for the pending fence.
    told_for_fence: bool,
    /// The app asked for another frame while one was being drawn.
    held: bool,
    /// The renderer was said to lag, and not yet to have caught up.
    lagging: bool,
    /// How long the renderer took over the last frame it finished.
    last_frame_ms: f64,
}

/// What a look at the pending fence leads to.
#[cfg(any(target_arch = "wasm32", test))]
#[derive(Debug, Default, PartialEq)]
struct Look {
    /// Look again soon.
    again: bool,
    /// Wake the app for the frame it asked for.
    wake: bool,
    /// Tell the lag hooks: `Some(true)` the renderer lags, `Some(false)` it has caught up.
    lag: Option<bool>,
    /// The renderer finished the last frame, this long (ms) after it was presented.
    drawn_in: Option<f64>,
}

#[cfg(any(target_arch = "wasm32", test))]
impl Pacing {
    fn update_started(&mut self) {
        self.in_update = true;
    }

    /// The app asks for a frame; `true`: wake it now (the renderer is idle).
    fn frame_wanted(&mut self) -> bool {
        if self.in_update || self.fence_since.is_some() {
            self.held = true;
            false
        } else {
            true
        }
    }

    /// The app's own redraw requests at the end of an update are held: the frame this update
    /// presents is still to be drawn.
    fn hold_redraws(&mut self) {
        self.held = true;
    }

    /// The update's frame was presented and a fence put behind it at `now`; `Some(true)` when
    /// the lag hooks should hear at once that it will lag (the last frame did).
    fn fenced(&mut self, now: f64) -> Option<bool> {
        self.in_update = false;
        let lags = self.last_frame_ms > LAGGING_MS;
        self.lagging |= lags;
        self.fence_since = Some(now);
        self.told_for_fence = lags;
        lags.then_some(true)
    }

    /// The update's frame was presented but no fence could follow it: `true` to wake the app
    /// at once for what it held.
    fn unfenced(&mut self) -> bool {
        self.in_update = false;
        self.fence_since = None;
        std::mem::take(&mut self.held)
    }

    /// A look at the pending fence at `now`: `done` when it has signalled.
    fn look(&mut self, done: bool, now: f64) -> Look {
        let Some(since) = self.fence_since else {
            return Look { wake: std::mem::take(&mut self.held), ..Look::default() };
        };
        let elapsed = now - since;
        if !done && elapsed < GIVE_UP_MS {
            // Said once for each lagging frame, so that holding back lasts as long as the lag.
            let lag = (elapsed > LAGGING_MS && !self.told_for_fence).then(|| {
                self.told_for_fence = true;
                self.lagging = true;
                true
            });
            return Look { again: true, wake: false, lag, drawn_in: None };
        }
        self.fence_since = None;
        self.last_frame_ms = elapsed;
        let wake = std::mem::take(&mut self.held);
        // Caught up, unless the app is about to draw its next frame (whose fence will tell).
        let lag = (self.lagging && !wake).then(|| {
            self.lagging = false;
            false
        });
        Look { again: false, wake, lag, drawn_in: Some(elapsed) }
    }
}

#[cfg(target_arch = "wasm32")]
mod web {
    use super::{Look, Pacing};
    use bevy::prelude::*;
    use bevy::render::{Render, RenderApp, RenderSystems};
    use std::cell::RefCell;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::Closure;
    use web_sys::{WebGl2RenderingContext as Gl, WebGlSync};

    /// How often the page looks at the fence (a browser clamps shorter timers to about 4 ms).
    const LOOK_EVERY_MS: i32 = 4;

    /// The page's side of the pacing, shared by the app's systems and the page's timer callback
    /// (the browser runs both on its one thread).
    #[derive(Default)]
    struct Pacer {
        pacing: Pacing,
        /// The canvas's WebGL2 context (the one wgpu draws with), found after the first frame.
        gl: Option<Gl>,
        /// The fence after the last presented frame.
        fence: Option<WebGlSync>,
        /// The timer looking at the fence is running.
        looking: bool,
        /// Wakes the app (its event loop's proxy).
        wake: Option<Box<dyn Fn()>>,
        /// Told when a frame lags the refresh (`true`) and when the renderer has caught up.
        on_lag: Option<fn(bool)>,
        /// Told how long (ms) the renderer took over each frame, once it has finished it.
        on_drawn: Option<fn(f64)>,
        look: Option<Closure<dyn FnMut()>>,
        delayed: Option<Closure<dyn FnMut()>>,
    }

    thread_local! {
        static PACER: RefCell<Pacer> = RefCell::default();
    }

    pub fn plugin(app: &mut App) {
        app.add_systems(First, || PACER.with(|p| p.borrow_mut().pacing.update_started()));
        // Last: after every feature (and egui) has asked for its next frame.
        app.add_systems(Last, pace_requests.in_set(super::PaceFrames));
        if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
            render_app.add_systems(Render, fence_the_frame.in_set(RenderSystems::Cleanup));
        }
    }

    /// Wakes the app (which draws nothing while it waits for the renderer, a worker or input).
    pub fn wake_app() {
        PACER.with(|pacer| {
            if let Some(wake) = pacer.borrow().wake.as_ref() {
                wake();
            }
        });
    }

    /// `hook(true)` runs when a frame is still being drawn a refresh after it was presented,
    /// `hook(false)` once the renderer has finished it and no other frame waits.
    pub fn on_renderer_lag(hook: fn(bool)) {
        PACER.with(|pacer| pacer.borrow_mut().on_lag = Some(hook));
    }

    /// `hook(ms)` runs once the renderer has finished each frame, `ms` after it was presented.
    pub fn on_frame_drawn(hook: fn(f64)) {
        PACER.with(|pacer| pacer.borrow_mut().on_drawn = Some(hook));
    }

    fn tell_lag(lagging: bool) {
        if let Some(hook) = PACER.with(|pacer| pacer.borrow().on_lag) {
            hook(lagging);
        }
    }

    /// Asks for a frame: now if the renderer is idle, else once it has drawn the current one.
    fn request_frame() {
        if PACER.with(|pacer| pacer.borrow_mut().pacing.frame_wanted()) {
            wake_app();
        }
    }

    /// Asks for a frame `after` from now (a page timer for a delay).
    fn request_frame_after(after: std::time::Duration) {
        if after.is_zero() {
            return request_frame();
        }
        let Some(window) = web_sys::window() else { return };
        // Longer delays are egui's "some time": the next input redraws anyway.
        let ms = i32::try_from(after.as_millis()).unwrap_or(i32::MAX).min(60_000);
        PACER.with(|pacer| {
            let mut pacer = pacer.borrow_mut();
            let callback = pacer.delayed.get_or_insert_with(|| Closure::new(request_frame));
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(callback.as_ref().unchecked_ref(), ms);
        });
    }

    /// At the end of each update: the app's requests for another frame are kept back until the
    /// renderer has drawn the one this update is about to present (its fence's signal wakes the
    /// app for the next). egui asks for repaints through a callback that wakes the app at once,
    /// from inside an update too, so that a second frame was drawn beside the first: its
    /// requests go through the pacer as well, and those after a delay (a tooltip's) are kept
    /// rather than dropped.
    fn pace_requests(
        mut redraws: ResMut<Messages<bevy::window::RequestRedraw>>,
        mut contexts: Query<&mut bevy_egui::EguiContext, Added<bevy_egui::EguiContext>>,
        proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    ) {
        for mut context in &mut contexts {
            context.get_mut().set_request_repaint_callback(|info| request_frame_after(info.delay));
        }
        PACER.with(|pacer| {
            let mut pacer = pacer.borrow_mut();
            if pacer.wake.is_none()
                && let Some(proxy) = proxy
            {
                let proxy = (**proxy).clone();
                pacer.wake = Some(Box::new(move || {
                    let _ = proxy.send_event(bevy::winit::WinitUserEvent::WakeUp);
                }));
            }
            // Until the first frame shows there is no context to put fences in.
            if !redraws.is_empty() && pacer.gl.is_some() {
                pacer.pacing.hold_redraws();
                redraws.clear();
            }
        });
    }

    fn now() -> f64 {
        web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
    }

    /// The canvas's WebGL2 context; asked for only once wgpu has made it (a context asked for
    /// first would get the browser's default options instead of wgpu's).
    fn canvas_context() -> Option<Gl> {
        let canvas = web_sys::window()?.document()?.get_element_by_id("bevy")?;
        let canvas: web_sys::HtmlCanvasElement = canvas.dyn_into().ok()?;
        canvas.get_context("webgl2").ok()??.dyn_into().ok()
    }

    /// After the frame has been presented: a fence behind its commands, and the timer that
    /// watches it.
    fn fence_the_frame() {
        let (wake, lag) = PACER.with(|pacer| {
            let pacer = &mut *pacer.borrow_mut();
            if pacer.gl.is_none() {
                pacer.gl = canvas_context();
            }
            let Some(gl) = pacer.gl.clone() else { return (pacer.pacing.unfenced(), None) };
            if let Some(old) = pacer.fence.take() {
                gl.delete_sync(Some(&old));
            }
            let Some(fence) = gl.fence_sync(Gl::SYNC_GPU_COMMANDS_COMPLETE, 0) else {
                return (pacer.pacing.unfenced(), None);
            };
            pacer.fence = Some(fence);
            let lag = pacer.pacing.fenced(now());
            if !pacer.looking {
                pacer.looking = schedule_look(pacer);
            }
            (false, lag)
        });
        if let Some(lagging) = lag {
            tell_lag(lagging);
        }
        if wake {
            wake_app();
        }
    }

    /// Looks at the fence again in a few milliseconds; `false` when the page has no timers.
    fn schedule_look(pacer: &mut Pacer) -> bool {
        let callback = pacer.look.get_or_insert_with(|| Closure::new(look));
        web_sys::window()
            .and_then(|w| {
                w.set_timeout_with_callback_and_timeout_and_arguments_0(
                    callback.as_ref().unchecked_ref(),
                    LOOK_EVERY_MS,
                )
                .ok()
            })
            .is_some()
    }

    /// The page's timer: has the renderer finished the last frame?
    fn look() {
        let Look { wake, lag, drawn_in, .. } = PACER.with(|pacer| {
            let pacer = &mut *pacer.borrow_mut();
            let done = match (&pacer.gl, &pacer.fence) {
                (Some(gl), Some(fence)) => {
                    gl.get_sync_parameter(fence, Gl::SYNC_STATUS).as_f64() == Some(f64::from(Gl::SIGNALED))
                }
                _ => true,
            };
            let look = pacer.pacing.look(done, now());
            pacer.looking = look.again && schedule_look(pacer);
            if !look.again
                && let (Some(gl), Some(fence)) = (&pacer.gl, pacer.fence.take())
            {
                gl.delete_sync(Some(&fence));
            }
            look
        });
        if let (Some(ms), Some(hook)) = (drawn_in, PACER.with(|pacer| pacer.borrow().on_drawn)) {
            hook(ms);
        }
        if let Some(lagging) = lag {
            tell_lag(lagging);
        }
        if wake {
            wake_app();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One update that asks for another frame, from its start to its fence at `at`.
    fn frame(p: &mut Pacing, at: f64) -> Option<bool> {
        p.update_started();
        p.hold_redraws();
        p.fenced(at)
    }

    #[test]
    fn a_frame_asked_for_waits_until_the_last_one_is_drawn() {
        let mut p = Pacing::default();
        assert_eq!(frame(&mut p, 0.0), None);
        // Being drawn: nothing to do yet.
        assert_eq!(p.look(false, 4.0), Look { again: true, ..Look::default() });
        // Drawn within a refresh: the app is woken for its next frame, nothing lagged.
        assert_eq!(p.look(true, 8.0), Look { wake: true, drawn_in: Some(8.0), ..Look::default() });
        // Nothing held any more: a later look wakes nobody.
        assert_eq!(p.look(true, 9.0), Look::default());
    }

    #[test]
    fn a_slow_frame_holds_the_worker_back_until_the_last_frame_is_drawn() {
        let mut p = Pacing::default();
        frame(&mut p, 0.0);
        assert_eq!(p.look(false, 4.0).lag, None);
        // Past a refresh: the renderer lags, said once for this frame.
        assert_eq!(p.look(false, 16.0), Look { again: true, lag: Some(true), ..Look::default() });
        assert_eq!(p.look(false, 40.0).lag, None);
        // Drawn, and the app wants the next one: still lagging, the app is woken.
        assert_eq!(p.look(true, 75.0), Look { wake: true, drawn_in: Some(75.0), ..Look::default() });
        // The next frame is expected to lag as the last one did: said at once.
        assert_eq!(frame(&mut p, 90.0), Some(true));
        assert_eq!(p.look(false, 120.0).lag, None);
        assert_eq!(p.look(true, 160.0), Look { wake: true, drawn_in: Some(70.0), ..Look::default() });
        // The last frame of the animation asks for none after it: caught up once it is drawn.
        p.update_started();
        assert_eq!(p.fenced(170.0), Some(true));
        assert_eq!(p.look(true, 240.0), Look { lag: Some(false), drawn_in: Some(70.0), ..Look::default() });
    }

    #[test]
    fn a_request_made_between_frames_wakes_at_once_and_one_made_during_an_update_waits() {
        let mut p = Pacing::default();
        assert!(p.frame_wanted());
        p.update_started();
        assert!(!p.frame_wanted());
        assert_eq!(p.fenced(0.0), None);
        // While the fence is pending the request stays held, then wakes the app.
        assert!(!p.frame_wanted());
        assert!(p.look(true, 5.0).wake);
        assert!(p.frame_wanted());
    }

    #[test]
    fn without_a_fence_or_when_it_never_signals_nothing_stays_held() {
        let mut p = Pacing::default();
        p.update_started();
        p.hold_redraws();
        assert!(p.unfenced());
        frame(&mut p, 0.0);
        assert!(p.look(false, GIVE_UP_MS - 1.0).again);
        assert!(p.look(false, GIVE_UP_MS).wake);
    }
}
