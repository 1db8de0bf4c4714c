//! The online seats the player holds, read from the store at start-up and whenever the online
//! screen opens (another window may have taken a seat), written before a new token is shown.

use crate::app::screen::Screen;
use crate::app::settings::SaveStore;
use crate::save::{KeptSeat, forget_seat, keep_seat, load_seats};
use bevy::prelude::*;

/// The kept seats, newest first, and what went wrong reading or writing them.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct KeptSeats {
    pub seats: Vec<KeptSeat>,
    pub problem: Option<String>,
}

impl KeptSeats {
    /// Keeps a seat in the store first, then in the list. When the store refuses, the seat stays
    /// in the list for this run and the problem is shown (the player can still note the game).
    pub fn keep(&mut self, store: &mut SaveStore, seat: KeptSeat) {
        match keep_seat(&mut store.0, seat.clone()) {
            Ok(seats) => {
                self.seats = seats;
                self.problem = None;
            }
            Err(e) => {
                warn!("online: {e}");
                self.problem = Some(format!("This seat could not be kept for later: {e}"));
                self.seats.retain(|s| !(s.game_id == seat.game_id && s.token == seat.token));
                self.seats.insert(0, seat);
            }
        }
    }

    /// Forgets a seat (its game was withdrawn before anyone joined).
    pub fn forget(&mut self, store: &mut SaveStore, seat: &KeptSeat) {
        match forget_seat(&mut store.0, &seat.game_id, &seat.token) {
            Ok(seats) => self.seats = seats,
            Err(e) => {
                warn!("online: {e}");
                self.seats.retain(|s| !(s.game_id == seat.game_id && s.token == seat.token));
            }
        }
    }

    /// The seats taken on the server at `url`, newest first.
    pub fn on_server<'a>(&'a self, url: &'a str) -> impl Iterator<Item = &'a KeptSeat> + 'a {
        self.seats.iter().filter(move |s| s.server == url)
    }

    /// The kept seat of a game.
    pub fn find(&self, game_id: &str) -> Option<&KeptSeat> {
        self.seats.iter().find(|s| s.game_id == game_id)
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<KeptSeats>();
    app.add_systems(Startup, read_seats);
    app.add_systems(OnEnter(Screen::Online), read_seats);
}

fn read_seats(store: Res<SaveStore>, mut kept: ResMut<KeptSeats>) {
    match load_seats(&store.0) {
        Ok(seats) => kept.set_if_neq(KeptSeats { seats, problem: None }),
        Err(e) => kept.set_if_neq(KeptSeats { seats: kept.seats.clone(), problem: Some(e.to_string()) }),
    };
}
