//! Decisions in words for the choice list and the HUD buttons ("Red stone on C3", "End turn"),
//! from each game's atomic decision tokens; the token itself stays visible in brackets.

use crate::games::GameKind;
use crate::rules::{CellView, HintMark, Side};

/// A player-readable label for the atomic decision `token` of `kind`; `mover` names the side
/// ("Black") for decisions that place its own colour.
pub fn decision_label(kind: GameKind, token: &str, mover: &str) -> String {
    let words = match kind {
        GameKind::RedStone => red_stone(token, mover),
        GameKind::Gravel => gravel(token),
        GameKind::Throngs => throngs(token),
        GameKind::Inchworm => inchworm(token),
        GameKind::HiddenIntention => hidden_intention(token),
    };
    match words {
        Some(w) if w != token => format!("{w}  ({token})"),
        _ => token.to_string(),
    }
}

/// What the board says about the space under the cursor, in words: its name, what stands there,
/// and the game's number for it (Throngs: the power of the site for the side to move; Hidden
/// Intention: its influence), control and hints. `side_name` names a side as the HUD does.
pub fn space_summary(kind: GameKind, cell: &CellView, mover: Side, side_name: impl Fn(Side) -> String) -> String {
    let mut parts = vec![cell.name.clone()];
    if let Some(piece) = &cell.piece {
        let owner = piece.owner.map(&side_name).unwrap_or_else(|| "red".to_string());
        parts.push(match (kind, piece.count) {
            (GameKind::HiddenIntention, _) => format!("{owner} {}", figure_name(piece.kind)),
            (_, 1) => format!("{owner} stone"),
            (_, n) => format!("{owner} stack of {n}"),
        });
    } else if cell.marks.burned {
        parts.push("burned".to_string());
    } else {
        parts.push("empty".to_string());
    }
    if let Some(v) = cell.marks.value {
        parts.push(match kind {
            GameKind::Throngs => format!("power {v} for {}", side_name(mover)),
            GameKind::HiddenIntention => {
                let leaning = match v.signum() {
                    1 => format!(" ({})", side_name(Side::First)),
                    -1 => format!(" ({})", side_name(Side::Second)),
                    _ => String::new(),
                };
                if v == 0 { "influence 0".to_string() } else { format!("influence {v:+}{leaning}") }
            }
            _ => format!("value {v:+}"),
        });
    } else if let (GameKind::Gravel, Some(side)) = (kind, cell.marks.control) {
        parts.push(format!("controlled by {}", side_name(side)));
    }
    match cell.marks.hint {
        Some(HintMark::InDanger) => parts.push("one liberty left".to_string()),
        Some(HintMark::Eye(Some(side))) => parts.push(format!("{} eye", side_name(side))),
        Some(HintMark::Eye(None)) => parts.push("red eye".to_string()),
        None => {}
    }
    parts.join(" · ")
}

/// The square a Hidden Intention attempt burned (`"Pc6|Xc6"` → `c6`): both commitments named the
/// same target (spec §6.6). A swap names two squares before the target, so the target is the last
/// square of each side's commitment.
pub fn burned_square(attempt: &str) -> Option<&str> {
    fn target(commitment: &str) -> Option<&str> {
        crate::rules::cells_in_token(commitment).last().copied()
    }
    let (a, b) = attempt.split_once('|')?;
    let square = target(a)?;
    (target(b)? == square).then_some(square)
}

/// Hidden Intention's figure codes (spec §4) in words.
fn figure_name(code: char) -> String {
    match code.to_ascii_uppercase() {
        'Q' => "queen".into(),
        'R' => "rook".into(),
        'B' => "bishop".into(),
        'N' => "knight".into(),
        'P' => "pawn".into(),
        'X' => "diagonal pawn".into(),
        other => format!("figure {other}"),
    }
}

fn red_stone(token: &str, mover: &str) -> Option<String> {
    if token.eq_ignore_ascii_case("swap") {
        return Some("Swap colours (take Black's stone)".into());
    }
    match token.strip_suffix('*') {
        Some(point) => Some(format!("Red stone on {point}")),
        None => Some(format!("{mover} stone on {token}")),
    }
}

fn gravel(token: &str) -> Option<String> {
    Some(match token {
        "end" => "End turn".into(),
        "pass" => "Pass".into(),
        _ => {
            if let Some(t) = token.strip_prefix('+') {
                format!("Place a piece on {t}")
            } else if let Some(s) = token.strip_prefix('-') {
                format!("Return a piece from {s} to the pool")
            } else if let Some(s) = token.strip_prefix('x') {
                format!("Remove an enemy piece from {s}")
            } else {
                let (from, to) = token.split_once('>')?;
                format!("Move a piece {from} → {to}")
            }
        }
    })
}

fn throngs(token: &str) -> Option<String> {
    if token == "pass" {
        return Some("Pass".into());
    }
    if let Some(colour) = token.strip_prefix("choose ") {
        return Some(if colour.eq_ignore_ascii_case("black") {
            "Take Black (move first)".into()
        } else {
            "Take White (Black moves first)".into()
        });
    }
    if let Some(site) = token.strip_prefix("B:") {
        return Some(format!("Offer a black stone on {site}"));
    }
    if let Some(site) = token.strip_prefix("W:") {
        return Some(format!("Offer a white stone on {site}"));
    }
    if let Some(site) = token.strip_prefix('+') {
        return Some(format!("Place on {site}"));
    }
    if let Some(site) = token.strip_prefix('x') {
        return Some(format!("Capture on {site}"));
    }
    if let Some(site) = token.strip_prefix('>') {
        return Some(format!("Travel to {site}"));
    }
    token.strip_suffix('>').map(|site| format!("Move the stone on {site}"))
}

