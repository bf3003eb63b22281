//! Reading a form post (`application/x-www-form-urlencoded`) back into the
//! JSON data the other formats submit.
//!
//! Names are the data's JSON Pointers ([`super::form`]); each must lead
//! somewhere in the schema (a number token only into an array), else the
//! post is refused as naming an unknown field. A name may repeat only
//! where the form repeats it: an array (checkboxes of a multi-select) or a
//! boolean (a checkbox after its hidden `false`). Then:
//!
//! - an empty text is no value (a required one is reported missing);
//! - an array's rows become a list in index order, rows left blank dropped
//!   (the form's spare empty rows); a nested object left blank is dropped;
//! - the texts are coerced by the schema's types, as for an A2UI renderer
//!   ([`crate::render::a2ui::coerce`]): numbers, booleans, choices by
//!   their text, JSON text for values no native control edits.

use crate::error::{Error, ErrorCode, Result};
use crate::schema::{Kind, SchemaDoc};
use crate::terms::limits::Limits;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Names that are not fields: the hidden inputs a form may carry.
pub(crate) const META_FIELDS: [&str; 3] = ["_specHash", "_toolCallId", "_locale"];

/// Most name/value pairs one post may carry.
const MAX_PAIRS: usize = 10_000;

/// Highest array index a post may name.
const MAX_INDEX: usize = 10_000;

/// A post's field name/value pairs, in the order posted.
type FieldPairs = Vec<(String, String)>;

/// The name/value pairs of a urlencoded body, meta fields apart.
pub(crate) fn pairs(body: &[u8], limits: &Limits) -> Result<(FieldPairs, Map<String, Value>)> {
    limits.check_body_size(body.len())?;
    let mut fields = Vec::new();
    let mut meta = Map::new();
    for (name, value) in form_urlencoded::parse(body) {
        if fields.len() + meta.len() >= MAX_PAIRS {
            return Err(invalid(
                "",
                format!("the form post has more than {MAX_PAIRS} fields"),
            ));
        }
        if META_FIELDS.contains(&name.as_ref()) {
            if meta
                .insert(name.clone().into_owned(), Value::String(value.into_owned()))
                .is_some()
            {
                return Err(invalid(
                    "",
                    format!("the form field `{name}` is sent twice"),
                ));
            }
        } else {
            fields.push((name.into_owned(), value.into_owned()));
        }
    }
    Ok((fields, meta))
}

fn invalid(pointer: &str, message: String) -> Error {
    Error::new(ErrorCode::InvalidRequest, message).at(pointer.to_owned())
}

/// A posted value being assembled.
#[derive(Debug)]
enum Posted {
    /// The texts under one name (several for a multi-select or a
    /// checkbox after its hidden `false`), and the kind of its schema.
    Texts(Vec<String>, Kind),
    /// An object's fields, in the order they came.
    Object(Vec<(String, Posted)>),
    /// An array's rows by index.
    Rows(BTreeMap<usize, Posted>),
}

/// The data a form post carries, typed by `schema`.
pub(crate) fn data(schema: &Value, fields: &[(String, String)], limits: &Limits) -> Result<Value> {
    let doc = SchemaDoc::new(schema, limits);
    let mut root = Posted::Object(Vec::new());
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (name, value) in fields {
        let tokens = crate::pointer::tokens(name).filter(|_| !name.is_empty()).ok_or_else(|| {
            invalid("", format!("the form field `{}` is not a field of this form (names are JSON Pointers such as /name)", clip(name)))
        })?;
        // Each token nests one level (a recursive schema has no end).
        limits.check_built_depth(tokens.len(), name)?;
        let kind = kind_at(&doc, schema, &tokens).ok_or_else(|| {
            invalid(
                name,
                format!(
                    "the form field `{}` is not a field of this form",
                    clip(name)
                ),
            )
        })?;
        let count = seen.entry(name.as_str()).or_default();
        *count += 1;
        if *count > 1 && !matches!(kind, Kind::Array | Kind::Boolean) {
            return Err(invalid(
                name,
                format!("the form field `{}` is sent more than once", clip(name)),
            ));
        }
        insert(&mut root, &tokens, value, kind, &doc, schema)?;
    }
    let assembled = value_of(root)
        .map(|(value, _)| value)
        .unwrap_or(Value::Object(Map::new()));
    Ok(crate::render::a2ui::coerce(schema, &assembled, limits))
}

fn clip(name: &str) -> String {
    name.chars().take(80).collect()
}

