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
    let mut printed = 0;
    let mut out = std::io::stdout().lock();
    let mut failed = None;
    // Print as the turns are judged, in order: analyse position by position.
    while let Some(index) = review.next_probe() {
        let analysis = match review.job(index).map(|job| job.run()) {
            Some(Ok(analysis)) => analysis,
            Some(Err(e)) => {
                failed = Some(format!("position {index}: {e}"));
                break;
            }
            None => break,
        };
        if let Err(e) = review.record(index, analysis) {
            failed = Some(e);
            break;
        }
        while printed < review.turns.len() {
            let Some(line) = turn_line(&review, &game, printed) else { break };
            if writeln!(out, "{line}").is_err() {
                return ExitCode::from(1);
            }
            printed += 1;
        }
    }
    match failed {
        Some(e) => fail(e),
        None => ExitCode::SUCCESS,
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
