//! Game ids, invite codes and seat tokens, drawn from the operating system's randomness (secrets
//! must not follow from a seed), and the hashes the store keeps of tokens instead of the tokens.

use sha2::{Digest, Sha256};

/// Invite codes use letters and digits that cannot be mistaken for each other when read aloud or
/// typed from a phone (no 0/O, 1/I/L, 2/Z, 5/S, 8/B).
const CODE_ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTUVWXY34679";

/// Letters of an invite code (25^8 ≈ 1.5e11 codes; guessing is throttled per address, and a code
/// stops working once both seats are taken).
const CODE_LENGTH: usize = 8;

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    os_random::fill(&mut bytes).expect("the operating system provides randomness");
    bytes
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A game's id: 64 random bits in hex.
pub fn game_id() -> String {
    hex(&random_bytes::<8>())
}

/// A seat token: 128 random bits in hex.
pub fn seat_token() -> String {
    hex(&random_bytes::<16>())
}

/// An invite code such as `KXQ4-M7TA`, every letter equally likely.
pub fn invite_code() -> String {
    let mut letters = String::with_capacity(CODE_LENGTH);
    while letters.len() < CODE_LENGTH {
        letters
            .extend(random_bytes::<16>().iter().filter_map(|&b| unbiased_letter(b)).take(CODE_LENGTH - letters.len()));
    }
    format!("{}-{}", &letters[..4], &letters[4..])
}

/// The letter a random byte stands for, or `None` for the bytes above the largest multiple of the
/// alphabet's size (a plain `byte % 25` would make the first six letters likelier).
fn unbiased_letter(byte: u8) -> Option<char> {
    let alphabet = CODE_ALPHABET.len();
    let usable = 256 - 256 % alphabet;
    ((byte as usize) < usable).then(|| CODE_ALPHABET[byte as usize % alphabet] as char)
}

/// What the store keeps of a seat token: its SHA-256 in hex (a token is 128 random bits, so a
/// fast hash is enough; a stolen database gives no seat away).
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// The token a player's device holds for one of their seats (`MyGames`, quick play): derived from
/// the device's player key, which only the device keeps (the store has its hash and the grant's
/// hash), so each device gets the same token again and a stolen database gives no seat away.
pub fn grant_token(key: &str, game_id: &str, seat: crate::rules::Side) -> String {
    let mut hash = Sha256::new();
    for part in ["stoneyard seat grant", key, game_id, &seat.index().to_string()] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hex(&hash.finalize()[..16])
}

/// The token of a seat's place in the rematch, derived from its token in the game before (so the
/// server, which keeps only hashes, can hand it again to whoever shows the old token).
pub fn rematch_token(old_token: &str) -> String {
    hex(&Sha256::digest(format!("stoneyard rematch {old_token}").as_bytes())[..16])
}

/// A code as a person typed it: upper case, the dash optional, spaces ignored.
pub fn normalise_code(typed: &str) -> Option<String> {
    let letters: String =
        typed.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_uppercase()).collect();
    (letters.len() == CODE_LENGTH && letters.bytes().all(|b| CODE_ALPHABET.contains(&b)))
        .then(|| format!("{}-{}", &letters[..4], &letters[4..]))
}

/// A coin toss for "random seat".
pub fn coin() -> bool {
    random_bytes::<1>()[0] & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back_however_they_are_typed_and_tokens_differ() {
        let code = invite_code();
        assert_eq!(normalise_code(&code).as_deref(), Some(code.as_str()));
        assert_eq!(normalise_code(&code.to_lowercase().replace('-', " ")).as_deref(), Some(code.as_str()));
        assert_eq!(normalise_code("ABCD-EFG"), None);
        assert_eq!(normalise_code("OOOO-OOOO"), None);
        assert_ne!(seat_token(), seat_token());
        assert_eq!(seat_token().len(), 32);
    }

    #[test]
    fn every_code_letter_is_equally_likely() {
        let mut counts = [0u32; 256];
        for byte in 0..=255u8 {
            if let Some(letter) = unbiased_letter(byte) {
                counts[letter as usize] += 1;
            }
        }
        let used: Vec<u32> = counts.iter().copied().filter(|&c| c > 0).collect();
        assert_eq!(used.len(), CODE_ALPHABET.len());
        assert!(used.iter().all(|&c| c == used[0]), "{used:?}");
    }

    #[test]
    fn hashes_and_rematch_tokens_are_fixed_functions_of_the_token() {
        let token = seat_token();
        assert_eq!(token_hash(&token), token_hash(&token));
        assert_ne!(token_hash(&token), token);
        assert_eq!(token_hash(&token).len(), 64);
        assert_eq!(rematch_token(&token), rematch_token(&token));
        assert_eq!(rematch_token(&token).len(), 32);
        assert_ne!(rematch_token(&token), token);
    }
}
