//! What the `output` schema's own conditionals say about its fields: which
//! fields a condition names, discriminated `oneOf`s and their choices, and
//! the kind of field a control edits. The generator derives rules from this
//! ([`crate::plan::generate`]'s `rules`), and the checker and the format
//! compilers read it; it depends only on the plan types and schema views.
//!
//! A field that only matters under a condition is shown only then. The
//! conditions come from the schema, never from a model, so [`derive`] runs on
//! every plan (deterministic and model) and the checker proves the result:
//!
//! | schema (on an object)                          | field `f`                      | rule on `f`                            |
//! |------------------------------------------------|--------------------------------|----------------------------------------|
//! | `if: C, then: T` (also inside `allOf`)         | named in `T` only              | SHOW when the object matches `C`       |
//! | `if: C, else: E`                               | named in `E` only              | HIDE when the object matches `C`       |
//! | `dependentRequired: {a: [f]}`, `dependencies: {a: [f]}` | listed                | SHOW when `a` is present               |
//! | `dependentSchemas: {a: S}`, `dependencies: {a: S}` | named in `S`               | SHOW when `a` is present               |
//! | `oneOf` of objects with a `const` property `d` | in some branches only          | SHOW when `d` is one of their values   |
//!
//! "Named" means declared in `properties` or listed in `required`. A field
//! the object requires unconditionally never gets a rule: it must always be
//! fillable. A field with several conditions is shown when any holds.
//!
//! Conditions are JSON Forms schema conditions. They read the whole object
//! (pointer of the object, the `if` schema as written: exact JSON Schema
//! semantics), simplified to the one field they test when that is
//! equivalent: `{properties: {x: S}, required: [x]}` becomes "`x` matches
//! `S`". Conditions with a `$ref` cannot be evaluated on their own and are
//! skipped (the field then shows always, which is safe).

use crate::plan::{Effect, Rule};
use crate::pointer;
use crate::schema::{FieldKind, Resolved, SchemaDoc};
use serde_json::{json, Value};

/// How deep `$ref`/`allOf` chains are followed when collecting conditionals.
const MAX_COLLECT_DEPTH: usize = 16;

/// One conditional of an object schema.
#[derive(Debug, Clone)]
enum Conditional {
    /// `if`/`then`/`else`: the names each branch mentions.
    IfThen {
        condition: Value,
        then: Vec<String>,
        otherwise: Vec<String>,
    },
    /// The fields a trigger property brings with it (`dependentRequired`,
    /// `dependentSchemas`, draft-07 `dependencies`).
    Dependent {
        trigger: String,
        fields: Vec<String>,
    },
}

/// The names a branch schema mentions (declared or required), and those it
/// requires.
#[derive(Debug, Clone, Default)]
struct Mentions {
    names: Vec<String>,
    required: Vec<String>,
}

/// A `oneOf`/`anyOf` of object branches told apart by a `const` property.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Discriminator {
    /// The property that tells branches apart.
    pub name: String,
    /// Its title (from the first branch that has one).
    pub title: Option<String>,
    /// Per branch: the discriminator value, the branch title, the names the
    /// branch declares, and those it requires.
    pub branches: Vec<Branch>,
}

/// One branch of a [`Discriminator`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Branch {
    /// The branch's `const` discriminator value.
    pub value: Value,
    /// The branch's `title`.
    pub title: Option<String>,
    /// Declared properties, in order, with their schemas.
    pub properties: Vec<(String, Value)>,
    /// The names the branch requires.
    pub required: Vec<String>,
}

impl Discriminator {
    /// The discriminator's choices, `(value, title)`, in branch order.
    pub(crate) fn choices(&self) -> Vec<(Value, Option<String>)> {
        self.branches
            .iter()
            .map(|b| (b.value.clone(), b.title.clone()))
            .collect()
    }

    /// Every branch property except the discriminator, first declaration wins.
    pub(crate) fn fields(&self) -> Vec<(String, Value)> {
        let mut out: Vec<(String, Value)> = Vec::new();
        for (name, schema) in self.branches.iter().flat_map(|b| &b.properties) {
            if *name != self.name && !out.iter().any(|(n, _)| n == name) {
                out.push((name.clone(), schema.clone()));
            }
        }
        out
    }

