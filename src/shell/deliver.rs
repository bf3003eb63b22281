//! The two effects the outbox needs from the platform: random bytes from
//! its CSPRNG (`crypto.getRandomValues`) and one signed POST attempt.

use genui_core::{AttemptResult, Webhook};
use std::time::Duration;
use worker::js_sys::{Function, Reflect, Uint8Array};
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::{
    AbortController, Delay, Fetch, Headers, Method, Request, RequestInit, RequestRedirect,
};

/// Fills `bytes` from the platform's CSPRNG (Web Crypto's `getRandomValues`).
pub(super) fn fill_random(bytes: &mut [u8]) -> worker::Result<()> {
    let crypto = Reflect::get(&worker::js_sys::global(), &JsValue::from_str("crypto"))?;
    let fill: Function =
        Reflect::get(&crypto, &JsValue::from_str("getRandomValues"))?.dyn_into()?;
    let array = Uint8Array::new_with_length(bytes.len() as u32);
    fill.call1(&crypto, &array)?;
    array.copy_to(bytes);
    Ok(())
}

/// One attempt: POSTs `message` to `url`, signed under `secret` at `now_s`,
/// with the delivery id header; a redirect is answered as its own 3xx,
/// never followed (a signed body must not go where the callback check
/// never looked). Ends within [`AttemptResult::TIMEOUT_MS`].
pub(super) async fn post_signed(
    url: &str,
    message: &str,
    delivery_id: &str,
    secret: &str,
    now_s: u64,
) -> AttemptResult {
    let signature = Webhook::sign_callback(secret, now_s, message.as_bytes());
    let request = match signed_request(url, message, delivery_id, &signature) {
        Ok(request) => request,
        Err(_) => return AttemptResult::NetworkError,
    };
    let controller = AbortController::default();
    let signal = controller.signal();
    let exchange = async {
        Fetch::Request(request)
            .send_with_signal(&signal)
            .await
            .map(|response| response.status_code())
    };
    let timeout = Delay::from(Duration::from_millis(AttemptResult::TIMEOUT_MS));
    // Bound to a local so the losing future is dropped before `signal`.
    let raced = futures::future::select(Box::pin(exchange), Box::pin(timeout)).await;
    match raced {
        futures::future::Either::Left((Ok(status), _)) => AttemptResult::Status(status),
        futures::future::Either::Left((Err(_), _)) => AttemptResult::NetworkError,
        futures::future::Either::Right(_) => {
            controller.abort();
            AttemptResult::Timeout
        }
    }
}

fn signed_request(
    url: &str,
    message: &str,
    delivery_id: &str,
    signature: &str,
) -> worker::Result<Request> {
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    headers.set(Webhook::SIGNATURE_HEADER, signature)?;
    headers.set(AttemptResult::DELIVERY_ID_HEADER, delivery_id)?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_redirect(RequestRedirect::Manual)
        .with_body(Some(message.to_owned().into()));
    Request::new_with_init(url, &init)
}
