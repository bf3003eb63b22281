//! The React projection (`format=react`): a self-contained TSX module, the
//! seed's `ReactFormHookGenerator` output, compiled from the cached plan.
//!
//! The module imports only `react`, `react-hook-form`, `zod` and
//! `@hookform/resolvers/zod` ([`PACKAGES`] names the versions it is written
//! for). It exports the zod schema derived from `output` ([`zod`]) and its
//! inferred type, and as default a component with the seed's props
//! (`initialData`, `meta`, `respond`). Groups become `<fieldset>`s, rows
//! flex rows, steps a stepper, rules conditions checked with zod; arrays of
//! objects use `useFieldArray`. Every string from the schema or a model is
//! written through [`js`]. The module holds no request data: the answer
//! carries `initialData` beside it, and the host passes it as a prop.
//!
//! The answer: `{module, fileName, packages, initialData, meta}`; with
//! `Accept: text/tsx` (or `text/plain`) the shell sends the source alone
//! ([`source_only`]).

mod js;
mod zod;

use super::choices::{plain_labels_or_values, FieldHints};
use super::words::Lang;
use super::RenderInput;
use crate::plan::widgets::ReactControl;
use crate::plan::{Control, Effect, Node, Plan, Rule, Widget};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

/// The packages (and versions) the module is written and tested for.
pub(crate) const PACKAGES: [(&str, &str); 4] = [
    ("react", "^19.3.0"),
    ("react-hook-form", "^7.92.0"),
    ("zod", "^4.6.0"),
    ("@hookform/resolvers", "^7.0.0"),
];

/// Names the module defines itself; a title-derived name must avoid them.
const TAKEN: &[&str] = &[
    "React",
    "Props",
    "FormInput",
    "Field",
    "Choice",
    "FormApi",
    "Defaults",
];

/// The whole answer.
pub(crate) fn render(r: &RenderInput<'_>) -> Value {
    // The module holds no request data, so an isolate builds it once per
    // spec and each answer copies the text.
    let built =
        crate::cache::memo::projection(&r.memo_key(), "react", || built_module(r), Module::bytes);
    let mut answer = Map::new();
    answer.insert("module".into(), built.source.clone().into());
    answer.insert("fileName".into(), file_name(&built).into());
    answer.insert("packages".into(), Value::Object(packages()));
    answer.insert("initialData".into(), r.initial_data.clone());
    answer.insert("meta".into(), Value::Object(meta(r, &built.warnings)));
    Value::Object(answer)
}

/// The whole answer as the JSON text the service sends, the same bytes as
/// [`render`]'s value serialised: the data-free head (module, file name,
/// packages) is written once per spec and language and remembered as text
/// (the module's source escaped as a JSON string is most of a hit's work
/// otherwise), then the request's `initialData` and `meta` follow. A
/// display's rows are read by the module at run time: no `charts`.
pub(crate) fn render_text(r: &RenderInput<'_>) -> String {
    let head = remembered(r, || Head::of(&built_module(r)));
    let meta = meta(r, &head.warnings);
    super::closed_answer(
        &head.text,
        [
            ("initialData", serde_json::to_string(&r.initial_data)),
            ("meta", serde_json::to_string(&meta)),
        ],
    )
}

/// `r`'s head, remembered as every format's text head is
/// ([`super::remembered_head`]); the module's language is in the spec's
/// memo key. The module holds no words of the request alone (its host
/// passes a title and submit label through `meta` at run time), so an
/// approval's head is remembered too.
fn remembered(r: &RenderInput<'_>, write: impl FnOnce() -> Head) -> std::rc::Rc<Head> {
    super::remembered_head(r, "react-text", "", write, Head::bytes)
}

/// A react answer's data-free head as JSON text, `{"module", "fileName",
/// "packages"` (the object left open), and what the module's zod schema
/// does not enforce (the answer's `meta` lists it).
struct Head {
    text: String,
    warnings: Vec<(String, String)>,
}

impl Head {
    fn of(built: &Module) -> Self {
        let mut head = Map::new();
        head.insert("module".into(), built.source.as_str().into());
        head.insert("fileName".into(), file_name(built).into());
        head.insert("packages".into(), Value::Object(packages()));
        let mut text = serde_json::to_string(&head).unwrap_or_default();
        text.pop(); // the closing brace: the request's fields follow
        text.shrink_to_fit(); // charged by its length: hold no more
        Self {
            text,
            warnings: built.warnings.clone(),
        }
    }

    /// The heap it holds, for the memo's bound.
    fn bytes(&self) -> usize {
        self.text.capacity()
            + self
                .warnings
                .iter()
                .map(|(p, w)| p.len() + w.len() + 48)
                .sum::<usize>()
    }
}

/// The module of `r`'s spec in `r`'s language.
fn built_module(r: &RenderInput<'_>) -> Module {
    let spec = &r.spec;
    module(
        &spec.plan,
        &spec.schema,
        &spec.defaults,
        &spec.spec_hash,
        r.lang(),
    )
}

/// The module's file name.
fn file_name(built: &Module) -> String {
    format!("{}.tsx", built.component)
}

/// [`PACKAGES`] as the answer lists them.
fn packages() -> Map<String, Value> {
    PACKAGES
        .iter()
        .map(|(name, version)| ((*name).to_owned(), Value::from(*version)))
        .collect()
}

/// The answer's `meta`: the request's provenance, and a warning for each
/// part of `output` the module's zod schema does not enforce.
fn meta(r: &RenderInput<'_>, unenforced: &[(String, String)]) -> Map<String, Value> {
    let mut meta = r.meta();
    if !unenforced.is_empty() {
        let list = meta.entry("warnings").or_insert_with(|| json!([]));
        if let Value::Array(list) = list {
            list.extend(unenforced.iter().map(|(pointer, why)| {
                json!({"code": "zod_unenforced", "pointer": pointer, "message": format!("the module's zod schema does not enforce {pointer}: {why}")})
            }));
        }
    }
    meta
}

