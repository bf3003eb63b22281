//! The operator's component catalogs: the files of `catalogs/`, embedded
//! at build time (build.rs). The isolate's limits (see `settings::limits`,
//! built on its first request) only read each catalog's name; a text
//! without one, or with a name another took, is refused there with one
//! `catalog_refused` log line. The core proves a catalog when a request
//! first names it, and a malformed one answers its requests with a 400
//! (never a 5xx), and the front door logs that refusal, once per isolate.
//! Requests without `catalog` are untouched.

use genui_core::Limits;

/// `(file, text)` of every embedded catalog.
const CATALOGS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

/// `limits` with the embedded catalogs, each refused one logged.
pub(super) fn with_catalogs(limits: Limits) -> Limits {
    let (limits, refused) = limits.with_catalogs(CATALOGS);
    log(refused);
    limits
}

/// One `catalog_refused` line per reason.
fn log(refused: Vec<String>) {
    for why in refused {
        worker::console_error!(
            "{}",
            serde_json::json!({"event": "catalog_refused", "reason": why})
        );
    }
}
