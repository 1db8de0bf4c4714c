//! Gravel's rules as a reference in players' words, section by section, each drawn (the contract
//! is the spec in `shared/rules`).

use crate::rules::{Illustration, RulesHelp, RulesSection};

pub(super) const RULES: RulesHelp = RulesHelp { sections: SECTIONS };

const THREE: &[(&str, &str)] = &[("N", "3"), ("X", "4")];
const FOUR: &[(&str, &str)] = &[("N", "4"), ("X", "4")];
const FOUR_X3: &[(&str, &str)] = &[("N", "4"), ("X", "3")];
const FIVE: &[(&str, &str)] = &[("N", "5"), ("X", "4")];

const SECTIONS: &[RulesSection] = &[
    RulesSection {
        id: "goal",
        heading: "Goal",
        text: "Gravel is played by Light and Dark on a square board. In your turn you place, move and return your own pieces, and remove enemy pieces from spaces you control. Removed pieces leave the game for good.\n\nAt the end of every game turn (right after Dark's turn) both players are checked. You lose if either holds:\n• attrition: you have lost more than half of your starting pieces (half rounded up);\n• territory: you occupy fewer spaces than the number of your pieces removed.\n\nSo keep your pieces, and keep them spread over enough spaces. If both players lose at the same check, the game is a draw. It is also drawn when neither player can get anywhere, or at the turn limit.",
        examples: &[Illustration {
            caption: "Dark surrounds c4 on all four sides, removes Light's piece there and takes the space. Light has now lost 6 pieces but holds only 4 spaces, so the check after Dark's turn finds Light short: Dark wins.",
            options: FIVE,
            position: "5 4 ..D1../.D2L1D1./.L2D3L1./.D1L1../...L2. D 1 3 5 2 9",
            play: "xc4,+c4",
            marks: &["c4"],
            after: "5 4 ..D1../.D2D1D1./.L2D3L1./.D1L1../...L2. L 1 2 6 2 10",
        }],
    },
    RulesSection {
        id: "board",
        heading: "Board and pieces",
        text: "The board is a square of N × N spaces: option N, from 3 to 19, 8 by default. The layout option draws the spaces as squares or as the crossings of lines. It changes only the picture: a grid of 8 × 8 squares has 9 × 9 crossings, so play it with N = 9.\n\nFiles are lettered a, b, c… from left to right, and ranks are numbered 1, 2, 3… from bottom to top as Light sees the board: a1 is Light's near-left corner.\n\nThe neighbours of a space are the spaces directly above, below, left and right of it: 4 inside the board, 3 on an edge, 2 in a corner. Diagonal spaces are never neighbours.\n\nThe board starts empty. Each player starts with half the number of spaces plus one in their pool (halves dropped): 5 pieces on 3 × 3, 9 on 4 × 4, 13 on 5 × 5, 19 on 6 × 6, 33 on 8 × 8, 41 on 9 × 9, 51 on 10 × 10. Your pool is your pieces that are off the board and not removed. Light moves first.",
        examples: &[Illustration {
            caption: "Light's first piece stands on c3. Its neighbours are the four ringed spaces c4, b3, d3 and c2; diagonal spaces such as b2 and d4 are not neighbours.",
            options: FIVE,
            position: "5 4 ...../...../..L1../...../..... D 12 13 0 0 1",
            play: "",
            marks: &["c4", "b3", "d3", "c2"],
            after: "",
        }],
    },
    RulesSection {
        id: "stacks",
        heading: "Stacks",
        text: "The pieces on one space form a stack, and a stack always belongs to one player: nobody may put a piece on a space the opponent occupies. A stack's height is its number of pieces. A space without pieces is empty.\n\nNo stack may ever hold more than X pieces (option X, from 2 to 9, 4 by default; the same X is your number of actions per turn). A full stack takes no placement and no move until a piece leaves it.\n\nHeight matters for control: a stack of three weighs as much as three single pieces. It does not protect the stack itself: a stack can be removed piece by piece however tall it is.",
        examples: &[Illustration {
            caption: "With X = 3, Light's stack on a1 is full and can take no more. Light builds a new stack on c1 instead: three placements, and c1 is full too.",
            options: FOUR_X3,
            position: "4 3 ..../..../..../L3L1.D2 L 5 7 0 0 4",
            play: "+c1*3",
            marks: &["a1"],
            after: "4 3 ..../..../..../L3L1L3D2 D 2 7 0 0 4",
        }],
    },
    RulesSection {
        id: "the-turn",
        heading: "A turn",
        text: "Light plays first, then the players take turns. Light's turn followed by Dark's makes one game turn; game turns are numbered from 1.\n\nIn your turn you take up to X actions (option X, 4 by default), each costing one, and then end the turn:\n• Place a piece from your pool;\n• Move a piece from one of your stacks to another;\n• Return a piece from one of your stacks to your pool;\n• Remove an enemy piece from a space you control.\n\nYou may end after fewer actions, but every turn must contain at least one place, move or return, and must leave your own pieces different from how they were at its start (see What counts as placing). Placements and removals are not mixed (see Placing and removing).\n\nThere is no passing, except for a player with no pieces left at all (see No pieces left).",
        examples: &[Illustration {
            caption: "Light's first turn on an empty board: two pieces on c3 and one each on b3 and c4. That is four actions, all that X = 4 allows, and the turn goes to Dark.",
            options: FIVE,
            position: "5 4 ...../...../...../...../..... L 13 13 0 0 1",
            play: "+c3*2,+b3,+c4",
            marks: &[],
            after: "5 4 ...../..L1../.L1L2../...../..... D 9 13 0 0 1",
        }],
    },
    RulesSection {
        id: "actions",
        heading: "The four actions",
        text: "Each action moves one piece and costs one action, whichever it is.\n\n• Place: one piece from your pool onto an empty space, or onto one of your own stacks that is not full.\n• Move: one piece from one of your stacks onto another of your stacks that is not full, any distance away. A move never goes to an empty space and never onto an enemy stack.\n• Return: one piece from any of your stacks back to your pool. It is not lost: you may place it again, even in the same turn.\n• Remove: one piece from an enemy stack on a space you control (see Control). It leaves the game and counts as lost for its owner.\n\nA space whose last piece leaves becomes empty. Pieces are all alike: a piece placed earlier in the turn may be moved or returned again, at one action each time.\n\nTo bring a piece that is on the board to an empty space, return it and place it again: two actions. That is the only way.",
        examples: &[
            Illustration {
                caption: "Light moves the piece on b2 onto its own stack on c2, leaving b2 empty; it could not go to an empty space or onto Dark's c3. This one move is a whole turn.",
                options: FIVE,
                position: "5 4 ...../...../..D2../.L1L1../..... L 11 11 0 0 2",
                play: "b2>c2",
                marks: &[],
                after: "5 4 ...../...../..D2../..L2../..... D 11 11 0 0 2",
            },
            Illustration {
                caption: "To reach the empty corner e5, Light returns one of b2's two pieces to the pool and places it on e5: two actions.",
                options: FIVE,
                position: "5 4 ...../...../..D2../.L2L1../..... L 10 11 0 0 2",
                play: "-b2,+e5",
                marks: &["b2", "e5"],
                after: "5 4 ....L1/...../..D2../.L1L1../..... D 10 11 0 0 2",
            },
        ],
    },
    RulesSection {
        id: "what-counts",
        heading: "What counts as placing",
        text: "Every turn must place at least once, and here placing means any of Place, Move and Return. All three count: placing from your pool onto your own stack is an ordinary Place, and moving a piece onto your own stack counts just the same. Only Remove does not count, so a turn of removals alone cannot end. A single move, or a single return, is a complete turn.\n\nA turn must also change your own pieces: when you end it, your pool or the height of at least one of your stacks must differ from the start of the turn. Removals do not help here, since they touch only enemy pieces. So +a1 then -a1, or b2>c2 then c2>b2, cannot end a turn: add an action that changes something, or take actions back.\n\nStoneyard refuses an action that would leave no legal way to end the turn.",
        examples: &[
            Illustration {
                caption: "Light removes Dark's piece on c3, then places a piece onto its own stack on b3. That placement is what lets the turn end: xc3 alone would be a turn without a placement.",
                options: FIVE,
                position: "5 4 ...../...../.L1D1L1./...../..... L 11 12 0 0 2",
                play: "xc3,+b3",
                marks: &["b3"],
                after: "5 4 ...../...../.L2.L1./...../..... D 10 12 0 1 2",
            },
            Illustration {
                caption: "Here Light's placement is a move instead: after removing c3's piece, Light moves the piece on d3 onto its own stack on b3, and the turn may end.",
                options: FIVE,
                position: "5 4 ...../...../.L1D1L1./...../..... L 11 12 0 0 2",
                play: "xc3,d3>b3",
                marks: &["b3", "d3"],
                after: "5 4 ...../...../.L2.../...../..... D 11 12 0 1 2",
            },
            Illustration {
                caption: "Moving b2>c2 and then c2>b2 is two legal moves, but Light's pieces end as they began, so that turn cannot end. A third action that changes something, such as +e5, would make it legal.",
                options: FIVE,
                position: "5 4 ...../...../..D2../.L2L1../..... L 10 11 0 0 2",
                play: "",
                marks: &["b2", "c2"],
                after: "",
            },
        ],
    },
    RulesSection {
        id: "control",
        heading: "Control",
        text: "Who controls a space depends only on its neighbours, never on the space itself. You control a space when both hold:\n• at least two of its neighbours hold your pieces, and\n• your pieces on its neighbours outnumber the enemy's pieces there, stack heights added up.\n\nA tie is not control, and empty neighbours count for nothing. A corner, with only two neighbours, is controlled by holding both. One tall stack is never enough on its own: it is a single neighbour.\n\nControl matters only for removing: you may remove a piece from an enemy stack on a space you control, however tall the stack is, and remove again from it while you still control it. Control never stops placing: you may place on an empty space or your own stack even where the enemy has control.\n\nControl is worked out afresh before each removal, on the board as it stands at that moment. With hints on, the board shades the spaces each player controls.",
        examples: &[
            Illustration {
                caption: "Dark controls b3: its Dark neighbours a3 and b4 hold 3 pieces against Light's 2 on c3 and b2. Light controls d3 through c3 and d2, while c3 is a 2 against 2 tie that nobody controls.",
                options: FIVE,
                position: "5 4 ...../.D1D1../D2L1L1D1./.L1L1L1./..... D 8 8 0 0 3",
                play: "",
                marks: &["b3", "c3", "d3"],
                after: "",
            },
            Illustration {
                caption: "Light's 4 pieces on d3 are only one neighbour of the corner d4, and control needs two. Placing on c4 makes the second, and Light removes d4's piece.",
                options: FOUR,
                position: "4 4 ...D1/...L4/L1.../D3L1.. L 3 5 0 0 5",
                play: "+c4,xd4",
                marks: &["d4", "c4"],
                after: "4 4 ..L1./...L4/L1.../D3L1.. D 2 5 0 1 5",
            },
            Illustration {
                caption: "Light holds both neighbours of the corner a1, so it controls a1 and removes all three pieces of Dark's stack, one action each. Its fourth action occupies the emptied corner.",
                options: FOUR,
                position: "4 4 ...D1/...L4/L1.../D3L1.. L 3 5 0 0 5",
                play: "xa1*3,+a1",
                marks: &["a1"],
                after: "4 4 ...D1/...L4/L1.../L1L1.. D 2 5 0 3 5",
            },
        ],
    },
    RulesSection {
        id: "phases",
        heading: "Placing and removing",
        text: "A turn has at most two phases: placing (any mix of Place, Move and Return) and removing (Remove only). Your first action picks the order:\n• place first, then remove (or not at all), or\n• remove first, then place (at least once, since every turn must place).\n\nYou switch at most once: after the removals of a place-first turn you may not place again, and after the placements of a remove-first turn you may not remove again. All actions together are at most X.\n\nBecause control is judged before each removal, placements made earlier in the turn count, and so do earlier removals. A removal only weakens the enemy around other spaces, so one removal can give you control of the next space: removals can chain.",
        examples: &[
            Illustration {
                caption: "Remove first: Dark removes b3 (3 against 2). With b3 empty, c3 is 2 against 1, so Dark removes it too, then places on both spaces: four actions, removals before placements.",
                options: FIVE,
                position: "5 4 ...../.D1D1../D2L1L1D1./.L1L1L1./..... D 8 8 0 0 3",
                play: "xb3,xc3,+b3,+c3",
                marks: &["b3", "c3"],
                after: "5 4 ...../.D1D1../D2D1D1D1./.L1L1L1./..... L 8 6 2 0 4",
            },
            Illustration {
                caption: "Place first: +d3 gives Light a second neighbour of c3, 2 pieces against the 1 on c4. Light now controls c3, and three removals clear Dark's stack of three.",
                options: FIVE,
                position: "5 4 ...../..D1../.L1D3../....L2/D1.... L 10 8 0 0 3",
                play: "+d3,xc3*3",
                marks: &["c3", "d3"],
                after: "5 4 ...../..D1../.L1.L1./....L2/D1.... D 9 8 0 3 3",
            },
        ],
    },
    RulesSection {
        id: "the-end",
        heading: "The end",
        text: "The game can end only at the check, made once per game turn: right after Dark ends a turn (or passes). Nothing is checked after Light's turn, so what Light did is judged together with Dark's reply, and Dark gets one turn to repair any damage first.\n\nThe check looks at both players. A player loses on\n• attrition, having lost more than half of their starting pieces, half rounded up: more than 3 of 5 on 3 × 3, 5 of 9 on 4 × 4, 7 of 13 on 5 × 5, 10 of 19 on 6 × 6, 17 of 33 on 8 × 8, 21 of 41 on 9 × 9, 26 of 51 on 10 × 10;\n• territory, occupying fewer spaces than the number of their pieces lost. Equal is safe.\n\nOnly removed pieces are lost. Pieces you return to your own pool are not lost, but a return can empty a space you need. A player who meets attrition always meets territory too. If exactly one player meets a loss condition, that player loses and the other wins; if both do, the game is a draw.",
        examples: &[
            Illustration {
                caption: "Light's own returns left it only b2, 1 space for 2 pieces lost, but nothing is checked after Light's turn. Dark's +d2 ends the game turn, the check finds Light short on territory, and Dark wins.",
                options: FOUR_X3,
                position: "4 3 ...D1/...D1/.L1../.... D 6 7 2 0 5",
                play: "+d2",
                marks: &["b2"],
                after: "4 3 ...D1/...D1/.L1.D1/.... L 6 6 2 0 6",
            },
            Illustration {
                caption: "Light's last turn left Dark 2 spaces for 4 pieces lost, but the check waits for Dark's reply. Dark spreads to b4, c4 and d4, holds 5 spaces, and play goes on.",
                options: FOUR_X3,
                position: "4 3 ..../L1.../...D1/L2.D1L1 D 3 3 2 4 6",
                play: "+b4,+c4,+d4",
                marks: &[],
                after: "4 3 .D1D1D1/L1.../...D1/L2.D1L1 L 3 0 2 4 7",
            },
            Illustration {
                caption: "Light has lost 6 of its 13 pieces. Dark removes a1 and c1 and takes a1: Light has lost 8, more than 7 (attrition), and holds 4 spaces (territory), so Dark wins.",
                options: FIVE,
                position: "5 4 L1.L1../...../....L1/D1..../L1D1L1D1L1 D 1 10 6 0 9",
                play: "xa1,xc1,+a1",
                marks: &["a1", "c1"],
                after: "5 4 L1.L1../...../....L1/D1..../D1D1.D1L1 L 1 9 8 0 10",
            },
        ],
    },
    RulesSection {
        id: "draws",
        heading: "Draws",
        text: "The check after Dark's turn decides, in this order:\n• both players meet a loss condition: a draw;\n• exactly one does: that player loses;\n• both players are stuck: a draw;\n• the turn limit is reached: a draw;\n• otherwise play goes on with Light.\n\nA player is stuck when no legal turn of theirs, taken now, could remove an enemy piece, and none could leave them occupying more spaces than before. While some space is empty, that happens only to a player with an empty pool whose stacks are all single pieces. On a full board, a player who cannot remove is stuck.\n\nThe turn limit is Stoneyard's addition, not the designer's: the game is drawn at the end of game turn 200 (option turn_limit, up to 10000; 0 switches it off).",
        examples: &[
            Illustration {
                caption: "Dark removes Light's d1 (Dark controls it through c1 and d2) and adds to c1. Light now holds 2 spaces for 3 lost and Dark 2 for 4, so both lose at the check: a draw.",
                options: FOUR_X3,
                position: "4 3 ..../L1.../...D1/L2.D1L1 D 3 3 2 4 6",
                play: "xd1,+c1",
                marks: &["d1"],
                after: "4 3 ..../L1.../...D1/L2.D2. L 3 2 3 4 7",
            },
            Illustration {
                caption: "Dark's last pool piece goes onto a4 and the board is full. No space has two neighbours of the other colour and on a full board no turn can change that, so neither player can remove a piece or gain a space: both are stuck, a draw.",
                options: FOUR_X3,
                position: "4 3 D1D1D1D1/D1D1D1D1/L1L1L1L1/L1L1L1L1 D 1 1 0 0 10",
                play: "+a4",
                marks: &[],
                after: "4 3 D2D1D1D1/D1D1D1D1/L1L1L1L1/L1L1L1L1 L 1 0 0 0 11",
            },
        ],
    },
    RulesSection {
        id: "no-pieces",
        heading: "No pieces left",
        text: "While you have a piece you always have a legal turn: with a piece on the board you can return it, and with pieces only in your pool there is always an empty space to place on.\n\nOnly a player with no pieces at all, pool empty and nothing on the board, cannot play. That player passes: the pass is their whole turn, and play goes on as usual, with the check if it was Dark's turn. Passing is allowed for nobody else.\n\nA player with no pieces has lost them all, so they lose at the next check, or draw if the opponent loses at the same check.",
        examples: &[Illustration {
            caption: "Light removes Dark's last pieces, two from b2 (all four neighbours are Light's) and one from c3, and places on a1. Dark, with no piece anywhere, can only pass, and the check after that pass makes Light the winner.",
            options: THREE,
            position: "3 4 .L1D1/L1D2L1/.L1. L 1 0 0 2 7",
            play: "xb2*2,xc3,+a1",
            marks: &["b2", "c3"],
            after: "3 4 .L1./L1.L1/L1L1. D 0 0 0 5 7",
        }],
    },
    RulesSection {
        id: "notation",
        heading: "Writing turns",
        text: "The game record writes a turn as its actions in order, joined by commas:\n• +c3 places a piece on c3;\n• b2>c2 moves a piece from b2 to c2;\n• -c2 returns a piece from c2 to the pool;\n• xc3 removes an enemy piece from c3;\n• *3 after an action repeats it: xc3*3 is three removals from c3;\n• pass is the turn of a player with no pieces.\n\nThe end of the turn is not written. Each line of the record is one game turn: its number, Light's turn, a semicolon, then Dark's turn, as in 1. +d4*2,+e5,+d5 ; +e4,+f5*2.",
        examples: &[Illustration {
            caption: "The turn e1>b3,e1>c2,xc3: two pieces move from e1 onto b3 and c2, giving Light 4 pieces beside c3 against Dark's 3, and xc3 removes c3's piece.",
            options: FIVE,
            position: "5 4 ...../..D2../.L1D1D1./..L1../....L3 L 8 9 0 0 6",
            play: "e1>b3,e1>c2,xc3",
            marks: &["c3"],
            after: "5 4 ...../..D2../.L2.D1./..L2../....L1 D 8 9 0 1 6",
        }],
    },
    RulesSection {
        id: "here",
        heading: "Here",
        text: "Click or tap a space, or move the cursor with the arrow keys and press Enter:\n• on an empty space, you place a piece from your pool;\n• on an enemy stack you control, you remove a piece;\n• on your own stack, a list offers to place another piece, return one, or start a move; for a move, then choose the stack it goes to. You can also drag a piece from one of your stacks onto another.\n\nEach choice is one action, and the panel counts the actions used this turn. End the turn with End turn in the panel (or E); a player with no pieces gets Pass instead. Undo (Z) takes back actions of your turn.\n\nWith hints on (H), the board shades the spaces each player controls. Before you end a turn that would lose the game at once, Stoneyard warns you.",
        examples: &[],
    },
];
