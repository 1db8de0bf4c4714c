//! What Stoneyard keeps between runs: settings (and, later, game records). Pure serde, no Bevy.

mod settings;
mod store;

pub use settings::{AnimationSpeed, Settings, Theme};
pub use store::{Store, StoreError};