/// Whether an `Accept` header asks for the module's source alone
/// (`text/tsx` or `text/plain`).
pub(crate) fn wants_source(accept: Option<&str>) -> bool {
    accept.is_some_and(|a| {
        a.split(',').any(|t| {
            matches!(
                t.split(';').next().unwrap_or("").trim(),
                "text/tsx" | "text/plain"
            )
        })
    })
}

/// The module source inside a react answer's JSON body, if it is one.
pub(crate) fn module_source(body: &str) -> Option<String> {
    let Ok(Value::Object(mut body)) = serde_json::from_str::<Value>(body) else {
        return None;
    };
    match body.remove("module") {
        Some(Value::String(source)) => Some(source),
        _ => None,
    }
}

/// A built module: source, component name and what zod does not enforce.
pub(crate) struct Module {
    pub(crate) source: String,
    pub(crate) component: String,
    pub(crate) warnings: Vec<(String, String)>,
}

impl Module {
    /// The heap it holds, for the memo's bound.
    fn bytes(&self) -> usize {
        self.source.len()
            + self.component.len()
            + self
                .warnings
                .iter()
                .map(|(p, w)| p.len() + w.len() + 48)
                .sum::<usize>()
    }
}

/// The TSX module for a plan over `schema` (`defaults`: the schema's own
/// default and const values, never request data), its option labels and
/// empty choice in `lang`, as the other formats show them.
pub(crate) fn module(
    plan: &Plan,
    schema: &Value,
    defaults: &Value,
    spec_hash: &str,
    lang: Lang,
) -> Module {
    let base = names(plan.title.as_deref(), plan);
    let mut derive = zod::Zod::new(schema);
    let root_expr = derive.expr(schema, "");
    let unenforced = std::mem::take(&mut derive.unenforced);
    let mut body = Body {
        derive,
        rules: Vec::new(),
        lists: Vec::new(),
        steps: Vec::new(),
        schema,
        lang,
    };
    // react-hook-form keeps an object of fields: a form whose value is not
    // an object (a bare choice, a list) keeps it under `value`.
    let wrapped = !is_object_schema(schema, schema);
    let scope = if wrapped {
        Scope {
            schema_pointer: String::new(),
            prefix: Some("\"value\"".into()),
        }
    } else {
        Scope::root()
    };
    let jsx = body.node(&plan.root, &scope, 3);
    let lists = std::mem::take(&mut body.lists);
    let definitions = body.derive.definitions();
    let is_display = plan.is_display();

    let mut out = String::new();
    header(&mut out, plan, spec_hash, &unenforced);
    let stepped = !body.steps.is_empty();
    out += if stepped {
        "import React, { useState } from \"react\"\n"
    } else {
        "import React from \"react\"\n"
    };
    let field_array = if lists.is_empty() {
        ""
    } else {
        "useFieldArray, "
    };
    let errors_type = if stepped { "type FieldErrors, " } else { "" };
    let _ = writeln!(out, "import {{ get, {field_array}useForm, {errors_type}type RegisterOptions, type UseFormRegisterReturn, type UseFormReturn }} from \"react-hook-form\"");
    out += "import { z } from \"zod\"\n";
    out += "import { zodResolver } from \"@hookform/resolvers/zod\"\n\n";
    let hoisted: Vec<&str> = if body.derive.patterns.is_empty() {
        Vec::new()
    } else {
        vec!["pattern("]
    };
    let used = format!(
        "{root_expr}{definitions}{}{}",
        body.rules.join("\n"),
        hoisted.concat()
    );
    out += &zod::helpers(&used);
    for (name, source) in &body.derive.patterns {
        let _ = writeln!(out, "const {name} = pattern({})", js::string(source));
    }
    if !body.derive.patterns.is_empty() {
        out += "\n";
    }
    out += &definitions;
    let (schema_name, type_name) = (format!("{base}Schema"), base.clone());
    let _ = write!(
        out,
        "// ----- Schema (contract) -----\nexport const {schema_name} = {root_expr}\n\n"
    );
    let _ = writeln!(
        out,
        "export type {type_name} = z.output<typeof {schema_name}>"
    );
    let form_values = if wrapped {
        let _ = write!(out, "\n// The form keeps the value under `value` (react-hook-form needs an object).\nconst FormSchema = z.object({{ value: {schema_name} }})\ntype FormValues = z.output<typeof FormSchema>\ntype FormInput = z.input<typeof FormSchema>\n");
        "FormValues".to_owned()
    } else {
        let _ = writeln!(out, "type FormInput = z.input<typeof {schema_name}>");
        type_name.clone()
    };
    let _ = write!(
        out,
        "type FormApi = UseFormReturn<FormInput, unknown, {form_values}>\n\n"
    );
    for (i, rule) in body.rules.iter().enumerate() {
        let _ = writeln!(out, "const rule{i} = {rule}");
    }
    if !body.rules.is_empty() {
        out += "\n";
    }
    // The schema's own `default` and `const` values: never request data.
    let defaults = if defaults.is_object() {
        js::value(defaults)
    } else {
        "{}".to_owned()
    };
    // `as unknown`: a schema's defaults need not satisfy its own constraints.
    let _ = write!(
        out,
        "const defaults = {defaults} as unknown as Partial<{type_name}>\n\n"
    );
    let _ = write!(
        out,
        "type Props = {{\n  initialData?: Partial<{type_name}>\n  meta?: {{ title?: string; submitLabel?: string }}\n  respond: (data: {type_name}) => void // called only with data {schema_name} accepts\n}}\n\n"
    );
    out += &used_only(FIELD, &format!("{jsx}{}", lists.concat()));
    for list in &lists {
        out += list;
    }
    let component = format!("{base}Form");
    let steps = body.steps.clone();
    let _ = writeln!(
        out,
        "export default function {component}({{ initialData, meta, respond }}: Props) {{"
    );
    let _ = write!(
        out,
        "  const form: FormApi = useForm<FormInput, unknown, {form_values}>({{\n    resolver: zodResolver({}),\n    defaultValues: {} as FormInput,\n    shouldUnregister: true,\n  }})\n",
        if wrapped { "FormSchema" } else { &schema_name },
        if wrapped { "{ value: initialData ?? defaults }" } else { "{ ...defaults, ...initialData }" },
    );
    if jsx.contains("values") {
        out += "  const values = form.watch()\n";
    }
    if !steps.is_empty() {
        let _ = write!(
            out,
            "  const [step, setStep] = useState(0)\n  const stepFields: string[][] = {}\n",
            js::value(&json!(steps))
        );
        out += "  const onInvalid = (errors: FieldErrors<FormInput>) => {\n    const first = stepFields.findIndex((names) => names.some((n) => get(errors, n) !== undefined))\n    if (first >= 0) setStep(first)\n  }\n";
    } else {
        out += "  const onInvalid = () => undefined\n";
    }
    let (data, value) = if wrapped {
        (form_values.as_str(), "data.value")
    } else {
        (type_name.as_str(), "data")
    };
    let _ = write!(out, "  const onSubmit = (data: {data}) => {{\n    // Guaranteed to match {schema_name}\n    respond({value})\n  }}\n\n");
    out += "  return (\n    <form onSubmit={form.handleSubmit(onSubmit, onInvalid)} noValidate>\n";
    let _ = writeln!(
        out,
        "      <h2>{{meta?.title ?? {}}}</h2>",
        js::string(&module_title(plan))
    );
    out += &jsx;
    if !is_display {
        out += "      <div>\n        <button type=\"submit\">{meta?.submitLabel ?? \"Submit\"}</button>\n      </div>\n";
    }
    out += "    </form>\n  )\n}\n";
    Module {
        source: out,
        component,
        warnings: unenforced,
    }
}

