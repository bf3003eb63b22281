//! The operator's component catalogs: the files of `catalogs/`, embedded
//! at build time (build.rs), validated into the isolate's limits once, on
//! its first request (see `settings::limits`; not in the module's start
//! event: validating compiles schemas, which seeds hash maps from the
//! random source, and Workers forbid random values in the global scope). A
//! malformed catalog is refused with one `catalog_refused` log line; its
//! requests then get a 400 naming the configured catalogs, and requests
//! without `catalog` are untouched (never a 5xx per request).

use genui_core::Limits;

/// `(file, text)` of every embedded catalog.
const CATALOGS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

/// `limits` with the embedded catalogs, each refused one logged.
pub(super) fn with_catalogs(limits: Limits) -> Limits {
    let (limits, refused) = limits.with_catalogs(CATALOGS);
    for why in refused {
        worker::console_error!(
            "{}",
            serde_json::json!({"event": "catalog_refused", "reason": why})
        );
    }
    limits
}
