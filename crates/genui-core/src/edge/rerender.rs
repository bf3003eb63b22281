//! `POST /v1/specs/<specHash>/render`: a cached spec rendered again, in any
//! format, with the client's current data, without the original call (a
//! page reloaded, a conversation restored from its messages).
//!
//! ```text
//! shell: SpecRender::prepare(hash, body, ?format)   hash, limits, options
//!        -> key_to_read()                           None: this isolate remembers the spec
//!        -> shell: KV get(key)                       only for Some(key)
//!        -> answer(cached)                           the generate hit's renderer
//! ```
//!
//! The answer is the one a cache hit of the original `/v1/generate` call
//! gives for the same format and data ([`crate::service::render_stored`]);
//! only what the render body does not carry differs (the pointers of spec
//! warnings name `/output`, as a bare call's do; no `meta.instructions`).
//! A spec no longer cached (or a read-only display, which is never stored)
//! is `404 spec_not_found`: the caller sends the original call again.

use crate::cache::spec::{self, UiSpec};
use crate::error::{Error, ErrorCode, Result};
use crate::request::{self, GenerateRequest};
use crate::service::{negotiated_format, render_stored, Outcome};
use crate::terms::format::Format;
use crate::terms::limits::Limits;
use serde_json::{Map, Value};
use std::rc::Rc;

/// Where errors about the path's hash point.
const SPEC_HASH_AT: &str = "/specHash";

/// The members a render body may have: the options and data of a generate
/// call, none of its spec-making ones (`output`, `description`, ...).
const BODY_MEMBERS: [&str; 6] = [
    "format",
    "a2uiVersion",
    "data",
    "locale",
    "device",
    "toolCallId",
];

/// A render request checked and waiting for the cache.
#[derive(Debug, Clone)]
pub struct SpecRender {
    spec_hash: String,
    key: String,
    request: GenerateRequest,
    limits: Limits,
}

impl SpecRender {
    /// Checks the path's hash and the body (`{format?, a2uiVersion?, data?,
    /// locale?, device?, toolCallId?}`, or empty), as a generate call's
    /// options are checked; `query_format` (`?format=`) wins over the body's.
    pub fn prepare(
        spec_hash: &str,
        body: &[u8],
        query_format: Option<&str>,
        limits: &Limits,
    ) -> Result<Self> {
        if !spec::is_spec_hash(spec_hash) {
            return Err(Error::new(
                ErrorCode::InvalidRequest,
                format!(
                    "the path's specHash must be the 64 lowercase hex digits of an answer's meta.specHash, not `{}` (at {SPEC_HASH_AT})",
                    shown(spec_hash)
                ),
            )
            .at(SPEC_HASH_AT));
        }
        limits.check_body_size(body.len())?;
        limits.check_body_depth(body)?;
        let mut request = options_of(body)?;
        if let Some(name) = query_format {
            request.format = Format::parse(name, "?format")?;
        }
        if let Some(version) = request.a2ui_version {
            request.format = request.format.with_a2ui_version(version);
        }
        Ok(Self {
            key: spec::cache_key(spec_hash),
            spec_hash: spec_hash.to_owned(),
            request,
            limits: limits.clone(),
        })
    }

    /// Applies the A2UI revision asked by the `a2uiVersion` query parameter
    /// or `Accept`'s `version` parameter, as `/v1/generate` does.
    pub fn negotiate_a2ui(&mut self, query: Option<&str>, accept: Option<&str>) -> Result<()> {
        self.request.format = negotiated_format(self.request.format, query, accept)?;
        Ok(())
    }

    /// The KV key the shell reads before [`SpecRender::answer`]; `None`
    /// when this isolate's memory of specs holds the spec (no KV read).
    pub fn key_to_read(&self) -> Option<&str> {
        match crate::cache::memo::spec(&self.spec_hash, &self.limits) {
            Some(_) => None,
            None => Some(&self.key),
        }
    }

    /// The answer from this isolate's memory of specs, when it holds the spec.
    fn remembered(&self) -> Option<Outcome> {
        crate::cache::memo::spec(&self.spec_hash, &self.limits).map(|spec| self.answer_spec(&spec))
    }

    /// The answer, given what KV held under the key.
    pub fn answer(&self, cached: Option<&str>) -> Outcome {
        if let Some(outcome) = self.remembered() {
            return outcome;
        }
        let Some(text) = cached else {
            return Outcome::failed(&self.not_found());
        };
        let Some(spec) = UiSpec::from_cached(text, &self.spec_hash) else {
            return Outcome::failed(&self.not_found());
        };
        let spec = Rc::new(spec);
        crate::cache::memo::remember_spec(spec.clone(), text.len(), &self.limits);
        self.answer_spec(&spec)
    }

    fn answer_spec(&self, spec: &UiSpec) -> Outcome {
        // A display is never stored (service.rs): only this isolate could
        // answer it, so no isolate does.
        if spec.plan.is_display() {
            return Outcome::failed(&self.not_found());
        }
        render_stored(spec, self.request.clone(), &self.limits)
    }

