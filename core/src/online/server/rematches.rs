//! Rematches: an offer stored and announced, and once both sides asked, the new game with the
//! seats swapped and each seat's token derived from its token in the old game.

use super::hub::{Hub, unavailable};
use super::ids;
use super::room::Room;
use super::store::GameRow;
use crate::online::protocol::{ErrorCode, ServerMessage};
use crate::rules::Side;

impl Hub {
    pub(super) async fn rematch(&self, id: &str, token: &str) -> Result<ServerMessage, ServerMessage> {
        let room = self.room(id);
        let result = self.rematch_in(&room, id, token).await;
        if result.is_ok() {
            self.announce(id, None).await;
        }
        self.forget_if_unfollowed(&room);
        result
    }

    pub(super) async fn rematch_in(&self, room: &Room, id: &str, token: &str) -> Result<ServerMessage, ServerMessage> {
        let mut table = self.table(room).await?;
        let seat = self.seat_for(&mut table, id, token).await?;
        if table.ending.is_none() {
            return Err(ServerMessage::game_error(
                ErrorCode::BadMessage,
                id,
                "a rematch is offered once the game has ended",
            ));
        }
        // The seat's token in the rematch follows from its token here; the store keeps its hash.
        let new_hash = ids::token_hash(&ids::rematch_token(token));
        if table.rematch.is_none() && table.rematch_offered_by.is_none_or(|by| by == seat) {
            self.store.offer_rematch(id, seat, &new_hash).await.map_err(unavailable)?;
            table.rematch_offered_by = Some(seat);
            table.rematch_offer_hash = Some(new_hash);
            let offered = ServerMessage::RematchOffered { game_id: id.to_string(), by: seat };
            room.send_all(&offered);
            return Ok(offered);
        }
        if table.rematch.is_none() {
            // Both asked: the new game, seats swapped.
            let offerer = seat.opponent();
            let offer_hash = table.rematch_offer_hash.clone().ok_or_else(|| unavailable("the offer has no seat"))?;
            let mut row = GameRow::private(
                ids::game_id(),
                table.kind.slug().to_string(),
                table.options.clone(),
                ids::invite_code(),
            );
            row.tokens[offerer.opponent().index()] = Some(offer_hash);
            row.tokens[seat.opponent().index()] = Some(new_hash);
            // The players keep their names in the rematch, seats swapped, rated and listed as before.
            row.players = [table.players[1].clone().map(|p| p.0), table.players[0].clone().map(|p| p.0)];
            row.rated = table.rated;
            row.public = self.store.game(id).await.map_err(unavailable)?.is_some_and(|g| g.public);
            if !self.store.create(&row, self.now()).await.map_err(unavailable)? {
                return Err(unavailable("a random game id was taken"));
            }
            if !self.store.set_rematch(id, &row.id).await.map_err(unavailable)? {
                self.refresh_locked(room, &mut table).await;
            } else {
                table.rematch = Some(row.id.clone());
                for old_seat in Side::BOTH {
                    room.send_to_seat(old_seat, |token| rematch_ready(id, &row.id, old_seat, token));
                }
            }
        }
        let new_id = table.rematch.clone().ok_or_else(|| unavailable("the rematch vanished"))?;
        Ok(rematch_ready(id, &new_id, seat, token))
    }
}

/// The place of the holder of `token` (seat `seat` of game `id`) in the rematch `new_id`: the
/// other seat, with the token derived from this one.
pub(super) fn rematch_ready(id: &str, new_id: &str, seat: Side, token: &str) -> ServerMessage {
    ServerMessage::RematchReady {
        game_id: id.to_string(),
        new_game_id: new_id.to_string(),
        seat: seat.opponent(),
        token: ids::rematch_token(token),
    }
}
