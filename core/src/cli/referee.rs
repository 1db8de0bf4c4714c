//! `stoneyard referee`: apply record tokens to a position and print one JSON object.

use super::{RefereeArgs, fail};
use crate::games::{self, DynGame, GameKind, status_json};
use crate::rules::{ExactCount, LegalTokens, Side, ToMove};
use crate::save::{MAX_RECORD_BYTES, is_move_list, move_list_tokens, read_text_file};
use serde_json::{Map, Value, json};
use std::process::ExitCode;

/// With more legal tokens than this, only the count is printed (Inchworm's distributions).
const MAX_LISTED: u64 = 100_000;

pub fn run(args: RefereeArgs) -> ExitCode {
    let position = match (&args.position, &args.position_file) {
        (Some(p), _) => Some(p.clone()),
        (None, Some(f)) => match read_text_file(f, MAX_RECORD_BYTES) {
            Ok(text) => Some(text.trim().to_string()),
            Err(e) => return fail(format!("cannot read {e}")),
        },
        (None, None) => None,
    };
    let moves = match (&args.moves, &args.moves_file) {
        (Some(m), _) => m.clone(),
        (None, Some(f)) => match read_text_file(f, MAX_RECORD_BYTES) {
            Ok(text) => text,
            Err(e) => return fail(format!("cannot read {e}")),
        },
        (None, None) => String::new(),
    };
    // A game record in any form instead of a move list: its own options and start position
    // (checked against those given here), its moves as record tokens.
    if !is_move_list(&moves) {
        let source = args.moves_file.as_ref().map_or("--moves".to_string(), |f| f.display().to_string());
        return match record_moves(&moves, args.game.game, &args.game.options, position.as_deref()) {
            Ok((start, tokens)) => print_referee(start, &tokens, args.legal),
            Err(e) => fail(format!("{source}: {e}")),
        };
    }
    match games::open(args.game.game, &args.game.options, position.as_deref()) {
        Ok(game) => print_referee(game, &moves, args.legal),
        Err(e) => fail(e),
    }
}

fn print_referee(game: Box<dyn DynGame>, moves: &str, legal: bool) -> ExitCode {
    let (out, code) = referee(game, moves, legal);
    println!("{out}");
    code
}

/// The start position of a record (in any form, see [`crate::save::read_record`]) and its moves as
/// record tokens (`;`-separated). A start position given beside it must be the record's.
fn record_moves(
    text: &str,
    game: GameKind,
    options: &[(String, String)],
    position: Option<&str>,
) -> Result<(Box<dyn DynGame>, String), String> {
    let record = crate::save::read_record(text, Some(game), options).map_err(|e| e.to_string())?;
    let start = record.replay(Some(0)).map_err(|e| e.to_string())?;
    if let Some(given) = position {
        let given = games::open(game, &record.options, Some(given)).map_err(|e| format!("--position: {e}"))?;
        if given.position_text() != start.position_text() {
            return Err(format!(
                "the record starts from '{}', not from the --position given; leave --position out",
                start.position_text()
            ));
        }
    }
    let decisions: Vec<String> = record.moves.iter().map(|m| m.decision.clone()).collect();
    let grouped = start.record_tokens(&decisions).map_err(|e| e.to_string())?;
    if grouped.pending > 0 {
        let pending = grouped.pending;
        return Err(format!("the record ends inside a move ({pending} decisions of an unfinished move)"));
    }
    Ok((start, grouped.moves.into_iter().map(|m| m.token).collect::<Vec<_>>().join(";")))
}

/// Applies `moves` and returns the JSON to print and the exit status.
pub fn referee(mut game: Box<dyn DynGame>, moves: &str, legal: bool) -> (Value, ExitCode) {
    let mut effects = Vec::new();
    for (i, token) in move_list_tokens(moves).into_iter().enumerate() {
        let before = game.position_text();
        match game.play_token(token) {
            Ok(e) => effects = e,
            Err(e) => {
                let out = json!({"ok": false, "error": e.to_string(), "move_index": i, "position": before});
                return (out, ExitCode::from(2));
            }
        }
    }
    let mut out = Map::new();
    out.insert("ok".into(), json!(true));
    out.insert("game".into(), json!(game.kind().slug()));
    out.insert("position".into(), json!(game.position_text()));
    out.insert("to_move".into(), to_move_json(game.as_ref()));
    out.insert("status".into(), status_json(game.as_ref()));
    out.insert("effects".into(), game.effects_json(&effects));
    if legal {
        match game.legal_tokens() {
            LegalTokens::List(list) => {
                out.insert("legal_count".into(), json!(list.len()));
                if list.len() as u64 <= MAX_LISTED {
                    out.insert("legal".into(), json!(list));
                }
            }
            LegalTokens::CountOnly(n) => {
                out.insert("legal_count".into(), count_json(&n));
            }
            LegalTokens::Uncounted { counted_before_giving_up } => {
                out.insert("legal_count".into(), Value::Null);
                let note = format!(
                    "too many distributions to count in bounded memory; {counted_before_giving_up} tokens counted \
                     before giving up"
                );
                out.insert("legal_note".into(), json!(note));
            }
            LegalTokens::PerSide(a, b) => {
                let (na, nb) = (game.side_name(Side::First), game.side_name(Side::Second));
                out.insert("legal_count".into(), json!({ na: a.len(), nb: b.len() }));
                out.insert("legal".into(), json!({ na: a, nb: b }));
            }
        }
    }
    (Value::Object(out), ExitCode::SUCCESS)
}

