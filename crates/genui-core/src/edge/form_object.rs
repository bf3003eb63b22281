//! What one hosted form's (or one webhook callback's) Durable Object does
//! with each request and alarm, sans-IO: the keys an event reads are read
//! into a [`FormObjectMachine`], which is handed the event and the time and
//! returns [`FormObjectEffect`]s to perform in order (storage puts and
//! deletes, the alarm, one signed POST, a log line). The perform loop over
//! the object's storage is `super::form_object_run`'s; the delivery's
//! schedule is the [`Outbox`]'s.
//!
//! The object's requests (all from this worker, never from a person), and
//! the keys each reads first ([`ROUTES`]):
//!
//! | request         | does                                              | reads |
//! |-----------------|---------------------------------------------------|-------|
//! | `POST /init`    | keeps a new link's spec and record, alarm at expiry | record |
//! | `GET /state`    | spec, record and the answer's phase (re-arms a lost alarm) | record, spec, outbox, the alarm (and `answer` for a link an MCP call made, before its answer is known) |
//! | `POST /submit`  | stores the answer once: an outbox, or kept for MCP | record, outbox, answer |
//! | `GET /answer`   | the answer kept for the MCP call that made the link | answer |
//! | `POST /enqueue` | a webhook callback's answer, into a new outbox    | outbox |
//!
//! The alarm reads the outbox, the record and the callback URL
//! ([`ALARM_READS`]); the message is read only for a POST, just before it.
//!
//! Before an answer, a link's alarm is its expiry (then everything is
//! deleted); after, the alarm is the outbox's.

use crate::edge::alarm_at;
use crate::edge::forms::FormRecord;
use crate::edge::outbox::{AttemptResult, DeliveryPhase, Effect, Outbox};
use crate::edge::webhook::Webhook;
use crate::error::Error;
use serde_json::{json, Value};
use std::fmt;

/// An alarm this far past its time is taken as lost (and set again).
const OVERDUE_MS: u64 = 5_000;

/// How long a webhook's callback (or a form's answer, at least) is retried, in ms.
const CALLBACK_LIFETIME_MS: u64 = 24 * 3600 * 1000;

/// The object's storage keys.
const RECORD: &str = "record";
const SPEC: &str = "spec";
const OUTBOX: &str = "outbox";
const ANSWER: &str = "answer";
const CALLBACK_URL: &str = "callbackUrl";
const MESSAGE: &str = "message";

/// What the object's host does, in order. Its `Debug` leaves the signing
/// secret out, so a logged effect never carries it.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum FormObjectEffect {
    /// Store `value` under `key`.
    Put {
        /// The storage key.
        key: &'static str,
        /// The text stored.
        value: String,
    },
    /// Delete `key`.
    Delete(&'static str),
    /// Delete everything the object holds.
    DeleteAll,
    /// Set the object's (single) alarm to this Unix ms.
    SetAlarm(u64),
    /// One signed POST of the stored message to `url` (see the outbox's
    /// rules; the message is read just before it); then report how it
    /// ended with [`FormObjectMachine::attempt_ended`].
    Post {
        /// The callback.
        url: String,
        /// Sent in the delivery id header.
        delivery_id: String,
        /// The secret it is signed with.
        secret: String,
        /// The attempt number to report back.
        attempt: u32,
    },
    /// One JSON log line.
    Log(String),
}

/// One object's storage as read before an event, the event's time and the
/// signing secret; it answers each event with effects (and, for a request,
/// the object's answer), keeping its copy of the storage in step with them.
/// Its `Debug` shows neither the secret nor the person's answer.
#[derive(Clone, Default)]
pub(crate) struct FormObjectMachine {
    record: Option<String>,
    spec: Option<String>,
    outbox: Option<String>,
    answer: Option<String>,
    callback_url: Option<String>,
    message: Option<String>,
    alarm: Option<i64>,
    now: u64,
    secret: Option<String>,
}

impl fmt::Debug for FormObjectEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Put { key, value } => f
                .debug_struct("Put")
                .field("key", key)
                .field("bytes", &value.len())
                .finish(),
            Self::Delete(key) => f.debug_tuple("Delete").field(key).finish(),
            Self::DeleteAll => f.write_str("DeleteAll"),
            Self::SetAlarm(at) => f.debug_tuple("SetAlarm").field(at).finish(),
            Self::Post {
                url,
                delivery_id,
                attempt,
                ..
            } => f
                .debug_struct("Post")
                .field("host", &url_host(url))
                .field("delivery_id", delivery_id)
                .field("attempt", attempt)
                .finish_non_exhaustive(),
            Self::Log(line) => f.debug_tuple("Log").field(line).finish(),
        }
    }
}

/// The host of a callback URL, for `Debug`: its path and query may carry
/// the agent's own tokens, so only the host is shown (as in the log lines).
fn url_host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    rest.split(['/', '?', '#']).next().unwrap_or_default()
}

impl fmt::Debug for FormObjectMachine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormObjectMachine")
            .field("record", &self.record.is_some())
            .field("outbox", &self.outbox)
            .field("alarm", &self.alarm)
            .field("now", &self.now)
            .field("secret", &self.secret.as_ref().map(|_| "<redacted>"))
            .finish_non_exhaustive()
    }
}

impl FormObjectMachine {
    /// The machine at `now` (Unix ms), signing with `secret` (no secret:
    /// every attempt fails as a network error), over an empty storage.
    pub(crate) fn new(now: u64, secret: Option<String>) -> Self {
        Self {
            now,
            secret,
            ..Self::default()
        }
    }

    /// With `value` stored under `key` (one the object stores; others are ignored).
    pub(crate) fn stored(mut self, key: &str, value: Option<String>) -> Self {
        if let Some(slot) = self.slot(key) {
            *slot = value;
        }
        self
    }

    /// With the object's alarm as `get_alarm` reports it (Unix ms).
    pub(crate) fn alarmed(mut self, alarm: Option<i64>) -> Self {
        self.alarm = alarm;
        self
    }

