//! The one list of games. Each row is built from a game's `About` and rules, so adding a game
//! means its folder and one line in `for_each_game!` (games/mod.rs); everything else (the command line, saves, records,
//! menus, the board, the tests) reads the list.

use super::about::{About, LineCounter, NumberedMoves, number_tokens};
use super::dyn_game::{DynGame, GameError};
use crate::rules::{GameOptions, OptionSpec, ParseError, RulesHelp, Side, Tone};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// The registry's rows of the games `for_each_game!` lists.
macro_rules! registry_rows {
    ($($game:ty),* $(,)?) => {
        &[$(GameEntry::of::<$game>()),*]
    };
}

/// Every game's row, in the order the title screen shows them (built from `for_each_game!`).
pub static GAMES: &[GameEntry] = crate::for_each_game!(registry_rows);

/// Options as `key=value` pairs, and the record moves of a record text.
pub type RecordText = (Vec<(String, String)>, Vec<String>);

/// One game of the registry: its names, words and the functions that open and read it.
pub struct GameEntry {
    /// The name the command line, saves and options use (`red-stone`).
    pub slug: &'static str,
    pub name: &'static str,
    pub designer: &'static str,
    pub tagline: &'static str,
    /// The sides as people name them, the first side first.
    pub side_names: [&'static str; 2],
    /// The colour each side's pieces are drawn in.
    pub side_tones: [Tone; 2],
    pub rules: RulesHelp,
    /// What the pie choice means (games with a pie rule).
    pub pie_text: Option<&'static str>,
    /// Options for a short game (a small board, a low target).
    pub quick_options: &'static [(&'static str, &'static str)],
    option_specs: fn() -> &'static [OptionSpec],
    /// How many of the last options are variants (`GameOptions::VARIANTS`).
    variants: usize,
    open: OpenFn,
    decision_words: fn(&str, &str) -> Option<String>,
    option_value_words: fn(&str, &str) -> Option<String>,
    next_line: fn(&mut LineCounter, &str) -> Option<String>,
    move_joiner: &'static str,
    is_record_text: fn(&str) -> bool,
    read_record_text: ReadRecordFn,
    write_record_text: WriteRecordFn,
}

/// Opens a game from option pairs and, optionally, a position text.
type OpenFn = fn(&[(String, String)], Option<&str>) -> Result<Box<dyn DynGame>, GameError>;
/// Reads a record text with option pairs for what its tags leave unsaid.
type ReadRecordFn = fn(&str, &[(String, String)]) -> Result<RecordText, ParseError>;
/// Writes the record text of a game from option pairs, the players' names and the record moves.
type WriteRecordFn = fn(&[(String, String)], [&str; 2], &[String]) -> Result<String, GameError>;

impl GameEntry {
    /// The row of game `G`.
    pub const fn of<G: About>() -> GameEntry {
        GameEntry {
            slug: G::SLUG,
            name: G::NAME,
            designer: G::DESIGNER,
            tagline: G::TAGLINE,
            side_names: G::SIDE_NAMES,
            side_tones: G::SIDE_TONES,
            rules: G::RULES,
            pie_text: G::PIE_TEXT,
            quick_options: G::QUICK_OPTIONS,
            option_specs: <G::Options as GameOptions>::specs,
            variants: <G::Options as GameOptions>::VARIANTS,
            open: open_as::<G>,
            decision_words: G::decision_words,
            option_value_words: G::option_value_words,
            next_line: G::next_line,
            move_joiner: G::MOVE_JOINER,
            is_record_text: G::is_record_text,
            read_record_text: read_record_as::<G>,
            write_record_text: write_record_as::<G>,
        }
    }
}

fn typed_options<O: GameOptions>(pairs: &[(String, String)]) -> Result<O, GameError> {
    Ok(O::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))?)
}

fn open_as<G: About>(options: &[(String, String)], position: Option<&str>) -> Result<Box<dyn DynGame>, GameError> {
    let options: G::Options = typed_options(options)?;
    Ok(match position {
        Some(text) => Box::new(G::parse_position(&options, text)?),
        None => Box::new(G::new(&options)),
    })
}

fn read_record_as<G: About>(text: &str, base: &[(String, String)]) -> Result<RecordText, ParseError> {
    let base: G::Options = typed_options(base).map_err(|e| ParseError::new(e.to_string()))?;
    let (options, tokens) = G::read_record_text(text, &base)?;
    Ok((options.to_pairs(), tokens))
}

fn write_record_as<G: About>(
    options: &[(String, String)],
    players: [&str; 2],
    tokens: &[String],
) -> Result<String, GameError> {
    Ok(G::write_record_text(&typed_options(options)?, players, tokens)?)
}

