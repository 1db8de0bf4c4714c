//! The one reader of a record brought in from outside (`play --load`, `referee --moves-file`,
//! `review --moves-file`, the import dialog, the browser's upload): it tells the forms apart (JSON,
//! the plain text export, a game's own record notation with or without its header, a plain move
//! list of a named game), reads and replays the record, and checks it against the game and
//! options the player already named.

use super::record::{GameRecord, RecordError};
use crate::games::GameKind;
use std::path::Path;

/// The largest record file read, in bytes: a whole long game in any form is far smaller, and a
/// bigger file is not a record.
pub const MAX_RECORD_BYTES: u64 = 4 << 20;

/// Reads a record in any form. `game` and `options` are what the player named beside it (the
/// command line's `--game` and `--option`; none from the import dialog): a record of another
/// game, or whose options say otherwise than one named, is refused; a record in a game's notation
/// without a header is read as `game`'s moves under `options` (with no game named, as the moves
/// of the one game they read as). Every move is replayed, so a record that reads is one that
/// plays.
pub fn read_record(
    text: &str,
    game: Option<GameKind>,
    options: &[(String, String)],
) -> Result<GameRecord, RecordError> {
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(RecordError::NotARecord("the text is empty".to_string()));
    }
    let headed = GameKind::of_record_text(text);
    if let (Some(found), Some(expected)) = (headed, game)
        && found != expected
    {
        return Err(RecordError::WrongGame { found, expected });
    }
    let base_for = |kind: GameKind| if game == Some(kind) { options } else { &[] };
    let record = if looks_like_json(trimmed) {
        GameRecord::from_json(text)?
    } else if let Some(kind) = headed {
        GameRecord::from_spec_text_of(kind, text, base_for(kind))?
    } else if trimmed.starts_with("game:") {
        GameRecord::from_text(text)?
    } else if let Some(kind) = game {
        if is_move_list(text) {
            GameRecord::from_move_list(kind, &move_list_tokens(text), options)?
        } else {
            GameRecord::from_spec_text_of(kind, text, options)?
        }
    } else {
        let read_as = |kind: GameKind| {
            GameRecord::from_spec_text_of(kind, text, &[])
                .or_else(|_| GameRecord::from_move_list(kind, &move_list_tokens(text), &[]))
                .ok()
        };
        GameKind::all().find_map(read_as).ok_or_else(|| {
            RecordError::NotARecord(
                "it is not JSON, has no header naming its game, and reads as no game's moves".to_string(),
            )
        })?
    };
    if let Some(expected) = game
        && record.game != expected
    {
        return Err(RecordError::WrongGame { found: record.game, expected });
    }
    record.replay(None)?;
    check_options(&record, options)?;
    Ok(record)
}

/// Whether a text is a plain move list (`stoneyard referee --moves`' form: the rule book's move
/// tokens separated by `;` or new lines) rather than a record: not JSON, no header (`[…]`,
/// `game:`) and no move number first (`1.`, `1.1`, `1B`). No game's move token starts with a digit.
pub fn is_move_list(text: &str) -> bool {
    if looks_like_json(text) {
        return false;
    }
    // Leading `{comments}` say nothing about the form.
    let mut t = text.trim_start();
    while let Some(rest) = t.strip_prefix('{').and_then(|r| r.split_once('}')).map(|(_, rest)| rest.trim_start()) {
        t = rest;
    }
    !(t.starts_with('[') || t.starts_with("game:") || t.starts_with(|c: char| c.is_ascii_digit()))
}

/// The tokens of a move list: split on `;` and new lines, trimmed, empty ones dropped.
pub fn move_list_tokens(moves: &str) -> Vec<&str> {
    moves.split([';', '\n']).map(str::trim).filter(|t| !t.is_empty()).collect()
}

/// Whether a text is JSON rather than a record opening with a `{comment}`: a JSON object's `{`
/// is followed by a quoted key (or closes at once).
pub fn looks_like_json(text: &str) -> bool {
    text.trim_start()
        .strip_prefix('{')
        .is_some_and(|rest| rest.trim_start().is_empty() || rest.trim_start().starts_with(['"', '}']))
}

/// Reads a record file (see [`read_record`]); the error names the file.
pub fn read_record_file(
    path: &Path,
    game: Option<GameKind>,
    options: &[(String, String)],
) -> Result<GameRecord, String> {
    let text = read_text_file(path, MAX_RECORD_BYTES)?;
    read_record(&text, game, options).map_err(|e| format!("{}: {e}", path.display()))
}

/// The text of a file a player named, refused with a clear reason (naming the file) when it is
/// longer than `limit` bytes (read no further: `/dev/zero` is refused too) or not UTF-8.
pub fn read_text_file(path: &Path, limit: u64) -> Result<String, String> {
    use std::io::Read;
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| at(&e))?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| at(&e))?;
    if bytes.len() as u64 > limit {
        return Err(at(&format!("more than {limit} bytes is too big for this input")));
    }
    String::from_utf8(bytes).map_err(|_| at(&"this is not a text file (it is not UTF-8)"))
}