fn header(out: &mut String, plan: &Plan, spec_hash: &str, unenforced: &[(String, String)]) {
    let title = js::comment(&module_title(plan));
    let _ = writeln!(
        out,
        "// {title}: generated by genui-worker from the `output` schema (specHash {spec_hash})."
    );
    let versions: Vec<String> = PACKAGES.iter().map(|(n, v)| format!("{n} {v}")).collect();
    let _ = writeln!(out, "// Written for {}.", versions.join(", "));
    out.push_str(
        "// The zod schema below is the contract: `respond` only receives data it accepts.\n",
    );
    if unenforced.is_empty() {
        out.push_str("// It enforces every keyword of `output`.\n");
    } else {
        out.push_str("// Not enforced here (POST /v1/submit still checks them):\n");
        for (pointer, why) in unenforced {
            let _ = writeln!(out, "//   {}: {}", js::comment(pointer), js::comment(why));
        }
    }
    out.push('\n');
}

/// Where controls sit: the schema their pointers are relative to, and the
/// data path prefix (a JS expression; `None` at the root).
#[derive(Clone)]
struct Scope {
    schema_pointer: String,
    prefix: Option<String>,
}

impl Scope {
    fn root() -> Self {
        Self {
            schema_pointer: String::new(),
            prefix: None,
        }
    }

    /// The JS expression of a field's data path.
    fn path(&self, names: &[String]) -> String {
        let joined = names.join(".");
        match (&self.prefix, joined.is_empty()) {
            (None, _) => js::string(&joined),
            (Some(prefix), true) => prefix.clone(),
            (Some(prefix), false) => format!("{prefix} + {}", js::string(&format!(".{joined}"))),
        }
    }
}

struct Body<'a> {
    derive: zod::Zod<'a>,
    /// Rule conditions, as zod expressions (module constants `ruleN`).
    rules: Vec<String>,
    /// Field-array components (`useFieldArray` must run per list).
    lists: Vec<String>,
    /// Top-level field names per step (to open the step with an error).
    steps: Vec<Vec<String>>,
    schema: &'a Value,
    /// The language of option labels and the empty choice.
    lang: Lang,
}

