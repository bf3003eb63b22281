//! The worker shell: the fetch handler hands each request to genui-model's
//! `serve` over [`Worker`] (the `Platform` that performs every effect over
//! workers-rs) and turns its answer into the response. Every flow and
//! decision is in the crates; this folder only performs and converts.

mod catalogs;
mod clock;
mod deliver;
mod form_object;
mod kv;
mod model;
mod platform;
mod rate_limit;
mod replay_guard;
mod respond;
mod settings;
mod warm;

use genui_model::{serve, warm_up};
use platform::Worker;
use respond::{into_response, into_sse_response, RequestInfo};
use std::rc::Rc;
use worker::{console_error, event, Context, Env, Request, Response, Result};

/// The module's start: the panic hook, then the first-request work moved
/// into start-up (`genui_model::warm_up`: compiling the code a generate
/// runs, proving a schema, and building the isolate's one-time tables;
/// then one generate through the whole fetch path, [`warm`]).
#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
    for line in warm_up() {
        console_error!("{line}");
    }
    warm::warm_up_fetch_path();
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, ctx: Context) -> Result<Response> {
    let info = RequestInfo::new(&req);
    let worker = Worker::new(req, &env, Rc::new(ctx), &info.id);
    let answer = serve(worker).await;
    match answer.into_parts() {
        (head, Some(frames)) => into_sse_response(head, frames),
        (response, None) => into_response(response, &info),
    }
}
