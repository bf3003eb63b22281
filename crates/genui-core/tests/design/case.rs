//! One case of the development set: an agent's request and the reference
//! design a designer wrote for it (format: `dev/README.md`).

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A request with its reference design.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Case {
    /// The file name without `.json`.
    #[serde(skip)]
    pub name: String,
    /// The kind of form (travel, finance, ...).
    pub domain: String,
    /// Kept out of tuning.
    pub held_out: bool,
    /// The generator version for which the case joined the set (`None` for
    /// the cases the first rounds wrote): each round's new cases are
    /// reported apart, so a new held-out group shows whether that round's
    /// rules generalise.
    #[serde(default)]
    pub added_for: Option<String>,
    /// The `generateUserInterface` arguments.
    pub request: Value,
    /// The designer's form.
    pub reference: Reference,
}

/// A designer's layout of a request's form.
#[derive(Debug, Deserialize)]
pub struct Reference {
    pub title: String,
    #[serde(default)]
    pub lead: Option<String>,
    pub sections: Vec<Section>,
    #[serde(default)]
    pub rows: Vec<Vec<String>>,
    /// Option labels: schema pointer of the enum -> value -> label.
    #[serde(default)]
    pub labels: BTreeMap<String, BTreeMap<String, String>>,
}

/// A named section and its fields, in reading order.
#[derive(Debug, Deserialize)]
pub struct Section {
    pub name: String,
    pub fields: Vec<String>,
}

impl Case {
    /// The agent's `description`.
    pub fn description(&self) -> &str {
        self.request["description"].as_str().unwrap_or_default()
    }

    /// The request's `output` schema.
    pub fn output(&self) -> &Value {
        &self.request["output"]
    }
}

impl Reference {
    /// Every field, section by section, in reading order.
    pub fn fields(&self) -> Vec<&str> {
        self.sections
            .iter()
            .flat_map(|s| s.fields.iter().map(String::as_str))
            .collect()
    }

    /// The index of the section holding `field`.
    pub fn section_of(&self, field: &str) -> Option<usize> {
        self.sections
            .iter()
            .position(|s| s.fields.iter().any(|f| f == field))
    }

    /// Every unordered pair of fields the reference shows side by side.
    pub fn row_pairs(&self) -> Vec<(&str, &str)> {
        let mut pairs = Vec::new();
        for row in &self.rows {
            for (i, a) in row.iter().enumerate() {
                for b in &row[i + 1..] {
                    pairs.push((a.as_str(), b.as_str()));
                }
            }
        }
        pairs
    }

    /// The reference's label for one option, if it gives one.
    pub fn label(&self, pointer: &str, value: &str) -> Option<&str> {
        self.labels.get(pointer)?.get(value).map(String::as_str)
    }
}

/// The development set's folder.
pub fn dev_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/design/dev")
}

/// Every case of a folder, by name.
pub fn load(dir: &Path) -> Vec<Case> {
    let mut cases: Vec<Case> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "json"))
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut case: Case =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            case.name = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            case
        })
        .collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}
