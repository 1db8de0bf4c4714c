//! The online seats a player holds (game id, secret token, game, seat, when it was taken), kept in
//! the store as `online/seats.json` so their online games are found again after a restart. A token
//! is the only key to a seat: it is written before it is ever shown, and never dropped by a write
//! that failed to read the file first.

use super::store::{Store, StoreError};
use crate::games::GameKind;
use crate::rules::Side;
use serde::{Deserialize, Serialize};

/// Where the seats are kept.
pub const SEATS_FILE: &str = "online/seats.json";

/// One seat of one online game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptSeat {
    pub game_id: String,
    pub token: String,
    /// The game, once known (a seat taken with an invite code learns it from the game's state).
    #[serde(default)]
    pub game: Option<GameKind>,
    pub seat: Side,
    /// The server it was taken on (the same game id means nothing on another server).
    #[serde(default)]
    pub server: String,
    /// Seconds since 1970 when the seat was taken.
    #[serde(default)]
    pub created_unix: u64,
    /// The invite code while the other seat may still be free.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// The file's shape: a version, then the seats, newest first.
#[derive(Debug, Default, Serialize, Deserialize)]
struct SeatsFile {
    version: u32,
    seats: Vec<KeptSeat>,
}

/// The kept seats, newest first. A damaged file is an error (and left as it is): the tokens in it
/// must not be written over by a fresh list.
pub fn load_seats(store: &Store) -> Result<Vec<KeptSeat>, StoreError> {
    let Some(text) = store.read(SEATS_FILE)? else { return Ok(Vec::new()) };
    serde_json::from_str::<SeatsFile>(&text)
        .map(|f| f.seats)
        .map_err(|e| StoreError::Read { name: SEATS_FILE.to_string(), reason: e.to_string() })
}

/// Keeps `seat` (first in the list; a seat of the same game and token is replaced, so its code or
/// details can be updated). Reads the file first: a seat written by another window is kept too.
pub fn keep_seat(store: &mut Store, seat: KeptSeat) -> Result<Vec<KeptSeat>, StoreError> {
    let mut seats = load_seats(store)?;
    seats.retain(|s| !(s.game_id == seat.game_id && s.token == seat.token));
    seats.insert(0, seat);
    write_seats(store, &seats)?;
    Ok(seats)
}

/// Forgets a seat (the player removed the game from their list).
pub fn forget_seat(store: &mut Store, game_id: &str, token: &str) -> Result<Vec<KeptSeat>, StoreError> {
    let mut seats = load_seats(store)?;
    seats.retain(|s| !(s.game_id == game_id && s.token == token));
    write_seats(store, &seats)?;
    Ok(seats)
}

fn write_seats(store: &mut Store, seats: &[KeptSeat]) -> Result<(), StoreError> {
    let file = SeatsFile { version: 1, seats: seats.to_vec() };
    store.write(SEATS_FILE, &serde_json::to_string_pretty(&file).expect("seats serialise"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(id: &str, token: &str) -> KeptSeat {
        KeptSeat {
            game_id: id.into(),
            token: token.into(),
            game: Some(GameKind::named("red-stone")),
            seat: Side::Second,
            server: "ws://127.0.0.1:7878/ws".into(),
            created_unix: 1_800_000_000,
            code: Some("ABCD".into()),
        }
    }

    #[test]
    fn seats_are_kept_newest_first_replaced_by_token_and_forgotten() {
        let mut store = Store::memory();
        assert_eq!(load_seats(&store).unwrap(), vec![]);
        keep_seat(&mut store, seat("g1", "t1")).unwrap();
        keep_seat(&mut store, seat("g2", "t2")).unwrap();
        let mut updated = seat("g1", "t1");
        updated.code = None;
        let seats = keep_seat(&mut store, updated.clone()).unwrap();
        assert_eq!(seats, vec![updated, seat("g2", "t2")]);
        assert_eq!(load_seats(&store).unwrap(), seats);
        assert_eq!(forget_seat(&mut store, "g2", "t2").unwrap().len(), 1);
    }

    #[test]
    fn a_damaged_file_is_an_error_and_is_not_written_over() {
        let mut store = Store::memory();
        store.write(SEATS_FILE, "{ damaged").unwrap();
        assert!(load_seats(&store).is_err());
        assert!(keep_seat(&mut store, seat("g", "t")).is_err());
        assert_eq!(store.read(SEATS_FILE).unwrap().as_deref(), Some("{ damaged"));
    }
}
