//! `stoneyard referee`: apply record tokens to a position and print one JSON object.

use super::{RefereeArgs, fail};
use crate::games::{self, DynGame, status_json};
use crate::rules::{LegalTokens, Side, ToMove};
use serde_json::{Map, Value, json};
use std::process::ExitCode;

/// With more legal tokens than this, only the count is printed (Inchworm's distributions).
const MAX_LISTED: u64 = 100_000;

pub fn run(args: RefereeArgs) -> ExitCode {
    let position = match (&args.position, &args.position_file) {
        (Some(p), _) => Some(p.clone()),
        (None, Some(f)) => match std::fs::read_to_string(f) {
            Ok(text) => Some(text.trim().to_string()),
            Err(e) => return fail(format!("cannot read {}: {e}", f.display())),
        },
        (None, None) => None,
    };
    let moves = match (&args.moves, &args.moves_file) {
        (Some(m), _) => m.clone(),
        (None, Some(f)) => match std::fs::read_to_string(f) {
            Ok(text) => text,
            Err(e) => return fail(format!("cannot read {}: {e}", f.display())),
        },
        (None, None) => String::new(),
    };
    let game = match games::open(args.game.game, &args.game.options, position.as_deref()) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let (out, code) = referee(game, &moves, args.legal);
    println!("{out}");
    code
}

/// Splits a move list on `;` and newlines, dropping empty tokens.
pub fn split_tokens(moves: &str) -> Vec<&str> {
    moves.split([';', '\n']).map(str::trim).filter(|t| !t.is_empty()).collect()
}

/// Applies `moves` and returns the JSON to print and the exit status.
pub fn referee(mut game: Box<dyn DynGame>, moves: &str, legal: bool) -> (Value, ExitCode) {
    let mut effects = Vec::new();
    for (i, token) in split_tokens(moves).into_iter().enumerate() {
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
                out.insert("legal_count".into(), json!(n));
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
    fn tokens_split_on_semicolons_and_newlines() {
        assert_eq!(split_tokens("+d4*2,+e5; pass\n\n R ;"), vec!["+d4*2,+e5", "pass", "R"]);
        assert!(split_tokens("  ").is_empty());
    }
}
