//! Room ids and seat tokens: random, unguessable, URL-safe; and the digests the server keeps of
//! the tokens.

use std::fmt;

use sha2::{Digest, Sha256};

/// Random bytes in a room id (128 bits).
pub const ROOM_ID_BYTES: usize = 16;
/// Random bytes in a seat token (256 bits).
pub const TOKEN_BYTES: usize = 32;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The operating system gave no randomness.
#[derive(Debug, thiserror::Error)]
#[error("no randomness available: {0}")]
pub struct RandomError(String);

fn random_text(len: usize) -> Result<String, RandomError> {
    let mut bytes = vec![0u8; len];
    getrandom::fill(&mut bytes).map_err(|e| RandomError(e.to_string()))?;
    Ok(base64url(&bytes))
}

/// Unpadded base64url.
fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            let idx = (n >> (18 - 6 * i)) & 63;
            out.push(char::from(ALPHABET[idx as usize]));
        }
    }
    out
}

fn is_base64url(s: &str, bytes: usize) -> bool {
    let len = (bytes * 4).div_ceil(3);
    s.len() == len && s.bytes().all(|c| ALPHABET.contains(&c))
}

/// A room's id: 128 random bits, 22 URL-safe characters. It is the room's address, so logs show
/// only [`RoomId::short`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RoomId(String);

impl RoomId {
    /// A fresh random id.
    ///
    /// # Errors
    /// [`RandomError`] if the system has no randomness.
    pub fn random() -> Result<RoomId, RandomError> {
        random_text(ROOM_ID_BYTES).map(RoomId)
    }

    /// Parses an id from a URL; `None` if it cannot be one.
    #[must_use]
    pub fn parse(s: &str) -> Option<RoomId> {
        is_base64url(s, ROOM_ID_BYTES).then(|| RoomId(s.to_owned()))
    }

    /// The full id.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first characters, for logs.
    #[must_use]
    pub fn short(&self) -> &str {
        self.0.get(..6).unwrap_or(&self.0)
    }
}

impl fmt::Debug for RoomId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RoomId({}…)", self.short())
    }
}

/// A seat's secret: 256 random bits. Its `Debug` never shows it, and the server keeps only its
/// [`SeatKey`].
pub struct Token(String);

impl Token {
    /// A fresh random token.
    ///
    /// # Errors
    /// [`RandomError`] if the system has no randomness.
    pub fn random() -> Result<Token, RandomError> {
        random_text(TOKEN_BYTES).map(Token)
    }

    /// The secret itself, for the one reply that hands it to its owner.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

/// What the server keeps of a seat's token: its SHA-256 digest, so that a copy of the database
/// or of a room's snapshot does not let anyone take a seat. Stored as `sha256:` and the digest
/// in base64url; a stored value without that prefix is a token kept by an older server, and is
/// read as the digest of that token.
#[derive(Clone, PartialEq, Eq)]
pub struct SeatKey(String);

const SEAT_KEY_PREFIX: &str = "sha256:";

impl SeatKey {
    /// The key of a token.
    #[must_use]
    pub fn of(token: &Token) -> SeatKey {
        SeatKey::of_text(token.expose())
    }

    fn of_text(token: &str) -> SeatKey {
        SeatKey(base64url(&Sha256::digest(token.as_bytes())))
    }

    /// Whether a presented token is the one this key was made from, in time independent of
    /// where the digests differ.
    #[must_use]
    pub fn matches(&self, presented: &str) -> bool {
        let other = SeatKey::of_text(presented);
        let (a, b) = (self.0.as_bytes(), other.0.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

impl fmt::Debug for SeatKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatKey(…)")
    }
}

impl serde::Serialize for SeatKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{SEAT_KEY_PREFIX}{}", self.0))
    }
}

impl<'de> serde::Deserialize<'de> for SeatKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SeatKey, D::Error> {
        let text = String::deserialize(d)?;
        match text.strip_prefix(SEAT_KEY_PREFIX) {
            Some(digest) if is_base64url(digest, 32) => Ok(SeatKey(digest.to_owned())),
            Some(_) => Err(serde::de::Error::custom("a seat key that is not a digest")),
            None => Ok(SeatKey::of_text(&text)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_22_url_safe_chars_and_parse_back() {
        let id = RoomId::random().unwrap();
        assert_eq!(id.as_str().len(), 22);
        assert_eq!(RoomId::parse(id.as_str()), Some(id.clone()));
        assert_ne!(RoomId::random().unwrap(), id);
        assert_eq!(RoomId::parse("short"), None);
        assert_eq!(RoomId::parse("AAAAAAAAAAAAAAAAAAAAA/"), None);
    }

    #[test]
    fn base64url_known_values() {
        assert_eq!(base64url(b"f"), "Zg");
        assert_eq!(base64url(b"fo"), "Zm8");
        assert_eq!(base64url(b"foo"), "Zm9v");
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn tokens_match_only_themselves_and_hide_in_debug() {
        let t = Token::random().unwrap();
        let key = SeatKey::of(&t);
        assert_eq!(t.expose().len(), 43);
        assert!(key.matches(t.expose()));
        assert!(!key.matches("x"));
        let mut other = t.expose().to_owned();
        other.replace_range(0..1, if other.starts_with('A') { "B" } else { "A" });
        assert!(!key.matches(&other));
        assert!(!format!("{t:?}").contains(t.expose()));
    }

    #[test]
    fn a_seat_key_matches_its_token_only_and_never_shows_it() {
        let token = Token::random().unwrap();
        let key = SeatKey::of(&token);
        assert!(key.matches(token.expose()));
        assert!(!key.matches(Token::random().unwrap().expose()));
        assert!(!key.matches(""));
        let stored = serde_json::to_string(&key).unwrap();
        assert!(stored.starts_with("\"sha256:"), "{stored}");
        assert!(!stored.contains(token.expose()), "{stored}");
        assert!(!format!("{key:?}").contains(token.expose()));
        let back: SeatKey = serde_json::from_str(&stored).unwrap();
        assert!(back.matches(token.expose()));
    }

    #[test]
    fn a_token_stored_by_an_older_server_reads_as_its_key() {
        let token = Token::random().unwrap();
        let legacy = serde_json::to_string(token.expose()).unwrap();
        let key: SeatKey = serde_json::from_str(&legacy).unwrap();
        assert!(key.matches(token.expose()));
        assert_eq!(key, SeatKey::of(&token));
        assert!(serde_json::from_str::<SeatKey>("\"sha256:short\"").is_err());
    }
}
