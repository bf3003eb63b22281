//! The operator's component catalog end to end through the service: every
//! catalog we ship validates; a request naming the example catalog gets its
//! components in JSON Forms, RJSF and A2UI (validated against the
//! operator's A2UI catalog), the stand-ins elsewhere; unprovable bindings
//! are repaired with a warning; bad names and inline catalogs are 400s;
//! the catalog's hash keys the cache; the submitted data is accepted.

mod a2ui_schema;

use genui_core::{Catalog, Contract, ErrorCode, GenerateJob, Limits, SubmitJob};
use serde_json::{json, Value};
use std::path::Path;

fn repo(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The worker's limits with the example catalog configured.
fn configured() -> Limits {
    configured_from(&repo("catalogs/example.json"))
}

/// The worker's limits with `text` as its one catalog, which must be valid.
fn configured_from(text: &str) -> Limits {
    let (limits, refused) = Limits::default().with_catalogs(&[("catalogs/example.json", text)]);
    assert_eq!(refused, Vec::<String>::new());
    limits
}

fn output(max: u32) -> Value {
    json!({"type": "object", "required": ["stars", "shade"], "properties": {
        "stars": {"type": "integer", "minimum": 0, "maximum": max, "title": "Stars", "x-genui-widget": "starRating"},
        "shade": {"type": "string", "format": "color", "title": "Shade"},
        "note": {"type": "string", "title": "Note"}}})
}

fn generate(body: Value, format: &str) -> (u16, Value, Option<String>) {
    generate_under(body, format, &configured())
}

fn generate_under(body: Value, format: &str, limits: &Limits) -> (u16, Value, Option<String>) {
    match GenerateJob::prepare(body.to_string().as_bytes(), Some(format), limits) {
        Ok(job) => {
            let outcome = job.answer(None);
            let value = serde_json::from_str(&outcome.response.body).unwrap_or(Value::Null);
            (
                outcome.response.status,
                value,
                outcome.cache_put.map(|p| p.value),
            )
        }
        Err(e) => (e.http_status(), e.to_dgui_error(), None),
    }
}

fn request(max: u32) -> Value {
    json!({"description": "Rate the paint", "output": output(max), "catalog": "example"})
}

#[test]
fn every_shipped_catalog_validates() {
    let mut seen = 0;
    for entry in
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../catalogs")).unwrap()
    {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".a2ui-catalog.json") {
            continue; // the frontend's A2UI catalog, read by the A2UI test below
        }
        let text = std::fs::read_to_string(&path).unwrap();
        Contract::Catalog
            .check(&serde_json::from_str(&text).unwrap())
            .unwrap();
        Catalog::parse(&text).unwrap_or_else(|why| panic!("{name}: {why}"));
        seen += 1;
    }
    assert!(seen >= 1);
}

#[test]
fn json_forms_and_rjsf_name_the_custom_components() {
    let (status, forms, _) = generate(request(10), "jsonforms");
    assert_eq!(status, 200, "{forms}");
    let controls = forms["uiSchema"]["elements"].as_array().unwrap();
    let by_scope = |scope: &str| {
        controls
            .iter()
            .find(|c| c["scope"] == scope)
            .unwrap()
            .clone()
    };
    assert_eq!(
        by_scope("#/properties/stars")["options"],
        json!({"genui": "starRating", "props": {"stars": 10}})
    );
    assert_eq!(
        by_scope("#/properties/shade")["options"],
        json!({"genui": "colorPicker"})
    );
    assert!(by_scope("#/properties/note")
        .get("options")
        .is_none_or(|o| o.get("genui").is_none()));
    assert!(forms["meta"].get("warnings").is_none(), "{}", forms["meta"]);

    let (_, rjsf, _) = generate(request(10), "rjsf");
    assert_eq!(rjsf["uiSchema"]["stars"]["ui:widget"], "starRating");
    assert_eq!(
        rjsf["uiSchema"]["stars"]["ui:options"],
        json!({"stars": 10})
    );
    assert_eq!(rjsf["uiSchema"]["shade"]["ui:widget"], "colorPicker");

    let (_, lmui, _) = generate(request(10), "lmui");
    assert!(
        !lmui.to_string().contains("starRating"),
        "LMUI shows the stand-in"
    );
}