impl Body<'_> {
    fn node(&mut self, node: &Node, scope: &Scope, depth: usize) -> String {
        let pad = "  ".repeat(depth);
        match node {
            Node::Vertical { elements } => elements
                .iter()
                .map(|n| self.node(n, scope, depth))
                .collect(),
            Node::Horizontal { elements } => {
                let inner: String = elements
                    .iter()
                    .map(|n| self.node(n, scope, depth + 1))
                    .collect();
                format!("{pad}<div style={{{{ display: \"flex\", gap: \"1rem\", flexWrap: \"wrap\" }}}}>\n{inner}{pad}</div>\n")
            }
            Node::Group {
                label,
                elements,
                rule,
                ..
            } => {
                let inner: String = elements
                    .iter()
                    .map(|n| self.node(n, scope, depth + 1))
                    .collect();
                let group = format!(
                    "{pad}<fieldset>\n{pad}  <legend>{}</legend>\n{inner}{pad}</fieldset>\n",
                    js::text(label)
                );
                self.ruled(group, rule.as_ref(), scope, &pad)
            }
            Node::Steps { steps } => {
                let mut out = format!("{pad}<nav>\n");
                for (i, step) in steps.iter().enumerate() {
                    let _ = writeln!(out, "{pad}  <span aria-current={{step === {i} ? \"step\" : undefined}}>{}</span>", js::text(&format!("{}. {}", i + 1, step.label)));
                }
                let _ = writeln!(out, "{pad}</nav>");
                for (i, step) in steps.iter().enumerate() {
                    let mut names = Vec::new();
                    for element in &step.elements {
                        element.for_each_control(&mut |c| {
                            names.extend(super::data_path(&c.pointer).into_iter().take(1))
                        });
                    }
                    self.steps.push(names);
                    let inner: String = step
                        .elements
                        .iter()
                        .map(|n| self.node(n, scope, depth + 1))
                        .collect();
                    let _ = write!(out, "{pad}<section hidden={{step !== {i}}}>\n{pad}  <h3>{}</h3>\n{inner}{pad}</section>\n", js::text(&step.label));
                }
                let last = steps.len().saturating_sub(1);
                let _ = write!(
                    out,
                    "{pad}<div>\n{pad}  <button type=\"button\" disabled={{step === 0}} onClick={{() => setStep(step - 1)}}>Back</button>\n{pad}  <button type=\"button\" disabled={{step === {last}}} onClick={{() => setStep(step + 1)}}>Next</button>\n{pad}</div>\n"
                );
                out
            }
            Node::Control(control) => {
                let field = self.control(control, scope, &pad);
                self.ruled(field, control.rule.as_ref(), scope, &pad)
            }
            Node::Table(table) => self.table(table, &pad),
        }
    }

    /// Wraps JSX in its rule: shown or enabled only while the condition holds.
    fn ruled(&mut self, jsx: String, rule: Option<&Rule>, scope: &Scope, pad: &str) -> String {
        let Some(rule) = rule else { return jsx };
        let index = self.rules.len();
        let keep = self.derive.unenforced.len();
        let condition = self.derive.expr(&rule.schema, "");
        self.derive.unenforced.truncate(keep);
        self.rules.push(condition);
        let names = super::data_path(&rule.pointer);
        let value = match (&scope.prefix, names.is_empty()) {
            (None, true) => "values".to_owned(),
            _ => format!("get(values, {})", scope.path(&names)),
        };
        let holds = format!("rule{index}.safeParse({value}).success");
        match rule.effect {
            Effect::Show => format!("{pad}{{{holds} && (\n{jsx}{pad})}}\n"),
            Effect::Hide => format!("{pad}{{!{holds} && (\n{jsx}{pad})}}\n"),
            Effect::Enable => {
                format!("{pad}<fieldset disabled={{!{holds}}}>\n{jsx}{pad}</fieldset>\n")
            }
            Effect::Disable => {
                format!("{pad}<fieldset disabled={{{holds}}}>\n{jsx}{pad}</fieldset>\n")
            }
        }
    }

    fn control(&mut self, c: &Control, scope: &Scope, pad: &str) -> String {
        let names = super::data_path(&c.pointer);
        let name = scope.path(&names);
        let field_schema = resolve(
            self.schema,
            &format!("{}{}", scope.schema_pointer, c.pointer),
        );
        let facts = Facts::of(field_schema, self.schema, &c.pointer, self.lang);
        let read_only = if c.read_only { " readOnly" } else { "" };
        let placeholder = c.placeholder.as_ref().map_or(String::new(), |p| {
            format!(" placeholder={{{}}}", js::string(p))
        });
        let register = |how: &str| format!("{{...field(form, {name}, {how})}}");
        let text_how = if facts.nullable {
            "asTextOrNull"
        } else {
            "asText"
        };
        let input = match c.widget.row().react {
            ReactControl::Checkbox => format!(
                "<input type=\"checkbox\" {}{read_only} />",
                format_args!("{{...field(form, {name})}}")
            ),
            ReactControl::Choice | ReactControl::Approval if !facts.choices.is_empty() => {
                self.choice(c.widget, &facts, &name, pad)
            }
            ReactControl::Approval => {
                format!("<input type=\"checkbox\" {{...field(form, {name})}} />")
            }
            // A multiple select reads as its options' strings (no
            // `setValueAs`), so only string items are offered as options;
            // other items are typed, one per line or as JSON, below.
            ReactControl::MultiSelect
                if !facts.item_choices.is_empty()
                    && facts.item_choices.iter().all(Value::is_string) =>
            {
                let options: String = facts
                    .item_choices
                    .iter()
                    .zip(&facts.item_labels)
                    .map(|(v, label)| option(v, label, pad))
                    .collect();
                format!("<select multiple {{...field(form, {name})}}>\n{options}{pad}  </select>")
            }
            ReactControl::Number(kind) => {
                let step = if facts.integer { "1" } else { "\"any\"" };
                let bounds = facts
                    .bounds
                    .iter()
                    .map(|(k, v)| format!(" {k}={{{v}}}"))
                    .collect::<String>();
                format!(
                    "<input type=\"{kind}\" step={{{step}}}{bounds} {}{read_only}{placeholder} />",
                    register(if facts.nullable {
                        "asNumberOrNull"
                    } else {
                        "asNumber"
                    })
                )
            }
            // A textarea whose schema cannot be followed sits on a `$ref`
            // that leaves the document (schema/external.rs): any JSON,
            // written as JSON text like the other free JSON inputs.
            ReactControl::Textarea if field_schema.is_none() => format!(
                "<textarea {}{read_only} placeholder={{\"JSON\"}} />",
                register("asJson")
            ),
            ReactControl::Textarea => format!(
                "<textarea {}{read_only}{placeholder} />",
                register(text_how)
            ),
            ReactControl::Input {
                kind,
                extra,
                how,
                placeholder: shows_placeholder,
            } => {
                let kind = kind.map_or(String::new(), |k| format!(" type=\"{k}\""));
                let shown = if shows_placeholder {
                    placeholder.as_str()
                } else {
                    ""
                };
                let how = register(how.unwrap_or(text_how));
                format!("<input{kind}{extra} {how}{read_only}{shown} />")
            }
            ReactControl::List if c.detail.is_some() => return self.list(c, &name, scope, pad),
            ReactControl::List | ReactControl::MultiSelect if facts.item_scalar.is_some() => {
                let how = if facts.item_scalar == Some("string") {
                    "asLines"
                } else {
                    "asNumberLines"
                };
                format!(
                    "<textarea {}{read_only} placeholder={{\"One per line\"}} />",
                    register(how)
                )
            }
            ReactControl::List
            | ReactControl::Json
            | ReactControl::MultiSelect
            | ReactControl::Choice => {
                format!(
                    "<textarea {}{read_only} placeholder={{\"JSON\"}} />",
                    register("asJson")
                )
            }
        };
        let help = c
            .help
            .as_ref()
            .map_or(String::new(), |h| format!(" help={{{}}}", js::string(h)));
        format!("{pad}<Field form={{form}} name={{{name}}} label={{{}}}{help}>\n{pad}  {input}\n{pad}</Field>\n", js::string(&c.label))
    }

    /// A select or radio group over the field's allowed values.
    fn choice(&mut self, widget: Widget, facts: &Facts, name: &str, pad: &str) -> String {
        let how = if facts.choices.iter().all(Value::is_string) {
            "asText"
        } else {
            "asJson"
        };
        let register = format!("{{...field(form, {name}, {how})}}");
        if widget == Widget::Select
            && facts.choices.len() > crate::terms::limits::Limits::default().max_enum_values
            && how == "asText"
        {
            // Too many values for a drop-down (a `large_enum` warning): a
            // text input searching a datalist; zod's enum keeps it closed.
            let list = js::string(&format!("{}-choices", name.trim_matches('"')));
            let options = facts.options(pad);
            return format!("<input list={{{list}}} {register} />\n{pad}  <datalist id={{{list}}}>\n{options}{pad}  </datalist>");
        }
        // react-hook-form reads a radio group as the checked value's string,
        // without `setValueAs`; only a select goes through `asJson`. So a
        // choice among numbers, booleans or objects is always a select.
        if widget == Widget::Select || how == "asJson" {
            let options = facts.options(pad);
            let choose = js::string(self.lang.text(super::words::Text::Choose));
            return format!("<select {register}>\n{pad}    <option value=\"\">{{{choose}}}</option>\n{options}{pad}  </select>");
        }
        let mut out = String::from("<span role=\"radiogroup\">\n");
        for (v, label) in facts.choices.iter().zip(&facts.labels) {
            let (value, shown) = (option_value(v), js::string(label));
            let _ = writeln!(out, "{pad}    <label>\n{pad}      <input type=\"radio\" value={{{value}}} {register} /> {{{shown}}}\n{pad}    </label>");
        }
        let _ = write!(out, "{pad}  </span>");
        out
    }

    /// An array of objects: a component per list, so `useFieldArray` runs once per rendered list.
    fn list(&mut self, c: &Control, name: &str, scope: &Scope, pad: &str) -> String {
        let index = self.lists.len();
        self.lists.push(String::new());
        let item_scope = Scope {
            schema_pointer: format!("{}{}/items", scope.schema_pointer, c.pointer),
            prefix: Some("item".into()),
        };
        let detail = c
            .detail
            .as_deref()
            .map(|d| self.node(d, &item_scope, 6))
            .unwrap_or_default();
        let component = format!("List{index}");
        let label = js::string(&c.label);
        let source = format!(
            "function {component}({{ form, name }}: {{ form: FormApi; name: string }}) {{
  const values = form.watch()
  const {{ fields, append, remove }} = useFieldArray({{ control: form.control, name: name as never }})
  return (
    <>
      {{fields.map((entry, index) => {{
        const item = `${{name}}.${{index}}`
        return (
          <fieldset key={{entry.id}}>
            <legend>{{{label} + \" \" + (index + 1)}}</legend>
{detail}            <button type=\"button\" onClick={{() => remove(index)}}>Remove</button>
          </fieldset>
        )
      }})}}
      <button type=\"button\" onClick={{() => append({{}} as never)}}>Add</button>
      <ListError form={{form}} name={{name}} />
    </>
  )
}}

"
        );
        let source = if detail.contains("values") {
            source
        } else {
            source.replacen("  const values = form.watch()\n", "", 1)
        };
        self.lists[index] = source;
        format!("{pad}<fieldset>\n{pad}  <legend>{}</legend>\n{pad}  <{component} form={{form}} name={{{name}}} />\n{pad}</fieldset>\n", js::text(&c.label))
    }

    /// A display table: its rows come from `initialData` at run time.
    fn table(&mut self, table: &crate::plan::Table, pad: &str) -> String {
        let names = crate::pointer::tokens(&table.dataset.data_pointer).unwrap_or_default();
        let path = if names.is_empty() {
            "values".to_owned()
        } else {
            format!("get(values, {})", js::string(&names.join(".")))
        };
        let columns: Vec<Value> = table
            .dataset
            .columns
            .iter()
            .map(|c| json!({"key": c.key, "label": c.label}))
            .collect();
        let rows_expr =
            format!("(Array.isArray({path}) ? {path} : []) as Record<string, unknown>[]");
        let value = if table.dataset.shape == crate::plan::data::Shape::Numbers {
            "{ value: row }"
        } else {
            "row"
        };
        format!(
            "{pad}<table>\n{pad}  <caption>{}</caption>\n{pad}  <thead>\n{pad}    <tr>\n{pad}      {{{cols}.map((c) => <th key={{c.key}}>{{c.label}}</th>)}}\n{pad}    </tr>\n{pad}  </thead>\n{pad}  <tbody>\n{pad}    {{{rows_expr}.map((row, i) => (\n{pad}      <tr key={{i}}>\n{pad}        {{{cols}.map((c) => <td key={{c.key}}>{{String(({value} as Record<string, unknown>)[c.key] ?? \"\")}}</td>)}}\n{pad}      </tr>\n{pad}    ))}}\n{pad}  </tbody>\n{pad}</table>\n",
            js::text(&table.dataset.title),
            cols = js::value(&Value::Array(columns)),
        )
    }
}

