//! The five games: one folder per rules engine, the registry that lists them (`GameKind`, one row
//! per game built from its `About`), and one object-safe handle (`DynGame`) that lets the command
//! line, saves and menus work with any of them through its record tokens and texts.

mod about;
mod dyn_game;
mod events;
pub mod gravel;
pub mod hidden_intention;
pub mod inchworm;
mod move_words;
pub mod red_stone;
mod registry;
pub mod throngs;
pub mod tic_tac_toe;

pub use about::{About, LineCounter, NumberedMoves, Warning};
pub use dyn_game::{BenchReport, DynGame, GameError, PLAYOUT_PLY_LIMIT, open, status_json};
pub use events::{EventContext, describe_effects, plural, removed_cells, removed_pieces, touched_cells};
pub use move_words::move_in_words;
pub use registry::{GAMES, GameEntry, GameKind, RecordText};

/// Every game's position type, in the order the title screen shows them: the one list a game
/// joins (with its `pub mod` above). `for_each_game!(rows)` expands to `rows!(types…)`, so the
/// registry here and the computer's table (`ai::games`, which the games may not import) are built
/// from the same list.
#[macro_export]
macro_rules! for_each_game {
    ($rows:ident) => {
        $crate::with_test_games!(
            $rows;
            $crate::games::gravel::Position,
            $crate::games::red_stone::Position,
            $crate::games::throngs::Position,
            $crate::games::inchworm::Position,
            $crate::games::hidden_intention::Position,
        )
    };
}

/// The games as they are (`for_each_game!`'s list, unchanged outside this crate's own tests).
#[cfg(not(test))]
#[doc(hidden)]
#[macro_export]
macro_rules! with_test_games {
    ($rows:ident; $($game:ty,)*) => {
        $rows!($($game,)*)
    };
}

/// In this crate's tests, a sixth game joins by this one line: tic-tac-toe, which proves that
/// the registry, the match, the computer, records and the lessons checker need nothing more.
#[cfg(test)]
#[doc(hidden)]
#[macro_export]
macro_rules! with_test_games {
    ($rows:ident; $($game:ty,)*) => {
        $rows!($($game,)* $crate::games::tic_tac_toe::Position,)
    };
}
