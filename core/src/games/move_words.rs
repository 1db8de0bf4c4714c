//! A record move in plain words for the move list ("placed a stone on d4, took 3 white stones"),
//! said from what its decisions did on the board (their effects), the same way for every game.

use super::events::{EventContext, captured_by, figure_of, join_words, removals_alike};
use super::{DynGame, plural};
use crate::rules::{Cell, Effect, EffectKind, PieceShape, PieceView, RemoveCause, Side, ToMove};

/// The decisions of one record move, played from `before`, in words; `None` when one of them
/// does not play there. A reveal of both sides' secret choices names each side; otherwise the
/// list names the mover beside the words.
pub fn move_in_words(before: &dyn DynGame, decisions: &[String]) -> Option<String> {
    let mut after = before.clone_box();
    let mut effects = Vec::new();
    for decision in decisions {
        effects.extend(after.play_decision(decision).ok()?);
    }
    let (before_view, after_view) = (before.board_view(), after.board_view());
    let simultaneous = before.to_move() == Some(ToMove::Both);
    let context = EventContext { kind: before.kind(), before: &before_view, after: &after_view, simultaneous };
    Some(words_of(&context, &effects))
}

/// Pieces where they stood.
type Standing = Vec<(Cell, PieceView)>;

/// One thing the move did, with its spaces and how often each ("placed a stone on" c3 ×2 and
/// c4), or how often the whole thing happened in a row ("moved d4 to c4" ×2).
struct Phrase {
    saying: String,
    cells: Vec<(String, u32)>,
    times: u32,
}

impl Phrase {
    fn said(&self) -> String {
        let times = |n: u32| if n > 1 { format!(" ×{n}") } else { String::new() };
        let cells: Vec<String> = self.cells.iter().map(|(cell, n)| format!("{cell}{}", times(*n))).collect();
        match cells.as_slice() {
            [] => format!("{}{}", self.saying, times(self.times)),
            _ => format!("{} {}", self.saying, join_words(&cells)),
        }
    }
}

/// Adds a phrase, or adds to the last one when it says the same ("placed a stone on" d4, e5).
fn say(phrases: &mut Vec<Phrase>, saying: String, cells: Vec<String>) {
    match phrases.last_mut() {
        Some(last) if last.saying == saying && cells.is_empty() == last.cells.is_empty() => {
            last.times += 1;
            for cell in cells {
                match last.cells.iter_mut().find(|(c, _)| *c == cell) {
                    Some((_, n)) => *n += 1,
                    None => last.cells.push((cell, 1)),
                }
            }
        }
        _ => phrases.push(Phrase { saying, cells: cells.into_iter().map(|c| (c, 1)).collect(), times: 1 }),
    }
}

/// "a white stone" for "1 white stone" (counts say how many; one reads better as "a").
fn with_article(counted: String) -> String {
    match counted.strip_prefix("1 ") {
        Some(rest) => format!("a {rest}"),
        None => counted,
    }
}

/// " via a6 and b6": the spaces a travelling stone landed on between its start and its end.
fn via(context: &EventContext, path: &[Cell]) -> String {
    match path {
        [_, landings @ .., _] if !landings.is_empty() => {
            let names: Vec<String> = landings.iter().map(|&c| context.cell_name(c)).collect();
            format!(" via {}", join_words(&names))
        }
        _ => String::new(),
    }
}

