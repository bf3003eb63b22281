//! The one perform loop of a hosted form's (or webhook callback's) Durable
//! Object: it reads the keys an event needs from the object's storage in
//! one call, lets the [`FormObjectMachine`] decide, and performs the
//! effects in order through a [`FormObjectHost`]; after a signed POST it
//! reads the outbox again and reports how the attempt ended, until an
//! event's effects start no further POST. The shell's object implements
//! the host over its storage and the network; the tests over memory.

use super::alarm_at;
use super::form_object::{FormObjectEffect, FormObjectMachine};
use super::outbox::AttemptResult;

/// What a form object's runtime does for its machine: its storage (a few
/// keys at once, put, delete, delete all), its one alarm, the signed POST,
/// a log line and the clock. The storage calls fail with the runtime's
/// [`FormObjectHost::Error`], which ends the event (as an exception does).
#[allow(async_fn_in_trait)]
pub trait FormObjectHost {
    /// The runtime's storage failure.
    type Error;

    /// The values stored under `keys`, in their order (`None`: not stored).
    async fn get(&mut self, keys: &[&'static str]) -> Result<Vec<Option<String>>, Self::Error>;

    /// Stores `value` under `key`.
    async fn put(&mut self, key: &'static str, value: String) -> Result<(), Self::Error>;

    /// Deletes `key`.
    async fn delete(&mut self, key: &'static str) -> Result<(), Self::Error>;

    /// Deletes everything the object stores.
    async fn delete_all(&mut self) -> Result<(), Self::Error>;

    /// The time the object's alarm is set for (Unix ms), if one is.
    async fn alarm(&mut self) -> Result<Option<i64>, Self::Error>;

    /// Sets the object's one alarm to `at_ms` (Unix ms, as
    /// `super::alarm_at` gives it).
    async fn set_alarm(&mut self, at_ms: i64) -> Result<(), Self::Error>;

    /// One POST of `message` to `url`, signed with `secret`, carrying
    /// `delivery_id`; how it ended.
    async fn post_signed(
        &mut self,
        url: &str,
        message: &str,
        delivery_id: &str,
        secret: &str,
    ) -> AttemptResult;

    /// Writes one JSON log line.
    fn log(&mut self, line: &str);

    /// The time now, Unix ms.
    fn now_ms(&mut self) -> u64;

    /// Answers the object's request `method path` with `body`, signing
    /// with `secret`: its status and JSON text, once the machine's effects
    /// are performed here.
    async fn serve_request(
        &mut self,
        secret: Option<String>,
        method: &str,
        path: &str,
        body: &[u8],
    ) -> Result<(u16, String), Self::Error>
    where
        Self: Sized,
    {
        FormObjectMachine::serve_request(self, secret, method, path, body).await
    }

    /// Runs the object's alarm here, signing with `secret`.
    async fn serve_alarm(&mut self, secret: Option<String>) -> Result<(), Self::Error>
    where
        Self: Sized,
    {
        FormObjectMachine::serve_alarm(self, secret).await
    }
}

impl FormObjectMachine {
    /// Answers the request `method path` with `body` on `host`, signing
    /// with `secret`: the object's status and JSON text, once its effects
    /// are performed.
    pub(crate) async fn serve_request<H: FormObjectHost>(
        host: &mut H,
        secret: Option<String>,
        method: &str,
        path: &str,
        body: &[u8],
    ) -> Result<(u16, String), H::Error> {
        let (keys, needs_alarm) = Self::reads(method, path);
        let mut machine = read(host, secret, keys, needs_alarm).await?;
        let also = machine.also_reads(method, path);
        if !also.is_empty() {
            machine = stored(machine, also, host.get(also).await?);
        }
        let (effects, status, answer) = machine.fetch(method, path, body);
        perform_all(host, machine, effects).await?;
        Ok((status, answer))
    }

    /// Runs the object's alarm on `host`, signing with `secret`.
    pub(crate) async fn serve_alarm<H: FormObjectHost>(
        host: &mut H,
        secret: Option<String>,
    ) -> Result<(), H::Error> {
        let mut machine = read(host, secret, Self::ALARM_READS, false).await?;
        let effects = machine.alarm();
        perform_all(host, machine, effects).await
    }
}

/// The machine at the host's time over `keys` (one read; none for no
/// keys) and, when `needs_alarm`, the alarm.
async fn read<H: FormObjectHost>(
    host: &mut H,
    secret: Option<String>,
    keys: &'static [&'static str],
    needs_alarm: bool,
) -> Result<FormObjectMachine, H::Error> {
    let machine = FormObjectMachine::new(host.now_ms(), secret);
    let values = match keys {
        [] => Vec::new(),
        keys => host.get(keys).await?,
    };
    let machine = stored(machine, keys, values);
    match needs_alarm {
        true => Ok(machine.alarmed(host.alarm().await?)),
        false => Ok(machine),
    }
}

fn stored(
    machine: FormObjectMachine,
    keys: &[&'static str],
    values: Vec<Option<String>>,
) -> FormObjectMachine {
    keys.iter()
        .zip(values)
        .fold(machine, |machine, (key, value)| machine.stored(key, value))
}

/// Performs `effects` in order, and those of every attempt they start.
async fn perform_all<H: FormObjectHost>(
    host: &mut H,
    mut machine: FormObjectMachine,
    mut effects: Vec<FormObjectEffect>,
) -> Result<(), H::Error> {
    while let Some((attempt, result)) = perform(host, effects).await? {
        let outbox = read_one(host, FormObjectMachine::OUTBOX_KEY).await?;
        let now = host.now_ms();
        effects = machine.attempt_ended(attempt, result, now, outbox);
    }
    Ok(())
}

/// Performs one batch of `effects` in order; how the POST among them
/// ended, if one did (the machine starts at most one per batch).
pub(crate) async fn perform<H: FormObjectHost>(
    host: &mut H,
    effects: Vec<FormObjectEffect>,
) -> Result<Option<(u32, AttemptResult)>, H::Error> {
    let mut ended = None;
    for effect in effects {
        match effect {
            FormObjectEffect::Put { key, value } => host.put(key, value).await?,
            FormObjectEffect::Delete(key) => host.delete(key).await?,
            FormObjectEffect::DeleteAll => host.delete_all().await?,
            FormObjectEffect::SetAlarm(at) => host.set_alarm(alarm_at(at)).await?,
            FormObjectEffect::Log(line) => host.log(&line),
            FormObjectEffect::Post {
                url,
                delivery_id,
                secret,
                attempt,
            } => {
                let message = read_one(host, FormObjectMachine::MESSAGE_KEY).await?;
                let message = message.unwrap_or_default();
                let result = host.post_signed(&url, &message, &delivery_id, &secret);
                ended = Some((attempt, result.await));
            }
        }
    }
    Ok(ended)
}

async fn read_one<H: FormObjectHost>(
    host: &mut H,
    key: &'static str,
) -> Result<Option<String>, H::Error> {
    Ok(host.get(&[key]).await?.into_iter().next().flatten())
}
