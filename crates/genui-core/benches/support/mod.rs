//! Shared by every bench: the three `output` schemas, the requests built
//! from them, and the criterion settings.
//!
//! The schemas are built in code, deterministically, from one catalogue of
//! realistic leaf fields ([`leaf`]): strings with formats and patterns,
//! enums, bounded numbers, booleans, arrays of enums, arrays of objects and
//! nested objects. Each builder returns the schema together with a value
//! that is valid against it, so submissions need no hand-written fixtures.
//!
//! | case     | leaf fields | shape                                                    |
//! |----------|-------------|----------------------------------------------------------|
//! | `small`  | 5           | flat                                                     |
//! | `medium` | 50          | nested objects (2 levels), two arrays of objects         |
//! | `large`  | 500         | 10 sections, 3 levels deep, `$defs` each used 10-20 times |
//!
//! [`Case::prepare`] runs the real pipeline once and asserts every stage
//! succeeds (schema proof, generation, checker, miss, hit), so a bench can
//! never time an error path by accident.

// Each bench binary compiles this module and uses only part of it.
#![allow(dead_code)]

use criterion::Criterion;
use genui_core::{GenerateJob, GeneratorId, Limits, Outcome, Plan, SchemaDoc, UiSpec};
use jsonschema::Draft;
use serde_json::{json, Map, Value};
use std::time::Duration;

/// Criterion settings for every bench: short, so the suite takes minutes.
/// The numbers are medians; on a busy machine rerun with longer times.
pub fn criterion() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
        .noise_threshold(0.05)
        // No plots, no HTML: scripts/bench-core.sh reads estimates.json.
        .without_plots()
}

/// One schema size with everything the benches need from it.
pub struct Case {
    /// `small`, `medium` or `large`: the last part of every bench id.
    pub name: &'static str,
    /// The request's `description`.
    pub description: &'static str,
    /// The `output` schema.
    pub output: Value,
    /// Data valid against `output`; also the request's `data` (so every
    /// field is pre-filled: the worst case for initial-data checks).
    pub valid: Value,
    /// `valid` with every 7th leaf of the wrong type and one required
    /// top-level field missing.
    pub invalid: Value,
}

/// The three cases, smallest first.
pub fn cases() -> Vec<Case> {
    vec![small(), medium(), large()]
}

/// The limits the worker uses.
pub fn limits() -> Limits {
    Limits::default()
}

/// The deterministic generator's identity, as in the cache key.
pub fn generator() -> GeneratorId {
    GeneratorId::deterministic()
}

impl Case {
    /// An AG-UI `generateUserInterface` body (seed 000 shape), as bytes.
    pub fn generate_body(&self) -> Vec<u8> {
        self.generate_body_with(self.description)
    }

    /// The same body with another description (so another cache key).
    pub fn generate_body_with(&self, description: &str) -> Vec<u8> {
        json!({
            "tool": "generateUserInterface",
            "toolCallId": "call_bench",
            "arguments": {"description": description, "data": self.valid, "output": self.output},
        })
        .to_string()
        .into_bytes()
    }

    /// A `dgui_response` submission by `specHash`.
    pub fn submit_body(&self, spec_hash: &str, data: &Value) -> Vec<u8> {
        json!({"type": "dgui_response", "specHash": spec_hash, "toolCallId": "call_bench", "data": data})
            .to_string()
            .into_bytes()
    }

    /// A submission that carries the schema inline instead of a `specHash`.
    pub fn submit_inline_body(&self) -> Vec<u8> {
        json!({"type": "dgui_response", "output": self.output, "toolCallId": "call_bench", "data": self.valid})
            .to_string()
            .into_bytes()
    }

