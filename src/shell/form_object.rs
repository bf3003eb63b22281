//! The hosted forms' Durable Object ([`FormObject`]): one per link (or per
//! webhook callback), SQLite-backed. It performs what genui_core's
//! `FormObjectMachine` decides for each request and alarm: storage, the
//! alarm, the signed POST of the outbox, log lines.

use super::clock::{alarm_offset, unix_ms, unix_s};
use super::deliver::post_signed;
use super::settings::setting;
use genui_core::{FormObjectEffect, FormObjectMachine};
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

/// One hosted form's record and outbox, or one webhook callback's outbox:
/// it performs what genui_core's `FormObjectMachine` decides for each
/// request and alarm (storage, alarm, signed POST, log lines).
#[durable_object]
pub struct FormObject {
    state: State,
    env: Env,
}

impl DurableObject for FormObject {
    fn new(state: State, env: Env) -> Self {
        Self { state, env }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let body = req.bytes().await?;
        let mut machine = self.machine().await?;
        let (effects, status, answer) = machine.fetch(req.method().as_ref(), &req.path(), &body);
        self.perform(machine, effects).await?;
        Ok(Response::ok(answer)?.with_status(status))
    }

    async fn alarm(&self) -> Result<Response> {
        let mut machine = self.machine().await?;
        let effects = machine.alarm();
        self.perform(machine, effects).await?;
        Response::ok("ok")
    }
}

impl FormObject {
    /// The machine over the object's storage and alarm, now.
    async fn machine(&self) -> Result<FormObjectMachine> {
        let storage = self.state.storage();
        let secret = setting(&self.env, "WEBHOOK_SECRET");
        let mut machine = FormObjectMachine::new(unix_ms(), secret);
        for key in FormObjectMachine::KEYS {
            machine = machine.stored(key, storage.get::<String>(key).await?);
        }
        Ok(machine.alarmed(storage.get_alarm().await?))
    }

    /// Performs `effects` in order, and those of every attempt they start.
    async fn perform(
        &self,
        mut machine: FormObjectMachine,
        mut effects: Vec<FormObjectEffect>,
    ) -> Result<()> {
        let storage = self.state.storage();
        loop {
            let mut ended = None;
            for effect in effects {
                match effect {
                    FormObjectEffect::Put { key, value } => storage.put(key, value).await?,
                    FormObjectEffect::Delete(key) => _ = storage.delete(key).await?,
                    FormObjectEffect::DeleteAll => storage.delete_all().await?,
                    FormObjectEffect::SetAlarm(at) => storage.set_alarm(alarm_offset(at)).await?,
                    FormObjectEffect::Log(line) => worker::console_log!("{line}"),
                    FormObjectEffect::Post {
                        url,
                        message,
                        delivery_id,
                        secret,
                        attempt,
                    } => {
                        let result =
                            post_signed(&url, &message, &delivery_id, &secret, unix_s()).await;
                        ended = Some((attempt, result));
                    }
                }
            }
            let Some((attempt, result)) = ended else {
                return Ok(());
            };
            let outbox = storage.get::<String>(FormObjectMachine::OUTBOX_KEY).await?;
            effects = machine.attempt_ended(attempt, result, unix_ms(), outbox);
        }
    }
}