#[test]
fn a2ui_names_the_operator_catalog_and_validates_against_it() {
    let custom: Value = serde_json::from_str(&repo("catalogs/example.a2ui-catalog.json")).unwrap();
    let (status, answer, cached) = generate(request(10), "a2ui");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["messages"][0]["createSurface"]["catalogId"],
        custom["catalogId"]
    );
    let components = answer["messages"][1]["updateComponents"]["components"]
        .as_array()
        .unwrap();
    let star = components
        .iter()
        .find(|c| c["component"] == "StarRating")
        .expect("a StarRating");
    assert_eq!(
        (
            star["value"].clone(),
            star["stars"].clone(),
            star["label"].clone()
        ),
        (json!({"path": "/stars"}), json!(10), json!("Stars"))
    );
    assert!(components.iter().any(|c| c["component"] == "ColorPicker"));
    a2ui_schema::check_wrapper_with(&answer, &custom).unwrap();
    assert!(
        a2ui_schema::check_wrapper(&answer).is_err(),
        "the basic catalog alone does not have StarRating"
    );

    // A person picks 7 stars and a red: /v1/submit accepts it.
    let surface = answer["messages"][0]["createSurface"]["surfaceId"].clone();
    let submit = components
        .iter()
        .find(|c| c["action"]["event"]["name"] == "genui.submit")
        .unwrap();
    let mut context = submit["action"]["event"]["context"].clone();
    context["data"] = json!({"stars": 7, "shade": "#ff0000"});
    let message = json!({"version": "v0.9", "action": {"name": "genui.submit", "surfaceId": surface,
        "sourceComponentId": submit["id"], "timestamp": "2026-11-25T04:03:44.839Z", "context": context}});
    let outcome = SubmitJob::prepare(message.to_string().as_bytes(), &configured())
        .unwrap()
        .answer(cached.as_deref(), "r1");
    assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
}

#[test]
fn a_rating_up_to_eleven_is_refused_and_shown_with_the_built_in_widget() {
    let (status, forms, cached) = generate(request(11), "jsonforms");
    assert_eq!(status, 200, "{forms}");
    let warnings = forms["meta"]["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        (
            warnings[0]["code"].as_str(),
            warnings[0]["pointer"].as_str()
        ),
        (Some("component_refused"), Some("/output/properties/stars"))
    );
    let stars = forms["uiSchema"]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["scope"] == "#/properties/stars")
        .unwrap()
        .clone();
    assert!(
        stars
            .get("options")
            .is_none_or(|o| o.get("genui").is_none()),
        "{stars}"
    );
    // A cache hit says so too (the stored plan keeps only proven bindings).
    let job = GenerateJob::prepare(
        request(11).to_string().as_bytes(),
        Some("jsonforms"),
        &configured(),
    )
    .unwrap();
    let hit: Value =
        serde_json::from_str(&job.hit(cached.as_deref()).expect("a hit").response.body).unwrap();
    assert_eq!(
        (
            hit["meta"]["cache"].as_str(),
            hit["meta"]["warnings"].as_array().map(Vec::len)
        ),
        (Some("hit"), Some(1)),
        "{}",
        hit["meta"]
    );
    let (_, answer, _) = generate(request(11), "a2ui");
    assert!(!answer.to_string().contains("StarRating"));
    assert!(
        answer["messages"][0]["createSurface"]["catalogId"]
            != "https://genui-worker.dev/catalogs/example/a2ui-catalog.json"
            || answer.to_string().contains("ColorPicker")
    );
}

#[test]
fn unknown_names_and_inline_catalogs_are_refused_with_the_pointer() {
    for (body, pointer) in [
        (json!({"output": output(10), "catalog": "nope"}), "/catalog"),
        (
            json!({"tool": "generateUserInterface", "arguments": {"output": output(10), "catalog": "nope"}}),
            "/arguments/catalog",
        ),
        (
            json!({"output": output(10), "catalog": {"name": "mine", "components": []}}),
            "/catalog",
        ),
        (json!({"output": output(10), "catalog": 3}), "/catalog"),
    ] {
        let (status, error, _) = generate(body, "jsonforms");
        assert_eq!(
            (
                status,
                error["code"].as_str(),
                error["payload"]["pointer"].as_str()
            ),
            (400, Some(ErrorCode::InvalidRequest.as_str()), Some(pointer)),
            "{error}"
        );
        Contract::DguiError.check(&error).unwrap();
    }
}

#[test]
fn the_catalog_hash_is_part_of_the_cache_key() {
    let original = configured();
    let key = |body: Value, limits: &Limits| {
        GenerateJob::prepare(body.to_string().as_bytes(), None, limits)
            .unwrap()
            .cache_key()
            .to_owned()
    };
    let with = key(request(10), &original);
    let without = key(
        json!({"description": "Rate the paint", "output": output(10)}),
        &original,
    );
    assert_ne!(with, without);
    let mut changed: Value = serde_json::from_str(&repo("catalogs/example.json")).unwrap();
    changed["components"][0]["description"] = json!("Stars, now golden.");
    let changed = configured_from(&changed.to_string());
    assert_ne!(
        key(request(10), &changed),
        with,
        "a changed catalog never serves the old form"
    );
}

