//! Headless frame benchmark: each game on its largest board played in the app without rendering,
//! one random decision every few frames with animations at normal speed, timing every frame of our
//! systems (input, resolution, projection, looks, highlights, hover previews, flourishes, animation
//! bookkeeping): everything but the GPU's drawing.
//!
//! `cargo run --example frame_bench [FRAMES] [--idle]` (add `--release` for release figures). Prints
//! one JSON line per game: frames, mean and 99th percentile milliseconds per frame. With `--idle`
//! only the first frame decides: the rest measure what an idle board costs.

use bevy::prelude::*;
use stoneyard::app::testing::{CurrentMatch, DecisionChosen, Screen, headless_app_with_looks};
use stoneyard::games::GameKind;
use stoneyard::rules::{pick_index, seeded};

/// The largest board of each game, as measured since the first frame figures (the others' only
/// board is used for games not listed).
const LARGEST: &[(&str, &str, &str)] =
    &[("gravel", "N", "19"), ("red-stone", "size", "19"), ("throngs", "board", "P156")];

fn largest(kind: GameKind) -> Vec<(String, String)> {
    LARGEST.iter().filter(|(slug, ..)| *slug == kind.slug()).map(|(_, k, v)| (k.to_string(), v.to_string())).collect()
}

fn main() {
    let frames_per_game: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(600);
    // `--idle`: one decision at the start, then frames with nothing to do (what an idle board costs).
    let idle = std::env::args().any(|a| a == "--idle");
    for kind in GameKind::all() {
        // The board's looks, highlights and flourishes run as in the game (they build meshes);
        // only the GPU work is missing. Animations at normal speed.
        let mut app = headless_app_with_looks();
        let game = kind.open(&largest(kind), None).expect("the largest board opens");
        app.insert_resource(CurrentMatch::new(game));
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app.update();
        let mut rng = seeded(7);
        let mut times = Vec::with_capacity(frames_per_game);
        let mut decisions = 0;
        for frame in 0..frames_per_game {
            // A decision every fourth frame: the animations of the last one are still running.
            if (idle && frame == 0) || (!idle && frame % 4 == 0) {
                let current = app.world().resource::<CurrentMatch>();
                if current.is_over() {
                    let again = CurrentMatch::new(current.start().clone_box());
                    app.insert_resource(again);
                } else {
                    let legal = current.decisions_now();
                    if !legal.is_empty() {
                        let d = legal[pick_index(&mut rng, legal.len())].clone();
                        app.world_mut().write_message(DecisionChosen(d));
                        decisions += 1;
                    }
                }
            }
            let start = std::time::Instant::now();
            app.update();
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
        println!(
            "{{\"game\":\"{}\",\"frames\":{},\"decisions\":{},\"mean_ms\":{:.3},\"p99_ms\":{:.3},\"max_ms\":{:.3}}}",
            kind.slug(),
            times.len(),
            decisions,
            mean,
            p99,
            times.last().copied().unwrap_or(0.0)
        );
    }
}
