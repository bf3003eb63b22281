//! The generator seam for embedders: a [`Generator`] writes a [`Plan`] for
//! a data-free request, synchronously and without I/O; the core proves it
//! the way it proves a model's plan (sanitise, lay out for the device,
//! `check_plan`) and falls back to the deterministic plan, with the reason
//! in the provenance, when it is not proven.
//!
//! The worker itself runs its model providers and the operator's `http`
//! generators through genui-model's ladder (retries, deadline, repairs);
//! this is the same contract for code that embeds genui-core and has its
//! plan in hand (a rule engine, a template store, a local model).
//!
//! ```text
//! GenerateJob::prepare(body) -> job.run_generator(&my_generator, cached)
//!     rekey (name + identity)  -> hit? the cached spec
//!     generator.plan(request without `data`) -> sanitize -> arrange -> check
//!         proven       -> the spec, cached under the generator's key
//!         not proven   -> the deterministic spec, meta.generator = fallback
//! ```

use crate::cache::spec::GeneratorId;
use crate::error::{Error, ErrorCode, Result};
use crate::plan::check::check_plan;
use crate::plan::Plan;
use crate::request::GenerateRequest;
use crate::service::{GenerateJob, Outcome};
use serde_json::{json, Map, Value};

/// A plan generator an embedder plugs in (see the module docs).
pub trait Generator {
    /// The generator's name, as a request's `generator` names it.
    fn name(&self) -> &str;
    /// What identifies this generator's plans in the cache: change it when
    /// its output for the same request would change (a version, a URL).
    fn identity(&self) -> String;
    /// A plan for `request`, whose `data` is always `Null`: a generator
    /// never sees the user's values. `deterministic` is the built-in plan,
    /// a starting point. An `Err` falls back to it.
    fn plan(&self, request: &GenerateRequest, deterministic: &Plan) -> Result<Plan>;
}

impl GenerateJob {
    /// Answers the request with `generator` (see the module docs): keyed
    /// by its name and identity, so its specs are cached apart; `cached`
    /// is what the cache held under [`GenerateJob::cache_key`] after the
    /// rekey (pass `None` to skip the cache). A display is always laid out
    /// deterministically, and never read from the cache.
    pub fn run_generator(
        mut self,
        generator: &dyn Generator,
        cached: impl FnOnce(&str) -> Option<String>,
    ) -> Outcome {
        if self.is_display() {
            return self.answer(None);
        }
        let id = GeneratorId {
            generator: "model".into(),
            generator_version: format!("{}/{}", generator.name(), generator.identity()),
        };
        if let Err(error) = self.rekey(id) {
            return Outcome::failed(&error);
        }
        let key = self.cache_key().to_owned();
        if let Some(hit) = self
            .remembered()
            .or_else(|| self.hit(cached(&key).as_deref()))
        {
            return hit;
        }
        let proven = match self.prove_schema() {
            Ok(proven) => proven,
            Err(error) => return Outcome::failed(&error),
        };
        let request = self.request();
        let deterministic = match Plan::generate_for(
            &request.output,
            &request.description,
            request.wants_confirm(),
            request.device,
            &self.limits,
        ) {
            Ok(plan) => plan,
            Err(error) => return Outcome::failed(&error),
        };
        let mut asked = request.clone();
        asked.data = Value::Null;
        let identity = self.generator.generator_version.clone();
        let provenance = |generator: &str, reason: Option<String>| {
            let mut meta = Map::new();
            meta.insert("generator".into(), json!(generator));
            meta.insert("provider".into(), json!("embedded"));
            meta.insert("model".into(), json!(identity));
            if let Some(reason) = reason {
                meta.insert("reason".into(), json!(reason));
            }
            meta
        };
        match self.proven_plan(generator.plan(&asked, &deterministic)) {
            Ok(plan) => self.complete(plan, &proven, provenance("model", None)),
            Err(error) => match self.rekey(GeneratorId::deterministic()) {
                Ok(()) => self.complete(
                    deterministic,
                    &proven,
                    provenance("fallback", Some(error.message().to_owned())),
                ),
                Err(error) => Outcome::failed(&error),
            },
        }
    }

    /// A generator's plan, sanitised, laid out and checked.
    fn proven_plan(&self, plan: Result<Plan>) -> Result<Plan> {
        let mut plan = plan?;
        plan.sanitize();
        let request = self.request();
        request.arrange(&mut plan, &self.limits);
        let issues = check_plan(&plan, &request.output, &self.limits);
        match issues.first() {
            None => Ok(plan),
            Some(first) => Err(Error::new(
                ErrorCode::InvalidRequest,
                format!(
                    "the generator's plan failed its checks ({} issue(s); first {} at {:?}: {})",
                    issues.len(),
                    first.code,
                    first.pointer,
                    first.message
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Node, Widget};
    use crate::Limits;

    struct Fixed(Option<Widget>);

    impl Generator for Fixed {
        fn name(&self) -> &str {
            "fixed"
        }
        fn identity(&self) -> String {
            "v1".into()
        }
        fn plan(&self, request: &GenerateRequest, deterministic: &Plan) -> Result<Plan> {
            assert!(request.data.is_null(), "a generator never sees data");
            let mut plan = deterministic.clone();
            plan.title = Some("<b>Mine</b>".into());
            if let Some(widget) = self.0 {
                first_control(&mut plan.root).unwrap().widget = widget;
            }
            Ok(plan)
        }
    }

    fn first_control(node: &mut Node) -> Option<&mut crate::plan::Control> {
        match node {
            Node::Control(control) => Some(control),
            Node::Vertical { elements }
            | Node::Horizontal { elements }
            | Node::Group { elements, .. } => elements.iter_mut().find_map(first_control),
            Node::Steps { steps } => steps
                .iter_mut()
                .flat_map(|s| s.elements.iter_mut())
                .find_map(first_control),
            Node::Table(_) => None,
        }
    }

    fn job() -> GenerateJob {
        let body = json!({"description": "Sign up", "data": {"name": "Ada"}, "output": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}});
        GenerateJob::prepare(body.to_string().as_bytes(), None, &Limits::default()).unwrap()
    }

    fn meta(outcome: &Outcome) -> Value {
        serde_json::from_str::<Value>(&outcome.response.body).unwrap()["meta"].clone()
    }

    #[test]
    fn a_proven_plan_is_served_sanitised_and_keyed_apart() {
        let deterministic_key = job().cache_key().to_owned();
        let outcome = job().run_generator(&Fixed(None), |_| None);
        assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
        let meta = meta(&outcome);
        assert_eq!(
            (meta["generator"].as_str(), meta["title"].as_str()),
            (Some("model"), Some("Mine")),
            "{meta}"
        );
        let put = outcome.cache_put.unwrap();
        assert_ne!(put.key, deterministic_key);
    }

    #[test]
    fn a_misfit_widget_falls_back_with_the_reason() {
        let outcome = job().run_generator(&Fixed(Some(Widget::Checkbox)), |_| None);
        assert_eq!(outcome.response.status, 200);
        let meta = meta(&outcome);
        assert_eq!(meta["generator"], "fallback", "{meta}");
        assert!(
            meta["reason"]
                .as_str()
                .unwrap()
                .contains("failed its checks"),
            "{meta}"
        );
        assert_eq!(
            outcome.cache_put.unwrap().key,
            job().cache_key(),
            "the fallback is the deterministic spec, under its key"
        );
    }
}