    fn slot(&mut self, key: &str) -> Option<&mut Option<String>> {
        Some(match key {
            RECORD => &mut self.record,
            SPEC => &mut self.spec,
            OUTBOX => &mut self.outbox,
            ANSWER => &mut self.answer,
            CALLBACK_URL => &mut self.callback_url,
            MESSAGE => &mut self.message,
            _ => return None,
        })
    }

    /// The request `method path` with `body`: the effects, then the
    /// object's answer (status and JSON text).
    pub(crate) fn fetch(
        &mut self,
        method: &str,
        path: &str,
        body: &[u8],
    ) -> (Vec<FormObjectEffect>, u16, String) {
        let mut effects = Vec::new();
        let (status, answer) = match route(method, path) {
            Some(route) => (route.handle)(self, body, &mut effects),
            None => (404, json!({"state": "unknown"})),
        };
        (effects, status, answer.to_string())
    }

    /// The keys the request `method path` reads before it is decided, and
    /// whether it needs the alarm's time ([`ROUTES`]; none for an unknown one).
    pub(crate) fn reads(method: &str, path: &str) -> (&'static [&'static str], bool) {
        route(method, path).map_or((&[], false), |route| (route.keys, route.alarm))
    }

    /// The keys the alarm reads before it is decided.
    pub(crate) const ALARM_READS: &'static [&'static str] = ALARM_READS;

    /// The key of the outbox, read again after each POST ([`Self::attempt_ended`]).
    pub(crate) const OUTBOX_KEY: &'static str = OUTBOX;

    /// The key of the message, read just before each POST.
    pub(crate) const MESSAGE_KEY: &'static str = MESSAGE;

    /// The keys the request `method path` still needs once its first keys
    /// are read ([`ROUTES`]); none for most.
    pub(crate) fn also_reads(&self, method: &str, path: &str) -> &'static [&'static str] {
        route(method, path).map_or(&[], |route| (route.also_reads)(self))
    }

    /// The keys `GET /state` still needs once its first keys are read:
    /// `answer`, for a link an MCP call made that has no outbox (its phase
    /// is `delivered` once an answer is kept); none otherwise, as a link
    /// with a callback keeps no `answer`.
    fn state_also_reads(&self) -> &'static [&'static str] {
        let has_callback = self.record().is_some_and(|r| r.callback_url.is_some());
        if self.outbox.is_some() || has_callback {
            return &[];
        }
        &[ANSWER]
    }

    /// The alarm fired: the outbox's next step, or a link's expiry.
    pub(crate) fn alarm(&mut self) -> Vec<FormObjectEffect> {
        let mut effects = Vec::new();
        match self.outbox() {
            Some(mut outbox) => {
                let batch = outbox.handle_alarm(self.now);
                self.run(outbox, batch, None, &mut effects);
            }
            None => self.expire_link(&mut effects),
        }
        effects
    }

    /// The [`FormObjectEffect::Post`] of `attempt` ended with `result` at
    /// `now`; `outbox` is the stored outbox read again (another event may
    /// have moved it while the attempt ran). The next effects.
    pub(crate) fn attempt_ended(
        &mut self,
        attempt: u32,
        result: AttemptResult,
        now: u64,
        outbox: Option<String>,
    ) -> Vec<FormObjectEffect> {
        self.now = now;
        let mut effects = vec![attempt_log(attempt, result)];
        let stored = self.outbox();
        self.outbox = outbox;
        let current = self.outbox().or(stored);
        if let Some(outbox) = current {
            let ended = Some((attempt, result, now));
            self.run(outbox, Vec::new(), ended, &mut effects);
        }
        effects
    }

    fn outbox(&self) -> Option<Outbox> {
        self.outbox
            .as_deref()
            .and_then(|text| serde_json::from_str(text).ok())
    }

    fn record(&self) -> Option<FormRecord> {
        self.record
            .as_deref()
            .and_then(|text| serde_json::from_str(text).ok())
    }

    /// Records `effect` in the machine's copy of the storage, and adds it.
    fn push(&mut self, effect: FormObjectEffect, effects: &mut Vec<FormObjectEffect>) {
        match &effect {
            FormObjectEffect::Put { key, value } => {
                if let Some(slot) = self.slot(key) {
                    *slot = Some(value.clone());
                }
            }
            FormObjectEffect::Delete(key) => {
                if let Some(slot) = self.slot(key) {
                    *slot = None;
                }
            }
            FormObjectEffect::DeleteAll => *self = Self::new(self.now, self.secret.take()),
            FormObjectEffect::SetAlarm(at) => self.alarm = Some(alarm_at(*at)),
            FormObjectEffect::Post { .. } | FormObjectEffect::Log(_) => {}
        }
        effects.push(effect);
    }

    fn put(&mut self, key: &'static str, value: &str, effects: &mut Vec<FormObjectEffect>) {
        let value = value.to_owned();
        self.push(FormObjectEffect::Put { key, value }, effects);
    }

    /// `POST /init`: a new link's spec and record, once; its alarm is its expiry.
    fn init(&mut self, body: &[u8], effects: &mut Vec<FormObjectEffect>) -> (u16, Value) {
        let Ok(body) = serde_json::from_slice::<Value>(body) else {
            return (400, json!({"state": "invalid"}));
        };
        let Ok(record) = serde_json::from_value::<FormRecord>(body["record"].clone()) else {
            return (400, json!({"state": "invalid"}));
        };
        if self.record.is_none() {
            self.put(SPEC, body["spec"].as_str().unwrap_or_default(), effects);
            let record_text = serde_json::to_string(&record).unwrap_or_default();
            self.put(RECORD, &record_text, effects);
            self.push(FormObjectEffect::SetAlarm(expiry_ms(&record)), effects);
        }
        (200, json!({"ok": true}))
    }

    /// `GET /state`: spec, record and the answer's phase (`open` before one).
    fn state(&mut self, _: &[u8], effects: &mut Vec<FormObjectEffect>) -> (u16, Value) {
        let record = self
            .record
            .as_deref()
            .and_then(|r| serde_json::from_str::<Value>(r).ok());
        let (Some(spec), Some(record)) = (self.spec.clone(), record) else {
            return (404, json!({"state": "missing"}));
        };
        let outbox = self.outbox();
        if let Some(outbox) = &outbox {
            self.rearm(outbox, effects);
        }
        let phase = match (&outbox, self.answer.is_some()) {
            (Some(outbox), _) => outbox.phase().as_str(),
            // Kept for the MCP call that made the link: with the worker.
            (None, true) => DeliveryPhase::Delivered.as_str(),
            (None, false) => "open",
        };
        (200, json!({"spec": spec, "record": record, "state": phase}))
    }

    /// Sets the outbox's alarm again when none is set or the one set is
    /// overdue (lost with a restart, or never set): a request to the
    /// object is enough to move a stuck answer on.
    fn rearm(&mut self, outbox: &Outbox, effects: &mut Vec<FormObjectEffect>) {
        let Some(due) = outbox.alarm_at() else {
            return;
        };
        let now = self.now as i64;
        let overdue = |at: i64| at.saturating_add(OVERDUE_MS as i64) < now;
        if self.alarm.is_none_or(overdue) {
            let line = json!({"event": "delivery_rearmed", "state": outbox.phase().as_str()});
            self.push(FormObjectEffect::Log(line.to_string()), effects);
            self.push(FormObjectEffect::SetAlarm(due), effects);
        }
    }

    /// `POST /submit`: the person's answer, stored once. A link an MCP call
    /// made keeps it for that call; any other gets an outbox that outlives
    /// a link expiring soon (at least a day of retries).
    fn submit(&mut self, body: &[u8], effects: &mut Vec<FormObjectEffect>) -> (u16, Value) {
        let Ok(body) = serde_json::from_slice::<Value>(body) else {
            return (400, json!({"state": "invalid"}));
        };
        if let Some(outbox) = self.outbox() {
            return (409, json!({"state": outbox.phase().as_str()}));
        }
        let Some(record) = self.record() else {
            return (404, json!({"state": "missing"}));
        };
        let Some(callback_url) = record.callback_url.as_deref() else {
            let delivered = json!({"state": DeliveryPhase::Delivered.as_str()});
            if self.answer.is_some() {
                return (409, delivered);
            }
            self.put(
                ANSWER,
                body["message"].as_str().unwrap_or_default(),
                effects,
            );
            return (200, delivered);
        };
        let expires_at = expiry_ms(&record).max(self.now + CALLBACK_LIFETIME_MS);
        let phase = self.store(callback_url, &body, expires_at, effects);
        (200, json!({"state": phase.as_str()}))
    }

    /// `GET /answer`: the answer kept for the MCP call that made the link.
    fn kept_answer(&mut self, _: &[u8], _: &mut Vec<FormObjectEffect>) -> (u16, Value) {
        match &self.answer {
            Some(message) => (200, json!({"message": message})),
            None => (404, json!({"state": "open"})),
        }
    }

    /// `POST /enqueue`: a webhook callback's answer, into a new outbox (once).
    fn enqueue(&mut self, body: &[u8], effects: &mut Vec<FormObjectEffect>) -> (u16, Value) {
        let Ok(body) = serde_json::from_slice::<Value>(body) else {
            return (400, json!({"state": "invalid"}));
        };
        if let Some(outbox) = self.outbox() {
            return (200, json!({"state": outbox.phase().as_str()}));
        }
        let url = body["callbackUrl"].as_str().unwrap_or_default();
        let expires_at = body["expiresAt"].as_u64().unwrap_or_default();
        let phase = self.store(url, &body, expires_at, effects);
        (200, json!({"state": phase.as_str()}))
    }

    /// Stores `body`'s message for `callback_url` with a new outbox (its
    /// first attempt is the alarm's, at once); the phase a person is told.
    fn store(
        &mut self,
        callback_url: &str,
        body: &Value,
        expires_at: u64,
        effects: &mut Vec<FormObjectEffect>,
    ) -> DeliveryPhase {
        let delivery_id = body["deliveryId"].as_str().unwrap_or_default();
        self.put(CALLBACK_URL, callback_url, effects);
        self.put(
            MESSAGE,
            body["message"].as_str().unwrap_or_default(),
            effects,
        );
        let (outbox, first) = Outbox::store(delivery_id, self.now, expires_at);
        let phase = outbox.phase();
        self.run(outbox, first, None, effects);
        phase
    }

    /// A link without an answer: deleted at its expiry (an early alarm is set again).
    fn expire_link(&mut self, effects: &mut Vec<FormObjectEffect>) {
        match self.record() {
            Some(record) if self.now < expiry_ms(&record) => {
                self.push(FormObjectEffect::SetAlarm(expiry_ms(&record)), effects)
            }
            _ => self.push(FormObjectEffect::DeleteAll, effects),
        }
    }

    /// Feeds how an attempt `ended` (if given) to `outbox`, persists it, then adds the
    /// outbox's effects; so on while an attempt ends at once (no secret).
    /// An attempt that needs the network stops the run at its
    /// [`FormObjectEffect::Post`]; [`Self::attempt_ended`] goes on.
    fn run(
        &mut self,
        mut outbox: Outbox,
        mut batch: Vec<Effect>,
        mut ended: Option<(u32, AttemptResult, u64)>,
        effects: &mut Vec<FormObjectEffect>,
    ) {
        loop {
            if let Some((attempt, result, now)) = ended.take() {
                batch = outbox.handle_attempt_ended(attempt, result, now);
            }
            let text = serde_json::to_string(&outbox).unwrap_or_default();
            self.put(OUTBOX, &text, effects);
            let mut posted = false;
            for effect in std::mem::take(&mut batch) {
                match effect {
                    Effect::SetAlarm(at) => self.push(FormObjectEffect::SetAlarm(at), effects),
                    Effect::DropMessage => self.push(FormObjectEffect::Delete(MESSAGE), effects),
                    Effect::DeleteAll => self.push(FormObjectEffect::DeleteAll, effects),
                    Effect::Post { attempt } => match self.post(&outbox, attempt) {
                        Some(post) => {
                            self.push(post, effects);
                            posted = true;
                        }
                        None => {
                            let result = AttemptResult::NetworkError;
                            self.push(attempt_log(attempt, result), effects);
                            ended = Some((attempt, result, self.now));
                        }
                    },
                }
            }
            if posted {
                return;
            }
            if ended.is_none() {
                break;
            }
        }
        if !outbox.is_open() && outbox.phase() != DeliveryPhase::Expired {
            let line = json!({"event": "delivery_done", "state": outbox.phase().as_str(), "attempts": outbox.attempts, "last": outbox.last_result.map(|r| r.label())});
            self.push(FormObjectEffect::Log(line.to_string()), effects);
        }
    }

    /// The signed POST of the stored message; `None` without a secret.
    fn post(&self, outbox: &Outbox, attempt: u32) -> Option<FormObjectEffect> {
        Some(FormObjectEffect::Post {
            url: self.callback_url.clone().unwrap_or_default(),
            delivery_id: outbox.delivery_id.clone(),
            secret: self.secret.clone()?,
            attempt,
        })
    }
}

