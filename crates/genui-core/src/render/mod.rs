//! The format compilers: a proven [`UiSpec`] (fresh or from the cache)
//! plus the request's data in, one format's answer out.
//!
//! Each compiler walks the spec's plan node by node, display tables
//! included, so switching format is a cache hit, never a new generation.
//! The folder is the dispatch table: each format is one module implementing
//! [`FormatCompiler`] (its wire names, the contract its answers meet, its
//! projections), and `compiler::FORMATS` lists them; [`Format`]'s
//! names, parsing, contract and dispatch are read from that one table:
//!
//! - [`jsonforms`]: seed 000's `{jsonSchema, uiSchema, initialData, meta}`,
//!   plus `charts` for a display;
//! - [`rjsf`]: seed 001's DGUI `dgui_form` with an RJSF `uiSchema`, plus
//!   `charts` for a display;
//! - [`lmui`]: seed 003's `{response_text, ui_components}`;
//! - [`a2ui`]: A2UI v0.9 `{messages: [createSurface, updateComponents,
//!   updateDataModel]}`, or v1.0 `{messages: [createSurface]}` with the
//!   components and data inline;
//! - [`react`]: seed 000's `ReactFormHookGenerator`, a TSX module with its
//!   zod schema, wrapped with provenance;
//! - [`html`]: a self-contained page with a native `<form>`.
//!
//! What each widget is called in each format is one table too, the
//! widget table's columns (`crate::plan::widgets`).
//!
//! A compiler's input is a [`RenderInput`]: the spec, `data` merged over the
//! schema's defaults ([`initial_data`], which drops what the schema rejects),
//! and the provenance for `meta`. The schema JSON Forms and RJSF are given is
//! `output` with the nullable idiom rewritten ([`renderable`]). The caller
//! (`crate::service`) checks every answer against its format's [`Format::contract`].

pub(crate) mod a2ui;
pub(crate) mod choices;
mod compiler;
pub(crate) mod html;
pub(crate) mod initial_data;
pub(crate) mod jsonforms;
pub(crate) mod lmui;
pub(crate) mod react;
pub(crate) mod renderable;
pub(crate) mod rjsf;
pub(crate) mod text;
pub(crate) mod words;

use crate::cache::spec::UiSpec;
use crate::terms::contracts::Contract;
use crate::terms::format::Format;
use serde::Serialize;
use serde_json::{Map, Value};

/// Whether the spec came from the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CacheStatus {
    /// Served from KV.
    Hit,
    /// Generated for this request.
    Miss,
}

/// A format compiler's input (not its output): the spec, the merged
/// initial data, and the provenance to attach.
#[derive(Debug, Clone)]
pub struct RenderInput<'a> {
    /// The cached spec.
    pub spec: &'a UiSpec,
    /// `data` merged over the schema's defaults.
    pub initial_data: Value,
    /// Provenance (`specHash`, `cache`, `generator`, ...).
    pub meta: Map<String, Value>,
    /// The request's `data` as sent (for an approval's `action` and `importance`).
    pub raw_data: &'a Value,
    /// The request's `locale` (BCP 47): the language of the texts the
    /// worker writes itself (buttons, prompts), chosen at render time so
    /// that one cached spec serves every language; `None` is English.
    pub locale: Option<&'a str>,
    /// The operator catalog the request names: the formats that can show
    /// its components compile the plan's bindings with it (the others, and
    /// a `None` here, show each bound field's built-in stand-in).
    pub catalog: Option<&'a crate::Catalog>,
    /// Words for the person from this request alone (an AG-UI interrupt's
    /// `message`): shown as the lead line, or as what an approval approves.
    /// Like `data`, applied at render time and never remembered per spec.
    pub prompt: Option<&'a str>,
}

