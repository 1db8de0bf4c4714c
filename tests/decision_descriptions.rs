//! Every game describes its own decisions (`DynGame::legal_described`): checked against the
//! tokens' text, the board view and the effects the decisions produce, over seeded random games.

use std::collections::{BTreeSet, HashMap};
use stoneyard::games::{DynGame, GameKind};
use stoneyard::rules::{
    BoardView, Cell, DecisionInfo, DecisionKind, Effect, EffectKind, PieceShape, PieceView, RemoveCause, Side, ToMove,
    cells_in_token, pick_index, seeded,
};

/// Decisions of one random game at most: enough to reach every kind of decision (pie, staged
/// actions, removals, ends of turns) while keeping the whole file to a few seconds.
const DECISIONS_PER_GAME: usize = 400;
/// Decisions per position whose effects are checked by playing them (all when there are fewer).
const PLAYED_PER_POSITION: usize = 10;

/// One larger or unusual option set per game, besides its quick options.
fn odd_options(slug: &str) -> &'static [(&'static str, &'static str)] {
    match slug {
        "gravel" => &[("N", "5"), ("X", "9"), ("layout", "intersections")],
        "red-stone" => &[("size", "8")],
        "throngs" => &[("board", "Torus-8"), ("opening", "pie-2"), ("pass_rule", "legacy")],
        "inchworm" => &[("topology", "torus"), ("prisoner_drops", "on"), ("pieces", "25/23"), ("target", "12")],
        _ => &[],
    }
}