/// Which game: a handle on one row of [`GAMES`] (compared, hashed and written by its slug).
#[derive(Clone, Copy)]
pub struct GameKind(&'static GameEntry);

impl GameKind {
    /// Every game, in the registry's order.
    pub fn all() -> impl Iterator<Item = GameKind> {
        GAMES.iter().map(GameKind)
    }

    /// The game with this slug.
    pub fn from_slug(slug: &str) -> Option<GameKind> {
        GAMES.iter().find(|g| g.slug == slug).map(GameKind)
    }

    /// The game with this slug, for code and tests that name a game of the registry; a slug the
    /// registry does not have is a mistake in the program, not in its input, and panics.
    pub fn named(slug: &str) -> GameKind {
        GameKind::from_slug(slug).unwrap_or_else(|| panic!("no game '{slug}' in the registry"))
    }

    /// Every slug, comma-separated, for error messages.
    pub fn all_slugs() -> String {
        GAMES.iter().map(|g| g.slug).collect::<Vec<_>>().join(", ")
    }

    /// The game whose record notation `text` is written in, if any.
    pub fn of_record_text(text: &str) -> Option<GameKind> {
        GameKind::all().find(|k| (k.0.is_record_text)(text))
    }

    /// The name the command line, saves and options use (`red-stone`).
    pub fn slug(self) -> &'static str {
        self.0.slug
    }

    /// The game's name for people (`Red Stone`).
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// [`GameEntry::quick_options`] as owned pairs, as `open` takes them.
    pub fn quick_pairs(self) -> Vec<(String, String)> {
        self.0.quick_options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    /// The options this game accepts, in the order the setup screen shows them.
    pub fn option_specs(self) -> &'static [OptionSpec] {
        (self.0.option_specs)()
    }

    /// The options most players set: every one but the trailing variants (`GameOptions::VARIANTS`).
    pub fn main_options(self) -> &'static [OptionSpec] {
        let specs = self.option_specs();
        &specs[..specs.len().saturating_sub(self.0.variants)]
    }

    /// Opens a game: options from `key=value` pairs over the spec's defaults, then either the
    /// initial position or the given position text.
    pub fn open(self, options: &[(String, String)], position: Option<&str>) -> Result<Box<dyn DynGame>, GameError> {
        (self.0.open)(options, position)
    }

    /// A side as people name it ("Black").
    pub fn side_name(self, side: Side) -> &'static str {
        self.0.side_names[side.index()]
    }

    /// The colour `side`'s pieces are drawn in.
    pub fn tone(self, side: Side) -> Tone {
        self.0.side_tones[side.index()]
    }

    /// An atomic decision in words, or `None` when the token is not one of this game's.
    pub fn decision_words(self, token: &str, mover: &str) -> Option<String> {
        (self.0.decision_words)(token, mover)
    }

    /// A value of option `key` in words for the setup screen (the value itself when the game has
    /// no words for it).
    pub fn option_value_words(self, key: &str, value: &str) -> String {
        (self.0.option_value_words)(key, value).unwrap_or_else(|| value.to_string())
    }

    /// The record moves `tokens` grouped into the game record's numbered moves, each with its
    /// number as the record writes it.
    pub fn numbered_moves(self, tokens: &[String]) -> NumberedMoves {
        number_tokens(self.0.next_line, tokens)
    }

    /// Numbers one more token of a record (see `About::next_line`).
    pub fn next_line(self, counter: &mut LineCounter, token: &str) -> Option<String> {
        (self.0.next_line)(counter, token)
    }

    /// What stands between the tokens of one numbered move in the record (" ; " in Gravel).
    pub fn move_joiner(self) -> &'static str {
        self.0.move_joiner
    }

    /// The options (as pairs) and record moves of a text in this game's record notation; `base`
    /// are the options of what its tags leave unsaid (a record without tags is its moves under
    /// `base`).
    pub fn read_record_text(self, text: &str, base: &[(String, String)]) -> Result<RecordText, ParseError> {
        (self.0.read_record_text)(text, base)
    }

    /// The record text of a game from the initial position of `options`.
    pub fn write_record_text(
        self,
        options: &[(String, String)],
        players: [&str; 2],
        tokens: &[String],
    ) -> Result<String, GameError> {
        (self.0.write_record_text)(options, players, tokens)
    }
}

impl std::ops::Deref for GameKind {
    type Target = GameEntry;
    fn deref(&self) -> &GameEntry {
        self.0
    }
}

impl PartialEq for GameKind {
    fn eq(&self, other: &Self) -> bool {
        self.0.slug == other.0.slug
    }
}

impl Eq for GameKind {}

impl Hash for GameKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.slug.hash(state);
    }
}

impl fmt::Debug for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.slug)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.slug)
    }
}

