//! Decisions and spaces in words for the choice list, the panel's buttons and its readout of the
//! space under the cursor ("Red stone on C3", "f6 · empty · power 6 for Black"). Each game gives
//! the words of its own decisions (`About::decision_words`); the rule books' notation stays in the
//! move list's switch and in records, not in these words ("(A:Q)" read as a gamepad's buttons).

use crate::ai::Level;
use crate::games::GameKind;
use crate::rules::{CellValue, CellView, HintMark, PieceShape, Side};

/// A player-readable label for the atomic decision `token` of `kind`; `mover` names the side
/// ("Black") for decisions that place its own colour.
pub fn decision_label(kind: GameKind, token: &str, mover: &str) -> String {
    kind.decision_words(token, mover).unwrap_or_else(|| token.to_string())
}

/// What the board says about the space under the cursor, in words: its name, what stands there,
/// and the game's number for it (power for the side to move, influence), control and hints.
/// `side_name` names a side as the panel does.
pub fn space_summary(cell: &CellView, mover: Side, side_name: impl Fn(Side) -> String) -> String {
    let mut parts = vec![cell.name.clone()];
    if let Some(piece) = &cell.piece {
        let owner = piece.owner.map(&side_name).unwrap_or_else(|| "red".to_string());
        parts.push(match piece.shape {
            PieceShape::Figure { figure, .. } => format!("{owner} {}", figure.name()),
            PieceShape::Stack { height } if height > 1 => format!("{owner} stack of {height}"),
            PieceShape::Stack { .. } | PieceShape::Stone => format!("{owner} stone"),
        });
    } else if cell.marks.burned {
        parts.push("burned".to_string());
    } else {
        parts.push("empty".to_string());
    }
    match cell.marks.value {
        Some(CellValue::Power(v)) => parts.push(format!("power {v} for {}", side_name(mover))),
        Some(CellValue::Influence(0)) => parts.push("influence 0".to_string()),
        Some(CellValue::Influence(v)) => {
            let leaning = if v > 0 { Side::First } else { Side::Second };
            parts.push(format!("influence {v:+} ({})", side_name(leaning)));
        }
        None => {
            if let Some(side) = cell.marks.control {
                parts.push(format!("controlled by {}", side_name(side)));
            }
        }
    }
    if cell.marks.chosen.is_some() {
        parts.push("chosen".to_string());
    }
    match cell.marks.hint {
        Some(HintMark::InDanger) => parts.push("one liberty left".to_string()),
        Some(HintMark::Threatened) => parts.push("the opponent could remove it next turn".to_string()),
        Some(HintMark::Eye(Some(side))) => parts.push(format!("{} eye", side_name(side))),
        Some(HintMark::Eye(None)) => parts.push("red eye".to_string()),
        None => {}
    }
    parts.join(" · ")
}

/// A level's name for people.
pub fn level_name(level: Level) -> &'static str {
    match level {
        Level::Random => "Random",
        Level::Easy => "Easy",
        Level::Medium => "Medium",
        Level::Hard => "Hard",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_space_under_the_cursor_is_described_from_the_engines_view() {
        use crate::games::open;
        let name = |s: Side| if s == Side::First { "Black".to_string() } else { "White".to_string() };
        // Throngs (T93 start): k9 holds Black's stone; the power number is the engine's.
        let throngs = open(GameKind::named("throngs"), &[], None).unwrap();
        let view = throngs.board_view();
        let k9 = view.cells.iter().find(|c| c.name == "k9").unwrap();
        let power = k9.marks.value.unwrap().number();
        assert_eq!(space_summary(k9, Side::First, name), format!("k9 · Black stone · power {power} for Black"));
        // Red Stone S3: a stone in atari and an eye say so.
        let options = [("size".to_string(), "5".to_string())];
        let s3 = open(GameKind::named("red-stone"), &options, Some(".OXO./.OXO./.O.XR/.XOOR/..XX. w")).unwrap();
        let view = s3.board_view();
        let at = |n: &str| view.cells.iter().find(|c| c.name == n).unwrap();
        assert_eq!(space_summary(at("D3"), Side::Second, name), "D3 · Black stone · one liberty left");
        assert_eq!(space_summary(at("E1"), Side::Second, name), "E1 · empty · Black eye");
        assert_eq!(space_summary(at("E2"), Side::Second, name), "E2 · red stone");
        // Hidden Intention: an empty square's influence, and who it leans to.
        let mut hi = open(GameKind::named("hidden-intention"), &[], None).unwrap();
        hi.play_token("Qd4|Re5").unwrap();
        let view = hi.board_view();
        let d4 = view.cells.iter().find(|c| c.name == "d4").unwrap();
        let text = space_summary(d4, Side::First, |s| if s == Side::First { "A".into() } else { "B".into() });
        assert!(text.starts_with("d4 · A queen · influence +"), "{text}");
        assert!(text.ends_with("(A)"), "{text}");
    }

    #[test]
    fn labels_name_the_action_in_words_without_the_notation() {
        assert_eq!(decision_label(GameKind::named("red-stone"), "C3*", "Black"), "Red stone on C3");
        assert_eq!(decision_label(GameKind::named("red-stone"), "C3", "White"), "White stone on C3");
        assert_eq!(decision_label(GameKind::named("gravel"), "b2>c2", ""), "Move a piece b2 → c2");
        assert_eq!(decision_label(GameKind::named("gravel"), "end", ""), "End turn");
        assert_eq!(decision_label(GameKind::named("throngs"), "choose Black", ""), "Take Black (move first)");
        assert_eq!(decision_label(GameKind::named("inchworm"), "R", ""), "Rescue all your stones the opponent holds");
        assert_eq!(
            decision_label(GameKind::named("hidden-intention"), "A:c3<>f4", ""),
            "Swap the figures on c3 and f4"
        );
        assert_eq!(decision_label(GameKind::named("hidden-intention"), "B:N", ""), "Knight");
    }

    #[test]
    fn an_unknown_token_is_shown_as_it_is() {
        assert_eq!(decision_label(GameKind::named("gravel"), "zz", ""), "zz");
        assert_eq!(decision_label(GameKind::named("hidden-intention"), "nonsense", ""), "nonsense");
    }
}
