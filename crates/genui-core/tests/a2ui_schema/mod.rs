//! The vendored A2UI v0.9 schemas (`schemas/vendor/a2ui-v0.9/`), loaded
//! offline as upstream's own validator does: the basic catalog is also
//! registered under `https://a2ui.org/specification/v0_9/catalog.json`, the
//! URI that the relative `catalog.json` references of `server_to_client.json`
//! and `common_types.json` resolve to (the catalog is pluggable; the file
//! stays verbatim). `client_to_server.json` has no `$id` or `$schema`, so it
//! is registered under its published URI and read as draft 2020-12.

use jsonschema::{Draft, Registry, Resource, Validator};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::OnceLock;

const BASE: &str = "https://a2ui.org/specification/v0_9/";

fn vendored(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/vendor/a2ui-v0.9")
        .join(name);
    serde_json::from_str(
        &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

fn registry() -> &'static Registry<'static> {
    static REGISTRY: OnceLock<Registry<'static>> = OnceLock::new();
    REGISTRY.get_or_init(|| registry_with(None))
}

/// The vendored schemas with `catalog.json` bound to `custom` (an
/// operator's A2UI catalog), or to the basic catalog.
fn registry_with(custom: Option<&Value>) -> Registry<'static> {
    {
        let catalog = vendored("catalogs/basic/catalog.json");
        let mut aliased = custom.cloned().unwrap_or_else(|| catalog.clone());
        aliased["$id"] = json!(format!("{BASE}catalog.json"));
        let mut builder = Registry::new()
            .add(
                format!("{BASE}catalogs/basic/catalog.json"),
                Resource::from_contents(catalog),
            )
            .unwrap()
            .add(
                format!("{BASE}catalog.json"),
                Resource::from_contents(aliased),
            )
            .unwrap()
            .add(
                format!("{BASE}client_to_server.json"),
                Draft::Draft202012.create_resource(vendored("client_to_server.json")),
            )
            .unwrap();
        for name in [
            "common_types.json",
            "server_to_client.json",
            "server_to_client_list.json",
            "server_to_client_list_wrapper.json",
            "client_data_model.json",
        ] {
            builder = builder
                .add(
                    format!("{BASE}{name}"),
                    Resource::from_contents(vendored(name)),
                )
                .unwrap();
        }
        builder.prepare().unwrap()
    }
}

/// Checks an answer against `server_to_client_list_wrapper.json` with
/// `catalog.json` bound to an operator's custom A2UI catalog.
#[allow(dead_code)] // shared test module: only catalog.rs has a custom catalog
pub fn check_wrapper_with(answer: &Value, custom: &Value) -> Result<(), String> {
    let registry = registry_with(Some(custom));
    let validator = build_in(&registry, "server_to_client_list_wrapper.json");
    if validator.is_valid(answer) {
        return Ok(());
    }
    let component = build_in(&registry, "catalog.json#/$defs/anyComponent");
    let mut found: Vec<String> = answer["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|m| {
            m["updateComponents"]["components"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|c| {
            let e = errors(&component, &c);
            (!e.is_empty()).then(|| format!("{c}: {}", e.join("; ")))
        })
        .collect();
    if found.is_empty() {
        found = errors(&validator, answer);
    }
    Err(found.join("\n"))
}

fn build(reference: &str) -> Validator {
    build_in(registry(), reference)
}

fn build_in(registry: &Registry<'static>, reference: &str) -> Validator {
    jsonschema::options()
        .with_registry(registry)
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .offline()
        .build(&json!({"$ref": format!("{BASE}{reference}")}))
        .unwrap_or_else(|e| panic!("{reference}: {e}"))
}

fn errors(validator: &Validator, value: &Value) -> Vec<String> {
    validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// Checks an answer against `server_to_client_list_wrapper.json`; on
/// failure also names each component the catalog rejects (the wrapper's
/// `oneOf` alone reports only noise).
pub fn check_wrapper(answer: &Value) -> Result<(), String> {
    static WRAPPER: OnceLock<Validator> = OnceLock::new();
    static COMPONENT: OnceLock<Validator> = OnceLock::new();
    let wrapper = WRAPPER.get_or_init(|| build("server_to_client_list_wrapper.json"));
    if wrapper.is_valid(answer) {
        return Ok(());
    }
    let component = COMPONENT.get_or_init(|| build("catalog.json#/$defs/anyComponent"));
    let mut found = Vec::new();
    for message in answer["messages"].as_array().into_iter().flatten() {
        for c in message["updateComponents"]["components"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let errs = errors(component, c);
            if !errs.is_empty() {
                found.push(format!("{c}: {}", errs.join("; ")));
            }
        }
    }
    if found.is_empty() {
        found = errors(wrapper, answer);
    }
    Err(found.join("\n"))
}

/// Checks a client message against `client_to_server.json`.
#[allow(dead_code)] // shared test module: only a2ui_submit.rs checks client messages
pub fn check_client_message(message: &Value) -> Result<(), String> {
    static CLIENT: OnceLock<Validator> = OnceLock::new();
    let client = CLIENT.get_or_init(|| build("client_to_server.json"));
    let errs = errors(client, message);
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("; "))
    }
}
