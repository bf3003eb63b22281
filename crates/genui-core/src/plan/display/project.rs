//! The display's part of each format's answer, laid over what the form
//! compilers produced for the display's plan (read-only array controls).
//!
//! - JSON Forms: the array control gets `disableAdd`, `disableRemove`,
//!   `showSortButtons: false` (it is already `readonly`; JSON Forms'
//!   material renderer draws an array of flat objects as a table) and
//!   `charts: [ids]`, the hint where the charts belong;
//! - RJSF: the array gets `ui:readonly` and `ui:options` `{addable: false,
//!   removable: false, orderable: false, charts: [ids]}`; the submit button
//!   is hidden (`ui:submitButtonOptions.norender`);
//! - both carry `charts: [{id, title, vegaLite}]` at the top level;
//! - LMUI: the components are replaced by a `table` and a `chart` (with the
//!   `vega_lite` spec) per dataset, and there is no submit button.
//!
//! Every format's meta says `kind: "display"`.

use super::{chart, table, Dataset, DisplaySpec};
use crate::render::{Format, Rendered};
use serde_json::{json, Value};

/// One rendered chart: its id, the dataset it draws, and its Vega-Lite spec.
struct Drawn<'a> {
    id: String,
    dataset: &'a Dataset,
    spec: Value,
}

/// Completes `body`, the answer the form compiler produced for `format`.
pub fn project(format: Format, r: &Rendered<'_>, display: &DisplaySpec, body: &mut Value) {
    let charts = draw(display, &r.initial_data);
    match format {
        Format::JsonForms => jsonforms(body, display, &charts),
        Format::Rjsf => rjsf(body, display, &charts),
        Format::Lmui => lmui(body, display, r, &charts),
    }
}

fn draw<'a>(display: &'a DisplaySpec, data: &Value) -> Vec<Drawn<'a>> {
    let drawn = display.datasets.iter().filter_map(|dataset| {
        let chart = dataset.chart.as_ref()?;
        let rows = table::rows(dataset, data);
        Some(Drawn { id: format!("{}-chart", dataset.id), dataset, spec: chart::vega_lite(chart, &dataset.title, rows) })
    });
    drawn.collect()
}

fn chart_ids(dataset: &Dataset, charts: &[Drawn<'_>]) -> Vec<String> {
    charts.iter().filter(|c| c.dataset.id == dataset.id).map(|c| c.id.clone()).collect()
}

fn top_level(charts: &[Drawn<'_>]) -> Value {
    charts.iter().map(|c| json!({"id": c.id, "title": c.dataset.title, "vegaLite": c.spec})).collect()
}

fn mark_display(meta: Option<&mut Value>) {
    if let Some(Value::Object(meta)) = meta {
        meta.insert("kind".into(), "display".into());
    }
}

fn jsonforms(body: &mut Value, display: &DisplaySpec, charts: &[Drawn<'_>]) {
    mark_display(body.get_mut("meta"));
    let elements = body.pointer_mut("/uiSchema/elements").and_then(Value::as_array_mut);
    for element in elements.into_iter().flatten() {
        let scope = element["scope"].as_str().unwrap_or_default().to_owned();
        let Some(dataset) = display.datasets.iter().find(|d| format!("#{}", d.schema_pointer) == scope) else { continue };
        let options = element.as_object_mut().map(|e| e.entry("options").or_insert_with(|| json!({})));
        if let Some(Value::Object(options)) = options {
            options.insert("readonly".into(), true.into());
            options.insert("disableAdd".into(), true.into());
            options.insert("disableRemove".into(), true.into());
            options.insert("showSortButtons".into(), false.into());
            options.insert("charts".into(), json!(chart_ids(dataset, charts)));
        }
    }
    body["charts"] = top_level(charts);
}

fn rjsf(body: &mut Value, display: &DisplaySpec, charts: &[Drawn<'_>]) {
    mark_display(body.get_mut("metadata"));
    let Some(ui) = body.get_mut("uiSchema").and_then(Value::as_object_mut) else { return };
    for dataset in &display.datasets {
        let path = crate::render::data_path(&dataset.schema_pointer);
        let field = path.iter().try_fold(&mut *ui, |map, name| map.get_mut(name.as_str()).and_then(Value::as_object_mut));
        let Some(field) = field else { continue };
        field.insert("ui:readonly".into(), true.into());
        let options = field.entry("ui:options").or_insert_with(|| json!({}));
        if let Value::Object(options) = options {
            options.insert("addable".into(), false.into());
            options.insert("removable".into(), false.into());
            options.insert("orderable".into(), false.into());
            options.insert("charts".into(), json!(chart_ids(dataset, charts)));
        }
    }
    ui.insert("ui:submitButtonOptions".into(), json!({"norender": true}));
    body["charts"] = top_level(charts);
}

fn lmui(body: &mut Value, display: &DisplaySpec, r: &Rendered<'_>, charts: &[Drawn<'_>]) {
    mark_display(body.get_mut("metadata"));
    let mut components = Vec::new();
    let mut shown = 0;
    for dataset in &display.datasets {
        let rows = table::rows(dataset, &r.initial_data);
        shown += rows.len();
        components.push(table::lmui_table(dataset, rows));
        for drawn in charts.iter().filter(|c| c.dataset.id == dataset.id) {
            components.push(json!({"type": "chart", "id": drawn.id, "label": dataset.title, "vega_lite": drawn.spec}));
        }
    }
    body["ui_components"] = Value::Array(components);
    if shown == 0 {
        let text = body["response_text"].as_str().unwrap_or_default().trim_end_matches('.').to_owned();
        body["response_text"] = format!("{text}: no data to display.").into();
    }
}
