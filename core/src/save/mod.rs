//! What Stoneyard keeps between runs: settings, the games in progress, the finished games, named
//! game records and the online seats. No Bevy.

mod history;
mod in_progress;
mod online_players;
mod online_seats;
mod reading;
mod record;
mod reviews;
mod saves;
mod settings;
mod spec_text;
mod store;

pub use history::{
    FinishedGame, HISTORY_FOLDER, HISTORY_FORMAT, HistoryError, KEEP_FINISHED, delete_finished, keep_finished,
    list_finished, load_finished,
};
pub use in_progress::{
    GAMES_FOLDER, GameInProgress, KEEP_GAMES, add_to_game, adopt_old_autosave, keep_game, list_games, load_game,
    new_game_key, numbered_move_count, record_finished,
};
pub use online_players::{KeptPlayer, PLAYERS_FILE, forget_player, keep_player, load_players};
pub use online_seats::{KeptSeat, SEATS_FILE, forget_seat, keep_seat, load_seats};
pub use reading::{
    MAX_RECORD_BYTES, is_move_list, looks_like_json, move_list_tokens, read_record, read_record_file, read_text_file,
};
pub use record::{GameRecord, Player, RECORD_FORMAT, RecordError as RecordLoadError, RecordedMove};
pub use reviews::{KEEP_REVIEWS, REVIEWS_FOLDER, keep_review, load_review, review_key};
pub use saves::{
    MAX_NAME, SAVES_FOLDER, SaveEntry, SaveError, delete_named, list_saves, load_named, save_key, save_named,
};
pub use settings::{AnimationSpeed, KeyBinding, Settings, Theme};
pub use spec_text::{spec_text_game, token_decisions};
pub use store::{MAX_FILE_BYTES, Store, StoreError, bytes_written_on_this_thread};
