//! Reading `output` schemas: local `$ref` lookup, merged views and field kinds.
//!
//! A [`SchemaDoc`] wraps the `output` document. [`SchemaDoc::resolve`] turns
//! one schema node into a [`Resolved`] view: `$ref` chains followed (bounded,
//! cycles rejected), the annotations beside a `$ref` (title, description,
//! default...) laid over its target, `allOf` members merged, and the nullable
//! idiom `anyOf: [X, {type: null}]` collapsed to `X`. The generator and the
//! checker read schemas only through these views, so both see the same thing.
//!
//! A view sees a `$ref` the way `@jsonforms/core` resolves a scope: a field
//! that is a `$ref` *is* its target, so other keywords beside the `$ref`
//! (`properties`, `type`, `format`, `enum`...) are not part of the field (a
//! control there would not resolve, or its widget would not fit what the
//! renderer shows; JSON Schema before 2019-09 ignores them too). The document
//! root is a scope's starting schema instead: there `@jsonforms/core` looks in
//! the target first and then in the root itself, so the root's view keeps all
//! its keywords, the target's properties first.
//!
//! [`SchemaDoc::resolve_scope`] follows a JSON Forms scope the way
//! `@jsonforms/core`'s `resolveSchema` does, so a scope we accept is one the
//! renderer can resolve.

mod annex_b;
mod embedded;
mod external;
pub(crate) mod kind;
mod opaque;
mod pattern;
mod validate;
mod walk;

pub(crate) use annex_b::{annex_b_patterns, escaped as annex_b_escaped};
pub(crate) use embedded::rebase_embedded;
pub(crate) use external::{
    encode_local_refs, external_refs_as_text, unheld_refs, without_unheld, Unheld,
};
pub(crate) use kind::{FieldKind, Kind};
pub(crate) use opaque::read_json_text;
pub(crate) use pattern::bounded;
pub(crate) use validate::check_output;
pub(crate) use validate::{compile, draft_from_name, draft_name, Draft};
pub(crate) use walk::any_key;

use crate::error::{Detail, Error, ErrorCode, Result};
use crate::terms::limits::Limits;
use serde_json::{Map, Value};

/// The `output` document, for reference lookup.
#[derive(Debug, Clone, Copy)]
pub struct SchemaDoc<'a> {
    root: &'a Value,
    max_ref_chain: usize,
}

/// A schema node with references and `allOf` merged in.
///
/// A view borrows everything from the document: keywords are (name, value)
/// pairs pointing into it, never copies. Copying made each level of a
/// nested form copy every subschema below it, which dominated generation
/// time on real-world schemas (scripts/peer.sh).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resolved<'a> {
    /// The merged keywords, first declaration wins (`properties` and
    /// `required` accumulate, in the two lists below; here they appear as
    /// their first declaration, so presence checks still work).
    pub keywords: Vec<(&'a str, &'a Value)>,
    /// The merged `properties`, first declaration of a name wins, in
    /// document order.
    pub property_list: Vec<(&'a String, &'a Value)>,
    /// Every `required` array merged into the view.
    pub required_lists: Vec<&'a Value>,
    /// The `$ref` strings followed to build this view, in order.
    pub refs: Vec<String>,
    /// Whether `null` is allowed besides the main type.
    pub nullable: bool,
}

impl<'a> Resolved<'a> {
    /// A view of one schema object's own keywords, nothing followed or
    /// merged (for tests and callers that hold a plain schema).
    pub fn from_keywords(map: &'a Map<String, Value>) -> Self {
        let mut view = Self::default();
        for (key, value) in map {
            add_keyword(&mut view, key, value);
        }
        view
    }