/// An `<option>` of `v` shown as `label`.
fn option(v: &Value, label: &str, pad: &str) -> String {
    let (value, shown) = (option_value(v), js::string(label));
    format!("{pad}    <option value={{{value}}}>{{{shown}}}</option>\n")
}

/// An option's `value` attribute (strings as themselves, other values as
/// JSON, which `asJson` reads back).
fn option_value(v: &Value) -> String {
    match v {
        Value::String(s) => js::string(s),
        other => js::string(&other.to_string()),
    }
}

/// Whether a schema's values are objects (an object type, or properties,
/// or alternatives of objects), which react-hook-form can hold directly.
fn is_object_schema(schema: &Value, root: &Value) -> bool {
    let Some(schema) = follow(schema, root) else {
        return false;
    };
    match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(_) => false,
        None => {
            ["properties", "required", "additionalProperties"]
                .iter()
                .any(|k| schema.get(*k).is_some())
                || ["oneOf", "anyOf", "allOf"].iter().any(|k| {
                    schema.get(*k).and_then(Value::as_array).is_some_and(|bs| {
                        !bs.is_empty() && bs.iter().all(|b| is_object_schema(b, root))
                    })
                })
        }
    }
}

/// What an input needs to know about its field's schema.
#[derive(Default)]
struct Facts {
    choices: Vec<Value>,
    /// Each choice's label ([`crate::render::choices`]).
    labels: Vec<String>,
    item_choices: Vec<Value>,
    /// Each item choice's label.
    item_labels: Vec<String>,
    item_scalar: Option<&'static str>,
    nullable: bool,
    integer: bool,
    bounds: Vec<(&'static str, String)>,
}

impl Facts {
    /// The field's choices as `<option>`s.
    fn options(&self, pad: &str) -> String {
        self.choices
            .iter()
            .zip(&self.labels)
            .map(|(v, label)| option(v, label, pad))
            .collect()
    }

