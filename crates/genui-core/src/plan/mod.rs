//! The plan: the one intermediate form every generator produces and every
//! format compiler reads.
//!
//! A plan is an ordered tree of layout nodes whose leaves are controls.
//! Controls point into the `output` schema by JSON Pointer (a schema path such
//! as `/properties/address/properties/city`; `""` is the root) and carry the
//! presentation: label, widget, help, placeholder, read-only, an optional
//! rule. The plan never carries data, and never changes the data schema: it
//! only chooses how to show what the contract already defines.
//!
//! A display (a read-only view of `data`, see [`display`]) is a plan too:
//! its [`Node::Table`]s name arrays of the data and carry each one's columns
//! and chart ([`data`]); the checker proves them and every format compiles
//! them like any other node.

pub(crate) mod check;
mod condition_proof;
pub(crate) mod conditions;
pub(crate) mod data;
pub(crate) mod display;
pub(crate) mod generate;
pub(crate) mod repair;
pub(crate) mod sanitize;
pub(crate) mod title;
pub(crate) mod widgets;

use serde::{Deserialize, Serialize};

/// A UI plan: an optional title and a root layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Plan {
    /// Human title of the form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The root layout.
    pub root: Node,
}

/// A layout node or a control.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Node {
    /// Children stacked top to bottom.
    Vertical {
        /// The children.
        elements: Vec<Node>,
    },
    /// Children side by side (a row of short related fields).
    Horizontal {
        /// The children.
        elements: Vec<Node>,
    },
    /// A labelled section.
    Group {
        /// The section title.
        label: String,
        /// The concept id of a section the generator named
        /// (`personal`, `trip`, ...): formats show the concept's name in the
        /// request's language instead of `label` (the English name).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        section: Option<String>,
        /// The children.
        elements: Vec<Node>,
        /// Show/hide/enable/disable the whole section depending on a field
        /// (every control inside shares the condition).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<Rule>,
    },
    /// A wizard: one step at a time.
    Steps {
        /// The steps, in order.
        steps: Vec<WizardStep>,
    },
    /// One input bound to one field.
    Control(Control),
    /// A read-only table of one array of the request's data, with its chart
    /// (a display; see [`display`]).
    Table(Box<Table>),
}

/// A [`Node::Table`]: one dataset of a display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Table {
    /// The read-only array control the form formats draw the table with:
    /// its pointer is the dataset's schema pointer, its label the title.
    pub control: Control,
    /// What the table shows: columns, where its rows sit in `data`, and
    /// the chart drawn from them.
    pub dataset: data::Dataset,
}

/// One step of a [`Node::Steps`] wizard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WizardStep {
    /// The step title.
    pub label: String,
    /// The concept id the step's title names, as [`Node::Group`]'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// The step's content.
    pub elements: Vec<Node>,
}

/// An input bound to one field of the data schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Control {
    /// Schema path of the field, relative to the enclosing schema (the root,
    /// or an array's `items` for controls inside [`Control::detail`]).
    pub pointer: String,
    /// Visible label (plain text).
    pub label: String,
    /// How the value is entered.
    pub widget: Widget,
    /// Help text shown with the input (plain text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// Example value shown while empty (plain text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    /// Shown but not editable.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,
    /// Show/hide/enable/disable depending on another field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// For arrays of objects: the layout of one item, pointers relative to
    /// the item schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Box<Node>>,
    /// A component of the request's operator catalog that shows this field
    /// instead of `widget` where the format can (see `crate::catalog`);
    /// `widget` stays the built-in stand-in. Proven before use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<String>,
    /// The bound component's static props (`None`: the catalog entry's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component_props: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Plan {
    /// Whether this plan is a read-only display (it has tables), which
    /// takes no submission.
    pub fn is_display(&self) -> bool {
        !self.root.tables().is_empty()
    }

    /// The deterministic plan for an `output` document, laid out for the
    /// desktop ([`Plan::generate_for`] for another device).
    pub fn generate(
        output: &serde_json::Value,
        description: &str,
        confirm: bool,
        limits: &crate::Limits,
    ) -> crate::error::Result<Plan> {
        generate::generate(output, description, confirm, limits)
    }

    /// The deterministic plan for an `output` document laid out for
    /// `device`.
    pub fn generate_for(
        output: &serde_json::Value,
        description: &str,
        confirm: bool,
        device: crate::terms::device::Device,
        limits: &crate::Limits,
    ) -> crate::error::Result<Plan> {
        generate::generate_for(output, description, confirm, device, limits)
    }
}