fn inchworm(token: &str) -> Option<String> {
    let (head, rest) = token.split_at(token.chars().next().map_or(0, char::len_utf8));
    Some(match head {
        _ if token == "pass" => "Pass".into(),
        "R" if rest.is_empty() => "Rescue a prisoner".into(),
        "D" => format!("Drop a stone on {rest}"),
        "P" => format!("Place a stone on {rest}"),
        "C" => format!("Collect, starting at {rest}"),
        "S" => format!("Distribute from {rest}"),
        "-" => format!("Continue through {rest}"),
        ">" => format!("Collect onto {rest}"),
        _ => return None,
    })
}

fn hidden_intention(token: &str) -> Option<String> {
    let (_, stage) = token.split_once(':')?;
    if let Some((a, b)) = stage.split_once("<>") {
        return Some(format!("Swap the figures on {a} and {b}"));
    }
    if let Some(facing) = stage.strip_prefix('/') {
        return Some(format!("Knight facing {}", facing.to_uppercase()));
    }
    let figure = match stage {
        "P" => "Pawn",
        "X" => "Pawn (diagonal)",
        "R" => "Rook",
        "B" => "Bishop",
        "N" => "Knight",
        "Q" => "Queen",
        square => return Some(format!("On {square}")),
    };
    Some(figure.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_space_under_the_cursor_is_described_from_the_engines_view() {
        use crate::games::open;
        let name = |s: Side| if s == Side::First { "Black".to_string() } else { "White".to_string() };
        // Throngs (T93 start): k9 holds Black's stone; the power number is the engine's.
        let throngs = open(GameKind::Throngs, &[], None).unwrap();
        let view = throngs.board_view().unwrap();
        let k9 = view.cells.iter().find(|c| c.name == "k9").unwrap();
        let power = k9.marks.value.unwrap();
        assert_eq!(
            space_summary(GameKind::Throngs, k9, Side::First, name),
            format!("k9 · Black stone · power {power} for Black")
        );
        // Red Stone S3: a stone in atari and an eye say so.
        let options = [("size".to_string(), "5".to_string())];
        let s3 = open(GameKind::RedStone, &options, Some(".OXO./.OXO./.O.XR/.XOOR/..XX. w")).unwrap();
        let view = s3.board_view().unwrap();
        let at = |n: &str| view.cells.iter().find(|c| c.name == n).unwrap();
        assert_eq!(
            space_summary(GameKind::RedStone, at("D3"), Side::Second, name),
            "D3 · Black stone · one liberty left"
        );
        assert_eq!(space_summary(GameKind::RedStone, at("E1"), Side::Second, name), "E1 · empty · Black eye");
        assert_eq!(space_summary(GameKind::RedStone, at("E2"), Side::Second, name), "E2 · red stone");
        // Hidden Intention: an empty square's influence, and who it leans to.
        let mut hi = open(GameKind::HiddenIntention, &[], None).unwrap();
        hi.play_token("Qd4|Re5").unwrap();
        let view = hi.board_view().unwrap();
        let d4 = view.cells.iter().find(|c| c.name == "d4").unwrap();
        let text = space_summary(GameKind::HiddenIntention, d4, Side::First, |s| {
            if s == Side::First { "A".into() } else { "B".into() }
        });
        assert!(text.starts_with("d4 · A queen · influence +"), "{text}");
        assert!(text.ends_with("(A)"), "{text}");
    }

    #[test]
    fn a_burn_is_both_commitments_on_one_square() {
        // Spec example 2 (a burn), example 9 (a burn with a swap), example 1 (no burn).
        assert_eq!(burned_square("Pc6|Xc6"), Some("c6"));
        assert_eq!(burned_square("Pe5|d6<>h1 Pe5"), Some("e5"));
        assert_eq!(burned_square("Qd4|Re5"), None);
        assert_eq!(burned_square("c3<>f4 Pf6|Pb6"), None);
        assert_eq!(burned_square("Nc4/ne|Pc4"), Some("c4"));
        assert_eq!(burned_square("pass"), None);
    }

    #[test]
    fn labels_name_the_action_and_keep_the_token() {
        assert_eq!(decision_label(GameKind::RedStone, "C3*", "Black"), "Red stone on C3  (C3*)");
        assert_eq!(decision_label(GameKind::RedStone, "C3", "White"), "White stone on C3  (C3)");
        assert_eq!(decision_label(GameKind::Gravel, "b2>c2", ""), "Move a piece b2 → c2  (b2>c2)");
        assert_eq!(decision_label(GameKind::Gravel, "end", ""), "End turn  (end)");
        assert_eq!(decision_label(GameKind::Throngs, "choose Black", ""), "Take Black (move first)  (choose Black)");
        assert_eq!(decision_label(GameKind::Inchworm, "R", ""), "Rescue a prisoner  (R)");
        assert_eq!(
            decision_label(GameKind::HiddenIntention, "A:c3<>f4", ""),
            "Swap the figures on c3 and f4  (A:c3<>f4)"
        );
        assert_eq!(decision_label(GameKind::HiddenIntention, "B:N", ""), "Knight  (B:N)");
    }

    #[test]
    fn an_unknown_token_is_shown_as_it_is() {
        assert_eq!(decision_label(GameKind::Gravel, "zz", ""), "zz");
        assert_eq!(decision_label(GameKind::HiddenIntention, "nonsense", ""), "nonsense");
    }
}