    /// The facts of the field at `pointer` whose schema is `schema`, its
    /// choices labelled in `lang`.
    fn of(schema: Option<&Value>, root: &Value, pointer: &str, lang: Lang) -> Self {
        let Some(schema) = schema else {
            return Self::default();
        };
        let types = type_names(schema);
        let hints = FieldHints::at(
            pointer,
            schema.get("title").and_then(Value::as_str),
            schema.get("format").and_then(Value::as_str),
        );
        let labelled = |choices: Vec<(Value, Option<String>)>| {
            let labels = plain_labels_or_values(hints, &choices, lang);
            (choices.into_iter().map(|(v, _)| v).collect(), labels)
        };
        let (values, labels) = labelled(choices(schema, root));
        let mut facts = Self {
            choices: values,
            labels,
            nullable: types.contains(&"null"),
            integer: types.contains(&"integer"),
            ..Self::default()
        };
        for (key, attr) in [("minimum", "min"), ("maximum", "max")] {
            if let Some(n) = schema.get(key).filter(|v| v.is_number()) {
                facts.bounds.push((attr, n.to_string()));
            }
        }
        if let Some(items) = schema.get("items").and_then(|i| follow(i, root)) {
            (facts.item_choices, facts.item_labels) = labelled(choices(items, root));
            let item_types = type_names(items);
            facts.item_scalar = match item_types.as_slice() {
                ["string"] => Some("string"),
                ["number"] | ["integer"] => Some("number"),
                _ => None,
            };
        }
        facts
    }
}

fn type_names(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The closed list of values a field takes, with the labels `output` gives
/// them: `enum` (with `x-enumNames`/`enumNames`), or `oneOf`/`anyOf` of
/// `const`s (with their `title`s).
fn choices(schema: &Value, root: &Value) -> Vec<(Value, Option<String>)> {
    if let Some(Value::Array(values)) = schema.get("enum") {
        let given = crate::schema::kind::given_enum_names(values.len(), |k| schema.get(k));
        return values
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.is_null())
            .map(|(i, v)| {
                let name = given.and_then(|g| g[i].as_str()).map(str::to_owned);
                (v.clone(), name)
            })
            .collect();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            let consts: Option<Vec<(Value, Option<String>)>> = branches
                .iter()
                .map(|b| {
                    let b = follow(b, root)?;
                    let title = b.get("title").and_then(Value::as_str).map(str::to_owned);
                    Some((b.get("const")?.clone(), title))
                })
                .collect();
            if let Some(consts) = consts {
                return consts;
            }
        }
    }
    Vec::new()
}

/// A schema with its local `$ref` followed (a few hops at most).
fn follow<'v>(mut schema: &'v Value, root: &'v Value) -> Option<&'v Value> {
    for _ in 0..8 {
        let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
            return Some(schema);
        };
        let pointer = percent_encoding::percent_decode_str(reference.strip_prefix('#')?)
            .decode_utf8_lossy()
            .into_owned();
        schema = root.pointer(&pointer)?;
    }
    None
}

