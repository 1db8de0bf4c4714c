//! A short summary of each game's rules in our own words (from the specs in `shared/rules`),
//! shown by the HUD's "Rules" button, with how the game is played here, and the worked examples
//! of the specs that illustrate it (drawn before and after by `rules_window`).

use crate::games::GameKind;

/// The sections of the summary: (heading, text).
pub fn rules_summary(kind: GameKind) -> &'static [(&'static str, &'static str)] {
    match kind {
        GameKind::Gravel => &[
            (
                "Goal",
                "Keep your pieces. You lose when you have lost more than half of them, or when you occupy fewer spaces than you have lost pieces.",
            ),
            (
                "A turn",
                "Up to X actions (the stack limit, 4 by default), each costing one: place a piece from your pool on an empty or own space, move one piece onto another of your stacks, return one piece to your pool, or remove one enemy piece from a space you control. Placements and removals never alternate: do all of one before the other. A turn must place at least once and must change your own pieces.",
            ),
            (
                "Control",
                "You control a space when at least two of its neighbours are yours and your pieces on the neighbours outnumber the enemy's. The hints overlay shades controlled spaces.",
            ),
            (
                "Here",
                "Click a space (or move the cursor and press Enter) to place or remove; click one of your stacks and then another to move; the HUD offers Return, End turn and Pass.",
            ),
        ],
        GameKind::RedStone => &[
            ("Goal", "Annihilate: win by leaving your opponent with no stones after your red stone captures."),
            (
                "A turn",
                "Place one stone on an empty point: your own colour, or a neutral red stone. An own stone may never leave a group without liberties; a red stone must do so, and every group of black or white stones left without liberties is removed, whoever owns it.",
            ),
            (
                "Pie rule",
                "After Black's first stone, White may swap: the players exchange colours and White moves next.",
            ),
            (
                "Here",
                "Click a point. When both your colour and red are possible, choose in the list. With hints on, the points a red stone would capture from are marked.",
            ),
        ],
        GameKind::Throngs => &[
            (
                "Goal",
                "Have more stones on the board when the game ends: after two turns in a row in which both players passed everything.",
            ),
            (
                "Power",
                "The power of a site is your stones minus the enemy's among the site and its neighbours. Placing costs 1 (power at least 1), capturing by replacement costs 2 (power at least 2), moving one of your stones costs nothing.",
            ),
            (
                "A turn",
                "Two parts by the same player. Power left over lets the stone travel along grid lines, jumping over stones and turning only on empty sites. If none of your last three parts placed a stone, you must place or capture when you can.",
            ),
            (
                "Here",
                "Click a site: place, capture or pick up your stone, then click the highlighted destination (or the start again to stop there).",
            ),
        ],
        GameKind::Inchworm => &[
            ("Goal", "Score 60 points (by default): every enemy stone you capture is a point, held as a prisoner."),
            (
                "A turn",
                "One action: drop a stone from stock on an empty cell or your own stack; collect a straight run of your stacks onto one of its cells; distribute a stack of height h along a path of h cells; or rescue all your stones the opponent holds.",
            ),
            (
                "Capture",
                "After every action every group without a liberty is removed, of both colours, and its stones score for the other side.",
            ),
            (
                "Here",
                "Click a cell; collects and distributions are built cell by cell, and the choice list shows what can follow.",
            ),
        ],
        GameKind::HiddenIntention => &[
            (
                "Goal",
                "Control more squares when both supplies are empty: each square's influence is A's total minus B's.",
            ),
            (
                "A turn",
                "Both players secretly choose at the same time: optionally swap two of their figures (twice per game), then a figure from supply and an empty square that is neutral or their own (a knight also faces a corner).",
            ),
            (
                "Burn",
                "If both chose the same square, it burns: closed to both until the next successful attempt, and both choose again.",
            ),
            (
                "Cascade",
                "After placing, figures standing on enemy ground are removed, round after round, until the board is stable.",
            ),
            (
                "Here",
                "Build your choice in the list, then hand the device over: the board hides until the other player is ready. Both choices are revealed together.",
            ),
        ],
    }
}

/// A rule at work: a position from a worked example of the game's spec and the move the example
/// plays there. The rules window draws the board before and after it.
#[derive(Clone, Copy, Debug)]
pub struct Illustration {
    pub caption: &'static str,
    /// Options as the setup screen and the command line write them.
    pub options: &'static [(&'static str, &'static str)],
    /// The position text of the spec.
    pub position: &'static str,
    /// One record token of the spec's notation.
    pub play: &'static str,
}

