//! The daily digest (`serve --smtp`): once a day at most, each player who gave an e-mail address,
//! and confirmed it from the mail that asks, and has games waiting for their move gets one mail
//! listing them; never a mail per move. Every digest carries its way out: a link (and the
//! one-click `List-Unsubscribe` headers of RFC 8058) with a token of its own, kept hashed.

use super::hub::{EMAIL_CHANGES_PER_HOUR, Hub, unavailable};
use super::smtp::SmtpOptions;
use super::store::GameStore;
use crate::online::clock::{DAY_MS, clock_words};
use crate::online::protocol::{ErrorCode, ServerMessage};
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sqlx::Row;
use std::sync::Arc;

/// How often the server looks for digests to send.
const LOOK_EVERY_MS: i64 = 3_600_000;

/// A player due a digest.
struct Reader {
    id: String,
    name: String,
    email: String,
}

/// How long a digest's way out keeps working.
const WAY_OUT_KEPT_MS: i64 = 180 * DAY_MS;

/// Checks an address as a mail server would take it.
pub fn check_address(address: &str) -> Result<(), String> {
    if address.len() > 254 || address.parse::<lettre::Address>().is_err() {
        return Err(format!("'{}' is not an e-mail address", address.chars().take(60).collect::<String>()));
    }
    Ok(())
}

impl GameStore {
    /// Sets a player's address, unconfirmed, with the hash of its confirmation token; or (`None`)
    /// forgets it and every way-out token of theirs.
    pub async fn set_email(&self, player: &str, email: Option<(&str, &str)>) -> Result<(), super::store::StoreError> {
        sqlx::query(
            "UPDATE players SET email = $1, email_confirm_hash = $2, email_confirmed = 0, email_token = NULL WHERE id = $3",
        )
        .bind(email.map(|(address, _)| address))
        .bind(email.map(|(_, confirm_hash)| confirm_hash))
        .bind(player)
        .execute(&self.pool)
        .await?;
        if email.is_none() {
            sqlx::query("DELETE FROM email_tokens WHERE player_id = $1").bind(player).execute(&self.pool).await?;
        }
        Ok(())
    }

    /// A player's address and whether it is confirmed.
    pub async fn email_of(&self, player: &str) -> Result<(Option<String>, bool), super::store::StoreError> {
        let row = sqlx::query("SELECT email, email_confirmed FROM players WHERE id = $1")
            .bind(player)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(r) => Ok((r.try_get("email")?, r.try_get::<i64, _>("email_confirmed")? != 0)),
            None => Ok((None, false)),
        }
    }

    /// Confirms the address whose confirmation token hashes to `hash`: its player and the
    /// address. `Ok(None)`: no address has that token.
    pub async fn confirm_email(&self, hash: &str) -> Result<Option<(String, String)>, super::store::StoreError> {
        let row = sqlx::query(
            "UPDATE players SET email_confirmed = 1, email_confirm_hash = NULL WHERE email_confirm_hash = $1 AND email IS NOT NULL
             RETURNING id, email",
        )
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((r.try_get("id")?, r.try_get("email")?))).transpose()
    }

    /// Forgets the address whose way-out token hashes to `hash`. `Ok(false)`: no address has it.
    pub async fn unsubscribe(&self, hash: &str) -> Result<bool, super::store::StoreError> {
        let row = sqlx::query("SELECT player_id FROM email_tokens WHERE hash = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(false) };
        let player: String = row.try_get("player_id")?;
        let (address, _) = self.email_of(&player).await?;
        self.set_email(&player, None).await?;
        Ok(address.is_some())
    }

    /// Keeps the hash of a digest's way-out token, and forgets those of digests over
    /// [`WAY_OUT_KEPT_MS`] old (their links then say there is nothing to do).
    async fn keep_way_out(&self, player: &str, hash: &str, now: i64) -> Result<(), super::store::StoreError> {
        sqlx::query("DELETE FROM email_tokens WHERE player_id = $1 AND created_ms < $2")
            .bind(player)
            .bind(now - WAY_OUT_KEPT_MS)
            .execute(&self.pool)
            .await?;
        sqlx::query("INSERT INTO email_tokens (hash, player_id, created_ms) VALUES ($1, $2, $3)")
            .bind(hash)
            .bind(player)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Players with an address whose last digest is a day old or more (or who never had one).
    async fn due_readers(&self, now: i64) -> Result<Vec<Reader>, super::store::StoreError> {
        let rows = sqlx::query(
            "SELECT id, name, email FROM players WHERE email IS NOT NULL AND email_confirmed = 1 AND (digest_ms IS NULL OR digest_ms <= $1)",
        )
        .bind(now - DAY_MS)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok(Reader { id: r.try_get("id")?, name: r.try_get("name")?, email: r.try_get("email")? }))
            .collect()
    }

    async fn digest_sent(&self, player: &str, now: i64) -> Result<(), super::store::StoreError> {
        sqlx::query("UPDATE players SET digest_ms = $1 WHERE id = $2")
            .bind(now)
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A player's games still going with both seats taken: id and the player's seat.
    async fn going_games_of(&self, player: &str) -> Result<Vec<(String, usize)>, super::store::StoreError> {
        let rows = sqlx::query(
            "SELECT id, player_first FROM games WHERE (player_first = $1 OR player_second = $1) AND ending IS NULL AND token_first IS NOT NULL AND token_second IS NOT NULL",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let first: Option<String> = r.try_get("player_first")?;
                Ok((r.try_get("id")?, if first.as_deref() == Some(player) { 0 } else { 1 }))
            })
            .collect()
    }
}

