//! Game ids, invite codes and seat tokens, drawn from the operating system's randomness (secrets
//! must not follow from a seed).

/// Invite codes use letters and digits that cannot be mistaken for each other when read aloud or
/// typed from a phone (no 0/O, 1/I/L, 2/Z, 5/S, 8/B).
const CODE_ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTUVWXY34679";

/// Letters of an invite code (25^8 ≈ 1.5e11 codes, and guessing is throttled per connection).
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

/// An invite code such as `KXQ4-M7TA`.
pub fn invite_code() -> String {
    let letters: String = random_bytes::<CODE_LENGTH>()
        .iter()
        .map(|b| CODE_ALPHABET[*b as usize % CODE_ALPHABET.len()] as char)
        .collect();
    format!("{}-{}", &letters[..4], &letters[4..])
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
}
