//! What a person sees of an answer, read from the answers the pipeline
//! sends: the layout (the plan of the spec the answer was rendered from),
//! the title (JSON Forms `meta.title`), the lead text under it (the DGUI
//! form's `description`), and each enum option's visible label in the JSON
//! Forms `jsonSchema` (a `const` branch's `title`, else the value itself,
//! which is what JSON Forms and RJSF draw).

use super::case::Case;
use genui_core::{GenerateJob, Limits, Outcome, Plan, UiSpec};
use serde_json::{Map, Value};

/// One enum option as drawn.
#[derive(Debug, Clone)]
pub struct SeenOption {
    /// Schema pointer of the subschema holding the `enum` or `oneOf`.
    pub pointer: String,
    pub value: String,
    pub label: String,
}

/// The visible parts of one answer.
#[derive(Debug)]
pub struct Seen {
    pub plan: Plan,
    pub title: Option<String>,
    pub lead: Option<String>,
    pub options: Vec<SeenOption>,
}

/// The deterministic generator's answer to a case (a cache miss).
pub fn generated(case: &Case) -> Seen {
    answer(case, |job| job.answer(None))
}

/// The answer for a given plan, proven and rendered the way the pipeline
/// completes a model's plan ([`GenerateJob::complete`]).
pub fn planned(case: &Case, plan: &Plan) -> Seen {
    answer(case, |job| {
        let proven = job
            .prove_schema()
            .unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
        job.complete(plan.clone(), &proven, Map::new())
    })
}

fn answer(case: &Case, run: impl Fn(GenerateJob) -> Outcome) -> Seen {
    let (forms, spec) = rendered(case, "jsonforms", &run);
    let (dgui, _) = rendered(case, "dgui", &run);
    let schema = &forms["jsonSchema"];
    let mut options = Vec::new();
    collect_options(schema, schema, "", 0, &mut options);
    Seen {
        plan: spec.plan,
        title: forms["meta"]["title"].as_str().map(str::to_owned),
        lead: dgui["description"]
            .as_str()
            .filter(|d| !d.is_empty())
            .map(str::to_owned),
        options,
    }
}

/// The answer body in one format, and the spec it was rendered from.
fn rendered(case: &Case, format: &str, run: &impl Fn(GenerateJob) -> Outcome) -> (Value, UiSpec) {
    // No spec memory: each answer is built, never remembered from another run.
    let mut request = case.request.clone();
    request["format"] = format.into();
    let bytes = serde_json::to_vec(&request).unwrap_or_default();
    let job = GenerateJob::prepare(
        &bytes,
        None,
        &Limits {
            spec_memory_bytes: 0,
            ..Limits::default()
        },
    )
    .unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
    let hash = job.spec_hash().to_owned();
    let outcome = run(job);
    assert_eq!(
        outcome.response.status, 200,
        "{}: {}",
        case.name, outcome.response.body
    );
    let put = outcome
        .cache_put
        .unwrap_or_else(|| panic!("{}: a miss stores its spec", case.name));
    let spec = UiSpec::from_cached(&put.value, &hash)
        .unwrap_or_else(|| panic!("{}: the stored spec reads back", case.name));
    let body = serde_json::from_str(&outcome.response.body)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    (body, spec)
}

/// Deeper `$ref` chains than this are not followed (a cycle).
const MAX_REF_HOPS: usize = 16;

/// Every enum option under `schema`, through `properties`, `items` and
/// local `$ref`s.
fn collect_options(root: &Value, schema: &Value, at: &str, hops: usize, out: &mut Vec<SeenOption>) {
    if let Some(target) = schema["$ref"]
        .as_str()
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|p| root.pointer(p))
    {
        if hops < MAX_REF_HOPS {
            collect_options(root, target, at, hops + 1, out);
        }
    }
    for value in schema["enum"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        out.push(SeenOption {
            pointer: at.to_owned(),
            value: value.to_owned(),
            label: value.to_owned(),
        });
    }
    for key in ["oneOf", "anyOf"] {
        let branches = schema[key]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        if !branches.is_empty() && branches.iter().all(|b| b.get("const").is_some()) {
            for branch in branches {
                let Some(value) = branch["const"].as_str() else {
                    continue;
                };
                let label = branch["title"].as_str().unwrap_or(value);
                out.push(SeenOption {
                    pointer: at.to_owned(),
                    value: value.to_owned(),
                    label: label.to_owned(),
                });
            }
        }
    }
    for (name, sub) in schema["properties"].as_object().into_iter().flatten() {
        let escaped = name.replace('~', "~0").replace('/', "~1");
        collect_options(root, sub, &format!("{at}/properties/{escaped}"), hops, out);
    }
    if schema["items"].is_object() {
        collect_options(root, &schema["items"], &format!("{at}/items"), hops, out);
    }
}
