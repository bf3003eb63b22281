//! The deterministic generator: a plan from `output` and `description`, with
//! no model. It is the embedded default and the fallback for the model path.
//!
//! It walks the schema from the root: nested objects become labelled groups
//! to full depth; arrays of objects get an item layout (`detail`); recursion
//! through `$ref` stops where a reference would repeat on the current path,
//! leaving a control the renderer expands on demand. The top level of a flat
//! form is arranged into semantic sections ([`sections`]), short related
//! fields share rows ([`rows`], desktop only), and a description that asks
//! for a wizard, or a long form (more than [`LONG_FORM_FIELDS`] fields in
//! at least [`LONG_FORM_SECTIONS`] sections), turns top-level groups into
//! steps.
//!
//! Fields that only exist under a condition (`then`/`else`, dependent
//! schemas, the branches of a discriminated `oneOf`) get controls too; the
//! rules that show them come from [`rules`], applied by [`arrange_plan`] to
//! every plan, this generator's and a model's alike.

pub(crate) mod approval;
pub(crate) mod keep;
pub(crate) mod labels;
pub(crate) mod lexicon;
pub(crate) mod rows;
pub(crate) mod rules;
mod sections;
pub(crate) mod widgets;

use crate::error::{Detail, Error, ErrorCode, Result};
use crate::plan::conditions;
use crate::plan::{Control, Node, Plan, WizardStep};
use crate::pointer;
use crate::schema::{Kind, Resolved, SchemaDoc};
use crate::terms::device::Device;
use crate::terms::limits::Limits;
use serde_json::Value;

/// Identifies this generator in provenance and cache keys.
pub(crate) const GENERATOR_ID: &str = "deterministic";

/// Bump whenever the plans this generator produces change: it is part of the
/// cache key, so old specs are not served for new behaviour.
pub(crate) const GENERATOR_VERSION: &str = "1.12.0";

/// A form with more top-level fields than this, in at least
/// [`LONG_FORM_SECTIONS`] sections, becomes a wizard.
pub(crate) const LONG_FORM_FIELDS: usize = 20;

/// See [`LONG_FORM_FIELDS`].
pub(crate) const LONG_FORM_SECTIONS: usize = 3;

/// Builds the desktop plan for an `output` document. `confirm` (the
/// request's `kind: "confirm"`) asks for an approval even without
/// approval-like names.
pub(crate) fn generate(
    output: &Value,
    description: &str,
    confirm: bool,
    limits: &Limits,
) -> Result<Plan> {
    generate_for(output, description, confirm, Device::Desktop, limits)
}

/// Builds the plan for an `output` document laid out for `device`.
pub(crate) fn generate_for(
    output: &Value,
    description: &str,
    confirm: bool,
    device: Device,
    limits: &Limits,
) -> Result<Plan> {
    let doc = SchemaDoc::new(output, limits);
    let root = doc.resolve(output)?;
    let title = crate::plan::title::person_title(root.str("title"), description);
    let decision = approval::find(&doc, &root, confirm);
    let mut plan = plan_within_limits(doc, limits, &root, output, description, &title)?;
    if let Some(decision) = decision {
        make_approval(&mut plan.root, &decision.pointer);
    }
    if root.str("title").is_none() && names_a_section(plan.title.as_deref(), &plan.root) {
        plan.title = None;
    }
    if device == Device::Desktop {
        rows::arrange(&mut plan.root);
    }
    // Titles and descriptions come from the request: shown as plain text only.
    crate::plan::sanitize::sanitize_plan(&mut plan);
    arrange_plan(&mut plan, output, device, limits);
    Ok(plan)
}

/// Whether a title derived from the request is only the name of one of the
/// form's sections ("Stay", "Organiser") when the form has several: it
/// names a part of the form, not the form, so the form shows the title for
/// its kind instead (`render::fallback_title`).
fn names_a_section(title: Option<&str>, root: &Node) -> bool {
    let Some(title) = title else {
        return false;
    };
    let mut names = Vec::new();
    section_names(root, &mut names);
    names.len() >= 2
        && names
            .iter()
            .any(|name| name.eq_ignore_ascii_case(title.trim()))
}