/// The schema a plan pointer names: `properties` steps (and `items`),
/// through `$ref`s, looking into applicators and branches for a property
/// declared only there.
fn resolve<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    let tokens = crate::pointer::tokens(pointer)?;
    let mut here = follow(root, root)?;
    let mut tokens = tokens.iter();
    while let Some(token) = tokens.next() {
        here = match token.as_str() {
            "properties" => {
                let name = tokens.next()?;
                property(here, name, root, 0)?
            }
            "items" => follow(here.get("items")?, root)?,
            other => follow(here.get(other)?, root)?,
        };
    }
    Some(here)
}

fn property<'v>(schema: &'v Value, name: &str, root: &'v Value, depth: usize) -> Option<&'v Value> {
    if depth > 8 {
        return None;
    }
    if let Some(found) = schema.get("properties").and_then(|p| p.get(name)) {
        return follow(found, root);
    }
    let mut branches: Vec<&Value> = Vec::new();
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = schema.get(key) {
            branches.extend(list);
        }
    }
    for key in ["then", "else"] {
        branches.extend(schema.get(key));
    }
    for key in ["dependentSchemas", "dependencies"] {
        if let Some(Value::Object(map)) = schema.get(key) {
            branches.extend(map.values().filter(|v| v.is_object()));
        }
    }
    branches
        .into_iter()
        .filter_map(|b| follow(b, root))
        .find_map(|b| property(b, name, root, depth + 1))
}

/// The labelled field with its error beside it, and the input converters,
/// written once per module.
const FIELD: &str = r#"// Inputs give strings; these turn them into the values the schema expects
// (an empty input is "not given", so a required field says so).
const asText = { setValueAs: (v: string) => (v === "" ? undefined : v) }
const asTextOrNull = { setValueAs: (v: string) => (v === "" ? null : v) }
const asNumber = { setValueAs: (v: string) => (v === "" ? undefined : Number(v)) }
const asNumberOrNull = { setValueAs: (v: string) => (v === "" ? null : Number(v)) }
const asDateTime = { setValueAs: (v: string) => (v === "" ? undefined : new Date(v).toISOString()) }
const asTime = { setValueAs: (v: string) => (v === "" ? undefined : `${v.length === 5 ? `${v}:00` : v}Z`) }
const asLines = { setValueAs: (v: unknown) => (Array.isArray(v) ? v : String(v ?? "").split("\n").filter((l) => l !== "")) }
const asNumberLines = { setValueAs: (v: unknown) => (Array.isArray(v) ? v : String(v ?? "").split("\n").filter((l) => l !== "").map(Number)) }
const asJson = {
  setValueAs: (v: unknown) => {
    if (typeof v !== "string") return v
    if (v === "") return undefined
    try {
      return JSON.parse(v)
    } catch {
      return v
    }
  },
}

// Registers an input by its dotted path. The path is a string, not
// Path<FormInput>: TypeScript cannot expand the paths of every schema
// (unions, recursion), and the plan already proved each path exists.
function field(form: FormApi, name: string, options?: RegisterOptions): UseFormRegisterReturn {
  return (form as unknown as UseFormReturn).register(name, options)
}

function message(form: FormApi, name: string): string | undefined {
  const error = get(form.formState.errors, name) as { message?: unknown; root?: { message?: unknown } } | undefined
  const text = error?.message ?? error?.root?.message
  return typeof text === "string" ? text : undefined
}

function Field({ form, name, label, help, children }: { form: FormApi; name: string; label: string; help?: string; children: React.ReactNode }) {
  const error = message(form, name)
  return (
    <div>
      <label>
        <span>{label}</span> {children}
      </label>
      {help && <small>{help}</small>}
      {error && <small role="alert">{error}</small>}
    </div>
  )
}

function ListError({ form, name }: { form: FormApi; name: string }) {
  const error = message(form, name)
  return error ? <small role="alert">{error}</small> : null
}

"#;

/// The paragraphs of `helpers` (blank-line separated) whose `const x` or
/// `function x` is called in `code`, or that define no name (kept).
pub(crate) fn used_only(helpers: &str, code: &str) -> String {
    let blocks: Vec<&str> = helpers
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .collect();
    let defined = |block: &str| -> Vec<String> {
        block
            .lines()
            .filter_map(|l| {
                l.strip_prefix("const ")
                    .or_else(|| l.strip_prefix("function "))
            })
            .filter_map(|l| {
                l.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                    .next()
            })
            .map(str::to_owned)
            .collect()
    };
    let called = |name: &str, text: &str| {
        ["(", ",", ")", " ", "\n"].iter().any(|end| {
            text.contains(&format!("{name}{end}")) && !text.contains(&format!("const {name}{end}"))
                || text.contains(&format!("{name}{end}"))
                    && text.matches(&format!("{name}{end}")).count() > 1
        })
    };
    let mut keep: Vec<bool> = blocks.iter().map(|b| defined(b).is_empty()).collect();
    // Helpers call helpers: grow the kept set until it stops changing.
    loop {
        let text: String = code.to_owned()
            + &blocks
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(b, _)| *b)
                .collect::<Vec<_>>()
                .join("\n");
        let next: Vec<bool> = blocks
            .iter()
            .zip(&keep)
            .map(|(b, k)| *k || defined(b).iter().any(|n| called(n, &text)))
            .collect();
        if next == keep {
            break;
        }
        keep = next;
    }
    blocks
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(b, _)| format!("{b}\n\n"))
        .collect()
}

