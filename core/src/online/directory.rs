//! Who plays online and what is open, as the protocol carries it: players' names and ratings,
//! open challenges and their time controls, games being played, player pages, leaderboards and
//! the preset phrases; and the rules a name and a password must follow (the client checks them
//! before asking, the server again).

use crate::games::GameKind;
use crate::rules::Side;
use serde::{Deserialize, Serialize};

/// The shortest and longest display name, in characters.
pub const NAME_LENGTH: std::ops::RangeInclusive<usize> = 3..=20;
/// The shortest and longest password, in bytes (argon2 takes any length; a bound keeps a request
/// from making the server hash megabytes).
pub const PASSWORD_LENGTH: std::ops::RangeInclusive<usize> = 8..=128;
/// The open challenges the lobby lists and follows: the newest, so a flood of old ones hides no
/// new one, and every answer stays small (about 25 kB); `OlderChallenges` pages by as many.
pub const LISTED_CHALLENGES: i64 = 100;
/// A rating stays provisional (shown with "?") while its deviation is at least this (lichess's
/// threshold): a new player's 350 falls under it after a dozen or so rated games.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Every player's rating before their first rated game of a game.
pub const START_RATING: f64 = 1500.0;
pub const START_DEVIATION: f64 = 350.0;
pub const START_VOLATILITY: f64 = 0.06;

/// Names nobody may take: they would pass for the computer or the server speaking.
const RESERVED_NAMES: [&str; 6] = ["computer", "stoneyard", "admin", "server", "moderator", "anonymous"];

/// Why a name is refused, in words for the player; `Ok` with the name as it will be shown.
pub fn check_name(typed: &str) -> Result<String, String> {
    let name = typed.trim();
    let length = name.chars().count();
    if length < *NAME_LENGTH.start() {
        return Err(format!("A name has at least {} characters.", NAME_LENGTH.start()));
    }
    if length > *NAME_LENGTH.end() {
        return Err(format!("A name has at most {} characters.", NAME_LENGTH.end()));
    }
    if let Some(bad) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_')) {
        let shown = if bad == ' ' { "a space".to_string() } else { format!("'{bad}'") };
        return Err(format!("A name uses letters, digits, - and _ only (not {shown})."));
    }
    let looks = name_skeleton(name);
    if RESERVED_NAMES.iter().any(|reserved| name_skeleton(reserved) == looks) {
        return Err(format!("'{name}' is kept for the game itself; choose another name."));
    }
    Ok(name.to_string())
}

/// What a name looks like, for telling apart names that only look different: the letters and
/// digits a reader mistakes for one another made one (after Unicode's confusables, TR39, over the
/// characters a name may use: 0 and O; 1, I, i and l; "rn" and m; "vv" and w; "cl" and d), then
/// one case. "C0mputer" looks like "Computer", "AIice" like "Alice".
pub fn name_skeleton(name: &str) -> String {
    let single: String = name
        .trim()
        .chars()
        .map(|c| match c {
            '0' | 'O' | 'o' => 'o',
            '1' | 'I' | 'i' | 'l' | 'L' => 'l',
            other => other.to_ascii_lowercase(),
        })
        .collect();
    single.replace("rn", "m").replace("vv", "w").replace("cl", "d")
}

/// The form two names are compared in: "Ada" and "ada" are the same player.
pub fn name_key(name: &str) -> String {
    name.trim().to_ascii_lowercase()
}

/// Why a password is refused, in words for the player.
pub fn check_password(password: &str) -> Result<(), String> {
    if password.chars().count() < *PASSWORD_LENGTH.start() {
        return Err(format!("A password has at least {} characters.", PASSWORD_LENGTH.start()));
    }
    if password.len() > *PASSWORD_LENGTH.end() {
        return Err(format!("A password has at most {} bytes.", PASSWORD_LENGTH.end()));
    }
    Ok(())
}

/// A player's rating at one game (Glicko-2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub game: GameKind,
    pub rating: f64,
    pub deviation: f64,
    /// Rated games played.
    pub games: u32,
}