/// The labels of the groups and steps of a layout, outermost first.
fn section_names<'a>(node: &'a Node, out: &mut Vec<&'a str>) {
    match node {
        Node::Group {
            label, elements, ..
        } => {
            out.push(label);
            elements.iter().for_each(|e| section_names(e, out));
        }
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements.iter().for_each(|e| section_names(e, out));
        }
        Node::Steps { steps } => {
            for step in steps {
                out.push(&step.label);
                step.elements.iter().for_each(|e| section_names(e, out));
            }
        }
        Node::Control(_) | Node::Table(_) => {}
    }
}

/// Depths tried for optional objects when the whole form needs more inputs
/// than `max_controls`: the deepest optional subtrees collapse first.
const OPTIONAL_DEPTHS: [usize; 9] = [8, 7, 6, 5, 4, 3, 2, 1, 0];

/// The walker's plan; a form over the input limit is laid out again with
/// its optional objects below a depth collapsed into one JSON input each
/// (listed in `meta.warnings` as `subtree_collapsed`), shallower each time.
/// Refused only when even the required fields exceed the limit.
fn plan_within_limits(
    doc: SchemaDoc<'_>,
    limits: &Limits,
    root: &Resolved,
    output: &Value,
    description: &str,
    title: &Option<String>,
) -> Result<Plan> {
    let mut walker = Walker {
        doc,
        limits,
        controls: 0,
        optional_depth: usize::MAX,
        over_controls: false,
    };
    let mut result = walker.plan(root, output, description, title.clone());
    for depth in OPTIONAL_DEPTHS {
        if !walker.over_controls {
            break;
        }
        walker = Walker {
            doc,
            limits,
            controls: 0,
            optional_depth: depth,
            over_controls: false,
        };
        result = walker.plan(root, output, description, title.clone());
    }
    result
}

/// The passes every plan goes through before the checker, whoever wrote
/// it: one column on mobile, and the rules derived from the schema's
/// conditionals (replacing any the plan had).
pub(crate) fn arrange_plan(plan: &mut Plan, output: &Value, device: Device, limits: &Limits) {
    if device == Device::Mobile {
        rows::single_column(&mut plan.root);
    }
    rules::derive(plan, output, limits);
}

/// The decision control becomes Approve/Reject buttons, first in the form.
fn make_approval(root: &mut Node, pointer: &str) {
    let Node::Vertical { elements } = root else {
        return;
    };
    let mut found = None;
    remove_control(elements, pointer, &mut found);
    if let Some(mut control) = found {
        control.widget = crate::plan::Widget::Approval;
        elements.insert(0, Node::Control(control));
    }
}

fn remove_control(nodes: &mut Vec<Node>, pointer: &str, found: &mut Option<Control>) {
    if let Some(index) = nodes
        .iter()
        .position(|n| matches!(n, Node::Control(c) if c.pointer == pointer))
    {
        if let Node::Control(control) = nodes.remove(index) {
            *found = Some(control);
        }
        return;
    }
    for node in nodes.iter_mut() {
        match node {
            Node::Vertical { elements }
            | Node::Horizontal { elements }
            | Node::Group { elements, .. } => remove_control(elements, pointer, found),
            Node::Steps { steps } => steps
                .iter_mut()
                .for_each(|s| remove_control(&mut s.elements, pointer, found)),
            Node::Control(_) | Node::Table(_) => {}
        }
    }
}

impl Walker<'_> {
    fn plan(
        &mut self,
        root: &Resolved,
        raw: &Value,
        description: &str,
        title: Option<String>,
    ) -> Result<Plan> {
        let node = self.root_node(root, raw, description, title.as_deref())?;
        Ok(Plan { title, root: node })
    }

    fn root_node(
        &mut self,
        root: &Resolved,
        raw: &Value,
        description: &str,
        title: Option<&str>,
    ) -> Result<Node> {
        let walker = self;
        // Properties that only conditional branches declare (`then`,
        // `dependentSchemas`, a discriminated `oneOf`) still make a form of
        // fields: the checker
        // asks a control for every field a condition may require.
        let analysis = conditions::Analysis::of(&walker.doc, raw);
        let conditional_fields =
            !analysis.extra_properties(root).is_empty() || analysis.discriminator.is_some();
        Ok(if has_properties(root) || conditional_fields {
            let mut ancestors = vec!["#".to_owned()];
            ancestors.extend(root.refs.iter().cloned());
            let fields = walker.fields(root, raw, "", &mut ancestors, 0)?;
            let count = fields.len();
            let arranged = sections::arrange(fields);
            let elements = if wants_steps(description) || is_long(count, &arranged) {
                into_steps(arranged)
            } else {
                arranged
            };
            Node::Vertical { elements }
        } else {
            let label = title
                .map(str::to_owned)
                .unwrap_or_else(|| "Value".to_owned());
            Node::Vertical {
                elements: vec![walker.control("", label, root, &mut vec!["#".to_owned()], 0)?],
            }
        })
    }
}

