//! `stoneyard arena`: computer opponents against each other, one JSON line with an Elo estimate.
//!
//! Each finished game also prints a line on stderr, so a long series shows its partial result.

use super::{ArenaArgs, fail};
use crate::ai::{ArenaGame, ArenaPlayer, ArenaSeries, ArenaTally, Level};
use crate::games::{self, DynGame};
use crate::rules::Side;
use std::path::Path;
use std::process::{Command, ExitCode};
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
    // The arena scores a player that gives no decision as the loser: a program that cannot think
    // at all would hand the other player a series of wins, so it is tried once before the games.
    for (name, player) in [("A", &a), ("B", &b)] {
        if let ArenaPlayer::External { level, program } = player
            && let Err(why) = try_external(program, *level, game.as_ref())
        {
            return fail(format!("player {name}: {} gives no decision here: {why}", program.display()));
        }
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

/// Asks `program` for `level`'s first decision of the series' start, as the games will ask it.
fn try_external(program: &Path, level: Level, game: &dyn DynGame) -> Result<(), String> {
    let mut command = Command::new(program);
    command.args(["think", "--game", game.kind().slug, &format!("--position={}", game.position_text())]);
    command.args(["--side", "first", "--level", level.slug()]);
    for (key, value) in game.option_pairs() {
        command.args(["--option", &format!("{key}={value}")]);
    }
    let output = command.output().map_err(|e| format!("it cannot run: {e}"))?;
    let answer: Option<serde_json::Value> = serde_json::from_slice(&output.stdout).ok();
    if output.status.success() && answer.is_some_and(|answer| answer["decision"].is_string()) {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&output.stderr);
    let said = said.lines().find(|line| !line.trim().is_empty()).unwrap_or("no answer");
    Err(format!("`think` answered {:?}", said.trim()))
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
