//! Edit in place: a generate call naming `previousSpecHash` gets a spec
//! laid out like that earlier spec ([`crate::plan::generate::keep`]).
//!
//! ```text
//! prepare_generate            previous: Wanted (or Found in this isolate's memory)
//!   -> shell: KV get(job.previous_spec_key())      only while Wanted
//!   -> job.take_previous(cached)                   Found, or Unknown (and rekeyed)
//!   -> the usual cache read and generation; build_spec keeps the layout
//! ```
//!
//! The previous spec decides the layout, so its hash is part of the key.
//! When it is unknown (left KV, or never was), the answer is the fresh
//! spec with a `previous_spec_unknown` warning, keyed and cached exactly as
//! the same call without `previousSpecHash`: it is that spec, so it never
//! sits under a key naming a previous spec.

use super::GenerateJob;
use crate::cache::spec::{self, UiSpec};
use crate::error::Result;
use crate::plan::check::check_plan;
use crate::plan::generate::keep::keep_layout;
use crate::plan::Plan;
use crate::terms::response::HttpResponse;
use crate::terms::warning::Warning;
use serde_json::Value;
use std::rc::Rc;

/// What a job knows of the spec its request edits.
#[derive(Debug, Clone, Default)]
pub(crate) enum Previous {
    /// The request edits nothing.
    #[default]
    None,
    /// Named, not read yet.
    Wanted,
    /// Read: its layout is kept.
    Found(Rc<UiSpec>),
    /// Named but not found: the answer is the fresh spec, with a warning.
    Unknown,
}

impl GenerateJob {
    /// Notes the spec the request edits, from this isolate's memory when it
    /// holds it. A display edits nothing: its layout is its data's shape.
    pub(super) fn want_previous(&mut self) {
        let Some((hash, _)) = &self.request.previous_spec_hash else {
            return;
        };
        if self.display.is_some() {
            return;
        }
        self.previous = match crate::cache::memo::spec(hash, &self.limits) {
            Some(spec) => Previous::Found(spec),
            None => Previous::Wanted,
        };
    }

    /// The KV key of the spec the request edits, while it is still to be
    /// read (then [`Self::take_previous`]).
    pub fn previous_spec_key(&self) -> Option<String> {
        match (&self.previous, &self.request.previous_spec_hash) {
            (Previous::Wanted, Some((hash, _))) => Some(spec::cache_key(hash)),
            _ => None,
        }
    }

    /// Takes what KV held under [`Self::previous_spec_key`]: a valid spec
    /// is kept (and remembered); anything else makes the edit unknown, and
    /// the job is keyed as the same call without `previousSpecHash`.
    pub fn take_previous(&mut self, cached: Option<&str>) -> Result<()> {
        let Some((hash, _)) = &self.request.previous_spec_hash else {
            return Ok(());
        };
        let found = cached.and_then(|text| {
            let spec = Rc::new(UiSpec::from_cached(text, hash)?);
            crate::cache::memo::remember_spec(spec.clone(), text.len(), &self.limits);
            Some(spec)
        });
        self.previous = match found {
            Some(spec) => Previous::Found(spec),
            None => Previous::Unknown,
        };
        self.rekey(self.generator.clone())
    }

    /// The previous spec's hash as the key holds it: while it is wanted
    /// or found, never once it is unknown.
    pub(super) fn previous_keyed(&self) -> Option<&str> {
        match (&self.previous, &self.request.previous_spec_hash) {
            (Previous::Wanted | Previous::Found(_), Some((hash, _))) => Some(hash),
            _ => None,
        }
    }

    /// `plan` laid out like the previous spec's, when there is one and the
    /// kept layout proves no worse than the fresh one against `output`
    /// (a section's condition may name a field that left).
    pub(super) fn kept_layout(&self, plan: Plan, output: &Value) -> Plan {
        let Previous::Found(previous) = &self.previous else {
            return plan;
        };
        let kept = keep_layout(&previous.plan, plan.clone());
        let kept_issues = check_plan(&kept, output, &self.limits).len();
        if kept_issues == 0 || kept_issues <= check_plan(&plan, output, &self.limits).len() {
            return kept;
        }
        plan
    }

    /// The warning of an edit whose previous spec is unknown.
    pub(super) fn previous_warning(&self) -> Option<Warning> {
        let (Previous::Unknown, Some((hash, at))) =
            (&self.previous, &self.request.previous_spec_hash)
        else {
            return None;
        };
        Some(Warning {
            code: "previous_spec_unknown",
            pointer: at.clone(),
            message: format!(
                "no spec {hash} is cached (it has left the cache, or never was): this is a fresh layout, not an edit of it"
            ),
        })
    }