/// What one format module knows about its format and how it compiles a
/// spec into it.
pub(crate) trait FormatCompiler: Sync {
    /// The wire names a request may give, the one answers and documents
    /// use first (`rjsf`, then its alias `dgui`).
    fn names(&self) -> &'static [&'static str];

    /// The [`Format`] a request naming this format picks (A2UI: its
    /// default revision).
    fn format(&self) -> Format;

    /// The published contract every answer in this format meets.
    fn contract(&self) -> Contract;

    /// The answer as a value; `format` is the value the request picked
    /// (for A2UI, its revision).
    fn render(&self, r: &RenderInput<'_>, format: Format) -> Value;

    /// The answer as the JSON text the worker sends. By default the value
    /// serialised straight into bytes: `Value`'s `Display` goes through
    /// `fmt` for every token, which cost a sixth of a hit in wasm. Same text.
    fn render_text(&self, r: &RenderInput<'_>, format: Format) -> String {
        serde_json::to_string(&self.render(r, format)).unwrap_or_default()
    }
}

/// What an approval form shows besides its buttons.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalPrompt {
    /// The decision control's schema pointer.
    pub pointer: String,
    /// The approving and rejecting values.
    pub approve: Value,
    /// The rejecting value.
    pub reject: Value,
    /// What is to be approved: the request's prompt, else `data.action`,
    /// else the title.
    pub action: String,
    /// `data.importance` (low, medium, high, critical), when given.
    pub importance: Option<String>,
    /// The language of [`ApprovalPrompt::text`].
    lang: words::Lang,
}

impl ApprovalPrompt {
    /// One line for a person: the action, then the importance.
    pub fn text(&self) -> String {
        match &self.importance {
            Some(level) => self.lang.fill(
                words::Text::ApprovalNeededLevel,
                &[("level", level), ("action", &self.action)],
            ),
            None => self
                .lang
                .fill(words::Text::ApprovalNeeded, &[("action", &self.action)]),
        }
    }
}

impl<'a> RenderInput<'a> {
    /// The provenance for the answer's meta; a display says `kind: "display"`.
    pub fn meta(&self) -> Map<String, Value> {
        let mut meta = self.meta.clone();
        if self.spec.plan.is_display() {
            meta.insert("kind".into(), "display".into());
        }
        meta
    }

    /// The form's title for the person: the plan's, else a title for the
    /// kind of form in the request's language ([`fallback_title`]). Never
    /// the request's `description`, which speaks to the generator.
    pub fn title(&self) -> String {
        match &self.spec.plan.title {
            Some(title) => title.clone(),
            None => self.lang().text(fallback_title(&self.spec.plan)).to_owned(),
        }
    }

    /// The line under the title, addressed to the person: `output`'s own
    /// `description`, when it has one that says more than the title (each
    /// format escapes or plain-texts it as it does titles); the request's
    /// [`RenderInput::prompt`] in its place when it has one. The request's
    /// `description` is never shown.
    pub fn lead(&self) -> Option<String> {
        if let Some(prompt) = self.prompt.map(str::trim).filter(|p| !p.is_empty()) {
            return Some(prompt.to_owned());
        }
        let lead = self.spec.schema.get("description")?.as_str()?.trim();
        (!lead.is_empty() && Some(lead) != self.spec.plan.title.as_deref()).then(|| lead.to_owned())
    }