/// Option pairs as `GameKind::open` takes them.
fn pairs(options: &[(&str, &str)]) -> Vec<(String, String)> {
    options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// The option sets every game is checked with: its quick options and its odd set (once when they
/// are the same, as for a game without options).
fn option_sets(kind: GameKind) -> Vec<Vec<(String, String)>> {
    let mut sets = vec![kind.quick_pairs()];
    let odd = pairs(odd_options(kind.slug()));
    if !sets.contains(&odd) {
        sets.push(odd);
    }
    sets
}

/// The cells of a board view by cell number, with their names.
fn names(view: &BoardView) -> HashMap<Cell, String> {
    view.cells.iter().map(|c| (c.cell, c.name.clone())).collect()
}

/// The names of `cells`; a cell the board view does not have fails the test.
fn named(view: &HashMap<Cell, String>, cells: &[Cell], what: &str, d: &DecisionInfo) -> Vec<String> {
    cells
        .iter()
        .map(|c| {
            view.get(c).cloned().unwrap_or_else(|| panic!("{}: {what} cell {c} is not on the board view", d.token))
        })
        .collect()
}

/// The kind a token of this game must have, read from its text (the oracle the descriptions are
/// held to; the descriptions themselves never read the text).
fn kind_from_text(slug: &str, token: &str) -> DecisionKind {
    use DecisionKind::*;
    match token {
        "pass" => return Pass,
        "end" => return End,
        "swap" => return Swap,
        _ if token.starts_with("choose ") => return Choose,
        _ => {}
    }
    let first = token.chars().next().unwrap_or(' ');
    match slug {
        "gravel" => match first {
            '+' => Place,
            '-' => Return,
            'x' => Remove,
            _ if token.contains('>') => Move,
            _ => panic!("unknown Gravel token {token}"),
        },
        "red-stone" => Place,
        "throngs" => match first {
            _ if token.contains(':') => Place,
            '+' => Place,
            'x' => Remove,
            _ if token.contains('>') => Move,
            _ => panic!("unknown Throngs token {token}"),
        },
        "inchworm" => match first {
            'D' | 'P' => Place,
            'C' | 'S' | '-' | '>' => Move,
            'R' => Return,
            _ => panic!("unknown Inchworm token {token}"),
        },
        "hidden-intention" => {
            let stage = token.split_once(':').map_or("", |(_, s)| s);
            if stage.contains("<>") {
                Swap
            } else if stage.starts_with('/') || stage.len() == 1 {
                Choose
            } else {
                Place
            }
        }
        _ => panic!("no kind oracle for the game {slug}: add its tokens here"),
    }
}

/// Whether a token continues an action begun by earlier decisions, so that its description spans
/// more spaces than the token names (see `DecisionInfo`): a Throngs destination `>g6`, an
/// Inchworm step `-a7` or collect target `>f3`, a Hidden Intention knight facing `A:/ne`.
fn continues_an_action(slug: &str, token: &str) -> bool {
    match slug {
        "throngs" => token.starts_with('>'),
        "inchworm" => token.starts_with('-') || token.starts_with('>'),
        "hidden-intention" => token.contains(":/"),
        _ => false,
    }
}

/// What a walk through one random game remembers between positions: Hidden Intention's staged
/// target and figure of each side, to check the later stages and the revealed board against.
#[derive(Default)]
struct Staged {
    target: [Option<Cell>; 2],
    piece: [Option<PieceView>; 2],
}

/// What the walks met, per game (`kind Place`, `continues`, `effect Hopped`, `revealed`…), so
/// that the test fails if its random games stop reaching a kind of decision it means to check.
type Seen = HashMap<&'static str, BTreeSet<String>>;

/// Checks every legal decision of `side` here; plays some of them to check their effects.
fn check_side(game: &dyn DynGame, side: Side, staged: &Staged, rng: &mut stoneyard::rules::GameRng, seen: &mut Seen) {
    let slug = game.kind().slug();
    let tokens = game.legal_decisions(side);
    let described = game.legal_described(side);
    let described_tokens: Vec<&str> = described.iter().map(|d| d.token.as_str()).collect();
    assert_eq!(described_tokens, tokens, "{slug}: legal_described lists legal_decisions in order");
    let view = game.board_view();
    let cell_names = names(&view);
    let sequential = matches!(game.to_move(), Some(ToMove::One(_)));
    // Every decision of a rarer kind is played, and a sample of the many places and moves.
    let mut played: BTreeSet<usize> = (0..described.len())
        .filter(|&i| !matches!(described[i].kind, DecisionKind::Place | DecisionKind::Move))
        .collect();
    if described.len() <= PLAYED_PER_POSITION {
        played.extend(0..described.len());
    } else {
        played.extend((0..PLAYED_PER_POSITION).map(|_| pick_index(rng, described.len())));
    }
    for (i, d) in described.iter().enumerate() {
        let token = d.token.as_str();
        let context = format!("{slug} at '{}': {token}", game.position_text());
        let met = seen.entry(slug).or_default();
        met.insert(format!("kind {:?}", d.kind));
        assert_eq!(game.describe_decision(token).as_ref(), Some(d), "{context}: describe_decision agrees");
        assert_eq!(d.side, side, "{context}: side");
        assert_eq!(d.kind, kind_from_text(slug, token), "{context}: kind");
        // The picks are exactly the spaces the token names, in order: what the app matches clicks
        // against today.
        let in_token = cells_in_token(token);
        assert_eq!(named(&cell_names, &d.picks, "picked", d), in_token, "{context}: picks");
        let spaces = named(&cell_names, &d.spaces(), "spanned", d);
        if continues_an_action(slug, token) {
            met.insert("continues".into());
            check_continuation(game, &view, d, &spaces, staged, &context);
        } else {
            assert_eq!(spaces, in_token, "{context}: from, through, to are the token's spaces");
        }
        for &cell in &d.removes {
            let piece = view.cells.iter().find(|c| c.cell == cell).and_then(|c| c.piece);
            assert!(piece.is_some(), "{context}: removes {cell}, which holds no piece");
        }
        let removes_enemy = !d.removes.is_empty() && d.kind != DecisionKind::Return;
        assert_eq!(d.captures, removes_enemy || (slug == "red-stone" && token.ends_with('*')), "{context}");
        assert_eq!(
            d.pie,
            token == "swap" || token.starts_with("choose ") || (slug == "throngs" && token.contains(':')),
            "{context}: pie"
        );
        if sequential && played.contains(&i) {
            for effect in check_effects(game, &view, d, &context) {
                seen.entry(slug).or_default().insert(format!("effect {}", effect.kind_name()));
            }
        }
    }
}

/// A decision that continues an action: it picks the one space its token names and spans the
/// action's earlier spaces too, which the position shows.
fn check_continuation(
    game: &dyn DynGame,
    view: &BoardView,
    d: &DecisionInfo,
    spaces: &[String],
    staged: &Staged,
    context: &str,
) {
    let slug = game.kind().slug();
    match slug {
        "throngs" => {
            // From the site of the stone under way, landing only on empty sites, to the pick.
            let travelling = view.cells.iter().find(|c| c.marks.travelling.is_some()).map(|c| c.cell);
            assert_eq!(d.from, travelling, "{context}: a destination starts where the stone under way is");
            assert_eq!(d.to, d.picks.first().copied(), "{context}");
            for cell in &d.through {
                let landing = view.cells.iter().find(|c| c.cell == *cell);
                assert!(landing.is_some_and(|c| c.piece.is_none()), "{context}: lands on {cell}, not empty");
            }
            assert!(d.to != d.from || d.through.is_empty(), "{context}: staying put goes nowhere between");
        }
        "inchworm" => {
            // The position text ends with the action chosen so far (`Sd4-d5`, `Cd4-d5`).
            let text = game.position_text();
            let so_far = text.rsplit(' ').next().filter(|t| t.starts_with('S') || t.starts_with('C'));
            let so_far = so_far.unwrap_or_else(|| panic!("{context}: no action under way in the position text"));
            let mut expected: Vec<&str> = cells_in_token(so_far);
            let picked = cells_in_token(&d.token);
            expected.extend(picked);
            assert_eq!(spaces, expected, "{context}: from the first chosen cell through the others to the pick");
        }
        "hidden-intention" => {
            assert!(d.picks.is_empty() && d.through.is_empty() && d.to.is_none(), "{context}");
            assert_eq!(d.from, staged.target[d.side.index()], "{context}: a facing is chosen on the knight's square");
        }
        _ => unreachable!("{slug} has no continuing decisions"),
    }
}

/// The shape of a piece without its size (a stack of any height, a stone, a figure of any kind).
fn shape_class(piece: &PieceView) -> u8 {
    match piece.shape {
        PieceShape::Stone => 0,
        PieceShape::Stack { .. } => 1,
        PieceShape::Figure { .. } => 2,
    }
}

/// Plays `d` on a copy and holds its description to what the game then reports; returns the
/// effects.
fn check_effects(game: &dyn DynGame, before: &BoardView, d: &DecisionInfo, context: &str) -> Vec<Effect> {
    let mut after = game.clone_box();
    let effects = after.play_decision(&d.token).unwrap_or_else(|e| panic!("{context}: a legal decision plays: {e}"));
    let now: Vec<&Effect> = effects.iter().filter(|e| e.wave == 0).collect();
    let mut removed: BTreeSet<Cell> = BTreeSet::new();
    let mut placed_at = None;
    for e in &now {
        match &e.kind {
            EffectKind::Moved { from, to, .. } => {
                assert_eq!((d.from, d.to), (Some(*from), Some(*to)), "{context}: Moved");
            }
            EffectKind::Hopped { path, .. } | EffectKind::Distributed { path, .. } => {
                assert_eq!(&d.spaces(), path, "{context}: the travel or spread path");
            }
            EffectKind::Collected { from, to, .. } => {
                assert_eq!(d.to, Some(*to), "{context}: the collect's target");
                let mut gathered: BTreeSet<Cell> = from.iter().copied().collect();
                gathered.insert(*to);
                assert_eq!(gathered, d.spaces().into_iter().collect(), "{context}: the collected stacks");
            }
            EffectKind::Placed { cell, .. } => {
                assert_eq!(d.from, Some(*cell), "{context}: placed where the decision starts");
                placed_at = Some(*cell);
            }
            EffectKind::Removed { cell, cause, .. } => {
                assert!(matches!(cause, RemoveCause::Returned | RemoveCause::Control), "{context}: {cause:?}");
                assert_eq!(*cause == RemoveCause::Returned, d.kind == DecisionKind::Return, "{context}: {cause:?}");
                removed.insert(*cell);
            }
            EffectKind::Captured { cells, .. } => removed.extend(cells.iter().copied()),
            EffectKind::PieSwap { .. } => assert!(d.pie, "{context}: a pie swap is a pie decision"),
            EffectKind::Passed { .. } => assert_eq!(d.kind, DecisionKind::Pass, "{context}"),
            _ => {}
        }
    }
    // What the decision itself removes is removed at once once its action completes (a Throngs
    // capture whose stone may still travel reports nothing until its destination).
    if !effects.is_empty() {
        assert_eq!(removed, d.removes.iter().copied().collect(), "{context}: the removed spaces");
    }
    // A red stone captures in the next wave; nothing else in Red Stone does.
    if game.kind().slug() == "red-stone" {
        let captured = effects.iter().any(|e| matches!(e.kind, EffectKind::Captured { .. }));
        assert_eq!(captured, d.captures, "{context}: a red stone and only a red stone captures");
    }
    // The placed piece shows where it lands, unless a later wave took it away again.
    if let (Some(at), Some(piece)) = (placed_at, d.piece) {
        let lands = d.to.unwrap_or(at);
        let taken_later = effects.iter().any(|e| match &e.kind {
            EffectKind::Captured { cells, .. } => e.wave > 0 && cells.contains(&lands),
            EffectKind::Removed { cell, .. } => e.wave > 0 && *cell == lands,
            _ => false,
        });
        let shown = after.board_view().cells.iter().find(|c| c.cell == lands).and_then(|c| c.piece);
        if !taken_later {
            let shown = shown.unwrap_or_else(|| panic!("{context}: nothing stands on {lands} after placing"));
            assert_eq!((shown.owner, shape_class(&shown)), (piece.owner, shape_class(&piece)), "{context}");
            if game.kind().slug() == "red-stone" {
                assert_eq!(shown, piece, "{context}: the stone drawn is the stone described");
            }
        }
    }
    if d.kind == DecisionKind::Move && d.to.is_some() && d.piece.is_none() {
        // A move starts from a space of the mover's (a Throngs friendly move, a Gravel move, an
        // Inchworm collect or distribution).
        let origin = before.cells.iter().find(|c| Some(c.cell) == d.from).and_then(|c| c.piece);
        assert_eq!(origin.and_then(|p| p.owner), Some(d.side), "{context}: moves the mover's own piece");
    }
    effects
}

/// Walks one seeded random game, checking every position on the way.
fn walk(kind: GameKind, options: &[(String, String)], seed: u64, seen: &mut Seen) -> usize {
    let mut game = kind.open(options, None).unwrap_or_else(|e| panic!("{} {options:?}: {e}", kind.slug()));
    let mut rng = seeded(seed);
    let mut staged = Staged::default();
    let mut checked = 0;
    for _ in 0..DECISIONS_PER_GAME {
        let sides: Vec<Side> = match game.to_move() {
            None => break,
            Some(ToMove::One(side)) => vec![side],
            Some(ToMove::Both) => Side::BOTH.to_vec(),
        };
        for &side in &sides {
            check_side(game.as_ref(), side, &staged, &mut rng, seen);
            checked += 1;
        }
        let choices: Vec<DecisionInfo> = sides.iter().flat_map(|&s| game.legal_described(s)).collect();
        if choices.is_empty() {
            break;
        }
        let d = choices[pick_index(&mut rng, choices.len())].clone();
        let effects = game.play_decision(&d.token).expect("a legal decision plays");
        if kind.slug() == "hidden-intention" && follow_commitment(game.as_ref(), &d, &effects, &mut staged) {
            seen.entry(kind.slug()).or_default().insert("revealed".into());
        }
    }
    checked
}

/// Hidden Intention: remembers each side's staged figure and target, checks that the target is
/// described with the figure chosen before it, and that a revealed figure is the one described;
/// returns whether a revealed figure was compared.
fn follow_commitment(game: &dyn DynGame, d: &DecisionInfo, effects: &[Effect], staged: &mut Staged) -> bool {
    let i = d.side.index();
    match d.kind {
        DecisionKind::Choose if d.from.is_none() => staged.piece[i] = d.piece,
        DecisionKind::Place => {
            assert_eq!(d.piece, staged.piece[i], "{}: the target carries the chosen figure", d.token);
            staged.target[i] = d.from;
        }
        // A knight's facing completes its figure.
        DecisionKind::Choose => staged.piece[i] = d.piece,
        _ => {}
    }
    if effects.is_empty() {
        return false;
    }
    let mut compared = false;
    // Revealed: a figure of the side on its target square is the one it described (a burned
    // attempt places nothing, a cascade may take the figure away).
    let view = game.board_view();
    for side in Side::BOTH {
        let (Some(target), Some(piece)) = (staged.target[side.index()], staged.piece[side.index()]) else { continue };
        let shown = view.cells.iter().find(|c| c.cell == target).and_then(|c| c.piece);
        if let Some(shown) = shown.filter(|p| p.owner == Some(side)) {
            assert_eq!(shown, piece, "the revealed figure of {side:?} on {target} is the one described");
            compared = true;
        }
    }
    *staged = Staged::default();
    compared
}

#[test]
fn every_game_describes_every_legal_decision_as_its_token_and_effects_say() {
    let mut total = 0;
    let mut seen = Seen::new();
    for kind in GameKind::all() {
        for options in option_sets(kind) {
            for seed in [1, 2] {
                let checked = walk(kind, &options, seed * 7919 + kind.slug().len() as u64, &mut seen);
                assert!(
                    checked > 10,
                    "{} {options:?}: the random game was checked at {checked} positions",
                    kind.slug()
                );
                total += checked;
            }
        }
    }
    assert!(total > 1000, "{total} positions checked");
    // The walks must keep reaching every kind of decision they are meant to check.
    let required: &[(&str, &[&str])] = &[
        (
            "gravel",
            &["kind Place", "kind Move", "kind Return", "kind Remove", "kind End", "effect Moved", "effect Removed"],
        ),
        ("red-stone", &["kind Place", "kind Swap", "effect Captured", "effect PieSwap"]),
        (
            "throngs",
            &[
                "kind Place",
                "kind Remove",
                "kind Move",
                "kind Pass",
                "kind Choose",
                "continues",
                "effect Hopped",
                "effect Captured",
                "effect PieSwap",
            ],
        ),
        (
            "inchworm",
            &[
                "kind Place",
                "kind Move",
                "kind Return",
                "continues",
                "effect Collected",
                "effect Distributed",
                "effect Rescued",
            ],
        ),
        ("hidden-intention", &["kind Choose", "kind Place", "kind Swap", "continues", "revealed"]),
    ];
    for (slug, labels) in required {
        let met = seen.get(slug).cloned().unwrap_or_default();
        let missing: Vec<&&str> = labels.iter().filter(|l| !met.contains(**l)).collect();
        assert!(missing.is_empty(), "{slug}: the random games never met {missing:?}");
    }
}

/// The description of `token` in the game reached by playing `decisions` from the options' start.
fn described_after(slug: &str, options: &[(&str, &str)], decisions: &[&str], token: &str) -> DecisionInfo {
    let mut game = GameKind::named(slug).open(&pairs(options), None).expect("the options open");
    for d in decisions {
        game.play_decision(d).unwrap_or_else(|e| panic!("{d}: {e}"));
    }
    let side = match game.to_move() {
        Some(ToMove::One(side)) => side,
        _ => Side::BOTH.into_iter().find(|&s| game.legal_decisions(s).contains(&token.to_string())).expect(token),
    };
    let d = game.describe_decision(token).unwrap_or_else(|| panic!("{token} does not read"));
    assert!(game.legal_described(side).contains(&d), "{token} is legal and described alike in the list");
    d
}

/// The cell of `name` on the board of `slug` with `options`.
fn cell(slug: &str, options: &[(&str, &str)], name: &str) -> Cell {
    let game = GameKind::named(slug).open(&pairs(options), None).expect("the options open");
    game.board_view().cell_named(name).unwrap_or_else(|| panic!("no {name}")).cell
}

#[test]
fn known_tokens_have_their_kinds_spaces_and_pieces() {
    let gravel = |n| cell("gravel", &[("N", "4")], n);
    let d = described_after("gravel", &[("N", "4")], &["+a1", "+b1"], "a1>b1");
    assert_eq!(
        (d.kind, d.from, d.to, d.picks.clone()),
        (DecisionKind::Move, Some(gravel("a1")), Some(gravel("b1")), vec![gravel("a1"), gravel("b1")])
    );
    let d = described_after("gravel", &[("N", "4")], &["+a1"], "end");
    assert_eq!((d.kind, d.is_spaceless(), d.side), (DecisionKind::End, true, Side::First));
    let d = described_after("gravel", &[("N", "4")], &["+a1"], "-a1");
    assert_eq!((d.kind, d.removes.clone(), d.captures), (DecisionKind::Return, vec![gravel("a1")], false));

    let red = &[("size", "5")];
    let d = described_after("red-stone", red, &["C3"], "swap");
    assert_eq!((d.kind, d.pie, d.side, d.is_spaceless()), (DecisionKind::Swap, true, Side::Second, true));
    let d = described_after("red-stone", red, &[], "C3");
    assert_eq!(d.piece, Some(PieceView::stone(Some(Side::First))));
    assert!(!d.captures && !d.pie);

    // Throngs' pie: the first seat offers a black stone then two white ones, the second chooses.
    let mut throngs =
        GameKind::named("throngs").open(&pairs(&[("board", "R63"), ("opening", "pie")]), None).expect("opens");
    for colour in [Side::First, Side::Second, Side::Second] {
        let offer = throngs.legal_described(Side::First)[0].clone();
        assert_eq!((offer.kind, offer.pie, offer.side), (DecisionKind::Place, true, Side::First), "{}", offer.token);
        assert_eq!(offer.piece, Some(PieceView::stone(Some(colour))), "{}", offer.token);
        throngs.play_decision(&offer.token).expect("an offered stone plays");
    }
    let choices = throngs.legal_described(Side::Second);
    let summary: Vec<(&str, DecisionKind, bool, Option<PieceView>)> =
        choices.iter().map(|d| (d.token.as_str(), d.kind, d.pie && d.is_spaceless(), d.piece)).collect();
    assert_eq!(
        summary,
        [
            ("choose Black", DecisionKind::Choose, true, Some(PieceView::stone(Some(Side::First)))),
            ("choose White", DecisionKind::Choose, true, Some(PieceView::stone(Some(Side::Second)))),
        ]
    );

    let hidden = |decisions: &[&str], token: &str| described_after("hidden-intention", &[], decisions, token);
    let hi = |n| cell("hidden-intention", &[], n);
    let d = hidden(&[], "A:N");
    assert_eq!((d.kind, d.is_spaceless(), d.from), (DecisionKind::Choose, true, None));
    assert_eq!(d.piece, Some(PieceView::figure(Side::First, stoneyard::rules::Figure::Knight, None)));
    let d = hidden(&["A:N"], "A:d4");
    assert_eq!((d.kind, d.from, d.picks.clone()), (DecisionKind::Place, Some(hi("d4")), vec![hi("d4")]));
    let d = hidden(&["A:N", "A:d4"], "A:/ne");
    assert_eq!((d.kind, d.from, d.is_spaceless()), (DecisionKind::Choose, Some(hi("d4")), true));
    assert_eq!(d.piece, Some(PieceView::figure(Side::First, stoneyard::rules::Figure::Knight, Some(1))));
    let d = hidden(&["B:X"], "B:e5");
    assert_eq!(d.piece, Some(PieceView::figure(Side::Second, stoneyard::rules::Figure::DiagonalPawn, None)));
    // Two figures of A on the board, then a swap of them: from and to are its two squares.
    let mut game = GameKind::named("hidden-intention").open(&[], None).expect("opens");
    for figure in ["Q", "R"] {
        for side in Side::BOTH {
            let letter = ["A", "B"][side.index()];
            game.play_decision(&format!("{letter}:{figure}")).expect("a figure from the full supply");
            // A from the first square up, B from the last down, so the attempts do not burn.
            let targets = game.legal_decisions(side);
            let target = if side == Side::First { targets.first() } else { targets.last() };
            let target = target.expect("a target square").clone();
            game.play_decision(&target).expect("a legal target");
        }
    }
    let swap = game.legal_described(Side::First).into_iter().find(|d| d.token.contains("<>"));
    let swap = swap
        .unwrap_or_else(|| panic!("A may swap at {}: {:?}", game.position_text(), game.legal_decisions(Side::First)));
    let squares: Vec<Cell> = cells_in_token(&swap.token).into_iter().map(hi).collect();
    assert_eq!((swap.kind, swap.pie), (DecisionKind::Swap, false));
    assert_eq!((swap.from, swap.to), (Some(squares[0]), Some(squares[1])));
}

#[test]
fn staged_inchworm_actions_span_the_cells_chosen_before() {
    let quick = &[("target", "4")];
    let iw = |n| cell("inchworm", quick, n);
    // Black builds a stack of three on d4 and spreads it: the last cell spans the whole path.
    let build = ["Dd4", "Da1", "Dd4", "Da2", "Dd4", "Dh8"];
    let d = described_after("inchworm", quick, &build, "Sd4");
    assert_eq!((d.kind, d.from, d.to), (DecisionKind::Move, Some(iw("d4")), None));
    let mut spread: Vec<&str> = build.to_vec();
    spread.extend(["Sd4", "-e5"]);
    let d = described_after("inchworm", quick, &spread, "-f6");
    assert_eq!(
        (d.from, d.through.clone(), d.to, d.picks.clone()),
        (Some(iw("d4")), vec![iw("e5")], Some(iw("f6")), vec![iw("f6")])
    );
    // A collect of three stacks onto the middle one: what its record token `Cd4-e4-f4>e4` names.
    let row = ["Dd4", "Da1", "De4", "Da3", "Df4", "Dh8", "Cd4", "-e4", "-f4"];
    let d = described_after("inchworm", quick, &row, ">e4");
    let spaces: Vec<Cell> = ["d4", "e4", "f4", "e4"].into_iter().map(iw).collect();
    assert_eq!(d.spaces(), spaces);
    assert_eq!(d.picks, vec![iw("e4")]);
}

#[test]
fn readable_tokens_are_described_canonically_and_unreadable_ones_are_not() {
    let gravel = GameKind::named("gravel").open(&pairs(&[("N", "4")]), None).expect("opens");
    assert_eq!(gravel.describe_decision("+A1").map(|d| d.token), Some("+a1".to_string()));
    assert_eq!(gravel.describe_decision("PASS").map(|d| d.kind), Some(DecisionKind::Pass));
    // Off the board, a turn string or nonsense: not decisions.
    for token in ["+e5", "+a1,+b1", "+a1*2", "x", "", "zz9"] {
        assert_eq!(gravel.describe_decision(token), None, "{token}");
    }
    // Odd texts never panic, in any game and any position a game can be in.
    let odd = [
        "",
        ">",
        "-",
        "x",
        ":",
        "A:",
        "B:/zz",
        ">a1",
        "-h8",
        "Sh8",
        "Ch8",
        "R",
        "P",
        "A:h8<>a1",
        "A:a1<>a1",
        "W:a1",
        "B:z99",
        "choose Red",
        "a1>",
        "Z9*",
        "C3*x5",
        "swap",
        "end",
        "pass",
        "\u{e9}9",
        "+a1>b2",
        "a1>b1>c1",
    ];
    for kind in GameKind::all() {
        for options in option_sets(kind) {
            let mut game = kind.open(&options, None).expect("opens");
            let mut rng = seeded(3);
            for _ in 0..60 {
                for token in odd {
                    let _ = game.describe_decision(token);
                }
                let sides: Vec<Side> =
                    Side::BOTH.into_iter().filter(|&s| !game.legal_decisions(s).is_empty()).collect();
                let Some(&side) = sides.first() else { break };
                let legal = game.legal_decisions(side);
                let d = legal[pick_index(&mut rng, legal.len())].clone();
                game.play_decision(&d).expect("a legal decision plays");
            }
        }
    }
}
