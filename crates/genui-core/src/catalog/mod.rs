//! The operator's component catalogs (`schemas/catalog.schema.json`): their
//! own frontend components, which a plan's control may be bound to.
//!
//! A catalog is configured in the worker, never sent by a caller: it names
//! components the operator's frontend has registered, which a caller cannot
//! know. The shell hands the configured catalogs' texts to
//! [`Limits::with_catalogs`](crate::Limits::with_catalogs) once per
//! isolate, which only reads each one's name (a text without one, or with
//! a taken name, is refused there), and the limits it builds carry them to
//! every job. A catalog is proven when a request first names it (its
//! schema, then what a schema cannot say: unique names, compilable `fits`
//! and `propsSchema`, props that validate), once per isolate: a malformed
//! one answers the requests naming it with `unsupported_catalog` saying
//! why, its refusal is returned once for the shell's log
//! ([`Limits::take_catalog_refusals`](crate::Limits::take_catalog_refusals)), and requests without `catalog` never pay for or
//! see any of it. A request's catalog's content hash enters the cache key,
//! so changing a catalog never serves an old form.
//!
//! | file | owns |
//! |---|---|
//! | `mod.rs` | the catalog, its validation and hash, the configured set on `Limits` |
//! | `fits.rs` | the proof that a field's schema satisfies a component's `fits` |
//! | `bind.rs` | binding controls to components, and proving every binding in a plan |

pub(crate) mod bind;
pub(crate) mod fits;

use crate::error::{Error, ErrorCode, Result};
use crate::plan::Widget;
use crate::terms::contracts::Contract;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::rc::Rc;
use std::sync::Arc;

/// One operator catalog, validated. Two are equal when their names and
/// content hashes are.
#[derive(Debug, Clone)]
pub struct Catalog {
    name: String,
    /// Hex SHA-256 of the catalog's canonical JSON (`cache::canonical`).
    hash: String,
    a2ui_catalog_id: Option<String>,
    entries: Vec<Entry>,
}

/// One component of a catalog (see `schemas/catalog.schema.json`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) fits: Value,
    #[serde(default)]
    pub(crate) formats: Vec<String>,
    #[serde(default)]
    pub(crate) props_schema: Option<Value>,
    #[serde(default)]
    pub(crate) props: Option<Map<String, Value>>,
    pub(crate) stand_in: Widget,
    pub(crate) jsonforms: JsonFormsName,
    pub(crate) rjsf: RjsfName,
    #[serde(default)]
    pub(crate) a2ui: Option<A2uiName>,
}

/// What a JSON Forms custom renderer's tester reads.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct JsonFormsName {
    pub(crate) options: Map<String, Value>,
}

/// RJSF's `ui:widget` name.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct RjsfName {
    pub(crate) widget: String,
}

/// The component in the operator's A2UI catalog.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct A2uiName {
    pub(crate) component: String,
    #[serde(default = "value_property")]
    pub(crate) value_property: String,
    #[serde(default = "label_property")]
    pub(crate) label_property: String,
}

fn value_property() -> String {
    "value".into()
}

