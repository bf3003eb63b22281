//! Layout stability of edits in place (`previousSpecHash`): for every form
//! of the fixtures (and of the peer corpus, when downloaded), one field
//! added, one removed and one renamed, the share of surviving fields whose
//! section and row are unchanged from the edited form. A renamed field is a
//! new one (its data pointer changed), so it does not count as surviving.
//!
//! `cargo test -p genui-core --test layout_stability` asserts the floor over
//! the fixtures; `./scripts/layout-stability.sh` runs the ignored test that
//! adds the peer corpus and writes `bench-results/layout-stability.md`.

use genui_core::{GenerateJob, Limits, Node, Plan};
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The floor the figures must reach, per kind of edit.
const FLOOR: f64 = 0.95;

/// The edits measured.
const EDITS: [Edit; 3] = [Edit::Add, Edit::Remove, Edit::Rename];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Edit {
    Add,
    Remove,
    Rename,
}

impl Edit {
    fn name(self) -> &'static str {
        match self {
            Edit::Add => "one field added",
            Edit::Remove => "one field removed",
            Edit::Rename => "one field renamed",
        }
    }

    /// `output` with this edit applied to its top-level properties;
    /// `None` for a form too small to edit.
    fn apply(self, output: &Value) -> Option<Value> {
        let mut edited = output.clone();
        let properties = edited.get_mut("properties")?.as_object_mut()?;
        let names: Vec<String> = properties.keys().cloned().collect();
        if names.len() < 2 {
            return None;
        }
        let rename = |old: &str, new: Option<&str>, schema: &mut Value| {
            if let Some(required) = schema.get_mut("required").and_then(Value::as_array_mut) {
                required.retain(|r| r.as_str() != Some(old));
                if let Some(new) = new {
                    required.push(json!(new));
                }
            }
        };
        match self {
            Edit::Add => {
                properties.insert(
                    "extraNotes".into(),
                    json!({"type": "string", "title": "Extra notes"}),
                );
            }
            Edit::Remove => {
                let name = &names[names.len() / 2];
                properties.remove(name);
                rename(name, None, &mut edited);
            }
            Edit::Rename => {
                let name = &names[names.len() / 3];
                let field = properties.remove(name)?;
                let new = format!("{name}Renamed");
                properties.insert(new.clone(), field);
                rename(name, Some(&new), &mut edited);
            }
        }
        Some(edited)
    }
}

/// Where a field sits: its section's identity and its surviving row partners.
type Place = (String, BTreeSet<String>);

/// Each top-level field's section (concept id, else label; `""` outside
/// any) and row partners.
fn places(plan: &Plan) -> HashMap<String, Place> {
    let mut out = HashMap::new();
    walk(&plan.root, "", &mut out);
    out
}

fn walk(node: &Node, section: &str, out: &mut HashMap<String, Place>) {
    match node {
        Node::Vertical { elements } => elements.iter().for_each(|n| walk(n, section, out)),
        Node::Group {
            label,
            section: concept,
            elements,
            ..
        } => {
            let id = concept.as_deref().unwrap_or(label);
            elements.iter().for_each(|n| walk(n, id, out));
        }
        Node::Steps { steps } => steps.iter().for_each(|step| {
            let id = step.section.as_deref().unwrap_or(&step.label);
            step.elements.iter().for_each(|n| walk(n, id, out));
        }),
        Node::Horizontal { .. } => {
            let row: BTreeSet<String> = node.controls().iter().map(|c| c.pointer.clone()).collect();
            for control in node.controls() {
                out.insert(control.pointer.clone(), (section.to_owned(), row.clone()));
            }
        }
        Node::Control(control) => {
            out.insert(
                control.pointer.clone(),
                (section.to_owned(), BTreeSet::new()),
            );
        }
        Node::Table(_) => {}
    }
}

/// Surviving fields, and how many of them kept section and row partners.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    forms: usize,
    surviving: usize,
    stable: usize,
}

impl Tally {
    fn add(&mut self, before: &Plan, after: &Plan) {
        let (before, after) = (places(before), places(after));
        self.forms += 1;
        for (pointer, (section, row)) in &before {
            let Some((new_section, new_row)) = after.get(pointer) else {
                continue;
            };
            self.surviving += 1;
            // Its partners that are in both plans (not itself).
            let surviving = |row: &BTreeSet<String>| -> BTreeSet<String> {
                row.iter()
                    .filter(|p| *p != pointer && before.contains_key(*p) && after.contains_key(*p))
                    .cloned()
                    .collect()
            };
            if section == new_section && surviving(row) == surviving(new_row) {
                self.stable += 1;
            }
        }
    }

    fn share(&self) -> f64 {
        match self.surviving {
            0 => 1.0,
            n => self.stable as f64 / n as f64,
        }
    }
}

/// The plan a call stores, with its spec hash and stored value.
fn generate(body: &Value) -> Option<(Plan, String, String)> {
    let bytes = serde_json::to_vec(body).ok()?;
    let job = GenerateJob::prepare(&bytes, None, &forgetful()).ok()?;
    if job.is_display() {
        return None;
    }
    if job.previous_spec_key().is_some() {
        return None; // the caller feeds the previous spec
    }
    let hash = job.spec_hash().to_owned();
    let put = job.answer(None).cache_put?;
    let spec: Value = serde_json::from_str(&put.value).ok()?;
    Some((
        serde_json::from_value(spec["plan"].clone()).ok()?,
        hash,
        put.value,
    ))
}