    /// Text of the submit button, in the request's language.
    pub fn submit_label(&self) -> &'static str {
        self.lang().text(words::Text::Submit)
    }

    /// The key of what an isolate remembers of this spec's projections:
    /// the spec hash, and the language where it is not English.
    pub(crate) fn memo_key(&self) -> String {
        // Section names and option labels follow the language; English is
        // the spec's own wording.
        let lang = self.lang();
        if lang.column() == 0 {
            return self.spec.spec_hash.clone();
        }
        format!("{}\u{0}{}", self.spec.spec_hash, lang.tag())
    }

    /// Whether the answer shows words from this request alone (a prompt, or
    /// an approval's `data.action`), which no per-spec memo may keep.
    pub(crate) fn per_request_words(&self) -> bool {
        self.prompt.is_some() || self.approval().is_some()
    }

    /// The language of the worker's own texts ([`RenderInput::locale`]).
    pub(crate) fn lang(&self) -> words::Lang {
        words::Lang::pick(self.locale)
    }

    /// This input with the worker's own texts in `locale`'s language.
    pub fn with_locale(mut self, locale: Option<&'a str>) -> Self {
        self.locale = locale;
        self
    }

    /// The approval this form asks for, if its plan has Approve/Reject buttons.
    pub fn approval(&self) -> Option<ApprovalPrompt> {
        let control = self
            .spec
            .plan
            .root
            .controls()
            .into_iter()
            .find(|c| c.widget == crate::plan::Widget::Approval)?;
        let limits = crate::terms::limits::Limits::default();
        let (approve, reject) = crate::plan::generate::approval::values_at(
            &self.spec.schema,
            &control.pointer,
            &limits,
        )?;
        let text = |key: &str| {
            self.raw_data
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let prompt = self.prompt.map(str::to_owned);
        let action = (prompt.or_else(|| text("action"))).or_else(|| self.spec.plan.title.clone());
        Some(ApprovalPrompt {
            pointer: control.pointer.clone(),
            approve,
            reject,
            action: action.unwrap_or_else(|| control.label.clone()),
            importance: text("importance"),
            lang: self.lang(),
        })
    }
}

/// The title of a form whose plan has none, by the kind of form: a display
/// (nothing to send) is an "Overview", an approval is an "Approval", any
/// other form asks for "Your details". Looked up at render time, so the
/// spec and its key stay language-free.
pub(crate) fn fallback_title(plan: &crate::plan::Plan) -> words::Text {
    if plan.is_display() {
        return words::Text::TitleDisplay;
    }
    let approval = plan
        .root
        .controls()
        .iter()
        .any(|c| c.widget == crate::plan::Widget::Approval);
    if approval {
        words::Text::TitleApproval
    } else {
        words::Text::TitleDetails
    }
}

/// Projects a spec into a format, its sections named in the request's
/// language.
pub(crate) fn render(format: Format, rendered: &RenderInput<'_>) -> Value {
    match localized(rendered) {
        Some(spec) => project(
            format,
            &RenderInput {
                spec: &spec,
                ..rendered.clone()
            },
        ),
        None => project(format, rendered),
    }
}

/// The spec with its named sections in the request's language, when that
/// is not English and the plan has any (the cached spec keeps concept ids
/// and English names, so it serves every language). Made once per spec
/// and language per isolate: it copies the whole spec, schema included,
/// which a hit would otherwise pay on every request.
pub(super) fn localized(r: &RenderInput<'_>) -> Option<std::rc::Rc<UiSpec>> {
    let lang = r.lang().column();
    if lang == 0 || !crate::plan::generate::lexicon::has_sections(&r.spec.plan.root) {
        return None;
    }
    let make = || {
        let mut spec = r.spec.clone();
        crate::plan::generate::lexicon::localize(&mut spec.plan.root, lang);
        spec
    };
    Some(crate::cache::memo::projection(
        &r.memo_key(),
        "localized",
        make,
        spec_bytes,
    ))
}

/// An estimate of the heap a spec holds: its schema's and defaults' trees
/// ([`crate::cache::memo::value_bytes`]) and its plan's texts, with an
/// allowance per node.
fn spec_bytes(spec: &UiSpec) -> usize {
    use crate::cache::memo::value_bytes;
    const NODE: usize = 256;
    let controls: usize = (spec.plan.root.controls().iter())
        .map(|c| NODE + c.pointer.len() + c.label.len())
        .sum();
    value_bytes(&spec.schema) + value_bytes(&spec.defaults) + controls + spec.description.len()
}

fn project(format: Format, rendered: &RenderInput<'_>) -> Value {
    compiler::compiler(format).render(rendered, format)
}