    fn not_found(&self) -> Error {
        Error::new(
            ErrorCode::SpecNotFound,
            format!(
                "no form with specHash {} is cached (it may have expired); send the original generate call again (at {SPEC_HASH_AT})",
                self.spec_hash
            ),
        )
        .at(SPEC_HASH_AT)
    }
}

/// The start of a malformed hash, for the message (a path may be long).
fn shown(text: &str) -> String {
    text.chars().take(80).collect()
}

/// The render body's options and data, read by the generate parser (same
/// checks, same pointers) with an empty `output` standing in: the spec
/// supplies the schema.
fn options_of(body: &[u8]) -> Result<GenerateRequest> {
    let mut members = match body.iter().all(u8::is_ascii_whitespace) {
        true => Map::new(),
        false => match request::parse_json(body)? {
            Value::Object(members) => members,
            _ => {
                return Err(Error::new(
                    ErrorCode::InvalidRequest,
                    "the render body must be a JSON object: {format?, data?, locale?, device?, toolCallId?}",
                )
                .at(""))
            }
        },
    };
    if let Some(name) = members.keys().find(|k| !BODY_MEMBERS.contains(&k.as_str())) {
        let at = format!("/{}", crate::pointer::escape(name));
        return Err(Error::new(
            ErrorCode::InvalidRequest,
            format!(
                "`{name}` has no place in a render body, which takes {} (at {at}); the spec is the cached one",
                BODY_MEMBERS.join(", ")
            ),
        )
        .at(at));
    }
    members.insert("output".into(), Value::Object(Map::new()));
    request::from_value(Value::Object(members))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::GenerateJob;
    use serde_json::json;

    /// The worker's limits with no memory of specs: every hit goes to "KV".
    fn memory_off() -> Limits {
        Limits {
            spec_memory_bytes: 0,
            ..Limits::default()
        }
    }

    fn output() -> Value {
        json!({"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string", "title": "Name"},
            "age": {"type": "integer", "minimum": 0},
            "size": {"enum": ["S", "M", "L"], "default": "M"}}})
    }

    /// A bare generate call over [`output`] with `extra` members.
    fn call(extra: Value) -> Vec<u8> {
        let mut body = json!({"description": "Who are you?", "output": output()});
        if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
            body.extend(extra);
        }
        serde_json::to_vec(&body).unwrap()
    }

    /// The spec a first call stores, and its hash.
    fn stored() -> (String, String) {
        stored_under(&memory_off())
    }

    /// [`stored`], generated under `limits`.
    fn stored_under(limits: &Limits) -> (String, String) {
        let job = GenerateJob::prepare(&call(json!({})), None, limits).unwrap();
        let hash = job.spec_hash().to_owned();
        let put = job.answer(None).cache_put.expect("a miss stores its spec");
        (hash, put.value)
    }

    fn render(hash: &str, body: Value, stored: &str) -> Outcome {
        let body = serde_json::to_vec(&body).unwrap();
        let job = SpecRender::prepare(hash, &body, None, &memory_off()).unwrap();
        job.answer(Some(stored))
    }

    fn error_of(outcome: &Outcome) -> (u16, Value) {
        let body: Value = serde_json::from_str(&outcome.response.body).unwrap();
        (outcome.response.status, body)
    }

    #[test]
    fn a_render_answers_what_a_hit_of_the_call_answers_in_every_format() {
        let (hash, spec) = stored();
        let data = json!({"name": "Ada", "age": 36});
        for format in ["jsonforms", "rjsf", "lmui", "a2ui", "react", "html"] {
            let options =
                json!({"format": format, "data": data, "toolCallId": "call_7", "locale": "de-DE"});
            let job = GenerateJob::prepare(&call(options.clone()), None, &memory_off()).unwrap();
            assert_eq!(job.spec_hash(), hash, "a locale does not key the plan");
            let hit = job.hit(Some(&spec)).expect("the call hits");
            let rendered = render(&hash, options, &spec);
            assert_eq!(rendered, hit, "{format}");
            assert_eq!(rendered.response.status, 200, "{format}");
            assert!(rendered.response.body.contains("Ada"), "{format}: the data");
        }
    }

    #[test]
    fn the_query_format_wins_and_an_empty_body_renders_the_defaults() {
        let (hash, spec) = stored();
        let job = SpecRender::prepare(&hash, b"", Some("rjsf"), &memory_off()).unwrap();
        let answer: Value = serde_json::from_str(&job.answer(Some(&spec)).response.body).unwrap();
        assert_eq!(answer["type"], "dgui_form");
        assert_eq!(answer["metadata"]["specHash"], hash.as_str());
        assert_eq!(answer["formData"], json!({"size": "M"}), "{answer}");
    }

    #[test]
    fn data_that_breaks_the_schema_degrades_as_a_call_s_pre_fill_does() {
        let (hash, spec) = stored();
        let options = json!({"data": {"name": "Ada", "age": "old", "size": "XXL"}});
        let rendered = render(&hash, options.clone(), &spec);
        let job = GenerateJob::prepare(&call(options), None, &memory_off()).unwrap();
        assert_eq!(rendered, job.hit(Some(&spec)).unwrap());
        let answer: Value = serde_json::from_str(&rendered.response.body).unwrap();
        assert_eq!(rendered.response.status, 200);
        let pointers: Vec<&str> = answer["meta"]["warnings"]
            .as_array()
            .expect("warnings")
            .iter()
            .filter_map(|w| w["pointer"].as_str())
            .collect();
        assert!(pointers.iter().any(|p| p.contains("age")), "{answer}");
        assert_eq!(answer["initialData"]["name"], "Ada");
    }

    #[test]
    fn a_spec_not_in_kv_is_spec_not_found_at_spec_hash() {
        let (hash, spec) = stored();
        let other = "0".repeat(64);
        for (hash, cached) in [
            (other.as_str(), None),
            (other.as_str(), Some(spec.as_str())),
        ] {
            let job = SpecRender::prepare(hash, b"{}", None, &memory_off()).unwrap();
            let (status, body) = error_of(&job.answer(cached));
            assert_eq!(status, 404);
            assert_eq!(body["code"], "spec_not_found");
            assert_eq!(body["payload"]["pointer"], "/specHash");
            assert!(body["message"]
                .as_str()
                .unwrap()
                .contains("send the original"));
        }
        let job = SpecRender::prepare(&hash, b"{}", None, &memory_off()).unwrap();
        assert_eq!(job.answer(None).response.status, 404, "memory is off");
    }

    #[test]
    fn a_malformed_hash_is_400_at_spec_hash() {
        let upper = "A".repeat(64);
        for hash in ["abc", upper.as_str(), &"0".repeat(65), "spec:v3:0"] {
            let error = SpecRender::prepare(hash, b"{}", None, &memory_off()).unwrap_err();
            assert_eq!(error.http_status(), 400, "{hash}");
            assert_eq!(error.code(), ErrorCode::InvalidRequest);
            assert_eq!(error.pointer(), Some("/specHash"));
        }
    }

    #[test]
    fn a_body_is_checked_as_a_call_s_options_are() {
        let hash = "0".repeat(64);
        let refused = |body: &str| {
            SpecRender::prepare(&hash, body.as_bytes(), None, &memory_off()).unwrap_err()
        };
        let cases = [
            (r#"{"output": {}}"#, ErrorCode::InvalidRequest, "/output"),
            (
                r#"{"format": "pdf"}"#,
                ErrorCode::UnsupportedFormat,
                "/format",
            ),
            (r#"{"device": "tv"}"#, ErrorCode::InvalidRequest, "/device"),
            (
                r#"{"locale": "not a tag"}"#,
                ErrorCode::InvalidRequest,
                "/locale",
            ),
            (
                r#"{"toolCallId": 7}"#,
                ErrorCode::InvalidRequest,
                "/toolCallId",
            ),
            ("[]", ErrorCode::InvalidRequest, ""),
        ];
        for (body, code, pointer) in cases {
            let error = refused(body);
            assert_eq!(
                (error.code(), error.pointer()),
                (code, Some(pointer)),
                "{body}"
            );
        }
        assert_eq!(refused("{").code(), ErrorCode::InvalidJson);
        let error = SpecRender::prepare(&hash, b"{}", Some("pdf"), &memory_off());
        assert_eq!(error.unwrap_err().pointer(), Some("?format"));
    }

    #[test]
    fn a_spec_this_isolate_does_not_remember_is_read_from_kv() {
        let (hash, _) = stored();
        let job = SpecRender::prepare(&hash, b"{}", None, &memory_off()).unwrap();
        assert_eq!(job.key_to_read(), Some(job.key.as_str()));
        assert!(job.key.ends_with(&hash), "{} is the spec's key", job.key);
    }

    #[test]
    fn this_isolate_s_memory_answers_without_kv() {
        let remembering = Limits::default();
        let (hash, spec) = stored_under(&remembering);
        let job = SpecRender::prepare(&hash, b"{}", None, &remembering).unwrap();
        assert_eq!(job.key_to_read(), None, "no KV read needed");
        let remembered = job
            .remembered()
            .expect("the first call's spec is remembered");
        assert_eq!(remembered, job.answer(Some(&spec)));
        assert_eq!(job.answer(None), remembered, "no KV read needed");
    }

    #[test]
    fn a_display_is_never_rendered_by_hash() {
        let body =
            json!({"description": "Sales", "data": {"rows": [{"region": "EU", "total": 3}]}});
        let job =
            GenerateJob::prepare(&serde_json::to_vec(&body).unwrap(), None, &memory_off()).unwrap();
        assert!(job.is_display());
        let hash = job.spec_hash().to_owned();
        let _ = job.answer(None);
        let render = SpecRender::prepare(&hash, b"{}", None, &memory_off()).unwrap();
        let (status, body) = error_of(&render.answer(None));
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("spec_not_found"))
        );
    }
}