/// The effects of one record move as a comma-separated list of what happened, in order.
fn words_of(context: &EventContext, effects: &[Effect]) -> String {
    let mut phrases: Vec<Phrase> = Vec::new();
    let name = |c: Cell| context.cell_name(c);
    let mut i = 0;
    while i < effects.len() {
        let effect = &effects[i];
        match &effect.kind {
            EffectKind::Placed { cell, by, piece, count } => {
                let placed = placed_piece(context, effects, *cell, *by, *piece);
                let noun = noun(context, placed, *by, *count);
                if context.simultaneous {
                    say(&mut phrases, format!("{}'s {noun} on", context.side(*by)), vec![name(*cell)]);
                } else {
                    say(&mut phrases, format!("placed {noun} on"), vec![name(*cell)]);
                }
            }
            EffectKind::Moved { from, to, count, .. } => {
                let what = if *count > 1 { format!("{count} stones") } else { String::new() };
                let saying = format!("moved {what}").trim_end().to_string();
                say(&mut phrases, format!("{saying} {} to {}", name(*from), name(*to)), Vec::new());
            }
            EffectKind::Hopped { path, .. } => {
                let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
                    i += 1;
                    continue;
                };
                // A stone placed this move and travelling on reads as one action.
                let placed_here = phrases
                    .last()
                    .filter(|p| p.saying.starts_with("placed") || p.saying.starts_with("captured"))
                    .is_some_and(|p| p.cells.last().is_some_and(|(c, _)| *c == name(from)));
                let hops = via(context, path);
                if placed_here {
                    say(&mut phrases, format!("moved it to {}{hops}", name(to)), Vec::new());
                } else {
                    say(&mut phrases, format!("moved {} to {}{hops}", name(from), name(to)), Vec::new());
                }
            }
            EffectKind::Distributed { path, .. } => {
                let Some((&from, over)) = path.split_first() else {
                    i += 1;
                    continue;
                };
                say(&mut phrases, format!("spread {} over", name(from)), over.iter().map(|&c| name(c)).collect());
            }
            EffectKind::Collected { from, to, .. } => {
                let stacks: Vec<String> = from.iter().map(|&c| name(c)).collect();
                say(&mut phrases, format!("gathered {} onto {}", join_words(&stacks), name(*to)), Vec::new());
            }
            EffectKind::Removed { cause, .. } => {
                // Removals of one cause in one round read as one phrase.
                let (same, cells) = removals_alike(effects, i);
                let taken = captured_by(effects, None);
                let cells: Vec<Cell> = cells.into_iter().filter(|c| !taken.contains(c)).collect();
                if !cells.is_empty() {
                    let said = removal(context, (&effects[..i], &effects[i..i + same]), *cause, &cells, mover(effects));
                    say(&mut phrases, said, Vec::new());
                }
                i += same;
                continue;
            }
            EffectKind::Captured { by, .. } => {
                // Every capture of one side in the move reads as one phrase, where the first is.
                let captured_before =
                    effects[..i].iter().any(|e| matches!(&e.kind, EffectKind::Captured { by: b, .. } if b == by));
                if captured_before {
                    i += 1;
                    continue;
                }
                let cells = captured_by(effects, Some(*by));
                // What stood there before this capture (a Throngs capture places after it).
                let stood = |c: &Cell| context.piece_removed(*c, &effects[..i]).map(|p| (*c, p));
                let (own, theirs): (Standing, Standing) =
                    cells.iter().filter_map(stood).partition(|(_, p)| p.owner == Some(*by));
                let whose = if context.simultaneous { format!("{} ", context.side(*by)) } else { String::new() };
                // A stone that captures by taking the place (Throngs): one phrase, whose space a
                // travel after it starts from.
                if let ([(cell, piece)], [], Some(EffectKind::Placed { cell: placed, by: placer, .. })) =
                    (theirs.as_slice(), own.as_slice(), effects.get(i + 1).map(|e| &e.kind))
                    && placed == cell
                    && placer == by
                {
                    let taken = with_article(context.pieces_counted(&[*piece]));
                    say(&mut phrases, format!("{whose}captured {taken} on"), vec![name(*cell)]);
                    i += 2;
                    continue;
                }
                for (verb, taken) in [("took", theirs), ("lost", own)] {
                    if taken.is_empty() {
                        continue;
                    }
                    let (places, pieces): (Vec<Cell>, Vec<PieceView>) = taken.into_iter().unzip();
                    let names: Vec<String> = places.iter().map(|&c| name(c)).collect();
                    let counted = with_article(context.pieces_counted(&pieces));
                    say(&mut phrases, format!("{whose}{verb} {counted}{}", few_places(&names)), Vec::new());
                }
            }
            EffectKind::Burned { cell } if context.simultaneous => {
                say(&mut phrases, format!("{} burned (both chose it)", name(*cell)), Vec::new());
            }
            EffectKind::Burned { cell } => say(&mut phrases, format!("{} burned", name(*cell)), Vec::new()),
            EffectKind::Swapped { a, b, by } => {
                let whose = if context.simultaneous { format!("{} ", context.side(*by)) } else { String::new() };
                say(&mut phrases, format!("{whose}swapped {} and {}", name(*a), name(*b)), Vec::new());
            }
            EffectKind::Rescued { count, .. } => {
                say(
                    &mut phrases,
                    format!("took {} back into play", plural(usize::from(*count), "prisoner")),
                    Vec::new(),
                );
            }
            EffectKind::PieSwap { .. } => say(&mut phrases, "swapped sides (pie rule)".to_string(), Vec::new()),
            EffectKind::Passed { .. } => say(&mut phrases, "passed".to_string(), Vec::new()),
            EffectKind::Stacked { .. }
            | EffectKind::Unburned { .. }
            | EffectKind::Scored { .. }
            | EffectKind::GameOver { .. } => {}
        }
        i += 1;
    }
    let parts: Vec<String> = phrases.iter().map(Phrase::said).collect();
    if parts.is_empty() { "ended the turn".to_string() } else { parts.join(", ") }
}

