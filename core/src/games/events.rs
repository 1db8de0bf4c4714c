//! The event log's words: what one decision's effects did, as sentences a player reads ("White's
//! red stone on c3 captured 4 black stones", "Cascade round 2: A's knight on d4 fell (on B's
//! ground)", "d5 burned: both chose it"). Plain moves are the move list's business, not the log's.

use super::GameKind;
use crate::rules::{BoardView, Cell, Effect, EffectKind, Figure, PieceShape, PieceView, RemoveCause, Side};

/// What the log needs to know about the decision besides its effects.
pub struct EventContext<'a> {
    pub kind: GameKind,
    /// The board before the decision (what was removed is named from it).
    pub before: &'a BoardView,
    /// The board after it (what a capturing piece is).
    pub after: &'a BoardView,
    /// The decision resolved secret choices made by both sides at once (a reveal).
    pub simultaneous: bool,
}

impl EventContext<'_> {
    /// A side's short name for sentences: "A", "Black", "Light".
    pub(super) fn side(&self, side: Side) -> &'static str {
        let name = self.kind.side_name(side);
        name.split(" (").next().unwrap_or(name)
    }

    pub(super) fn cell_name(&self, cell: Cell) -> String {
        self.before.cells.get(usize::from(cell)).map_or_else(|| cell.to_string(), |c| c.name.clone())
    }

    pub(super) fn piece_before(&self, cell: Cell) -> Option<PieceView> {
        self.before.cells.get(usize::from(cell)).and_then(|c| c.piece)
    }

    /// What stood on `cell` when `effects` removed it.
    pub(super) fn piece_removed(&self, cell: Cell, effects: &[Effect]) -> Option<PieceView> {
        piece_removed(self.before, cell, effects)
    }

    pub(super) fn piece_after(&self, cell: Cell) -> Option<PieceView> {
        self.after.cells.get(usize::from(cell)).and_then(|c| c.piece)
    }

    /// "A's knight", "a black stone", "the red stone", "White's stack of 3".
    pub(super) fn one_piece(&self, piece: PieceView) -> String {
        match (piece.owner, piece.shape) {
            (None, _) => "the red stone".to_string(),
            (Some(s), PieceShape::Stone) => format!("a {} stone", self.side(s).to_lowercase()),
            (Some(s), PieceShape::Stack { height: 1 }) => format!("a {} stone", self.side(s).to_lowercase()),
            (Some(s), PieceShape::Stack { height }) => format!("{}'s stack of {height}", self.side(s)),
            (Some(s), PieceShape::Figure { figure, .. }) => format!("{}'s {}", self.side(s), figure.name()),
        }
    }

    /// The pieces on `cells` before the decision, counted: "4 black stones", "2 white stacks (5
    /// stones)", "3 white stones and the red stone".
    pub(super) fn pieces_on(&self, cells: &[Cell]) -> String {
        let pieces: Vec<PieceView> = cells.iter().filter_map(|&c| self.piece_before(c)).collect();
        if pieces.is_empty() {
            return plural(cells.len(), "piece");
        }
        self.pieces_counted(&pieces)
    }

    /// `pieces` counted by owner, as [`Self::pieces_on`] says them.
    pub(super) fn pieces_counted(&self, pieces: &[PieceView]) -> String {
        let mut parts = Vec::new();
        for side in Side::BOTH {
            let own: Vec<&PieceView> = pieces.iter().filter(|p| p.owner == Some(side)).collect();
            if own.is_empty() {
                continue;
            }
            let colour = self.side(side).to_lowercase();
            let stones: u16 = own.iter().map(|p| p.height()).sum();
            let stacks = own.iter().filter(|p| p.height() > 1).count();
            parts.push(match stacks {
                0 => plural(usize::from(stones), &format!("{colour} stone")),
                _ => format!(
                    "{} ({})",
                    plural(own.len(), &format!("{colour} stack")),
                    plural(usize::from(stones), "stone")
                ),
            });
        }
        match pieces.iter().filter(|p| p.owner.is_none()).count() {
            0 => {}
            1 => parts.push("the red stone".to_string()),
            n => parts.push(format!("{n} red stones")),
        }
        join_words(&parts)
    }

    /// " (c3, d3)" for a few spaces; nothing for many (the board shows them).
    fn where_list(&self, cells: &[Cell]) -> String {
        if cells.is_empty() || cells.len() > 4 {
            return String::new();
        }
        let names: Vec<String> = cells.iter().map(|&c| self.cell_name(c)).collect();
        format!(" ({})", names.join(", "))
    }
}

