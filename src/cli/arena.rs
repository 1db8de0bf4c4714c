//! `stoneyard arena`: computer opponents against each other.

use super::{ArenaArgs, fail};
use crate::games;
use std::process::ExitCode;

pub fn run(args: ArenaArgs) -> ExitCode {
    if let Err(e) = games::open(args.game.game, &args.game.options, None) {
        return fail(e);
    }
    for level in [&args.a, &args.b] {
        if !["random", "easy", "medium", "hard"].contains(&level.as_str()) {
            return fail(format!("unknown level '{level}'; levels are random, easy, medium, hard"));
        }
    }
    fail("the computer opponents are not built yet (issue: computer opponents)")
}
