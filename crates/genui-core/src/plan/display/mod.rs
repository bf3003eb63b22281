//! Display UIs: a read-only view of `data` (tables and charts) instead of
//! an input form, for AG-UI's "data visualization" use case.
//!
//! When a request has no `output` (or an empty one: `{}`, or an object
//! schema without properties) and its `data` holds records or series, there
//! is nothing for the user to send back: the agent wants the data *shown*.
//! Then:
//!
//! 1. [`infer`] reads the data's shape (never its values) into a
//!    [`DisplaySpec`] (datasets, their columns, a chart choice) and a
//!    data-free JSON Schema marked `readOnly`; that schema takes `output`'s
//!    place in the pipeline, so caching, proving and rendering work as for a
//!    form;
//! 2. [`plan`] is its plan: one [`Node::Table`] per dataset, which the
//!    checker proves and each format compiles (`crate::render`): a
//!    read-only array with `charts` (Vega-Lite v5 specs with the values
//!    filled in at render time, see [`chart`]) in JSON Forms and RJSF, LMUI
//!    `table` and `chart` components, and `kind: "display"` in the meta. A
//!    display has no submit.
//!
//! The spec holds only the shape: column names, types, formats, mark and
//! encodings. Data values only ever enter a response. The shape's names
//! are the request's own words, so a display's spec is never written to
//! KV (`crate::service`): only the isolate that built it remembers it.

pub(crate) mod chart;
pub(crate) mod infer;
pub(crate) mod table;

use crate::error::{Detail, Error, ErrorCode, Result};
use crate::plan::{Control, Node, Plan, Table, Widget};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;

pub(crate) use crate::plan::data::{Column, ColumnType, Dataset, Shape};

/// At most this many rows per dataset; more is refused (page or aggregate
/// first: a person cannot read more, and every row is examined).
pub(crate) const MAX_ROWS: usize = 2_000;
/// At most this many distinct columns per dataset.
pub(crate) const MAX_COLUMNS: usize = 64;
/// At most this many datasets (array properties of an object `data`).
pub(crate) const MAX_DATASETS: usize = 8;

/// The data-free description of a display, cached inside the spec.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct DisplaySpec {
    /// What is shown, in order.
    pub datasets: Vec<Dataset>,
}

/// Whether `data` is something a display can show: an array of objects, an
/// array of numbers, an empty array, or an object with such an array among
/// its properties.
pub(crate) fn is_displayable(data: Option<&Value>) -> bool {
    match data {
        Some(Value::Array(items)) => items.is_empty() || infer::row_shape(items).is_some(),
        Some(Value::Object(map)) => {
            map.iter().any(|(k, v)| infer::showable_name(k) && matches!(v, Value::Array(items) if !items.is_empty() && infer::row_shape(items).is_some()))
        }
        _ => false,
    }
}

/// Whether `output` asks for nothing back: `{}`, or an object schema
/// without properties (titles and descriptions allowed).
pub(crate) fn is_empty_output(output: &Value) -> bool {
    let Value::Object(map) = output else {
        return false;
    };
    let says_nothing = |key: &str| {
        matches!(
            key,
            "type" | "title" | "description" | "$schema" | "$id" | "$comment"
        )
    };
    map.iter().all(|(k, _)| says_nothing(k)) && map.get("type").is_none_or(|t| t == "object")
}

/// The display a request asks for, if any: `output` is empty and `data`
/// holds records or series. Returns the spec and the inferred schema that
/// replaces `output`. `data_base` is the JSON Pointer of `data` in the body.
pub(crate) fn detect(
    output: &Value,
    data: &Value,
    description: &str,
    data_base: &str,
    limits: &crate::Limits,
) -> Result<Option<(DisplaySpec, Value)>> {
    if !is_empty_output(output) || !is_displayable(Some(data)) {
        return Ok(None);
    }
    infer::infer(data, output, description, data_base, limits).map(Some)
}

/// The form plan of a display: one read-only array control per dataset,
/// titled from the inferred schema's title or the description.
pub(crate) fn plan(display: &DisplaySpec, schema: &Value, description: &str) -> Plan {
    let title =
        crate::plan::title::person_title(schema.get("title").and_then(Value::as_str), description);
    let tables = display.datasets.iter().map(|d| {
        Node::Table(Box::new(Table {
            control: table_control(d),
            dataset: d.clone(),
        }))
    });
    let mut plan = Plan {
        title,
        root: Node::Vertical {
            elements: tables.collect(),
        },
    };
    // The same clean-up as generated forms get: titles are plain text.
    crate::plan::sanitize::sanitize_plan(&mut plan);
    plan
}

/// The read-only array control a table is drawn with in the form formats.
fn table_control(dataset: &Dataset) -> Control {
    Control {
        read_only: true,
        ..Control::new(
            dataset.schema_pointer.clone(),
            dataset.title.clone(),
            Widget::Array,
        )
    }
}

/// A display plan in its stored form (`spec:v3`, `schemas/ui-spec.schema.json`):
/// each table written as its control, the datasets beside the plan as the
/// spec's `display`. A form's plan is returned as it is. Keeping this form
/// lets workers of either side of the change read each other's cache.
pub(crate) fn to_stored(plan: &Plan) -> (Cow<'_, Plan>, Option<DisplaySpec>) {
    let tables = plan.root.tables();
    if tables.is_empty() {
        return (Cow::Borrowed(plan), None);
    }
    let datasets = tables.iter().map(|t| t.dataset.clone()).collect();
    let mut stored = plan.clone();
    if let Node::Vertical { elements } = &mut stored.root {
        for node in elements.iter_mut() {
            if let Node::Table(table) = node {
                *node = Node::Control(table.control.clone());
            }
        }
    }
    (Cow::Owned(stored), Some(DisplaySpec { datasets }))
}

