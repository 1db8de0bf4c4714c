//! The computer opponents on the five real games: legal and reproducible decisions.

use stoneyard::ai::Level;
use stoneyard::games::{DynGame, GameKind, open};
use stoneyard::rules::{Outcome, Side, Status, ToMove};

/// A deterministic stream of indices for walking to random positions (xorshift64).
struct Walk(u64);

impl Walk {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
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
    let mut walk = Walk(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    for _ in 0..plies {
        let Some(side) = deciding_side(game.as_ref()) else { break };
        let decisions = game.legal_decisions(side);
        assert!(!decisions.is_empty(), "{kind:?}: an ongoing game where {side:?} cannot decide");
        let pick = &decisions[walk.below(decisions.len())];
        game.play_decision(pick).unwrap_or_else(|e| panic!("{kind:?}: listed decision {pick} refused: {e:?}"));
    }
    // The computer decides at a simultaneous node before its opponent's sealed choice is applied
    // (see the `ai` module), so a walk does not stop between the two halves of one.
    while half_sealed(game.as_ref()) {
        let side = deciding_side(game.as_ref()).expect("one side still to seal");
        let decisions = game.legal_decisions(side);
        let pick = &decisions[walk.below(decisions.len())];
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
    for kind in GameKind::ALL {
        let mut checked = 0;
        for (i, plies) in [0usize, 7, 23, 61].into_iter().enumerate() {
            let game = random_position(kind, plies, 100 + i as u64);
            let Some(side) = deciding_side(game.as_ref()) else { continue };
            let decision = game.ai_move(side, Level::Easy, i as u64, None).expect("the side to move can decide");
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
    for kind in GameKind::ALL {
        let game = random_position(kind, 11, 7);
        let side = deciding_side(game.as_ref()).expect("ongoing after 11 decisions");
        let first = game.ai_move(side, Level::Easy, 42, None).expect("a decision");
        let again = game.ai_move(side, Level::Easy, 42, None).expect("a decision");
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
        let decision = game.ai_move(side, level, seed, None).expect("a decision");
        game.play_decision(&decision).unwrap_or_else(|e| panic!("{decision} refused: {e:?}"));
    }
    game
}

#[test]
fn red_stone_easy_fills_the_last_eye_with_red_and_wins() {
    // Spec example S5: White's only winning decision is red on A1, which captures Black's group.
    let options = [("size".to_string(), "5".to_string())];
    let game = open(GameKind::RedStone, &options, Some("XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w")).expect("S5 opens");
    assert_eq!(game.status(), Status::Ongoing);
    for seed in 0..3 {
        let after = computer_turn(game.clone_box(), Side::Second, Level::Easy, seed);
        assert_eq!(after.status(), Status::Over(Outcome::Winner(Side::Second)), "seed {seed}");
    }
}

#[test]
fn gravel_medium_takes_the_territory_win() {
    // Spec example 11 (N=5, X=4): Dark wins on territory at the end of this turn after `xa1,+a1`.
    let options = [("N".to_string(), "5".to_string()), ("X".to_string(), "4".to_string())];
    let text = "5 4 L1.L1../...../....L1/D1..../L1D1L1D1L1 D 1 10 6 0 9";
    let game = open(GameKind::Gravel, &options, Some(text)).expect("example 11 opens");
    let dark = deciding_side(game.as_ref()).expect("Dark to move");
    let after = computer_turn(game, dark, Level::Medium, 3);
    assert_eq!(after.status(), Status::Over(Outcome::Winner(dark)), "{}", after.position_text());
}