    /// The discriminator values of the branches that declare `field`.
    fn values_with(&self, field: &str) -> Vec<Value> {
        self.branches
            .iter()
            .filter(|b| b.properties.iter().any(|(n, _)| n == field))
            .map(|b| b.value.clone())
            .collect()
    }
}

/// Everything conditional about one object schema.
#[derive(Debug, Clone, Default)]
pub(crate) struct Analysis {
    conditionals: Vec<Conditional>,
    /// Names some branch requires (then/else, dependents).
    conditionally_required: Vec<String>,
    /// Properties declared only inside a conditional branch (then/else,
    /// dependent schemas), with their schemas, in first-seen order.
    branch_properties: Vec<(String, Value)>,
    /// The object's discriminated `oneOf`, if any.
    pub discriminator: Option<Discriminator>,
}

impl Analysis {
    /// Reads the conditionals of the object schema `node`.
    pub(crate) fn of(doc: &SchemaDoc<'_>, node: &Value) -> Self {
        let mut analysis = Analysis::default();
        analysis.collect(doc, node, 0);
        analysis.discriminator = discriminator(doc, node);
        analysis
    }

    /// Properties declared only in conditional branches (not in `declared`),
    /// which a form must still offer: `then`/`else` and dependent schemas.
    pub(crate) fn extra_properties(&self, declared: &Resolved) -> Vec<(String, Value)> {
        let has = |name: &str| declared.properties().any(|(n, _)| n == name);
        self.branch_properties
            .iter()
            .filter(|(n, _)| !has(n))
            .cloned()
            .collect()
    }

    /// Names required under some condition (a branch, a dependency, a
    /// discriminated branch) that the object or a branch declares: a form
    /// must offer them, or the user could not satisfy the condition.
    pub(crate) fn required_names(&self, declared: &Resolved) -> Vec<String> {
        let mut names: Vec<String> = self.conditionally_required.clone();
        if let Some(d) = &self.discriminator {
            names.extend(d.branches.iter().flat_map(|b| b.required.iter().cloned()));
        }
        let is_declared = |name: &str| {
            declared.properties().any(|(n, _)| n == name)
                || self.branch_properties.iter().any(|(n, _)| n == name)
                || self
                    .discriminator
                    .as_ref()
                    .is_some_and(|d| d.name == name || d.fields().iter().any(|(n, _)| n == name))
        };
        let mut out: Vec<String> = Vec::new();
        for name in names {
            if is_declared(&name) && !out.contains(&name) {
                out.push(name);
            }
        }
        out
    }

