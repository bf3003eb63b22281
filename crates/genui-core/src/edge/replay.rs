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
//! [`ReplayClaim::shard`]. The object runs [`ReplayClaim::serve_request`]
//! and [`ReplayClaim::serve_alarm`] over its table, a [`ReplayShard`]: the
//! table's operations are synchronous, so "seen?" and "remember" happen
//! with nothing in between; it decides with [`ReplayClaim::seen`], keeps
//! the key until [`ReplayClaim::forget_at`] and deletes what
//! [`ReplayClaim::is_forgotten`] says it may. The clock is the shard's;
//! nothing here performs I/O.

use crate::edge::alarm_at;
use crate::error::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
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

/// One shard's table of remembered keys and its alarm, as its Durable
/// Object holds them. The table's operations are synchronous, so nothing
/// runs between a check and a remember; they fail with the runtime's
/// [`ReplayShard::Error`].
#[allow(async_fn_in_trait)]
pub trait ReplayShard {
    /// The runtime's storage failure.
    type Error;

    /// Deletes every key [`ReplayClaim::is_forgotten`] at `now` (its
    /// forget time is at or before `now`, Unix seconds).
    fn forget_due(&mut self, now: u64) -> std::result::Result<(), Self::Error>;

    /// The forget time the table holds for `key`, if any.
    fn forget_at(&mut self, key: &str) -> std::result::Result<Option<u64>, Self::Error>;

    /// Remembers `key` until `forget_at` (replacing what it held).
    fn remember(&mut self, key: &str, forget_at: u64) -> std::result::Result<(), Self::Error>;

    /// The earliest forget time the table holds, if it holds any key.
    fn earliest(&mut self) -> std::result::Result<Option<u64>, Self::Error>;

    /// The time the shard's alarm is set for (Unix ms), if one is.
    async fn alarm(&mut self) -> std::result::Result<Option<i64>, Self::Error>;

    /// Sets the shard's one alarm to `at_ms` (Unix ms, as
    /// `super::alarm_at` gives it).
    async fn set_alarm(&mut self, at_ms: i64) -> std::result::Result<(), Self::Error>;

    /// The time now, Unix seconds.
    fn now_s(&mut self) -> u64;
}

impl ReplayClaim {
    /// A shard's answer to the request `method path` with `body`: status
    /// and JSON. `POST /claim` with a claim answers whether its key was
    /// seen, and remembers it if not (setting the alarm if none is set);
    /// any other request is `404`, a body that is not a claim `400`.
    pub async fn serve_request<S: ReplayShard>(
        shard: &mut S,
        method: &str,
        path: &str,
        body: &[u8],
    ) -> std::result::Result<(u16, Value), S::Error> {
        if (method, path) != ("POST", "/claim") {
            return Ok((404, json!({"error": "unknown action"})));
        }
        let Ok(claim) = serde_json::from_slice::<ReplayClaim>(body) else {
            return Ok((400, json!({"error": "not a claim"})));
        };
        let seen = claim.check_and_remember(shard)?;
        if !seen && shard.alarm().await?.is_none() {
            shard
                .set_alarm(alarm_at(claim.forget_at.saturating_mul(1000)))
                .await?;
        }
        Ok((200, json!({"seen": seen})))
    }

    /// A shard's alarm: forgets what is due, and sets the alarm again for
    /// the earliest key left, if any.
    pub async fn serve_alarm<S: ReplayShard>(shard: &mut S) -> std::result::Result<(), S::Error> {
        let now = shard.now_s();
        shard.forget_due(now)?;
        if let Some(next) = shard.earliest()? {
            shard.set_alarm(alarm_at(next.saturating_mul(1000))).await?;
        }
        Ok(())
    }

