//! `stoneyard arena`: computer opponents against each other, one JSON line with an Elo estimate.
//!
//! Each finished game also prints a line on stderr, so a long series shows its partial result.

use super::{ArenaArgs, fail};
use crate::ai::{ArenaGame, ArenaSeries, ArenaTally, Level};
use crate::games;
use crate::rules::Side;
use std::process::ExitCode;
use web_time::Instant;

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
    if args.jobs == 0 {
        return fail("--jobs must be at least 1");
    }
    let series = ArenaSeries { games: args.games, seed: args.seed, jobs: args.jobs };
    let started = Instant::now();
    let progress = |finished: &ArenaGame, tally: &ArenaTally| {
        if !args.quiet {
            eprintln!("{}", progress_line(finished, tally, args.games, started.elapsed().as_secs()));
        }
    };
    let report = game.arena(a, b, series, &progress);
    match serde_json::to_string(&report) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// "game 3 (A first): B won after 412 decisions · 2 of 20 done, A 1, draws 0, B 1 · 6m 12s".
fn progress_line(game: &ArenaGame, tally: &ArenaTally, games: u32, seconds: u64) -> String {
    let seat = match game.a_side {
        Side::First => "A first",
        Side::Second => "B first",
    };
    format!(
        "game {} ({seat}): {} after {} decisions · {} of {games} done, A {}, draws {}, B {} · {}m {:02}s",
        game.number,
        game.result_text(),
        game.decisions,
        tally.games(),
        tally.a_wins,
        tally.draws,
        tally.b_wins,
        seconds / 60,
        seconds % 60
    )
}
