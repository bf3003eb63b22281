//! Once-only webhooks: a signed `POST /v1/webhook` request is accepted once.
//!
//! A webhook signature verifies from [`MAX_CLOCK_SKEW_SECONDS`] before its
//! timestamp to [`TOLERANCE_SECONDS`] after it, so the worker remembers
//! every accepted signature for that long, and a second request carrying
//! it is a replay (`webhook_replayed`, 409). What is remembered is the
//! SHA-256 of the `v1` MAC that matched, not the header's text, so
//! reordering the header or adding other `v1` values does not make a new
//! request.
//!
//! The memory is a Durable Object (Workers KV has no conditional put),
//! sharded by that hash: the shell asks the object named
//! [`ReplayClaim::shard`]. The object is single-threaded, so "seen?" and
//! "remember" happen with nothing in between; it decides with
//! [`ReplayClaim::seen`], keeps the key until [`ReplayClaim::forget_at`]
//! and deletes what [`ReplayClaim::is_forgotten`] says it may. The clock is
//! an argument; nothing here performs I/O.

use crate::error::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How long after its timestamp a signature is accepted, in seconds (the
/// window the signature check in `super::webhook` enforces, and so how long
/// a claim is remembered).
pub(crate) const TOLERANCE_SECONDS: u64 = 300;

/// How far ahead of the worker's clock a signature's timestamp may be, in
/// seconds: the signer's clock may run a little fast.
pub(crate) const MAX_CLOCK_SKEW_SECONDS: u64 = 30;

/// Hex digits of the key that name its shard: 256 objects.
const SHARD_HEX_DIGITS: usize = 2;

/// A verified webhook signature that must be claimed once, as the shell
/// sends it to its shard (JSON: `{"key", "forgetAt"}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayClaim {
    key: String,
    forget_at: u64,
}

impl ReplayClaim {
    /// The claim for the MAC `mac` of a signature made at `timestamp`.
    pub(crate) fn new(mac: &[u8], timestamp: u64) -> Self {
        Self {
            key: hex::encode(Sha256::digest(mac)),
            forget_at: forget_at(timestamp),
        }
    }

    /// Hex SHA-256 of the signature's MAC: what the shard remembers.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Unix seconds from which the signature can no longer be accepted, so
    /// the shard may forget it.
    pub fn forget_at(&self) -> u64 {
        self.forget_at
    }

    /// The name of the Durable Object that holds this key's shard.
    pub fn shard(&self) -> String {
        format!(
            "replay-{}",
            self.key.get(..SHARD_HEX_DIGITS).unwrap_or_default()
        )
    }

    /// Whether the shard has seen this key at `now`, given the forget time
    /// it holds for the key (`None`: it holds none).
    pub fn seen(stored_forget_at: Option<u64>, now: u64) -> bool {
        stored_forget_at.is_some_and(|at| !Self::is_forgotten(at, now))
    }

    /// Whether an entry forgotten at `forget_at` may be deleted at `now`.
    pub fn is_forgotten(forget_at: u64, now: u64) -> bool {
        forget_at <= now
    }

    /// The request's fate once its shard answered: accepted the first
    /// time, `webhook_replayed` after that.
    pub fn answer(&self, seen: bool) -> Result<()> {
        if !seen {
            return Ok(());
        }
        Err(Error::new(
            ErrorCode::WebhookReplayed,
            "this signed webhook request was already accepted; a request is accepted once (sign it again, with a new timestamp, to send it again)",
        ))
    }
}

