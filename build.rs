//! Embeds the operator's component catalogs (`catalogs/*.json`, except the
//! frontends' own `*.a2ui-catalog.json`) into the worker: a catalog is an
//! asset versioned and deployed with the code (README "Component
//! catalogs"). The shell validates them once per isolate
//! (`src/shell/catalogs.rs`, on its first request); `cargo test` validates them against
//! `schemas/catalog.schema.json` before a deploy (crates/genui-core/tests/catalog.rs).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=catalogs");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        name.ends_with(".json") && !name.ends_with(".a2ui-catalog.json")
    });
    files.sort();
    let mut out = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let _ = writeln!(out, "    ({:?}, include_str!({:?})),", format!("catalogs/{name}"), path.display().to_string());
    }
    out.push(']');
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalogs.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