/// Projects a spec into a format, as the JSON text of the answer: what the
/// service sends. A2UI, JSON Forms and RJSF assemble it around remembered
/// text; the others serialise their value.
pub(crate) fn render_text(format: Format, rendered: &RenderInput<'_>) -> String {
    match localized(rendered) {
        Some(spec) => project_text(
            format,
            &RenderInput {
                spec: &spec,
                ..rendered.clone()
            },
        ),
        None => project_text(format, rendered),
    }
}

fn project_text(format: Format, rendered: &RenderInput<'_>) -> String {
    compiler::compiler(format).render_text(rendered, format)
}

/// How a renderer rewrites `output` for itself in a language
/// ([`renderable`]); borrowed when nothing is rewritten.
pub(crate) type Rewrite = fn(&Value, words::Lang) -> std::borrow::Cow<'_, Value>;

/// `output` as `renderer` is given it: the copy `rewrite` makes, or the
/// schema itself when nothing is rewritten. The copy depends on nothing
/// but `output` and the language (option labels), so it is remembered by
/// `output`'s canonical digest and the language: a new spec over the same
/// `output` (another description) reuses it.
pub(crate) fn renderer_schema(
    r: &RenderInput<'_>,
    renderer: &'static str,
    rewrite: Rewrite,
) -> Value {
    let make = || match rewrite(&r.spec.schema, r.lang()) {
        std::borrow::Cow::Owned(schema) => Some(schema),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let rewritten = match output_digest(r) {
        Some(output) => crate::cache::memo::renderer_schema(output, r.lang().tag(), renderer, make),
        None => std::rc::Rc::new(make()),
    };
    (*rewritten).as_ref().unwrap_or(&r.spec.schema).clone()
}

/// [`renderer_schema`] as JSON text, remembered the same way (by
/// `output`'s canonical digest and the language), for the answer heads
/// written as text: a miss over a known `output` neither rewrites nor
/// serialises it again.
pub(crate) fn renderer_schema_text(
    r: &RenderInput<'_>,
    renderer: &'static str,
    rewrite: Rewrite,
) -> std::rc::Rc<String> {
    let make = || serde_json::to_string(&rewrite(&r.spec.schema, r.lang())).unwrap_or_default();
    match output_digest(r) {
        Some(output) => crate::cache::memo::output_projection(
            output,
            r.lang().tag(),
            renderer,
            make,
            String::len,
        ),
        None => std::rc::Rc::new(make()),
    }
}

/// The canonical digest of the spec's `output` (remembered per isolate by
/// its exact bytes, so only hashed again here, not canonicalised).
fn output_digest(r: &RenderInput<'_>) -> Option<crate::cache::spec::OutputDigest> {
    crate::cache::spec::OutputDigest::of(&r.spec.schema).ok()
}

/// The data-free head of a text answer (see [`answer_text`]), written by
/// `write` once per spec per isolate; `extra` names every input besides the
/// spec, its language and the catalog that the head reads. A head that
/// shows words of the request alone ([`RenderInput::per_request_words`]:
/// an approval's prompt) is no head of the spec: its caller writes it
/// whole instead of calling this. A head is the head's text, or
/// the text with what the same build tells the answer's tail (React: what
/// its zod schema does not enforce); `bytes` is the heap it holds.
pub(crate) fn remembered_head<T: 'static>(
    r: &RenderInput<'_>,
    renderer: &'static str,
    extra: &str,
    write: impl FnOnce() -> T,
    bytes: fn(&T) -> usize,
) -> std::rc::Rc<T> {
    let catalog = r.catalog.map(crate::Catalog::hash).unwrap_or_default();
    let key = format!("{}\u{0}{catalog}\u{0}{extra}", r.memo_key());
    crate::cache::memo::projection(&key, renderer, write, bytes)
}

