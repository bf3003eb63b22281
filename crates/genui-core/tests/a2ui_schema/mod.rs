//! The vendored A2UI schemas, one set per revision (`schemas/vendor/`:
//! `a2ui-v0.9/`, `a2ui-v0.9.1/`, `a2ui-v1.0/`), loaded offline as
//! upstream's own validator does: the basic catalog is registered under
//! `<base>catalog.json`, the URI that the relative `catalog.json`
//! references of the message schemas and `common_types.json` resolve to
//! (the catalog is pluggable; the files stay verbatim; from there v1.0's
//! catalog finds its relative `common_types.json`). Every other file is
//! registered under its own `$id` (v0.9.1's still name `v0_9`, v1.0's list
//! files live under `v1_0/json/`), or under `<base><file>` when it has none
//! (v0.9's `client_to_server.json`, read as draft 2020-12).

use jsonschema::{Draft, Registry, Resource, Validator};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::OnceLock;

/// One revision's vendored schemas.
pub struct Set {
    /// The folder under `schemas/vendor/`.
    dir: &'static str,
    /// The URI the relative `catalog.json` references resolve against.
    base: &'static str,
    /// The message files, besides the basic catalog.
    files: &'static [&'static str],
    /// The list wrapper an answer is checked against.
    wrapper: &'static str,
    /// The schema of a renderer's (client's) message.
    client: &'static str,
    /// Whether the basic catalog is also registered under its own `$id`
    /// (v0.9's operator catalogs refer to it so; v1.0's refers to
    /// `common_types.json` relatively, which resolves only from the alias).
    catalog_by_id: bool,
    /// The schema of one component (for naming the ones a failing answer
    /// breaks).
    component: &'static str,
    /// Where a message keeps its components (`updateComponents` in v0.9,
    /// `createSurface` in v1.0's one-message answers).
    components_in: &'static str,
}

/// A2UI v0.9.
pub const V0_9: Set = Set {
    dir: "a2ui-v0.9",
    base: "https://a2ui.org/specification/v0_9/",
    files: &[
        "common_types.json",
        "server_to_client.json",
        "server_to_client_list.json",
        "server_to_client_list_wrapper.json",
        "client_data_model.json",
        "client_to_server.json",
    ],
    wrapper: "server_to_client_list_wrapper.json",
    client: "client_to_server.json",
    catalog_by_id: true,
    component: "catalog.json#/$defs/anyComponent",
    components_in: "updateComponents",
};

/// A2UI v0.9.1 (its `$id`s still name `v0_9`).
#[allow(dead_code)] // shared test module: not every test file checks v0.9.1
pub const V0_9_1: Set = Set {
    dir: "a2ui-v0.9.1",
    ..V0_9
};

/// The A2UI v1.0 candidate.
#[allow(dead_code)] // shared test module: not every test file checks v1.0
pub const V1_0: Set = Set {
    dir: "a2ui-v1.0",
    base: "https://a2ui.org/specification/v1_0/",
    files: &[
        "common_types.json",
        "catalog_definition.json",
        "agent_to_renderer.json",
        "agent_to_renderer_list.json",
        "agent_to_renderer_list_wrapper.json",
        "renderer_to_agent.json",
        "renderer_data_model.json",
    ],
    wrapper: "json/agent_to_renderer_list_wrapper.json",
    client: "renderer_to_agent.json",
    catalog_by_id: false,
    component: "agent_to_renderer.json#/$defs/Component",
    components_in: "createSurface",
};

/// Every set, for the validators built once per set.
const SETS: [&Set; 3] = [&V0_9, &V0_9_1, &V1_0];