    /// A keyword of the merged view.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.keywords
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    /// A string keyword of the merged view.
    pub fn str(&self, key: &str) -> Option<&'a str> {
        self.get(key).and_then(Value::as_str)
    }

    /// The merged properties, borrowed from the document.
    pub fn properties(&self) -> impl Iterator<Item = (&'a String, &'a Value)> + '_ {
        self.property_list.iter().copied()
    }

    /// Whether `name` is listed in any merged `required`.
    pub fn requires(&self, name: &str) -> bool {
        self.required_lists
            .iter()
            .filter_map(|list| list.as_array())
            .any(|names| names.iter().any(|n| n.as_str() == Some(name)))
    }

    /// The merged view as one owned schema object (`properties` and
    /// `required` accumulated), for code that needs it as a `Value`, such as
    /// the conditional analysis of an array item.
    pub fn to_schema(&self) -> Map<String, Value> {
        let mut out: Map<String, Value> = self
            .keywords
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).clone()))
            .collect();
        if !self.property_list.is_empty() {
            let properties = self
                .properties()
                .map(|(name, schema)| (name.clone(), schema.clone()))
                .collect();
            out.insert("properties".into(), Value::Object(properties));
        }
        let mut required: Vec<Value> = Vec::new();
        for name in self
            .required_lists
            .iter()
            .filter_map(|list| list.as_array())
            .flatten()
        {
            if !required.contains(name) {
                required.push(name.clone());
            }
        }
        if !required.is_empty() {
            out.insert("required".into(), Value::Array(required));
        }
        out
    }

    /// Whether the view ends in a `$ref` that leaves the document (a
    /// meta-schema or an unresolvable reference): an opaque JSON value.
    pub fn is_opaque(&self) -> bool {
        self.refs.last().is_some_and(|r| external::is_external(r))
    }

    /// The field kind of this view.
    pub fn kind(&self) -> FieldKind {
        FieldKind::of(self)
    }
}

/// At most this many schemas merged into one view (guards `allOf` fan-out).
const MAX_MERGES: usize = 256;

/// The keywords beside a field's `$ref` that its view keeps: they change
/// how the field is labelled, explained or pre-filled, never what it is.
const ANNOTATIONS: [&str; 8] = [
    "title",
    "description",
    "default",
    "examples",
    "readOnly",
    "writeOnly",
    "deprecated",
    "$comment",
];

impl<'a> SchemaDoc<'a> {
    /// Wraps an `output` document.
    pub fn new(root: &'a Value, limits: &Limits) -> Self {
        Self {
            root,
            max_ref_chain: limits.max_ref_chain,
        }
    }

    /// Proves `output` a schema the worker can serve (its meta-schema, its
    /// references, its compile): the draft it was proven under and its
    /// compiled validator. `base` is the JSON Pointer of `output` in the
    /// body, for the error.
    pub fn check_output(
        output: &Value,
        base: &str,
        limits: &Limits,
    ) -> Result<(Draft, jsonschema::Validator)> {
        check_output(output, base, limits)
    }

