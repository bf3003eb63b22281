//! The operator's component catalogs: the files of `catalogs/`, embedded
//! at build time (build.rs), validated and configured once per isolate, on
//! its first request (not in the module's start event: validating compiles
//! schemas, which seeds hash maps from the random source, and Workers
//! forbid random values in the global scope). A malformed catalog is
//! refused with one `catalog_refused` log line; its requests then get a 400
//! naming the configured catalogs, and requests without `catalog` are
//! untouched (never a 5xx per request).

use std::cell::Cell;

/// `(file, text)` of every embedded catalog.
const CATALOGS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

thread_local! {
    static CONFIGURED: Cell<bool> = const { Cell::new(false) };
}

/// Validates and configures the embedded catalogs, once per isolate.
pub(super) fn configure_once() {
    if CONFIGURED.with(|c| c.replace(true)) {
        return;
    }
    for why in genui_core::Catalog::configure(CATALOGS) {
        worker::console_error!(
            "{}",
            serde_json::json!({"event": "catalog_refused", "reason": why})
        );
    }
}