/// The kind of the schema a data path leads to: a number token only into
/// an array, a name only into an object's properties.
fn kind_at(doc: &SchemaDoc<'_>, schema: &Value, tokens: &[String]) -> Option<Kind> {
    let mut node = schema;
    for token in tokens {
        let kind = doc.resolve(node).ok()?.kind().kind;
        node = match kind {
            Kind::Array => {
                token
                    .parse::<usize>()
                    .ok()
                    .filter(|i| *i <= MAX_INDEX && (token == "0" || !token.starts_with('0')))?;
                doc.resolve_scope(node, "/items")?
            }
            Kind::Object | Kind::Any | Kind::Alternatives => doc.resolve_scope(
                node,
                &format!("/properties/{}", crate::pointer::escape(token)),
            )?,
            _ => return None,
        };
    }
    Some(doc.resolve(node).ok()?.kind().kind)
}

/// Files one value into the tree at `tokens`.
fn insert(
    root: &mut Posted,
    tokens: &[String],
    value: &str,
    kind: Kind,
    doc: &SchemaDoc<'_>,
    schema: &Value,
) -> Result<()> {
    let mut cursor = root;
    let mut node = schema;
    for (depth, token) in tokens.iter().enumerate() {
        let step = if is_array(doc, node) {
            "/items".to_owned()
        } else {
            format!("/properties/{}", crate::pointer::escape(token))
        };
        node = doc.resolve_scope(node, &step).unwrap_or(node);
        let last = depth + 1 == tokens.len();
        let fresh = || match () {
            _ if last => Posted::Texts(Vec::new(), kind),
            _ if is_array(doc, node) => Posted::Rows(BTreeMap::new()),
            _ => Posted::Object(Vec::new()),
        };
        cursor = match cursor {
            Posted::Rows(rows) => rows
                .entry(token.parse::<usize>().unwrap_or_default())
                .or_insert_with(fresh),
            Posted::Object(fields) => {
                let at = match fields.iter().position(|(k, _)| k == token) {
                    Some(at) => at,
                    None => {
                        fields.push((token.clone(), fresh()));
                        fields.len() - 1
                    }
                };
                &mut fields[at].1
            }
            Posted::Texts(..) => {
                return Err(invalid(
                    "",
                    format!(
                        "the form field `{}` is inside another field's value",
                        clip(token)
                    ),
                ))
            }
        };
    }
    match cursor {
        Posted::Texts(values, _) => values.push(value.to_owned()),
        _ => {
            return Err(invalid(
                "",
                "a form field is also the parent of other fields".to_owned(),
            ))
        }
    }
    Ok(())
}

fn is_array(doc: &SchemaDoc<'_>, node: &Value) -> bool {
    doc.resolve(node)
        .map(|v| v.kind().kind == Kind::Array)
        .unwrap_or(false)
}

/// The assembled value and whether anything in it was filled in (`None`:
/// nothing at all, e.g. an empty text).
fn value_of(posted: Posted) -> Option<(Value, bool)> {
    match posted {
        // A checkbox: checked wins over its hidden `false`; unchecked is
        // `false`, but does not count as filled in (a spare row stays blank).
        Posted::Texts(values, Kind::Boolean) => match values.iter().any(|v| v == "true") {
            true => Some((Value::Bool(true), true)),
            false if values.iter().all(|v| v == "false") => Some((Value::Bool(false), false)),
            false => Some((Value::String(values.join(",")), true)),
        },
        Posted::Texts(values, _) => {
            let kept: Vec<Value> = values
                .into_iter()
                .filter(|v| !v.is_empty())
                .map(Value::String)
                .collect();
            match kept.len() {
                0 => None,
                // One text under one name: the value itself (a repeated
                // name is a list; a2ui::coerce unwraps a one-item list
                // where the schema wants a scalar, and reads a text where
                // it wants a list).
                1 => kept.into_iter().next().map(|v| (v, true)),
                _ => Some((Value::Array(kept), true)),
            }
        }
        Posted::Object(fields) => {
            let mut out = Map::new();
            let mut filled = false;
            for (name, value) in fields {
                if let Some((value, any)) = value_of(value) {
                    filled |= any;
                    out.insert(name, value);
                }
            }
            (!out.is_empty()).then_some((Value::Object(out), filled))
        }
        Posted::Rows(rows) => {
            // A row with nothing filled in is a spare empty row.
            let items: Vec<Value> = rows
                .into_values()
                .filter_map(value_of)
                .filter(|(_, any)| *any)
                .map(|(v, _)| v)
                .collect();
            let filled = !items.is_empty();
            Some((Value::Array(items), filled))
        }
    }
}
