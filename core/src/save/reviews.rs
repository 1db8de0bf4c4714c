//! Reviews kept with their games: a finished review is written once under a key made from the
//! game itself (game, options, start, decisions), so the same game reopened from the game-over
//! card, the replay, Saved games or the history finds its review without the computer thinking
//! again. At most [`KEEP_REVIEWS`]; past that, those kept longest ago go.

use super::store::{Store, StoreError};
use crate::ai::review::GameReview;
use serde::{Deserialize, Serialize};

pub const REVIEWS_FOLDER: &str = "reviews";
pub const KEEP_REVIEWS: usize = 100;

#[derive(Serialize, Deserialize)]
struct KeptReview {
    kept_unix_ms: u64,
    review: GameReview,
}

/// The key of the review of this game.
pub fn review_key(game: &str, options: &[(String, String)], start: Option<&str>, decisions: &[String]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes.iter().chain(&[0xff]) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(game.as_bytes());
    for (k, v) in options {
        eat(k.as_bytes());
        eat(v.as_bytes());
    }
    eat(start.unwrap_or("").as_bytes());
    for d in decisions {
        eat(d.as_bytes());
    }
    format!("{REVIEWS_FOLDER}/{hash:016x}.json")
}

fn key_of(review: &GameReview) -> String {
    review_key(&review.game, &review.options, review.start.as_deref(), &review.decisions)
}

/// Keeps a review (finished or not) and returns its key.
pub fn keep_review(store: &mut Store, review: &GameReview, now_unix_ms: u64) -> Result<String, StoreError> {
    let key = key_of(review);
    let kept = KeptReview { kept_unix_ms: now_unix_ms, review: review.clone() };
    let text =
        serde_json::to_string(&kept).map_err(|e| StoreError::Write { name: key.clone(), reason: e.to_string() })?;
    store.write(&key, &text)?;
    let keys = store.list(REVIEWS_FOLDER)?;
    if keys.len() > KEEP_REVIEWS {
        let mut dated: Vec<(u64, String)> = keys
            .into_iter()
            .map(|k| {
                let when = store
                    .read(&k)
                    .ok()
                    .flatten()
                    .and_then(|t| serde_json::from_str::<KeptReview>(&t).ok())
                    .map_or(0, |r| r.kept_unix_ms);
                (when, k)
            })
            .collect();
        dated.sort();
        for (_, old) in dated.iter().take(dated.len() - KEEP_REVIEWS) {
            store.remove(old)?;
        }
    }
    Ok(key)
}

/// The review kept for this game, if any (one that does not read, or is of another game, is
/// ignored: the computer reviews the game again).
pub fn load_review(
    store: &Store,
    game: &str,
    options: &[(String, String)],
    start: Option<&str>,
    decisions: &[String],
) -> Option<GameReview> {
    let key = review_key(game, options, start, decisions);
    let text = store.read(&key).ok().flatten()?;
    let kept: KeptReview = serde_json::from_str(&text).ok()?;
    let review = GameReview::from_json(&serde_json::to_string(&kept.review).ok()?).ok()?;
    (review.game == game && review.decisions == decisions).then_some(review)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::review::ReviewSettings;
    use crate::games::GameKind;
    use crate::session::Match;

    fn small_review() -> GameReview {
        let options = [("size".to_string(), "5".to_string())];
        let mut game = Match::open(GameKind::from_slug("red-stone").unwrap(), &options, None).unwrap();
        for d in ["C3", "swap", "A1"] {
            let seat = game.seat_for(d).unwrap();
            game.decide(seat, d, 0).unwrap();
        }
        GameReview::plan(&game, ReviewSettings { iterations: 200, seed: 5 }).unwrap()
    }

    #[test]
    fn a_kept_review_reloads_as_it_was_and_a_damaged_one_is_ignored() {
        let mut store = Store::memory();
        let mut review = small_review();
        review.complete(|_, _| {}).unwrap();
        let key = keep_review(&mut store, &review, 1).unwrap();
        let loaded = load_review(&store, &review.game, &review.options, None, &review.decisions).unwrap();
        assert_eq!(loaded, review);
        assert_eq!(loaded.next_probe(), None, "nothing is left to think about");
        let other = [review.decisions[0].clone()];
        assert!(load_review(&store, &review.game, &review.options, None, &other).is_none());
        store.write(&key, "{ not a review").unwrap();
        assert!(load_review(&store, &review.game, &review.options, None, &review.decisions).is_none());
    }
}
