//! The computer opponents on the five real games: legal and reproducible decisions.

use stoneyard::ai::Timing;
use stoneyard::ai::games::{ai_game, decide_timed, session_timed};
use stoneyard::ai::{Calibration, Engine, Level, budget_for};
use stoneyard::games::{DynGame, GameKind, open};
use stoneyard::rules::{Outcome, Side, Status, ToMove};

/// The computer's decision at `level` from `seed`, on its iterations alone: a busy machine (a
/// test run beside a build) must not cut a level's search short and change what it plays.
fn decide(game: &dyn DynGame, side: Side, level: Level, seed: u64) -> Result<String, stoneyard::ai::DecideError> {
    decide_timed(game, side, level, seed, None, Timing::Reproducible)
}

/// The side the computer decides for here: the side to move, or at a simultaneous node the first
/// side that has not sealed yet. `None` once the game is over.
fn deciding_side(game: &dyn DynGame) -> Option<Side> {
    if game.status() != Status::Ongoing {
        return None;
    }
    match game.to_move()? {
        ToMove::One(side) => Some(side),
        ToMove::Both => [Side::First, Side::Second].into_iter().find(|&s| !game.legal_decisions(s).is_empty()),
    }
}

/// The position after `plies` random atomic decisions from the start (fewer if the game ends).
fn random_position(kind: GameKind, plies: usize, seed: u64) -> Box<dyn DynGame> {
    let mut game = open(kind, &[], None).expect("the default game opens");
    let mut walk = stoneyard::rules::seeded(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    for _ in 0..plies {
        let Some(side) = deciding_side(game.as_ref()) else { break };
        let decisions = game.legal_decisions(side);
        assert!(!decisions.is_empty(), "{kind:?}: an ongoing game where {side:?} cannot decide");
        let pick = &decisions[stoneyard::rules::pick_index(&mut walk, decisions.len())];
        game.play_decision(pick).unwrap_or_else(|e| panic!("{kind:?}: listed decision {pick} refused: {e:?}"));
    }
    // The computer decides at a simultaneous node before its opponent's sealed choice is applied
    // (see the `ai` module), so a walk does not stop between the two halves of one.
    while half_sealed(game.as_ref()) {
        let side = deciding_side(game.as_ref()).expect("one side still to seal");
        let decisions = game.legal_decisions(side);
        let pick = &decisions[stoneyard::rules::pick_index(&mut walk, decisions.len())];
        game.play_decision(pick).unwrap_or_else(|e| panic!("{kind:?}: listed decision {pick} refused: {e:?}"));
    }
    game
}

/// A simultaneous node where exactly one side has sealed its commitment.
fn half_sealed(game: &dyn DynGame) -> bool {
    game.status() == Status::Ongoing
        && game.to_move() == Some(ToMove::Both)
        && [Side::First, Side::Second].into_iter().filter(|&s| !game.legal_decisions(s).is_empty()).count() == 1
}

#[test]
fn every_game_gets_legal_decisions_from_the_search_in_random_positions() {
    for kind in GameKind::all() {
        let mut checked = 0;
        for (i, plies) in [0usize, 7, 23, 61].into_iter().enumerate() {
            let game = random_position(kind, plies, 100 + i as u64);
            let Some(side) = deciding_side(game.as_ref()) else { continue };
            let decision = decide(game.as_ref(), side, Level::Easy, i as u64).expect("the side to move can decide");
            let legal = game.legal_decisions(side);
            assert!(legal.contains(&decision), "{kind:?} after {plies} plies: {decision} not in {legal:?}");
            // And it plays: the engine accepts it.
            let mut next = game.clone_box();
            next.play_decision(&decision).unwrap_or_else(|e| panic!("{kind:?}: {decision} refused: {e:?}"));
            checked += 1;
        }
        assert!(checked >= 2, "{kind:?}: only {checked} positions were still ongoing");
    }
}

#[test]
fn every_game_same_seed_same_decision() {
    for kind in GameKind::all() {
        let game = random_position(kind, 11, 7);
        let side = deciding_side(game.as_ref()).expect("ongoing after 11 decisions");
        let first = decide(game.as_ref(), side, Level::Easy, 42).expect("a decision");
        let again = decide(game.as_ref(), side, Level::Easy, 42).expect("a decision");
        assert_eq!(first, again, "{kind:?}: the same seed gave two decisions");
    }
}

/// Lets the computer at `level` make every decision of `side`'s turn from `game` (seeded), and
/// returns the position after it.
fn computer_turn(mut game: Box<dyn DynGame>, side: Side, level: Level, seed: u64) -> Box<dyn DynGame> {
    for _ in 0..16 {
        if deciding_side(game.as_ref()) != Some(side) {
            break;
        }
        let decision = decide(game.as_ref(), side, level, seed).expect("a decision");
        game.play_decision(&decision).unwrap_or_else(|e| panic!("{decision} refused: {e:?}"));
    }
    game
}

#[test]
fn gravel_alpha_beta_thinks_in_slices_as_at_once() {
    // Gravel's Medium and Hard are alpha-beta (`docs/arena.md`): the browser thinks a few
    // milliseconds per frame, and must reach the decision the desktop reaches in one go.
    assert_eq!(budget_for(Level::Easy, &gravel_calibration()).engine, Engine::Mcts);
    assert_eq!(budget_for(Level::Medium, &gravel_calibration()).engine, Engine::AlphaBeta);
    assert_eq!(budget_for(Level::Hard, &gravel_calibration()).engine, Engine::AlphaBeta);
    let mut most_slices = 0;
    for (plies, seed) in [(0usize, 1u64), (9, 2), (24, 3)] {
        let game = random_position(GameKind::named("gravel"), plies, seed);
        let Some(side) = deciding_side(game.as_ref()) else { continue };
        let at_once = decide(game.as_ref(), side, Level::Medium, seed).expect("a decision");
        let mut session =
            session_timed(game.as_ref(), side, Level::Medium, seed, None, Timing::Reproducible).expect("a session");
        let mut slices = 0;
        while !session.think(16) {
            slices += 1;
        }
        assert_eq!(session.decision(), at_once, "after {plies} plies, {slices} slices");
        assert!(game.legal_decisions(side).contains(&at_once), "{at_once}");
        let budget = budget_for(Level::Medium, &gravel_calibration()).iterations;
        assert!(session.iterations() <= budget, "{} of {budget}", session.iterations());
        most_slices = most_slices.max(slices);
    }
    assert!(most_slices > 100, "the search was never sliced: {most_slices}");
}

#[test]
fn red_stone_easy_fills_the_last_eye_with_red_and_wins() {
    // Spec example S5: White's only winning decision is red on A1, which captures Black's group.
    let options = [("size".to_string(), "5".to_string())];
    let game = open(GameKind::named("red-stone"), &options, Some("XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w")).expect("S5 opens");
    assert_eq!(game.status(), Status::Ongoing);
    for seed in 0..3 {
        let after = computer_turn(game.clone_box(), Side::Second, Level::Easy, seed);
        assert_eq!(after.status(), Status::Over(Outcome::Winner(Side::Second)), "seed {seed}");
    }
}

#[test]
fn gravel_medium_and_hard_take_the_territory_win() {
    // Spec example 11 (N=5, X=4): Dark wins on territory at the end of this turn after `xa1,+a1`.
    let options = [("N".to_string(), "5".to_string()), ("X".to_string(), "4".to_string())];
    let text = "5 4 L1.L1../...../....L1/D1..../L1D1L1D1L1 D 1 10 6 0 9";
    let game = open(GameKind::named("gravel"), &options, Some(text)).expect("example 11 opens");
    let dark = deciding_side(game.as_ref()).expect("Dark to move");
    for level in [Level::Medium, Level::Hard] {
        let after = computer_turn(game.clone_box(), dark, level, 3);
        assert_eq!(after.status(), Status::Over(Outcome::Winner(dark)), "{level}: {}", after.position_text());
    }
}

#[test]
fn throngs_passes_out_a_won_game() {
    // Spec example S14 (a): Black passed its whole first turn, so White ends the game by passing
    // both parts, two stones to one. Any placement would let the game go on.
    let text = "T93 W1 B:k9 W:b3,b6 idle=2,0 passrun=2 turn=1";
    let game = open(GameKind::named("throngs"), &[], Some(text)).expect("S14 (a) opens");
    for seed in 0..3 {
        let after = computer_turn(game.clone_box(), Side::Second, Level::Medium, seed);
        assert_eq!(after.status(), Status::Over(Outcome::Winner(Side::Second)), "seed {seed}");
    }
}

#[test]
fn throngs_captures_the_stone_that_decides_the_count() {
    // Black's only stone, on k9, has three White neighbours: White has the power (3 − 1 = 2) to
    // capture it. After the capture Black has no stone left and can never place again.
    let text = "T93 W1 B:k9 W:j8,j9,k10 idle=0,0 passrun=0 turn=3";
    let game = open(GameKind::named("throngs"), &[], Some(text)).expect("the position opens");
    for seed in 0..3 {
        let after = computer_turn(game.clone_box(), Side::Second, Level::Easy, seed);
        assert!(after.position_text().contains("B:-"), "seed {seed}: {}", after.position_text());
    }
}

#[test]
fn inchworm_captures_the_big_stack_to_reach_the_target() {
    // Spec example E13 after Black's second forced pass: White's drop on b1 takes Black's last
    // liberty, captures all 25 stones and passes 60 points. No other action wins at once.
    let text = "......../......../......../......../......../W1W1....../W1W1W1...../B25.W1..... w 0 19 0 0 10 40 3 1";
    let game = open(GameKind::named("inchworm"), &[], Some(text)).expect("E13 opens");
    for (level, seed) in [(Level::Easy, 0), (Level::Easy, 1), (Level::Medium, 2)] {
        let after = computer_turn(game.clone_box(), Side::Second, level, seed);
        assert_eq!(after.status(), Status::Over(Outcome::Winner(Side::Second)), "{level} seed {seed}");
    }
}

/// Every complete commitment `side` can seal from `game` (no sealed choice of the opponent in
/// it), as the decisions that make it up.
fn commitments(game: &dyn DynGame, side: Side) -> Vec<Vec<String>> {
    let decisions = game.legal_decisions(side);
    if decisions.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for d in decisions {
        let mut next = game.clone_box();
        next.play_decision(&d).expect("a listed decision plays");
        if next.to_move() != Some(ToMove::Both) || next.legal_decisions(side).is_empty() {
            out.push(vec![d]);
            continue;
        }
        for mut rest in commitments(next.as_ref(), side) {
            rest.insert(0, d.clone());
            out.push(rest);
        }
    }
    out
}

#[test]
fn hidden_intention_places_the_last_figure_where_it_wins_whatever_the_reply() {
    // Spec example 12 with A's last figure a rook instead of a bishop: the last attempt. Only a few
    // of A's squares win against every reply of B that does not name the same square (that reply
    // burns the square and the attempt repeats); found here by brute force. The computer must
    // seal one of them without seeing B's choice.
    let text = "Rb2 Nf2/ne Qd3 Xc4 Pe4 ; Pd5 Xf5 Qe6 Nc7/sw Rg7 ; P0R1B0N0Q0 P0R0B1N0Q0 ; 0 0 ; - ; 14.1";
    let game = open(GameKind::named("hidden-intention"), &[], Some(text)).expect("the position opens");
    let replies = commitments(game.as_ref(), Side::Second);
    // Decisions name their side ("A:d1", "B:d1"); the last one of a commitment is its square.
    let square = |c: &[String]| c.last().map(|d| d[2..].to_string());
    let wins_against_all = |own: &[String]| {
        replies.iter().filter(|reply| square(reply) != square(own)).all(|reply| {
            let mut g = game.clone_box();
            for d in own.iter().chain(reply) {
                g.play_decision(d).expect("a listed decision plays");
            }
            g.status() == Status::Over(Outcome::Winner(Side::First))
        })
    };
    let all = commitments(game.as_ref(), Side::First);
    let winning: Vec<&Vec<String>> = all.iter().filter(|c| wins_against_all(c)).collect();
    assert!(winning.len() * 4 < all.len(), "{} of {} win: the test would prove little", winning.len(), all.len());
    for seed in 0..3 {
        let mut g = game.clone_box();
        let mut sealed = Vec::new();
        while !g.legal_decisions(Side::First).is_empty() && g.to_move() == Some(ToMove::Both) {
            let d = decide(g.as_ref(), Side::First, Level::Medium, seed).expect("A decides");
            g.play_decision(&d).expect("the decision plays");
            sealed.push(d);
        }
        assert!(winning.contains(&&sealed), "seed {seed}: {sealed:?} does not win against every reply");
    }
}

/// Gravel's row of the computer's table.
fn gravel_calibration() -> Calibration {
    ai_game(GameKind::named("gravel")).expect("Gravel is in the computer's table").calibration
}

/// `stoneyard` with `args`: its stdout (on success) or its stderr.
fn stoneyard(args: &[&str]) -> Result<String, String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stoneyard")).args(args).output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    if out.status.success() { Ok(text(&out.stdout)) } else { Err(text(&out.stderr)) }
}