/// "1 stone", "4 stones" (every count a player reads is said this way).
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// "a", "a and b", "a, b and c".
pub(super) fn join_words(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The figure a placed piece's letter names (Hidden Intention writes figures by letter).
pub(super) fn figure_of(letter: char) -> Option<Figure> {
    [Figure::Pawn, Figure::DiagonalPawn, Figure::Rook, Figure::Bishop, Figure::Knight, Figure::Queen]
        .into_iter()
        .find(|f| f.letter() == letter.to_ascii_uppercase())
}

/// The sentences for one decision's effects, in the order they happened.
pub fn describe_effects(context: &EventContext, effects: &[Effect]) -> Vec<String> {
    let mut lines = Vec::new();
    if context.simultaneous {
        let revealed: Vec<String> = effects
            .iter()
            .filter_map(|e| match e.kind {
                EffectKind::Placed { cell, by, piece, .. } => {
                    let what = figure_of(piece).map_or_else(|| "piece".to_string(), |f| f.name().to_string());
                    Some(format!("{}'s {what} on {}", context.side(by), context.cell_name(cell)))
                }
                _ => None,
            })
            .collect();
        if !revealed.is_empty() {
            lines.push(format!("Revealed: {}", join_words(&revealed)));
        }
    }
    let mut i = 0;
    while i < effects.len() {
        let effect = &effects[i];
        // Removals of one cause in one round read as one sentence.
        if let EffectKind::Removed { cause, .. } = effect.kind {
            let (same, cells) = removals_alike(effects, i);
            let counts: u16 = effects[i..i + same]
                .iter()
                .map(|e| match e.kind {
                    EffectKind::Removed { count, .. } => count,
                    _ => 0,
                })
                .sum();
            lines.push(removal_sentence(context, effects, (effect.wave, cause), &cells, counts));
            i += same;
            continue;
        }
        // One capture sentence per capturer: the groups it took in one decision read together.
        let captured_before =
            |by: Side| effects[..i].iter().any(|e| matches!(e.kind, EffectKind::Captured { by: b, .. } if b == by));
        if matches!(effect.kind, EffectKind::Captured { by, .. } if captured_before(by)) {
            i += 1;
            continue;
        }
        if let Some(line) = sentence(context, effects, effect) {
            lines.push(line);
        }
        i += 1;
    }
    lines
}

/// The sentence for removals of one `cause` in round `wave`: `count` pieces left `cells`.
fn removal_sentence(
    context: &EventContext,
    effects: &[Effect],
    (wave, cause): (u16, RemoveCause),
    cells: &[Cell],
    count: u16,
) -> String {
    let named: Vec<String> = cells
        .iter()
        .map(|&c| {
            let piece =
                context.piece_removed(c, effects).map_or_else(|| "a piece".to_string(), |p| context.one_piece(p));
            format!("{piece} on {}", context.cell_name(c))
        })
        .collect();
    let owner = cells.iter().find_map(|&c| context.piece_removed(c, effects)).and_then(|p| p.owner);
    let from = {
        let names: Vec<String> = cells.iter().map(|&c| context.cell_name(c)).collect();
        join_words(&names)
    };
    let stones = |colour: Option<&str>| match (count, colour) {
        (1, Some(colour)) => format!("a {colour} stone"),
        (n, Some(colour)) => format!("{n} {colour} stones"),
        (n, None) => plural(usize::from(n), "stone"),
    };
    match cause {
        RemoveCause::Unstable => format!("Cascade round {}: {} fell", wave.max(1), join_words(&named)),
        RemoveCause::Control => match owner {
            Some(owner) => format!(
                "{} removed {} from {from}",
                context.side(owner.opponent()),
                stones(Some(&context.side(owner).to_lowercase()))
            ),
            None => format!("{} removed from {from}", stones(None)),
        },
        RemoveCause::Returned => match owner {
            Some(owner) => format!("{} took {} back from {from}", context.side(owner), stones(None)),
            None => format!("{} went back to the pool from {from}", stones(None)),
        },
        RemoveCause::Capture | RemoveCause::SelfCapture => {
            let whose = if cause == RemoveCause::SelfCapture { " (its own move left it no room)" } else { "" };
            format!("Captured: {}{whose}", join_words(&named))
        }
    }
}

/// How many removals from `effects[i]` on share its cause and round (they read as one
/// sentence), and the spaces they emptied.
pub(super) fn removals_alike(effects: &[Effect], i: usize) -> (usize, Vec<Cell>) {
    let EffectKind::Removed { cause, .. } = effects[i].kind else { return (0, Vec::new()) };
    let wave = effects[i].wave;
    let same = effects[i..]
        .iter()
        .take_while(|e| e.wave == wave && matches!(e.kind, EffectKind::Removed { cause: c, .. } if c == cause))
        .count();
    let cells = effects[i..i + same]
        .iter()
        .filter_map(|e| match e.kind {
            EffectKind::Removed { cell, .. } => Some(cell),
            _ => None,
        })
        .collect();
    (same, cells)
}

/// The spaces the captures among `effects` took pieces from: those of side `by`, or of both.
pub(super) fn captured_by(effects: &[Effect], by: Option<Side>) -> Vec<Cell> {
    effects
        .iter()
        .flat_map(|e| match &e.kind {
            EffectKind::Captured { cells, by: b } if by.is_none_or(|by| by == *b) => cells.clone(),
            _ => Vec::new(),
        })
        .collect()
}

/// The sentence for one effect other than a removal, if it says more than the move list.
fn sentence(context: &EventContext, effects: &[Effect], effect: &Effect) -> Option<String> {
    let line = match &effect.kind {
        EffectKind::Captured { by, .. } => {
            let by_name = context.side(*by);
            let cells = &captured_by(effects, Some(*by));
            // The piece that made the capture: the one this decision placed, still standing.
            let capturer = effects.iter().find_map(|e| match e.kind {
                EffectKind::Placed { cell, by: placer, .. } if placer == *by => {
                    context.piece_after(cell).map(|p| (cell, p))
                }
                _ => None,
            });
            let what = context.pieces_on(cells);
            match capturer {
                Some((cell, piece)) if piece.owner.is_none() => {
                    format!("{by_name}'s red stone on {} captured {what}", context.cell_name(cell))
                }
                Some((cell, _)) => format!("{by_name}'s stone on {} captured {what}", context.cell_name(cell)),
                None => format!("{by_name} captured {what}{}", context.where_list(cells)),
            }
        }
        EffectKind::Burned { cell } if context.simultaneous => {
            format!("{} burned: both chose it", context.cell_name(*cell))
        }
        EffectKind::Burned { cell } => format!("{} burned", context.cell_name(*cell)),
        EffectKind::Unburned { cell } => format!("{} reopened", context.cell_name(*cell)),
        EffectKind::Swapped { a, b, by } => {
            let name = |c: Cell| match context.piece_before(c) {
                // "their queen" rather than "A's queen" in a sentence about A.
                Some(p) if p.owner == Some(*by) => {
                    let own = context.one_piece(p);
                    own.split_once("'s ").map_or(own.clone(), |(_, what)| format!("their {what}"))
                }
                Some(p) => context.one_piece(p),
                None => "the piece".to_string(),
            };
            format!(
                "{} swapped {} on {} with {} on {}",
                context.side(*by),
                name(*a),
                context.cell_name(*a),
                name(*b),
                context.cell_name(*b)
            )
        }
        EffectKind::Scored { side, score } => format!("{}'s score is now {score}", context.side(*side)),
        EffectKind::Rescued { side, count } => {
            format!("{} took {} back into play", context.side(*side), plural(usize::from(*count), "prisoner"))
        }
        EffectKind::PieSwap { by } => {
            format!("{} swapped sides (pie rule): they now play the first side's position", context.side(*by))
        }
        EffectKind::Passed { side } => format!("{} passed", context.side(*side)),
        EffectKind::Collected { from, to, by } => {
            format!("{} gathered {} onto {}", context.side(*by), plural(from.len(), "stack"), context.cell_name(*to))
        }
        EffectKind::Distributed { path, by } => format!(
            "{} spread the stack on {} over {}",
            context.side(*by),
            path.first().map_or_else(String::new, |&c| context.cell_name(c)),
            plural(path.len().saturating_sub(1), "space")
        ),
        _ => return None,
    };
    Some(line)
}

/// Every space a decision's effects touched: where pieces arrived, left, travelled, were spread or
/// gathered, were removed or captured, swapped, burned or reopened (the last turn's trace).
pub fn touched_cells(effects: &[Effect]) -> Vec<Cell> {
    let mut cells = Vec::new();
    for effect in effects {
        match &effect.kind {
            EffectKind::Placed { cell, .. }
            | EffectKind::Stacked { cell, .. }
            | EffectKind::Removed { cell, .. }
            | EffectKind::Burned { cell }
            | EffectKind::Unburned { cell } => cells.push(*cell),
            EffectKind::Moved { from, to, .. } => cells.extend([*from, *to]),
            EffectKind::Swapped { a, b, .. } => cells.extend([*a, *b]),
            EffectKind::Hopped { path, .. } | EffectKind::Distributed { path, .. } => cells.extend(path),
            EffectKind::Collected { from, to, .. } => cells.extend(from.iter().chain([to])),
            EffectKind::Captured { cells: taken, .. } => cells.extend(taken),
            EffectKind::Scored { .. }
            | EffectKind::Rescued { .. }
            | EffectKind::PieSwap { .. }
            | EffectKind::Passed { .. }
            | EffectKind::GameOver { .. } => {}
        }
    }
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// What stood on `cell` when `effects` removed it: a piece from `before` the decision, or one the
/// decision itself placed (a revealed figure that fell in the cascade).
fn piece_removed(before: &BoardView, cell: Cell, effects: &[Effect]) -> Option<PieceView> {
    let placed = effects.iter().rev().find_map(|e| match e.kind {
        EffectKind::Placed { cell: c, by, piece, .. } if c == cell => {
            Some(figure_of(piece).map_or(PieceView::stone(Some(by)), |f| PieceView::figure(by, f, None)))
        }
        _ => None,
    });
    placed.or_else(|| before.cells.get(usize::from(cell)).and_then(|c| c.piece))
}

/// The pieces a decision took off the board and where they stood (`before` is the board before
/// it): the last turn's ghosts.
pub fn removed_pieces(before: &BoardView, effects: &[Effect]) -> Vec<(Cell, PieceView)> {
    removed_cells(effects).into_iter().filter_map(|c| piece_removed(before, c, effects).map(|p| (c, p))).collect()
}

/// The spaces pieces were taken from by a capture or a removal (where a ghost of them shows).
pub fn removed_cells(effects: &[Effect]) -> Vec<Cell> {
    let mut cells: Vec<Cell> = effects
        .iter()
        .flat_map(|e| match &e.kind {
            EffectKind::Removed { cell, .. } => vec![*cell],
            EffectKind::Captured { cells, .. } => cells.clone(),
            _ => Vec::new(),
        })
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::DynGame;

    /// The log lines of `decision` played on `game` (which it advances).
    fn log_of(game: &mut Box<dyn DynGame>, decision: &str) -> Vec<String> {
        let before = game.board_view();
        let simultaneous = game.to_move() == Some(crate::rules::ToMove::Both);
        let effects = game.play_decision(decision).unwrap_or_else(|e| panic!("{decision}: {e}"));
        let after = game.board_view();
        describe_effects(&EventContext { kind: game.kind(), before: &before, after: &after, simultaneous }, &effects)
    }

    fn open(slug: &str, options: &[(&str, &str)], position: Option<&str>) -> Box<dyn DynGame> {
        let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        GameKind::named(slug).open(&options, position).unwrap()
    }

    #[test]
    fn words_join_as_a_sentence() {
        assert_eq!(join_words(&["a".into()]), "a");
        assert_eq!(join_words(&["a".into(), "b".into(), "c".into()]), "a, b and c");
        assert_eq!(plural(1, "stone"), "1 stone");
        assert_eq!(plural(4, "stone"), "4 stones");
    }

    #[test]
    fn a_plain_placement_says_nothing_the_move_list_does_not() {
        let mut game = open("red-stone", &[("size", "5")], None);
        let first = game.legal_decisions(Side::First)[0].clone();
        assert!(log_of(&mut game, &first).is_empty());
    }

    /// Every capture, removal, burn, re-opening, swap and pie swap of the specs' worked examples
    /// (the referee cases) is named by a line of the log.
    #[test]
    fn the_log_names_every_capture_removal_burn_and_swap_of_the_worked_examples() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases");
        let mut named = 0;
        for kind in GameKind::all() {
            if kind.slug() == <crate::games::tic_tac_toe::Position as crate::rules::Notation>::SLUG {
                continue; // the test-only sixth game has no rule book, so no referee cases
            }
            let text = std::fs::read_to_string(dir.join(format!("{}.json", kind.slug()))).unwrap();
            let file: serde_json::Value = serde_json::from_str(&text).unwrap();
            for case in file["cases"].as_array().unwrap() {
                if case["expect"]["ok"] != true {
                    continue;
                }
                let options: Vec<(String, String)> = case["options"]
                    .as_object()
                    .map(|o| o.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string())).collect())
                    .unwrap_or_default();
                let Ok(mut game) = kind.open(&options, case["position"].as_str()) else { continue };
                for token in case["moves"].as_array().unwrap() {
                    let token = token.as_str().unwrap();
                    let before = game.board_view();
                    let simultaneous = game.to_move() == Some(crate::rules::ToMove::Both);
                    let Ok(effects) = game.play_token(token) else { break };
                    let after = game.board_view();
                    let context = EventContext { kind, before: &before, after: &after, simultaneous };
                    let lines = describe_effects(&context, &effects).join("\n");
                    let id = &case["id"];
                    let name = |c: Cell| before.cells[usize::from(c)].name.clone();
                    for effect in &effects {
                        let wanted: Vec<String> = match &effect.kind {
                            EffectKind::Captured { .. } => vec!["captured".into()],
                            EffectKind::Removed { cell, .. } => vec![name(*cell)],
                            EffectKind::Burned { cell } => vec![format!("{} burned", name(*cell))],
                            EffectKind::Unburned { cell } => vec![format!("{} reopened", name(*cell))],
                            EffectKind::Swapped { a, b, .. } => vec![name(*a), name(*b)],
                            EffectKind::PieSwap { .. } => vec!["pie rule".into()],
                            _ => continue,
                        };
                        for w in wanted {
                            assert!(lines.contains(&w), "{kind} {id} {token}: {:?} not in\n{lines}", effect.kind);
                        }
                        named += 1;
                    }
                }
            }
        }
        assert!(named > 20, "the examples hold many events ({named})");
    }

    #[test]
    fn a_capture_touches_the_placed_space_and_every_captured_one() {
        let mut game = open("red-stone", &[("size", "5")], Some("..X../.XOX./.XO../..X../....O b"));
        let view = game.board_view();
        let effects = game.play_token("D3*").unwrap();
        let names = |cells: Vec<Cell>| -> Vec<String> {
            cells.into_iter().map(|c| view.cells[usize::from(c)].name.clone()).collect()
        };
        let touched = names(touched_cells(&effects));
        let removed = names(removed_cells(&effects));
        assert_eq!(removed.len(), 2, "{removed:?}");
        assert!(touched.contains(&"D3".to_string()), "{touched:?}");
        assert!(removed.iter().all(|r| touched.contains(r)), "{touched:?} {removed:?}");
    }

    #[test]
    fn a_two_round_cascade_names_each_round_and_the_ground() {
        let mut game =
            open("hidden-intention", &[], Some("Nd4/ne Pd5 ; Ra5 Rh5 ; P7R2B2N0Q1 P8R0B2N1Q1 ; 2 2 ; - ; 3.1"));
        let lines = log_of_token(&mut game, "Pg2|Nc4/ne");
        assert!(lines[0].starts_with("Revealed: White's pawn on g2 and Black's knight on c4"), "{lines:?}");
        assert!(lines.contains(&"Cascade round 1: White's knight on d4 fell".to_string()), "{lines:?}");
        assert!(lines.contains(&"Cascade round 2: White's pawn on d5 fell".to_string()), "{lines:?}");
    }

    fn log_of_token(game: &mut Box<dyn DynGame>, token: &str) -> Vec<String> {
        let before = game.board_view();
        let simultaneous = game.to_move() == Some(crate::rules::ToMove::Both);
        let effects = game.play_token(token).unwrap_or_else(|e| panic!("{token}: {e}"));
        let after = game.board_view();
        describe_effects(&EventContext { kind: game.kind(), before: &before, after: &after, simultaneous }, &effects)
    }
}
