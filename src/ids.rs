//! Random identifiers and secrets, and the hash under which secrets are stored.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// `n` random bytes from the OS-seeded CSPRNG, as lower-case hex.
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// SHA-256 of a high-entropy secret (API key, session token, admin token).
/// A slow password hash is not needed: the secrets are 160+ random bits.
pub fn secret_hash(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// Compares two secrets without leaking where they differ through timing.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub fn uuid() -> String {
    uuid::Uuid::new_v4().to_string()
}