    /// Runs the whole pipeline once, asserting that every stage succeeds,
    /// and returns what the stage benches start from.
    pub fn prepare(&self) -> Prepared {
        let limits = limits();
        assert_eq!(
            leaf_count(&self.output, &self.output),
            self.expected_leaves(),
            "{}: leaf count",
            self.name
        );

        let (draft, validator) = SchemaDoc::check_output(&self.output, "/output", &limits)
            .unwrap_or_else(|e| panic!("{}: schema proof failed: {e:?}", self.name));
        assert!(
            validator.is_valid(&self.valid),
            "{}: the valid sample is invalid: {:?}",
            self.name,
            validator
                .iter_errors(&self.valid)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect::<Vec<_>>()
        );
        assert!(
            !validator.is_valid(&self.invalid),
            "{}: the invalid sample is valid",
            self.name
        );

        let plan = genui_core::Plan::generate(&self.output, self.description, false, &limits)
            .unwrap_or_else(|e| panic!("{}: generation failed: {e:?}", self.name));
        let issues = Plan::check(&plan, &self.output, &limits);
        assert!(
            issues.is_empty(),
            "{}: the checker rejects the plan: {issues:?}",
            self.name
        );

        let body = self.generate_body();
        let miss = run_generate(&body, None);
        assert_ok(&miss, "miss", self.name);
        let cached = miss
            .cache_put
            .as_ref()
            .expect("a miss asks for a cache write")
            .value
            .clone();
        let hit = run_generate(&body, Some(&cached));
        assert_ok(&hit, "hit", self.name);
        assert!(
            hit.response
                .headers
                .iter()
                .any(|(k, v)| k == "x-genui-cache" && v == "hit"),
            "{}: not a hit",
            self.name
        );

        let spec_hash = GenerateJob::prepare(&body, None, &limits)
            .expect("prepares")
            .spec_hash()
            .to_owned();
        let spec = UiSpec::from_cached(&cached, &spec_hash).expect("the cached spec reads back");
        assert_eq!(
            spec.plan, plan,
            "{}: the service generated another plan",
            self.name
        );
        let meta: Value = serde_json::from_str::<Value>(&hit.response.body)
            .expect("the hit is JSON")["meta"]
            .clone();
        assert!(
            meta.get("warnings").is_none(),
            "{}: the sample data was trimmed: {meta}",
            self.name
        );
        let initial = spec
            .render_input(&self.valid, Some(&validator), Map::new())
            .initial_data;
        Prepared {
            body,
            cached,
            spec_hash,
            spec,
            plan,
            draft,
            validator,
            initial_data: initial,
        }
    }

    fn expected_leaves(&self) -> usize {
        match self.name {
            "small" => 5,
            "medium" => 50,
            _ => 500,
        }
    }
}

/// A case after one real run: the request body, the cached spec text and
/// its parts.
pub struct Prepared {
    /// The generate request body.
    pub body: Vec<u8>,
    /// The spec text a miss writes to KV.
    pub cached: String,
    /// Its hash (the key without prefix).
    pub spec_hash: String,
    /// The cached spec, parsed.
    pub spec: UiSpec,
    /// The deterministic plan.
    pub plan: Plan,
    /// The draft the schema was proven under.
    pub draft: Draft,
    /// The compiled `output` validator.
    pub validator: jsonschema::Validator,
    /// `data` merged over the schema's defaults, as the renderers get it.
    pub initial_data: Value,
}

impl Prepared {
    /// The provenance a format compiler is handed on a response
    /// (`UiSpec::render_input`, whose initial data is [`Self::initial_data`]).
    pub fn meta(&self) -> Map<String, Value> {
        let mut meta = Map::new();
        meta.insert("specHash".into(), self.spec_hash.clone().into());
        meta.insert("cache".into(), "hit".into());
        meta.insert(
            "generator".into(),
            self.spec.generator.generator.clone().into(),
        );
        meta.insert(
            "generatorVersion".into(),
            self.spec.generator.generator_version.clone().into(),
        );
        meta
    }
}

/// The core's whole generate request, as the worker shell drives it:
/// limits, parse and hash, then answer with what KV returned.
pub fn run_generate(body: &[u8], cached: Option<&str>) -> Outcome {
    run_generate_under(body, cached, &limits())
}

/// [`run_generate`] under the given limits (e.g. no memory of specs).
#[allow(dead_code)] // not every bench that includes this module uses it
pub fn run_generate_under(body: &[u8], cached: Option<&str>, limits: &Limits) -> Outcome {
    match GenerateJob::prepare(body, None, limits) {
        Ok(job) => job.answer(cached),
        Err(e) => Outcome::failed(&e),
    }
}

