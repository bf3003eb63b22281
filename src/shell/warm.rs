//! The module start's request: one generate of the built-in warm-up form
//! sent through the whole fetch path (this shell, `serve` over
//! [`Worker`], the response), so that V8 compiles that code, which the
//! core's own warm-up (`genui_model::warm_up`) cannot reach, at start-up
//! rather than in the isolate's first request. It binds nothing and
//! reads no configuration ([`Worker::warming`]); what the Workers
//! runtime refuses outside a request (I/O, timers, random bytes) it never
//! asks for. An answer other than 200 is logged as `warm_up_refused`.

use super::platform::Worker;
use super::respond::{into_response, RequestInfo};
use genui_model::{serve, WARM_UP_REQUEST};
use serde_json::json;
use std::rc::Rc;
use worker::js_sys::{Object, Reflect};
use worker::wasm_bindgen::closure::Closure;
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::spawn_local;
use worker::{console_error, Context, Env, Headers, Method, Request, RequestInit};

/// Where the warm-up request is addressed: never fetched, only routed.
const WARM_UP_URL: &str = "https://warm-up.invalid/v1/generate";

/// Starts the warm-up request; it runs once the module's start returns,
/// before the isolate takes its first request.
pub(super) fn warm_up_fetch_path() {
    let request = match warm_up_request() {
        Ok(request) => request,
        Err(e) => return refused(&format!("request not built: {e}")),
    };
    spawn_local(async move {
        let info = RequestInfo::new(&request);
        let body = WARM_UP_REQUEST.as_bytes();
        let worker = Worker::warming(
            request,
            body,
            &unbound_env(),
            Rc::new(idle_context()),
            &info.id,
        );
        let (response, _) = serve(worker).await.into_parts();
        match into_response(response, &info) {
            Ok(response) if response.status_code() == 200 => {}
            Ok(response) => refused(&response.status_code().to_string()),
            Err(e) => refused(&format!("response not built: {e}")),
        }
    });
}

/// The warm-up request's method, URL and headers; its body goes to the
/// platform apart ([`Worker::warming`]).
fn warm_up_request() -> worker::Result<Request> {
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    headers.set("cf-ray", "warm-up")?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_headers(headers);
    Request::new_with_init(WARM_UP_URL, &init)
}

/// An `Env` with no var, secret or binding.
fn unbound_env() -> Env {
    JsValue::from(Object::new()).unchecked_into()
}

/// A fetch context whose `waitUntil` only lets the work run (it starts
/// on its own) and whose `passThroughOnException` does nothing.
fn idle_context() -> Context {
    let context = Object::new();
    let ignore = Closure::<dyn Fn(JsValue)>::new(|_: JsValue| {});
    for method in ["waitUntil", "passThroughOnException"] {
        let _ = Reflect::set(&context, &JsValue::from_str(method), ignore.as_ref());
    }
    ignore.forget();
    Context::new(JsValue::from(context).unchecked_into())
}

fn refused(answered: &str) {
    let line = json!({"event": "warm_up_refused", "step": "fetch path", "expected": "200", "answered": answered});
    console_error!("{line}");
}
