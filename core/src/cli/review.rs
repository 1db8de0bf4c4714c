//! `stoneyard review`: the computer's review of a game record, one JSON line per turn (the same
//! code as the app's review, so a script can review many games).

use super::{ReviewArgs, fail};
use crate::ai::review::{GameReview, ReviewSettings, decisions_text};
use crate::save::read_record_file;
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;

pub fn run(args: ReviewArgs) -> ExitCode {
    let record = match read_record_file(&args.moves_file, args.game, &args.options) {
        Ok(record) => record,
        Err(e) => return fail(e),
    };
    let game = match record.load() {
        Ok(game) => game,
        Err(e) => return fail(format!("{}: {e}", args.moves_file.display())),
    };
    let mut settings = ReviewSettings::default_for(record.game, args.seed);
    if let Some(budget) = args.budget {
        if budget == 0 {
            return fail("--budget 0: give at least 1 iteration per position");
        }
        settings.iterations = budget;
    }
    let mut review = match GameReview::plan(&game, settings) {
        Ok(review) => review,
        Err(e) => return fail(format!("{}: {e}", args.moves_file.display())),
    };
    let threads = args.threads.unwrap_or_else(crate::ai::cores);
    if threads == 0 {
        return fail("--threads 0: give at least 1 thread");
    }
    let mut printed = 0;
    let mut out = std::io::stdout().lock();
    let mut broken_pipe = false;
    // The positions are analysed on every core; the turns are printed in order as they are judged.
    let finished = review.complete_with(threads, |review, _| {
        while !broken_pipe && printed < review.turns.len() {
            let Some(line) = turn_line(review, &game, printed) else { break };
            broken_pipe = writeln!(out, "{line}").is_err();
            printed += 1;
        }
    });
    match finished {
        Err(e) => fail(format!("{}: {e}", args.moves_file.display())),
        Ok(()) if broken_pipe => ExitCode::from(1),
        Ok(()) => ExitCode::SUCCESS,
    }
}

/// Turn `t`'s JSON line, once it is judged.
fn turn_line(review: &GameReview, game: &crate::session::Match, t: usize) -> Option<String> {
    let turn = &review.turns[t];
    let judgement = review.judgement(t)?;
    let probe = &review.probes[turn.probe];
    let position = game.position_before(probe.prefix).unwrap_or(game.position());
    let after_best = {
        let mut p = position.clone_box();
        for d in &judgement.best {
            let _ = p.play_decision(d);
        }
        p
    };
    let after_played = game.position_before(turn.end).unwrap_or(game.position());
    let round = |x: f32| (f64::from(x) * 1000.0).round() / 1000.0;
    Some(
        json!({
            "move": turn.number,
            "side": position.side_name(turn.side),
            "played": turn.text,
            "decisions": turn.played,
            "win_before": round(judgement.win_before),
            "win_after": round(judgement.win_after),
            "drop": round(judgement.drop()),
            "label": judgement.label,
            "best": decisions_text(position, &judgement.best),
            "best_decisions": judgement.best,
            "line": decisions_text(after_best.as_ref(), &judgement.line),
            "reply": decisions_text(after_played, &judgement.reply),
            "iterations": review.analyses[turn.probe].as_ref().map_or(0, |a| a.iterations),
        })
        .to_string(),
    )
}
