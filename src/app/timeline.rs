//! One timeline for what the last change of the match shows and sounds: its effects by wave
//! (cascade rounds one after another, a beat apart, scaled by the animation speed). The board's
//! animations and flourishes start their pieces at their wave's time on it, the sounds of a wave
//! play when that wave is drawn, "skip" ends all of it at once (pending sounds included), and the
//! board is animating while it runs.

use super::AppSystems;
use super::match_state::CurrentMatch;
use super::playing::{BoardAnimating, EffectHappened, MatchChanged};
use super::settings::CurrentSettings;
use crate::rules::{Effect, EffectKind, Outcome, Side};
use crate::save::AnimationSpeed;
use crate::synth::Cue;
use bevy::prelude::*;

/// Seconds between cascade waves at normal speed.
pub const BEAT: f32 = 0.25;

/// Capture sizes with a cue of their own (larger captures share the last).
pub const CAPTURE_SIZES: u16 = 12;

/// Duration multiplier of a speed setting (`None`: no animation).
pub fn speed_factor(speed: AnimationSpeed) -> Option<f32> {
    match speed {
        AnimationSpeed::Slow => Some(1.6),
        AnimationSpeed::Normal => Some(1.0),
        AnimationSpeed::Fast => Some(0.5),
        AnimationSpeed::Off => None,
    }
}

/// A sound due at a time of the timeline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scheduled {
    pub at: f32,
    pub cue: Cue,
}

/// The presentation of the last change, on one clock.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Timeline {
    /// Seconds since the change, on the timeline's clock.
    pub elapsed: f32,
    /// When the change came, in seconds of the app's real clock (`Time<Real>`): the timeline
    /// follows that clock, so frames that come late (a page in the background, a renderer that
    /// lags) catch up at once instead of holding the board in a half-drawn animation.
    pub started_at: f64,
    /// When each wave starts (index: the wave).
    pub wave_starts: Vec<f32>,
    /// The sounds, in the order they are due.
    pub sounds: Vec<Scheduled>,
    /// How many of `sounds` have been played (or skipped).
    pub sounded: usize,
    /// When the last animation or flourish on the timeline ends (the features that start them
    /// push it out).
    pub end: f32,
}

impl Default for Timeline {
    fn default() -> Self {
        Timeline { elapsed: 0.0, started_at: 0.0, wave_starts: vec![0.0], sounds: Vec::new(), sounded: 0, end: 0.0 }
    }
}

impl Timeline {
    /// The timeline of one decision's `effects` at the speed `factor` (`None`: animations off,
    /// every wave at once). `lost` says whether a game-over effect is the person's loss here.
    pub fn of(
        effects: &[Effect],
        factor: Option<f32>,
        lost: impl Fn(&EffectKind) -> bool,
        game_goes_on: bool,
    ) -> Timeline {
        let waves = effects.iter().map(|e| usize::from(e.wave)).max().map_or(1, |w| w + 1);
        let beat = factor.map_or(0.0, |f| BEAT * f);
        let wave_starts: Vec<f32> = (0..waves).map(|w| w as f32 * beat).collect();
        let mut sounds: Vec<Scheduled> = Vec::new();
        for (wave, &at) in wave_starts.iter().enumerate() {
            let in_wave: Vec<&Effect> = effects.iter().filter(|e| usize::from(e.wave) == wave).collect();
            if in_wave.is_empty() {
                continue;
            }
            let mut cues: Vec<Cue> = Vec::new();
            // Each later round of a cascade is announced as it is drawn.
            if wave > 0 {
                cues.push(Cue::Cascade);
            }
            // Every piece taken in one wave makes one capture sound, sized by their number.
            let taken: u16 = in_wave.iter().map(|e| captured_count(&e.kind)).sum();
            if taken > 0 {
                cues.push(Cue::Capture(taken.clamp(1, CAPTURE_SIZES)));
            }
            for e in in_wave {
                let cue = match &e.kind {
                    EffectKind::GameOver { outcome: Outcome::Winner(_) } if lost(&e.kind) => Some(Cue::Lose),
                    kind => cue_for(kind),
                };
                // The same cue twice in one wave would only sound louder: once is enough.
                if let Some(cue) = cue.filter(|c| !cues.contains(c)) {
                    cues.push(cue);
                }
            }
            sounds.extend(cues.into_iter().map(|cue| Scheduled { at, cue }));
        }
        let last = *wave_starts.last().unwrap_or(&0.0);
        if game_goes_on && !effects.is_empty() {
            sounds.push(Scheduled { at: last, cue: Cue::TurnChange });
        }
        Timeline { elapsed: 0.0, started_at: 0.0, end: last, wave_starts, sounds, sounded: 0 }
    }

