//! The fetch handler: route, read, look up, answer, respond, store.
//!
//! The routes are genui-core's route table (`crates/genui-core/src/edge/routes.rs`):
//! [`Route::of`] names the row's [`Handler`], and [`serve`] runs it.

mod agent;
mod catalogs;
mod clock;
mod deliver;
mod form_object;
mod forms;
mod kv;
mod mcp;
mod model;
mod platform;
mod proxy;
mod rate_limit;
mod replay_guard;
mod respond;
mod settings;

use genui_core::{HttpResponse, Limits};
use genui_model::{serve, Answer, Door, Platform, ShellFlow};
use platform::Worker;
use respond::{into_response, into_sse_response, RequestInfo};
use std::rc::Rc;
use worker::{event, Context, Env, Request, Response, Result};

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, ctx: Context) -> Result<Response> {
    let info = RequestInfo::new(&req);
    let worker = Worker::new(req, &env, Rc::new(ctx), &info.id);
    let answer = serve(worker.clone(), |flow| Box::pin(shell_flow(flow, &worker))).await;
    match answer.into_parts() {
        (head, Some(frames)) => into_sse_response(head, frames, &info.id),
        (response, None) => into_response(response, &info),
    }
}

/// Runs a route whose flow is still the shell's.
async fn shell_flow(flow: ShellFlow, worker: &Worker) -> Answer {
    let door = Door::new(worker.clone());
    let env = worker.env();
    let request_id = worker.request_id();
    match flow {
        ShellFlow::Agent => agent::run(&door, worker, env, &request_id).await,
        ShellFlow::Mcp => Answer::Whole(mcp::handle(&door, worker, env, &request_id).await),
        ShellFlow::Forms => Answer::Whole(forms::create(&door, worker, env).await),
        ShellFlow::HostedForm(token) => {
            Answer::Whole(forms::hosted(&door, worker, env, &token).await)
        }
    }
}

/// The body within the limits; a refusal as the `dgui_error` answer.
async fn read_body(
    door: &Door<Worker>,
    limits: &Limits,
) -> std::result::Result<Vec<u8>, HttpResponse> {
    door.body(limits).await.map_err(|e| HttpResponse::error(&e))
}
