//! Embeds the operator's component catalogs (`catalogs/*.json`, except the
//! frontends' own `*.a2ui-catalog.json`) into the worker: a catalog is an
//! asset versioned and deployed with the code (docs/operator.md "Component
//! catalogs"). The build refuses a catalog that is not JSON, has no `name`
//! or no `components`, or repeats another's name; `cargo test` validates
//! every catalog against `schemas/catalog.schema.json` and the core's loader
//! (crates/genui-core/tests/catalog.rs), and at run time the core validates
//! each one again when a request first names it, once per isolate
//! (`src/shell/catalogs.rs`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=catalogs");
    // The package's folder as cargo names it when the script runs (not
    // when it was compiled: a build script binary reused from another
    // checkout would read that checkout's catalogs, or none).
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&root).join("catalogs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.retain(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        name.ends_with(".json") && !name.ends_with(".a2ui-catalog.json")
    });
    files.sort();
    let mut names = Vec::new();
    let mut out = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let file = format!(
            "catalogs/{}",
            path.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
        );
        let name = checked_name(path, &file);
        if names.contains(&name) {
            panic!("{file}: the catalog name `{name}` is taken by another file of catalogs/");
        }
        names.push(name);
        let _ = writeln!(
            out,
            "    ({file:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push(']');
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalogs.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

/// The catalog's `name`, or a build failure saying what is wrong.
fn checked_name(path: &Path, file: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let value: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file} is not JSON: {e}"));
    if value["components"].as_array().is_none_or(|c| c.is_empty()) {
        panic!(
            "{file}: a catalog needs a non-empty `components` array (schemas/catalog.schema.json)"
        );
    }
    match value["name"].as_str() {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => panic!("{file}: a catalog needs a `name` (schemas/catalog.schema.json)"),
    }
}