/// How a request is decided: from its body, adding effects; its status and answer.
type RequestHandler = fn(&mut FormObjectMachine, &[u8], &mut Vec<FormObjectEffect>) -> (u16, Value);

/// One request the object answers: how it is decided, and what it reads first.
struct ObjectRoute {
    method: &'static str,
    path: &'static str,
    /// The keys read, in one call, before the request is decided.
    keys: &'static [&'static str],
    /// Whether the alarm's time is read too.
    alarm: bool,
    /// The keys read next, once the first are known (a second call).
    also_reads: fn(&FormObjectMachine) -> &'static [&'static str],
    handle: RequestHandler,
}

/// The object's requests (see the module's table).
const ROUTES: [ObjectRoute; 5] = [
    ObjectRoute {
        method: "POST",
        path: "/init",
        keys: &[RECORD],
        alarm: false,
        also_reads: |_| &[],
        handle: FormObjectMachine::init,
    },
    ObjectRoute {
        method: "GET",
        path: "/state",
        keys: &[RECORD, SPEC, OUTBOX],
        alarm: true,
        also_reads: FormObjectMachine::state_also_reads,
        handle: FormObjectMachine::state,
    },
    ObjectRoute {
        method: "POST",
        path: "/submit",
        keys: &[RECORD, OUTBOX, ANSWER],
        alarm: false,
        also_reads: |_| &[],
        handle: FormObjectMachine::submit,
    },
    ObjectRoute {
        method: "GET",
        path: "/answer",
        keys: &[ANSWER],
        alarm: false,
        also_reads: |_| &[],
        handle: FormObjectMachine::kept_answer,
    },
    ObjectRoute {
        method: "POST",
        path: "/enqueue",
        keys: &[OUTBOX],
        alarm: false,
        also_reads: |_| &[],
        handle: FormObjectMachine::enqueue,
    },
];