#[test]
fn think_answers_the_computers_decision_on_top_of_a_commitment_under_way() {
    // Red Stone's S5: White's only winning decision is the red stone on A1.
    let s5 = "--position=XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w";
    let answer = stoneyard(&["think", "--game", "red-stone", "--option", "size=5", s5, "--side", "White"]).unwrap();
    let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["decision"], "A1*", "{answer}");
    assert!(answer["iterations"].as_u64().unwrap() > 0, "{answer}");
    // Hidden Intention: Black has chosen its rook (sealed: the position text does not show it),
    // so the next decision is the rook's square.
    let start = "--position=- ; - ; P8R2B2N1Q1 P8R2B2N1Q1 ; 2 2 ; - ; 1.1";
    let args = ["think", "--game", "hidden-intention", start, "--then=B:R", "--side", "second", "--level", "easy"];
    let answer: serde_json::Value = serde_json::from_str(&stoneyard(&args).unwrap()).unwrap();
    let square = answer["decision"].as_str().unwrap();
    let named =
        square.strip_prefix("B:").filter(|sq| sq.len() == 2 && ('a'..='h').contains(&sq.chars().next().unwrap()));
    assert!(named.is_some(), "Black's square for the rook, not {square}");
    // Refusals name the problem.
    let wrong = stoneyard(&["think", "--game", "red-stone", "--option", "size=5", s5, "--side", "Red"]).unwrap_err();
    assert!(wrong.contains("'Red' is not a side of red-stone"), "{wrong}");
    let wrong = stoneyard(&["think", "--game", "red-stone", "--option", "size=5", s5, "--side", "w", "--then=A1"]);
    assert!(wrong.unwrap_err().contains("--then: A1"));
}

