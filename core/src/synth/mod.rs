//! Stoneyard's own sounds, synthesised in code (no recorded samples): short percussive cues for
//! every effect and menu action, and a quiet music loop. The game renders them at start-up;
//! `examples/make_sounds.rs` writes them as WAV files. No Bevy.

mod wav;

pub use wav::wav_bytes;

use std::f32::consts::TAU;

/// Samples per second of every cue.
pub const SAMPLE_RATE: u32 = 44_100;

/// Everything that makes a sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cue {
    /// A stone or figure set down.
    Place,
    /// A piece added to a stack.
    Stack,
    /// A move or hop (one leg).
    Hop,
    /// A capture of `size` pieces (bigger captures sound lower and longer).
    Capture(u16),
    Burn,
    /// One more round of a cascade.
    Cascade,
    Swap,
    Pie,
    Illegal,
    TurnChange,
    Win,
    Lose,
    Draw,
    UiMove,
    UiSelect,
}

impl Cue {
    /// Every cue, with capture cues for sizes `1..=max_capture`.
    pub fn all(max_capture: u16) -> Vec<Cue> {
        let mut cues = vec![
            Cue::Place,
            Cue::Stack,
            Cue::Hop,
            Cue::Burn,
            Cue::Cascade,
            Cue::Swap,
            Cue::Pie,
            Cue::Illegal,
            Cue::TurnChange,
            Cue::Win,
            Cue::Lose,
            Cue::Draw,
            Cue::UiMove,
            Cue::UiSelect,
        ];
        cues.extend((1..=max_capture).map(Cue::Capture));
        cues
    }

    /// The name of the cue's sound file (`place`, `capture-3`), without the extension.
    pub fn file_stem(self) -> String {
        match self {
            Cue::Place => "place".into(),
            Cue::Stack => "stack".into(),
            Cue::Hop => "hop".into(),
            Cue::Capture(size) => format!("capture-{size}"),
            Cue::Burn => "burn".into(),
            Cue::Cascade => "cascade".into(),
            Cue::Swap => "swap".into(),
            Cue::Pie => "pie".into(),
            Cue::Illegal => "illegal".into(),
            Cue::TurnChange => "turn-change".into(),
            Cue::Win => "win".into(),
            Cue::Lose => "lose".into(),
            Cue::Draw => "draw".into(),
            Cue::UiMove => "ui-move".into(),
            Cue::UiSelect => "ui-select".into(),
        }
    }
}

/// A decaying sine with an optional pitch glide: the building block of the cues.
struct Tone {
    freq: f32,
    /// Frequency at the end (glide), Hz.
    end_freq: f32,
    seconds: f32,
    /// Start offset in seconds.
    at: f32,
    gain: f32,
    /// Exponential decay rate per second.
    decay: f32,
}

impl Tone {
    const fn new(freq: f32, seconds: f32) -> Tone {
        Tone { freq, end_freq: freq, seconds, at: 0.0, gain: 0.6, decay: 18.0 }
    }
}

/// Deterministic noise (xorshift), so the same cue always renders the same bytes.
fn noise(seed: &mut u32) -> f32 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 17;
    *seed ^= *seed << 5;
    (*seed as f32 / u32::MAX as f32) * 2.0 - 1.0
}

fn mix_tone(out: &mut Vec<f32>, t: &Tone) {
    let start = (t.at * SAMPLE_RATE as f32) as usize;
    let len = (t.seconds * SAMPLE_RATE as f32) as usize;
    if out.len() < start + len {
        out.resize(start + len, 0.0);
    }
    let mut phase = 0.0f32;
    for i in 0..len {
        let x = i as f32 / SAMPLE_RATE as f32;
        let f = t.freq + (t.end_freq - t.freq) * (i as f32 / len as f32);
        phase += TAU * f / SAMPLE_RATE as f32;
        // A 2 ms attack avoids clicks; the exponential tail gives the percussive body.
        let attack = (x / 0.002).min(1.0);
        out[start + i] += t.gain * attack * (-t.decay * x).exp() * phase.sin();
    }
}

