//! Decisions and resignations: each stored first, then sent to the followers as their seats may
//! see them; and the decisions other instances stored, replayed into a loaded table.

use super::announcements::{StoredDecision, decision_announcement};
use super::hub::{Hub, unavailable};
use super::rematches::rematch_ready;
use super::room::Room;
use super::store::Backend;
use super::timeouts::Timeout;
use crate::online::protocol::{ErrorCode, ServerMessage};
use crate::online::table::{MoveCheck, StoredPly, Table};
use crate::rules::Side;

impl Hub {
    pub(super) async fn play(
        &self,
        id: &str,
        token: &str,
        ply: u32,
        decision: &str,
    ) -> Result<ServerMessage, ServerMessage> {
        let room = self.room(id);
        let result = self.play_in(&room, id, token, ply, decision).await;
        self.forget_if_unfollowed(&room);
        result
    }

    pub(super) async fn play_in(
        &self,
        room: &Room,
        id: &str,
        token: &str,
        ply: u32,
        decision: &str,
    ) -> Result<ServerMessage, ServerMessage> {
        let mut table = self.table(room).await?;
        let seat = self.seat_for(&mut table, id, token).await?;
        if ply > table.next_ply() {
            // Another instance may have stored decisions this one has not heard of yet.
            self.refresh_locked(room, &mut table).await;
        }
        let refuse = |table: &Table, (code, why): (ErrorCode, String)| ServerMessage::Error {
            code,
            message: why,
            game_id: Some(id.to_string()),
            next_ply: (code == ErrorCode::StalePly).then(|| table.next_ply()),
        };
        match table.check_move(seat, ply, decision).map_err(|r| refuse(&table, r))? {
            MoveCheck::Repeat => return Ok(ServerMessage::Ack { game_id: id.to_string(), ply }),
            MoveCheck::New => {}
        }
        let now = self.now();
        if let Some(flagged) = table.flagged(now) {
            // Out of time before this decision came: the clock decides, not the decision.
            self.time_out(room, &mut table, flagged, Timeout::Flag, now).await?;
            return Err(ServerMessage::game_error(ErrorCode::GameOver, id, "the game has ended: time ran out"));
        }
        // The other instances hear of the decision as it is stored (a retry, stored already, was
        // announced then), with it (they need not read it back), in ply order (this holds the game).
        let stored = StoredDecision { ply, seat, decision: decision.to_string(), at: now };
        let announcement = (self.store.backend == Backend::Postgres)
            .then(|| decision_announcement(&self.instance, id, stored).to_string());
        if !self.store.append(id, ply, seat, decision, now, announcement.as_deref()).await.map_err(unavailable)? {
            // Another instance stored this ply first: the very same decision (a retry sent to
            // both) is acknowledged, anything else is stale.
            self.refresh_locked(room, &mut table).await;
            return match table.check_move(seat, ply, decision) {
                Ok(MoveCheck::Repeat) => Ok(ServerMessage::Ack { game_id: id.to_string(), ply }),
                _ => Err(refuse(&table, (ErrorCode::StalePly, format!("ply {ply} was just played")))),
            };
        }
        let was_over = table.ending.is_some();
        let revealed = table.apply_at(seat, decision.to_string(), now);
        self.send_new_plies(room, &table, ply as usize, revealed);
        self.clock_changed(room, &table);
        if !was_over && let Some(ending) = table.ending.clone() {
            let ended = self.store.end(id, &ending, table.winner_seat(&ending), now).await.map_err(unavailable)?;
            room.send_all(&ServerMessage::Ended { game_id: id.to_string(), ending: ending.clone() });
            if ended {
                self.after_ending(room, &table, &ending).await;
            }
        }
        Ok(ServerMessage::Ack { game_id: id.to_string(), ply })
    }

    /// Sends stored plies from `from` on to every follower as its seat may see them. A decision
    /// that completes sealed commitments goes out inside the `Revealed` message with them, so no
    /// client ever holds the completed move without the commitments it reveals.
    pub(super) fn send_new_plies(
        &self,
        room: &Room,
        table: &Table,
        from: usize,
        revealed: Option<Vec<crate::online::protocol::WireMove>>,
    ) {
        let until = table.next_ply() as usize - usize::from(revealed.is_some());
        for ply in from..until {
            room.send_each(|viewer| {
                Some(ServerMessage::Moved { game_id: room.id.clone(), mv: table.wire(ply, viewer) })
            });
        }
        if let Some(moves) = revealed {
            room.send_all(&ServerMessage::Revealed { game_id: room.id.clone(), moves });
        }
    }