struct Walker<'a> {
    doc: SchemaDoc<'a>,
    limits: &'a Limits,
    controls: usize,
    /// Optional objects at this depth or deeper are one input each.
    optional_depth: usize,
    /// Whether the walk stopped at `max_controls`.
    over_controls: bool,
}

impl<'a> Walker<'a> {
    /// One node per property of an object view, in document order, then
    /// the properties only its conditional branches declare (`raw` is the
    /// object's schema as written, for its `allOf`/`then`/`dependencies`).
    fn fields(
        &mut self,
        object: &Resolved,
        raw: &Value,
        base: &str,
        ancestors: &mut Vec<String>,
        depth: usize,
    ) -> Result<Vec<(String, Node)>> {
        let mut out = Vec::new();
        // A copy of the document handle, so property schemas borrowed from
        // `object` can be resolved while `self` is borrowed mutably (no clone
        // of each property's subtree).
        let doc = self.doc;
        let analysis = conditions::Analysis::of(&doc, raw);
        let mut extra = analysis.extra_properties(object);
        // An object with properties of its own and a discriminated `oneOf`
        // (GeoJSON's geometries): the branches' fields join the form, each
        // shown for its branch, after a choice of the discriminator if the
        // object does not declare it.
        if let Some(found) = &analysis.discriminator {
            let known = |name: &str, extra: &[(String, Value)]| {
                object.properties().any(|(n, _)| n == name) || extra.iter().any(|(n, _)| n == name)
            };
            if !known(&found.name, &extra) {
                out.push((found.name.clone(), self.discriminator_control(base, found)));
            }
            let branch_fields: Vec<(String, Value)> = found
                .fields()
                .into_iter()
                .filter(|(n, _)| !known(n, &extra))
                .collect();
            extra.extend(branch_fields);
        }
        let conditionally_required = analysis.required_names(object);
        let declared = object
            .properties()
            .map(|(name, schema)| (name.as_str(), schema));
        let all: Vec<(&str, &Value)> = declared
            .chain(extra.iter().map(|(name, schema)| (name.as_str(), schema)))
            .collect();
        for (name, schema) in all {
            let at = pointer::property(base, name);
            let view = doc
                .resolve(schema)
                .map_err(|e| e.with(Detail::Field(at.clone())))?;
            let required =
                object.requires(name) || conditionally_required.iter().any(|n| n == name);
            if let Some(node) = self.field(name, &at, schema, view, required, ancestors, depth)? {
                out.push((name.to_owned(), node));
            }
        }
        Ok(out)
    }

    /// A group for an object with properties, else a control. An optional
    /// object that would repeat a `$ref` already on the path is left out:
    /// renderers expand object schemas eagerly, so a recursive one would
    /// never finish (arrays are safe: they start empty).
    #[allow(clippy::too_many_arguments)]
    fn field(
        &mut self,
        name: &str,
        at: &str,
        raw: &Value,
        view: Resolved,
        required: bool,
        ancestors: &mut Vec<String>,
        depth: usize,
    ) -> Result<Option<Node>> {
        let label = view
            .str("title")
            .map(str::to_owned)
            .unwrap_or_else(|| labels::humanize(name));
        let recursive = view.refs.iter().any(|r| ancestors.contains(r));
        if let Some(found) = conditions::view_discriminator(&self.doc, &view).filter(|_| !recursive)
        {
            return match self.deeper(depth) {
                Some(depth) => self
                    .discriminated(label, at, &found, ancestors, depth)
                    .map(Some),
                None => self.control(at, label, &view, ancestors, depth).map(Some),
            };
        }
        let is_object = has_properties(&view) && view.kind().choices.is_none();
        if is_object && recursive && !required {
            return Ok(None);
        }
        // Past the depth limit an object is cut like a recursion: one input
        // the renderer lays out itself, instead of refusing the form.
        // A form over the input limit collapses its deepest optional
        // objects the same way (plan_within_limits).
        let expand = required || depth < self.optional_depth;
        if let (true, false, true, Some(depth)) = (is_object, recursive, expand, self.deeper(depth))
        {
            let mark = ancestors.len();
            ancestors.extend(view.refs.iter().cloned());
            let fields = self.fields(&view, raw, at, ancestors, depth)?;
            ancestors.truncate(mark);
            let elements: Vec<Node> = fields.into_iter().map(|(_, node)| node).collect();
            return Ok(Some(nested_object(label, elements, depth)));
        }
        self.control(at, label, &view, ancestors, depth).map(Some)
    }

