//! Cloudflare's rate-limiting binding (`RATE_LIMITER`), when configured:
//! one budget per API key (by its SHA-256, never the key itself), else per
//! client IP. Over budget: 429 `rate_limited` with `Retry-After`. Without
//! the binding, or if it fails, requests are not limited (logged).

use genui_core::HttpResponse;
use genui_core::{Error, ErrorCode};
use worker::js_sys::{Object, Promise, Reflect};
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::JsFuture;
use worker::{console_error, Env, Request};

const BINDING: &str = "RATE_LIMITER";

/// The period of the binding's `simple` rule in wrangler.toml, for Retry-After.
const RETRY_AFTER_SECONDS: u32 = 60;

/// `Some(429 answer)` when this caller is over its budget.
pub(super) async fn check(env: &Env, req: &Request) -> Option<HttpResponse> {
    let limiter = Reflect::get(env, &JsValue::from_str(BINDING))
        .ok()
        .filter(|v| !v.is_undefined())?;
    let key = caller_key(req);
    match limit(&limiter, &key).await {
        Ok(true) => None,
        Ok(false) => {
            let error = Error::new(
                ErrorCode::RateLimited,
                format!("too many requests; try again in {RETRY_AFTER_SECONDS} s"),
            )
            .with_retry_after_seconds(RETRY_AFTER_SECONDS);
            let mut response = HttpResponse::error(&error);
            response
                .headers
                .push(("retry-after".into(), RETRY_AFTER_SECONDS.to_string()));
            Some(response)
        }
        Err(e) => {
            console_error!(
                "{{\"event\":\"rate_limiter_failed\",\"error\":{:?}}}",
                format!("{e:?}")
            );
            None
        }
    }
}

/// `key:<sha-256 prefix>` for a bearer key, else `ip:<client address>`.
fn caller_key(req: &Request) -> String {
    let header = |name: &str| req.headers().get(name).ok().flatten();
    if let Some(bearer) = header("authorization")
        .as_deref()
        .and_then(genui_core::Access::bearer_token)
    {
        return format!("key:{}", &genui_core::Access::key_fingerprint(bearer));
    }
    format!(
        "ip:{}",
        header("cf-connecting-ip").unwrap_or_else(|| "unknown".into())
    )
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