/// The plan of a stored display: each dataset's control becomes its table
/// again. `None` when a dataset has no control (not a spec we wrote).
pub(crate) fn from_stored(mut plan: Plan, display: DisplaySpec) -> Option<Plan> {
    let Node::Vertical { elements } = &mut plan.root else {
        return None;
    };
    for dataset in display.datasets {
        let node = elements
            .iter_mut()
            .find(|n| matches!(n, Node::Control(c) if c.pointer == dataset.schema_pointer))?;
        let Node::Control(control) = std::mem::replace(
            node,
            Node::Vertical {
                elements: Vec::new(),
            },
        ) else {
            return None;
        };
        *node = Node::Table(Box::new(Table { control, dataset }));
    }
    Some(plan)
}

/// The answer to `/v1/submit` naming a display's spec: there is nothing to
/// submit.
pub(crate) fn no_submit() -> Error {
    Error::new(
        ErrorCode::InvalidRequest,
        "this specHash names a read-only display (meta.kind = \"display\"): it has no submit; only forms take /v1/submit",
    )
    .at("/specHash")
    .with(Detail::Kind("display"))
}

/// Data beyond a display limit, at its JSON Pointer in the body.
pub(crate) fn too_large(what: &str, limit: usize, pointer: String) -> Error {
    Error::new(
        ErrorCode::InvalidRequest,
        format!("data has more than {limit} {what} to display (exceeded at {pointer}); page, aggregate or summarise it first"),
    )
    .at(pointer)
    .with(Detail::Limit(limit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::check::check_plan;
    use serde_json::json;

    fn display() -> (Plan, Value) {
        let data = json!({"sales": [{"region": "North", "revenue": 10}, {"region": "South", "revenue": 12}]});
        let (spec, schema) = detect(
            &json!({}),
            &data,
            "Sales",
            "/data",
            &crate::terms::limits::Limits::default(),
        )
        .unwrap()
        .unwrap();
        (plan(&spec, &schema, "Sales"), schema)
    }

    #[test]
    fn a_display_plan_is_tables_the_checker_proves() {
        let (plan, schema) = display();
        assert!(plan.is_display());
        assert_eq!(plan.root.tables().len(), 1);
        assert!(
            plan.root.tables()[0].dataset.chart.is_some(),
            "revenue by region is charted"
        );
        let limits = crate::terms::limits::Limits::default();
        assert_eq!(check_plan(&plan, &schema, &limits), vec![]);

        let mut moved = plan.clone();
        let Node::Vertical { elements } = &mut moved.root else {
            panic!("a display is a vertical list")
        };
        let Node::Table(table) = &mut elements[0] else {
            panic!("of tables")
        };
        table.control.read_only = false;
        table.dataset.chart.as_mut().unwrap().y.field = "profit".into();
        let codes: Vec<&str> = check_plan(&moved, &schema, &limits)
            .iter()
            .map(|i| i.code)
            .collect();
        assert_eq!(
            codes,
            ["bad_table", "bad_table"],
            "an editable table and a chart of a missing column"
        );
    }

    #[test]
    fn the_stored_form_keeps_tables_as_controls_and_reads_back() {
        let (plan, _) = display();
        let (stored, datasets) = to_stored(&plan);
        assert!(
            matches!(&stored.root, Node::Vertical { elements } if matches!(elements[0], Node::Control(_)))
        );
        let datasets = datasets.expect("a display stores its datasets");
        assert_eq!(
            from_stored(stored.into_owned(), datasets.clone()),
            Some(plan.clone())
        );

        let mut other = datasets;
        other.datasets[0].schema_pointer = "/properties/elsewhere".into();
        assert_eq!(
            from_stored(to_stored(&plan).0.into_owned(), other),
            None,
            "datasets without their controls are not our spec"
        );
        let form = Plan {
            title: None,
            root: Node::Vertical {
                elements: Vec::new(),
            },
        };
        assert!(
            matches!(to_stored(&form), (Cow::Borrowed(_), None)),
            "a form is stored as it is"
        );
    }

    fn answer(body: &Value, cached: Option<&str>) -> crate::service::Outcome {
        match crate::service::prepare_generate(
            &serde_json::to_vec(body).unwrap(),
            None,
            &crate::terms::limits::Limits::default(),
        ) {
            Ok(job) => job.answer(cached),
            Err(e) => crate::service::Outcome::failed(&e),
        }
    }

    fn body_of(outcome: &crate::service::Outcome) -> Value {
        serde_json::from_str(&outcome.response.body).unwrap()
    }

    #[test]
    fn data_beyond_the_limits_is_refused_with_a_pointer() {
        let rows: Vec<Value> = (0..=MAX_ROWS).map(|i| json!({"n": i})).collect();
        let outcome = answer(
            &json!({"tool": "generateUserInterface", "arguments": {"data": {"rows": rows}}}),
            None,
        );
        let error = body_of(&outcome);
        crate::terms::contracts::Contract::DguiError
            .check(&error)
            .unwrap();
        assert_eq!(
            (outcome.response.status, error["code"].as_str()),
            (400, Some("invalid_request"))
        );
        assert_eq!(
            error["payload"]["pointer"],
            format!("/arguments/data/rows/{}", MAX_ROWS)
        );

        let wide: serde_json::Map<String, Value> = (0..=MAX_COLUMNS)
            .map(|i| (format!("c{i}"), json!(i)))
            .collect();
        let error = body_of(&answer(&json!({"data": [wide]}), None));
        assert_eq!(
            error["payload"]["pointer"],
            format!("/data/0/c{}", MAX_COLUMNS)
        );
    }
}