    pub(super) async fn resign(&self, id: &str, token: &str) -> Result<ServerMessage, ServerMessage> {
        let room = self.room(id);
        let result = async {
            let mut table = self.table(&room).await?;
            let seat = self.seat_for(&mut table, id, token).await?;
            if table.ending.is_some() {
                return Err(ServerMessage::game_error(ErrorCode::GameOver, id, "the game has already ended"));
            }
            let ending = table.resignation(seat);
            let winner = table.winner_seat(&ending);
            let now = self.now();
            if !self.store.end(id, &ending, winner, now).await.map_err(unavailable)? {
                self.refresh_locked(&room, &mut table).await;
                return Err(ServerMessage::game_error(ErrorCode::GameOver, id, "the game has already ended"));
            }
            table.end(ending.clone());
            table.rematch_offered_by = None;
            table.stop_clock(now);
            let ended = ServerMessage::Ended { game_id: id.to_string(), ending: ending.clone() };
            room.send_all(&ended);
            self.clock_changed(&room, &table);
            self.after_ending(&room, &table, &ending).await;
            Ok(ended)
        }
        .await;
        if result.is_ok() {
            self.announce(id, None).await;
        }
        self.forget_if_unfollowed(&room);
        result
    }

    /// Applies decisions stored from ply `from` on to a loaded table and sends them (and the ending
    /// they reach) to this instance's followers. `false` when one does not replay (it and those
    /// after it are left out).
    pub(super) fn replay_stored(&self, room: &Room, table: &mut Table, from: u32, moves: Vec<StoredPly>) -> bool {
        let was_over = table.ending.is_some();
        let mut replayed = true;
        let any = !moves.is_empty();
        for (ply, (seat, decision, at)) in moves.into_iter().enumerate() {
            let ply = from + ply as u32;
            if table.check_move(seat, ply, &decision) != Ok(MoveCheck::New) {
                eprintln!("stoneyard serve: stored ply {ply} of game {} does not replay", room.id);
                replayed = false;
                break;
            }
            let revealed = table.apply_at(seat, decision, at);
            self.send_new_plies(room, table, ply as usize, revealed);
        }
        if any {
            self.clock_changed(room, table);
        }
        if !was_over && let Some(ending) = table.ending.clone() {
            room.send_all(&ServerMessage::Ended { game_id: room.id.clone(), ending });
        }
        replayed
    }

    /// Brings a loaded table up to the store (another instance changed the game) and tells this
    /// instance's followers what changed.
    pub(super) async fn refresh_locked(&self, room: &Room, table: &mut Table) {
        let row = match self.store.game(&room.id).await {
            Ok(Some(row)) => row,
            Ok(None) => return,
            Err(e) => {
                eprintln!("stoneyard serve: refreshing game {}: {e}", room.id);
                return;
            }
        };
        if row.tokens != table.tokens {
            table.tokens = row.tokens.clone();
            match self.store.player_names([row.players[0].as_deref(), row.players[1].as_deref()]).await {
                Ok(names) => table.players = [0, 1].map(|i| row.players[i].clone().zip(names[i].clone())),
                Err(e) => eprintln!("stoneyard serve: refreshing game {}: {e}", room.id),
            }
            room.send_all(&room.presence(table));
            room.send_all(&room.players(table));
        }
        let from = table.next_ply();
        match self.store.moves_from(&room.id, from).await {
            Ok(moves) => {
                self.replay_stored(room, table, from, moves);
            }
            Err(e) => eprintln!("stoneyard serve: refreshing game {}: {e}", room.id),
        }
        if table.clock.is_none() && row.clock_start_ms.is_some() && table.joined() == [true, true] {
            table.start_clock(row.clock_start_ms.unwrap_or_default());
            self.clock_changed(room, table);
        }
        if table.ending.is_none()
            && let Some(ending) = row.ending
        {
            table.end(ending.clone());
            table.stop_clock(row.ended_ms.unwrap_or_else(|| self.now()));
            room.send_all(&ServerMessage::Ended { game_id: room.id.clone(), ending });
            self.clock_changed(room, table);
        }
        if row.rematch_offered_by != table.rematch_offered_by && row.rematch.is_none() {
            table.rematch_offered_by = row.rematch_offered_by;
            table.rematch_offer_hash = row.rematch_offer_hash.clone();
            if let Some(by) = row.rematch_offered_by {
                room.send_all(&ServerMessage::RematchOffered { game_id: room.id.clone(), by });
            }
        }
        if table.rematch.is_none()
            && let Some(new_id) = row.rematch
        {
            table.rematch = Some(new_id.clone());
            for old_seat in Side::BOTH {
                room.send_to_seat(old_seat, |token| rematch_ready(&room.id, &new_id, old_seat, token));
            }
        }
    }
}