    /// When wave `wave` starts.
    pub fn start_of(&self, wave: u16) -> f32 {
        self.wave_starts.get(usize::from(wave)).or(self.wave_starts.last()).copied().unwrap_or(0.0)
    }

    /// Something on the timeline is still to be shown or heard.
    pub fn running(&self) -> bool {
        self.elapsed < self.end || self.sounded < self.sounds.len()
    }

    /// Ends everything now: animations and flourishes finish, pending sounds are dropped.
    pub fn skip(&mut self) {
        self.elapsed = self.elapsed.max(self.end);
        self.sounded = self.sounds.len();
    }

    /// A feature starts something that ends at `at` on this timeline.
    pub fn lasts_until(&mut self, at: f32) {
        self.end = self.end.max(at);
    }

    /// The sounds due by now that have not been played; marks them played.
    pub fn due_sounds(&mut self) -> Vec<Cue> {
        let due = self.sounds[self.sounded..].iter().take_while(|s| s.at <= self.elapsed).count();
        let cues = self.sounds[self.sounded..self.sounded + due].iter().map(|s| s.cue).collect();
        self.sounded += due;
        cues
    }
}

/// How many pieces an effect takes off the board as a capture or removal.
fn captured_count(kind: &EffectKind) -> u16 {
    match kind {
        EffectKind::Captured { cells, .. } => cells.len() as u16,
        EffectKind::Removed { count, .. } => *count,
        _ => 0,
    }
}

/// The cue of an effect other than a capture (`None` for effects heard through another one).
fn cue_for(effect: &EffectKind) -> Option<Cue> {
    Some(match effect {
        EffectKind::Placed { .. } => Cue::Place,
        EffectKind::Stacked { .. } | EffectKind::Collected { .. } | EffectKind::Distributed { .. } => Cue::Stack,
        EffectKind::Moved { .. } | EffectKind::Hopped { .. } => Cue::Hop,
        EffectKind::Burned { .. } => Cue::Burn,
        EffectKind::Swapped { .. } => Cue::Swap,
        EffectKind::PieSwap { .. } => Cue::Pie,
        EffectKind::Passed { .. } => Cue::TurnChange,
        EffectKind::GameOver { outcome: Outcome::Draw } => Cue::Draw,
        EffectKind::GameOver { .. } => Cue::Win,
        EffectKind::Captured { .. }
        | EffectKind::Removed { .. }
        | EffectKind::Unburned { .. }
        | EffectKind::Scored { .. }
        | EffectKind::Rescued { .. } => return None,
    })
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Timeline>();
    app.add_systems(Update, start_timeline.in_set(AppSystems::Project));
    app.add_systems(
        Update,
        (advance_timeline, tell_animating).chain().in_set(AppSystems::Present).after(StartsOnTimeline),
    );
    app.add_systems(
        OnExit(super::screen::Screen::Playing),
        |mut t: ResMut<Timeline>, mut a: ResMut<BoardAnimating>| {
            t.skip();
            a.set_if_neq(BoardAnimating(false));
        },
    );
}

/// The systems that start animations and flourishes on the timeline (before it advances).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct StartsOnTimeline;

/// A change of the match starts a new timeline with this frame's effects (what was still running
/// of the last one ends first).
fn start_timeline(
    mut changed: MessageReader<MatchChanged>,
    mut effects: MessageReader<EffectHappened>,
    mut timeline: ResMut<Timeline>,
    settings: Res<CurrentSettings>,
    current: Option<Res<CurrentMatch>>,
    clock: Res<Time<Real>>,
) {
    let effects: Vec<Effect> = effects.read().map(|e| e.effect.clone()).collect();
    if changed.read().count() == 0 && effects.is_empty() {
        return;
    }
    // Against the computer or online the person hears whether they won or lost.
    let lost = |kind: &EffectKind| match (kind, current.as_deref()) {
        (EffectKind::GameOver { outcome: Outcome::Winner(side) }, Some(m)) => loser_is_here(m, *side),
        _ => false,
    };
    let goes_on = current.as_deref().is_some_and(|m| !m.is_over());
    *timeline = Timeline::of(&effects, speed_factor(settings.0.animation_speed), lost, goes_on);
    timeline.started_at = clock.elapsed_secs_f64();
}

