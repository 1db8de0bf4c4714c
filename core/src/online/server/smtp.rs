//! Where the server's mail goes out (`serve --smtp`): the digest and the confirmations of addresses.

/// Where and how the digest is sent.
#[derive(Clone, Debug)]
pub struct SmtpOptions {
    /// `smtp://user:password@host:587?tls=required` (STARTTLS), `smtps://…:465` (TLS), or
    /// `smtp://127.0.0.1:25` (a relay on this machine, unencrypted).
    pub url: String,
    /// The sender, `Stoneyard <games@example.org>`.
    pub from: String,
    /// The server's address as players reach it (`https://games.example.org`), for the links.
    pub public_url: String,
}
