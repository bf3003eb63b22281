//! The operator's component catalogs: the files of `catalogs/`, embedded
//! at build time (build.rs), configured once per isolate when the module
//! starts. A malformed catalog is refused with one `catalog_refused` log
//! line; its requests then get a 400 naming the configured catalogs, and
//! requests without `catalog` are untouched (never a 5xx per request).

/// `(file, text)` of every embedded catalog.
const CATALOGS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

/// Validates and configures the embedded catalogs for this isolate.
pub(super) fn configure() {
    for why in genui_core::Catalog::configure(CATALOGS) {
        worker::console_error!("{}", serde_json::json!({"event": "catalog_refused", "reason": why}));
    }
}
