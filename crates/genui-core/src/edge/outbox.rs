//! The delivery outbox of a signed POST (a hosted form's answer, a
//! webhook's `callbackUrl` answer), as a sans-IO state machine: time is an
//! argument, and the machine answers each input with the [`Effect`]s the
//! shell's Durable Object performs. The object decides nothing.
//!
//! ```text
//! store ──> Pending(next_at) ──alarm──> Delivering(attempt, lost_at)
//!              ^                             │ 2xx ─────────────> Delivered
//!              └── failure, time left ───────┤ 3xx/4xx/5xx/timeout/network/lost
//!                                            └ no time left ───> Failed
//! any state ──alarm at or after expiry──> Expired (the record is deleted)
//! ```
//!
//! Rules the shell relies on:
//! - Persist the new [`Outbox`] before performing its effects, in order.
//!   A [`Effect::Post`] is therefore always preceded by a stored
//!   `Delivering` state and an alarm at its `lost_at`: if the isolate dies
//!   mid-delivery, that alarm finds the attempt unfinished, presumes it
//!   lost and schedules the next one. Every state but the deleted one has
//!   an alarm ([`Outbox::alarm_at`]), so nothing waits for a request.
//! - A redirect is never followed: a 3xx is a failed attempt.
//! - Delivery is at least once: the same [`Outbox::delivery_id`] goes with
//!   every attempt, so receivers deduplicate. An attempt is given
//!   [`ATTEMPT_TIMEOUT_MS`], three times the [`RECEIVER_DEADLINE_MS`]
//!   receivers are asked to answer within, so a receiver that keeps the
//!   documented deadline is never sent the same answer twice by our timeout.

use serde::{Deserialize, Serialize};

/// Where a stored message stands, as a person is told: one row per phase
/// of its wire name (the object's `state` answers and logs) and of the page
/// the person who posted it sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DeliveryPhase {
    /// Stored; no attempt has failed yet.
    Received,
    /// An attempt failed; another is scheduled.
    Retrying,
    /// A receiver answered 2xx.
    Delivered,
    /// No time was left for another attempt.
    Failed,
    /// The record outlived its link and was deleted.
    Expired,
}

/// Each phase: its wire name, and the notice page and status the person
/// who posted the answer is shown.
const PHASES: [(DeliveryPhase, &str, &str, u16); 5] = [
    (DeliveryPhase::Received, "received", "received", 202),
    (DeliveryPhase::Retrying, "retrying", "retrying", 202),
    (DeliveryPhase::Delivered, "delivered", "delivered", 200),
    (DeliveryPhase::Failed, "failed", "failed", 202),
    // Expiry deletes the record: the person who just posted is told it is
    // being retried, as for any state the page does not know.
    (DeliveryPhase::Expired, "expired", "retrying", 202),
];

impl DeliveryPhase {
    fn row(self) -> &'static (DeliveryPhase, &'static str, &'static str, u16) {
        // The table lists the phases in declaration order (a test holds it).
        &PHASES[self as usize]
    }

    /// The wire name: `received`, `retrying`, `delivered`, `failed`, `expired`.
    pub(crate) fn as_str(self) -> &'static str {
        self.row().1
    }

    /// The phase of a wire name; `None` for any other string.
    pub(crate) fn from_wire(name: &str) -> Option<Self> {
        PHASES.iter().find(|row| row.1 == name).map(|row| row.0)
    }

    /// The notice page a person is shown for this phase (see
    /// `HttpResponse::form_notice`).
    pub(crate) fn notice(self) -> &'static str {
        self.row().2
    }

    /// The HTTP status of the page answering the post that stored the
    /// answer: 200 once delivered, 202 while it is still on its way.
    pub(crate) fn posted_status(self) -> u16 {
        self.row().3
    }
}

/// How fast receivers are asked to answer (docs/hosted-forms.md).
pub(crate) const RECEIVER_DEADLINE_MS: u64 = 10_000;

/// How long one attempt may take before it counts as failed: three times
/// the documented deadline, room for a slow network on both sides.
pub(crate) const ATTEMPT_TIMEOUT_MS: u64 = 30_000;

/// An attempt still `Delivering` this long after it began was lost with
/// its isolate (the attempt's own timeout would have ended it sooner).
pub(crate) const LOST_AFTER_MS: u64 = ATTEMPT_TIMEOUT_MS + 15_000;

// A receiver that keeps the documented deadline is never timed out (and
// so never sent the answer twice), and an attempt is not presumed lost
// while it may still end: checked when the crate compiles.
const _: () = assert!(ATTEMPT_TIMEOUT_MS >= 3 * RECEIVER_DEADLINE_MS);
const _: () = assert!(LOST_AFTER_MS > ATTEMPT_TIMEOUT_MS);

