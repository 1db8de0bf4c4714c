//! `stoneyard calibrate`: self-played games per game, their positions' margins and results kept as
//! data (`data/calibration/<game>.csv`), the fitted sharpness with its Brier score and reliability
//! table, and (`--review`) the same table for the win chances the review shows.

use super::{CalibrateArgs, fail};
use crate::ai::calibration::{Fit, Reliability, Sample, fit, from_csv, log_loss, reliability, samples_of, to_csv};
use crate::ai::games::{ai_game, margin, self_play};
use crate::ai::review::{GameReview, ReviewSettings};
use crate::games::GameKind;
use crate::rules::{Side, Status, splitmix64_nth};
use crate::session::Match;
use serde_json::json;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

pub fn run(args: CalibrateArgs) -> ExitCode {
    let kinds = match super::games_named(&args.game) {
        Ok(kinds) => kinds,
        Err(e) => return fail(e),
    };
    let jobs = args.jobs.unwrap_or_else(crate::ai::cores).max(1);
    for kind in kinds {
        let path = args.out.join(format!("{}.csv", kind.slug()));
        let (samples, games) = if args.fit_only {
            match std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|t| from_csv(&t)) {
                Ok(samples) => (samples, Vec::new()),
                Err(e) => return fail(format!("{}: {e}", path.display())),
            }
        } else {
            let games = play_games(kind, &args, jobs);
            let samples: Vec<Sample> = games
                .iter()
                .enumerate()
                .filter_map(|(i, g)| samples_of(g, i as u32, |p| margin(p, Side::First)))
                .flatten()
                .filter(|s| s.decision % args.every.max(1) == 0)
                .collect();
            if let Err(e) = std::fs::create_dir_all(&args.out)
                .and_then(|()| std::fs::write(&path, to_csv(kind, &source(kind, &args), &samples)))
            {
                return fail(format!("{}: {e}", path.display()));
            }
            (samples, games)
        };
        if samples.is_empty() {
            return fail(format!("{kind}: no finished game to fit"));
        }
        let fitted = fit(&samples);
        let current = ai_game(kind).map_or(Fit::default(), |g| g.fit);
        let table = |f: Fit| reliability(samples.iter().map(|s| (f.chance(s.margin, s.to_move), s.result)));
        let round = |x: f32| (f64::from(x) * 1000.0).round() / 1000.0;
        let mut line = json!({
            "game": kind.slug(), "positions": samples.len(),
            "games": samples.last().map_or(0, |s| s.game + 1),
            "fitted_sharpness": round(fitted.sharpness), "fitted_first_side_edge": round(fitted.first_side_edge),
            "fitted_tempo": round(fitted.tempo),
            "fitted_log_loss": log_loss(&samples, fitted), "fitted": summary(&table(fitted)),
            "current_sharpness": round(current.sharpness), "current_first_side_edge": round(current.first_side_edge),
            "current_tempo": round(current.tempo),
            "current": summary(&table(current)),
        });
        if args.review && !games.is_empty() {
            line["review"] = summary(&review_reliability(&games, jobs));
        }
        println!("{line}");
    }
    ExitCode::SUCCESS
}

/// `args.games` games of `kind` at `args.level`, each from its own seed, on `jobs` threads;
/// those that end within `args.longest` decisions, in seed order.
fn play_games(kind: GameKind, args: &CalibrateArgs, jobs: usize) -> Vec<Match> {
    let next = AtomicU32::new(0);
    let played = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let seed = splitmix64_nth(args.seed, u64::from(i));
                    match self_play(kind, &[], (args.opening, args.level), seed, args.longest) {
                        Ok(game) if game.position().status() != Status::Ongoing => {
                            played.lock().unwrap_or_else(|e| e.into_inner()).push((i, game));
                        }
                        Ok(_) => eprintln!("{kind}: game {i} did not end within {} decisions", args.longest),
                        Err(e) => eprintln!("{kind}: game {i}: {e}"),
                    }
                }
            });
        }
    });
    let mut played = played.into_inner().unwrap_or_else(|e| e.into_inner());
    played.sort_by_key(|(i, _)| *i);
    played.into_iter().map(|(_, game)| game).collect()
}

/// Every position of `games` reviewed at the game's review budget: the mover's win chance the
/// review shows against the mover's result.
fn review_reliability(games: &[Match], threads: usize) -> Reliability {
    let mut pairs = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let Status::Over(outcome) = game.position().status() else { continue };
        let Ok(mut review) = GameReview::plan(game, ReviewSettings::default_for(game.kind(), i as u64 + 1)) else {
            continue;
        };
        if let Err(e) = review.complete_on(threads, |_, _| {}) {
            eprintln!("{}: game {i}'s review: {e}", game.kind());
            continue;
        }
        for analysis in review.analyses.iter().flatten() {
            pairs.push((analysis.win, (outcome.score_for(analysis.side) + 1.0) / 2.0));
        }
    }
    reliability(pairs)
}

/// A reliability table as JSON: the Brier score and each bin's count, mean prediction and result.
fn summary(table: &Reliability) -> serde_json::Value {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    json!({
        "brier": round(table.brier),
        "bins": table.bins.iter().map(|&(n, p, y)| json!([n, round(p), round(y)])).collect::<Vec<_>>(),
    })
}

/// The command that makes a game's data, and the calibration then, for the data's header.
fn source(kind: GameKind, args: &CalibrateArgs) -> String {
    let then = ai_game(kind).map_or(Fit::default(), |g| g.fit);
    format!(
        "made by: stoneyard calibrate --game {} --games {} --opening {} --level {} --seed {} --longest {} --every {} \
         (calibration then: sharpness {}, first-side edge {}, tempo {})",
        kind.slug(),
        args.games,
        args.opening,
        args.level,
        args.seed,
        args.longest,
        args.every,
        then.sharpness,
        then.first_side_edge,
        then.tempo
    )
}
