//! Online play: the protocol, the authoritative game table, the client's seat state, and (feature
//! `server`) the `stoneyard serve` game server and its load test. No Bevy.

pub mod clock;
pub mod directory;
pub mod protocol;
pub mod seat;
pub mod table;
pub mod timeout;

#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod client;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod loadtest;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod server;
