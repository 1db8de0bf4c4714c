//! While a live clock runs the app wakes ten times a second (the clock shows tenths under ten
//! seconds); otherwise it keeps its idle pace (a frame a second at most when nothing happens).

use crate::app::AppSystems;
use crate::app::playing::OnlineStatus;
use crate::online::directory::TimeControl;
use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};
use std::time::Duration;

/// The wait between frames while a live clock runs.
const CLOCK_TICK: Duration = Duration::from_millis(100);
/// The idle wait otherwise (as `third_party::winit` sets it).
const IDLE: Duration = Duration::from_secs(1);

pub fn plugin(app: &mut App) {
    app.add_systems(Update, pace_for_clock.in_set(AppSystems::Present));
}

fn pace_for_clock(status: Res<OnlineStatus>, settings: Option<ResMut<WinitSettings>>) {
    let Some(mut settings) = settings else { return };
    let ticking = status
        .clock
        .as_ref()
        .is_some_and(|c| matches!(c.control, TimeControl::Live { .. }) && c.running.iter().any(|r| *r));
    let want = if ticking { CLOCK_TICK } else { IDLE };
    // A continuous app (the gallery, tests) is left as it is.
    if let UpdateMode::Reactive { wait, .. } = &mut settings.focused_mode
        && *wait != want
    {
        *wait = want;
    }
}