/// An answer as JSON text: `head`, the data-free fields already written
/// (the object left open), then the request's data and provenance under
/// the format's names, and a display's charts; the same bytes as the
/// answer built as a value and serialised, since serde_json writes each
/// field of an object the same way on its own.
pub(crate) fn answer_text(
    head: &str,
    data: (&str, &Value),
    meta: (&str, &Map<String, Value>),
    r: &RenderInput<'_>,
) -> String {
    let tables = r.spec.plan.root.tables();
    let charts = (!tables.is_empty()).then(|| {
        let charts = crate::plan::display::table::charts(&tables, &r.initial_data);
        ("charts", serde_json::to_string(&charts))
    });
    let fields = [
        (data.0, serde_json::to_string(data.1)),
        (meta.0, serde_json::to_string(meta.1)),
    ];
    closed_answer(head, fields.into_iter().chain(charts))
}

/// `head` (an object left open) closed after `fields`, each a name and
/// its value's JSON text.
pub(crate) fn closed_answer<'a>(
    head: &str,
    fields: impl IntoIterator<Item = (&'a str, serde_json::Result<String>)>,
) -> String {
    let mut out = String::with_capacity(head.len() + 256);
    out.push_str(head);
    for (name, text) in fields {
        out.push_str(",\"");
        out.push_str(name);
        out.push_str("\":");
        out.push_str(&text.unwrap_or_default());
    }
    out.push('}');
    out
}

/// The data path (property names) of a schema pointer such as
/// `/properties/a/properties/b` -> `["a", "b"]`.
pub(crate) fn data_path(pointer: &str) -> Vec<String> {
    let tokens = crate::pointer::tokens(pointer).unwrap_or_default();
    tokens
        .chunks(2)
        .filter(|pair| pair[0] == "properties" && pair.len() == 2)
        .map(|pair| pair[1].clone())
        .collect()
}

impl Format {
    /// Forgets what the renderers made of specs in this isolate, so the
    /// next answer builds them afresh (for tests comparing the two).
    pub fn forget_projections() {
        crate::cache::memo::forget_projections();
    }

    /// Compiles a spec into this format ([`render`]).
    pub fn render(self, input: &RenderInput<'_>) -> Value {
        render(self, input)
    }

    /// Compiles a spec into this format's JSON text, as the worker sends
    /// it ([`render_text`]).
    pub fn render_text(self, input: &RenderInput<'_>) -> String {
        render_text(self, input)
    }
}

impl UiSpec {
    /// What a format compiler ([`Format::render`]) is handed for this spec
    /// and the request's `data` ([`RenderInput::new`]); its fields are
    /// public, for a caller that sets the locale or the initial data.
    pub fn render_input<'a>(
        &'a self,
        raw_data: &'a Value,
        validator: Option<&jsonschema::Validator>,
        meta: Map<String, Value>,
    ) -> RenderInput<'a> {
        RenderInput::new(self, raw_data, validator, meta)
    }
}

