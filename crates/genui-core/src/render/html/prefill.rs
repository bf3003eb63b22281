//! A hosted form's pre-fill proof: the page shows the values of its link's
//! `#data=` fragment only when their salted digest is the one its record
//! keeps, so a forged fragment cannot put words in the form.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Random bytes salting a record's pre-fill digest.
pub(crate) const SALT_BYTES: usize = 16;

/// A salted digest of the pre-fill's JSON text: the page shows the
/// fragment's values only when `SHA-256(salt ++ text)` is `digest`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prefill {
    /// The record's random salt, hex.
    pub salt: String,
    /// SHA-256 (hex) of the salt's hex text followed by the fragment's JSON text.
    pub digest: String,
}

impl Prefill {
    /// Random bytes salting a record's pre-fill digest.
    pub const SALT_BYTES: usize = SALT_BYTES;

    /// The fragment's JSON text for `data` and its digest under `salt`
    /// (random bytes from the platform's CSPRNG); `None` without data.
    pub fn of(data: &Value, salt: [u8; SALT_BYTES]) -> Option<(String, Self)> {
        use sha2::Digest as _;
        if data.is_null() {
            return None;
        }
        let text = data.to_string();
        let salt = hex::encode(salt);
        let digest = hex::encode(
            sha2::Sha256::new()
                .chain_update(salt.as_bytes())
                .chain_update(text.as_bytes())
                .finalize(),
        );
        Some((text, Self { salt, digest }))
    }
}