impl Hub {
    /// Sets the signed-in player's address for the digest (empty: forgets it). A new address gets
    /// a mail asking to confirm it, and no digest until it is confirmed, so nobody can have the
    /// digest sent to a stranger.
    pub(super) async fn set_email(
        &self,
        session: &super::hub::Session,
        address: &str,
    ) -> Result<ServerMessage, ServerMessage> {
        let me = super::accounts::signed_in(session).map_err(|e| *e)?;
        let address = address.trim();
        if address.is_empty() {
            self.store.set_email(&me.id, None).await.map_err(unavailable)?;
            return Ok(ServerMessage::EmailSet { address: None, confirmed: false });
        }
        check_address(address).map_err(|why| ServerMessage::error(ErrorCode::BadMessage, why))?;
        let Some(smtp) = self.smtp.clone() else {
            return Err(ServerMessage::error(ErrorCode::BadMessage, "this server sends no mail"));
        };
        if !self.email_changes.allow(me.id.clone()) {
            return Err(ServerMessage::error(
                ErrorCode::RateLimited,
                format!("at most {EMAIL_CHANGES_PER_HOUR} addresses an hour; try again later"),
            ));
        }
        let token = super::ids::seat_token();
        let hash = super::ids::token_hash(&token);
        self.store.set_email(&me.id, Some((address, &hash))).await.map_err(unavailable)?;
        let mail = confirmation_mail(&me.name, address, &token, &smtp)
            .map_err(|why| ServerMessage::error(ErrorCode::BadMessage, why))?;
        // Sent meanwhile: a slow mail server does not hold the connection's requests up.
        tokio::spawn(async move {
            match AsyncSmtpTransport::<Tokio1Executor>::from_url(&smtp.url) {
                Ok(builder) => {
                    if let Err(e) = builder.build().send(mail).await {
                        eprintln!("stoneyard serve: sending a confirmation mail: {e}");
                    }
                }
                Err(e) => eprintln!("stoneyard serve: --smtp: {e}"),
            }
        });
        Ok(ServerMessage::EmailSet { address: Some(address.to_string()), confirmed: false })
    }

    /// Sends the digests due, hour after hour (the server's clock: a test's moves it by hand).
    pub async fn send_digests_forever(self: Arc<Hub>, smtp: SmtpOptions) {
        let mailer = match AsyncSmtpTransport::<Tokio1Executor>::from_url(&smtp.url) {
            Ok(builder) => builder.build(),
            Err(e) => {
                eprintln!("stoneyard serve: --smtp: {e}; no digests will be sent");
                return;
            }
        };
        loop {
            let now = self.now();
            if let Err(e) = self.send_digests(&mailer, &smtp, now).await {
                eprintln!("stoneyard serve: the daily digest: {e}");
            }
            // Look again in an hour (or as soon as a test's clock moves).
            let until = now + LOOK_EVERY_MS;
            while self.now() < until {
                self.clock.sleep(until - self.now()).await;
            }
        }
    }