/// Every option the player named must be the record's: a record says how its game was played.
fn check_options(record: &GameRecord, named: &[(String, String)]) -> Result<(), RecordError> {
    if named.is_empty() {
        return Ok(());
    }
    let setup = |e: crate::games::GameError| RecordError::Setup(e.to_string());
    let asked = record.game.open(named, None).map_err(setup)?.option_pairs();
    let recorded = record.game.open(&record.options, None).map_err(setup)?.option_pairs();
    for (key, _) in named {
        let value_in = |pairs: &[(String, String)]| {
            pairs.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.clone()).unwrap_or_default()
        };
        let (given, record_value) = (value_in(&asked), value_in(&recorded));
        if given != record_value {
            return Err(RecordError::OptionConflict { key: key.clone(), record: record_value, given });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_headerless_record_is_the_named_games_moves_under_the_named_options() {
        let inchworm = GameKind::named("inchworm");
        let r = read_record("1. Da1 Db1 2. Dh8 Da2 *", Some(inchworm), &[]).unwrap();
        assert_eq!((r.game, r.moves.len()), (inchworm, 4));
        let r = read_record("1. C3 2. B2", Some(GameKind::named("red-stone")), &pairs(&[("size", "5")])).unwrap();
        assert_eq!(r.options, pairs(&[("size", "5")]));
        let found = read_record("1. Da1 Db1 2. Dh8 Da2 *", None, &[]).unwrap();
        assert_eq!(found.game, inchworm, "with no game named, the one game the moves read as");
    }

    #[test]
    fn tags_that_contradict_the_named_options_are_refused_by_name() {
        let text = "[Game \"Inchworm\"] [Target \"60\"]\n1. Da1 Db1 *";
        let inchworm = Some(GameKind::named("inchworm"));
        let err = read_record(text, inchworm, &pairs(&[("target", "30")])).unwrap_err();
        assert_eq!(err, RecordError::OptionConflict { key: "target".into(), record: "60".into(), given: "30".into() });
        assert!(err.to_string().contains("target=60") && err.to_string().contains("target=30"), "{err}");
        // Naming what the tags say, or an option they leave out, is no contradiction.
        assert!(read_record(text, inchworm, &pairs(&[("target", "60")])).is_ok());
        let torus = read_record(text, inchworm, &pairs(&[("topology", "torus")])).unwrap();
        assert!(torus.options.contains(&("topology".to_string(), "torus".to_string())), "{:?}", torus.options);
    }

    /// Every game's plain move list (the referee's notation, one token per line or `;`-separated)
    /// reads as the record of the same decisions: what `stoneyard review --moves-file` and
    /// `stoneyard referee --moves-file` both accept.
    #[test]
    fn every_games_plain_move_list_reads_as_its_record() {
        for kind in GameKind::all() {
            let mut position = kind.open(&[], None).unwrap();
            let mut rng = crate::rules::seeded(7);
            let mut decisions = Vec::new();
            while decisions.len() < 40 && !position.status().is_over() {
                // At a simultaneous node: the first side that has not sealed.
                let legal = crate::rules::Side::BOTH
                    .into_iter()
                    .map(|side| position.legal_decisions(side))
                    .find(|legal| !legal.is_empty())
                    .expect("an ongoing game has a decision");
                let pick = legal[crate::rules::pick_index(&mut rng, legal.len())].clone();
                position.play_decision(&pick).unwrap();
                decisions.push(pick);
            }
            let start = kind.open(&[], None).unwrap();
            let tokens = start.record_tokens(&decisions).unwrap();
            let whole = decisions.len() - tokens.pending;
            let list: Vec<String> = tokens.moves.iter().map(|m| m.token.clone()).collect();
            for separator in ["\n", ";"] {
                let text = list.join(separator);
                assert!(is_move_list(&text), "{kind}: {text}");
                let record = read_record(&text, Some(kind), &[]).unwrap_or_else(|e| panic!("{kind}: {e}\n{text}"));
                let read: Vec<&str> = record.moves.iter().map(|m| m.decision.as_str()).collect();
                assert_eq!(read, decisions[..whole], "{kind}: {text}");
            }
        }
    }

    #[test]
    fn a_move_list_with_a_move_that_does_not_play_is_refused_naming_it() {
        let err = read_record("+a1\n+zz9", Some(GameKind::named("gravel")), &[]).unwrap_err();
        assert!(matches!(&err, RecordError::BadMove { index: 2, decision, .. } if decision == "+zz9"), "{err:?}");
        let err = read_record(" ; \n", Some(GameKind::named("gravel")), &[]).unwrap_err();
        assert!(matches!(err, RecordError::NotARecord(_)), "{err:?}");
    }

    #[test]
    fn a_record_opening_with_a_comment_is_no_json() {
        let text = "{E18, from the spec} 1. Da1 Db1 *";
        assert!(!looks_like_json(text) && looks_like_json("{\n  \"format\": 1"));
        let r = read_record(text, Some(GameKind::named("inchworm")), &[]).unwrap();
        assert_eq!(r.moves.len(), 2);
    }

    #[test]
    fn a_record_of_another_game_empty_text_and_garbage_are_refused() {
        let gravel = Some(GameKind::named("gravel"));
        let err = read_record("[Game \"Inchworm\"]\n1. Da1 *", gravel, &[]).unwrap_err();
        assert!(matches!(err, RecordError::WrongGame { .. }), "{err}");
        assert!(read_record("  \n", None, &[]).is_err());
        assert!(read_record("hello there", None, &[]).is_err());
    }

    #[test]
    fn a_file_too_big_or_not_text_is_refused_before_it_is_read() {
        let dir = std::env::temp_dir().join(format!("stoneyard-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let binary = dir.join("binary.txt");
        std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
        assert!(read_record_file(&binary, None, &[]).unwrap_err().contains("UTF-8"));
        let big = dir.join("big.txt");
        std::fs::write(&big, vec![b' '; MAX_RECORD_BYTES as usize + 1]).unwrap();
        assert!(read_record_file(&big, None, &[]).unwrap_err().contains("too big"));
        // A file without end is refused after the limit, not read until memory runs out.
        #[cfg(unix)]
        assert!(read_record_file(Path::new("/dev/zero"), None, &[]).unwrap_err().contains("too big"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