/// The plan of an edit of the form stored as `stored` under `hash`.
fn edit(body: &Value, hash: &str, stored: &str) -> Option<Plan> {
    let mut body = body.clone();
    body["previousSpecHash"] = json!(hash);
    let bytes = serde_json::to_vec(&body).ok()?;
    let mut job = GenerateJob::prepare(&bytes, None, &forgetful()).ok()?;
    job.take_previous(Some(stored)).ok()?;
    let put = job.answer(None).cache_put?;
    let spec: Value = serde_json::from_str(&put.value).ok()?;
    serde_json::from_value(spec["plan"].clone()).ok()
}

/// Kept and fresh tallies per edit over some `output` schemas.
#[derive(Debug, Default)]
struct Figures {
    kept: HashMap<Edit, Tally>,
    fresh: HashMap<Edit, Tally>,
}

impl Figures {
    fn measure(&mut self, description: &str, output: &Value) {
        let body = json!({"description": description, "output": output});
        let Some((before, hash, stored)) = generate(&body) else {
            return;
        };
        for kind in EDITS {
            let Some(edited) = kind.apply(output) else {
                continue;
            };
            let edited_body = json!({"description": description, "output": edited});
            let (Some(kept), Some((fresh, _, _))) =
                (edit(&edited_body, &hash, &stored), generate(&edited_body))
            else {
                continue;
            };
            self.kept.entry(kind).or_default().add(&before, &kept);
            self.fresh.entry(kind).or_default().add(&before, &fresh);
        }
    }

    fn rows(&self, corpus: &str) -> String {
        EDITS
            .iter()
            .map(|kind| {
                let (kept, fresh) = (self.kept.get(kind), self.fresh.get(kind));
                let (kept, fresh) = (
                    kept.copied().unwrap_or_default(),
                    fresh.copied().unwrap_or_default(),
                );
                format!(
                    "| {corpus} | {} | {} | {} | {:.1} % | {:.1} % |\n",
                    kind.name(),
                    kept.forms,
                    kept.surviving,
                    100.0 * kept.share(),
                    100.0 * fresh.share()
                )
            })
            .collect()
    }
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/generate")
}

fn fixtures() -> Figures {
    let mut figures = Figures::default();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let body: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let description = body["description"].as_str().unwrap_or_default();
        let output = body.get("output").cloned().unwrap_or_default();
        figures.measure(description, &output);
    }
    figures
}

fn assert_floor(figures: &Figures, corpus: &str) {
    for kind in EDITS {
        let tally = figures.kept.get(&kind).copied().unwrap_or_default();
        assert!(
            tally.forms >= 10,
            "{corpus}: only {} forms for {}",
            tally.forms,
            kind.name()
        );
        assert!(
            tally.share() >= FLOOR,
            "{corpus}, {}: {:.1} % of {} surviving fields kept section and row",
            kind.name(),
            100.0 * tally.share(),
            tally.surviving
        );
    }
}

#[test]
fn surviving_fields_keep_section_and_row_over_the_fixtures() {
    assert_floor(&fixtures(), "fixtures");
}

fn peer_corpus() -> Option<Figures> {
    let dir = match std::env::var_os("PEER_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/peer-corpus"),
    };
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).ok()?).ok()?;
    let mut figures = Figures::default();
    for entry in manifest["schemas"].as_array()? {
        let Some(file) = entry["file"].as_str() else {
            continue;
        };
        let Ok(text) = std::fs::read(dir.join(file)) else {
            continue;
        };
        let Ok(schema) = serde_json::from_slice::<Value>(&text) else {
            continue;
        };
        figures.measure("", &schema);
    }
    Some(figures)
}

/// Writes `bench-results/layout-stability.md` (fixtures, and the peer
/// corpus when downloaded: `./scripts/peer.sh` fetches it).
#[test]
#[ignore = "writes bench-results/layout-stability.md: ./scripts/layout-stability.sh"]
fn write_layout_stability_figures() {
    let fixtures = fixtures();
    assert_floor(&fixtures, "fixtures");
    let mut table = fixtures.rows("fixtures");
    let peer = peer_corpus();
    if let Some(peer) = &peer {
        table.push_str(&peer.rows("peer corpus"));
    }
    let text = format!(
        "# Layout stability of edits in place\n\n\
         Written by `./scripts/layout-stability.sh` \
         (`crates/genui-core/tests/layout_stability.rs`). For every form, three \
         edits of its top-level fields, each sent with `previousSpecHash` naming \
         the form: a field added (`extraNotes`), the middle field removed, and \
         the field a third of the way down renamed (a renamed field is a new \
         one). A surviving field is stable when its section and its surviving \
         row partners are unchanged. *Without keeping* is the same edit \
         generated afresh, for comparison. The floor is {:.0} %.\n\n\
         | corpus | edit | forms | surviving fields | stable (kept) | stable without keeping |\n\
         |---|---|---:|---:|---:|---:|\n{table}{}",
        100.0 * FLOOR,
        if peer.is_none() {
            "\nThe peer corpus was not downloaded (`./scripts/peer.sh` fetches it).\n"
        } else {
            ""
        }
    );
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-results/layout-stability.md");
    std::fs::write(&out, text).unwrap();
    if let Some(peer) = &peer {
        assert_floor(peer, "peer corpus");
    }
}

/// The worker's limits with no memory of specs: every answer comes from
/// the request and the given cache value, not from an earlier request.
fn forgetful() -> Limits {
    Limits {
        spec_memory_bytes: 0,
        ..Limits::default()
    }
}