#[test]
fn an_arena_plays_another_program_through_its_think_command() {
    // This build against itself as another program, at Easy: whole games, no forfeit.
    let external = format!("external:easy:{}", env!("CARGO_BIN_EXE_stoneyard"));
    for (game, options) in [("red-stone", "size=5"), ("hidden-intention", "")] {
        let mut args = vec!["arena", "--game", game, "--a", "timed:easy", "--b", &external, "--games", "2"];
        if !options.is_empty() {
            args.extend(["--option", options]);
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_stoneyard")).args(&args).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{stderr}");
        assert!(!stderr.contains("gave no decision"), "{stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["games"], 2, "{report}");
        // Every game was played out: each lasted more than a handful of decisions.
        for line in stderr.lines().filter(|l| l.starts_with("game ")) {
            let decisions: u64 = line.split(" after ").nth(1).and_then(|r| r.split(' ').next()?.parse().ok()).unwrap();
            assert!(decisions > 8, "{game}: {line}");
        }
    }
}

#[test]
fn an_arena_refuses_a_program_that_cannot_think_instead_of_scoring_its_forfeits() {
    // An older build without `think` (here: a program that is not Stoneyard at all) would lose
    // every game at once and the series would report the other player far stronger.
    let missing = std::env::temp_dir().join("stoneyard-no-such-program");
    for program in [std::path::Path::new("/bin/false"), missing.as_path()] {
        let external = format!("external:easy:{}", program.display());
        let args = ["arena", "--game", "gravel", "--option", "N=5", "--a", "easy", "--b", &external, "--games", "2"];
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_stoneyard")).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert!(out.stdout.is_empty(), "no report: {}", String::from_utf8_lossy(&out.stdout));
        assert!(stderr.contains("player B:") && stderr.contains("gives no decision here"), "{stderr}");
        assert!(!stderr.contains("game 1"), "no game was played: {stderr}");
    }
}

#[test]
fn the_review_bench_writes_the_games_it_reviews_as_records_the_review_reads() {
    let dir = std::env::temp_dir().join(format!("stoneyard-bench-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = ["bench", "--review", "--game", "red-stone", "--option", "size=5", "--seeds", "1", "--budget", "100"];
    let line = stoneyard(&[&args[..], &["--records", dir.to_str().unwrap()]].concat()).unwrap();
    let line: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    let file = dir.join("red-stone.json");
    let record = stoneyard::save::GameRecord::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(record.moves.len() as u64, line["decisions"].as_u64().unwrap(), "{line}");
    assert_eq!(record.options, vec![("size".to_string(), "5".to_string())]);
    assert!(record.load().unwrap().is_over(), "the bench's game was played out: {line}");
    // The review command reads it as the record of that game.
    let reviewed =
        stoneyard(&["review", "--game", "red-stone", "--moves-file", file.to_str().unwrap(), "--budget", "50"]);
    assert_eq!(reviewed.unwrap().lines().count() as u64, line["turns"].as_u64().unwrap());
    // A directory that cannot be made is refused with its name.
    let blocked = stoneyard(&[&args[..], &["--records", file.join("x").to_str().unwrap()]].concat()).unwrap_err();
    assert!(blocked.contains("cannot be written") && blocked.contains("red-stone.json"), "{blocked}");
    std::fs::remove_dir_all(&dir).unwrap();
}
