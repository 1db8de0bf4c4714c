//! What Stoneyard keeps between runs: settings (and, later, game records). Pure serde, no Bevy.

mod record;
mod settings;
mod store;

pub use record::{GameRecord, Player, RECORD_FORMAT, RecordError as RecordLoadError, RecordedMove};
pub use settings::{AnimationSpeed, Settings, Theme};
pub use store::{Store, StoreError};
