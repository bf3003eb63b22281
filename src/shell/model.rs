//! The model path's effects: configuration from vars and secrets, and the
//! provider calls the generation machine asks for (HTTP requests with a
//! per-attempt timeout, Workers AI binding calls); `drive` feeds the
//! results back. Every decision stays in genui-model.

use futures::future::{select, Either};
use genui_model::{AiCall, Event, Generators, HttpRequest, VARIABLES};
use std::cell::RefCell;
use std::time::Duration;
use worker::js_sys::{self, Function, Promise, Reflect};
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::JsFuture;
use worker::{
    console_error, AbortController, Delay, Env, Fetch, Headers, Method, Request, RequestInit,
};

/// The Workers AI binding name (wrangler.toml `[ai] binding = "AI"`).
const AI_BINDING: &str = "AI";

thread_local! {
    /// The generator table: a Worker has no start-up hook, so it is read and
    /// validated on the first request of an isolate (its vars and secrets
    /// are fixed for the isolate's life, see `settings`).
    static GENERATORS: RefCell<Option<Generators>> = const { RefCell::new(None) };
}

/// The generator registry from the `MODEL_*`, `GENUI_*` vars and secrets.
/// A broken part is logged once (never a secret) and left out, so the
/// worker keeps answering (at worst with the deterministic generator).
pub(super) fn generators(env: &Env) -> Generators {
    GENERATORS.with(|cell| {
        let mut cached = cell.borrow_mut();
        let generators = cached.get_or_insert_with(|| {
            let lookup = |name: &str| {
                VARIABLES
                    .iter()
                    .find(|v| **v == name)
                    .and_then(|v| super::settings::raw(env, v))
            };
            let (generators, problems) = Generators::from_vars(lookup);
            for why in problems {
                console_error!("{{\"event\":\"generator_config_invalid\",\"error\":{why:?}}}");
            }
            generators
        });
        generators.clone()
    })
}

/// Sends a provider request, aborting it when the timeout fires first.
pub(super) async fn send(request: HttpRequest, timeout_ms: u64) -> Event {
    let started = super::clock::now_ms();
    let worker_request = match to_worker_request(&request) {
        Ok(r) => r,
        Err(e) => return Event::NetworkError(e.to_string()),
    };
    let controller = AbortController::default();
    let signal = controller.signal();
    let exchange = async {
        let mut response = Fetch::Request(worker_request)
            .send_with_signal(&signal)
            .await?;
        let headers: Vec<(String, String)> = response.headers().entries().collect();
        let body = response.text().await?;
        Ok::<_, worker::Error>((response.status_code(), headers, body))
    };
    let timeout = Delay::from(Duration::from_millis(timeout_ms));
    // Bound to a local so the losing future is dropped before `signal`.
    let raced = select(Box::pin(exchange), Box::pin(timeout)).await;
    match raced {
        Either::Left((Ok((status, headers, body)), _)) => {
            let elapsed_ms = (super::clock::now_ms() - started).max(0.0) as u64;
            Event::Response {
                status,
                headers,
                body,
                elapsed_ms,
            }
        }
        Either::Left((Err(e), _)) => Event::NetworkError(e.to_string()),
        Either::Right(_) => {
            controller.abort();
            Event::TimedOut
        }
    }
}

pub(super) fn to_worker_request(request: &HttpRequest) -> worker::Result<Request> {
    let headers = Headers::new();
    for (name, value) in &request.headers {
        headers.set(name, value)?;
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(JsValue::from_str(&request.body)));
    Request::new_with_init(&request.url, &init)
}

/// Calls `env.AI.run(model, inputs)` with inputs parsed from JSON text, so
/// the binding sees plain objects (workers-rs issue 1050), and reports the
/// result as a 200 response carrying its JSON.
pub(super) async fn run_ai(env: &Env, call: AiCall, timeout_ms: u64) -> Event {
    let started = super::clock::now_ms();
    let invocation = async {
        let ai = Reflect::get(env, &JsValue::from_str(AI_BINDING))?;
        if ai.is_undefined() {
            return Err(JsValue::from_str("the AI binding is not configured"));
        }
        let run: Function = Reflect::get(&ai, &JsValue::from_str("run"))?.dyn_into()?;
        let inputs = js_sys::JSON::parse(&call.inputs_as_json_string())?;
        let promise: Promise = run
            .call2(&ai, &JsValue::from_str(&call.model), &inputs)?
            .dyn_into()?;
        let result = JsFuture::from(promise).await?;
        js_sys::JSON::stringify(&result).map(String::from)
    };
    let timeout = Delay::from(Duration::from_millis(timeout_ms));
    let raced = select(Box::pin(invocation), Box::pin(timeout)).await;
    match raced {
        Either::Left((Ok(body), _)) => {
            let elapsed_ms = (super::clock::now_ms() - started).max(0.0) as u64;
            Event::Response {
                status: 200,
                headers: Vec::new(),
                body,
                elapsed_ms,
            }
        }
        Either::Left((Err(e), _)) => {
            Event::NetworkError(e.as_string().unwrap_or_else(|| format!("{e:?}")))
        }
        Either::Right(_) => Event::TimedOut,
    }
}
