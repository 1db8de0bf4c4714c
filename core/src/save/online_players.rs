//! The player this device is on each online server (the name and the secret player key the
//! server gave it), kept in the store as `online/players.json`: like a seat token, the key is
//! written before it is ever used, and a damaged file is never written over.

use super::store::{Store, StoreError};
use serde::{Deserialize, Serialize};

/// Where the players are kept.
pub const PLAYERS_FILE: &str = "online/players.json";

/// This device's player on one server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptPlayer {
    pub server: String,
    pub name: String,
    pub key: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct PlayersFile {
    version: u32,
    players: Vec<KeptPlayer>,
}

/// Every server's player. A damaged file is an error (and left as it is).
pub fn load_players(store: &Store) -> Result<Vec<KeptPlayer>, StoreError> {
    let Some(text) = store.read(PLAYERS_FILE)? else { return Ok(Vec::new()) };
    serde_json::from_str::<PlayersFile>(&text)
        .map(|f| f.players)
        .map_err(|e| StoreError::Read { name: PLAYERS_FILE.to_string(), reason: e.to_string() })
}

/// Keeps `player` as this device's player on its server (replacing the one before there).
pub fn keep_player(store: &mut Store, player: KeptPlayer) -> Result<Vec<KeptPlayer>, StoreError> {
    let mut players = load_players(store)?;
    players.retain(|p| p.server != player.server);
    players.insert(0, player);
    write_players(store, &players)?;
    Ok(players)
}

/// Forgets this device's player on a server (signing out).
pub fn forget_player(store: &mut Store, server: &str) -> Result<Vec<KeptPlayer>, StoreError> {
    let mut players = load_players(store)?;
    players.retain(|p| p.server != server);
    write_players(store, &players)?;
    Ok(players)
}

fn write_players(store: &mut Store, players: &[KeptPlayer]) -> Result<(), StoreError> {
    let file = PlayersFile { version: 1, players: players.to_vec() };
    store.write(PLAYERS_FILE, &serde_json::to_string_pretty(&file).expect("players serialise"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(server: &str, name: &str) -> KeptPlayer {
        KeptPlayer { server: server.into(), name: name.into(), key: format!("key-of-{name}") }
    }

    #[test]
    fn one_player_per_server_replaced_and_forgotten() {
        let mut store = Store::memory();
        assert_eq!(load_players(&store).unwrap(), vec![]);
        keep_player(&mut store, player("ws://a/ws", "Ada")).unwrap();
        keep_player(&mut store, player("ws://b/ws", "Bo")).unwrap();
        let players = keep_player(&mut store, player("ws://a/ws", "Ada2")).unwrap();
        assert_eq!(players, vec![player("ws://a/ws", "Ada2"), player("ws://b/ws", "Bo")]);
        assert_eq!(load_players(&store).unwrap(), players);
        assert_eq!(forget_player(&mut store, "ws://b/ws").unwrap(), vec![player("ws://a/ws", "Ada2")]);
    }

    #[test]
    fn a_damaged_file_is_an_error_and_is_not_written_over() {
        let mut store = Store::memory();
        store.write(PLAYERS_FILE, "[ damaged").unwrap();
        assert!(load_players(&store).is_err());
        assert!(keep_player(&mut store, player("ws://a/ws", "Ada")).is_err());
        assert_eq!(store.read(PLAYERS_FILE).unwrap().as_deref(), Some("[ damaged"));
    }
}
