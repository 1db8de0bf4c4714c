//! `stoneyard perft` and `stoneyard bench`.

use super::{BenchArgs, PerftArgs, fail};
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
    let kinds: Vec<GameKind> = if args.game == "all" {
        GameKind::all().collect()
    } else {
        match args.game.parse() {
            Ok(k) => vec![k],
            Err(e) => return fail(e),
        }
    };
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return fail("--seconds must be a positive number");
    }
    for kind in kinds {
        let game = match games::open(kind, &args.options, None) {
            Ok(g) => g,
            Err(e) => return fail(e),
        };
        let r = game.bench(args.seconds, args.seed);
        let ai = ai_iterations_per_s(game.as_ref(), args.seconds, args.seed);
        println!(
            "{}",
            json!({"game": kind.slug(), "playouts": r.playouts, "playouts_per_s": r.playouts_per_s,
                   "plies_per_playout": r.plies_per_playout, "legal_per_state": r.legal_per_state,
                   "ai_iterations_per_s": ai})
        );
    }
    ExitCode::SUCCESS
}

/// MCTS iterations per second of the Hard level's search from `game`'s position (one thread,
/// seeded), for about `seconds`.
fn ai_iterations_per_s(game: &dyn crate::games::DynGame, seconds: f64, seed: u64) -> Option<f64> {
    use crate::rules::{Side, ToMove};
    let side = match game.to_move()? {
        ToMove::One(side) => side,
        ToMove::Both => Side::First,
    };
    let mut session = crate::ai::games::session(game, side, crate::ai::Level::Hard, seed, None).ok()?;
    let start = web_time::Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        if session.think(64) {
            break;
        }
    }
    Some(session.iterations() as f64 / start.elapsed().as_secs_f64().max(1e-9))
}
