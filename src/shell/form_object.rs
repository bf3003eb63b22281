//! The hosted forms' Durable Object ([`FormObject`]): one per link (or per
//! webhook callback), SQLite-backed. genui-core's form-object machine runs
//! each request and alarm over it ([`ObjectRuntime`], a `FormObjectHost`):
//! its storage, its alarm, the signed POST of the outbox, log lines.

use super::clock::{alarm_offset, unix_ms, unix_s};
use super::deliver::post_signed;
use super::settings::setting;
use genui_core::{AttemptResult, FormObjectHost};
use worker::wasm_bindgen::JsValue;
use worker::{
    durable_object, DurableObject, Env, Error, Request, Response, Result, State, Storage,
};

/// One hosted form's record and outbox, or one webhook callback's outbox.
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
        let (method, path) = (req.method(), req.path());
        let mut runtime = ObjectRuntime(self.state.storage());
        let (status, answer) = runtime
            .serve_request(self.secret(), method.as_ref(), &path, &body)
            .await?;
        Ok(Response::ok(answer)?.with_status(status))
    }

    async fn alarm(&self) -> Result<Response> {
        let mut runtime = ObjectRuntime(self.state.storage());
        runtime.serve_alarm(self.secret()).await?;
        Response::ok("ok")
    }
}

impl FormObject {
    fn secret(&self) -> Option<String> {
        setting(&self.env, "WEBHOOK_SECRET")
    }
}

/// The object's storage, alarm, network, log and clock, as the machine uses them.
struct ObjectRuntime(Storage);

impl FormObjectHost for ObjectRuntime {
    type Error = Error;

    async fn get(&mut self, keys: &[&'static str]) -> Result<Vec<Option<String>>> {
        let found = self.0.get_multiple(keys.to_vec()).await?;
        let value = |key: &&str| found.get(&JsValue::from_str(key)).as_string();
        Ok(keys.iter().map(value).collect())
    }

    async fn put(&mut self, key: &'static str, value: String) -> Result<()> {
        self.0.put(key, value).await
    }

    async fn delete(&mut self, key: &'static str) -> Result<()> {
        self.0.delete(key).await.map(drop)
    }

    async fn delete_all(&mut self) -> Result<()> {
        self.0.delete_all().await
    }

    async fn alarm(&mut self) -> Result<Option<i64>> {
        self.0.get_alarm().await
    }

    async fn set_alarm(&mut self, at_ms: i64) -> Result<()> {
        self.0.set_alarm(alarm_offset(at_ms)).await
    }

    async fn post_signed(
        &mut self,
        url: &str,
        message: &str,
        delivery_id: &str,
        secret: &str,
    ) -> AttemptResult {
        post_signed(url, message, delivery_id, secret, unix_s()).await
    }

    fn log(&mut self, line: &str) {
        worker::console_log!("{line}");
    }

    fn now_ms(&mut self) -> u64 {
        unix_ms()
    }
}
