//! Reading the vendored JSON Schema Test Suite, shared by the native test
//! (`tests/json_schema_suite.rs`) and the workerd layer
//! (`tests/harness/e2e_suite.rs`, which includes this file by path).

use serde_json::Value;
use std::path::{Path, PathBuf};

/// The suite's draft folders, and the `$schema` a caller names each with.
pub const DRAFTS: [(&str, &str); 5] = [
    ("draft4", "http://json-schema.org/draft-04/schema#"),
    ("draft6", "http://json-schema.org/draft-06/schema#"),
    ("draft7", "http://json-schema.org/draft-07/schema#"),
    (
        "draft2019-09",
        "https://json-schema.org/draft/2019-09/schema",
    ),
    (
        "draft2020-12",
        "https://json-schema.org/draft/2020-12/schema",
    ),
];

/// One case: where it is, the schema as a caller sends it, the instance and
/// whether the suite calls it valid.
pub struct Case {
    pub label: String,
    pub schema: Value,
    pub data: Value,
    pub valid: bool,
}

/// The schema as a caller names its draft: `$schema` added at an object root without one.
pub fn with_draft(schema: &Value, meta: &str) -> Value {
    match schema {
        Value::Object(map) if !map.contains_key("$schema") => {
            let mut map = map.clone();
            map.insert("$schema".into(), meta.into());
            Value::Object(map)
        }
        other => other.clone(),
    }
}

/// Every case of one draft folder under `suite_tests` (the suite's `tests/`), in file order.
pub fn cases(suite_tests: &Path, folder: &str, meta: &str) -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite_tests.join(folder))
        .expect("the vendored suite")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        let name = format!(
            "{folder}/{}",
            file.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        );
        let groups: Value = serde_json::from_slice(&std::fs::read(&file).expect("a suite file"))
            .expect("suite JSON");
        for group in groups.as_array().into_iter().flatten() {
            let schema = with_draft(&group["schema"], meta);
            for case in group["tests"].as_array().into_iter().flatten() {
                let label = format!(
                    "{name} :: {} :: {}",
                    group["description"].as_str().unwrap_or_default(),
                    case["description"].as_str().unwrap_or_default()
                );
                cases.push(Case {
                    label,
                    schema: schema.clone(),
                    data: case["data"].clone(),
                    valid: case["valid"] == true,
                });
            }
        }
    }
    cases
}