    /// The answer the client holds before this edit: the previous spec
    /// rendered in this request's format with its data (the person's
    /// current values), for a stream to patch from. `None` without a
    /// found previous spec.
    pub fn previous_answer(&self) -> Option<HttpResponse> {
        let Previous::Found(previous) = &self.previous else {
            return None;
        };
        let request = crate::request::GenerateRequest {
            output: Value::Null,
            ..self.request.clone()
        };
        let outcome = super::render_stored(previous, request, &self.limits);
        (outcome.response.status == 200).then_some(outcome.response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::limits::Limits;
    use serde_json::json;

    /// The worker's limits with no memory of specs: every read goes to "KV".
    fn memory_off() -> Limits {
        Limits {
            spec_memory_bytes: 0,
            ..Limits::default()
        }
    }

    fn output(fields: &[&str]) -> Value {
        let properties: serde_json::Map<String, Value> = fields
            .iter()
            .map(|name| ((*name).to_owned(), json!({"type": "string"})))
            .collect();
        json!({"type": "object", "properties": properties})
    }

    fn call(fields: &[&str], previous: Option<&str>) -> Vec<u8> {
        let mut body = json!({"description": "Your details", "output": output(fields)});
        if let Some(hash) = previous {
            body["previousSpecHash"] = json!(hash);
        }
        serde_json::to_vec(&body).unwrap()
    }

    fn job(fields: &[&str], previous: Option<&str>) -> GenerateJob {
        GenerateJob::prepare(&call(fields, previous), None, &memory_off()).unwrap()
    }

    /// The first form: its hash and the spec it stores.
    fn first() -> (String, String) {
        let job = job(&["firstName", "lastName", "email", "city"], None);
        let put = job.clone().answer(None).cache_put.expect("a miss stores");
        (job.spec_hash().to_owned(), put.value)
    }

    fn warnings(outcome: &crate::service::Outcome) -> Value {
        let body: Value = serde_json::from_str(&outcome.response.body).unwrap();
        body["meta"]["warnings"].clone()
    }

    #[test]
    fn the_edited_spec_is_part_of_the_key_and_is_read_before_generating() {
        let (hash, stored) = first();
        let fields = ["firstName", "lastName", "email", "city", "phone"];
        let plain = job(&fields, None);
        let mut edit = job(&fields, Some(&hash));
        assert_ne!(edit.spec_hash(), plain.spec_hash());
        assert_eq!(edit.previous_spec_key(), Some(spec::cache_key(&hash)));
        let keyed = edit.spec_hash().to_owned();
        edit.take_previous(Some(&stored)).unwrap();
        assert_eq!(edit.previous_spec_key(), None, "read once");
        assert_eq!(edit.spec_hash(), keyed, "a found spec keeps the key");
        let outcome = edit.answer(None);
        assert_eq!(outcome.response.status, 200);
        assert_eq!(
            outcome.cache_put.as_ref().unwrap().key,
            spec::cache_key(&keyed)
        );
        assert_eq!(warnings(&outcome), Value::Null);
    }

    #[test]
    fn an_unknown_edited_spec_answers_the_fresh_spec_with_a_warning_under_the_plain_key() {
        let unknown = "0".repeat(64);
        let fields = ["firstName", "email"];
        let plain = job(&fields, None);
        let mut edit = job(&fields, Some(&unknown));
        let with_previous = edit.cache_key().to_owned();
        edit.take_previous(None).unwrap();
        assert_eq!(edit.spec_hash(), plain.spec_hash());
        let outcome = edit.answer(None);
        let put = outcome.cache_put.clone().expect("the fresh spec is cached");
        assert_ne!(put.key, with_previous, "never under the edit's key");
        assert_eq!(put, plain.clone().answer(None).cache_put.unwrap());
        let warnings = warnings(&outcome);
        assert_eq!(warnings[0]["code"], "previous_spec_unknown", "{warnings}");
        assert_eq!(warnings[0]["pointer"], "/previousSpecHash");
        // A value that is no spec of that hash is unknown too.
        let mut edit = job(&fields, Some(&unknown));
        edit.take_previous(Some("{\"not\": \"a spec\"}")).unwrap();
        assert_eq!(edit.spec_hash(), plain.spec_hash());
    }

    #[test]
    fn the_edit_keeps_the_previous_layout() {
        let (hash, stored) = first();
        let previous = UiSpec::from_cached(&stored, &hash).unwrap().plan;
        // `city` leaves, `lastName` is renamed `surname`, `phone` is new.
        let fields = ["firstName", "surname", "email", "phone"];
        let mut edit = job(&fields, Some(&hash));
        edit.take_previous(Some(&stored)).unwrap();
        let put = edit.answer(None).cache_put.unwrap();
        let spec: Value = serde_json::from_str(&put.value).unwrap();
        let kept: Plan = serde_json::from_value(spec["plan"].clone()).unwrap();
        let fresh =
            crate::plan::generate::generate(&output(&fields), "Your details", false, &memory_off())
                .unwrap();
        assert_ne!(kept.root, fresh.root, "the fresh layout differs");
        assert_eq!(kept.root, keep_layout(&previous, fresh).root);
    }

    #[test]
    fn an_interrupt_edits_in_place_too() {
        let interrupt = |previous: &str| {
            let body = json!({"interrupt": {"id": "i1", "reason": "input_required",
                "responseSchema": output(&["name"])}, "previousSpecHash": previous});
            serde_json::to_vec(&body).unwrap()
        };
        let limits = Limits::default();
        let error =
            GenerateJob::prepare_interrupt(&interrupt("x"), None, &limits, 0, None).unwrap_err();
        assert_eq!(error.pointer(), Some("/previousSpecHash"));
        let hash = "a".repeat(64);
        let job =
            GenerateJob::prepare_interrupt(&interrupt(&hash), None, &limits, 0, None).unwrap();
        assert_eq!(job.previous_spec_key(), Some(spec::cache_key(&hash)));
    }

    #[test]
    fn a_malformed_previous_spec_hash_is_400_at_its_pointer() {
        for (body, at) in [
            (
                json!({"output": output(&["a"]), "previousSpecHash": "ABC"}),
                "/previousSpecHash",
            ),
            (
                json!({"tool": "generateUserInterface", "arguments": {"output": output(&["a"]), "previousSpecHash": 7}}),
                "/arguments/previousSpecHash",
            ),
        ] {
            let body = serde_json::to_vec(&body).unwrap();
            let error = GenerateJob::prepare(&body, None, &memory_off()).unwrap_err();
            assert_eq!(error.code(), crate::error::ErrorCode::InvalidRequest);
            assert_eq!(error.pointer(), Some(at));
        }
    }
}