/// The wait before the first retry; each next one doubles, up to [`MAX_RETRY_DELAY_MS`].
pub(crate) const FIRST_RETRY_DELAY_MS: u64 = 5_000;

/// The longest wait between two attempts.
pub(crate) const MAX_RETRY_DELAY_MS: u64 = 600_000;

/// Where a delivery stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "camelCase")]
pub(crate) enum Delivery {
    /// Stored; the next attempt is due at `next_at` (Unix ms).
    Pending {
        /// When the next attempt is due.
        #[serde(rename = "nextAt")]
        next_at: u64,
    },
    /// Attempt `attempt` (1-based) began; if it has not ended by `lost_at`,
    /// it was lost.
    Delivering {
        /// The attempt under way.
        attempt: u32,
        /// When it is presumed lost.
        #[serde(rename = "lostAt")]
        lost_at: u64,
    },
    /// A receiver answered 2xx; the message is dropped.
    Delivered,
    /// No attempt succeeded before expiry; kept (for the page) until then.
    Failed,
    /// Past expiry: the record is deleted.
    Expired,
}

/// How one attempt ended, as the shell saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "status", rename_all = "camelCase")]
pub enum AttemptResult {
    /// The receiver answered with this HTTP status (a 3xx is not followed).
    Status(u16),
    /// No answer within [`ATTEMPT_TIMEOUT_MS`].
    Timeout,
    /// The request could not be made or the connection failed.
    NetworkError,
    /// The attempt never reported back (its isolate died).
    Lost,
}

impl AttemptResult {
    /// The header every attempt carries the delivery id in.
    pub const DELIVERY_ID_HEADER: &'static str = Outbox::DELIVERY_ID_HEADER;

    /// How long one attempt may take before it counts as a timeout.
    pub const TIMEOUT_MS: u64 = ATTEMPT_TIMEOUT_MS;

    /// Whether the receiver took the message.
    pub fn is_delivered(self) -> bool {
        matches!(self, Self::Status(status) if (200..300).contains(&status))
    }

    /// A short word for logs: `2xx`-`5xx`, `timeout`, `network`, `lost`.
    pub fn label(self) -> String {
        match self {
            Self::Status(status) => format!("{status}"),
            Self::Timeout => "timeout".into(),
            Self::NetworkError => "network".into(),
            Self::Lost => "lost".into(),
        }
    }
}

/// What the shell must do, in order, after persisting the new state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Set the object's (single) alarm to this Unix ms.
    SetAlarm(u64),
    /// POST the stored message, signed, with the delivery id header, no
    /// redirects followed, within [`ATTEMPT_TIMEOUT_MS`]; then report
    /// [`Outbox::handle_attempt_ended`] with this attempt number.
    Post {
        /// The attempt number to report back.
        attempt: u32,
    },
    /// Drop the stored message (delivered: the answer is not kept).
    DropMessage,
    /// Delete everything the record holds (expired).
    DeleteAll,
}

/// One message's outbox record (serialised into its Durable Object).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Outbox {
    /// Sent with every attempt (`x-genui-delivery-id`); the message's `id`.
    pub delivery_id: String,
    /// Unix ms after which the record is deleted, delivered or not.
    pub expires_at: u64,
    /// Attempts begun so far.
    pub attempts: u32,
    /// How the last finished attempt ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_result: Option<AttemptResult>,
    /// Where the delivery stands.
    #[serde(flatten)]
    pub delivery: Delivery,
}

/// The wait after failed attempt number `attempt` (1-based).
pub(crate) fn retry_delay(attempt: u32) -> u64 {
    let doublings = attempt.saturating_sub(1).min(16);
    (FIRST_RETRY_DELAY_MS << doublings).min(MAX_RETRY_DELAY_MS)
}

impl Outbox {
    /// The header every attempt carries the delivery id in.
    pub(crate) const DELIVERY_ID_HEADER: &'static str = "x-genui-delivery-id";

    /// A message just stored at `now`: its first attempt is due at once
    /// (through the alarm, so the request that stored it is not held).
    pub(crate) fn store(delivery_id: &str, now: u64, expires_at: u64) -> (Self, Vec<Effect>) {
        let outbox = Self {
            delivery_id: delivery_id.to_owned(),
            expires_at,
            attempts: 0,
            last_result: None,
            delivery: Delivery::Pending { next_at: now },
        };
        let effects = vec![Effect::SetAlarm(now.min(expires_at))];
        (outbox, effects)
    }

