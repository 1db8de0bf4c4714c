//! `stoneyard perft` and `stoneyard bench`.

use super::{BenchArgs, PerftArgs, fail};
use crate::ai::Timing;
use crate::games::{self, GameKind};
use serde_json::json;
use std::process::ExitCode;

pub fn run_perft(args: PerftArgs) -> ExitCode {
    let game = match games::open(args.game.game, &args.game.options, args.position.as_deref()) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let start = web_time::Instant::now();
    let nodes = game.perft(args.depth);
    let secs = start.elapsed().as_secs_f64();
    println!("{}", json!({"game": args.game.game.slug(), "depth": args.depth, "nodes": nodes, "seconds": secs}));
    ExitCode::SUCCESS
}

pub fn run_bench(args: BenchArgs) -> ExitCode {
    let kinds = match super::games_named(&args.game) {
        Ok(kinds) => kinds,
        Err(e) => return fail(e),
    };
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return fail("--seconds must be a positive number");
    }
    if args.review {
        return review_noise(&kinds, &args);
    }
    for kind in kinds {
        let game = match games::open(kind, &args.options, None) {
            Ok(g) => g,
            Err(e) => return fail(e),
        };
        let r = game.bench(args.seconds, args.seed);
        let ai = ai_iterations_per_s(game.as_ref(), args.seconds, args.seed, Timing::Reproducible);
        let ai_all_cores = ai_iterations_per_s(game.as_ref(), args.seconds, args.seed, Timing::WallClock);
        println!(
            "{}",
            json!({"game": kind.slug(), "playouts": r.playouts, "playouts_per_s": r.playouts_per_s,
                   "plies_per_playout": r.plies_per_playout, "legal_per_state": r.legal_per_state,
                   "ai_iterations_per_s": ai, "ai_iterations_per_s_all_cores": ai_all_cores,
                   "cores": crate::ai::cores()})
        );
    }
    ExitCode::SUCCESS
}

/// MCTS iterations per second of the Hard level's search from `game`'s position (seeded), for
/// about `seconds`: on one thread (`Timing::Reproducible`) or, as the app's opponent thinks, on
/// every core (`Timing::WallClock`, all the searchers' iterations together).
fn ai_iterations_per_s(game: &dyn crate::games::DynGame, seconds: f64, seed: u64, timing: Timing) -> Option<f64> {
    use crate::rules::{Side, ToMove};
    let side = match game.to_move()? {
        ToMove::One(side) => side,
        ToMove::Both => Side::First,
    };
    let mut session = crate::ai::games::session_timed(game, side, crate::ai::Level::Hard, seed, None, timing).ok()?;
    let start = web_time::Instant::now();
    // Slices of a few milliseconds: each slice of the parallel search starts its threads.
    let slice = if timing == Timing::WallClock { 4_096 } else { 64 };
    while start.elapsed().as_secs_f64() < seconds {
        if session.think(slice) {
            break;
        }
    }
    Some(session.iterations() as f64 / start.elapsed().as_secs_f64().max(1e-9))
}

/// `stoneyard bench --review`: each game's self-played record reviewed with several seeds.
fn review_noise(kinds: &[GameKind], args: &BenchArgs) -> ExitCode {
    use crate::ai::{Level, cores, games::self_play, review::seed_noise};
    if args.seeds == 0 || args.budget == Some(0) {
        return fail("--seeds and --budget must be at least 1");
    }
    let threads = cores();
    for &kind in kinds {
        let game = match self_play(kind, &args.options, (0, Level::Easy), args.seed, REVIEWED_DECISIONS) {
            Ok(game) => game,
            Err(e) => return fail(format!("{kind}: {e}")),
        };
        if let Some(dir) = &args.records
            && let Err(e) = write_record(dir, kind, &game)
        {
            return fail(format!("{kind}: the record cannot be written to {}: {e}", dir.display()));
        }
        let noise = match seed_noise(&game, args.budget, args.seeds, threads) {
            Ok(noise) => noise,
            Err(e) => return fail(format!("{kind}: {e}")),
        };
        let round = |x: f32| (f64::from(x) * 10_000.0).round() / 10_000.0;
        let iterations =
            args.budget.unwrap_or_else(|| crate::ai::review::ReviewSettings::default_for(kind, 1).iterations);
        println!(
            "{}",
            json!({"game": kind.slug(), "decisions": game.len(), "turns": noise.turns, "iterations": iterations,
                   "threads": threads, "review_seconds": (noise.seconds * 100.0).round() / 100.0,
                   "seeds": noise.seeds, "label_agreement": round(noise.agreement()),
                   "mark_agreement": round(noise.mark_agreement()),
                   "win_sd_mean": round(noise.mean_sd), "win_sd_max": round(noise.max_sd)})
        );
    }
    ExitCode::SUCCESS
}

/// The self-played game as a record in `dir/<slug>.json`, the computer at Easy on both sides.
fn write_record(dir: &std::path::Path, kind: GameKind, game: &crate::session::Match) -> std::io::Result<()> {
    use crate::save::{GameRecord, Player, RecordedMove};
    let easy = || Player::Computer(crate::ai::Level::Easy.slug().to_string());
    let mut record = GameRecord::new(game.start(), [easy(), easy()], 1, 0);
    record.start = game.start_text().map(str::to_string);
    record.moves =
        game.played().iter().map(|p| RecordedMove { decision: p.decision.clone(), at_ms: p.at_ms }).collect();
    record.result = game.result();
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(format!("{}.json", kind.slug())), record.to_json())
}

/// The longest self-played game the review measures (an Inchworm game can run for thousands).
const REVIEWED_DECISIONS: usize = 600;
