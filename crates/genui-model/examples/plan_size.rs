//! Plan-size benchmark: how much a model must write with the plan IR,
//! against writing JSON Forms itself.
//!
//! For every request fixture in `crates/genui-core/tests/fixtures/generate/`
//! it takes the deterministic plan and serialises (compact JSON) the model
//! plan a good model would emit for it (`plan_schema::from_plan`): once
//! keeping every field's default control (sections of pointers only), and
//! once overriding every control's label, widget, help and placeholder (a
//! model that rewrites everything: the upper bound). Both are compared with
//! the JSON Forms `uiSchema` of the same plan and with the full JSON Forms
//! spec (`jsonSchema` + `uiSchema`, which a model writing JSON Forms directly
//! would have to produce). Tokens are estimated as bytes / 4. The prompt size
//! (system + user message) is listed too.
//!
//! ```sh
//! cargo run -p genui-model --example plan_size
//! ```
//!
//! Prints a Markdown table and writes it to `bench-results/plan-size.md`.

use genui_core::{Error, ErrorCode, GenerateRequest, Limits};
use genui_model::{model_plan, prompt_fields, Prompt};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

struct Row {
    name: String,
    fields: usize,
    plan: usize,
    overridden: usize,
    ui_schema: usize,
    full: usize,
    prompt: usize,
}

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let rows = match measure(&root.join("crates/genui-core/tests/fixtures/generate")) {
        Ok(rows) => rows,
        Err(why) => {
            eprintln!("plan_size: {}", why.message());
            return ExitCode::FAILURE;
        }
    };
    let report = render(&rows);
    print!("{report}");
    let out = root.join("bench-results/plan-size.md");
    if let Err(e) = std::fs::create_dir_all(root.join("bench-results"))
        .and_then(|()| std::fs::write(&out, &report))
    {
        eprintln!("plan_size: cannot write {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// A fixture that cannot be read or measured (this tool's own failure).
fn failed(message: String) -> Error {
    Error::new(ErrorCode::Internal, message)
}

fn fixture_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| failed(format!("{}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    Ok(files)
}

fn measure(dir: &Path) -> Result<Vec<Row>, Error> {
    let limits = Limits::default();
    let mut rows = Vec::new();
    for file in fixture_files(dir)? {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&file).map_err(|e| failed(format!("{name}: {e}")))?;
        let body: Value =
            serde_json::from_str(&text).map_err(|e| failed(format!("{name}: {e}")))?;
        let request =
            GenerateRequest::from_value(body).map_err(|e| failed(format!("{name}: {e}")))?;
        let plan = genui_core::Plan::generate(
            &request.output,
            &request.description,
            request.wants_confirm(),
            &limits,
        )
        .map_err(|e| failed(format!("{name}: {e}")))?;
        let field_list = prompt_fields(&plan, &request.output, &limits);
        let ui = plan.jsonforms_ui_schema();
        rows.push(Row {
            fields: field_list.len(),
            plan: compact(&model_plan(&plan, false)),
            overridden: compact(&model_plan(&plan, true)),
            ui_schema: compact(&ui),
            full: compact(&json!({"jsonSchema": request.output, "uiSchema": ui})),
            prompt: Prompt::new(&request.description, &field_list).bytes(),
            name,
        });
    }
    Ok(rows)
}

fn compact(value: &Value) -> usize {
    value.to_string().len()
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        return 0.0;
    }
    part as f64 / whole as f64
}

fn render(rows: &[Row]) -> String {
    let mut out = String::from("# Plan size: what the model writes vs. JSON Forms\n\n");
    out.push_str("`cargo run -p genui-model --example plan_size` over the request fixtures in ");
    out.push_str("`crates/genui-core/tests/fixtures/generate/`. *Plan*: the compact JSON a good model emits ");
    out.push_str(
        "for the deterministic plan (`schemas/model-plan.schema.json`), keeping default controls. ",
    );
    out.push_str(
        "*Plan, all overridden*: the same with an override (label, widget, help, placeholder) for ",
    );
    out.push_str("every control, the upper bound. *uiSchema*: the JSON Forms layout of the same plan. *Full ");
    out.push_str(
        "spec*: `jsonSchema` + `uiSchema`, what a model writing JSON Forms directly would emit. ",
    );
    out.push_str("Tokens are estimated as bytes / 4.\n\n");
    out.push_str("| form | fields | plan B | plan tok | all overridden B | uiSchema B | uiSchema tok | plan/uiSchema | overridden/uiSchema | full spec B | plan/full | prompt tok |\n");
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {} | {:.2} | {} |",
            r.name,
            r.fields,
            r.plan,
            r.plan / 4,
            r.overridden,
            r.ui_schema,
            r.ui_schema / 4,
            ratio(r.plan, r.ui_schema),
            ratio(r.overridden, r.ui_schema),
            r.full,
            ratio(r.plan, r.full),
            r.prompt / 4
        );
    }
    let sum = |f: fn(&Row) -> usize| rows.iter().map(f).sum::<usize>();
    let (plan, over, ui, full, prompt) = (
        sum(|r| r.plan),
        sum(|r| r.overridden),
        sum(|r| r.ui_schema),
        sum(|r| r.full),
        sum(|r| r.prompt),
    );
    let _ = writeln!(
        out,
        "| **all {} forms** | {} | {plan} | {} | {over} | {ui} | {} | **{:.2}** | **{:.2}** | {full} | **{:.2}** | {} |",
        rows.len(), sum(|r| r.fields), plan / 4, ui / 4, ratio(plan, ui), ratio(over, ui), ratio(plan, full), prompt / 4
    );
    let _ = writeln!(
        out,
        "\nOverall the model writes {:.0}% of the bytes of the JSON Forms `uiSchema` ({:.0}% when it overrides \
         every control) and {:.0}% of a full JSON Forms spec: {} estimated tokens against {} and {}.",
        100.0 * ratio(plan, ui), 100.0 * ratio(over, ui), 100.0 * ratio(plan, full), plan / 4, ui / 4, full / 4
    );
    out
}