/// The side whose move the effects are (the first that acts in them), if any.
fn mover(effects: &[Effect]) -> Option<Side> {
    effects.iter().find_map(|e| match e.kind {
        EffectKind::Placed { by, .. }
        | EffectKind::Moved { by, .. }
        | EffectKind::Hopped { by, .. }
        | EffectKind::Distributed { by, .. }
        | EffectKind::Collected { by, .. }
        | EffectKind::Swapped { by, .. }
        | EffectKind::PieSwap { by } => Some(by),
        EffectKind::Passed { side } => Some(side),
        _ => None,
    })
}

/// What the move placed on `cell`: the piece standing there after it, or where it travelled to.
fn placed_piece(context: &EventContext, effects: &[Effect], cell: Cell, by: Side, letter: char) -> PieceView {
    let landed = effects
        .iter()
        .find_map(|e| match &e.kind {
            EffectKind::Hopped { path, .. } if path.first() == Some(&cell) => path.last().copied(),
            _ => None,
        })
        .unwrap_or(cell);
    let figure = figure_of(letter).filter(|_| context.simultaneous).map(|f| PieceView::figure(by, f, None));
    figure.or_else(|| context.piece_after(landed)).unwrap_or(PieceView::stone(Some(by)))
}

/// "a stone", "2 stones", "a white stone" (another side's), "the red stone", "queen".
fn noun(context: &EventContext, piece: PieceView, by: Side, count: u16) -> String {
    match (piece.owner, piece.shape) {
        (None, _) => "the red stone".to_string(),
        (Some(_), PieceShape::Figure { figure, .. }) => figure.name().to_string(),
        (Some(owner), _) if owner != by => {
            let colour = context.side(owner).to_lowercase();
            if count > 1 { format!("{count} {colour} stones") } else { format!("a {colour} stone") }
        }
        _ if count > 1 => format!("{count} stones"),
        _ => "a stone".to_string(),
    }
}

/// " on d6", " (c3, d3)" for a few spaces; nothing for many (the board shows them).
fn few_places(names: &[String]) -> String {
    match names {
        [one] => format!(" on {one}"),
        few if few.len() <= 4 => format!(" ({})", few.join(", ")),
        _ => String::new(),
    }
}