impl Rating {
    /// A player's rating before any rated game.
    pub fn start(game: GameKind) -> Rating {
        Rating { game, rating: START_RATING, deviation: START_DEVIATION, games: 0 }
    }

    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// "1512" or "1500?" while provisional.
    pub fn shown(&self) -> String {
        shown_rating(self.rating, self.deviation)
    }
}

/// A rating as players read it: rounded, with "?" while provisional.
pub fn shown_rating(rating: f64, deviation: f64) -> String {
    let mark = if deviation >= PROVISIONAL_DEVIATION { "?" } else { "" };
    format!("{}{mark}", rating.round() as i64)
}

/// A signed-in player as the server knows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerCard {
    pub name: String,
    /// The games they have a rating at (the others are at the starting rating).
    pub ratings: Vec<Rating>,
    /// They can sign in on another device with a password.
    pub has_password: bool,
    /// Their vacation under way (until when), and the vacation time left this year: their
    /// correspondence clocks stand still while it lasts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation_until_ms: Option<i64>,
    #[serde(default)]
    pub vacation_left_ms: i64,
    /// Their address for the daily digest (their own card only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Whether they confirmed it (no digest goes to it before).
    #[serde(default)]
    pub email_confirmed: bool,
}

impl PlayerCard {
    /// The player's rating at `game` (the starting one before any rated game).
    pub fn rating(&self, game: GameKind) -> Rating {
        self.ratings.iter().find(|r| r.game == game).cloned().unwrap_or_else(|| Rating::start(game))
    }
}

/// How long each player has: carried by a challenge from the start so that clocks can come
/// without changing challenges (this server offers untimed games only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControl {
    /// A base time and a Fischer increment per move.
    Live { base_seconds: u32, increment_seconds: u32 },
    /// Days for each move.
    Correspondence { days_per_move: u32 },
}

/// A time control in words ("Untimed" for none).
pub fn time_control_words(control: Option<&TimeControl>) -> String {
    match control {
        None => "Untimed".to_string(),
        Some(TimeControl::Live { base_seconds, increment_seconds }) => {
            format!("{}+{increment_seconds}", base_seconds / 60)
        }
        Some(TimeControl::Correspondence { days_per_move: 1 }) => "1 day a move".to_string(),
        Some(TimeControl::Correspondence { days_per_move }) => format!("{days_per_move} days a move"),
    }
}

/// An open challenge in the lobby: a game waiting for its second player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    pub game_id: String,
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    /// The poster's name and rating at the game.
    pub by: String,
    pub rating: f64,
    pub deviation: f64,
    /// The side the poster plays (the one who accepts plays the other).
    pub seat: Side,
    pub rated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// Only this player may accept (a direct challenge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    pub posted_ms: i64,
}

/// A game being played now, for the lobby's "Watch" list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveGame {
    pub game_id: String,
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    /// The players by seat.
    pub names: [String; 2],
    pub rated: bool,
    pub plies: u32,
}

/// One point of a rating graph: the rating after a rated game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    pub game: GameKind,
    pub at_ms: i64,
    pub rating: f64,
    pub deviation: f64,
}

/// A finished game on a player page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecentGame {
    pub game_id: String,
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    pub seat: Side,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<String>,
    /// "won", "lost" or "drawn", for the page's player.
    pub outcome: String,
    pub reason: String,
    pub rated: bool,
    /// The page's player's rating change, for a rated game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<f64>,
    pub ended_ms: i64,
}

/// A player page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerPage {
    pub name: String,
    pub ratings: Vec<Rating>,
    /// Every rated game's rating after it, oldest first (the graph).
    pub history: Vec<RatingPoint>,
    /// The latest finished games, newest first.
    pub recent: Vec<RecentGame>,
    pub joined_ms: i64,
}

/// A line of a game's leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Leader {
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: u32,
}

/// A seat's rating before and after a rated game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    pub name: String,
    pub before: f64,
    pub after: f64,
    pub deviation: f64,
}