fn assert_ok(outcome: &Outcome, what: &str, case: &str) {
    assert_eq!(
        outcome.response.status, 200,
        "{case}: the {what} failed: {}",
        outcome.response.body
    );
}

/// Leaf fields of a schema, following `$ref` (into `$defs`) and array items.
pub fn leaf_count(schema: &Value, root: &Value) -> usize {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let target = root
            .pointer(reference.trim_start_matches('#'))
            .expect("bench refs resolve");
        return leaf_count(target, root);
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        return properties.values().map(|p| leaf_count(p, root)).sum();
    }
    match schema.get("items") {
        Some(items) if items.get("properties").is_some() || items.get("$ref").is_some() => {
            leaf_count(items, root)
        }
        _ => 1,
    }
}

// ---------------------------------------------------------------- catalogue

/// Number of distinct leaf templates; an object takes each at most once, so
/// property names stay unique within it.
const LEAVES: usize = 24;

/// Leaf template `k`: property name, schema, and a valid value.
fn leaf(k: usize) -> (&'static str, Value, Value) {
    match k % LEAVES {
        0 => (
            "firstName",
            json!({"type": "string", "title": "First name", "minLength": 1, "maxLength": 80}),
            json!("Ada"),
        ),
        1 => (
            "lastName",
            json!({"type": "string", "title": "Last name", "minLength": 1, "maxLength": 80}),
            json!("Lovelace"),
        ),
        2 => (
            "email",
            json!({"type": "string", "format": "email", "examples": ["ada@example.com"]}),
            json!("ada@example.com"),
        ),
        3 => (
            "phone",
            json!({"type": "string", "pattern": "^\\+?[0-9 ()-]{7,20}$"}),
            json!("+44 20 7946 0958"),
        ),
        4 => (
            "birthDate",
            json!({"type": "string", "format": "date", "title": "Date of birth"}),
            json!("1815-12-10"),
        ),
        5 => (
            "website",
            json!({"type": "string", "format": "uri"}),
            json!("https://example.com/ada"),
        ),
        6 => (
            "country",
            json!({"type": "string", "enum": ["GB", "US", "DE", "AT", "FR", "NL"]}),
            json!("GB"),
        ),
        7 => (
            "quantity",
            json!({"type": "integer", "minimum": 1, "maximum": 999, "default": 1}),
            json!(3),
        ),
        8 => (
            "unitPrice",
            json!({"type": "number", "minimum": 0, "exclusiveMaximum": 100000, "multipleOf": 0.5}),
            json!(12.5),
        ),
        9 => (
            "newsletter",
            json!({"type": "boolean", "title": "Subscribe to the newsletter", "default": false}),
            json!(true),
        ),
        10 => (
            "notes",
            json!({"type": "string", "maxLength": 2000, "description": "Anything we should know."}),
            json!("Leave parcels at the door."),
        ),
        11 => (
            "priority",
            json!({"type": "string", "enum": ["low", "medium", "high", "urgent"], "default": "medium"}),
            json!("high"),
        ),
        12 => (
            "startTime",
            json!({"type": "string", "format": "time"}),
            json!("09:30:00"),
        ),
        13 => (
            "rating",
            json!({"type": "integer", "minimum": 1, "maximum": 5}),
            json!(4),
        ),
        14 => (
            "interests",
            json!({"type": "array", "uniqueItems": true,
                "items": {"type": "string", "enum": ["music", "travel", "sport", "science", "art"]}}),
            json!(["music", "science"]),
        ),
        15 => (
            "street",
            json!({"type": "string", "title": "Street address", "minLength": 1}),
            json!("12 St James's Square"),
        ),
        16 => (
            "postalCode",
            json!({"type": "string", "pattern": "^[A-Z0-9 -]{3,10}$"}),
            json!("SW1Y 4JH"),
        ),
        17 => (
            "city",
            json!({"type": "string", "minLength": 1}),
            json!("London"),
        ),
        18 => (
            "appointmentAt",
            json!({"type": "string", "format": "date-time"}),
            json!("2025-03-01T09:30:00Z"),
        ),
        19 => (
            "discountPercent",
            json!({"type": "number", "minimum": 0, "maximum": 100}),
            json!(15),
        ),
        20 => ("isCompany", json!({"type": "boolean"}), json!(false)),
        21 => (
            "contactMethod",
            json!({"type": "string", "enum": ["email", "phone", "post"], "default": "email"}),
            json!("phone"),
        ),
        22 => (
            "companyName",
            json!({"type": "string", "examples": ["Acme Ltd"]}),
            json!("Analytical Engines Ltd"),
        ),
        _ => (
            "yearsExperience",
            json!({"type": "integer", "minimum": 0, "maximum": 60}),
            json!(7),
        ),
    }
}