    fn control(
        &mut self,
        at: &str,
        label: String,
        view: &Resolved,
        ancestors: &mut Vec<String>,
        depth: usize,
    ) -> Result<Node> {
        self.controls += 1;
        if self.controls > self.limits.max_controls {
            self.over_controls = true;
            return Err(Error::new(
                ErrorCode::SchemaTooLarge,
                format!(
                    "the form would need more than {} inputs",
                    self.limits.max_controls
                ),
            )
            .with(Detail::Field(at.to_owned())));
        }
        let kind = view.kind();
        let items = self.items_view(view)?;
        let items_kind = items.as_ref().map(Resolved::kind);
        let name = at.rsplit('/').next().unwrap_or_default();
        let widget = widgets::choose(&pointer::unescape(name), view, &kind, items_kind.as_ref());
        let detail = match &items {
            Some(item)
                if kind.kind == Kind::Array
                    && has_properties(item)
                    && items_kind.as_ref().is_some_and(|k| k.choices.is_none()) =>
            {
                self.item_detail(
                    item,
                    view.get("items").unwrap_or(&Value::Null),
                    ancestors,
                    depth,
                )?
            }
            _ => None,
        };
        Ok(Node::Control(Control {
            pointer: at.to_owned(),
            label,
            widget,
            help: view.str("description").map(str::to_owned),
            placeholder: placeholder(view),
            read_only: view.get("readOnly") == Some(&Value::Bool(true)) || kind.constant.is_some(),
            rule: None,
            detail,
            component: None,
            component_props: None,
        }))
    }

    /// The layout of one array item, unless the item type recurses.
    /// `raw` is `items` as written: its conditionals (behind `$ref`s and in
    /// every `allOf` member) are read from there, since a merged view keeps
    /// only the first `if`/`then` it meets.
    fn item_detail(
        &mut self,
        item: &Resolved,
        raw: &Value,
        ancestors: &mut Vec<String>,
        depth: usize,
    ) -> Result<Option<Box<Node>>> {
        if item.refs.iter().any(|r| ancestors.contains(r)) {
            return Ok(None);
        }
        let Some(depth) = self.deeper(depth) else {
            return Ok(None);
        };
        let mark = ancestors.len();
        ancestors.extend(item.refs.iter().cloned());
        let fields = self.fields(item, raw, "", ancestors, depth)?;
        ancestors.truncate(mark);
        let elements = fields.into_iter().map(|(_, node)| node).collect();
        Ok(Some(Box::new(Node::Vertical { elements })))
    }

    /// The choice of a discriminated `oneOf`'s branch (radio up to 3).
    fn discriminator_control(&mut self, at: &str, found: &conditions::Discriminator) -> Node {
        self.controls += 1;
        let choices = found.branches.len();
        let label = found
            .title
            .clone()
            .unwrap_or_else(|| labels::humanize(&found.name));
        let widget = if choices <= 3 {
            crate::plan::Widget::Radio
        } else {
            crate::plan::Widget::Select
        };
        Node::Control(Control::new(
            pointer::property(at, &found.name),
            label,
            widget,
        ))
    }

