//! The vocabulary every game shares: sides, turns, outcomes, effects, errors, the rules trait,
//! board topologies, notation helpers, the record-text lexer, perft, seeded randomness and hash
//! keys. No Bevy here.

mod commitment;
mod coord;
mod count;
mod decision;
mod effect;
mod error;
mod game;
mod grid;
mod hash;
mod help;
mod outcome;
mod perft;
mod playout;
mod record_text;
mod rng;
mod side;
mod tri;
mod view;

pub use commitment::commit_on_own_copy;
pub use coord::{FileLetters, cell_name, parse_cell, read_cell_name, split_ranks, write_ranks, write_stack};
pub use count::ExactCount;
pub use decision::{DecisionInfo, DecisionKind};
pub use effect::{Cell, DiscardEffects, Effect, EffectKind, EffectSink, Effects, RemoveCause};
pub use error::{OptionError, ParseError, PlayError, RecordError};
#[cfg(test)]
pub(crate) use game::position_after;
pub use game::{
    GameOptions, LegalTokens, NoOptions, Notation, OptionKind, OptionSpec, RecordMove, RecordTokens, Rules,
    choice_name, choice_option, count_play, group_decisions, int_option, plays_on_this_thread,
};
pub use grid::{DIRECTIONS, SquareGrid, Wrap};
pub use hash::{GOLDEN_GAMMA, derived_seed, mix64, splitmix64, splitmix64_nth};
pub use help::{Illustration, RulesHelp, RulesSection};
pub use outcome::{Outcome, Status, ToMove};
pub use perft::perft;
pub use playout::{PlayoutStats, counted_random_playout, random_playout};
pub use record_text::{RESULT_MARKERS, RecordItem, RecordPiece, lex_record, strip_comments};
pub use rng::{GameRng, pick_index, seeded};
pub use side::{BySide, Side};
pub use tri::{TRI_DIRECTIONS, TriLattice};
pub use view::{
    BoardView, CellMarks, CellValue, CellView, Counter, DrawBoard, Figure, HintMark, Layout, PieceShape, PieceView,
    Tone, WrapLink, cells_in_token,
};
