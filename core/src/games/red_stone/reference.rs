//! Red Stone's rules as a reference in players' words, section by section, each drawn (the contract
//! is the spec in `shared/rules`).

use crate::rules::{Illustration, RulesHelp, RulesSection};

pub(super) const RULES: RulesHelp = RulesHelp { sections: SECTIONS };

const FIVE: &[(&str, &str)] = &[("size", "5")];

const SECTIONS: &[RulesSection] = &[
    RulesSection {
        id: "goal",
        heading: "Goal",
        text: "Wipe out your opponent's army. Stones are captured only with red stones, and the game ends the moment a red stone leaves a player with no stones on the board: that player loses. If one red stone removes the last stones of both players at once, the player who placed it wins.\n\nThere are no draws: every game ends with a winner.",
        examples: &[Illustration {
            caption: "White's only group, seven stones, has one liberty left: its eye D5. Black's red stone on D5 removes all seven, White has no stones left, and Black wins.",
            options: &[("size", "7")],
            position: "..XX.../.XOOXR./.XO.OX./.ROOOX./..XXX../.X..R../....... b",
            play: "D5*",
            marks: &["D5"],
            after: "..XX.../.X..XR./.X.R.X./.R...X./..XXX../.X..R../....... w",
        }],
    },
    RulesSection {
        id: "board",
        heading: "The board",
        text: "The board is a square grid of N × N points, where the lines cross; stones go on the points. Any size from 5 × 5 to 19 × 19 can be played (the Board size option); 11 × 11 unless you change it. The board starts empty, and there are always enough black, white and red stones.\n\nTwo points are neighbours when one line joins them directly: up, down, left or right, never diagonally. An inner point has four neighbours, a point on the edge three, a corner two; beyond the edge there is nothing.\n\nPoints are named column then row: columns are lettered from the left, skipping I (A B C D E F G H J K …), and rows are numbered from 1 at the bottom.",
        examples: &[Illustration {
            caption: "On this 9 × 9 board the columns run A to J with no I, so the white stone in the top corner is on J9. Neighbours are up, down, left and right only: E5 has four (ringed), the corner A1 only two, A2 and B1.",
            options: &[("size", "9")],
            position: "........O/........./........./........./....X..../........./........./........./X........ b",
            play: "",
            marks: &["E6", "D5", "F5", "E4", "A2", "B1"],
            after: "",
        }],
    },
    RulesSection {
        id: "the-turn",
        heading: "A turn",
        text: "Black places first; then the players take turns. A turn is exactly one stone placed on an empty point, either:\n• a stone of your own colour, allowed only where it leaves every group, yours and your opponent's, with at least one liberty; or\n• a red stone, allowed only where it captures: where it leaves at least one group without a liberty (see Captures).\n\nNever both. Stones never move once placed. Each colour's first stone must be of that colour (nothing could be captured yet anyway).\n\nThere is no passing: you must place a stone every turn (see No passing).",
        examples: &[Illustration {
            caption: "Black opens with a black stone on C3: the first stone of each colour must be of its own colour. Now White places a stone, or may swap (see Pie rule).",
            options: FIVE,
            position: "...../...../...../...../..... b",
            play: "C3",
            marks: &[],
            after: "...../...../..X../...../..... w swap",
        }],
    },
    RulesSection {
        id: "pie-rule",
        heading: "Pie rule",
        text: "Right after Black's first stone, and only then, White may swap instead of placing a stone. The players exchange colours: the stone on the board stays black and now belongs to the player who swapped, who plays Black for the rest of the game; the player who opened becomes White and places next.\n\nThe swap counts as a move but changes no stone, and it can happen only once, as the second move of the game. It keeps the opening fair: if Black's first stone looks too good, take it. After a swap, White's first stone must still be white.",
        examples: &[Illustration {
            caption: "Black has opened on C3. White may place a white stone, or swap: then the swapper owns the black stone on C3 and plays Black, and the opener, now White, places next.",
            options: FIVE,
            position: "...../...../..X../...../..... w swap",
            play: "",
            marks: &["C3"],
            after: "",
        }],
    },
    RulesSection {
        id: "groups-and-liberties",
        heading: "Groups and liberties",
        text: "A group is a set of stones of one colour, black or white, joined up, down, left or right; a lone stone is a group of one. Red stones never belong to a group and never join groups: two black stones with a red stone between them are separate groups unless they are joined another way.\n\nA group's liberties are the empty points next to any of its stones, each counted once. Every stone takes the liberty it stands on, and a red stone gives no liberties. A group with a single liberty left is in atari: a red stone there captures it.\n\nAt the start of every turn every group on the board has at least one liberty.",
        examples: &[
            Illustration {
                caption: "The black group B3–B4–C4 has six liberties, ringed. The red stone on B2 is nobody's liberty and joins nothing: B1 is a group of its own, with liberties A1 and C1.",
                options: FIVE,
                position: "...../.XX../.X.../.R.../.X... b",
                play: "",
                marks: &["A3", "A4", "B5", "C5", "D4", "C3"],
                after: "",
            },
            Illustration {
                caption: "White's C3 has two liberties, C2 and D3. Black's stone on D3 takes one: C3 is left with C2 alone, in atari.",
                options: FIVE,
                position: "...../..X../.XO../...../..... b",
                play: "D3",
                marks: &["C2", "D3"],
                after: "...../..X../.XOX./...../..... w",
            },
        ],
    },
    RulesSection {
        id: "captures",
        heading: "Captures",
        text: "Only a red stone captures. Put the stone down and look at every black and white group: a group left without a liberty is captured.\n• A stone of your colour may never capture: it is not allowed where it would leave any group without a liberty, an enemy group or your own group it joins.\n• A red stone is allowed only where it captures: on the last liberty of at least one group.\n\nThe red stone then removes every group it left without a liberty, all at once, whoever owns it (see Your own stones too). Groups that still have a liberty stay.\n\nA stone of your colour on the last liberty of one of your groups is allowed when it joins that group to stones that still have liberties elsewhere, since then no group is left without one. On such a point you choose: your colour connects, red removes your group.",
        examples: &[
            Illustration {
                caption: "White's group C3–C4 has one liberty, D3. A black stone there would capture, which is not allowed; Black's red stone on D3 removes both white stones.",
                options: FIVE,
                position: "..X../.XOX./.XO../..X../....O b",
                play: "D3*",
                marks: &["D3"],
                after: "..X../.X.X./.X.R./..X../....O w",
            },
            Illustration {
                caption: "C3 is the last liberty of black A3–B3, but a black stone there joins it to D3, and the new group keeps D2, D4 and E3: nothing is left without a liberty, so it is allowed. (Red on C3 would be allowed too, and would remove A3–B3.)",
                options: FIVE,
                position: "...../OOO../XX.X./OOO../..... b",
                play: "C3",
                marks: &["D2", "D4", "E3"],
                after: "...../OOO../XXXX./OOO../..... w",
            },
        ],
    },
    RulesSection {
        id: "red-stones",
        heading: "Red stones",
        text: "Red stones are neutral: they belong to neither player, and both players place them. A red stone is never captured, never moved and never removed: it stays on its point for the rest of the game.\n\nA red stone takes a liberty from every group next to it, like any stone, but gives none and joins nothing. So red stones pile up as the game goes on, and the board fills.\n\nA red stone may go only where it captures. When no group is in atari, no red stone can be placed at all.",
        examples: &[Illustration {
            caption: "The old red stone on C4 already took a liberty from White's C3. Black's red stone on C2 fills the last one and removes C3; both red stones stay for good.",
            options: FIVE,
            position: "...../..R../.XOX./...../..... b",
            play: "C2*",
            marks: &["C4", "C2"],
            after: "...../..R../.X.X./..R../..... w",
        }],
    },
    RulesSection {
        id: "own-stones",
        heading: "Your own stones too",
        text: "A red stone removes every group it leaves without a liberty: yours as well as your opponent's. Before you put red on an enemy group's last liberty, look whether that point is also the last liberty of one of your own groups.\n\nAll those groups are found first, then removed together. Unlike in Go, capturing an enemy group does not save your own: your group goes even if the enemy's removal would have given it a liberty back.\n\nYou may also place red just to remove a group of your own. Sometimes, with no other move, you must (see No passing).",
        examples: &[
            Illustration {
                caption: "C3 is the last liberty of two black groups and of White's own C2–D2. White's red stone on C3 removes all three at once (five stones); C2–D2 is not saved by the black stones leaving.",
                options: FIVE,
                position: ".OXO./.OXO./.O.XR/.XOOR/..XX. w",
                play: "C3*",
                marks: &["C4", "C5", "D3", "C2", "D2"],
                after: ".O.O./.O.O./.OR.R/.X..R/..XX. b",
            },
            Illustration {
                caption: "Black's A2 has one liberty, A1. A black stone there would leave it no liberty, so it is not allowed; a red stone is, and removes Black's own A2. Black still has D4, so the game goes on.",
                options: FIVE,
                position: "...../...X./O..../XO.../.O... b",
                play: "A1*",
                marks: &["A2"],
                after: "...../...X./O..../.O.../RO... w",
            },
        ],
    },
    RulesSection {
        id: "eyes",
        heading: "Eyes",
        text: "An eye is an empty point whose neighbours are all stones. If they are black or red, with at least one black, it is a black eye; white or red, with at least one white, a white eye; all red, a red eye. A point with both black and white neighbours is no eye: the usual rules decide what may go there.\n\nThe eye rules follow from the rules above:\n• Nothing may ever be placed on a red eye.\n• On your own eye you may place a stone of your colour, unless it is the last liberty of every group of yours around it: then you may place only red, which removes those groups. If it is the last liberty of some of them but not all, you may do either.\n• On an enemy eye you may place nothing, unless it is the last liberty of an enemy group: then only red, which captures that group.\n\nEyes do not make a group safe for ever. When nothing else is left, a player must fill their own eyes (see No passing), and a group's last eye is open to the opponent's red stone.",
        examples: &[
            Illustration {
                caption: "White's eyes D1, D3 and D5 are closed to Black, and red on Black's own eyes would capture nothing. Black's only moves are black stones on his own eyes A1, A3 or A5: here A3.",
                options: FIVE,
                position: ".XO.O/XXOOO/.XO.O/XXOOO/.XO.O b",
                play: "A3",
                marks: &["D1", "D3", "D5"],
                after: ".XO.O/XXOOO/XXO.O/XXOOO/.XO.O w",
            },
            Illustration {
                caption: "A1 is Black's last eye and the last liberty of his nine stones. White may not fill it with white (that would capture), but White's red stone there removes the whole group, and White wins.",
                options: FIVE,
                position: "XXO.O/XXOOO/XXOOO/XXOOO/.XO.O w",
                play: "A1*",
                marks: &["A1"],
                after: "..O.O/..OOO/..OOO/..OOO/R.O.O b",
            },
            Illustration {
                caption: "A5 is a red eye: both its neighbours, B5 and A4, are red. No stone may ever go there, neither black, white nor red.",
                options: FIVE,
                position: ".R.../R.X../...O./...../..... b",
                play: "",
                marks: &["A5"],
                after: "",
            },
        ],
    },
    RulesSection {
        id: "no-passing",
        heading: "No passing",
        text: "You can never pass. Every turn you must place a stone, even when every legal placement hurts you: filling your own eye, or a red stone that removes your own stones. If your only legal move removes your last stones, you must play it, and you lose.\n\nYou are never stuck: while the game runs, the player to move always has at least one legal placement.",
        examples: &[Illustration {
            caption: "Black must move and has one legal move. D1 and D5 are White's eyes, and a black stone on A1 would leave his own group without a liberty. So Black's red stone on A1 removes all nine of his stones, and White wins.",
            options: FIVE,
            position: "XXO.O/XXOOO/XXOOO/XXOOO/.XO.O b",
            play: "A1*",
            marks: &["A1"],
            after: "..O.O/..OOO/..OOO/..OOO/R.O.O w",
        }],
    },
    RulesSection {
        id: "the-end",
        heading: "End of the game",
        text: "Only a red stone can end the game, once its captures are removed. Count the black and white stones left:\n• If the placer's opponent has none, the placer wins. This holds even if the placer has none either: a red stone that clears every black and white stone from the board wins for the player who placed it.\n• Otherwise, if the placer has none (the red stone removed their own last stones), the opponent wins.\n• Otherwise the game goes on.\n\nThere are no draws and no move limit. Red stones are never removed, so the board keeps filling, a position never repeats, and every game ends with a winner.",
        examples: &[
            Illustration {
                caption: "Black's red stone on B1 fills the last liberty of White's only stone, B2. White has no stones left: Black wins.",
                options: FIVE,
                position: "...../...../.X.../XOX../..... b",
                play: "B1*",
                marks: &["B2"],
                after: "...../...../.X.../X.X../.R... w",
            },
            Illustration {
                caption: "C5 is the last liberty of both the black and the white group, the only stones on the board. Black's red stone on C5 removes both armies at once, and the player who placed it, Black, wins.",
                options: FIVE,
                position: "XX.OO/XR.RO/R...R/...../..... b",
                play: "C5*",
                marks: &["C5"],
                after: "..R../.R.R./R...R/...../..... w",
            },
            Illustration {
                caption: "B1 is the last liberty of White's C1 and of Black's only stone, A1. Black's red stone there removes both, but White still has D4: Black removed his own last stone, so White wins.",
                options: FIVE,
                position: "...../...O./...../R.R../X.OR. b",
                play: "B1*",
                marks: &["A1", "C1", "D4"],
                after: "...../...O./...../R.R../.R.R. w",
            },
        ],
    },
    RulesSection {
        id: "here",
        heading: "Here",
        text: "Click or tap a point to place a stone there, or move the cursor with the arrow keys and press Enter. Where only one kind of stone is allowed it is placed at once; where both your colour and red are allowed, choose in the small menu beside the point. Right after Black's first stone, the panel offers White the swap.\n\nWith hints on (H), a red \"!\" marks stones whose group has one liberty left, and rings mark eyes in their owner's colour (red for a red eye).\n\nIn the move list and in these examples, C3 is a stone of the mover's colour on C3, C3* a red stone on C3, and swap the pie swap. Resigning hands the game to your opponent.",
        examples: &[],
    },
];