/// When a signature made at `timestamp` can no longer verify: the end of its
/// window, plus the skew again for a shard whose clock runs ahead of the
/// worker's.
fn forget_at(timestamp: u64) -> u64 {
    timestamp
        .saturating_add(TOLERANCE_SECONDS)
        .saturating_add(MAX_CLOCK_SKEW_SECONDS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Webhook;

    const NOW: u64 = 1_800_000_000;

    fn claim(header: &str, now: u64) -> Result<ReplayClaim> {
        Webhook::verify_once(Some(header), b"{\"a\":1}", "s3cret", now)
    }

    #[test]
    fn the_claim_is_the_matched_signature_not_the_header_text() {
        let header = Webhook::sign("s3cret", NOW, b"{\"a\":1}");
        let first = claim(&header, NOW).unwrap();
        let (t, v1) = header.split_once(',').unwrap();
        for variant in [
            format!("{v1},{t}"),
            format!("{t},v1=00ff,{v1}"),
            format!(" {t} , {v1} ,v1=zz"),
        ] {
            assert_eq!(claim(&variant, NOW + 5).unwrap(), first, "{variant}");
        }
        let later = Webhook::sign("s3cret", NOW + 1, b"{\"a\":1}");
        assert_ne!(
            claim(&later, NOW + 1).unwrap().key(),
            first.key(),
            "a new timestamp is a new request"
        );
        assert_eq!(first.key().len(), 64);
        assert_eq!(first.shard(), format!("replay-{}", &first.key()[..2]));
    }

    #[test]
    fn a_signature_is_remembered_for_as_long_as_it_verifies() {
        let header = Webhook::sign("s3cret", NOW, b"{\"a\":1}");
        let remembered = claim(&header, NOW).unwrap();
        assert_eq!(
            remembered.forget_at(),
            NOW + TOLERANCE_SECONDS + MAX_CLOCK_SKEW_SECONDS
        );
        // Every instant at which the signature still verifies, the shard still
        // holds it: the window's last second, with the shard's clock up to the
        // allowed skew ahead.
        let last_accepted = NOW + TOLERANCE_SECONDS;
        assert!(
            claim(&header, last_accepted).is_ok() && claim(&header, last_accepted + 1).is_err()
        );
        for shard_clock_ahead in [0, MAX_CLOCK_SKEW_SECONDS - 1] {
            assert!(ReplayClaim::seen(
                Some(remembered.forget_at()),
                last_accepted + shard_clock_ahead
            ));
        }
        assert!(ReplayClaim::is_forgotten(
            remembered.forget_at(),
            remembered.forget_at()
        ));
        assert!(!ReplayClaim::is_forgotten(
            remembered.forget_at(),
            remembered.forget_at() - 1
        ));
        assert!(!ReplayClaim::seen(
            Some(remembered.forget_at()),
            remembered.forget_at()
        ));
        assert!(!ReplayClaim::seen(None, NOW));
    }

    #[test]
    fn a_timestamp_ahead_of_the_clock_is_taken_only_within_the_skew() {
        for ahead in [0, 10, MAX_CLOCK_SKEW_SECONDS] {
            assert!(
                claim(&Webhook::sign("s3cret", NOW + ahead, b"{\"a\":1}"), NOW).is_ok(),
                "+{ahead}s"
            );
        }
        for ahead in [MAX_CLOCK_SKEW_SECONDS + 1, 60, 299] {
            let error =
                claim(&Webhook::sign("s3cret", NOW + ahead, b"{\"a\":1}"), NOW).unwrap_err();
            assert_eq!(error.code(), ErrorCode::InvalidSignature, "+{ahead}s");
            assert!(error.to_string().contains("ahead"), "{error}");
        }
    }

    #[test]
    fn a_repeat_is_webhook_replayed() {
        let header = Webhook::sign("s3cret", NOW, b"{\"a\":1}");
        let claim = claim(&header, NOW).unwrap();
        assert!(claim.answer(false).is_ok());
        let error = claim.answer(true).unwrap_err();
        assert_eq!(
            (error.code().as_str(), error.http_status()),
            ("webhook_replayed", 409)
        );
    }

    #[test]
    fn shards_spread_over_256_names() {
        let shards: std::collections::BTreeSet<String> = (0..4096)
            .map(|t| {
                claim(&Webhook::sign("s3cret", NOW + t, b"{\"a\":1}"), NOW + t)
                    .unwrap()
                    .shard()
            })
            .collect();
        assert_eq!(shards.len(), 256);
        assert!(shards
            .iter()
            .all(|s| s.len() == "replay-".len() + SHARD_HEX_DIGITS));
    }

    #[test]
    fn the_claim_travels_as_json() {
        let claim = claim(&Webhook::sign("s3cret", NOW, b"{\"a\":1}"), NOW).unwrap();
        let json = serde_json::to_value(&claim).unwrap();
        assert_eq!(
            json["forgetAt"],
            NOW + TOLERANCE_SECONDS + MAX_CLOCK_SKEW_SECONDS
        );
        assert_eq!(serde_json::from_value::<ReplayClaim>(json).unwrap(), claim);
    }
}