fn vendored(dir: &str, name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schemas/vendor")
        .join(dir)
        .join(name);
    serde_json::from_str(
        &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

impl Set {
    /// The set's schemas with `catalog.json` bound to `custom` (an
    /// operator's A2UI catalog), or to the basic catalog.
    fn registry_with(&self, custom: Option<&Value>) -> Registry<'static> {
        let catalog = vendored(self.dir, "catalogs/basic/catalog.json");
        let mut aliased = custom.cloned().unwrap_or_else(|| catalog.clone());
        aliased["$id"] = json!(format!("{}catalog.json", self.base));
        let mut builder = Registry::new()
            .add(
                format!("{}catalog.json", self.base),
                Resource::from_contents(aliased),
            )
            .unwrap();
        if self.catalog_by_id {
            builder = builder
                .add(
                    format!("{}catalogs/basic/catalog.json", self.base),
                    Resource::from_contents(catalog),
                )
                .unwrap();
        }
        for name in self.files {
            let schema = vendored(self.dir, name);
            let uri = match schema.get("$id").and_then(Value::as_str) {
                Some(id) => id.to_owned(),
                None => format!("{}{name}", self.base),
            };
            builder = builder
                .add(uri, Draft::Draft202012.create_resource(schema))
                .unwrap();
        }
        builder.prepare().unwrap()
    }

    fn build_in(&self, registry: &Registry<'static>, reference: &str) -> Validator {
        jsonschema::options()
            .with_registry(registry)
            .with_draft(Draft::Draft202012)
            .should_validate_formats(true)
            .offline()
            .build(&json!({"$ref": format!("{}{reference}", self.base)}))
            .unwrap_or_else(|e| panic!("{} {reference}: {e}", self.dir))
    }

    /// Checks an answer (a list wrapper) against the set's wrapper schema,
    /// `catalog.json` bound to `custom` or the basic catalog; on failure
    /// also names each component the catalog rejects (the wrapper's
    /// `oneOf` alone reports only noise).
    fn check_answer(
        &self,
        registry: &Registry<'static>,
        wrapper: &Validator,
        answer: &Value,
    ) -> Result<(), String> {
        if wrapper.is_valid(answer) {
            return Ok(());
        }
        let component = self.build_in(registry, self.component);
        let mut found = Vec::new();
        for message in answer["messages"].as_array().into_iter().flatten() {
            let components = message[self.components_in]["components"].as_array();
            for c in components.into_iter().flatten() {
                let errs = errors(&component, c);
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

    /// Checks an answer (a list wrapper) against this revision's schemas
    /// and basic catalog.
    pub fn check(&self, answer: &Value) -> Result<(), String> {
        static WRAPPERS: OnceLock<[Validator; 3]> = OnceLock::new();
        let all =
            WRAPPERS.get_or_init(|| SETS.map(|set| set.build_in(set.registry(), set.wrapper)));
        self.check_answer(self.registry(), &all[self.index()], answer)
    }

    /// Checks an answer with `catalog.json` bound to an operator's catalog.
    #[allow(dead_code)] // shared test module: only catalog.rs has a custom catalog
    pub fn check_with(&self, answer: &Value, custom: &Value) -> Result<(), String> {
        let registry = self.registry_with(Some(custom));
        let wrapper = self.build_in(&registry, self.wrapper);
        self.check_answer(&registry, &wrapper, answer)
    }

    /// Checks a renderer's (client's) message.
    #[allow(dead_code)] // shared test module: not every test file checks client messages
    pub fn check_client(&self, message: &Value) -> Result<(), String> {
        let client = self.build_in(self.registry(), self.client);
        let errs = errors(&client, message);
        if errs.is_empty() {
            Ok(())
        } else {
            Err(errs.join("; "))
        }
    }

    /// The set's registry with the basic catalog, built once per set.
    fn registry(&self) -> &'static Registry<'static> {
        static REGISTRIES: OnceLock<[Registry<'static>; 3]> = OnceLock::new();
        let all = REGISTRIES.get_or_init(|| SETS.map(|set| set.registry_with(None)));
        &all[self.index()]
    }

    /// This set's place in [`SETS`].
    fn index(&self) -> usize {
        SETS.iter().position(|set| set.dir == self.dir).unwrap()
    }
}

fn errors(validator: &Validator, value: &Value) -> Vec<String> {
    validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// Checks an answer against v0.9's `server_to_client_list_wrapper.json`.
pub fn check_wrapper(answer: &Value) -> Result<(), String> {
    V0_9.check(answer)
}

/// Checks an answer against v0.9's wrapper with `catalog.json` bound to an
/// operator's custom A2UI catalog.
#[allow(dead_code)] // shared test module: only catalog.rs has a custom catalog
pub fn check_wrapper_with(answer: &Value, custom: &Value) -> Result<(), String> {
    V0_9.check_with(answer, custom)
}

/// Checks a client message against v0.9's `client_to_server.json`.
#[allow(dead_code)] // shared test module: only some files check client messages
pub fn check_client_message(message: &Value) -> Result<(), String> {
    V0_9.check_client(message)
}