    fn collect(&mut self, doc: &SchemaDoc<'_>, node: &Value, depth: usize) {
        let Value::Object(map) = node else { return };
        if depth > MAX_COLLECT_DEPTH {
            return;
        }
        if let Some(target) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| doc.lookup(r))
        {
            self.collect(doc, target, depth + 1);
        }
        if let Some(condition) = map.get("if").filter(|c| c.is_object()) {
            let then = self.branch(doc, map.get("then"));
            let otherwise = self.branch(doc, map.get("else"));
            self.conditionally_required
                .extend(then.required.iter().chain(&otherwise.required).cloned());
            self.conditionals.push(Conditional::IfThen {
                condition: condition.clone(),
                then: then.names,
                otherwise: otherwise.names,
            });
        }
        for key in ["dependentRequired", "dependentSchemas", "dependencies"] {
            for (trigger, value) in map
                .get(key)
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let mentions = match value {
                    Value::Array(names) => {
                        let names: Vec<String> = names
                            .iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect();
                        Mentions {
                            names: names.clone(),
                            required: names,
                        }
                    }
                    schema @ Value::Object(_) => self.branch(doc, Some(schema)),
                    _ => continue,
                };
                self.conditionally_required.extend(mentions.required);
                self.conditionals.push(Conditional::Dependent {
                    trigger: trigger.clone(),
                    fields: mentions.names,
                });
            }
        }
        for member in map
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.collect(doc, member, depth + 1);
        }
    }

    /// What a branch schema mentions; remembers its declarations.
    fn branch(&mut self, doc: &SchemaDoc<'_>, schema: Option<&Value>) -> Mentions {
        let Some(view) = schema.and_then(|s| doc.resolve(s).ok()) else {
            return Mentions::default();
        };
        let mut names = Vec::new();
        for (name, property) in view.properties() {
            names.push(name.clone());
            if !self.branch_properties.iter().any(|(n, _)| n == name) {
                self.branch_properties
                    .push((name.clone(), property.clone()));
            }
        }
        let required: Vec<String> = required_of(&view);
        for name in &required {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        Mentions { names, required }
    }

    /// The rule for field `name` of this object, whose schema path is
    /// `object` and merged view `view`; `None` when it always shows.
    pub(crate) fn rule_for(&self, name: &str, object: &str, view: &Resolved) -> Option<Rule> {
        if view.requires(name) {
            return None;
        }
        let mut found: Vec<(Effect, Value)> = Vec::new();
        for conditional in &self.conditionals {
            match conditional {
                // A field never hides behind a condition on itself.
                Conditional::IfThen { condition, .. }
                    if condition
                        .get("properties")
                        .and_then(|p| p.get(name))
                        .is_some() => {}
                Conditional::IfThen {
                    condition,
                    then,
                    otherwise,
                } => {
                    let (in_then, in_else) = (
                        then.iter().any(|n| n == name),
                        otherwise.iter().any(|n| n == name),
                    );
                    if in_then != in_else {
                        found.push((
                            if in_then { Effect::Show } else { Effect::Hide },
                            condition.clone(),
                        ));
                    }
                }
                Conditional::Dependent { trigger, fields }
                    if trigger != name && fields.iter().any(|f| f == name) =>
                {
                    found.push((
                        Effect::Show,
                        json!({"type": "object", "required": [trigger]}),
                    ));
                }
                Conditional::Dependent { .. } => {}
            }
        }
        if let Some(d) = &self.discriminator {
            let values = d.values_with(name);
            if d.name != name && !values.is_empty() && values.len() < d.branches.len() {
                let allowed = if values.len() == 1 {
                    json!({"const": values[0]})
                } else {
                    json!({"enum": values})
                };
                found.push((Effect::Show, json!({"type": "object", "required": [d.name], "properties": {(d.name.clone()): allowed}})));
            }
        }
        found.retain(|(_, condition)| !has_ref(condition));
        let (effect, condition) = combine(found)?;
        Some(simplify(effect, condition, object, view, |field| {
            self.declares(field, view)
        }))
    }

    /// Whether the object has `field` where a scope can find it: its own
    /// properties, a branch's, or the discriminator (which the JSON Forms
    /// copy declares).
    fn declares(&self, field: &str, view: &Resolved) -> bool {
        view.properties().any(|(name, _)| name == field)
            || self.branch_properties.iter().any(|(name, _)| name == field)
            || self.discriminator.as_ref().is_some_and(|d| d.name == field)
    }
}

/// One rule from several conditions: shown when any makes the field relevant.
fn combine(mut found: Vec<(Effect, Value)>) -> Option<(Effect, Value)> {
    if found.len() <= 1 {
        return found.pop();
    }
    let shows: Vec<Value> = found
        .into_iter()
        .map(|(effect, condition)| {
            if effect == Effect::Show {
                condition
            } else {
                json!({"not": condition})
            }
        })
        .collect();
    Some((Effect::Show, json!({"anyOf": shows})))
}