/// A count as the referee prints every count: a JSON number below 2^64 (every JSON reader with
/// 64-bit integers keeps it whole), else its decimal digits as a string (exact, unbounded).
fn count_json(n: &ExactCount) -> Value {
    n.to_u64().map_or_else(|| json!(n.to_string()), |n| json!(n))
}

fn to_move_json(game: &dyn DynGame) -> Value {
    match game.to_move() {
        None => Value::Null,
        Some(ToMove::Both) => json!("both"),
        Some(ToMove::One(side)) => json!(game.side_name(side)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_record_is_read_as_its_moves_in_record_notation() {
        let mut game =
            games::open(crate::games::GameKind::named("red-stone"), &[("size".into(), "5".into())], None).unwrap();
        let start = game.clone_box();
        for d in ["C3", "A1", "B1"] {
            game.play_decision(d).unwrap();
        }
        let mut record = crate::save::GameRecord::new(
            start.as_ref(),
            [crate::save::Player::Human, crate::save::Player::Human],
            1,
            0,
        );
        record.moves = ["C3", "A1", "B1"]
            .iter()
            .map(|d| crate::save::RecordedMove { decision: d.to_string(), at_ms: 0 })
            .collect();
        let json = record.to_json();
        assert!(!is_move_list(&json) && !is_move_list(&record.to_text()));
        let red_stone = GameKind::named("red-stone");
        let (start, moves) = record_moves(&json, red_stone, &[], None).unwrap();
        assert_eq!(moves, "C3;A1;B1");
        let (out, _) = referee(start, &moves, false);
        assert_eq!(out["position"], json!(game.position_text()));
        let e = record_moves(&json, GameKind::named("gravel"), &[], None).err().expect("wrong game refused");
        assert!(e.contains("red-stone"), "{e}");
        assert!(is_move_list("C3;A1"));
        assert!(!is_move_list("{from the spec} 1. Da1 Db1 *") && is_move_list("{a comment}\nDa1;Db1"));
    }

    #[test]
    fn counts_are_json_numbers_below_two_to_the_64_and_decimal_strings_from_there() {
        assert_eq!(count_json(&ExactCount::from(0)), json!(0));
        assert_eq!(count_json(&ExactCount::from(u64::MAX)), json!(u64::MAX));
        let two_to_64 = &ExactCount::from(1 << 32) * &ExactCount::from(1 << 32);
        assert_eq!(count_json(&two_to_64), json!("18446744073709551616"));
        // Throngs' pie offers on T93: C(93, n)·C(93 − n, n + 1) offers.
        let legal_count = |opening: &str| {
            let options = [("opening".to_string(), opening.to_string())];
            let game = games::open(GameKind::named("throngs"), &options, None).unwrap();
            referee(game, "", true).0["legal_count"].clone()
        };
        assert_eq!(legal_count("pie"), json!(389_298));
        assert_eq!(legal_count("pie-6"), json!(4_454_071_689_627_748_188u64));
        assert_eq!(legal_count("pie-7"), json!("502673804972274438360"));
        // Past 2^128 (issue 39: it wrapped to 322029568870257840243337851733677217424).
        assert_eq!(legal_count("pie-21"), json!("662311935791196303706712459165445428880"));
    }

    #[test]
    fn tokens_split_on_semicolons_and_newlines() {
        assert_eq!(move_list_tokens("+d4*2,+e5; pass\n\n R ;"), vec!["+d4*2,+e5", "pass", "R"]);
        assert!(move_list_tokens("  ").is_empty());
    }
}