/// The winner `side` is the computer or the online opponent of a person here.
fn loser_is_here(m: &CurrentMatch, winner: Side) -> bool {
    (m.player_of(winner).is_some() && m.players.iter().any(Option::is_none)) || m.is_remote(winner)
}

fn advance_timeline(
    mut timeline: ResMut<Timeline>,
    clock: Res<Time<Real>>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if timeline.running() {
        let now = (clock.elapsed_secs_f64() - timeline.started_at) as f32;
        // A skip may have put the clock ahead of the real one: it never goes back.
        timeline.elapsed = timeline.elapsed.max(now);
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// Tells the other features whether the board is animating: the timeline runs.
fn tell_animating(timeline: Res<Timeline>, mut animating: ResMut<BoardAnimating>) {
    animating.set_if_neq(BoardAnimating(timeline.elapsed < timeline.end));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RemoveCause;

    fn effect(wave: u16, kind: EffectKind) -> Effect {
        Effect::new(wave, kind)
    }

    #[test]
    fn each_wave_sounds_when_it_starts_and_one_capture_sound_per_wave() {
        let effects = [
            effect(0, EffectKind::Placed { cell: 1, by: Side::First, piece: 'b', count: 1 }),
            effect(0, EffectKind::Captured { cells: vec![2, 3], by: Side::First }),
            effect(0, EffectKind::Captured { cells: vec![7], by: Side::First }),
            effect(1, EffectKind::Removed { cell: 4, count: 1, cause: RemoveCause::Unstable }),
            effect(2, EffectKind::Removed { cell: 5, count: 1, cause: RemoveCause::Unstable }),
            effect(2, EffectKind::Removed { cell: 6, count: 1, cause: RemoveCause::Unstable }),
        ];
        let t = Timeline::of(&effects, Some(1.0), |_| false, true);
        assert_eq!(t.wave_starts, vec![0.0, BEAT, 2.0 * BEAT]);
        let captures: Vec<(f32, Cue)> =
            t.sounds.iter().filter(|s| matches!(s.cue, Cue::Capture(_))).map(|s| (s.at, s.cue)).collect();
        assert_eq!(captures, vec![(0.0, Cue::Capture(3)), (BEAT, Cue::Capture(1)), (2.0 * BEAT, Cue::Capture(2))]);
        let rounds: Vec<f32> = t.sounds.iter().filter(|s| s.cue == Cue::Cascade).map(|s| s.at).collect();
        assert_eq!(rounds, vec![BEAT, 2.0 * BEAT]);
        assert_eq!(t.sounds.last().map(|s| (s.at, s.cue)), Some((2.0 * BEAT, Cue::TurnChange)));
    }

    #[test]
    fn sounds_come_due_as_the_clock_runs_and_a_skip_drops_the_rest() {
        let effects = [
            effect(0, EffectKind::Placed { cell: 1, by: Side::First, piece: 'b', count: 1 }),
            effect(1, EffectKind::Removed { cell: 4, count: 1, cause: RemoveCause::Unstable }),
        ];
        let mut t = Timeline::of(&effects, Some(2.0), |_| false, false);
        t.lasts_until(1.0);
        assert_eq!(t.due_sounds(), vec![Cue::Place]);
        t.elapsed = 0.49;
        assert!(t.due_sounds().is_empty(), "the second wave starts at 0.5 s at slow speed");
        assert!(t.running());
        t.skip();
        assert!(t.due_sounds().is_empty() && !t.running());
        assert!(t.elapsed >= 1.0);
    }

    #[test]
    fn without_animations_every_wave_is_at_once() {
        let effects = [
            effect(0, EffectKind::Placed { cell: 1, by: Side::First, piece: 'b', count: 1 }),
            effect(2, EffectKind::Removed { cell: 4, count: 1, cause: RemoveCause::Unstable }),
        ];
        let t = Timeline::of(&effects, None, |_| false, true);
        assert!(t.sounds.iter().all(|s| s.at == 0.0));
        assert!(!Timeline::default().running());
    }
}
