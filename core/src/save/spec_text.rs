//! Records in each game's own record notation (the specs' "game record" sections), for copying
//! out and pasting in: written from a record's decisions grouped into the spec's moves, and read
//! back by splitting every spec move into the engine's atomic decisions again.

use super::record::{GameRecord, Player, RECORD_FORMAT, RecordError, RecordedMove};
use crate::games::{self, DynGame, GameKind};
use crate::rules::{Side, ToMove, cells_in_token};

/// The most atomic decisions one spec move can stand for in a game whose moves are searched for
/// (a Hidden Intention attempt of two four-part commitments); games with longer moves (a Gravel
/// turn, an Inchworm distribution, a Throngs pie offer) read them from the token instead
/// (`Notation::record_token_moves`).
const MAX_DECISIONS_PER_MOVE: usize = 12;

/// Positions the search for one move's decisions may visit before it gives up.
const SEARCH_LIMIT: usize = 200_000;

fn setup_error(e: impl std::fmt::Display) -> RecordError {
    RecordError::Setup(e.to_string())
}

/// A player as the record's name tags say it.
fn player_name(player: &Player) -> String {
    match player {
        Player::Human => "Human".to_string(),
        Player::Computer(level) => format!("Computer ({level})"),
    }
}

impl GameRecord {
    /// The record in its game's record notation. Decisions of a move still under way at the end
    /// (a Gravel turn not ended, a commitment sealed but not answered) are left out: the notation
    /// has no way to write half a move. A game set up from a position cannot be written either
    /// (the notations start from the initial position): use the JSON record for those.
    pub fn to_spec_text(&self) -> Result<String, RecordError> {
        if self.start.is_some() {
            return Err(RecordError::Setup(
                "this game started from a set-up position, which the rules' record notation cannot hold".to_string(),
            ));
        }
        let start = self.game.open(&self.options, None).map_err(setup_error)?;
        let decisions: Vec<String> = self.moves.iter().map(|m| m.decision.clone()).collect();
        let grouped = start.record_tokens(&decisions).map_err(setup_error)?;
        let tokens: Vec<String> = grouped.moves.into_iter().map(|m| m.token).collect();
        let names = [player_name(&self.players[0]), player_name(&self.players[1])];
        let text = self.game.write_record_text(&self.options, [&names[0], &names[1]], &tokens).map_err(setup_error)?;
        Ok(text + "\n")
    }

    /// The record as the board's Record window shows and exports it: in the rules' own notation,
    /// or, for a game that notation cannot hold (one set up from a position), the plain text.
    pub fn to_shown_text(&self) -> String {
        self.to_spec_text().unwrap_or_else(|_| self.to_text())
    }

    /// Reads a record in a game's record notation (any game's; the header says which) and turns
    /// every move back into the engine's decisions, so it replays, continues and saves like any
    /// record. A move that cannot be played is reported with its number.
    pub fn from_spec_text(text: &str) -> Result<GameRecord, RecordError> {
        let game = GameKind::of_record_text(text)
            .ok_or_else(|| RecordError::NotARecord("no header of a game's record notation".to_string()))?;
        GameRecord::from_spec_text_of(game, text, &[])
    }

    /// Reads a record in `game`'s record notation, header or not: what its tags leave unsaid
    /// takes the options `base` (a record without tags is its moves under `base`).
    pub fn from_spec_text_of(game: GameKind, text: &str, base: &[(String, String)]) -> Result<GameRecord, RecordError> {
        let (options, tokens) =
            game.read_record_text(text, base).map_err(|e| RecordError::NotARecord(e.to_string()))?;
        Self::from_tokens(game, options, &tokens)
    }

    /// A plain move list of `game` under `options` (the rule book's move tokens, as
    /// `stoneyard referee` plays them), each token replayed.
    pub fn from_move_list(
        game: GameKind,
        tokens: &[&str],
        options: &[(String, String)],
    ) -> Result<GameRecord, RecordError> {
        if tokens.is_empty() {
            return Err(RecordError::NotARecord("the move list has no moves".to_string()));
        }
        Self::from_tokens(game, options.to_vec(), tokens)
    }

