//! `stoneyard arena`: computer opponents against each other, one JSON line with an Elo estimate.
//!
//! Each finished game also prints a line on stderr, so a long series shows its partial result.

use super::{ArenaArgs, fail};
use crate::ai::{ArenaGame, ArenaPlayer, ArenaSeries, ArenaTally};
use crate::games;
use crate::rules::Side;
use std::process::ExitCode;
use std::sync::Mutex;
use web_time::Instant;

pub fn run(args: ArenaArgs) -> ExitCode {
    let game = match games::open(args.game.game, &args.game.options, None) {
        Ok(game) => game,
        Err(e) => return fail(e),
    };
    let (a, b) = match (args.a.parse::<ArenaPlayer>(), args.b.parse::<ArenaPlayer>()) {
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
    let thinking = Mutex::new(Thinking::default());
    let progress = |finished: &ArenaGame, tally: &ArenaTally| {
        if let Ok(mut thinking) = thinking.lock() {
            thinking.add(finished);
        }
        if !args.quiet {
            eprintln!("{}", progress_line(finished, tally, args.games, started.elapsed().as_secs()));
        }
    };
    let report = match crate::ai::games::arena(game.as_ref(), a, b, series, &progress) {
        Ok(report) => report,
        Err(e) => return fail(e),
    };
    if !args.quiet
        && let Ok(thinking) = thinking.lock()
    {
        eprintln!(
            "thinking time per decision: A {:.3} s, B {:.3} s",
            thinking.per_decision(0),
            thinking.per_decision(1)
        );
    }
    match serde_json::to_string(&report) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// Decisions and seconds of thinking, summed over the games of a series, for A and B.
#[derive(Default)]
struct Thinking {
    asked: [u64; 2],
    seconds: [f64; 2],
}

impl Thinking {
    fn add(&mut self, game: &ArenaGame) {
        for player in 0..2 {
            self.asked[player] += game.asked[player];
            self.seconds[player] += game.seconds[player];
        }
    }

    fn per_decision(&self, player: usize) -> f64 {
        self.seconds[player] / self.asked[player].max(1) as f64
    }
}

/// "game 3 (A first): B won after 412 decisions (A 0.41 s, B 0.09 s each) · 2 of 20 done, A 1,
/// draws 0, B 1 · 6m 12s".
fn progress_line(game: &ArenaGame, tally: &ArenaTally, games: u32, seconds: u64) -> String {
    let seat = match game.a_side {
        Side::First => "A first",
        Side::Second => "B first",
    };
    format!(
        "game {} ({seat}): {} after {} decisions (A {:.2} s, B {:.2} s each) · {} of {games} done, A {}, draws {}, B {} · {}m {:02}s",
        game.number,
        game.result_text(),
        game.decisions,
        game.seconds[0] / game.asked[0].max(1) as f64,
        game.seconds[1] / game.asked[1].max(1) as f64,
        tally.games(),
        tally.a_wins,
        tally.draws,
        tally.b_wins,
        seconds / 60,
        seconds % 60
    )
}
