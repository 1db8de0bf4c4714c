//! How the board catches up with an online game: compares the decisions the board has played
//! with the ones the game's seat says it must show (the person's new decisions were handed to
//! the seat first, so the board never has more than it for good reason), and says what to do.
//! It compares only what is new since it last looked ([`Agreement`]), so a frame costs the same
//! at decision 3,000 as at decision 3. Pure (no Bevy).

use crate::session::Match;

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
pub fn catch_up(board: &[&str], game: &[&str]) -> CatchUp {
    let common = board.iter().zip(game).take_while(|(a, b)| a == b).count();
    match (common == board.len(), common == game.len()) {
        (true, true) => CatchUp::InStep,
        (true, false) => CatchUp::Play(game[common..].iter().map(|d| d.to_string()).collect()),
        (false, _) => CatchUp::Rewind { keep: common },
    }
}

/// How many first decisions the board and the game were found to share, with the serial
/// (`Match::serial`) of the last of them in each: while both still have it there, those
/// decisions still stand (a decision taken back and made again gets a new serial).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    shared: usize,
    board_serial: Option<u64>,
    game_serial: Option<u64>,
}

impl Agreement {
    /// What brings the `board` match into step with the `game` match, comparing the decisions
    /// after those found shared before (all of them again only when either went back before
    /// that point).
    pub fn catch_up(&mut self, board: &Match, game: &Match) -> CatchUp {
        let stands = |m: &Match, serial: Option<u64>| {
            self.shared <= m.len() && (self.shared == 0 || m.serial(self.shared - 1) == serial)
        };
        if !stands(board, self.board_serial) || !stands(game, self.game_serial) {
            *self = Agreement::default();
        }
        let from = self.shared;
        let tail = |m: &Match| -> Vec<String> { m.played()[from..].iter().map(|p| p.decision.clone()).collect() };
        let (board_tail, game_tail) = (tail(board), tail(game));
        let (board_strs, game_strs): (Vec<&str>, Vec<&str>) =
            (board_tail.iter().map(String::as_str).collect(), game_tail.iter().map(String::as_str).collect());
        let answer = catch_up(&board_strs, &game_strs);
        let shared = from
            + match &answer {
                CatchUp::InStep => board_tail.len(),
                CatchUp::Play(_) => board_tail.len(),
                CatchUp::Rewind { keep } => *keep,
            };
        let serial = |m: &Match| if shared == 0 { None } else { m.serial(shared - 1) };
        *self = Agreement { shared, board_serial: serial(board), game_serial: serial(game) };
        match answer {
            CatchUp::Rewind { keep } => CatchUp::Rewind { keep: from + keep },
            other => other,
        }
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
        assert_eq!(catch_up(&["a", "b"], &["a", "b"]), CatchUp::InStep);
        assert_eq!(catch_up(&["a"], &["a", "b", "c"]), CatchUp::Play(v(&["b", "c"])));
        // A refused decision: the game dropped it.
        assert_eq!(catch_up(&["a", "b"], &["a"]), CatchUp::Rewind { keep: 1 });
        // A reveal puts the opponent's sealed choices before the person's own.
        assert_eq!(catch_up(&["B1", "B2"], &["A1", "A2", "B1", "B2"]), CatchUp::Rewind { keep: 0 });
        assert_eq!(catch_up(&["a", "x"], &["a", "y"]), CatchUp::Rewind { keep: 1 });
    }

    /// Plays `n` first legal decisions on `m`.
    fn play(m: &mut Match, n: usize) {
        for _ in 0..n {
            let seat = crate::rules::Side::BOTH.into_iter().find(|&s| !m.legal_for(s).is_empty()).unwrap();
            let d = m.legal_for(seat)[0].clone();
            m.decide(seat, &d, 0).unwrap();
        }
    }

    #[test]
    fn the_agreement_compares_only_what_is_new_and_sees_a_step_back() {
        let kind = crate::games::GameKind::named("red-stone");
        let mut game = Match::open(kind, &kind.quick_pairs(), None).unwrap();
        play(&mut game, 6);
        let mut board = Match::open(kind, &kind.quick_pairs(), None).unwrap();
        let mut agreement = Agreement::default();
        let lacking: Vec<String> = game.decisions().map(str::to_string).collect();
        assert_eq!(agreement.catch_up(&board, &game), CatchUp::Play(lacking.clone()));
        board.play_on(lacking.iter().map(|d| (d.as_str(), 0))).unwrap();
        assert_eq!(agreement.catch_up(&board, &game), CatchUp::InStep);
        assert_eq!(agreement.shared, 6);
        play(&mut game, 1);
        let next = game.decisions().last().unwrap().to_string();
        assert_eq!(agreement.catch_up(&board, &game), CatchUp::Play(vec![next]));
        // The game takes two decisions back and makes another: the board goes back to the four.
        game.go_to(4);
        game.drop_redo();
        let seat = crate::rules::Side::BOTH.into_iter().find(|&s| !game.legal_for(s).is_empty()).unwrap();
        let other = game.legal_for(seat).into_iter().find(|d| *d != board.played()[4].decision).unwrap();
        game.decide(seat, &other, 0).unwrap();
        assert_eq!(agreement.catch_up(&board, &game), CatchUp::Rewind { keep: 4 });
        // Taken back and made again, the same decision is a new one: still in step after it.
        board.go_to(4);
        board.drop_redo();
        board.play_on([(other.as_str(), 0)]).unwrap();
        assert_eq!(agreement.catch_up(&board, &game), CatchUp::InStep);
        assert_eq!(agreement.shared, 5);
    }
}