/// The title the module shows when `meta.title` is not passed: the plan's,
/// else the English title for the kind of form (a module is one file for
/// every language; the answer's `meta.title` carries the person's).
fn module_title(plan: &Plan) -> String {
    match &plan.title {
        Some(title) => title.clone(),
        None => english_fallback(plan).to_owned(),
    }
}

fn english_fallback(plan: &Plan) -> &'static str {
    super::words::Lang::pick(None).text(super::fallback_title(plan))
}

/// The base name of the module's exports, from the person's title as an
/// ASCII identifier: "Shipping address" gives `ShippingAddressSchema`,
/// `ShippingAddress` and `ShippingAddressForm`. Words in other scripts are
/// left out ("Préférences de notification" -> `DeNotification` would
/// mislead, so a title with any such word is not used); a title that
/// leaves no ASCII words takes the English title for the kind of form
/// (`YourDetails`, `Approval`).
fn names(title: Option<&str>, plan: &Plan) -> String {
    let ascii_title = title.filter(|t| t.is_ascii() && t.chars().any(|c| c.is_ascii_alphabetic()));
    let mut base: String = ascii_title
        .unwrap_or_else(|| english_fallback(plan))
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .take(6)
        .collect();
    if base.ends_with("Form") && base.len() > 4 {
        base.truncate(base.len() - 4);
    }
    if !base.starts_with(|c: char| c.is_ascii_alphabetic()) || TAKEN.contains(&base.as_str()) {
        base = format!("Generated{base}");
    }
    base
}

/// A TSX module, react-hook-form and zod (`format=react`).
pub(crate) struct React;

impl super::FormatCompiler for React {
    fn names(&self) -> &'static [&'static str] {
        &["react"]
    }

    fn format(&self) -> crate::Format {
        crate::Format::React
    }

    fn contract(&self) -> crate::Contract {
        crate::Contract::ReactModule
    }

    fn render(&self, r: &RenderInput<'_>, _: crate::Format) -> Value {
        render(r)
    }

    fn render_text(&self, r: &RenderInput<'_>, _: crate::Format) -> String {
        render_text(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_identifiers_whatever_the_title() {
        let plan = Plan {
            title: None,
            root: crate::plan::Node::Vertical { elements: vec![] },
        };
        let names = |title: Option<&str>| names(title, &plan);
        assert_eq!(names(Some("Shipping address")), "ShippingAddress");
        assert_eq!(names(Some("Bug report form")), "BugReport");
        assert_eq!(names(Some("`${x}` </script>")), "XScript");
        assert_eq!(names(Some("2 step")), "Generated2Step");
        assert_eq!(names(None), "YourDetails");
        assert_eq!(names(Some("Props")), "GeneratedProps");
    }

    #[test]
    fn a_title_in_another_script_names_the_module_by_the_kind_of_form() {
        let plan = Plan {
            title: None,
            root: crate::plan::Node::Vertical { elements: vec![] },
        };
        assert_eq!(names(Some("航班搜索"), &plan), "YourDetails");
        assert_eq!(
            names(Some("Préférences de notification"), &plan),
            "YourDetails"
        );
        assert_eq!(names(Some("Flugsuche"), &plan), "Flugsuche");
        assert_eq!(names(Some("---"), &plan), "YourDetails");
    }

    #[test]
    fn a_text_answers_head_is_remembered_per_spec_and_language_and_charged() {
        use crate::cache::spec::{GeneratorId, UiSpec};
        let spec = UiSpec {
            spec_version: 1,
            spec_hash: "react-head-test".into(),
            generator: GeneratorId {
                generator: "deterministic".into(),
                generator_version: "t".into(),
            },
            draft: "2020-12".into(),
            description: String::new(),
            schema: json!({"type": "object", "properties": {"name": {"type": "string"}}}),
            plan: Plan {
                title: Some("Contact".into()),
                root: crate::plan::Node::Vertical { elements: vec![] },
            },
            defaults: json!({}),
        };
        let data = json!({"name": "Ada"});
        let input = RenderInput::new(&spec, &data, None, Map::new());
        let text = render_text(&input);
        assert!(text.starts_with("{\"module\":\"// Contact:"), "{text}");
        assert!(text.ends_with(",\"initialData\":{\"name\":\"Ada\"},\"meta\":{}}"));
        let remembered = |locale: Option<&str>| {
            let input = RenderInput::new(&spec, &data, None, Map::new()).with_locale(locale);
            let made = std::cell::Cell::new(false);
            let head = remembered(&input, || {
                made.set(true);
                Head::of(&built_module(&input))
            });
            assert!(
                head.bytes() >= head.text.capacity(),
                "charged for what it holds"
            );
            assert!(
                head.text.capacity() <= head.text.len() + 8,
                "holds no spare buffer"
            );
            !made.get()
        };
        assert!(remembered(None), "the head the answer was written from");
        assert!(!remembered(Some("de")), "another language, another head");
        // The module holds no prompt, so a prompted answer's head is the
        // spec's still.
        let mut prompted = RenderInput::new(&spec, &data, None, Map::new());
        prompted.prompt = Some("Approve the refund?");
        let text = render_text(&prompted);
        assert!(text.starts_with("{\"module\":\"// Contact:"), "{text}");
        assert!(!text.contains("Approve the refund?"), "{text}");
    }

    #[test]
    fn the_module_source_for_text_accepts() {
        let body = json!({"module": "export {}\n", "meta": {}}).to_string();
        assert_eq!(module_source(&body).as_deref(), Some("export {}\n"));
        assert_eq!(module_source("{\"meta\": {}}"), None);
        assert!(wants_source(Some("text/tsx")));
        assert!(wants_source(Some("text/html, text/plain;q=0.5")));
        assert!(!wants_source(Some("application/json")));
        assert!(!wants_source(None));
    }
}