    /// A discriminated `oneOf`: a group with the discriminator as a choice
    /// first, then every branch's fields (shown by rules for their branch).
    fn discriminated(
        &mut self,
        label: String,
        at: &str,
        found: &conditions::Discriminator,
        ancestors: &mut Vec<String>,
        depth: usize,
    ) -> Result<Node> {
        let mut elements = vec![self.discriminator_control(at, found)];
        for (name, schema) in found.fields() {
            let field_at = pointer::property(at, &name);
            let view = self
                .doc
                .resolve(&schema)
                .map_err(|e| e.with(Detail::Field(field_at.clone())))?;
            let required = found.branches.iter().any(|b| b.required.contains(&name));
            if let Some(node) =
                self.field(&name, &field_at, &schema, view, required, ancestors, depth)?
            {
                elements.push(node);
            }
        }
        Ok(nested_object(label, elements, depth))
    }

    /// The item view borrows from `view` (its `items` keyword is a copy), not
    /// from `self`, so the walker stays free to recurse into it.
    fn items_view<'v>(&self, view: &'v Resolved<'_>) -> Result<Option<Resolved<'v>>>
    where
        'a: 'v,
    {
        let doc: SchemaDoc<'v> = self.doc;
        match view.get("items") {
            Some(items @ Value::Object(_)) => Ok(Some(doc.resolve(items)?)),
            _ => Ok(None),
        }
    }

    /// One level deeper, unless that passes the depth limit (the caller
    /// then cuts the subtree as it cuts a recursion).
    fn deeper(&self, depth: usize) -> Option<usize> {
        (depth < self.limits.max_field_depth).then_some(depth + 1)
    }
}

/// Objects nest as labelled groups this deep; deeper ones are laid out
/// flat inside their parent group, each input labelled "Object › Field",
/// so deep schemas stay readable and clickable.
const MAX_GROUP_DEPTH: usize = 3;

fn nested_object(label: String, mut elements: Vec<Node>, depth: usize) -> Node {
    if depth <= MAX_GROUP_DEPTH {
        return Node::Group {
            label,
            section: None,
            elements,
            rule: None,
        };
    }
    for node in &mut elements {
        if let Node::Control(control) = node {
            control.label = format!("{label} › {}", control.label);
        }
    }
    Node::Vertical { elements }
}

/// Long forms are easier in steps: many fields, several sections.
fn is_long(fields: usize, arranged: &[Node]) -> bool {
    let sections = arranged
        .iter()
        .filter(|n| matches!(n, Node::Group { .. }))
        .count();
    fields > LONG_FORM_FIELDS && sections >= LONG_FORM_SECTIONS
}

fn has_properties(view: &Resolved) -> bool {
    view.properties().next().is_some()
}

/// The first example, when it is a plain value, as placeholder text.
fn placeholder(view: &Resolved) -> Option<String> {
    match view
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())?
    {
        Value::String(text) => Some(text.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn wants_steps(description: &str) -> bool {
    let text = description.to_lowercase();
    [
        "wizard",
        "step by step",
        "step-by-step",
        "multi-step",
        "multistep",
        "in steps",
    ]
    .iter()
    .any(|w| text.contains(w))
}

/// Top-level groups become steps; loose controls before, between or after
/// them are gathered into "Details" steps so nothing is lost. A form that
/// would have a single step stays as it is.
fn into_steps(elements: Vec<Node>) -> Vec<Node> {
    let groups = elements
        .iter()
        .filter(|n| matches!(n, Node::Group { rule: None, .. }))
        .count();
    let loose_anywhere = elements.len() > groups;
    if groups == 0 || (groups == 1 && !loose_anywhere) {
        return elements;
    }
    let mut steps: Vec<WizardStep> = Vec::new();
    let mut loose: Vec<Node> = Vec::new();
    for node in elements {
        match node {
            // A conditional section stays a section: a step cannot hide.
            Node::Group {
                label,
                section,
                elements,
                rule: None,
            } => {
                if !loose.is_empty() {
                    steps.push(details_step(std::mem::take(&mut loose)));
                }
                steps.push(WizardStep {
                    label,
                    section,
                    elements,
                });
            }
            other => loose.push(other),
        }
    }
    if !loose.is_empty() {
        steps.push(details_step(loose));
    }
    vec![Node::Steps { steps }]
}

/// A step for fields outside any section.
fn details_step(elements: Vec<Node>) -> WizardStep {
    let details = lexicon::Family::Details;
    WizardStep {
        label: details.name(0).to_owned(),
        section: Some(details.id().to_owned()),
        elements,
    }
}
