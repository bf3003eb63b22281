//! Performs what a submission (genui_core's `Submission`) asks for: the
//! KV read of its spec. Every front door's submission runs through
//! [`run`]; the machine decides how the body is read and what answers it.

use genui_core::{Submission, Submitted};
use worker::Env;

/// Reads the spec the submission needs, if any, and hands it the result.
pub(super) async fn run(submission: Submission, env: &Env, request_id: &str) -> Submitted {
    let cached = match submission.needs() {
        Some(key) => super::kv::SpecCache::open(env).get(&key).await,
        None => None,
    };
    submission.answer(cached.as_deref(), request_id)
}