/// Reads one field instead of the whole object when that is equivalent:
/// the condition tests one property, which it (or the object) requires and
/// `declares` (a scope must resolve; a property named only inside `if` has
/// no control to read).
fn simplify(
    effect: Effect,
    condition: Value,
    object: &str,
    view: &Resolved,
    declares: impl Fn(&str) -> bool,
) -> Rule {
    let whole = |condition: Value| Rule {
        effect,
        pointer: object.to_owned(),
        schema: condition,
    };
    let Value::Object(map) = &condition else {
        return whole(condition);
    };
    let only_known = map.iter().all(|(k, v)| match k.as_str() {
        "properties" | "required" => true,
        "type" => v == "object",
        _ => false,
    });
    let Some((field, schema)) = map
        .get("properties")
        .and_then(Value::as_object)
        .filter(|p| p.len() == 1)
        .and_then(|p| p.iter().next())
    else {
        return whole(condition);
    };
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let present = declares(field) && (required.contains(&field.as_str()) || view.requires(field));
    if only_known && present && required.iter().all(|r| r == field) {
        return Rule {
            effect,
            pointer: pointer::property(object, field),
            schema: schema.clone(),
        };
    }
    whole(condition)
}

fn has_ref(value: &Value) -> bool {
    crate::schema::any_key(value, &["$ref", "$dynamicRef"])
}

/// The discriminated `oneOf` (or `anyOf`) of an object schema: every branch
/// an object whose property `d` is a single value (`const`, or a
/// one-value `enum`), the values all different.
pub(crate) fn discriminator(doc: &SchemaDoc<'_>, node: &Value) -> Option<Discriminator> {
    let node = match node.get("$ref").and_then(Value::as_str) {
        Some(reference) => doc.lookup(reference)?,
        None => node,
    };
    let members = ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| node.get(*k).and_then(Value::as_array))?;
    if members.len() < 2 {
        return None;
    }
    let views: Vec<Resolved> = members
        .iter()
        .map(|m| doc.resolve(m).ok())
        .collect::<Option<_>>()?;
    let first = views.first()?;
    let name = first
        .properties()
        .map(|(n, _)| n.clone())
        .find(|n| views.iter().all(|v| single_value(doc, v, n).is_some()))?;
    let mut branches: Vec<Branch> = Vec::new();
    for view in &views {
        let value = single_value(doc, view, &name)?;
        if branches.iter().any(|b| b.value == value) {
            return None;
        }
        let properties = view
            .properties()
            .map(|(n, s)| (n.clone(), s.clone()))
            .collect();
        branches.push(Branch {
            value,
            title: view.str("title").map(str::to_owned),
            properties,
            required: required_of(view),
        });
    }
    let title = views.iter().find_map(|v| {
        let property = v.get("properties")?.get(&name)?;
        doc.resolve(property).ok()?.str("title").map(str::to_owned)
    });
    Some(Discriminator {
        name,
        title,
        branches,
    })
}

fn required_of(view: &Resolved) -> Vec<String> {
    view.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

fn single_value(doc: &SchemaDoc<'_>, view: &Resolved, name: &str) -> Option<Value> {
    let property = doc.resolve(view.get("properties")?.get(name)?).ok()?;
    if let Some(value) = property.get("const") {
        return Some(value.clone());
    }
    match property
        .get("enum")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([only]) => Some(only.clone()),
        _ => None,
    }
}

/// The choices of a discriminator control: `pointer` (relative to `base`)
/// names the discriminator property of a discriminated `oneOf`.
pub(crate) fn discriminator_choices(
    doc: &SchemaDoc<'_>,
    base: &Value,
    pointer: &str,
) -> Option<Vec<(Value, Option<String>)>> {
    let (parent, name) = pointer.rsplit_once("/properties/")?;
    let object = doc.resolve_scope(base, parent)?;
    // The generator finds a field's discriminator in its merged view (behind
    // `allOf` members and `$ref` chains), an object's in its own `oneOf`:
    // the checker accepts either, so it sees every choice the generator offers.
    // An object with properties of its own has none in a merged view
    // either ([`view_discriminator`]): skip merging it, which for an object
    // of 5,000 properties, asked once per field, was the checker's cost.
    let own_properties = object
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty());
    let found = discriminator(doc, object).or_else(|| {
        (!own_properties)
            .then(|| view_discriminator(doc, &doc.resolve(object).ok()?))
            .flatten()
    })?;
    (found.name == pointer::unescape(name)).then(|| found.choices())
}

