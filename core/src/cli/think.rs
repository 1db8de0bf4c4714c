//! `stoneyard think`: the computer's next decision in a position, as the app's opponent would
//! take it (the level's time limit, Hard on every core), printed as one JSON line. Other programs
//! (another build's arena, an engine interface) ask it decision by decision.

use super::{ThinkArgs, fail};
use crate::ai::Level;
use crate::games;
use crate::rules::Side;
use std::process::ExitCode;
use web_time::Instant;

pub fn run(args: ThinkArgs) -> ExitCode {
    let mut game = match games::open(args.game.game, &args.game.options, Some(&args.position)) {
        Ok(game) => game,
        Err(e) => return fail(e),
    };
    // The side's own decisions already made on top of the position (a commitment under way,
    // which a position text does not show).
    for decision in args.then.split(';').map(str::trim).filter(|d| !d.is_empty()) {
        if let Err(e) = game.play_decision(decision) {
            return fail(format!("--then: {decision}: {e}"));
        }
    }
    let level = match args.level.parse::<Level>() {
        Ok(level) => level,
        Err(e) => return fail(e),
    };
    // The side as the position text writes it ("b"), as the game names it ("Black"), or as
    // "first" or "second" (what other builds, whose names may differ, agree on).
    let kind = args.game.game;
    let ordinal = |side: Side| if side == Side::First { "first" } else { "second" };
    let named = |side: Side| {
        game.side_name(side) == args.side
            || kind.side_name(side).eq_ignore_ascii_case(&args.side)
            || ordinal(side).eq_ignore_ascii_case(&args.side)
    };
    let Some(side) = Side::BOTH.into_iter().find(|&side| named(side)) else {
        let names =
            Side::BOTH.map(|side| format!("{} ({}, {})", game.side_name(side), kind.side_name(side), ordinal(side)));
        return fail(format!("'{}' is not a side of {kind}: {}", args.side, names.join(" or ")));
    };
    let started = Instant::now();
    let mut session = match crate::ai::games::session(game.as_ref(), side, level, args.seed, None) {
        Ok(session) => session,
        Err(e) => return fail(e),
    };
    while !session.think(u64::MAX) {}
    let answer = serde_json::json!({
        "decision": session.decision(),
        "iterations": session.iterations(),
        "ms": started.elapsed().as_millis() as u64,
    });
    println!("{answer}");
    ExitCode::SUCCESS
}
