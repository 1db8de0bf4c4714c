//! A short summary of each game's rules in our own words (from the specs in `shared/rules`),
//! shown by the HUD's "Rules" button, with how the game is played here.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_goal_and_says_how_to_play_here() {
        for kind in GameKind::ALL {
            let sections = rules_summary(kind);
            assert_eq!(sections.first().map(|s| s.0), Some("Goal"), "{kind:?}");
            assert_eq!(sections.last().map(|s| s.0), Some("Here"), "{kind:?}");
        }
    }
}