/// A catalog that only names itself is accepted when the isolate starts
/// and proven by the first request naming it: that request and every later
/// one get `unsupported_catalog` at `/catalog` saying why, the refusal is
/// returned for the log once, and the other catalog and requests without
/// one answer as if it were not there.
#[test]
fn a_malformed_catalog_is_refused_to_the_requests_naming_it_and_logged_once() {
    let good = repo("catalogs/example.json");
    let broken = r#"{"name": "broken"}"#;
    let (limits, log) = Limits::default().with_catalogs(&[
        ("catalogs/example.json", &good),
        ("catalogs/broken.json", broken),
    ]);
    assert_eq!(log, Vec::<String>::new(), "set-up reads names only");
    let mut refusals = Vec::new();
    for _ in 0..2 {
        let mut body = request(10);
        body["catalog"] = json!("broken");
        let (status, error, _) = generate_under(body, "jsonforms", &limits);
        let message = error["message"].as_str().unwrap_or_default();
        assert_eq!(
            (
                status,
                error["code"].as_str(),
                error["payload"]["pointer"].as_str()
            ),
            (400, Some("unsupported_catalog"), Some("/catalog")),
            "{error}"
        );
        assert!(
            message.contains("`broken`")
                && message.contains("catalog_refused")
                && !message.contains("components"),
            "which catalog, and where the reason is (the log, not the caller): {message}"
        );
        refusals.extend(Limits::take_catalog_refusals());
    }
    assert_eq!(refusals.len(), 1, "{refusals:?}");
    assert!(
        refusals[0].contains("`broken`") && refusals[0].contains("components"),
        "{refusals:?}"
    );
    // No spec memory, so the answers compared are both misses.
    let forgetful = |limits: Limits| Limits {
        spec_memory_bytes: 0,
        ..limits
    };
    let limits = forgetful(limits);
    assert_eq!(
        generate_under(request(10), "jsonforms", &limits),
        generate_under(request(10), "jsonforms", &forgetful(configured())),
        "the good catalog answers as when configured alone"
    );
    let plain = json!({"output": output(10)});
    assert_eq!(
        generate_under(plain.clone(), "jsonforms", &limits),
        generate_under(plain, "jsonforms", &forgetful(Limits::default())),
        "requests without a catalog are untouched"
    );
    assert_eq!(Limits::take_catalog_refusals(), Vec::<String>::new());
}

/// The configuration travels in the value each job is prepared with, not
/// in the thread: two differently configured values, used in turn on one
/// thread, each answer as configured, and building one leaves the other
/// as it was.
#[test]
fn two_configurations_answer_side_by_side_in_one_thread() {
    let with_catalog = configured();
    let without_catalog = Limits::default();
    let mut golden: Value = serde_json::from_str(&repo("catalogs/example.json")).unwrap();
    golden["components"][0]["description"] = json!("Stars, now golden.");
    let golden = configured_from(&golden.to_string());
    for _ in 0..2 {
        let (status, answer, _) = generate_under(request(10), "jsonforms", &with_catalog);
        assert_eq!(status, 200, "{answer}");
        let (status, error, _) = generate_under(request(10), "jsonforms", &without_catalog);
        assert_eq!(
            (status, error["code"].as_str()),
            (400, Some("invalid_request"))
        );
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("none is configured"),
            "{error}"
        );
        let (status, other, _) = generate_under(request(10), "jsonforms", &golden);
        assert_eq!(status, 200, "{other}");
        assert_ne!(
            answer["meta"]["specHash"], other["meta"]["specHash"],
            "each answer is keyed by its own configuration's catalog"
        );
    }
}

/// An A2UI v1.0 answer knows only v1.0's basic catalog: a request naming
/// an operator catalog with A2UI components (written for v0.9) is refused
/// with its own code, where the catalog was named, whichever way v1.0 was
/// asked; the same request in v0.9 is answered.
#[test]
fn a2ui_v1_refuses_an_operator_catalog_with_its_code() {
    let mut v1 = request(10);
    v1["a2uiVersion"] = json!("1.0");
    let (status, error, _) = generate(v1, "a2ui");
    assert_eq!(status, 400, "{error}");
    Contract::DguiError.check(&error).unwrap();
    assert_eq!(error["code"], "unsupported_catalog");
    assert_eq!(error["payload"]["pointer"], "/catalog");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"),
        "{error}"
    );
    let mut job = GenerateJob::prepare(
        request(10).to_string().as_bytes(),
        Some("a2ui"),
        &configured(),
    )
    .unwrap();
    let by_query = job.negotiate_a2ui(Some("1.0"), None).unwrap_err();
    assert_eq!(by_query.code(), ErrorCode::UnsupportedCatalog);
    assert_eq!(generate(request(10), "a2ui").0, 200);
}