/// A schema with its valid sample, built side by side.
struct Built {
    schema: Value,
    sample: Value,
}

/// An object under construction: properties, required names, sample.
#[derive(Default)]
struct Obj {
    properties: Map<String, Value>,
    required: Vec<String>,
    sample: Map<String, Value>,
}

impl Obj {
    /// Adds leaf templates; every other one is required.
    fn leaves(mut self, templates: impl IntoIterator<Item = usize>) -> Self {
        for (i, k) in templates.into_iter().enumerate() {
            let (name, schema, sample) = leaf(k);
            self = self.field(name, Built { schema, sample }, i % 2 == 0);
        }
        self
    }

    /// Adds `count` leaves starting at template `first`.
    fn run(self, first: usize, count: usize) -> Self {
        assert!(count <= LEAVES, "property names would repeat");
        self.leaves(first..first + count)
    }

    fn field(mut self, name: &str, built: Built, required: bool) -> Self {
        assert!(
            !self.properties.contains_key(name),
            "duplicate property {name}"
        );
        self.properties.insert(name.to_owned(), built.schema);
        self.sample.insert(name.to_owned(), built.sample);
        if required {
            self.required.push(name.to_owned());
        }
        self
    }

    fn build(self, title: &str) -> Built {
        Built {
            schema: json!({"type": "object", "title": title, "required": self.required, "properties": self.properties}),
            sample: Value::Object(self.sample),
        }
    }
}

/// An array of 2 `item`s (at most 20).
fn array_of(item: Built) -> Built {
    Built {
        schema: json!({"type": "array", "minItems": 1, "maxItems": 20, "items": item.schema}),
        sample: json!([item.sample.clone(), item.sample]),
    }
}

/// A `$ref` to `$defs/<name>` whose sample is the definition's.
fn reference(name: &str, def: &Built) -> Built {
    Built {
        schema: json!({"$ref": format!("#/$defs/{name}")}),
        sample: def.sample.clone(),
    }
}

fn schema_and_samples(mut root: Built, defs: Option<Map<String, Value>>) -> (Value, Value, Value) {
    if let Some(defs) = defs {
        root.schema["$defs"] = Value::Object(defs);
    }
    root.schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    let invalid = break_sample(&root.schema, &root.sample);
    (root.schema, root.sample, invalid)
}

// -------------------------------------------------------------------- cases

/// 5 flat fields: a newsletter sign-up.
fn small() -> Case {
    let root = Obj::default()
        .leaves([0, 2, 6, 7, 9])
        .build("Newsletter sign-up");
    let (output, valid, invalid) = schema_and_samples(root, None);
    Case {
        name: "small",
        description: "A short form to sign up for the newsletter.",
        output,
        valid,
        invalid,
    }
}

