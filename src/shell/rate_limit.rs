//! Cloudflare's rate-limiting binding, called: `limit({key})` and its
//! `success`. Which key, and what an answer or a failure means, is the
//! route door's (`genui_model::serve`).

use worker::js_sys::{Object, Promise, Reflect};
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::JsFuture;
use worker::Env;

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