/// What the alarm reads before it is decided: the outbox's next step, a
/// link's expiry, and where a POST goes (the message is read at the POST).
const ALARM_READS: &[&str] = &[OUTBOX, RECORD, CALLBACK_URL];

/// A link's expiry in Unix ms (its record keeps seconds); one past what a
/// `u64` holds is the latest time there is.
fn expiry_ms(record: &FormRecord) -> u64 {
    record.expires_at.saturating_mul(1000)
}

fn route(method: &str, path: &str) -> Option<&'static ObjectRoute> {
    ROUTES
        .iter()
        .find(|route| route.method == method && route.path == path)
}

/// The log line of one ended attempt.
fn attempt_log(attempt: u32, result: AttemptResult) -> FormObjectEffect {
    let line = json!({"event": "delivery_attempt", "attempt": attempt, "result": result.label()});
    FormObjectEffect::Log(line.to_string())
}

/// What the worker sends a link's object and reads from it.
impl FormRecord {
    /// The body of its object's `POST /init`: this new link's record and `spec`.
    pub fn init_request(&self, spec: &str) -> Value {
        json!({"spec": spec, "record": self})
    }
    /// The tool message of `GET /answer`'s answer (`status`, `body`): the
    /// answer kept for the MCP call, `None` while the form is open.
    pub fn kept_message(status: u16, body: &Value) -> Option<String> {
        match status {
            200 => body[MESSAGE].as_str().map(str::to_owned),
            _ => None,
        }
    }
}

