//! The turn builder: a chosen space becomes the engines' atomic decision. The legal decisions
//! that start there are offered — one is played at once, a start-and-destination pair waits for
//! the destination, several of the same space open a choice list. Decisions that name no space
//! (pass, end turn, swap, figure choices) are in the panel and behind Tab or the X button.

use crate::app::playing::{Choice, Offer, TurnBuilder};

/// The offers that go from `from` to `to` (their first two spaces).
pub fn decisions_between<'a>(offers: &'a [Offer], from: &str, to: &str) -> Vec<&'a Offer> {
    offers
        .iter()
        .filter(|o| o.picks.first().map(String::as_str) == Some(from) && o.picks.get(1).map(String::as_str) == Some(to))
        .collect()
}

/// What choosing `cell` means given the legal `offers` and the builder's state.
pub fn on_cell(builder: &mut TurnBuilder, offers: &[Offer], cell: &str) -> Option<String> {
    if let Some(start) = builder.start.clone() {
        if start == cell {
            builder.reset();
            return None;
        }
        let matching = decisions_between(offers, &start, cell);
        builder.start = None;
        match matching.len() {
            0 => {}
            1 => return Some(matching[0].token.clone()),
            _ => {
                builder.choices = matching.into_iter().map(|o| Choice::Decision(o.token.clone())).collect();
                builder.at = Some(cell.to_string());
                return None;
            }
        }
    }
    let starting_here: Vec<&Offer> =
        offers.iter().filter(|o| o.picks.first().map(String::as_str) == Some(cell)).collect();
    let single: Vec<String> = starting_here.iter().filter(|o| o.picks.len() == 1).map(|o| o.token.clone()).collect();
    let continues = starting_here.iter().any(|o| o.picks.len() > 1);
    match (single.len(), continues) {
        (0, false) => None,
        (1, false) => Some(single[0].clone()),
        (0, true) => {
            builder.start = Some(cell.to_string());
            None
        }
        _ => {
            builder.choices = single.into_iter().map(Choice::Decision).collect();
            builder.at = Some(cell.to_string());
            if continues {
                builder.choices.push(Choice::StartFrom(cell.to_string()));
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// Offers picked at the spaces their tokens name (as the games describe these tokens).
    fn offers(v: &[(&str, &[&str])]) -> Vec<Offer> {
        v.iter().map(|(token, picks)| Offer::picked(token, picks)).collect()
    }

    #[test]
    fn a_single_decision_on_a_space_is_played_at_once() {
        let mut b = TurnBuilder::default();
        assert_eq!(
            on_cell(&mut b, &offers(&[("C3", &["C3"]), ("D4", &["D4"]), ("swap", &[])]), "C3"),
            Some("C3".into())
        );
    }

    #[test]
    fn two_decisions_on_one_space_open_a_choice() {
        let mut b = TurnBuilder::default();
        assert_eq!(on_cell(&mut b, &offers(&[("C3", &["C3"]), ("C3*", &["C3"]), ("D4", &["D4"])]), "C3"), None);
        assert_eq!(b.choices, vec![Choice::Decision("C3".into()), Choice::Decision("C3*".into())]);
    }

    #[test]
    fn start_then_destination() {
        let mut b = TurnBuilder::default();
        let d = offers(&[("k9>j9", &["k9", "j9"]), ("k9>k8", &["k9", "k8"]), ("+k10", &["k10"])]);
        assert_eq!(on_cell(&mut b, &d, "k9"), None);
        assert_eq!(b.start.as_deref(), Some("k9"));
        assert_eq!(b.destinations(&d), list(&["j9", "k8"]));
        assert_eq!(on_cell(&mut b, &d, "k8"), Some("k9>k8".into()));
        assert_eq!(b.start, None);
    }

    #[test]
    fn mixed_single_and_continuing_decisions_offer_both() {
        let mut b = TurnBuilder::default();
        let d = offers(&[("+d4", &["d4"]), ("d4>e5", &["d4", "e5"])]);
        assert_eq!(on_cell(&mut b, &d, "d4"), None);
        assert_eq!(b.choices, vec![Choice::Decision("+d4".into()), Choice::StartFrom("d4".into())]);
    }

    #[test]
    fn choosing_the_start_again_cancels() {
        let mut b = TurnBuilder::default();
        let d = offers(&[("a1>a2", &["a1", "a2"])]);
        on_cell(&mut b, &d, "a1");
        assert_eq!(on_cell(&mut b, &d, "a1"), None);
        assert_eq!(b, TurnBuilder::default());
    }

    #[test]
    fn spaceless_decisions_are_found() {
        let d = offers(&[("pass", &[]), ("C3", &["C3"]), ("swap", &[])]);
        let tokens: Vec<String> = crate::app::playing::spaceless(&d).into_iter().map(|o| o.token.clone()).collect();
        assert_eq!(tokens, list(&["pass", "swap"]));
    }
}