    async fn send_digests(
        &self,
        mailer: &AsyncSmtpTransport<Tokio1Executor>,
        smtp: &SmtpOptions,
        now: i64,
    ) -> Result<(), String> {
        for reader in self.store.due_readers(now).await.map_err(|e| e.to_string())? {
            let waiting = self.games_waiting_for(&reader.id, now).await;
            if waiting.is_empty() {
                continue;
            }
            // Each digest has a way out of its own; the store keeps its hash.
            let way_out = super::ids::seat_token();
            self.store
                .keep_way_out(&reader.id, &super::ids::token_hash(&way_out), now)
                .await
                .map_err(|e| e.to_string())?;
            let mail = digest_mail(&reader, &way_out, &waiting, smtp)?;
            mailer.send(mail).await.map_err(|e| format!("sending to {}: {e}", reader.email))?;
            self.store.digest_sent(&reader.id, now).await.map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// The player's games waiting for their move, in words ("Red Stone against Bob · 18 h 2 min left").
    async fn games_waiting_for(&self, player: &str, now: i64) -> Vec<String> {
        let games = match self.store.going_games_of(player).await {
            Ok(games) => games,
            Err(e) => {
                eprintln!("stoneyard serve: the digest's games: {e}");
                return Vec::new();
            }
        };
        let mut waiting = Vec::new();
        for (id, seat) in games {
            let room = self.room(&id);
            if let Ok(table) = self.table(&room).await
                && table.due()[seat]
            {
                let against = table.players[1 - seat].as_ref().map(|(_, name)| name.clone());
                let mut line = match against {
                    Some(name) => format!("{} against {name}", table.kind.name()),
                    None => table.kind.name().to_string(),
                };
                if let Some(clock) = &table.clock {
                    let side = crate::rules::Side::from_index(seat);
                    line.push_str(&format!(" · {} left", clock_words(clock.left_at(side, now, &table.pauses))));
                }
                waiting.push(line);
            }
            self.forget_if_unfollowed(&room);
        }
        waiting
    }
}

/// The mail: the games, a link to play, and the way out (a link and RFC 8058's headers).
fn digest_mail(reader: &Reader, token: &str, waiting: &[String], smtp: &SmtpOptions) -> Result<Message, String> {
    let site = smtp.public_url.trim_end_matches('/');
    let way_out = format!("{site}/unsubscribe?token={token}");
    let subject = match waiting.len() {
        1 => "Stoneyard: a game waits for your move".to_string(),
        n => format!("Stoneyard: {n} games wait for your move"),
    };
    let mut body = format!("Hello {},\n\n", reader.name);
    for line in waiting {
        body.push_str(&format!("- {line}\n"));
    }
    body.push_str(&format!(
        "\nPlay: {site}/\n\nThis is your daily digest: one mail a day at most, only when games wait for you.\nNo more of these mails: {way_out}\n"
    ));
    let header = |name: &'static str, value: String| HeaderValue::new(HeaderName::new_from_ascii_str(name), value);
    Message::builder()
        .from(smtp.from.parse().map_err(|e| format!("--smtp-from '{}': {e}", smtp.from))?)
        .to(reader.email.parse().map_err(|e| format!("the address of {}: {e}", reader.name))?)
        .subject(subject)
        .raw_header(header("List-Unsubscribe", format!("<{way_out}>")))
        .raw_header(header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click".to_string()))
        .body(body)
        .map_err(|e| e.to_string())
}

/// The mail that asks to confirm an address before any digest goes to it.
fn confirmation_mail(name: &str, address: &str, token: &str, smtp: &SmtpOptions) -> Result<Message, String> {
    let site = smtp.public_url.trim_end_matches('/');
    let body = format!(
        "Hello {name},\n\nSomeone (you, we hope) asked Stoneyard to send a daily digest of the games waiting for {name}'s move to this address.\n\nConfirm: {site}/confirm?token={token}\n\nIf it was not you, ignore this mail: nothing more will come.\n"
    );
    Message::builder()
        .from(smtp.from.parse().map_err(|e| format!("--smtp-from '{}': {e}", smtp.from))?)
        .to(address.parse().map_err(|e| format!("'{address}': {e}"))?)
        .subject("Stoneyard: confirm your address for the daily digest")
        .body(body)
        .map_err(|e| e.to_string())
}
