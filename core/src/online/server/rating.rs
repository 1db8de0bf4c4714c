//! Glicko-2 after one rated game (the skillratings crate, τ = 0.5 as Glickman suggests): every
//! game is its own rating period, as lichess rates.

use super::people::Glicko;
use crate::rules::Side;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// Both seats' ratings after a game won by `winner`'s seat (`None`: a draw).
pub fn rate(before: [Glicko; 2], winner: Option<Side>) -> [Glicko; 2] {
    let outcome = match winner {
        Some(Side::First) => Outcomes::WIN,
        Some(Side::Second) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let crate_rating = |g: Glicko| Glicko2Rating { rating: g.rating, deviation: g.deviation, volatility: g.volatility };
    let (first, second) = glicko2(&crate_rating(before[0]), &crate_rating(before[1]), &outcome, &Glicko2Config::new());
    let ours = |r: Glicko2Rating, games: u32| Glicko {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
        games: games + 1,
    };
    [ours(first, before[0].games), ours(second, before[1].games)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's worked example ("Example of the Glicko-2 system", glicko.net/glicko/glicko2.pdf):
    /// a 1500 (RD 200, σ 0.06) player beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a
    /// 1700 (RD 300) in one period: 1464.06, RD 151.52, σ 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let player = Glicko2Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = |rating, deviation| Glicko2Rating { rating, deviation, volatility: 0.06 };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let after = glicko2_rating_period(&player, &results, &Glicko2Config::new());
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_moves_both_ratings_apart_and_a_draw_between_equals_moves_neither() {
        let start = Glicko::default();
        let [winner, loser] = rate([start, start], Some(Side::First));
        assert!((winner.rating - 1662.31).abs() < 0.01, "{winner:?}");
        assert!((loser.rating - 1337.69).abs() < 0.01, "{loser:?}");
        assert!((winner.deviation - 290.32).abs() < 0.01, "{winner:?}");
        assert_eq!((winner.games, loser.games), (1, 1));
        let [a, b] = rate([start, start], None);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        let [second_won_first, second_won_second] = rate([start, start], Some(Side::Second));
        assert!((second_won_second.rating - winner.rating).abs() < 1e-9);
        assert!((second_won_first.rating - loser.rating).abs() < 1e-9);
    }
}