    /// Whether `shard` had seen this claim's key; remembers it if not. No
    /// await: nothing else runs in the object between the check and the write.
    fn check_and_remember<S: ReplayShard>(
        &self,
        shard: &mut S,
    ) -> std::result::Result<bool, S::Error> {
        let now = shard.now_s();
        shard.forget_due(now)?;
        let seen = Self::seen(shard.forget_at(&self.key)?, now);
        if !seen {
            shard.remember(&self.key, self.forget_at)?;
        }
        Ok(seen)
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

    /// A shard's table in memory, behind the same operations as the
    /// object's SQL; it records each call.
    #[derive(Default)]
    struct Table {
        keys: std::collections::BTreeMap<String, u64>,
        alarm: Option<i64>,
        now: u64,
        calls: Vec<String>,
    }

    impl ReplayShard for Table {
        type Error = std::convert::Infallible;

        fn forget_due(&mut self, now: u64) -> std::result::Result<(), Self::Error> {
            self.calls.push(format!("forget_due {now}"));
            self.keys
                .retain(|_, at| !ReplayClaim::is_forgotten(*at, now));
            Ok(())
        }

        fn forget_at(&mut self, key: &str) -> std::result::Result<Option<u64>, Self::Error> {
            self.calls.push("forget_at".into());
            Ok(self.keys.get(key).copied())
        }

        fn remember(&mut self, key: &str, at: u64) -> std::result::Result<(), Self::Error> {
            self.calls.push(format!("remember {at}"));
            self.keys.insert(key.into(), at);
            Ok(())
        }

        fn earliest(&mut self) -> std::result::Result<Option<u64>, Self::Error> {
            self.calls.push("earliest".into());
            Ok(self.keys.values().min().copied())
        }

        async fn alarm(&mut self) -> std::result::Result<Option<i64>, Self::Error> {
            self.calls.push("alarm".into());
            Ok(self.alarm)
        }

        async fn set_alarm(&mut self, at_ms: i64) -> std::result::Result<(), Self::Error> {
            self.calls.push(format!("set_alarm {at_ms}"));
            self.alarm = Some(at_ms);
            Ok(())
        }

        fn now_s(&mut self) -> u64 {
            self.now
        }
    }

    fn post(table: &mut Table, claim: &ReplayClaim, now: u64) -> (u16, Value) {
        table.now = now;
        let body = serde_json::to_vec(claim).unwrap();
        futures::executor::block_on(ReplayClaim::serve_request(table, "POST", "/claim", &body))
            .unwrap()
    }

    fn fire(table: &mut Table, now: u64) {
        table.now = now;
        futures::executor::block_on(ReplayClaim::serve_alarm(table)).unwrap();
    }

    #[test]
    fn a_shard_takes_a_claim_once_and_sets_its_alarm_only_when_none_is_set() {
        let mut table = Table::default();
        let first = ReplayClaim::new(b"mac-1", NOW);
        let forget = first.forget_at();
        assert_eq!(post(&mut table, &first, NOW), (200, json!({"seen": false})));
        assert_eq!(
            table.calls,
            [
                format!("forget_due {NOW}"),
                "forget_at".into(),
                format!("remember {forget}"),
                "alarm".into(),
                format!("set_alarm {}", forget * 1000),
            ]
        );
        table.calls.clear();
        assert_eq!(
            post(&mut table, &first, NOW + 1),
            (200, json!({"seen": true}))
        );
        assert_eq!(
            table.calls,
            [format!("forget_due {}", NOW + 1), "forget_at".into()]
        );
        table.calls.clear();
        let second = ReplayClaim::new(b"mac-2", NOW + 10);
        assert_eq!(
            post(&mut table, &second, NOW + 10),
            (200, json!({"seen": false}))
        );
        assert!(
            table.calls.ends_with(&["alarm".into()]),
            "{:?}",
            table.calls
        );
        assert_eq!(
            table.alarm,
            Some((forget * 1000) as i64),
            "the earlier alarm stays"
        );
    }

    #[test]
    fn a_key_past_its_forget_time_is_forgotten_before_the_check() {
        let mut table = Table::default();
        let claim = ReplayClaim::new(b"mac-1", NOW);
        post(&mut table, &claim, NOW);
        let at_forget = post(&mut table, &claim, claim.forget_at());
        assert_eq!(at_forget, (200, json!({"seen": false})));
        assert_eq!(table.keys.len(), 1, "remembered again");
    }

    #[test]
    fn a_shard_answers_only_claims_and_changes_nothing_otherwise() {
        let mut table = Table::default();
        let claim = serde_json::to_vec(&ReplayClaim::new(b"mac-1", NOW)).unwrap();
        let mut serve = |method: &str, path: &str, body: &[u8]| {
            let served = ReplayClaim::serve_request(&mut table, method, path, body);
            futures::executor::block_on(served).unwrap()
        };
        let unknown = (404, json!({"error": "unknown action"}));
        assert_eq!(serve("GET", "/claim", &claim), unknown);
        assert_eq!(serve("POST", "/other", &claim), unknown);
        let not_a_claim = (400, json!({"error": "not a claim"}));
        for body in [
            &b"{not json"[..],
            b"{}",
            b"{\"key\":\"k\",\"forgetAt\":-1}",
            b"\xff",
        ] {
            assert_eq!(serve("POST", "/claim", body), not_a_claim);
        }
        assert!(table.calls.is_empty() && table.keys.is_empty());
    }

    #[test]
    fn a_claim_that_cannot_be_forgotten_in_ms_does_not_overflow_its_alarm() {
        let mut table = Table::default();
        let body = format!("{{\"key\":\"k\",\"forgetAt\":{}}}", u64::MAX);
        let served = ReplayClaim::serve_request(&mut table, "POST", "/claim", body.as_bytes());
        let answer = futures::executor::block_on(served).unwrap();
        assert_eq!(answer, (200, json!({"seen": false})));
        assert_eq!(
            table.alarm,
            Some(crate::edge::LATEST_ALARM_MS),
            "an alarm that never comes"
        );
    }

    #[test]
    fn the_alarm_forgets_what_is_due_and_is_set_again_for_the_earliest_key_left() {
        let mut table = Table::default();
        let early = ReplayClaim::new(b"mac-1", NOW);
        let late = ReplayClaim::new(b"mac-2", NOW + 100);
        post(&mut table, &early, NOW);
        post(&mut table, &late, NOW + 100);
        table.calls.clear();
        fire(&mut table, early.forget_at());
        assert_eq!(table.keys.keys().collect::<Vec<_>>(), [late.key()]);
        assert_eq!(table.alarm, Some((late.forget_at() * 1000) as i64));
        table.calls.clear();
        fire(&mut table, late.forget_at());
        assert!(table.keys.is_empty());
        assert_eq!(
            table.calls,
            [
                format!("forget_due {}", late.forget_at()),
                "earliest".into()
            ],
            "no key left: no alarm"
        );
    }
}
