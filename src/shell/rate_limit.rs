//! Cloudflare's rate-limiting binding (`RATE_LIMITER`), when configured:
//! one budget per API key (by its SHA-256, never the key itself), else per
//! client IP. Over budget: 429 `rate_limited` with `Retry-After`. Without
//! the binding, or if it fails, requests are not limited (logged).

use super::platform::Worker;
use genui_core::{Access, HttpResponse};
use genui_model::Platform;
use worker::js_sys::{Object, Promise, Reflect};
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::JsFuture;
use worker::{console_error, Env};

const BINDING: &str = "RATE_LIMITER";

/// `Some(429 answer)` when this caller is over its budget.
pub(super) async fn check(worker: &Worker) -> Option<HttpResponse> {
    if !worker.has_binding(BINDING) {
        return None;
    }
    let header = |name: &str| worker.header(name);
    let bucket = Access::rate_limit_bucket(
        header("authorization").as_deref(),
        header("cf-connecting-ip").as_deref(),
    );
    match worker.within_rate_limit(BINDING, &bucket).await {
        Ok(within) => (!within).then(Access::over_budget),
        Err(e) => {
            console_error!(
                "{{\"event\":\"rate_limiter_failed\",\"error\":{:?}}}",
                e.message()
            );
            None
        }
    }
}

/// Asks the limiter `binding` whether `key` is within its budget.
pub(super) async fn within(env: &Env, binding: &str, key: &str) -> Result<bool, JsValue> {
    let limiter = Reflect::get(env, &JsValue::from_str(binding))?;
    let options = Object::new();
    Reflect::set(&options, &JsValue::from_str("key"), &JsValue::from_str(key))?;
    let method: worker::js_sys::Function =
        Reflect::get(&limiter, &JsValue::from_str("limit"))?.dyn_into()?;
    let promise: Promise = method.call1(&limiter, &options)?.dyn_into()?;
    let outcome = JsFuture::from(promise).await?;
    Ok(Reflect::get(&outcome, &JsValue::from_str("success"))?
        .as_bool()
        .unwrap_or(true))
}
