//! The module start's request: one generate of the built-in warm-up form
//! sent through the fetch path (the shell's request reading, `serve` over
//! [`Worker`], the response it builds), so that V8 compiles that code,
//! which the core's own warm-up (`genui_model::warm_up`) cannot reach, at
//! start-up rather than in the isolate's first request. What stays cold:
//! the `#[event(fetch)]` glue, reading a body stream (the runtime builds
//! none outside a request, so the platform hands the door the bytes) and
//! handing the response to JavaScript. The request binds nothing and reads
//! no configuration ([`Worker::warming`]). An answer other than 200 is
//! logged as `warm_up_refused`.

use super::platform::Worker;
use super::respond::{into_response, RequestInfo};
use genui_model::{serve, WARM_UP_REQUEST};
use worker::wasm_bindgen_futures::spawn_local;
use worker::{console_error, Headers, Method, Request, RequestInit};

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
        let worker = Worker::warming(request, WARM_UP_REQUEST.as_bytes(), &info.id);
        let (response, _) = serve(worker).await.into_parts();
        match into_response(response, &info) {
            Ok(response) if response.status_code() == 200 => {}
            Ok(response) => refused(&response.status_code().to_string()),
            Err(e) => refused(&format!("response not built: {e}")),
        }
    });
}

/// The warm-up request's method, URL and headers (with the length a
/// client announces); its body goes to the platform apart.
fn warm_up_request() -> worker::Result<Request> {
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    headers.set("content-length", &WARM_UP_REQUEST.len().to_string())?;
    headers.set("cf-ray", "warm-up")?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_headers(headers);
    Request::new_with_init(WARM_UP_URL, &init)
}

/// Logs that the fetch path answered the warm-up request with `answered`
/// where 200 was due, in the core warm-up's `warm_up_refused` shape.
fn refused(answered: &str) {
    let line = serde_json::json!({
        "event": "warm_up_refused",
        "step": "fetch path",
        "expected": "200",
        "answered": answered,
    });
    console_error!("{line}");
}
