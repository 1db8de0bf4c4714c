//! Timed games on the server: the clocks sent to followers, the timer that flags a live player
//! out of time, claims (a correspondence opponent out of time, a live one gone past the grace
//! period), and vacations. A timeout is stored in the place of the ply it ends the game at
//! (`GameStore::mark_timeout`), so of a move and a timeout at the same moment, or two instances
//! noticing the same flag, exactly one is kept.

use super::hub::{Hub, unavailable};
use super::room::Room;
use super::timeouts::{Timeout, table_deadline};
use crate::online::clock::LIVE_GRACE_MS;
use crate::online::protocol::{ErrorCode, ServerMessage};
use crate::online::table::Table;
use crate::rules::Side;
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Hub {
    /// Tells the followers a timed game's clocks, and sets the timer's deadline for it.
    pub(super) fn clock_changed(&self, room: &Room, table: &Table) {
        room.deadline.store(table_deadline(table), Ordering::Relaxed);
        let now = self.now();
        let away = room.away_since.lock().expect("away lock").map(|since| since.map(|s| now - s));
        if let Some(clock) = table.clock_view(now, away) {
            room.send_all(&ServerMessage::Clock { game_id: room.id.clone(), clock });
        }
    }

    /// A seat connected or left: the grace period of a live game starts or ends, and the
    /// followers are told.
    pub(super) async fn presence_changed(&self, room: &Arc<Room>) {
        let guard = room.table.lock().await;
        if let Some(table) = guard.as_ref() {
            self.note_presence(room, table);
        }
    }

    /// `presence_changed` with the game held.
    pub(super) fn note_presence(&self, room: &Room, table: &Table) {
        if table.clock.is_none() {
            return;
        }
        let online = room.online();
        let joined = table.joined();
        let now = self.now();
        {
            let mut away = room.away_since.lock().expect("away lock");
            for i in 0..2 {
                away[i] = match (joined[i] && !online[i], away[i]) {
                    (true, Some(since)) => Some(since),
                    (true, None) => Some(now),
                    (false, _) => None,
                };
            }
        }
        self.clock_changed(room, table);
    }

    /// Ends a timed game because `seat` timed out, unless a decision or another timeout was
    /// stored at this ply first (then the table catches up with the store).
    pub(super) async fn time_out(
        &self,
        room: &Room,
        table: &mut Table,
        seat: Side,
        how: Timeout,
        now: i64,
    ) -> Result<ServerMessage, ServerMessage> {
        let id = room.id.clone();
        let ply = table.next_ply();
        if !self.store.mark_timeout(&id, ply, seat, how.mark(), now).await.map_err(unavailable)? {
            self.refresh_locked(room, table).await;
            return Err(ServerMessage::game_error(ErrorCode::StalePly, &id, "the game moved on meanwhile"));
        }
        self.end_timed_out(room, table, seat, how, now).await
    }

    /// Stores the ending of a timeout already marked, and tells everyone.
    async fn end_timed_out(
        &self,
        room: &Room,
        table: &mut Table,
        seat: Side,
        how: Timeout,
        now: i64,
    ) -> Result<ServerMessage, ServerMessage> {
        let ending = table.timeout_ending(seat, &how.words(table, seat));
        let winner = table.winner_seat(&ending);
        let stored = self.store.end(&room.id, &ending, winner, now).await.map_err(unavailable)?;
        if !stored {
            self.refresh_locked(room, table).await;
            return Err(ServerMessage::game_error(ErrorCode::GameOver, &room.id, "the game has already ended"));
        }
        table.end(ending.clone());
        table.rematch_offered_by = None;
        table.stop_clock(now);
        let ended = ServerMessage::Ended { game_id: room.id.clone(), ending: ending.clone() };
        room.send_all(&ended);
        self.clock_changed(room, table);
        self.after_ending(room, table, &ending).await;
        self.announce(&room.id, None).await;
        Ok(ended)
    }

    /// A game loaded with a timeout marked but no ending (the instance stopped between the two):
    /// the ending is stored now.
    pub(super) async fn finish_marked_timeout(&self, room: &Room, table: &mut Table) {
        if table.ending.is_some() || table.clock.is_none() {
            return;
        }
        match self.store.timeout_of(&room.id).await {
            Ok(Some((seat, mark))) => {
                let now = self.now();
                if let Err(e) = self.end_timed_out(room, table, seat, Timeout::from_mark(&mark), now).await {
                    eprintln!("stoneyard serve: ending game {} after its timeout: {e:?}", room.id);
                }
            }
            Ok(None) => {}
            Err(e) => eprintln!("stoneyard serve: reading game {}'s timeout: {e}", room.id),
        }
    }

    /// Claims the game for the holder of `token`: the opponent's correspondence time ran out, or
    /// the live opponent has been gone for the grace period.
    pub(super) async fn claim(&self, id: &str, token: &str) -> Result<ServerMessage, ServerMessage> {
        let room = self.room(id);
        let result = async {
            let mut table = self.table(&room).await?;
            let seat = self.seat_for(&mut table, id, token).await?;
            if table.ending.is_some() {
                return Err(ServerMessage::game_error(ErrorCode::GameOver, id, "the game has already ended"));
            }
            let Some(clock) = table.clock.clone() else {
                return Err(ServerMessage::game_error(ErrorCode::BadMessage, id, "an untimed game cannot be claimed"));
            };
            let now = self.now();
            let opponent = seat.opponent();
            if clock.is_live() {
                let away = room.away_since.lock().expect("away lock")[opponent.index()];
                let gone_for = away.map_or(0, |since| now - since);
                if away.is_none() || gone_for < LIVE_GRACE_MS {
                    let why = match away {
                        None => "your opponent is connected".to_string(),
                        Some(_) => format!(
                            "your opponent may still come back for {} s",
                            (LIVE_GRACE_MS - gone_for + 999) / 1000
                        ),
                    };
                    return Err(ServerMessage::game_error(ErrorCode::BadMessage, id, why));
                }
                self.time_out(&room, &mut table, opponent, Timeout::ClaimedGone, now).await
            } else {
                if !clock.running()[opponent.index()] || clock.left_at(opponent, now, &table.pauses) > 0 {
                    return Err(ServerMessage::game_error(
                        ErrorCode::BadMessage,
                        id,
                        "your opponent still has time for this move",
                    ));
                }
                self.time_out(&room, &mut table, opponent, Timeout::ClaimedTime, now).await
            }
        }
        .await;
        self.forget_if_unfollowed(&room);
        result
    }

    /// The timer: flags live players out of time in the games this instance has loaded.
    pub async fn keep_clocks_forever(self: Arc<Hub>) {
        loop {
            let now = self.now();
            let rooms = self.loaded_rooms();
            let mut next = now + 1_000;
            for room in rooms {
                let deadline = room.deadline.load(Ordering::Relaxed);
                if deadline <= now {
                    self.flag_if_out_of_time(&room).await;
                } else {
                    next = next.min(deadline);
                }
            }
            self.clock.sleep((next - now).clamp(1, 250)).await;
        }
    }

    /// Flags the game's player out of time, if one is; when its clock runs out next (`i64::MAX`:
    /// none, or it could not be read).
    pub(super) async fn flag_if_out_of_time(&self, room: &Arc<Room>) -> i64 {
        let Ok(mut table) = self.table(room).await else { return i64::MAX };
        let now = self.now();
        if let Some(seat) = table.flagged(now)
            && let Err(e) = self.time_out(room, &mut table, seat, Timeout::Flag, now).await
            && !matches!(e, ServerMessage::Error { code: ErrorCode::StalePly | ErrorCode::GameOver, .. })
        {
            // Not another instance flagging first, nor a decision just in time.
            eprintln!("stoneyard serve: flagging game {}: {e:?}", room.id);
        }
        let deadline = table_deadline(&table);
        room.deadline.store(deadline, Ordering::Relaxed);
        drop(table);
        self.forget_if_unfollowed(room);
        deadline
    }
}