/// 50 fields: a job application with nested objects and arrays of objects.
fn medium() -> Case {
    let address = || Obj::default().leaves([15, 16, 17, 6]).build("Address");
    let root = Obj::default()
        .leaves([0, 1, 2, 3, 4, 5]) // 6
        .field("address", address(), true) // 4
        .field(
            "employment",
            Obj::default()
                .leaves([22, 23, 18, 8, 19, 20])
                .build("Current employment"),
            false,
        ) // 6
        .field(
            "emergencyContact",
            Obj::default()
                .leaves([0, 1, 3, 21])
                .field("address", address(), false)
                .build("Emergency contact"),
            false,
        ) // 8
        .field(
            "preferences",
            Obj::default()
                .leaves([9, 10, 11, 12, 13, 14, 21])
                .build("Preferences"),
            false,
        ) // 7
        .field(
            "references",
            array_of(Obj::default().leaves([0, 1, 2, 3, 22]).build("Reference")),
            false,
        ) // 5
        .field(
            "equipment",
            array_of(
                Obj::default()
                    .leaves([7, 8, 19, 11])
                    .build("Equipment request"),
            ),
            false,
        ) // 4
        .field(
            "availability",
            Obj::default()
                .leaves([4, 5, 9, 10, 12, 13, 18, 19, 20, 23])
                .build("Availability"),
            false,
        ) // 10
        .build("Job application");
    let (output, valid, invalid) = schema_and_samples(root, None);
    Case {
        name: "medium",
        description: "Collect a job application: the applicant, references and preferences.",
        output,
        valid,
        invalid,
    }
}

/// 500 fields: a vendor onboarding form of 10 sections of 50 fields each,
/// nested three levels, sharing `address` (used 20 times: directly and
/// inside `person`), `person` and `lineItem` (10 times each) from `$defs`.
fn large() -> Case {
    let address = Obj::default().leaves([15, 16, 17, 6]).build("Address");
    let person = Obj::default()
        .leaves([0, 1, 2, 3, 4])
        .field("homeAddress", reference("address", &address), false)
        .build("Person");
    let line_item = Obj::default().leaves([7, 8, 19, 10, 11]).build("Line item");
    let sections = [
        "company",
        "billing",
        "shipping",
        "contacts",
        "compliance",
        "banking",
        "products",
        "logistics",
        "support",
        "legal",
    ];
    let mut root = Obj::default();
    for (i, section) in sections.iter().enumerate() {
        let settings = Obj::default().run(i + 10, 10).build("Settings"); // 10
        let details = Obj::default()
            .run(i + 3, 10)
            .field("settings", settings, false)
            .build("Details"); // 20
        let built = Obj::default()
            .run(i, 12) // 12
            .field("primaryContact", reference("person", &person), true) // 9
            .field("postalAddress", reference("address", &address), false) // 4
            .field(
                "lineItems",
                array_of(reference("lineItem", &line_item)),
                false,
            ) // 5
            .field("details", details, false) // 20
            .build(&title_case(section));
        root = root.field(section, built, i < 3);
    }
    let mut defs = Map::new();
    defs.insert("address".into(), address.schema);
    defs.insert("person".into(), person.schema);
    defs.insert("lineItem".into(), line_item.schema);
    let (output, valid, invalid) = schema_and_samples(root.build("Vendor onboarding"), Some(defs));
    Case {
        name: "large",
        description: "Onboard a new vendor: company, billing, contacts and compliance details.",
        output,
        valid,
        invalid,
    }
}

fn title_case(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// The invalid sample: every 7th leaf gets a value of the wrong type, and
/// the first required top-level field is removed.
fn break_sample(schema: &Value, sample: &Value) -> Value {
    let mut broken = sample.clone();
    let mut counter = 0;
    break_leaves(&mut broken, &mut counter);
    if let (Some(first), Value::Object(map)) = (
        schema["required"].get(0).and_then(Value::as_str),
        &mut broken,
    ) {
        map.remove(first);
    }
    broken
}

fn break_leaves(value: &mut Value, counter: &mut usize) {
    match value {
        Value::Object(map) => map.values_mut().for_each(|v| break_leaves(v, counter)),
        Value::Array(items) if items.iter().any(|v| v.is_object()) => {
            items.iter_mut().for_each(|v| break_leaves(v, counter))
        }
        leaf => {
            *counter += 1;
            if *counter % 7 == 0 {
                // A string where the schema wants anything else, and a
                // number where it wants a string: a type error either way.
                *leaf = if leaf.is_string() {
                    json!(42)
                } else {
                    json!("not a number")
                };
            }
        }
    }
}