/// What the worker sends a webhook callback's object, and logs when it fails.
impl Webhook {
    /// The body of `POST /enqueue` for a webhook's answer `message` to
    /// `url`, and the name of its object, from `id_hex` (random) at `now`.
    pub fn enqueue_request(url: &str, message: String, id_hex: &str, now: u64) -> (String, Value) {
        let body = json!({
            "callbackUrl": url,
            "message": message,
            "deliveryId": format!("callback_{id_hex}"),
            "expiresAt": now + CALLBACK_LIFETIME_MS,
        });
        (format!("callback-{id_hex}"), body)
    }
    /// The log line when a webhook's callback was not put in its outbox:
    /// `stored` is the object's status, or what the platform said when the
    /// object was not reached; `None` when the object took it (a 200).
    pub fn callback_not_stored(host: Option<&str>, stored: Result<u16, Error>) -> Option<String> {
        let line = match stored {
            Ok(200) => return None,
            Ok(status) => json!({"event": "callback_not_stored", "host": host, "status": status}),
            Err(error) => {
                json!({"event": "callback_not_stored", "host": host, "error": error.message()})
            }
        };
        Some(line.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge::form_object_run::{perform, FormObjectHost};
    use crate::edge::outbox::{FIRST_RETRY_DELAY_MS, LOST_AFTER_MS};
    use futures::executor::block_on;
    use std::collections::BTreeMap;
    use std::convert::Infallible;

    const T0: u64 = 1_800_000_000_000;
    const HOUR: u64 = 3_600_000;

    /// Every key the object stores.
    const ALL_KEYS: [&str; 6] = [RECORD, SPEC, OUTBOX, ANSWER, CALLBACK_URL, MESSAGE];

    /// A receiver's answer to each POST, from a script.
    type Receiver = Box<dyn FnMut() -> AttemptResult>;

    /// A Durable Object in memory: its storage and alarm, run by the same
    /// loop as the real one (`FormObjectMachine::serve_*`), with a receiver
    /// that answers each POST from a script. It records each read.
    struct Object {
        storage: BTreeMap<&'static str, String>,
        alarm: Option<i64>,
        secret: Option<String>,
        now: u64,
        receiver: Receiver,
        posts: Vec<(String, String, String)>,
        logs: Vec<Value>,
        reads: Vec<Vec<&'static str>>,
    }

    impl FormObjectHost for Object {
        type Error = Infallible;

        async fn get(&mut self, keys: &[&'static str]) -> Result<Vec<Option<String>>, Infallible> {
            self.reads.push(keys.to_vec());
            Ok(keys.iter().map(|k| self.storage.get(k).cloned()).collect())
        }

        async fn put(&mut self, key: &'static str, value: String) -> Result<(), Infallible> {
            self.storage.insert(key, value);
            Ok(())
        }

        async fn delete(&mut self, key: &'static str) -> Result<(), Infallible> {
            self.storage.remove(key);
            Ok(())
        }

        async fn delete_all(&mut self) -> Result<(), Infallible> {
            self.storage.clear();
            self.alarm = None;
            Ok(())
        }

        async fn alarm(&mut self) -> Result<Option<i64>, Infallible> {
            Ok(self.alarm)
        }

        async fn set_alarm(&mut self, at_ms: i64) -> Result<(), Infallible> {
            self.alarm = Some(at_ms);
            Ok(())
        }

        /// Each POST takes 100 ms.
        async fn post_signed(
            &mut self,
            url: &str,
            message: &str,
            delivery_id: &str,
            secret: &str,
        ) -> AttemptResult {
            assert_eq!(Some(secret), self.secret.as_deref());
            self.posts
                .push((url.into(), message.into(), delivery_id.into()));
            self.now += 100;
            (self.receiver)()
        }

        fn log(&mut self, line: &str) {
            self.logs.push(serde_json::from_str(line).unwrap());
        }

        fn now_ms(&mut self) -> u64 {
            self.now
        }
    }

    impl Object {
        fn new() -> Self {
            Self {
                storage: BTreeMap::new(),
                alarm: None,
                secret: Some("s3cret".into()),
                now: T0,
                receiver: Box::new(|| panic!("a request never posts")),
                posts: Vec::new(),
                logs: Vec::new(),
                reads: Vec::new(),
            }
        }

        /// The machine over everything stored, for a test of one decision.
        fn machine(&self, now: u64) -> FormObjectMachine {
            let read = ALL_KEYS.iter().fold(
                FormObjectMachine::new(now, self.secret.clone()),
                |machine, key| machine.stored(key, self.storage.get(key).cloned()),
            );
            read.alarmed(self.alarm)
        }

        /// Performs one batch of `effects` as the object does, without
        /// reporting how a POST among them ended.
        fn perform(&mut self, effects: Vec<FormObjectEffect>, receiver: Receiver) {
            self.receiver = receiver;
            block_on(perform(self, effects)).unwrap();
        }

        fn fetch(&mut self, method: &str, path: &str, body: Value, now: u64) -> (u16, Value) {
            self.now = now;
            self.receiver = Box::new(|| panic!("a request never posts"));
            let secret = self.secret.clone();
            let body = body.to_string();
            let served =
                FormObjectMachine::serve_request(self, secret, method, path, body.as_bytes());
            let (status, answer) = block_on(served).unwrap();
            (status, serde_json::from_str(&answer).unwrap())
        }

        /// Fires the alarm at the time it is set for; that time.
        fn fire(&mut self, receiver: impl FnMut() -> AttemptResult + 'static) -> u64 {
            let now = self.alarm.expect("an alarm is set") as u64;
            self.now = now;
            self.receiver = Box::new(receiver);
            let secret = self.secret.clone();
            block_on(FormObjectMachine::serve_alarm(self, secret)).unwrap();
            now
        }

        fn state(&mut self, now: u64) -> String {
            let (_, answer) = self.fetch("GET", "/state", Value::Null, now);
            answer["state"].as_str().unwrap().to_owned()
        }
    }

    fn record(callback_url: Option<&str>, expires_at_s: u64) -> Value {
        json!({"specHash": "abc", "toolCallId": "call_1", "callbackUrl": callback_url, "expiresAt": expires_at_s})
    }

    /// A link made at `T0`, expiring in an hour.
    fn link(callback_url: Option<&str>) -> Object {
        let mut object = Object::new();
        let record: FormRecord =
            serde_json::from_value(record(callback_url, (T0 + HOUR) / 1000)).unwrap();
        let init = record.init_request("{\"v\":1}");
        assert_eq!(
            object.fetch("POST", "/init", init, T0),
            (200, json!({"ok": true}))
        );
        object
    }

    fn answer(message: &str) -> Value {
        json!({"message": message, "deliveryId": "form_1"})
    }

    #[test]
    fn a_callback_not_taken_by_its_object_is_logged_with_its_host_and_why() {
        let host = Some("agents.acme.com");
        assert_eq!(Webhook::callback_not_stored(host, Ok(200)), None);
        let refused = Webhook::callback_not_stored(host, Ok(400)).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&refused).unwrap(),
            json!({"event": "callback_not_stored", "host": "agents.acme.com", "status": 400})
        );
        let unreached = Webhook::callback_not_stored(
            host,
            Err(Error::new(crate::ErrorCode::Internal, "no binding")),
        );
        assert_eq!(
            serde_json::from_str::<Value>(&unreached.unwrap()).unwrap(),
            json!({"event": "callback_not_stored", "host": "agents.acme.com", "error": "no binding"})
        );
    }

    #[test]
    fn init_keeps_the_first_spec_and_record_and_sets_the_alarm_at_the_links_expiry() {
        let mut object = link(Some("https://agent.example/cb"));
        assert_eq!(object.alarm, Some((T0 + HOUR) as i64));
        let again = json!({"spec": "other", "record": record(None, 1)});
        object.fetch("POST", "/init", again, T0 + 1);
        let (status, state) = object.fetch("GET", "/state", Value::Null, T0 + 2);
        assert_eq!(status, 200);
        assert_eq!(
            (state["spec"].as_str(), state["state"].as_str()),
            (Some("{\"v\":1}"), Some("open"))
        );
        assert_eq!(state["record"]["callbackUrl"], "https://agent.example/cb");
        assert_eq!(
            object.alarm,
            Some((T0 + HOUR) as i64),
            "an open link's alarm is untouched"
        );
    }

    #[test]
    fn requests_the_object_does_not_know_or_cannot_read_change_nothing() {
        let mut object = Object::new();
        assert_eq!(
            object.fetch("GET", "/state", Value::Null, T0),
            (404, json!({"state": "missing"}))
        );
        assert_eq!(object.fetch("POST", "/submit", answer("m"), T0).0, 404);
        assert_eq!(
            object.fetch("DELETE", "/state", Value::Null, T0),
            (404, json!({"state": "unknown"}))
        );
        let mut machine = object.machine(T0);
        for path in ["/init", "/submit", "/enqueue"] {
            assert_eq!(
                machine.fetch("POST", path, b"{not json"),
                (vec![], 400, r#"{"state":"invalid"}"#.into())
            );
        }
        assert_eq!(machine.fetch("POST", "/init", br#"{"record":{}}"#).1, 400);
        assert!(object.storage.is_empty() && object.alarm.is_none());
    }

    #[test]
    fn an_answer_is_stored_once_posted_by_the_alarm_and_dropped_once_taken() {
        let mut object = link(Some("https://agent.example/cb"));
        let (status, phase) =
            object.fetch("POST", "/submit", answer("{\"role\":\"tool\"}"), T0 + 10);
        assert_eq!((status, phase), (200, json!({"state": "received"})));
        assert_eq!(
            object.alarm,
            Some((T0 + 10) as i64),
            "the first attempt is at once"
        );
        assert_eq!(
            object.fetch("POST", "/submit", answer("again"), T0 + 11),
            (409, json!({"state": "received"}))
        );
        object.fire(|| AttemptResult::Status(204));
        let post = (
            "https://agent.example/cb".into(),
            "{\"role\":\"tool\"}".into(),
            "form_1".into(),
        );
        assert_eq!(object.posts, vec![post]);
        assert_eq!(object.state(T0 + 200), "delivered");
        assert!(
            !object.storage.contains_key(MESSAGE),
            "a delivered answer is not kept"
        );
        let events: Vec<_> = object
            .logs
            .iter()
            .map(|l| l["event"].as_str().unwrap())
            .collect();
        assert_eq!(events, ["delivery_attempt", "delivery_done"]);
        // The outbox outlives the link: a day from the answer, not the link's hour.
        assert_eq!(object.alarm, Some((T0 + 10 + CALLBACK_LIFETIME_MS) as i64));
        object.fire(|| unreachable!());
        assert!(
            object.storage.is_empty() && object.alarm.is_none(),
            "deleted at expiry"
        );
    }

    #[test]
    fn failed_posts_are_retried_on_the_outboxs_doubling_schedule_until_it_fails() {
        let mut object = Object::new();
        let (name, body) =
            Webhook::enqueue_request("https://a.example/cb", "{}".into(), "ab12", T0);
        assert_eq!(name, "callback-ab12");
        assert_eq!(
            object.fetch("POST", "/enqueue", body.clone(), T0),
            (200, json!({"state": "received"}))
        );
        assert_eq!(
            object.fetch("POST", "/enqueue", body, T0 + 1),
            (200, json!({"state": "received"}))
        );
        let mut fired = Vec::new();
        while object.alarm.is_some() && object.posts.len() < 1000 {
            fired.push(object.fire(|| AttemptResult::Status(503)));
        }
        let waits: Vec<u64> = fired
            .windows(2)
            .take(9)
            .map(|w| (w[1] - w[0] - 100) / 1000)
            .collect();
        assert_eq!(waits, [5, 10, 20, 40, 80, 160, 320, 600, 600]);
        assert!(
            object.posts.iter().all(|post| post.2 == "callback_ab12"),
            "one delivery id"
        );
        assert!(object.storage.is_empty(), "failed, then deleted at expiry");
        let last = object
            .logs
            .iter()
            .rev()
            .find(|l| l["event"] == "delivery_done")
            .unwrap();
        assert_eq!(
            (last["state"].as_str(), last["last"].as_str()),
            (Some("failed"), Some("503"))
        );
    }

    #[test]
    fn without_a_secret_every_attempt_fails_as_a_network_error_without_a_post() {
        let mut object = link(Some("https://agent.example/cb"));
        object.secret = None;
        object.fetch("POST", "/submit", answer("m"), T0);
        let fired = object.fire(|| unreachable!("nothing is posted unsigned"));
        assert!(object.posts.is_empty());
        assert_eq!(object.alarm, Some((fired + FIRST_RETRY_DELAY_MS) as i64));
        assert_eq!(
            object.logs[0],
            json!({"event": "delivery_attempt", "attempt": 1, "result": "network"})
        );
        assert_eq!(object.state(fired + 1), "retrying");
    }

    #[test]
    fn a_state_request_rearms_a_lost_or_overdue_alarm_only() {
        let mut object = link(Some("https://agent.example/cb"));
        object.fetch("POST", "/submit", answer("m"), T0);
        object.state(T0 + OVERDUE_MS);
        assert!(
            object.logs.is_empty(),
            "an alarm due within the grace is left alone"
        );
        object.alarm = None;
        object.state(T0 + 1);
        assert_eq!(object.alarm, Some(T0 as i64));
        object.state(T0 + OVERDUE_MS + 1);
        let rearmed = json!({"event": "delivery_rearmed", "state": "received"});
        assert_eq!(object.logs, vec![rearmed.clone(), rearmed]);
    }

    #[test]
    fn an_attempt_lost_with_its_isolate_is_retried_by_the_alarm() {
        let mut object = link(Some("https://agent.example/cb"));
        object.fetch("POST", "/submit", answer("m"), T0);
        // The isolate dies during the POST: its effects before it stay stored.
        let mut machine = object.machine(T0);
        let effects = machine.alarm();
        assert!(matches!(
            effects.last(),
            Some(FormObjectEffect::Post { attempt: 1, .. })
        ));
        object.perform(effects, Box::new(|| AttemptResult::Status(200)));
        object.posts.clear();
        assert_eq!(object.alarm, Some((T0 + LOST_AFTER_MS) as i64));
        object.fire(|| unreachable!("a lost attempt is not posted at once"));
        assert_eq!(object.state(T0 + LOST_AFTER_MS), "retrying");
        object.fire(|| AttemptResult::Status(200));
        assert_eq!(
            (object.posts.len(), object.state(T0 + HOUR)),
            (1, "delivered".into())
        );
    }

    #[test]
    fn a_late_report_follows_the_outbox_as_stored_again_after_the_post() {
        let mut object = link(Some("https://agent.example/cb"));
        object.fetch("POST", "/submit", answer("m"), T0);
        let mut machine = object.machine(T0);
        let effects = machine.alarm();
        object.perform(effects, Box::new(|| AttemptResult::Timeout));
        // While the POST ran, another event found it lost and began attempt 2.
        let mut moved: Outbox = serde_json::from_str(&object.storage[OUTBOX]).unwrap();
        moved.handle_alarm(T0 + LOST_AFTER_MS);
        moved.handle_alarm(T0 + LOST_AFTER_MS + FIRST_RETRY_DELAY_MS);
        let stored = serde_json::to_string(&moved).unwrap();
        let effects = machine.attempt_ended(1, AttemptResult::Timeout, T0 + 1, Some(stored));
        let stored_again = effects.iter().rev().find_map(|effect| match effect {
            FormObjectEffect::Put { key: OUTBOX, value } => {
                serde_json::from_str::<Outbox>(value).ok()
            }
            _ => None,
        });
        assert_eq!(
            stored_again,
            Some(moved),
            "attempt 1's failure changes nothing new"
        );
    }

    #[test]
    fn a_link_an_mcp_call_made_keeps_its_answer_once_for_that_call() {
        let mut object = link(None);
        let (status, open) = object.fetch("GET", "/answer", Value::Null, T0);
        assert_eq!((status, &open), (404, &json!({"state": "open"})));
        assert_eq!(FormRecord::kept_message(status, &open), None);
        let unread = json!({"message": "not a 200"});
        assert_eq!(FormRecord::kept_message(500, &unread), None);
        assert_eq!(
            object.fetch("POST", "/submit", answer("tool msg"), T0),
            (200, json!({"state": "delivered"}))
        );
        assert_eq!(
            object.fetch("POST", "/submit", answer("second"), T0),
            (409, json!({"state": "delivered"}))
        );
        let (status, kept) = object.fetch("GET", "/answer", Value::Null, T0);
        assert_eq!((status, &kept), (200, &json!({"message": "tool msg"})));
        assert_eq!(
            FormRecord::kept_message(status, &kept).as_deref(),
            Some("tool msg")
        );
        assert_eq!(object.state(T0), "delivered");
        assert!(object.posts.is_empty() && !object.storage.contains_key(OUTBOX));
    }

    #[test]
    fn a_link_without_an_answer_is_deleted_at_its_expiry_and_not_before() {
        let mut object = link(Some("https://agent.example/cb"));
        object.alarm = Some(T0 as i64 + 1000);
        object.fire(|| unreachable!());
        assert_eq!(
            object.alarm,
            Some((T0 + HOUR) as i64),
            "an early alarm is set again"
        );
        assert!(object.storage.contains_key(RECORD));
        object.fire(|| unreachable!());
        assert!(object.storage.is_empty() && object.alarm.is_none());
    }

    #[test]
    fn a_link_whose_expiry_overflows_ms_gets_an_alarm_that_never_comes() {
        let mut object = Object::new();
        let callback = Some("https://agent.example/cb");
        let record: FormRecord = serde_json::from_value(record(callback, u64::MAX)).unwrap();
        let init = record.init_request("{\"v\":1}");
        let inited = object.fetch("POST", "/init", init, T0);
        assert_eq!(inited, (200, json!({"ok": true})));
        assert_eq!(object.alarm, Some(crate::edge::LATEST_ALARM_MS), "init");
        object.alarm = Some(T0 as i64 + 1000);
        object.fire(|| unreachable!());
        assert_eq!(
            object.alarm,
            Some(crate::edge::LATEST_ALARM_MS),
            "an early alarm, set again"
        );
        assert!(object.storage.contains_key(RECORD));
        let submitted = object.fetch("POST", "/submit", answer("yes"), T0 + 2000);
        assert_eq!(submitted, (200, json!({"state": "received"})));
    }

    #[test]
    fn neither_the_object_nor_its_post_shows_the_secret_or_the_answer_when_logged() {
        let mut machine = FormObjectMachine::new(T0, Some("s3cret".into()));
        machine.message = Some("the person's answer".into());
        let post = FormObjectEffect::Post {
            url: "https://agent.example/cb".into(),
            delivery_id: "d1".into(),
            secret: "s3cret".into(),
            attempt: 1,
        };
        for shown in [format!("{machine:?}"), format!("{post:?}")] {
            assert!(!shown.contains("s3cret"), "{shown}");
            assert!(!shown.contains("person's answer"), "{shown}");
        }
        assert!(format!("{post:?}").contains("\"agent.example\""));
        let tokened = FormObjectEffect::Post {
            url: "https://agent.example/cb?token=t0ps3cret".into(),
            delivery_id: "d1".into(),
            secret: "s3cret".into(),
            attempt: 1,
        };
        assert!(!format!("{tokened:?}").contains("t0ps3cret"));
    }

    #[test]
    fn each_event_reads_only_the_keys_it_needs_and_the_message_only_to_post_it() {
        let mut object = link(Some("https://agent.example/cb"));
        object.reads.clear();
        object.state(T0);
        object.fire(|| unreachable!("an open link is not posted"));
        assert_eq!(
            object.reads,
            [
                vec![RECORD, SPEC, OUTBOX],
                vec![OUTBOX, RECORD, CALLBACK_URL]
            ],
            "state, then the alarm of a link without an answer"
        );
        let mut object = link(Some("https://agent.example/cb"));
        object.fetch("POST", "/submit", answer("m"), T0);
        object.reads.clear();
        object.state(T0);
        object.fire(|| AttemptResult::Status(503));
        object.fire(|| AttemptResult::Status(200));
        let attempt = [
            vec![OUTBOX, RECORD, CALLBACK_URL],
            vec![MESSAGE],
            vec![OUTBOX],
        ];
        let reads = [
            vec![vec![RECORD, SPEC, OUTBOX]],
            attempt.to_vec(),
            attempt.to_vec(),
        ];
        assert_eq!(object.reads, reads.concat());
        assert_eq!(object.posts.len(), 2);
        object.reads.clear();
        object.fetch("GET", "/answer", Value::Null, T0);
        object.fetch("POST", "/enqueue", answer("x"), T0);
        object.fetch("PUT", "/nothing", Value::Null, T0);
        assert_eq!(object.reads, [vec![ANSWER], vec![OUTBOX]]);
    }

    #[test]
    fn the_state_of_a_link_an_mcp_call_made_reads_the_answer_only_while_it_can_decide() {
        let mut object = link(None);
        object.reads.clear();
        assert_eq!(object.state(T0), "open");
        object.fetch("POST", "/submit", answer("tool msg"), T0);
        assert_eq!(object.state(T0), "delivered");
        let state = [vec![RECORD, SPEC, OUTBOX], vec![ANSWER]];
        let submit = vec![RECORD, OUTBOX, ANSWER];
        assert_eq!(
            object.reads,
            [state.to_vec(), vec![submit], state.to_vec()].concat()
        );
    }

    /// What a run left in an object: its storage, alarm, POSTs and logs.
    type Left = (
        BTreeMap<&'static str, String>,
        Option<i64>,
        Vec<(String, String, String)>,
        Vec<Value>,
    );

    impl Object {
        /// A fresh object holding `stored` (storage and alarm).
        fn holding(stored: &Held) -> Self {
            let mut object = Self::new();
            (object.storage, object.alarm) = stored.clone();
            object
        }

        fn left(self) -> Left {
            (self.storage, self.alarm, self.posts, self.logs)
        }
    }

    /// Each state a link's object can hold at `now`: named, with its
    /// storage and alarm.
    type Held = (BTreeMap<&'static str, String>, Option<i64>);
    fn each_stored_state() -> Vec<(&'static str, u64, Held)> {
        let callback = Some("https://agent.example/cb");
        let held = |object: Object| (object.storage, object.alarm);
        let answered = |url| {
            let mut object = link(url);
            object.fetch("POST", "/submit", answer("m"), T0);
            object
        };
        let mut retrying = answered(callback);
        retrying.fire(|| AttemptResult::Status(503));
        let mut delivered = answered(callback);
        delivered.fire(|| AttemptResult::Status(200));
        let mut lost_alarm = answered(callback);
        lost_alarm.alarm = None;
        vec![
            ("open, with a callback", T0 + 10, held(link(callback))),
            ("open, for MCP", T0 + 10, held(link(None))),
            (
                "answered, with a callback",
                T0 + 10,
                held(answered(callback)),
            ),
            ("answered, for MCP", T0 + 10, held(answered(None))),
            ("answered, its alarm lost", T0 + 10, held(lost_alarm)),
            ("retrying", T0 + 10, held(retrying)),
            ("delivered", T0 + 10, held(delivered)),
            ("expired", T0 + 2 * HOUR, held(link(callback))),
        ]
    }

    /// Each request the object takes, with a body it accepts.
    fn each_request() -> Vec<(&'static str, &'static str, Value)> {
        let record: FormRecord = serde_json::from_value(record(None, (T0 + HOUR) / 1000)).unwrap();
        let init = record.init_request("{\"v\":2}");
        let url = "https://agent.example/other".to_owned();
        let (_, enqueue) = Webhook::enqueue_request(&url, "e".into(), "ab", T0);
        vec![
            ("POST", "/init", init),
            ("GET", "/state", Value::Null),
            ("POST", "/submit", answer("n")),
            ("GET", "/answer", Value::Null),
            ("POST", "/enqueue", enqueue),
            ("PUT", "/nothing", Value::Null),
        ]
    }

    /// The request on a machine loaded with every key and the alarm: its
    /// status, answer and what its effects left.
    fn request_over_all_keys(
        held: &Held,
        now: u64,
        request: &(&str, &str, Value),
    ) -> (u16, Value, Left) {
        let mut object = Object::holding(held);
        let (method, path, body) = request;
        let body = body.to_string();
        let (effects, status, answer) = object.machine(now).fetch(method, path, body.as_bytes());
        object.perform(effects, Box::new(|| panic!("a request never posts")));
        (
            status,
            serde_json::from_str(&answer).unwrap(),
            object.left(),
        )
    }

    /// The alarm on a machine loaded with every key: what its effects,
    /// and those of each attempt, left.
    fn alarm_over_all_keys(held: &Held, now: u64) -> Left {
        let mut object = Object::holding(held);
        object.now = now;
        object.receiver = Box::new(|| AttemptResult::Status(200));
        let mut machine = object.machine(now);
        let mut effects = machine.alarm();
        while let Some((attempt, result)) = block_on(perform(&mut object, effects)).unwrap() {
            let outbox = object.storage.get(OUTBOX).cloned();
            effects = machine.attempt_ended(attempt, result, now, outbox);
        }
        object.left()
    }

    #[test]
    fn each_handler_decides_as_if_it_had_read_every_key_from_what_its_route_loads() {
        for (state, now, held) in each_stored_state() {
            for request in each_request() {
                let mut object = Object::holding(&held);
                let (method, path, body) = &request;
                let (status, answer) = object.fetch(method, path, body.clone(), now);
                let served = (status, answer, object.left());
                let expected = request_over_all_keys(&held, now, &request);
                assert_eq!(served, expected, "{method} {path}, {state}");
            }
            let mut object = Object::holding(&held);
            object.now = now;
            object.receiver = Box::new(|| AttemptResult::Status(200));
            let secret = object.secret.clone();
            block_on(FormObjectMachine::serve_alarm(&mut object, secret)).unwrap();
            assert_eq!(
                object.left(),
                alarm_over_all_keys(&held, now),
                "alarm, {state}"
            );
        }
    }
}