    /// The record of `tokens` (rule-book moves) played from `game`'s start under `options`.
    fn from_tokens(
        game: GameKind,
        options: Vec<(String, String)>,
        tokens: &[impl AsRef<str>],
    ) -> Result<GameRecord, RecordError> {
        let mut position = game.open(&options, None).map_err(setup_error)?;
        let mut moves = Vec::new();
        for (index, token) in tokens.iter().map(AsRef::as_ref).enumerate() {
            let bad = |reason: String| RecordError::BadMove { index: index + 1, decision: token.to_string(), reason };
            let decisions = token_decisions(position.as_ref(), token).map_err(bad)?;
            for d in decisions {
                position.play_decision(&d).map_err(|e| bad(e.to_string()))?;
                moves.push(RecordedMove { decision: d, at_ms: 0 });
            }
        }
        Ok(GameRecord {
            format: RECORD_FORMAT,
            game,
            options,
            seed: 0,
            players: [Player::Human, Player::Human],
            start: None,
            moves,
            started_unix: 0,
            saved_unix_ms: 0,
            result: Some(games::status_json(position.as_ref())),
        })
    }
}

/// Which game a text in a spec's record notation is (from its header), if it is one.
pub fn spec_text_game(text: &str) -> Option<GameKind> {
    GameKind::of_record_text(text)
}

/// The board spaces a text names (`Ca1-c1>d1` → a1, c1, d1; `B5*` → b5), lower-cased.
fn cells_named(text: &str) -> Vec<String> {
    cells_in_token(text).into_iter().map(str::to_ascii_lowercase).collect()
}

/// The atomic decisions that make up the spec move `token` from `position`: those the game reads
/// out of the token when it can (a move of many decisions, such as a Throngs pie offer of up to
/// 225 stones), otherwise a depth-first search over legal decisions the token could contain; either
/// way exactly one whole move that leaves the position that playing the token leaves.
pub fn token_decisions(position: &dyn DynGame, token: &str) -> Result<Vec<String>, String> {
    let mut target = position.clone_box();
    target.play_token(token).map_err(|e| e.to_string())?;
    let target_text = target.position_text();
    if let Some(split) = position.split_token(token) {
        let decisions = split.map_err(|e| e.to_string())?;
        return if is_whole_move_to(position, &decisions, &target_text) {
            Ok(decisions)
        } else {
            Err(format!("'{token}' is legal, but the single decisions read from it do not make that move"))
        };
    }
    let compact: String = token.split_whitespace().collect();
    let cells = cells_named(token);
    // First only decisions written inside the token (most notations write a move as its
    // decisions joined), then any decision on the token's spaces (notations that rewrite them).
    let filters: [&dyn Fn(&str) -> bool; 2] = [
        &|d: &str| cells_named(d).is_empty() || compact.contains(&d.split_whitespace().collect::<String>()),
        &|d: &str| cells_named(d).iter().all(|c| cells.contains(c)),
    ];
    let mut visited = 0usize;
    for allowed in filters {
        let mut path = Vec::new();
        let mut same_position = None;
        visited = 0;
        let goal = Goal { position: &target_text, text: &compact };
        if search(position, position, &goal, allowed, &mut path, &mut same_position, &mut visited) {
            return Ok(path);
        }
        // Written differently from how it is written here (`+d4,+d4` for `+d4*2`), same move.
        if let Some(path) = same_position {
            return Ok(path);
        }
    }
    if visited >= SEARCH_LIMIT {
        Err(format!("'{token}' is legal, but splitting it into single decisions took too long"))
    } else {
        Err(format!("'{token}' is legal, but no sequence of single decisions writes it (is it written in full?)"))
    }
}

/// Whether `decisions` played from `position` make exactly one whole move of the record and leave
/// the position written `target` (a check of the game's own split, as the search checks its own).
fn is_whole_move_to(position: &dyn DynGame, decisions: &[String], target: &str) -> bool {
    let one_move = position.record_tokens(decisions).is_ok_and(|g| g.pending == 0 && g.moves.len() == 1);
    let mut after = position.clone_box();
    one_move && decisions.iter().all(|d| after.play_decision(d).is_ok()) && after.position_text() == target
}