fn mix_noise(out: &mut Vec<f32>, at: f32, seconds: f32, gain: f32, decay: f32, seed: u32) {
    let start = (at * SAMPLE_RATE as f32) as usize;
    let len = (seconds * SAMPLE_RATE as f32) as usize;
    if out.len() < start + len {
        out.resize(start + len, 0.0);
    }
    let mut s = seed.max(1);
    let mut low = 0.0f32;
    for i in 0..len {
        let x = i as f32 / SAMPLE_RATE as f32;
        // One-pole low-pass: a soft "shh" rather than hiss.
        low += 0.25 * (noise(&mut s) - low);
        out[start + i] += gain * (x / 0.002).min(1.0) * (-decay * x).exp() * low;
    }
}

/// Seconds of the background music loop.
pub const MUSIC_SECONDS: f32 = 19.2;

/// Quiet background music, mono: slow soft notes of a pentatonic scale over a low drone, 19.2 s
/// that loop seamlessly (every note fades out before the loop point). Deterministic.
pub fn render_music() -> Vec<f32> {
    let mut out = Vec::new();
    // D major pentatonic over two octaves; the melody walks it in a fixed, gentle pattern.
    const SCALE: [f32; 10] = [293.7, 329.6, 370.0, 440.0, 493.9, 587.3, 659.3, 740.0, 880.0, 987.8];
    const STEPS: [usize; 16] = [4, 3, 2, 3, 5, 4, 2, 1, 2, 4, 6, 5, 3, 2, 1, 0];
    let beat = MUSIC_SECONDS / 32.0;
    for (k, &step) in STEPS.iter().enumerate() {
        let at = k as f32 * 2.0 * beat;
        mix_tone(&mut out, &Tone { at, decay: 1.6, gain: 0.16, ..Tone::new(SCALE[step], 1.8) });
        // A softer fifth below on every other note gives it some body.
        if k % 2 == 0 {
            mix_tone(&mut out, &Tone { at, decay: 1.2, gain: 0.07, ..Tone::new(SCALE[step] * 0.5, 1.6) });
        }
    }
    for k in 0..4 {
        let at = k as f32 * 8.0 * beat;
        mix_tone(&mut out, &Tone { at, decay: 0.35, gain: 0.08, ..Tone::new(146.8, 8.0 * beat) });
    }
    // Exactly one loop long: tails past the end wrap to the start, so the seam is silent.
    let len = (MUSIC_SECONDS * SAMPLE_RATE as f32) as usize;
    let tail: Vec<f32> = out.split_off(len.min(out.len()));
    out.resize(len, 0.0);
    for (i, x) in tail.into_iter().enumerate() {
        out[i % len] += x;
    }
    let peak = out.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    if peak > 0.5 {
        out.iter_mut().for_each(|x| *x *= 0.5 / peak);
    }
    out
}

