//! Arena players that think as the app's opponent does (the level's time limit, Hard on every
//! core) or in another build of Stoneyard, asked through its `think` command for each decision:
//! today's engine against an older one at the same time per decision.

use super::budget::Budget;
use super::knowledge::Knowledge;
use super::level::{Calibration, Level};
use super::session::start_session;
use super::{DecideError, Strategy};
use crate::rules::{GameOptions, Notation, Side};
use std::path::PathBuf;
use std::process::Command;

/// A level as the app's opponent plays it: a fresh session for every decision, with the level's
/// time limit (and Hard's searchers on every core), each from its own seed.
pub struct SessionPlayer {
    level: Level,
    calibration: Calibration,
    seed: u64,
    asked: u64,
}

impl SessionPlayer {
    pub fn new(level: Level, calibration: &Calibration, seed: u64) -> Self {
        SessionPlayer { level, calibration: *calibration, seed, asked: 0 }
    }
}

impl<G: Notation + Knowledge> Strategy<G> for SessionPlayer {
    fn decide(&mut self, pos: &G, side: Side, _budget: &Budget) -> Result<G::Move, DecideError> {
        let seed = crate::rules::derived_seed(self.seed, self.asked);
        self.asked += 1;
        let mut session = start_session(pos, side, self.level, &self.calibration, seed, None)?;
        while !session.think(u64::MAX) {}
        pos.parse_move(&session.decision()).map_err(|_| DecideError::NoAnswer)
    }
}

/// A level of another Stoneyard program: for each decision it runs `PROGRAM think` with the
/// game, its options, the start position and every decision since (a position text does not
/// always show a turn under way, nor a commitment being sealed), the side, the level and a seed,
/// and plays the decision it prints (`{"decision": …}`).
pub struct ExternalPlayer<G> {
    level: Level,
    program: PathBuf,
    seed: u64,
    asked: u64,
    start: String,
    /// The game as played so far, to write the decisions it is shown.
    replica: G,
    played: Vec<String>,
    /// This player's decisions of a commitment not yet revealed (at a simultaneous node).
    sealed: Vec<String>,
}

impl<G: Notation> ExternalPlayer<G> {
    pub fn new(level: Level, program: PathBuf, seed: u64, start: &G) -> Self {
        let (replica, start) = (start.clone(), start.format_position());
        ExternalPlayer { level, program, seed, asked: 0, start, replica, played: Vec::new(), sealed: Vec::new() }
    }

    /// The decision the program prints for `side` now, or why there is none.
    fn ask(&self, pos: &G, side: Side, seed: u64) -> Result<String, String> {
        let mut command = Command::new(&self.program);
        // `--position=` keeps a text that starts with '-' (an empty side) from reading as a flag.
        command.args(["think", "--game", G::SLUG, &format!("--position={}", self.start)]);
        let then: Vec<&str> = self.played.iter().chain(&self.sealed).map(String::as_str).collect();
        if !then.is_empty() {
            command.arg(format!("--then={}", then.join(";")));
        }
        let side = if side == Side::First { "first" } else { "second" };
        command.args(["--side", side, "--level", self.level.slug(), "--seed", &seed.to_string()]);
        for (key, value) in pos.options().to_pairs() {
            command.args(["--option", &format!("{key}={value}")]);
        }
        let output = command.output().map_err(|e| format!("{} cannot run: {e}", self.program.display()))?;
        if !output.status.success() {
            return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
        }
        let answer: serde_json::Value =
            serde_json::from_slice(&output.stdout).map_err(|e| format!("its answer is not JSON: {e}"))?;
        answer["decision"].as_str().map(str::to_string).ok_or_else(|| format!("its answer has no decision: {answer}"))
    }
}

impl<G: Notation> Strategy<G> for ExternalPlayer<G> {
    fn decide(&mut self, pos: &G, side: Side, _budget: &Budget) -> Result<G::Move, DecideError> {
        let seed = crate::rules::derived_seed(self.seed, self.asked);
        self.asked += 1;
        let decision = self.ask(pos, side, seed).and_then(|answer| {
            let m = pos
                .parse_move(&answer)
                .map_err(|e| format!("it answered {answer:?}, which does not read here: {e}"))?;
            let mut legal = Vec::new();
            pos.legal_moves_for(side, &mut legal);
            if !legal.contains(&m) {
                return Err(format!("it answered {answer:?}, which is not legal here"));
            }
            Ok((answer, m))
        });
        match decision {
            Ok((answer, m)) => {
                // Shown back through `observe` once played (a sealed one once both are revealed).
                self.sealed.push(answer);
                Ok(m)
            }
            Err(why) => {
                // The arena scores a player without a decision as the loser: say why.
                eprintln!("stoneyard arena: {} gave no decision: {why}", self.program.display());
                Err(DecideError::NoAnswer)
            }
        }
    }

    fn observe(&mut self, m: &G::Move) {
        self.played.push(self.replica.format_move(m));
        let _ = self.replica.play(m);
        self.sealed.clear();
    }
}

/// How an arena player of these two kinds is written on the command line, and read back:
/// `timed:LEVEL` and `external:LEVEL:PROGRAM`.
pub fn parse_session_player(text: &str) -> Option<Result<(Level, Option<PathBuf>), String>> {
    if let Some(level) = text.strip_prefix("timed:") {
        return Some(level.parse::<Level>().map(|level| (level, None)).map_err(|e| format!("'{text}': {e}")));
    }
    let rest = text.strip_prefix("external:")?;
    let Some((level, program)) = rest.split_once(':').filter(|(_, program)| !program.is_empty()) else {
        return Some(Err(format!("'{text}' is not external:LEVEL:PROGRAM")));
    };
    Some(
        level.parse::<Level>().map(|level| (level, Some(PathBuf::from(program)))).map_err(|e| format!("'{text}': {e}")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timed_and_external_players_read_from_their_names() {
        assert_eq!(parse_session_player("timed:hard"), Some(Ok((Level::Hard, None))));
        assert_eq!(
            parse_session_player("external:medium:/opt/old/stoneyard"),
            Some(Ok((Level::Medium, Some(PathBuf::from("/opt/old/stoneyard")))))
        );
        assert!(matches!(parse_session_player("external:hard"), Some(Err(_))));
        assert!(matches!(parse_session_player("timed:wise"), Some(Err(_))));
        assert_eq!(parse_session_player("hard"), None);
    }
}