    /// The document root.
    pub fn root(&self) -> &'a Value {
        self.root
    }

    /// The views of the field at `pointer` below `base`: its own, and its
    /// `items`' when they are a schema object (what chooses an array's
    /// widget). `None` when nothing there resolves.
    pub fn field_views(
        &self,
        base: &'a Value,
        pointer: &str,
    ) -> Option<(Resolved<'a>, Option<Resolved<'a>>)> {
        let node = self.resolve_scope(base, pointer)?;
        let view = self.resolve(node).ok()?;
        let items = self
            .resolve_scope(node, "/items")
            .filter(|n| n.is_object())
            .and_then(|n| self.resolve(n).ok());
        Some((view, items))
    }

    /// Finds the target of a local reference: `#`, `#/json/pointer`
    /// (percent-decoded) or `#anchor` (`$anchor`, `$dynamicAnchor`, or a fragment-only `$id`/`id`).
    pub fn lookup(&self, reference: &str) -> Option<&'a Value> {
        let fragment = reference.strip_prefix('#')?;
        let fragment = percent_encoding::percent_decode_str(fragment)
            .decode_utf8()
            .ok()?;
        if fragment.is_empty() || fragment.starts_with('/') {
            return self.root.pointer(&fragment);
        }
        find_anchor(self.root, &fragment)
    }

    /// Resolves one schema node into a merged view.
    pub fn resolve(&self, node: &'a Value) -> Result<Resolved<'a>> {
        let mut view = Resolved::default();
        let mut merges = 0;
        let start = std::ptr::eq(node, self.root);
        self.merge_into(node, &mut view, &mut merges, 0, start)?;
        if let Some(Value::Array(types)) = view.get("type") {
            view.nullable |= types.iter().any(|t| t == "null");
        }
        Ok(view)
    }

    /// Merges `node` into `view`. `start`: `node` is the document root (see
    /// the module documentation for what changes).
    fn merge_into(
        &self,
        node: &'a Value,
        view: &mut Resolved<'a>,
        merges: &mut usize,
        hops: usize,
        start: bool,
    ) -> Result<()> {
        *merges += 1;
        if *merges > MAX_MERGES {
            return Err(Error::new(
                ErrorCode::SchemaTooLarge,
                "a schema merges too many `allOf`/`$ref` members",
            ));
        }
        let Value::Object(map) = node else {
            return Ok(());
        };
        let has_ref = map.get("$ref").is_some_and(Value::is_string);
        // A field's `$ref` replaces it: beside it, only annotations count.
        let annotations_only = has_ref && !start;
        // At the root, the target's properties come first (and win).
        let own_properties_after_ref = has_ref && start;
        let mut nullable_of = None;
        for key in ["anyOf", "oneOf"] {
            if let Some(member) = map
                .get(key)
                .and_then(Value::as_array)
                .and_then(|m| nullable_member(m))
            {
                nullable_of = Some((key, member)).filter(|_| !annotations_only);
            }
        }
        for (key, value) in map {
            let collapsed = nullable_of.is_some_and(|(k, _)| k == key);
            let skipped = (annotations_only && !ANNOTATIONS.contains(&key.as_str()))
                || (own_properties_after_ref && key == "properties");
            if key != "$ref" && key != "allOf" && !collapsed && !is_ref_container(key) && !skipped {
                add_keyword(view, key, value);
            }
        }
        if let Some((_, member)) = nullable_of {
            view.nullable = true;
            self.merge_into(member, view, merges, hops, false)?;
        }
        if let Some(reference) = map
            .get("$ref")
            .and_then(Value::as_str)
            .filter(|r| external::is_external(r))
        {
            // Nothing is fetched: the field is an opaque JSON value
            // (schema/external.rs), kept with its annotations.
            view.refs.push(reference.to_owned());
        } else if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            if hops >= self.max_ref_chain || view.refs.iter().any(|r| r == reference) {
                return Err(Error::new(
                    ErrorCode::UnresolvedRef,
                    format!("`$ref` \"{reference}\" is part of a reference cycle or a chain longer than {}", self.max_ref_chain),
                )
                .with(Detail::Ref(reference.to_owned())));
            }
            let target = self
                .lookup(reference)
                .ok_or_else(|| unresolved(reference))?;
            view.refs.push(reference.to_owned());
            self.merge_into(target, view, merges, hops + 1, false)?;
        }
        if let (true, Some(properties)) = (own_properties_after_ref, map.get("properties")) {
            add_keyword(view, "properties", properties);
        }
        if annotations_only {
            return Ok(());
        }
        if let Some(Value::Array(members)) = map.get("allOf") {
            for member in members {
                self.merge_into(member, view, merges, hops, false)?;
            }
        }
        Ok(())
    }

    /// Whether `node` lists `name` in `required`, counting what
    /// [`SchemaDoc::resolve`] would merge in (`$ref` targets, `allOf`
    /// members, the non-null member of a nullable `anyOf`/`oneOf`), without
    /// building the merged view: renderers ask this once per field, and
    /// merging a large parent each time made them quadratic.
    pub fn node_requires(&self, node: &'a Value, name: &str) -> bool {
        let mut budget = MAX_MERGES;
        self.requires_within(node, name, &mut budget, 0, std::ptr::eq(node, self.root))
    }

    fn requires_within(
        &self,
        node: &'a Value,
        name: &str,
        budget: &mut usize,
        hops: usize,
        start: bool,
    ) -> bool {
        let Value::Object(map) = node else {
            return false;
        };
        if *budget == 0 || hops > self.max_ref_chain {
            return false;
        }
        *budget -= 1;
        let target = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| self.lookup(r));
        if map.get("$ref").is_some_and(Value::is_string) && !start {
            // A field's `$ref` replaces it (see `merge_into`).
            return target
                .is_some_and(|target| self.requires_within(target, name, budget, hops + 1, false));
        }
        let listed = map.get("required").and_then(Value::as_array);
        if listed.is_some_and(|names| names.iter().any(|n| n.as_str() == Some(name))) {
            return true;
        }
        let nullable = ["anyOf", "oneOf"]
            .iter()
            .filter_map(|key| map.get(*key)?.as_array())
            .find_map(|m| nullable_member(m));
        let members = map
            .get("allOf")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        nullable.is_some_and(|member| self.requires_within(member, name, budget, hops, false))
            || target
                .is_some_and(|target| self.requires_within(target, name, budget, hops + 1, false))
            || members
                .iter()
                .any(|member| self.requires_within(member, name, budget, hops, false))
    }

    /// Follows a JSON Forms scope (a schema pointer such as
    /// `/properties/a/properties/b`) from `start`, as `@jsonforms/core`
    /// (3.x `resolveSchema`) does: a node reached through a `$ref` is the
    /// target alone, and a `properties`/`items` step that fails directly is
    /// retried inside `oneOf`/`allOf`/`anyOf`/`then`/`else` (and dependent
    /// schemas, which the JSON Forms projection mirrors). A `start` with
    /// a `$ref` is searched in its target first, then in itself (the
    /// keywords beside its `$ref`).
    pub fn resolve_scope(&self, start: &'a Value, pointer: &str) -> Option<&'a Value> {
        let tokens = crate::pointer::tokens(pointer)?;
        let beside_ref = || {
            start
                .get("$ref")
                .is_some()
                .then(|| self.walk_steps(start, &tokens, 0))
                .flatten()
        };
        self.walk_scope(start, &tokens, 0).or_else(beside_ref)
    }

    fn walk_scope(&self, node: &'a Value, tokens: &[String], hops: usize) -> Option<&'a Value> {
        if hops > self.max_ref_chain * 4 {
            return None;
        }
        let node = match node.get("$ref").and_then(Value::as_str) {
            // An external `$ref` is an opaque value: the node is the field.
            Some(reference) if !external::is_external(reference) => self.follow_refs(reference)?,
            _ => node,
        };
        self.walk_steps(node, tokens, hops)
    }

    /// One step of [`SchemaDoc::walk_scope`] from `node` as it is.
    fn walk_steps(&self, node: &'a Value, tokens: &[String], hops: usize) -> Option<&'a Value> {
        let Some((first, rest)) = tokens.split_first() else {
            return Some(node);
        };
        let direct = match node {
            Value::Object(map) => map.get(first.as_str()),
            Value::Array(items) => first.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        if let Some(found) = direct.and_then(|child| self.walk_scope(child, rest, hops + 1)) {
            return Some(found);
        }
        if first != "properties" && first != "items" {
            return None;
        }
        // Dependent schemas are not searched by @jsonforms/core itself: the
        // JSON Forms copy of the schema mirrors them into `allOf` (see
        // `render::renderable::mirror`), so what resolves here does there.
        let dependent = ["dependentSchemas", "dependencies"]
            .iter()
            .filter_map(|key| node.get(*key).and_then(Value::as_object))
            .flat_map(|map| map.values().filter(|v| v.is_object()));
        ["oneOf", "allOf", "anyOf", "then", "else"]
            .iter()
            .filter_map(|key| node.get(*key))
            .flat_map(|sub| match sub {
                Value::Array(items) => items.iter().collect::<Vec<_>>(),
                other => vec![other],
            })
            .chain(dependent)
            .find_map(|sub| self.walk_scope(sub, tokens, hops + 1))
    }

    fn follow_refs(&self, reference: &'a str) -> Option<&'a Value> {
        let mut reference = reference;
        for _ in 0..self.max_ref_chain {
            let node = self.lookup(reference)?;
            match node.get("$ref").and_then(Value::as_str) {
                Some(next) if !external::is_external(next) => reference = next,
                _ => return Some(node),
            }
        }
        None
    }
}

pub(crate) fn unresolved(reference: &str) -> Error {
    let why = if reference.starts_with('#') {
        "points to nothing in the document"
    } else {
        "is not a local reference (only `#...` references inside `output` are resolved; nothing is fetched)"
    };
    Error::new(
        ErrorCode::UnresolvedRef,
        format!("`$ref` \"{reference}\" {why}"),
    )
    .with(Detail::Ref(reference.to_owned()))
}

/// `definitions`/`$defs` only hold targets for `$ref`, which [`SchemaDoc::lookup`]
/// finds from the document root; no view reads them. Copying them into every
/// view that merges the root (or a schema carrying its own definitions) made
/// generation cost the size of the whole document per field.
fn is_ref_container(key: &str) -> bool {
    key == "definitions" || key == "$defs"
}

/// Adds one keyword to a view: first declaration wins, except that
/// `properties` (first declaration of a name wins) and `required`
/// accumulate.
fn add_keyword<'a>(view: &mut Resolved<'a>, key: &'a str, value: &'a Value) {
    match (key, value) {
        ("properties", Value::Object(more)) => merge_properties(view, more),
        ("required", _) => view.required_lists.push(value),
        _ => {}
    }
    if view.get(key).is_none() {
        view.keywords.push((key, value));
    }
}

fn merge_properties<'a>(view: &mut Resolved<'a>, more: &'a Map<String, Value>) {
    if view.property_list.is_empty() {
        view.property_list.extend(more.iter()); // one map: names are already unique
        return;
    }
    let known: std::collections::HashSet<&str> = view
        .property_list
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    let added: Vec<_> = more
        .iter()
        .filter(|(name, _)| !known.contains(name.as_str()))
        .collect();
    view.property_list.extend(added);
}

/// `anyOf`/`oneOf` with exactly two members, one of them `{type: null}`, is
/// the usual encoding of an optional field (pydantic, zod): returns the other.
fn nullable_member(members: &[Value]) -> Option<&Value> {
    let is_null = |m: &Value| m.get("type").and_then(Value::as_str) == Some("null");
    match members {
        [a, b] if is_null(b) && !is_null(a) => Some(a),
        [a, b] if is_null(a) && !is_null(b) => Some(b),
        _ => None,
    }
}

fn find_anchor<'a>(node: &'a Value, name: &str) -> Option<&'a Value> {
    match node {
        Value::Object(map) => {
            // `$anchor`, 2020-12's `$dynamicAnchor` (also a plain anchor),
            // and the fragment-only `$id` (drafts 6-7) or `id` (draft-04).
            let named = ["$anchor", "$dynamicAnchor"]
                .iter()
                .any(|key| map.get(*key).and_then(Value::as_str) == Some(name))
                || ["$id", "id"].iter().any(|key| {
                    map.get(*key)
                        .and_then(Value::as_str)
                        .and_then(|id| id.strip_prefix('#'))
                        == Some(name)
                });
            if named {
                return Some(node);
            }
            map.values().find_map(|child| find_anchor(child, name))
        }
        Value::Array(items) => items.iter().find_map(|child| find_anchor(child, name)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(v: &Value) -> SchemaDoc<'_> {
        SchemaDoc::new(v, &Limits::default())
    }

    #[test]
    fn ref_siblings_override_target() {
        let root = json!({"$defs": {"a": {"type": "string", "title": "A"}}, "properties": {"x": {"$ref": "#/$defs/a", "title": "X"}}});
        let view = doc(&root).resolve(&root["properties"]["x"]).unwrap();
        assert_eq!(view.str("title"), Some("X"));
        assert_eq!(view.str("type"), Some("string"));
        assert_eq!(view.refs, vec!["#/$defs/a"]);
    }

    #[test]
    fn a_ref_field_keeps_only_annotations_beside_it() {
        let root = json!({
            "definitions": {"named": {"properties": {"name": {}}}, "text": {"type": "string"}},
            "properties": {
                "items": {"$ref": "#/definitions/named", "properties": {"extra": {}}, "required": ["extra"], "description": "D"},
                "stamp": {"$ref": "#/definitions/text", "format": "date-time", "enum": ["a"], "default": "a"}
            }
        });
        let d = doc(&root);
        let items = d.resolve(&root["properties"]["items"]).unwrap();
        assert_eq!(
            items
                .properties()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>(),
            ["name"]
        );
        assert!(
            !items.requires("extra") && !d.node_requires(&root["properties"]["items"], "extra")
        );
        assert_eq!(items.str("description"), Some("D"));
        let stamp = d.resolve(&root["properties"]["stamp"]).unwrap();
        assert_eq!(
            (stamp.str("format"), stamp.get("enum"), stamp.str("default")),
            (None, None, Some("a"))
        );
        // What JSON Forms resolves, the checker resolves: the target alone.
        assert!(d
            .resolve_scope(&root, "/properties/items/properties/extra")
            .is_none());
        assert!(d
            .resolve_scope(&root, "/properties/items/properties/name")
            .is_some());
    }

    #[test]
    fn the_root_keeps_its_own_keywords_beside_its_ref() {
        let root = json!({
            "$ref": "#/$defs/base", "required": ["own"],
            "properties": {"own": {"type": "string"}, "both": {"type": "integer"}},
            "$defs": {"base": {"properties": {"both": {"type": "string"}, "ignore": {}}}}
        });
        let d = doc(&root);
        let view = d.resolve(&root).unwrap();
        let names: Vec<&str> = view.properties().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["both", "ignore", "own"]);
        assert!(view.requires("own") && d.node_requires(&root, "own"));
        // As @jsonforms/core: the target first, then the root itself.
        assert_eq!(
            d.resolve_scope(&root, "/properties/both").unwrap()["type"],
            "string"
        );
        assert_eq!(
            d.resolve_scope(&root, "/properties/own").unwrap()["type"],
            "string"
        );
        assert!(d.resolve_scope(&root, "/properties/ignore").is_some());
    }

    #[test]
    fn all_of_merges_properties_and_required() {
        let root = json!({"allOf": [
            {"type": "object", "properties": {"a": {}}, "required": ["a"]},
            {"properties": {"b": {}}, "required": ["b"]}
        ]});
        let view = doc(&root).resolve(&root).unwrap();
        assert_eq!(view.properties().count(), 2);
        assert!(view.requires("a") && view.requires("b"));
    }

    #[test]
    fn node_requires_agrees_with_the_merged_view() {
        let root = json!({
            "$defs": {"base": {"required": ["c"]}, "loop": {"$ref": "#/$defs/loop"}},
            "allOf": [{"properties": {"a": {}}, "required": ["a"]}, {"$ref": "#/$defs/base"}],
            "anyOf": [{"required": ["d"]}, {"type": "null"}],
            "properties": {"x": {"$ref": "#/$defs/loop"}}
        });
        let doc = doc(&root);
        let view = doc.resolve(&root).unwrap();
        for name in ["a", "c", "d", "e"] {
            assert_eq!(
                doc.node_requires(&root, name),
                view.requires(name),
                "{name}"
            );
        }
        assert!(
            !doc.node_requires(&root["properties"]["x"], "a"),
            "a $ref cycle ends, unrequired"
        );
    }

    #[test]
    fn cycles_and_dangling_refs_are_errors() {
        let root = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}});
        let e = doc(&root).resolve(&root["properties"]["x"]).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnresolvedRef);
        let root = json!({"properties": {"x": {"$ref": "#/$defs/none"}}});
        assert_eq!(
            doc(&root)
                .resolve(&root["properties"]["x"])
                .unwrap_err()
                .code(),
            ErrorCode::UnresolvedRef
        );
    }

    #[test]
    fn nullable_any_of_collapses() {
        let root = json!({"$defs": {"Addr": {"type": "object", "properties": {"c": {}}}},
            "properties": {"x": {"anyOf": [{"$ref": "#/$defs/Addr"}, {"type": "null"}], "title": "Home"}}});
        let view = doc(&root).resolve(&root["properties"]["x"]).unwrap();
        assert!(view.nullable);
        assert_eq!(view.str("title"), Some("Home"));
        assert_eq!(view.str("type"), Some("object"));
        assert_eq!(view.refs, vec!["#/$defs/Addr"]);
    }

    #[test]
    fn anchors_and_percent_encoding() {
        let root = json!({"$defs": {"a b": {"$anchor": "thing", "type": "integer"}}});
        assert_eq!(doc(&root).lookup("#thing").unwrap()["type"], "integer");
        assert_eq!(
            doc(&root).lookup("#/$defs/a%20b").unwrap()["type"],
            "integer"
        );
        assert!(doc(&root).lookup("https://x/y").is_none());
    }

    #[test]
    fn scope_resolution_follows_refs_and_combinators() {
        let root = json!({
            "$defs": {"addr": {"properties": {"city": {"type": "string"}}}},
            "properties": {"home": {"$ref": "#/$defs/addr"}},
            "allOf": [{"properties": {"extra": {"type": "integer"}}}]
        });
        let d = doc(&root);
        assert_eq!(
            d.resolve_scope(&root, "/properties/home/properties/city")
                .unwrap()["type"],
            "string"
        );
        assert_eq!(
            d.resolve_scope(&root, "/properties/extra").unwrap()["type"],
            "integer"
        );
        assert!(d.resolve_scope(&root, "/properties/nope").is_none());
    }
}