/// Removals of one `cause` from `cells`: the mover's own pieces "lost", another side's "removed"
/// or "took", figures that fell in a cascade named one by one.
fn removal(
    context: &EventContext,
    (earlier, group): (&[Effect], &[Effect]),
    cause: RemoveCause,
    cells: &[Cell],
    mover: Option<Side>,
) -> String {
    // What stood there: placed earlier in the move (a revealed figure that fell), else before it
    // (a stone a Throngs capture replaces is the one taken, not the one placed after).
    let pieces: Vec<PieceView> = cells.iter().filter_map(|&c| context.piece_removed(c, earlier)).collect();
    // As many stones as left each space (one of a stack for a Gravel removal or return), in
    // the colour of what stood there; the mover's own need no colour.
    let left: u16 = group
        .iter()
        .filter_map(|e| match e.kind {
            EffectKind::Removed { cell, count, cause: c } if c == cause && cells.contains(&cell) => Some(count),
            _ => None,
        })
        .sum();
    let owner = pieces.first().and_then(|p| p.owner).filter(|&o| pieces.iter().all(|p| p.owner == Some(o)));
    let stacked = pieces.iter().any(|p| p.height() > 1);
    let counted = match owner {
        Some(owner) if Some(owner) == mover => with_article(plural(usize::from(left), "stone")),
        Some(owner) if stacked => {
            with_article(plural(usize::from(left), &format!("{} stone", context.side(owner).to_lowercase())))
        }
        _ if pieces.is_empty() => with_article(plural(cells.len(), "piece")),
        _ => with_article(context.pieces_counted(&pieces)),
    };
    let names: Vec<String> = cells.iter().map(|&c| context.cell_name(c)).collect();
    let own = !pieces.is_empty() && pieces.iter().all(|p| p.owner.is_some() && p.owner == mover);
    match cause {
        RemoveCause::Unstable => {
            let fell: Vec<String> = cells
                .iter()
                .map(|&c| {
                    let piece = context
                        .piece_removed(c, earlier)
                        .map_or_else(|| "a piece".to_string(), |p| context.one_piece(p));
                    format!("{piece} on {}", context.cell_name(c))
                })
                .collect();
            format!("{} fell", join_words(&fell))
        }
        RemoveCause::Returned => format!("took {counted} back from {}", join_words(&names)),
        RemoveCause::Control if own => format!("lost {counted} on {}", join_words(&names)),
        RemoveCause::Control => format!("removed {counted} from {}", join_words(&names)),
        RemoveCause::SelfCapture => format!("lost {counted}{} (no room)", few_places(&names)),
        RemoveCause::Capture if own => format!("lost {counted}{}", few_places(&names)),
        RemoveCause::Capture => format!("took {counted}{}", few_places(&names)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;

    fn open(slug: &str, options: &[(&str, &str)], position: Option<&str>) -> Box<dyn DynGame> {
        let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        GameKind::named(slug).open(&options, position).unwrap()
    }

    /// The words of `decisions` from `game`, which then plays them.
    fn words(game: &mut Box<dyn DynGame>, decisions: &[&str]) -> String {
        let decisions: Vec<String> = decisions.iter().map(|d| d.to_string()).collect();
        let said = move_in_words(game.as_ref(), &decisions).unwrap_or_else(|| panic!("{decisions:?} do not play"));
        for d in &decisions {
            game.play_decision(d).unwrap();
        }
        said
    }

    #[test]
    fn a_gravel_turn_says_its_placements_together() {
        let mut game = open("gravel", &[], None);
        assert_eq!(words(&mut game, &["+d4", "end"]), "placed a stone on d4");
        assert_eq!(words(&mut game, &["+e5", "+e6", "end"]), "placed a stone on e5 and e6");
    }

    /// Random games of every game (small boards): every record move reads in words, and the words
    /// name every space a piece was placed on and every space that burned.
    #[test]
    fn every_move_of_random_games_says_where_pieces_went() {
        use crate::rules::{Status, pick_index, seeded};
        for kind in GameKind::all() {
            let options = kind.quick_pairs();
            let start = kind.open(&options, None).unwrap();
            let mut game = start.clone_box();
            let mut rng = seeded(7);
            let mut decisions = Vec::new();
            while game.status() == Status::Ongoing && decisions.len() < 400 {
                let side = match game.to_move() {
                    Some(ToMove::One(side)) => side,
                    _ => {
                        [Side::First, Side::Second].into_iter().find(|&s| !game.legal_decisions(s).is_empty()).unwrap()
                    }
                };
                let legal = game.legal_decisions(side);
                let pick = legal[pick_index(&mut rng, legal.len())].clone();
                game.play_decision(&pick).unwrap();
                decisions.push(pick);
            }
            let record = start.record_tokens(&decisions).unwrap();
            let mut before = start.clone_box();
            let mut first = 0;
            for m in &record.moves {
                let these = &decisions[first..m.end];
                let said = move_in_words(before.as_ref(), these).unwrap_or_else(|| panic!("{kind}: {these:?}"));
                let mut effects = Vec::new();
                for d in these {
                    effects.extend(before.play_decision(d).unwrap());
                }
                let named: Vec<Cell> = effects
                    .iter()
                    .filter_map(|e| match e.kind {
                        EffectKind::Placed { cell, .. } | EffectKind::Burned { cell } => Some(cell),
                        _ => None,
                    })
                    .collect();
                let view = before.board_view();
                for cell in named {
                    let name = &view.cells[usize::from(cell)].name;
                    assert!(said.contains(name.as_str()), "{kind}: {} ({these:?}) said {said:?}, not {name}", m.token);
                }
                assert_ne!(said, m.token, "{kind}: the words are the token");
                first = m.end;
            }
            assert!(record.moves.len() > 5, "{kind}: {} moves", record.moves.len());
        }
    }

    #[test]
    fn a_red_stone_says_what_it_captured_and_where() {
        let mut game = open("red-stone", &[("size", "5")], Some("...../...../...../X..../O.... b"));
        assert_eq!(words(&mut game, &["B1*"]), "placed the red stone on B1, took a white stone on A1");
    }

    #[test]
    fn a_throngs_part_that_travels_says_where_the_stone_went() {
        let mut game = open("throngs", &[], None);
        let said = words(&mut game, &["k9>", ">k10"]);
        assert_eq!(said, "moved k9 to k10");
    }

    #[test]
    fn a_reveal_names_each_side_and_what_burned() {
        let mut game = open("hidden-intention", &[], None);
        let said = words(&mut game, &["A:Q", "A:d4", "B:R", "B:e5"]);
        assert_eq!(said, "White's queen on d4, Black's rook on e5");
        let said = words(&mut game, &["A:P", "A:c2", "B:X", "B:c2"]);
        assert_eq!(said, "c2 burned (both chose it)");
    }

    #[test]
    fn a_travel_or_spread_with_no_path_says_nothing_and_ends() {
        let view = open("throngs", &[], None).board_view();
        let context =
            EventContext { kind: GameKind::named("throngs"), before: &view, after: &view, simultaneous: false };
        let effects = [
            Effect::new(0, EffectKind::Hopped { path: Vec::new(), by: Side::First }),
            Effect::new(0, EffectKind::Distributed { path: Vec::new(), by: Side::First }),
            Effect::new(0, EffectKind::Passed { side: Side::First }),
        ];
        assert_eq!(words_of(&context, &effects), "passed");
    }

    #[test]
    fn decisions_that_do_not_play_have_no_words() {
        let game = open("gravel", &[], None);
        assert_eq!(move_in_words(game.as_ref(), &["xd4".to_string()]), None);
    }
}
