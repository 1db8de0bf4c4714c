//! Decisions in words for the choice list and the HUD buttons ("Red stone on C3", "End turn"),
//! from each game's atomic decision tokens; the token itself stays visible in brackets.

use crate::games::GameKind;

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