impl Control {
    /// A control with only its field, label and widget: no help, placeholder,
    /// rule or item detail, editable.
    pub fn new(pointer: impl Into<String>, label: impl Into<String>, widget: Widget) -> Self {
        Self {
            pointer: pointer.into(),
            label: label.into(),
            widget,
            help: None,
            placeholder: None,
            read_only: false,
            rule: None,
            detail: None,
            component: None,
            component_props: None,
        }
    }

    /// The plain-text form of one piece of display text (a label, help or
    /// placeholder): markup and unsafe links removed, at most `max_chars`.
    pub fn plain_text(text: &str, max_chars: usize) -> String {
        sanitize::plain_text(text, max_chars)
    }
}

/// How a value is entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Widget {
    /// Single-line text.
    Text,
    /// Multi-line text.
    Textarea,
    /// An e-mail address.
    Email,
    /// A URL.
    Url,
    /// A number.
    Number,
    /// An integer.
    Integer,
    /// A bounded number on a slider.
    Slider,
    /// A yes/no checkbox.
    Checkbox,
    /// A drop-down choice.
    Select,
    /// A choice among a few visible options.
    Radio,
    /// Several choices from a closed list.
    MultiSelect,
    /// A calendar date.
    Date,
    /// A date and time.
    DateTime,
    /// A time of day.
    Time,
    /// A file upload (a string carrying encoded content).
    File,
    /// Approve and Reject buttons for a yes/no decision.
    Approval,
    /// A list of items, added and removed by the user.
    Array,
    /// A choice among alternative sub-forms (`oneOf`/`anyOf`).
    Alternatives,
    /// A nested object the renderer lays out itself (recursion cut-off,
    /// free-form maps).
    Object,
}

/// A condition on the data and what it does to a control or section.
///
/// Rules are derived from the `output` schema's own conditionals
/// (`if`/`then`/`else`, `dependencies`, `dependentRequired`,
/// `dependentSchemas`, discriminated `oneOf`) by
/// [`crate::plan::generate::rules`], never written by hand or by a model, and
/// proven by the checker. The condition is JSON Forms' schema condition: the
/// value at `pointer` must validate against `schema`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rule {
    /// What happens when the condition holds.
    pub effect: Effect,
    /// Schema path of the value the condition reads, relative to the same
    /// schema as the control's pointer: a field (`/properties/country`), or
    /// an object (`""` for the whole form) when the condition spans fields.
    pub pointer: String,
    /// JSON Schema the value must satisfy (self-contained: no `$ref`).
    pub schema: serde_json::Value,
}

/// What a rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Effect {
    /// Show only when the condition holds.
    Show,
    /// Hide when the condition holds.
    Hide,
    /// Enable only when the condition holds.
    Enable,
    /// Disable when the condition holds.
    Disable,
}

impl Node {
    /// Visits every control in document order, with the enclosing `detail`
    /// depth (0 for top-level controls).
    pub fn for_each_control<'a>(&'a self, f: &mut impl FnMut(&'a Control)) {
        match self {
            Node::Vertical { elements }
            | Node::Horizontal { elements }
            | Node::Group { elements, .. } => {
                elements.iter().for_each(|n| n.for_each_control(f));
            }
            Node::Steps { steps } => steps
                .iter()
                .flat_map(|s| &s.elements)
                .for_each(|n| n.for_each_control(f)),
            Node::Control(control) => f(control),
            Node::Table(table) => f(&table.control),
        }
    }

    /// The display tables directly inside this node, in order (a display's
    /// plan is a vertical list of them).
    pub fn tables(&self) -> Vec<&Table> {
        match self {
            Node::Vertical { elements } => elements
                .iter()
                .filter_map(|n| {
                    if let Node::Table(t) = n {
                        Some(&**t)
                    } else {
                        None
                    }
                })
                .collect(),
            Node::Table(table) => vec![table],
            _ => Vec::new(),
        }
    }

    /// All controls in document order (not descending into `detail`).
    pub fn controls(&self) -> Vec<&Control> {
        let mut out = Vec::new();
        self.for_each_control(&mut |c| out.push(c));
        out
    }
}
