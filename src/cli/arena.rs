//! `stoneyard arena`: computer opponents against each other, one JSON line with an Elo estimate.

use super::{ArenaArgs, fail};
use crate::ai::Level;
use crate::games;
use std::process::ExitCode;

pub fn run(args: ArenaArgs) -> ExitCode {
    let game = match games::open(args.game.game, &args.game.options, None) {
        Ok(game) => game,
        Err(e) => return fail(e),
    };
    let (a, b) = match (args.a.parse::<Level>(), args.b.parse::<Level>()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    if args.games == 0 {
        return fail("--games must be at least 1");
    }
    let report = game.arena(a, b, args.games, args.seed);
    match serde_json::to_string(&report) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}