/// The discriminated `oneOf` of a field's merged view (its `$ref`s and
/// `allOf` members followed), if it has one.
pub(crate) fn view_discriminator(doc: &SchemaDoc<'_>, view: &Resolved) -> Option<Discriminator> {
    // Most fields have no `oneOf`/`anyOf`: skip the owned copy of their view.
    if view.properties().next().is_some()
        || (view.get("oneOf").is_none() && view.get("anyOf").is_none())
    {
        return None;
    }
    discriminator(doc, &Value::Object(view.to_schema()))
}

/// The kind of the field a control at `pointer` (relative to `base`) edits:
/// the view's own, except that a discriminator offers every branch's value.
pub(crate) fn control_kind(
    doc: &SchemaDoc<'_>,
    base: &Value,
    pointer: &str,
    view: &Resolved,
) -> crate::schema::FieldKind {
    let mut kind = view.kind();
    if let Some(choices) = discriminator_choices(doc, base, pointer) {
        kind.choices = Some(choices);
    }
    kind
}

impl SchemaDoc<'_> {
    /// The kind of the field a control at `pointer` (below `base`, its
    /// `view` resolved) edits, as the generator and the checker see it
    /// ([`control_kind`]).
    pub fn control_kind(&self, base: &Value, pointer: &str, view: &Resolved) -> FieldKind {
        control_kind(self, base, pointer, view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::limits::Limits;

    fn rule(output: &Value, object: &str, name: &str) -> Option<Rule> {
        let limits = Limits::default();
        let doc = SchemaDoc::new(output, &limits);
        let node = doc.resolve_scope(output, object).unwrap();
        Analysis::of(&doc, node).rule_for(name, object, &doc.resolve(node).unwrap())
    }

    #[test]
    fn if_then_else_shows_and_hides() {
        let output = json!({"type": "object", "required": ["country"],
            "properties": {"country": {"enum": ["US", "DE"]}, "state": {"type": "string"}, "plz": {"type": "string"}},
            "if": {"properties": {"country": {"const": "US"}}},
            "then": {"required": ["state"]}, "else": {"required": ["plz"]}});
        let state = rule(&output, "", "state").unwrap();
        assert_eq!(
            (state.effect, state.pointer.as_str(), &state.schema),
            (Effect::Show, "/properties/country", &json!({"const": "US"}))
        );
        assert_eq!(rule(&output, "", "plz").unwrap().effect, Effect::Hide);
        assert_eq!(rule(&output, "", "country"), None);
    }

    #[test]
    fn unsimplifiable_conditions_read_the_object() {
        let output = json!({"type": "object", "properties": {"a": {}, "b": {}},
            "allOf": [{"if": {"properties": {"a": {"const": 1}}}, "then": {"required": ["b"]}}]});
        let b = rule(&output, "", "b").unwrap();
        assert_eq!(
            (
                b.pointer.as_str(),
                b.schema["properties"]["a"]["const"].clone()
            ),
            ("", json!(1))
        );
    }

    #[test]
    fn dependencies_show_when_the_trigger_is_present() {
        let output = json!({"type": "object", "properties": {"card": {}, "billing": {}, "x": {}},
            "dependentRequired": {"card": ["billing"]}, "dependencies": {"x": {"properties": {"y": {"type": "string"}}}}});
        let billing = rule(&output, "", "billing").unwrap();
        assert_eq!(
            billing.schema,
            json!({"type": "object", "required": ["card"]})
        );
        assert!(rule(&output, "", "y").is_some());
        assert_eq!(rule(&output, "", "card"), None);
    }

    #[test]
    fn discriminated_branches_show_by_value() {
        let output = json!({"type": "object", "properties": {"pay": {"oneOf": [
            {"type": "object", "properties": {"m": {"const": "a"}, "x": {}, "both": {}}},
            {"type": "object", "properties": {"m": {"const": "b"}, "y": {}, "both": {}}}]}}});
        let x = rule(&output, "/properties/pay", "x").unwrap();
        assert_eq!(
            (x.pointer.as_str(), x.schema.clone()),
            ("/properties/pay/properties/m", json!({"const": "a"}))
        );
        assert_eq!(rule(&output, "/properties/pay", "both"), None);
    }
}
