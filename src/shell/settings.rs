//! The worker's vars and secrets, each read from `env` once per isolate.
//!
//! A deployment's vars and secrets are fixed for the life of its isolates
//! (changing one deploys a new version, which starts new isolates; `wrangler
//! dev` restarts the worker), so a name read once is remembered. A request
//! used to make about 30 calls into JS for its configuration (each secret
//! looked for, then the var, with an error built for every unset one), work
//! Cloudflare bills on every request, hits included.

use genui_core::Limits;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use worker::Env;

thread_local! {
    static SEEN: RefCell<HashMap<&'static str, Option<String>>> = RefCell::new(HashMap::new());
    /// The isolate's one configuration value, built on its first request.
    static LIMITS: OnceCell<Limits> = const { OnceCell::new() };
}

/// The limits and configuration every core entry point takes, built once
/// per isolate: the default limits with the embedded catalogs, the spec
/// memory from `SPEC_MEMORY_BYTES` (0 = every hit reads KV), and the
/// contract checks on when `CHECK_CONTRACTS` is `true`.
pub(super) fn limits(env: &Env) -> Limits {
    LIMITS.with(|cell| cell.get_or_init(|| configured(env)).clone())
}

fn configured(env: &Env) -> Limits {
    super::catalogs::with_catalogs(Limits::from_settings(|name| setting(env, name)))
}

/// A secret or var (secrets win) as it is set; `None` when unset.
pub(super) fn raw(env: &Env, name: &'static str) -> Option<String> {
    if let Some(seen) = SEEN.with(|seen| seen.borrow().get(name).cloned()) {
        return seen;
    }
    let value = env
        .secret(name)
        .map(|s| s.to_string())
        .or_else(|_| env.var(name).map(|v| v.to_string()))
        .ok();
    SEEN.with(|seen| seen.borrow_mut().insert(name, value.clone()));
    value
}

/// [`raw`], trimmed; `None` when unset or blank.
pub(super) fn setting(env: &Env, name: &'static str) -> Option<String> {
    raw(env, name)
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}
