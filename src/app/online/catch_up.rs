//! How the board catches up with an online game: compares the decisions the board has played
//! with the ones the game's seat says it must show (the person's new decisions were handed to
//! the seat first, so the board never has more than it for good reason), and says what to do.
//! Pure (no Bevy).

/// What brings the board and the online game into step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatchUp {
    InStep,
    /// The game has these decisions beyond the board's: play them on the board (animated).
    Play(Vec<String>),
    /// They part ways after the first `keep` decisions (a reveal of secret choices reordered
    /// them, or a decision was refused and left the game): go back there, then play the game's.
    Rewind {
        keep: usize,
    },
}

/// What to do when the board has played `board` and the game shows `game`.
pub fn catch_up(board: &[String], game: &[String]) -> CatchUp {
    let common = board.iter().zip(game).take_while(|(a, b)| a == b).count();
    match (common == board.len(), common == game.len()) {
        (true, true) => CatchUp::InStep,
        (true, false) => CatchUp::Play(game[common..].to_vec()),
        (false, _) => CatchUp::Rewind { keep: common },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_board_plays_what_it_lacks_and_rewinds_where_they_part() {
        assert_eq!(catch_up(&v(&["a", "b"]), &v(&["a", "b"])), CatchUp::InStep);
        assert_eq!(catch_up(&v(&["a"]), &v(&["a", "b", "c"])), CatchUp::Play(v(&["b", "c"])));
        // A refused decision: the game dropped it.
        assert_eq!(catch_up(&v(&["a", "b"]), &v(&["a"])), CatchUp::Rewind { keep: 1 });
        // A reveal puts the opponent's sealed choices before the person's own.
        assert_eq!(catch_up(&v(&["B1", "B2"]), &v(&["A1", "A2", "B1", "B2"])), CatchUp::Rewind { keep: 0 });
        assert_eq!(catch_up(&v(&["a", "x"]), &v(&["a", "y"])), CatchUp::Rewind { keep: 1 });
    }
}