    /// When the alarm of the current state should fire (`None` once deleted).
    /// The shell re-arms with it when it finds no alarm set.
    pub(crate) fn alarm_at(&self) -> Option<u64> {
        match self.delivery {
            Delivery::Pending { next_at } => Some(next_at.min(self.expires_at)),
            Delivery::Delivering { lost_at, .. } => Some(lost_at.min(self.expires_at)),
            Delivery::Delivered | Delivery::Failed => Some(self.expires_at),
            Delivery::Expired => None,
        }
    }

    /// Whether the message is still to be delivered.
    pub(crate) fn is_open(&self) -> bool {
        matches!(
            self.delivery,
            Delivery::Pending { .. } | Delivery::Delivering { .. }
        )
    }

    /// Where the message stands, as a person and the object's `/state`
    /// answers see it.
    pub(crate) fn phase(&self) -> DeliveryPhase {
        match self.delivery {
            Delivery::Pending { .. } | Delivery::Delivering { .. }
                if self.last_result.is_none() =>
            {
                DeliveryPhase::Received
            }
            Delivery::Pending { .. } | Delivery::Delivering { .. } => DeliveryPhase::Retrying,
            Delivery::Delivered => DeliveryPhase::Delivered,
            Delivery::Failed => DeliveryPhase::Failed,
            Delivery::Expired => DeliveryPhase::Expired,
        }
    }

    /// The next state and its effects when the object's alarm fired at
    /// `now` (Unix ms).
    pub(crate) fn handle_alarm(&mut self, now: u64) -> Vec<Effect> {
        if now >= self.expires_at {
            self.delivery = Delivery::Expired;
            return vec![Effect::DeleteAll];
        }
        match self.delivery {
            Delivery::Pending { next_at } if now >= next_at => self.begin_attempt(now),
            Delivery::Delivering { attempt, lost_at } if now >= lost_at => {
                self.attempt_failed(attempt, AttemptResult::Lost, now)
            }
            // Early, or a final state waiting for expiry: the same alarm again.
            _ => self.alarm_at().map(Effect::SetAlarm).into_iter().collect(),
        }
    }

    /// The next state and its effects when attempt `attempt` ended with
    /// `result` at `now` (Unix ms).
    pub(crate) fn handle_attempt_ended(
        &mut self,
        attempt: u32,
        result: AttemptResult,
        now: u64,
    ) -> Vec<Effect> {
        if !self.is_open() {
            return Vec::new();
        }
        if result.is_delivered() {
            // Any attempt's 2xx, even a late one: the receiver has the message.
            self.last_result = Some(result);
            self.delivery = Delivery::Delivered;
            return vec![Effect::DropMessage, Effect::SetAlarm(self.expires_at)];
        }
        match self.delivery {
            Delivery::Delivering {
                attempt: current, ..
            } if current == attempt => self.attempt_failed(attempt, result, now),
            // A failure of an attempt already given up on: nothing new.
            _ => Vec::new(),
        }
    }

    fn begin_attempt(&mut self, now: u64) -> Vec<Effect> {
        self.attempts += 1;
        let lost_at = now + LOST_AFTER_MS;
        self.delivery = Delivery::Delivering {
            attempt: self.attempts,
            lost_at,
        };
        vec![
            Effect::SetAlarm(lost_at.min(self.expires_at)),
            Effect::Post {
                attempt: self.attempts,
            },
        ]
    }