impl RatingChange {
    /// "1500? → 1662? (+162)".
    pub fn words(&self) -> String {
        let delta = (self.after - self.before).round() as i64;
        format!("{} → {} ({delta:+})", self.before.round() as i64, shown_rating(self.after, self.deviation))
    }
}

/// What players may say to each other: preset phrases only, so there is nothing to moderate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phrase {
    Hello,
    GoodGame,
    Thanks,
    Oops,
    TakeYourTime,
}

impl Phrase {
    pub const ALL: [Phrase; 5] = [Phrase::Hello, Phrase::GoodGame, Phrase::Thanks, Phrase::Oops, Phrase::TakeYourTime];

    pub const fn words(self) -> &'static str {
        match self {
            Phrase::Hello => "Hello",
            Phrase::GoodGame => "Good game",
            Phrase::Thanks => "Thanks",
            Phrase::Oops => "Oops",
            Phrase::TakeYourTime => "Take your time",
        }
    }
}

/// The computer level offered to a player of this rating when quick play finds nobody.
pub fn computer_level_for(rating: f64) -> &'static str {
    if rating < 1350.0 {
        "easy"
    } else if rating < 1650.0 {
        "medium"
    } else {
        "hard"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_three_to_twenty_letters_digits_dashes_or_underscores() {
        assert_eq!(check_name("  Ada_99 "), Ok("Ada_99".to_string()));
        assert_eq!(check_name("abc"), Ok("abc".to_string()));
        assert_eq!(check_name("a-b-c-d-e-f-g-h-i-j-"), Ok("a-b-c-d-e-f-g-h-i-j-".to_string()));
        assert!(check_name("ab").unwrap_err().contains("at least 3"));
        assert!(check_name("abcdefghijklmnopqrstu").unwrap_err().contains("at most 20"));
        assert!(check_name("Ada Lovelace").unwrap_err().contains("not a space"));
        assert!(check_name("Adé").unwrap_err().contains("'é'"));
        assert!(check_name("<script>").unwrap_err().contains("'<'"));
        assert!(check_name("Computer").unwrap_err().contains("kept for the game"));
        for lookalike in ["C0mputer", "COMPUTER", "Adm1n", "ADMlN", "St0neyard", "Moderat0r", "Cornputer", "Anonyrnous"]
        {
            assert!(check_name(lookalike).unwrap_err().contains("kept for the game"), "{lookalike}");
        }
        assert_eq!(check_name("Computers"), Ok("Computers".to_string()));
        assert_eq!(name_skeleton("AIice"), name_skeleton("Alice"));
        assert_ne!(name_skeleton("Alice"), name_skeleton("Alive"));
        assert_eq!(name_key("AdA"), name_key("ada"));
    }

    #[test]
    fn passwords_have_eight_to_128_bytes() {
        assert!(check_password("short").unwrap_err().contains("at least 8"));
        assert_eq!(check_password("long enough"), Ok(()));
        assert!(check_password(&"x".repeat(129)).unwrap_err().contains("at most 128"));
    }

    #[test]
    fn a_rating_is_provisional_while_its_deviation_is_high() {
        let mut r = Rating::start(GameKind::named("gravel"));
        assert!(r.provisional());
        assert_eq!(r.shown(), "1500?");
        r.deviation = 80.0;
        r.rating = 1623.4;
        assert_eq!(r.shown(), "1623");
        let change = RatingChange { name: "a".into(), before: 1500.0, after: 1662.3, deviation: 290.3 };
        assert_eq!(change.words(), "1500 → 1662? (+162)");
    }

    #[test]
    fn time_controls_read_as_players_write_them() {
        assert_eq!(time_control_words(None), "Untimed");
        let blitz = TimeControl::Live { base_seconds: 180, increment_seconds: 2 };
        assert_eq!(time_control_words(Some(&blitz)), "3+2");
        let text = serde_json::to_string(&blitz).unwrap();
        assert_eq!(text, r#"{"kind":"live","base_seconds":180,"increment_seconds":2}"#);
        assert_eq!(time_control_words(Some(&TimeControl::Correspondence { days_per_move: 3 })), "3 days a move");
    }
}
