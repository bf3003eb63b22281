//! Cloudflare's rate-limiting binding (`RATE_LIMITER`), when configured:
//! one budget per API key (by its SHA-256, never the key itself), else per
//! client IP. Over budget: 429 `rate_limited` with `Retry-After`. Without
//! the binding, or if it fails, requests are not limited (logged).

use genui_core::{Access, HttpResponse};
use worker::js_sys::{Object, Promise, Reflect};
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::JsFuture;
use worker::{console_error, Env, Request};

const BINDING: &str = "RATE_LIMITER";

/// `Some(429 answer)` when this caller is over its budget.
pub(super) async fn check(env: &Env, req: &Request) -> Option<HttpResponse> {
    let limiter = Reflect::get(env, &JsValue::from_str(BINDING))
        .ok()
        .filter(|v| !v.is_undefined())?;
    let header = |name: &str| req.headers().get(name).ok().flatten();
    let bucket = Access::rate_limit_bucket(
        header("authorization").as_deref(),
        header("cf-connecting-ip").as_deref(),
    );
    match limit(&limiter, &bucket).await {
        Ok(within) => (!within).then(Access::over_budget),
        Err(e) => {
            console_error!(
                "{{\"event\":\"rate_limiter_failed\",\"error\":{:?}}}",
                format!("{e:?}")
            );
            None
        }
    }
}

async fn limit(limiter: &JsValue, key: &str) -> Result<bool, JsValue> {
    let options = Object::new();
    Reflect::set(&options, &JsValue::from_str("key"), &JsValue::from_str(key))?;
    let method: worker::js_sys::Function =
        Reflect::get(limiter, &JsValue::from_str("limit"))?.dyn_into()?;
    let promise: Promise = method.call1(limiter, &options)?.dyn_into()?;
    let outcome = JsFuture::from(promise).await?;
    Ok(Reflect::get(&outcome, &JsValue::from_str("success"))?
        .as_bool()
        .unwrap_or(true))
}