fn label_property() -> String {
    "label".into()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stored {
    name: String,
    #[serde(default)]
    a2ui: Option<A2uiCatalog>,
    components: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct A2uiCatalog {
    catalog_id: String,
}

impl Catalog {
    /// Validates one catalog document; the error (`internal_error`: the
    /// worker's own configuration is wrong) says what, with a JSON Pointer
    /// into the document.
    pub fn parse(text: &str) -> Result<Catalog> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| malformed(format!("not JSON: {e}"), ""))?;
        Contract::Catalog.check(&value)?;
        let hash = crate::cache::canonical::sha256(&value)
            .map(hex::encode)
            .map_err(|e| malformed(e.to_string(), ""))?;
        let stored: Stored =
            serde_json::from_value(value).map_err(|e| malformed(e.to_string(), ""))?;
        for (index, entry) in stored.components.iter().enumerate() {
            entry.validate(&stored.components[..index]).map_err(|why| {
                malformed(
                    format!("{} (at /components/{index})", why.message()),
                    &format!("/components/{index}"),
                )
            })?;
        }
        Ok(Catalog {
            name: stored.name,
            hash,
            a2ui_catalog_id: stored.a2ui.map(|a| a.catalog_id),
            entries: stored.components,
        })
    }

    /// Binds the controls of `plan` whose field asks for one of this
    /// catalog's components (`x-genui-widget`, or a `format` an entry
    /// lists), as the deterministic generator does; every binding is still
    /// proven when the plan is completed.
    pub fn bind_requested(&self, plan: &mut crate::Plan, output: &Value, limits: &crate::Limits) {
        bind::suggest(plan, output, self, limits);
    }

    /// The catalog's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Hex SHA-256 of the catalog's canonical JSON (part of the cache key).
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// The operator's A2UI `catalogId`, when the catalog has one.
    pub(crate) fn a2ui_catalog_id(&self) -> Option<&str> {
        self.a2ui_catalog_id.as_deref()
    }

    /// The entry named `name`.
    pub(crate) fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The entries, in catalog order.
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The catalog as an `http` generator is sent it: its name, hash and
    /// each component's name, description, `fits` and `propsSchema` (what a
    /// generator needs to bind fields; the per-format names stay here).
    pub fn for_generators(&self) -> Value {
        let components: Vec<Value> = self
            .entries
            .iter()
            .map(|e| serde_json::json!({"name": e.name, "description": e.description, "fits": e.fits, "propsSchema": e.props_schema}))
            .collect();
        serde_json::json!({"name": self.name, "sha256": self.hash, "components": components})
    }

    /// The components as the model is shown them (name, description,
    /// `fits`), at most `max_bytes` of JSON lines: whole entries only.
    pub fn prompt_lines(&self, max_bytes: usize) -> String {
        let mut out = String::new();
        for entry in &self.entries {
            let line = serde_json::json!({"name": entry.name, "description": entry.description, "fits": entry.fits}).to_string();
            if out.len() + line.len() + 1 > max_bytes {
                break;
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}

impl Entry {
    /// What the catalog schema cannot say: a unique name, `fits` and
    /// `propsSchema` that compile, default props that validate.
    fn validate(&self, before: &[Entry]) -> Result<()> {
        if before.iter().any(|e| e.name == self.name) {
            return Err(malformed(
                format!("component `{}` is listed twice", self.name),
                "",
            ));
        }
        compile(&self.fits).map_err(|e| {
            malformed(
                format!("`fits` of `{}` is not a valid JSON Schema: {e}", self.name),
                "",
            )
        })?;
        if let Some(schema) = &self.props_schema {
            let validator = compile(schema).map_err(|e| {
                malformed(
                    format!(
                        "`propsSchema` of `{}` is not a valid JSON Schema: {e}",
                        self.name
                    ),
                    "",
                )
            })?;
            if let Some(props) = &self.props {
                let props = Value::Object(props.clone());
                let first = validator
                    .iter_errors(&props)
                    .next()
                    .map(|e| format!("{e} at {}", e.instance_path()));
                if let Some(error) = first {
                    return Err(malformed(
                        format!(
                            "`props` of `{}` do not validate against its `propsSchema`: {error}",
                            self.name
                        ),
                        "",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Checks props for this component (`None`: its default props); a
    /// refusal is the request's (`invalid_request`).
    pub(crate) fn check_props(&self, props: Option<&Map<String, Value>>) -> Result<()> {
        let refused = |message: String| Error::new(ErrorCode::InvalidRequest, message);
        let (Some(schema), Some(props)) = (&self.props_schema, props.or(self.props.as_ref()))
        else {
            return match props {
                Some(p) if !p.is_empty() && self.props_schema.is_none() => {
                    Err(refused(format!("`{}` takes no props", self.name)))
                }
                _ => Ok(()),
            };
        };
        let validator = compile(schema).map_err(|e| refused(e.to_string()))?;
        let props = Value::Object(props.clone());
        let first = validator
            .iter_errors(&props)
            .next()
            .map(|e| format!("{e} at {}", e.instance_path()));
        match first {
            Some(error) => Err(refused(format!("its props do not validate: {error}"))),
            None => Ok(()),
        }
    }

    /// The props a binding shows: its own, else the entry's defaults.
    pub(crate) fn props_for<'a>(
        &'a self,
        own: Option<&'a Map<String, Value>>,
    ) -> Option<&'a Map<String, Value>> {
        own.or(self.props.as_ref()).filter(|p| !p.is_empty())
    }
}

/// A schema of the catalog compiled; the error is jsonschema's, for the
/// caller to place.
fn compile(
    schema: &Value,
) -> std::result::Result<jsonschema::Validator, jsonschema::ValidationError<'static>> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
}

/// Catalogs read this isolate, by the SHA-256 of their text: a configured
/// catalog is read and proven once, however many requests name it.
const READ_CATALOGS: usize = 16;

/// A text's digest, and the catalog it is (or why it is not one).
type Read = ([u8; 32], Result<Rc<Catalog>>);

thread_local! {
    /// Each text read this isolate.
    static READ: std::cell::RefCell<Vec<Read>> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// The refusals of catalogs proven on first use, not yet taken for the
    /// log ([`Limits::take_catalog_refusals`](crate::Limits::take_catalog_refusals));
    /// at most [`READ_CATALOGS`] wait, the oldest dropped first.
    static REFUSED: std::cell::RefCell<Vec<String>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The catalog `name` from `text` ([`Catalog::parse`]), remembered by the
/// text's digest beside at least `configured` others (every catalog of the
/// asking configuration stays remembered, however many there are); a text
/// that is not a catalog is remembered with the reason, so it is not read
/// again, and its first refusal is kept for [`Limits::take_catalog_refusals`](crate::Limits::take_catalog_refusals).
fn read_once(name: &str, text: &str, configured: usize) -> Result<Rc<Catalog>> {
    use sha2::{Digest, Sha256};
    let digest: [u8; 32] = Sha256::digest(text.as_bytes()).into();
    let known = READ.with(|read| {
        let read = read.borrow();
        read.iter()
            .find(|(d, _)| *d == digest)
            .map(|(_, c)| c.clone())
    });
    if let Some(known) = known {
        return known;
    }
    let read = Catalog::parse(text).map(Rc::new);
    if let Err(why) = &read {
        REFUSED.with(|refused| {
            let mut refused = refused.borrow_mut();
            if refused.len() >= READ_CATALOGS {
                let _oldest = refused.remove(0);
            }
            refused.push(refusal(name, why));
        });
    }
    READ.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.len() >= READ_CATALOGS.max(configured) {
            let _oldest = memo.remove(0);
        }
        memo.push((digest, read.clone()));
    });
    read
}

/// The log line of a configured catalog refused on first use.
fn refusal(name: &str, why: &Error) -> String {
    format!(
        "catalog `{name}` is malformed and refused (requests naming it get \
         `unsupported_catalog`; the others are untouched): {}",
        why.message()
    )
}

/// The name a catalog text gives itself, read without proving the rest
/// (the cheap part of set-up); the error says why there is none.
fn name_of(text: &str) -> Result<String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| malformed(format!("not JSON: {e}"), ""))?;
    match value.get("name") {
        Some(Value::String(name)) => Ok(name.clone()),
        _ => Err(malformed(
            "it is not a JSON object with a string `name`".into(),
            "/name",
        )),
    }
}

impl PartialEq for Catalog {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.hash == other.hash
    }
}

impl Eq for Catalog {}

impl crate::Limits {
    /// The refusals of configured catalogs proven on first use since the
    /// last call, one line each, for the caller to log (`catalog_refused`):
    /// each malformed catalog is refused once per isolate, then answered
    /// from memory.
    pub fn take_catalog_refusals() -> Vec<String> {
        REFUSED.with(|refused| std::mem::take(&mut *refused.borrow_mut()))
    }

    /// These limits with the operator's catalogs named from their texts
    /// (`(source, text)`, the source naming a file for the log): the ones
    /// with a name replace [`Limits::catalogs`](crate::Limits::catalogs),
    /// unproven (a catalog is proven by the first request naming it, see
    /// [`Limits::catalog_named`]); a text that is not JSON with a string
    /// `name`, or whose name another took, is left out, and the returned
    /// lines say why, for the shell to log.
    pub fn with_catalogs(mut self, sources: &[(&str, &str)]) -> (Self, Vec<String>) {
        let mut catalogs: Vec<(String, Arc<str>)> = Vec::new();
        let mut refused = Vec::new();
        for (source, text) in sources {
            match name_of(text) {
                Ok(name) if catalogs.iter().any(|(taken, _)| *taken == name) => {
                    refused.push(format!(
                        "catalog {source}: the name `{name}` is taken by another catalog; refused"
                    ))
                }
                Ok(name) => catalogs.push((name, Arc::from(*text))),
                Err(why) => refused.push(format!(
                    "catalog {source} is malformed and refused (requests naming it get a 400): {}",
                    why.message()
                )),
            }
        }
        self.catalogs = catalogs;
        (self, refused)
    }

    /// The configured catalog named `name`, when there is one and it is
    /// proven (a request's `catalog` was already checked when its job was
    /// prepared).
    pub fn catalog(&self, name: &str) -> Option<Rc<Catalog>> {
        self.proven(name)?.ok()
    }

    /// The configured catalog named `name`, proven on its first use: `None`
    /// when none is configured by that name, else the catalog or why it is
    /// malformed.
    fn proven(&self, name: &str) -> Option<Result<Rc<Catalog>>> {
        let (_, text) = self.catalogs.iter().find(|(known, _)| known == name)?;
        // The field is public: an entry whose text names another catalog
        // names none.
        let read = read_once(name, text, self.catalogs.len());
        match read {
            Ok(catalog) if catalog.name != name => None,
            read => Some(read),
        }
    }

    /// The configured catalog a request names by `catalog` (at `pointer`):
    /// an unknown name is a 400 naming the configured ones, a malformed
    /// catalog an `unsupported_catalog` saying why.
    pub(crate) fn catalog_named(&self, name: &str, pointer: &str) -> Result<Rc<Catalog>> {
        match self.proven(name) {
            Some(Ok(catalog)) => Ok(catalog),
            Some(Err(_)) => Err(unusable(name, pointer)),
            None => Err(self.not_configured(name, pointer)),
        }
    }

    /// A request's `catalog` (at `pointer`) that names no configured one.
    fn not_configured(&self, name: &str, pointer: &str) -> Error {
        let names: Vec<&str> = self
            .catalogs
            .iter()
            .map(|(name, _)| name.as_str())
            .collect();
        let known = if names.is_empty() {
            "none is configured".to_owned()
        } else {
            format!("configured: {}", names.join(", "))
        };
        Error::new(
            ErrorCode::InvalidRequest,
            format!("`catalog` names no configured catalog: `{name}` ({known}) (at {pointer})"),
        )
        .at(pointer)
    }
}

/// A request's `catalog` (at `pointer`) naming a configured catalog that
/// proved malformed: the operator's configuration, refused to the caller
/// as unusable rather than as a server failure. The reason quotes the
/// operator's catalog, so it goes to the worker's log (`catalog_refused`),
/// never to the caller.
fn unusable(name: &str, pointer: &str) -> Error {
    Error::new(
        ErrorCode::UnsupportedCatalog,
        format!(
            "`catalog` names `{name}`, which is configured but malformed, so it cannot be used; \
             the worker's log says why (`catalog_refused`) (at {pointer})"
        ),
    )
    .at(pointer)
}

/// A malformed catalog document: the operator's configuration, so an
/// `internal_error`, at `pointer` in the document.
fn malformed(message: String, pointer: &str) -> Error {
    Error::new(ErrorCode::Internal, message).at(pointer)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Default limits with the example catalog shipped in `catalogs/`.
    pub(crate) fn configured() -> crate::Limits {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../catalogs/example.json"
        ))
        .unwrap();
        let (limits, refused) = crate::Limits::default().with_catalogs(&[("example.json", &text)]);
        assert!(refused.is_empty(), "{refused:?}");
        limits
    }

    /// The example catalog shipped in `catalogs/`.
    pub(crate) fn example() -> Rc<Catalog> {
        configured().catalog_named("example", "/catalog").unwrap()
    }

    #[test]
    fn the_example_catalog_is_valid_and_hashed() {
        let catalog = example();
        assert_eq!(catalog.entries().len(), 2);
        assert_eq!(catalog.hash().len(), 64);
        assert_eq!(
            catalog.entry("starRating").unwrap().stand_in,
            Widget::Integer
        );
        assert!(catalog.prompt_lines(4096).contains("\"starRating\""));
        assert_eq!(catalog.prompt_lines(10), "");
    }

    #[test]
    fn an_entry_set_by_hand_names_a_catalog_only_when_its_text_is_one_of_that_name() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../catalogs/example.json"
        ))
        .unwrap();
        let limits = crate::Limits {
            catalogs: vec![
                ("other".into(), std::sync::Arc::from(text.as_str())),
                ("broken".into(), std::sync::Arc::from("{}")),
            ],
            ..crate::Limits::default()
        };
        assert!(
            limits.catalog("other").is_none(),
            "its text names `example`"
        );
        assert!(limits.catalog("broken").is_none());
        assert!(
            limits.catalog("broken").is_none(),
            "refused again from memory"
        );
    }

    #[test]
    fn every_configured_catalog_stays_read_however_many_there_are() {
        fn send_and_share<T: Send + Sync>(_: &T) {}
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../catalogs/example.json"
        ))
        .unwrap();
        let texts: Vec<String> = (0..READ_CATALOGS + 1)
            .map(|n| text.replacen("\"name\": \"example\"", &format!("\"name\": \"c{n}\""), 1))
            .collect();
        let sources: Vec<(&str, &str)> = texts.iter().map(|t| ("c.json", t.as_str())).collect();
        let (limits, refused) = crate::Limits::default().with_catalogs(&sources);
        assert!(refused.is_empty(), "{refused:?}");
        send_and_share(&limits);
        let first = limits.catalog("c0").unwrap();
        for n in 0..=READ_CATALOGS {
            assert!(limits.catalog(&format!("c{n}")).is_some());
        }
        assert!(
            Rc::ptr_eq(&first, &limits.catalog("c0").unwrap()),
            "c0 was read again"
        );
    }

    /// `example.json` under another name, with `edit` applied.
    fn variant(name: &str, edit: impl FnOnce(&mut Value)) -> String {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../catalogs/example.json"
        ))
        .unwrap();
        let mut value: Value = serde_json::from_str(&text).unwrap();
        value["name"] = Value::String(name.into());
        edit(&mut value);
        value.to_string()
    }

    #[test]
    fn refusals_waiting_for_the_log_stay_bounded() {
        let texts: Vec<String> = (0..READ_CATALOGS * 3)
            .map(|n| {
                variant(&format!("broken{n}"), |v| {
                    v["components"][0]["fits"] = serde_json::json!({"minimum": "zero"})
                })
            })
            .collect();
        for (n, text) in texts.iter().enumerate() {
            let (limits, _) = crate::Limits::default().with_catalogs(&[("b.json", text.as_str())]);
            assert!(limits
                .catalog_named(&format!("broken{n}"), "/catalog")
                .is_err());
        }
        let waiting = crate::Limits::take_catalog_refusals();
        assert_eq!(waiting.len(), READ_CATALOGS, "the oldest are dropped");
        assert!(waiting
            .last()
            .is_some_and(|line| line.contains(&format!("`broken{}`", READ_CATALOGS * 3 - 1))));
    }

    #[test]
    fn set_up_proves_no_catalog_and_the_first_use_refuses_a_malformed_one() {
        let uncompilable = variant("uncompilable", |v| {
            v["components"][0]["fits"] = serde_json::json!({"type": "integer", "minimum": "zero"})
        });
        let sources: Vec<String> = (0..3)
            .map(|n| variant(&format!("fine{n}"), |_| ()))
            .collect();
        let mut all: Vec<(&str, &str)> =
            sources.iter().map(|t| ("fine.json", t.as_str())).collect();
        all.push(("uncompilable.json", &uncompilable));
        let (limits, refused) = crate::Limits::default().with_catalogs(&all);
        assert_eq!(refused, Vec::<String>::new(), "set-up reads names only");
        assert_eq!(
            READ.with(|read| read.borrow().len()),
            0,
            "set-up proved a catalog"
        );
        for _ in 0..2 {
            let why = limits
                .catalog_named("uncompilable", "/arguments/catalog")
                .unwrap_err();
            assert_eq!(
                (why.code(), why.http_status(), why.pointer()),
                (
                    ErrorCode::UnsupportedCatalog,
                    400,
                    Some("/arguments/catalog")
                )
            );
            // The reason quotes the operator's catalog: the log's, not the caller's.
            assert!(
                why.message().contains("`uncompilable`")
                    && !why.message().contains("starRating")
                    && !why.message().contains("zero"),
                "{why}"
            );
        }
        let refusals = crate::Limits::take_catalog_refusals();
        assert_eq!(refusals.len(), 1, "refused once per isolate");
        assert!(
            refusals[0].contains("`fits` of `starRating`"),
            "{refusals:?}"
        );
        assert!(limits.catalog_named("fine1", "/catalog").is_ok());
        assert_eq!(
            READ.with(|read| read.borrow().len()),
            2,
            "only the named ones were proven"
        );
    }

    #[test]
    fn a_name_taken_is_refused_at_set_up_whatever_the_rest_of_the_text() {
        let first = variant("same", |_| ());
        let second = variant("same", |v| v["components"] = serde_json::json!("none"));
        let (limits, refused) =
            crate::Limits::default().with_catalogs(&[("a.json", &first), ("b.json", &second)]);
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(
            refused[0].contains("b.json") && refused[0].contains("`same` is taken"),
            "{refused:?}"
        );
        assert_eq!(limits.catalogs.len(), 1);
        assert!(
            limits.catalog_named("same", "/catalog").is_ok(),
            "the first serves"
        );
    }

    #[test]
    fn malformed_catalogs_are_refused_with_the_reason() {
        let good = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../catalogs/example.json"
        ))
        .unwrap();
        let mut twice: Value = serde_json::from_str(&good).unwrap();
        let first = twice["components"][0].clone();
        twice["components"].as_array_mut().unwrap().push(first);
        let mut bad_props: Value = serde_json::from_str(&good).unwrap();
        bad_props["components"][0]["props"] = serde_json::json!({"stars": 99});
        let mut bad_fits: Value = serde_json::from_str(&good).unwrap();
        bad_fits["components"][0]["fits"] =
            serde_json::json!({"type": "integer", "minimum": "zero"});
        let mut unknown_widget: Value = serde_json::from_str(&good).unwrap();
        unknown_widget["components"][0]["standIn"] = serde_json::json!("stars");
        for (bad, expect) in [
            ("{".to_owned(), "not JSON"),
            (twice.to_string(), "listed twice"),
            (bad_props.to_string(), "/components/0"),
            (bad_fits.to_string(), "`fits` of `starRating`"),
            (unknown_widget.to_string(), "standIn"),
        ] {
            let why = Catalog::parse(&bad).unwrap_err();
            assert!(why.message().contains(expect), "{expect}: {why}");
            assert_eq!(why.code(), ErrorCode::Internal, "{why}");
        }
        let (limits, log) = crate::Limits::default()
            .with_catalogs(&[("good.json", &good), ("bad.json", r#"["name"]"#)]);
        assert_eq!(log.len(), 1);
        assert!(
            log[0].contains("bad.json") && log[0].contains("string `name`"),
            "{}",
            log[0]
        );
        assert!(
            limits.catalog_named("example", "/catalog").is_ok(),
            "the valid one still serves"
        );
        let unknown = limits.catalog_named("nope", "/catalog").unwrap_err();
        assert_eq!(
            (unknown.code(), unknown.pointer(), unknown.http_status()),
            (ErrorCode::InvalidRequest, Some("/catalog"), 400)
        );
    }
}