impl FromStr for GameKind {
    type Err = String;
    /// A slug, case-insensitive, with `_` for `-` or without the dash (`Red_Stone`, `redstone`).
    fn from_str(s: &str) -> Result<Self, String> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        GameKind::all()
            .find(|k| k.slug == wanted || k.slug.replace('-', "") == wanted)
            .ok_or_else(|| format!("unknown game '{s}'; the games are: {}", GameKind::all_slugs()))
    }
}

impl Serialize for GameKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.slug)
    }
}

impl<'de> Deserialize<'de> for GameKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let slug = String::deserialize(deserializer)?;
        GameKind::from_slug(&slug).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown game '{slug}'; the games are: {}", GameKind::all_slugs()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pieces_a_game_counts_are_the_ones_its_picture_shows() {
        use crate::rules::{Side, pick_index, seeded};
        let mut rng = seeded(4);
        for kind in GameKind::all() {
            let mut game = kind.open(&kind.quick_pairs(), None).unwrap();
            for _ in 0..40 {
                assert_eq!(game.pieces_on_board(), game.board_view().pieces_of_each_side(), "{kind}");
                let legal: Vec<String> = Side::BOTH.into_iter().flat_map(|s| game.legal_decisions(s)).collect();
                if legal.is_empty() {
                    break;
                }
                game.play_decision(&legal[pick_index(&mut rng, legal.len())]).unwrap();
            }
        }
    }

    #[test]
    fn slugs_parse_back_and_are_unique() {
        for k in GameKind::all() {
            assert_eq!(k.slug.parse::<GameKind>(), Ok(k));
            assert_eq!(GameKind::all().filter(|o| o.slug == k.slug).count(), 1, "{k}");
        }
        assert_eq!("Red_Stone".parse::<GameKind>().map(|k| k.slug), Ok("red-stone"));
        assert!("chess".parse::<GameKind>().unwrap_err().contains("gravel"));
    }

    #[test]
    fn kinds_serialise_as_their_slug() {
        for k in GameKind::all() {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.slug));
            assert_eq!(serde_json::from_str::<GameKind>(&json).unwrap(), k);
        }
        assert!(serde_json::from_str::<GameKind>("\"chess\"").is_err());
    }

    #[test]
    fn every_game_opens_with_its_defaults_and_knows_itself() {
        for k in GameKind::all() {
            let game = k.open(&[], None).unwrap_or_else(|e| panic!("{k}: {e}"));
            assert_eq!(game.kind(), k);
            assert_eq!(game.option_pairs().len(), k.option_specs().len(), "{k}: every option has a value");
        }
    }

    #[test]
    fn every_games_quick_options_open_and_shorten_a_random_game() {
        for k in GameKind::all() {
            let quick = k.open(&k.quick_pairs(), None).unwrap_or_else(|e| panic!("{k}: {e}"));
            let default = k.open(&[], None).unwrap();
            assert!(quick.board_view().cells.len() <= default.board_view().cells.len(), "{k}");
        }
    }

    #[test]
    fn every_choice_of_every_option_is_said_in_words_and_throngs_boards_by_name() {
        for k in GameKind::all() {
            for spec in k.option_specs() {
                if let crate::rules::OptionKind::Choice(values) = spec.kind {
                    for v in values {
                        assert!(!k.option_value_words(spec.key, v).is_empty(), "{k} {}={v}", spec.key);
                    }
                }
                assert!(!spec.help.is_empty(), "{k}: option {} is not explained", spec.key);
            }
        }
        let throngs = GameKind::named("throngs");
        assert!(throngs.option_value_words("board", "P156").starts_with("P156: perforated"));
        assert_eq!(throngs.option_value_words("board", "Torus-9"), "Torus 9: no edges, 9 × 9 (81 sites)");
        assert_eq!(
            throngs.option_value_words("opening", "pie-3"),
            "Pie with 3 black and 4 white stones set by one player"
        );
        assert_eq!(throngs.option_value_words("players", "two"), "two", "no words: the value itself");
    }

    #[test]
    fn numbered_moves_cover_every_token_once_in_order() {
        for k in GameKind::all() {
            let tokens: Vec<String> = (0..7).map(|i| format!("t{i}")).collect();
            let moves = k.numbered_moves(&tokens);
            let flat: Vec<usize> = moves.iter().flat_map(|(_, t)| t.iter().copied()).collect();
            assert_eq!(flat, (0..7).collect::<Vec<_>>(), "{k}");
        }
        let gravel = GameKind::named("gravel").numbered_moves(&["+a1".into(), "+b1".into(), "+c1".into()]);
        assert_eq!(gravel, vec![("1.".to_string(), vec![0, 1]), ("2.".to_string(), vec![2])]);
        let hi =
            GameKind::named("hidden-intention").numbered_moves(&["Pc6|Xc6".into(), "Qd4|Re5".into(), "Pa1|Pb2".into()]);
        let labels: Vec<&str> = hi.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["1.1", "1.2", "2.1"], "a burned attempt is tried again in the same turn");
        let throngs = GameKind::named("throngs").numbered_moves(&["+k10".into(), "pass".into(), "+c4".into()]);
        assert_eq!(throngs[0].0, "1B");
        assert_eq!(throngs[1], ("1W".to_string(), vec![2]));
    }

    #[test]
    fn every_game_ends_with_a_reason_in_words() {
        for k in GameKind::all() {
            let mut game = k.open(&k.quick_pairs(), None).unwrap();
            assert_eq!(game.end_reason(), None, "{k}: a reason before the end");
            let mut rng = crate::rules::seeded(11);
            for _ in 0..20_000 {
                let Some(to_move) = game.to_move() else { break };
                let side = match to_move {
                    crate::rules::ToMove::One(side) => side,
                    crate::rules::ToMove::Both => {
                        if game.legal_decisions(crate::rules::Side::First).is_empty() {
                            crate::rules::Side::Second
                        } else {
                            crate::rules::Side::First
                        }
                    }
                };
                let legal = game.legal_decisions(side);
                let d = legal[crate::rules::pick_index(&mut rng, legal.len())].clone();
                game.play_decision(&d).unwrap();
            }
            assert!(game.status().is_over(), "{k}: the random game did not end");
            let reason = game.end_reason().unwrap_or_else(|| panic!("{k}: no reason at the end"));
            assert!(reason.len() > 10, "{k}: {reason}");
        }
    }

    #[test]
    fn every_game_has_a_goal_and_says_how_to_play_here() {
        for k in GameKind::all() {
            let sections = k.rules.sections;
            assert_eq!(sections.first().map(|s| s.id), Some("goal"), "{k}");
            assert_eq!(sections.last().map(|s| s.id), Some("here"), "{k}");
        }
    }

    #[test]
    fn every_rules_section_has_a_name_of_its_own_words_and_a_drawn_example() {
        let mut missing = Vec::new();
        for k in GameKind::all() {
            let mut seen = std::collections::HashSet::new();
            for section in k.rules.sections {
                let id = section.id;
                assert!(seen.insert(id), "{k}: section {id} twice");
                assert!(
                    !id.is_empty() && id.split('-').all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())),
                    "{k}: section id {id:?} is not lower-case words joined by '-'"
                );
                assert!(!section.heading.is_empty() && section.text.len() > 20, "{k} {id}: no words");
                if id != "here" && section.examples.is_empty() {
                    missing.push(format!("{k} {id}"));
                }
            }
        }
        assert!(missing.is_empty(), "sections without a drawn example: {}", missing.join(", "));
    }

    /// What is wrong with an example: its position, spaces or move, or an after that is not the
    /// position its move leaves.
    fn example_faults(k: GameKind, ill: &crate::rules::Illustration) -> Vec<String> {
        let mut faults = Vec::new();
        let options: Vec<(String, String)> = ill.options.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let before = match k.open(&options, Some(ill.position)) {
            Ok(before) => before,
            Err(e) => return vec![format!("{k} {}: {e}", ill.position)],
        };
        let view = before.board_view();
        let named = crate::rules::cells_in_token(ill.play).into_iter().chain(ill.marks.iter().copied());
        for name in named {
            if !view.cells.iter().any(|c| c.name == name) {
                faults.push(format!("{k} {}: {name} is not on the board", ill.position));
            }
        }
        if ill.caption.len() < 20 {
            faults.push(format!("{k} {}: the caption says nothing", ill.position));
        }
        if ill.play.is_empty() {
            if !ill.after.is_empty() {
                faults.push(format!("{k} {}: an after without a play", ill.position));
            }
            return faults;
        }
        let mut after = before.clone_box();
        if let Err(e) = after.play_token(ill.play) {
            faults.push(format!("{k} {} at {}: {e:?}", ill.play, ill.position));
            return faults;
        }
        // What the pictures draw: the pieces and the burned squares.
        let drawn = |v: &crate::rules::BoardView| v.cells.iter().map(|c| (c.piece, c.marks.burned)).collect::<Vec<_>>();
        if drawn(&view) == drawn(&after.board_view()) {
            faults.push(format!("{k} {} at {}: nothing changed", ill.play, ill.position));
        }
        if after.position_text() != ill.after {
            faults.push(format!("{k} {} at {}: after is {:?}", ill.play, ill.position, after.position_text()));
        }
        faults
    }

    #[test]
    fn every_rules_example_opens_and_its_move_leaves_the_position_it_claims() {
        let faults: Vec<String> =
            GameKind::all().flat_map(|k| k.rules.examples().flat_map(move |ill| example_faults(k, ill))).collect();
        assert!(faults.is_empty(), "{} faulty examples:\n{}", faults.len(), faults.join("\n"));
    }
}