    fn attempt_failed(&mut self, attempt: u32, result: AttemptResult, now: u64) -> Vec<Effect> {
        self.last_result = Some(result);
        let next_at = now + retry_delay(attempt);
        self.delivery = match next_at < self.expires_at {
            true => Delivery::Pending { next_at },
            false => Delivery::Failed,
        };
        self.alarm_at().map(Effect::SetAlarm).into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phase_has_one_wire_name_and_a_page_the_person_can_be_shown() {
        for (index, &(phase, wire, notice, status)) in PHASES.iter().enumerate() {
            assert_eq!(phase as usize, index, "PHASES is in declaration order");
            assert_eq!(
                (phase.as_str(), DeliveryPhase::from_wire(wire)),
                (wire, Some(phase))
            );
            assert_eq!((phase.posted_status(), phase.notice()), (status, notice));
            assert!(
                crate::render::html::notice_page(None, notice).is_some(),
                "{notice}"
            );
        }
        let page = |phase: DeliveryPhase| (phase.posted_status(), phase.notice());
        assert_eq!(page(DeliveryPhase::Delivered), (200, "delivered"));
        assert_eq!(page(DeliveryPhase::Received), (202, "received"));
        assert_eq!(page(DeliveryPhase::Expired), (202, "retrying"));
        assert_eq!(DeliveryPhase::from_wire("pending"), None);
    }

    const T0: u64 = 1_800_000_000_000;
    const DAY: u64 = 86_400_000;

    fn stored() -> Outbox {
        let (outbox, effects) = Outbox::store("msg_1", T0, T0 + DAY);
        assert_eq!(
            effects,
            vec![Effect::SetAlarm(T0)],
            "the first attempt is the alarm's, at once"
        );
        outbox
    }

    /// Fires the alarm at the time it is set for; the effects.
    fn fire(outbox: &mut Outbox) -> (u64, Vec<Effect>) {
        let now = outbox.alarm_at().expect("a live record has an alarm");
        (now, outbox.handle_alarm(now))
    }

    fn ended(outbox: &mut Outbox, attempt: u32, result: AttemptResult, now: u64) -> Vec<Effect> {
        outbox.handle_attempt_ended(attempt, result, now)
    }

    #[test]
    fn a_stored_message_is_posted_by_the_alarm_and_dropped_once_taken() {
        let mut outbox = stored();
        assert_eq!(outbox.phase(), DeliveryPhase::Received);
        let (now, effects) = fire(&mut outbox);
        assert_eq!(
            effects,
            vec![
                Effect::SetAlarm(T0 + LOST_AFTER_MS),
                Effect::Post { attempt: 1 }
            ]
        );
        assert_eq!(outbox.phase(), DeliveryPhase::Received);
        assert_eq!(
            ended(&mut outbox, 1, AttemptResult::Status(204), now + 300),
            vec![Effect::DropMessage, Effect::SetAlarm(T0 + DAY)]
        );
        assert_eq!(
            (outbox.phase(), outbox.is_open()),
            (DeliveryPhase::Delivered, false)
        );
        assert_eq!(
            fire(&mut outbox).1,
            vec![Effect::DeleteAll],
            "deleted at expiry"
        );
        assert_eq!(outbox.alarm_at(), None);
    }

    #[test]
    fn failures_are_retried_on_a_doubling_schedule_up_to_its_cap() {
        let mut outbox = stored();
        let mut waits = Vec::new();
        for attempt in 1..=10 {
            let (now, effects) = fire(&mut outbox);
            assert_eq!(effects.last(), Some(&Effect::Post { attempt }));
            let effects = ended(&mut outbox, attempt, AttemptResult::Status(503), now + 100);
            let [Effect::SetAlarm(next)] = effects[..] else {
                panic!("{effects:?}")
            };
            waits.push((next - now - 100) / 1000);
        }
        assert_eq!(waits, [5, 10, 20, 40, 80, 160, 320, 600, 600, 600]);
        assert_eq!(outbox.phase(), DeliveryPhase::Retrying);
        assert_eq!(
            outbox.delivery_id, "msg_1",
            "every attempt carries the same id"
        );
    }

    #[test]
    fn retries_end_in_failed_at_expiry_then_the_record_is_deleted() {
        let (mut outbox, _) = Outbox::store("msg_1", T0, T0 + 60_000);
        let mut attempts = 0;
        while outbox.is_open() {
            let (now, effects) = fire(&mut outbox);
            if let Some(Effect::Post { attempt }) = effects.last() {
                attempts = *attempt;
                ended(&mut outbox, *attempt, AttemptResult::NetworkError, now + 10);
            }
        }
        // At T0, +5 s, +15 s, +35 s; the next (+75 s) would be past expiry.
        assert_eq!((attempts, outbox.phase()), (4, DeliveryPhase::Failed));
        assert_eq!(outbox.alarm_at(), Some(T0 + 60_000));
        assert_eq!(fire(&mut outbox).1, vec![Effect::DeleteAll]);
        assert_eq!(outbox.phase(), DeliveryPhase::Expired);
    }

    #[test]
    fn an_alarm_during_a_delivery_presumes_it_lost_and_retries() {
        // The isolate died after persisting `Delivering` (and its alarm).
        let mut outbox = stored();
        let (started, _) = fire(&mut outbox);
        let (lost, effects) = fire(&mut outbox);
        assert_eq!(lost, started + LOST_AFTER_MS);
        assert_eq!(effects, vec![Effect::SetAlarm(lost + FIRST_RETRY_DELAY_MS)]);
        assert_eq!(outbox.last_result, Some(AttemptResult::Lost));
        let (_, effects) = fire(&mut outbox);
        assert_eq!(
            effects.last(),
            Some(&Effect::Post { attempt: 2 }),
            "retried with the next attempt"
        );
        // An alarm that fires early while delivering changes nothing.
        let before = outbox.clone();
        let early = outbox.handle_alarm(lost + FIRST_RETRY_DELAY_MS + 1);
        assert_eq!(
            (early, &outbox),
            (vec![Effect::SetAlarm(outbox.alarm_at().unwrap())], &before)
        );
    }

    #[test]
    fn a_redirect_is_a_failure_retried_then_reported() {
        let (mut outbox, _) = Outbox::store("msg_1", T0, T0 + 30_000);
        let (now, _) = fire(&mut outbox);
        assert_eq!(
            ended(&mut outbox, 1, AttemptResult::Status(302), now + 5),
            vec![Effect::SetAlarm(now + 5 + FIRST_RETRY_DELAY_MS)]
        );
        assert_eq!(outbox.phase(), DeliveryPhase::Retrying);
        let (now, _) = fire(&mut outbox);
        ended(&mut outbox, 2, AttemptResult::Status(307), now + 5);
        let (now, _) = fire(&mut outbox);
        ended(&mut outbox, 3, AttemptResult::Status(308), now + 5);
        assert_eq!(
            (outbox.phase(), outbox.last_result),
            (DeliveryPhase::Failed, Some(AttemptResult::Status(308)))
        );
        assert!(
            !AttemptResult::Status(301).is_delivered() && AttemptResult::Status(200).is_delivered()
        );
    }

    #[test]
    fn a_timeout_is_retried_and_a_late_success_of_it_is_not_sent_again() {
        let mut outbox = stored();
        let (now, _) = fire(&mut outbox);
        ended(
            &mut outbox,
            1,
            AttemptResult::Timeout,
            now + ATTEMPT_TIMEOUT_MS,
        );
        assert_eq!(outbox.phase(), DeliveryPhase::Retrying);
        // Attempt 1's answer comes in after all: delivered, no retry.
        assert_eq!(
            ended(
                &mut outbox,
                1,
                AttemptResult::Status(200),
                now + ATTEMPT_TIMEOUT_MS + 1
            )[0],
            Effect::DropMessage
        );
        assert_eq!(outbox.phase(), DeliveryPhase::Delivered);
        assert_eq!(
            ended(
                &mut outbox,
                2,
                AttemptResult::Status(200),
                now + ATTEMPT_TIMEOUT_MS + 2
            ),
            vec![],
            "nothing after delivered"
        );
        // A stale failure changes nothing either.
        let mut outbox = stored();
        let (now, _) = fire(&mut outbox);
        assert_eq!(ended(&mut outbox, 7, AttemptResult::Timeout, now), vec![]);
        assert!(matches!(
            outbox.delivery,
            Delivery::Delivering { attempt: 1, .. }
        ));
    }

    #[test]
    fn every_live_state_has_an_alarm_whatever_the_inputs() {
        let results = [
            AttemptResult::Status(200),
            AttemptResult::Status(302),
            AttemptResult::Status(404),
            AttemptResult::Status(500),
            AttemptResult::Timeout,
            AttemptResult::NetworkError,
        ];
        for seed in 0..200u64 {
            let (mut outbox, effects) = Outbox::store("m", T0, T0 + 3_600_000);
            // The alarm as the shell's object would have it set.
            let mut armed = None;
            let apply = |effects: &[Effect], armed: &mut Option<u64>| {
                for effect in effects {
                    match effect {
                        Effect::SetAlarm(at) => *armed = Some(*at),
                        Effect::DeleteAll => *armed = None,
                        _ => {}
                    }
                }
            };
            apply(&effects, &mut armed);
            let mut pick = seed;
            for _ in 0..40 {
                pick = pick
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let Some(alarm) = armed else { break };
                let effects = match pick >> 61 {
                    0..=3 => outbox.handle_alarm(alarm),
                    _ => {
                        let attempt = outbox.attempts;
                        ended(
                            &mut outbox,
                            attempt,
                            results[(pick >> 32) as usize % results.len()],
                            alarm.saturating_sub(1),
                        )
                    }
                };
                apply(&effects, &mut armed);
                assert_eq!(
                    armed,
                    outbox.alarm_at(),
                    "the armed alarm is the state's: {outbox:?}"
                );
                assert!(
                    armed.is_some() || outbox.delivery == Delivery::Expired,
                    "only a deleted record has no alarm"
                );
            }
        }
    }

    #[test]
    fn the_record_reads_back_as_stored() {
        let mut outbox = stored();
        fire(&mut outbox);
        let text = serde_json::to_string(&outbox).unwrap();
        assert!(text.contains(r#""state":"delivering""#), "{text}");
        assert_eq!(serde_json::from_str::<Outbox>(&text).unwrap(), outbox);
    }
}