impl<'a> RenderInput<'a> {
    /// What a format compiler is handed for `spec` and the request's `data`:
    /// `data` merged over the schema's defaults (values `validator` rejects
    /// dropped) and the provenance `meta`.
    pub fn new(
        spec: &'a UiSpec,
        raw_data: &'a Value,
        validator: Option<&jsonschema::Validator>,
        meta: Map<String, Value>,
    ) -> Self {
        let (initial_data, _) =
            initial_data::initial_data(&spec.defaults, raw_data, validator, true);
        Self {
            spec,
            initial_data,
            meta,
            raw_data,
            locale: None,
            catalog: None,
            prompt: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::spec::GeneratorId;
    use crate::plan::{Node, Plan};
    use serde_json::json;
    use std::borrow::Cow;
    use std::cell::Cell;
    use std::rc::Rc;

    thread_local! {
        /// How many times [`counted`] rewrote a schema on this thread.
        static REWRITES: Cell<usize> = const { Cell::new(0) };
    }

    /// JSON Forms' rewrite, counted.
    fn counted(schema: &Value, lang: words::Lang) -> Cow<'_, Value> {
        REWRITES.with(|n| n.set(n.get() + 1));
        renderable::jsonforms_schema(schema, lang)
    }

    fn rewrites() -> usize {
        REWRITES.with(Cell::get)
    }

    /// A spec over `schema` with the hash `hash` (specs over one `output`
    /// differ in their hash when their descriptions do).
    fn spec(hash: &str, schema: Value, root: Node) -> UiSpec {
        UiSpec {
            spec_version: 1,
            spec_hash: hash.into(),
            generator: GeneratorId {
                generator: "deterministic".into(),
                generator_version: "t".into(),
            },
            draft: "2020-12".into(),
            description: String::new(),
            schema,
            plan: Plan { title: None, root },
            defaults: json!({}),
        }
    }

    /// A form whose option labels depend on the language (country names).
    fn countries() -> Value {
        json!({"type": "object", "properties": {"country": {"enum": ["DE", "FR", "GB"]}}})
    }

    fn input<'a>(spec: &'a UiSpec, locale: Option<&'a str>) -> RenderInput<'a> {
        RenderInput::new(spec, &Value::Null, None, Map::new()).with_locale(locale)
    }

    fn flat() -> Node {
        Node::Vertical { elements: vec![] }
    }

    #[test]
    fn a_renderers_schema_is_remembered_by_output_and_language() {
        let (a, b) = (
            spec("a", countries(), flat()),
            spec("b", countries(), flat()),
        );
        let first = renderer_schema(&input(&a, None), "counted", counted);
        assert_eq!(rewrites(), 1);
        let again = renderer_schema(&input(&b, None), "counted", counted);
        assert_eq!(
            (rewrites(), &again),
            (1, &first),
            "another spec over the same output"
        );
        let french = renderer_schema(&input(&b, Some("fr")), "counted", counted);
        assert_eq!(rewrites(), 2, "another language is another copy");
        assert_ne!(french, first, "its option labels are French (Allemagne)");
        renderer_schema(&input(&a, Some("fr-CA")), "counted", counted);
        assert_eq!(rewrites(), 2, "the same language");
        let other = spec("a", json!({"enum": ["x_y", "y_z"]}), flat());
        renderer_schema(&input(&other, None), "counted", counted);
        assert_eq!(rewrites(), 3, "another output under a known spec hash");
    }

    #[test]
    fn a_renderers_schema_text_is_remembered_by_output_and_language() {
        let (a, b) = (
            spec("a", countries(), flat()),
            spec("b", countries(), flat()),
        );
        let first = renderer_schema_text(&input(&a, None), "counted-text", counted);
        let again = renderer_schema_text(&input(&b, None), "counted-text", counted);
        assert!(Rc::ptr_eq(&first, &again));
        assert_eq!(rewrites(), 1);
        let value = renderable::jsonforms_schema(&a.schema, words::Lang::pick(None));
        assert_eq!(
            *first,
            serde_json::to_string(&value).unwrap(),
            "the same text"
        );
        let german = renderer_schema_text(&input(&a, Some("de")), "counted-text", counted);
        assert_eq!(rewrites(), 2);
        assert_ne!(german, first);
    }

    #[test]
    fn a_localised_spec_is_made_once_per_spec_and_language() {
        let group = |section: &str| Node::Group {
            label: "Address".into(),
            section: Some(section.into()),
            elements: vec![],
            rule: None,
        };
        let a = spec(
            "a",
            countries(),
            Node::Vertical {
                elements: vec![group("address")],
            },
        );
        assert!(
            localized(&input(&a, None)).is_none(),
            "English is the spec's own"
        );
        let french = localized(&input(&a, Some("fr"))).expect("sections to name");
        let Node::Vertical { elements } = &french.plan.root else {
            panic!("the plan's shape changed");
        };
        assert!(matches!(&elements[0], Node::Group { label, .. } if label == "Adresse"));
        let again = localized(&input(&a, Some("fr"))).expect("sections to name");
        assert!(Rc::ptr_eq(&french, &again), "a hit reuses it");
        let spanish = localized(&input(&a, Some("es"))).expect("sections to name");
        assert!(!Rc::ptr_eq(&french, &spanish));
        let flat = spec("b", countries(), flat());
        assert!(
            localized(&input(&flat, Some("fr"))).is_none(),
            "no sections"
        );
    }
}