/// The samples of a cue, mono, in -1.0..=1.0.
pub fn render(cue: Cue) -> Vec<f32> {
    let mut out = Vec::new();
    match cue {
        Cue::Place => {
            mix_tone(&mut out, &Tone { gain: 0.7, decay: 40.0, ..Tone::new(520.0, 0.12) });
            mix_noise(&mut out, 0.0, 0.05, 0.5, 80.0, 7);
        }
        Cue::Stack => {
            mix_tone(&mut out, &Tone { decay: 30.0, ..Tone::new(660.0, 0.10) });
            mix_tone(&mut out, &Tone { at: 0.04, decay: 30.0, gain: 0.4, ..Tone::new(880.0, 0.10) });
        }
        Cue::Hop => {
            mix_tone(&mut out, &Tone { end_freq: 780.0, decay: 22.0, gain: 0.5, ..Tone::new(420.0, 0.14) });
        }
        Cue::Capture(size) => {
            let n = size.clamp(1, 30) as f32;
            let base = 330.0 / (1.0 + n / 8.0);
            let seconds = 0.18 + 0.02 * n.min(15.0);
            mix_tone(&mut out, &Tone { end_freq: base * 0.6, decay: 9.0, gain: 0.6, ..Tone::new(base, seconds) });
            mix_noise(&mut out, 0.0, seconds, 0.35, 12.0, 11);
        }
        Cue::Burn => {
            mix_noise(&mut out, 0.0, 0.4, 0.8, 6.0, 23);
            mix_tone(&mut out, &Tone { end_freq: 90.0, decay: 8.0, gain: 0.3, ..Tone::new(160.0, 0.4) });
        }
        Cue::Cascade => {
            for (k, f) in [392.0, 330.0, 262.0].into_iter().enumerate() {
                mix_tone(&mut out, &Tone { at: k as f32 * 0.05, decay: 25.0, gain: 0.35, ..Tone::new(f, 0.12) });
            }
        }
        Cue::Swap => {
            mix_tone(&mut out, &Tone { end_freq: 700.0, decay: 14.0, gain: 0.4, ..Tone::new(500.0, 0.16) });
            mix_tone(&mut out, &Tone { end_freq: 500.0, decay: 14.0, gain: 0.4, ..Tone::new(700.0, 0.16) });
        }
        Cue::Pie => {
            mix_tone(&mut out, &Tone { decay: 10.0, gain: 0.4, ..Tone::new(523.0, 0.2) });
            mix_tone(&mut out, &Tone { at: 0.08, decay: 10.0, gain: 0.4, ..Tone::new(784.0, 0.2) });
        }
        Cue::Illegal => {
            mix_tone(&mut out, &Tone { decay: 12.0, gain: 0.4, ..Tone::new(150.0, 0.18) });
            mix_tone(&mut out, &Tone { decay: 12.0, gain: 0.3, ..Tone::new(159.0, 0.18) });
        }
        Cue::TurnChange => {
            mix_tone(&mut out, &Tone { decay: 30.0, gain: 0.25, ..Tone::new(988.0, 0.08) });
        }
        Cue::Win => {
            for (k, f) in [523.0, 659.0, 784.0, 1047.0].into_iter().enumerate() {
                mix_tone(&mut out, &Tone { at: k as f32 * 0.11, decay: 5.0, gain: 0.35, ..Tone::new(f, 0.5) });
            }
        }
        Cue::Lose => {
            for (k, f) in [392.0, 349.0, 311.0, 262.0].into_iter().enumerate() {
                mix_tone(&mut out, &Tone { at: k as f32 * 0.14, decay: 5.0, gain: 0.35, ..Tone::new(f, 0.5) });
            }
        }
        Cue::Draw => {
            for (k, f) in [440.0, 440.0].into_iter().enumerate() {
                mix_tone(&mut out, &Tone { at: k as f32 * 0.18, decay: 7.0, gain: 0.35, ..Tone::new(f, 0.35) });
            }
        }
        Cue::UiMove => mix_tone(&mut out, &Tone { decay: 60.0, gain: 0.2, ..Tone::new(1200.0, 0.04) }),
        Cue::UiSelect => {
            mix_tone(&mut out, &Tone { decay: 35.0, gain: 0.3, ..Tone::new(880.0, 0.07) });
            mix_tone(&mut out, &Tone { at: 0.03, decay: 35.0, gain: 0.3, ..Tone::new(1320.0, 0.07) });
        }
    }
    let peak = out.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    if peak > 0.95 {
        out.iter_mut().for_each(|x| *x *= 0.95 / peak);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_music_is_one_quiet_loop_with_a_silent_seam() {
        let m = render_music();
        assert_eq!(m.len(), (MUSIC_SECONDS * SAMPLE_RATE as f32) as usize);
        assert!(m.iter().all(|x| x.abs() <= 0.5 + 1e-6), "background music stays quiet");
        // The last and first samples join without a jump (no click at the loop point).
        assert!((m[m.len() - 1] - m[0]).abs() < 0.05);
        assert_eq!(m, render_music(), "deterministic");
    }

    fn rms(s: &[f32]) -> f32 {
        (s.iter().map(|x| x * x).sum::<f32>() / s.len() as f32).sqrt()
    }

    #[test]
    fn every_cue_is_short_audible_and_unclipped() {
        for cue in Cue::all(3) {
            let s = render(cue);
            let secs = s.len() as f32 / SAMPLE_RATE as f32;
            assert!(secs > 0.03 && secs < 1.2, "{cue:?} lasts {secs} s");
            assert!(rms(&s) > 0.01, "{cue:?} is silent");
            assert!(s.iter().all(|x| x.abs() <= 0.951), "{cue:?} clips");
        }
    }

    #[test]
    fn cues_are_distinct_and_deterministic() {
        let all = Cue::all(3);
        for (i, a) in all.iter().enumerate() {
            assert_eq!(render(*a), render(*a));
            for b in &all[i + 1..] {
                assert_ne!(render(*a), render(*b), "{a:?} and {b:?} sound the same");
            }
        }
    }

    #[test]
    fn bigger_captures_last_longer() {
        assert!(render(Cue::Capture(12)).len() > render(Cue::Capture(1)).len());
    }
}