/// The illustrations of a game's rules summary.
pub fn illustrations(kind: GameKind) -> &'static [Illustration] {
    match kind {
        GameKind::Gravel => &[Illustration {
            caption: "Example 2: Dark controls b3 (3 pieces around it against 2) and removes it; that wins c3 as well, \
                      and two placements take both spaces — four actions, removals before placements.",
            options: &[("N", "5"), ("X", "4")],
            position: "5 4 ...../.D1D1../D2L1L1D1./.L1L1L1./..... D 8 8 0 0 3",
            play: "xb3,xc3,+b3,+c3",
        }],
        GameKind::RedStone => &[
            Illustration {
                caption: "S3: White's red stone on C3 removes every group left without a liberty — two black \
                          groups and White's own C2–D2 as well.",
                options: &[("size", "5")],
                position: ".OXO./.OXO./.O.XR/.XOOR/..XX. w",
                play: "C3*",
            },
            Illustration {
                caption: "S5: A1 is Black's last eye. White may not fill it with white (that would capture), but a red \
                          stone there removes all nine black stones and wins.",
                options: &[("size", "5")],
                position: "XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w",
                play: "A1*",
            },
        ],
        GameKind::Throngs => &[Illustration {
            caption: "S10: six Black stones around f6 give it power 6. A stone placed there (cost 1) travels with the \
                      5 left over, jumping over g6 to land on k6.",
            options: &[],
            position: "T93 B1 B:e5,e6,f5,f7,g6,g7 W:- idle=0,0 passrun=0 turn=1",
            play: "+f6>k6",
        }],
        GameKind::Inchworm => &[Illustration {
            caption: "E10: White spreads the 3-stack on b8 one stone per cell along b8–a7–b7; Black's a8 loses its \
                      last liberty and is captured.",
            options: &[],
            position: "B1W3...B1W1./.....B1W1W1/.....B1B1B1/......../B1W2....../B1W1..B1B1B1B1/W1..B1W1W1W1W1/...B1W1.W1. w 11 9 0 0 0 0",
            play: "Sb8-a7-b7",
        }],
        GameKind::HiddenIntention => &[Illustration {
            caption: "Example 3: A's pawn on d5 holds only thanks to A's knight on d4. B's new knight on c4 pulls the d4 \
                      square below zero: A's knight falls in the first round of the cascade, and then its pawn in \
                      the second.",
            options: &[],
            position: "Nd4/ne Pd5 ; Ra5 Rh5 ; P7R2B2N0Q1 P8R0B2N1Q1 ; 2 2 ; - ; 3.1",
            play: "Pg2|Nc4/ne",
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_illustration_is_a_legal_move_that_changes_the_board() {
        for kind in GameKind::ALL {
            assert!(!illustrations(kind).is_empty(), "{kind:?} has no illustration");
            for ill in illustrations(kind) {
                let options: Vec<(String, String)> =
                    ill.options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
                let before = crate::games::open(kind, &options, Some(ill.position))
                    .unwrap_or_else(|e| panic!("{kind:?} {}: {e}", ill.position));
                let mut after = before.clone_box();
                after.play_token(ill.play).unwrap_or_else(|e| panic!("{kind:?} {}: {e:?}", ill.play));
                let (b, a) = (before.board_view().unwrap(), after.board_view().unwrap());
                let pieces = |v: &crate::rules::BoardView| v.cells.iter().map(|c| c.piece.clone()).collect::<Vec<_>>();
                assert_ne!(pieces(&b), pieces(&a), "{kind:?} {}: nothing changed", ill.play);
                for name in crate::rules::cells_in_token(ill.play) {
                    assert!(b.cells.iter().any(|c| c.name == name), "{kind:?}: {name} is not on the board");
                }
            }
        }
    }

    #[test]
    fn every_game_has_a_goal_and_says_how_to_play_here() {
        for kind in GameKind::ALL {
            let sections = rules_summary(kind);
            assert_eq!(sections.first().map(|s| s.0), Some("Goal"), "{kind:?}");
            assert_eq!(sections.last().map(|s| s.0), Some("Here"), "{kind:?}");
        }
    }
}