/// What the decisions of one move must give: the position after it, written as the token.
struct Goal<'a> {
    position: &'a str,
    /// The token without white space.
    text: &'a str,
}

/// Extends `path` until it writes exactly the goal's token (true); a path that only reaches the
/// goal's position is kept in `same_position`.
fn search(
    start: &dyn DynGame,
    now: &dyn DynGame,
    goal: &Goal,
    allowed: &dyn Fn(&str) -> bool,
    path: &mut Vec<String>,
    same_position: &mut Option<Vec<String>>,
    visited: &mut usize,
) -> bool {
    if path.len() >= MAX_DECISIONS_PER_MOVE || *visited >= SEARCH_LIMIT {
        return false;
    }
    let sides: Vec<Side> = match now.to_move() {
        Some(ToMove::One(side)) => vec![side],
        Some(ToMove::Both) => Side::BOTH.to_vec(),
        None => return false,
    };
    for side in sides {
        for d in now.legal_decisions(side) {
            if !allowed(&d) {
                continue;
            }
            *visited += 1;
            let mut next = now.clone_box();
            if next.play_decision(&d).is_err() {
                continue;
            }
            path.push(d);
            match start.record_tokens(path) {
                // One whole move: the right one if it leaves the goal's position.
                Ok(grouped)
                    if grouped.pending == 0 && grouped.moves.len() == 1 && next.position_text() == goal.position =>
                {
                    if grouped.moves[0].token.split_whitespace().collect::<String>() == goal.text {
                        return true;
                    }
                    same_position.get_or_insert_with(|| path.clone());
                }
                Ok(grouped)
                    if grouped.moves.is_empty()
                        && search(start, next.as_ref(), goal, allowed, path, same_position, visited) =>
                {
                    return true;
                }
                _ => {}
            }
            path.pop();
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_read_out_of_decisions_and_tokens() {
        assert_eq!(cells_named("Ca1-c1>d1"), vec!["a1", "c1", "d1"]);
        assert_eq!(cells_named("B5*"), vec!["b5"]);
        assert_eq!(cells_named("+d4*2,+e5"), vec!["d4", "e5"]);
        assert_eq!(cells_named("Qd4|Re5"), vec!["d4", "e5"]);
        assert!(cells_named("pass").is_empty());
        assert_eq!(cells_named("k10>j9"), vec!["k10", "j9"]);
    }

    #[test]
    fn the_red_stone_example_record_reads_with_its_result() {
        let text = "game: red-stone\nsize: 5\np1: Alice\np2: Bob\n\
                    moves: 1. C3 2. swap 3. A1 4. B1 5. A2 6. B2 7. A3 8. B3 9. A4 10. B4 11. A5 12. B5*\n\
                    result: B+ annihilation\n";
        let record = GameRecord::from_spec_text(text).expect("the spec's example reads");
        assert_eq!(record.game.slug, "red-stone");
        assert_eq!(record.moves.len(), 12);
        assert!(record.replay(None).unwrap().status().is_over());
    }

    #[test]
    fn the_inchworm_example_record_reads() {
        let text = "[Game \"Inchworm\"] [Topology \"flat\"] [Pieces \"25/25\"] [Target \"60\"] \
                    [PrisonerDrops \"off\"] [QuietLimit \"200\"]\n1. Da1 Db1 2. Dh8 Da2 {W+1} 3. R Dd4 *\n";
        let record = GameRecord::from_spec_text(text).expect("E18 reads");
        assert_eq!(record.game.slug, "inchworm");
        assert_eq!(record.moves.iter().map(|m| m.decision.as_str()).collect::<Vec<_>>().len(), 6);
    }

    #[test]
    fn a_bad_move_is_named_by_its_number() {
        let text = "game: red-stone\nsize: 5\nmoves: 1. C3 2. C3\n";
        let err = GameRecord::from_spec_text(text).unwrap_err();
        assert!(err.to_string().contains('2'), "{err}");
    }

    #[test]
    fn plain_text_and_garbage_are_not_spec_text() {
        assert_eq!(spec_text_game("game: red-stone\noption: size=5\n\nC3\n"), None);
        assert_eq!(spec_text_game("hello"), None);
        assert!(GameRecord::from_spec_text("[Gravel N=banana]").is_err());
    }
}
