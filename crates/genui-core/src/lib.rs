//! genui-core: the sans-IO core of genui-worker.
//!
//! Everything here is pure: no I/O, no clock, no randomness, no worker types.
//! Given the same bytes it returns the same answer, on the host and in wasm.
//! The worker shell (the root crate) owns HTTP, KV and time; it asks this
//! crate what to do and performs the effects it returns.
//!
//! The pipeline, one direction, and the folder of each stage. The folders are
//! layers: `terms/` below every stage, `edge/`'s front ends above the pipeline
//! (docs/architecture.md draws them); `scripts/module-cycles.py` finds no
//! import cycle among files or folders:
//!
//! ```text
//! terms/    what every stage shares: formats, devices, limits, contract schemas
//! request/  body -> limits -> parse (every tool-call shape) -> GenerateRequest
//! cache/    -> canonical hash, cache key -> (hit? the stored UiSpec)
//! schema/   -> prove `output` (meta-schema, references, compile)
//! plan/     -> generate (or a display's tables, or a model's plan) -> check
//! catalog/  (the operator's components: bindings proven, or repaired to built-ins)
//! render/   -> JSON Forms | RJSF | LMUI, with the request's data -> response
//! submit.rs    /v1/submit: data checked against the stored contract
//! service.rs   the generate request, driven through the stages above
//! generator.rs an embedder's own plan generator, proven like a model's
//! edge/        the front ends: the route table, access keys and CORS, signed
//!              webhooks, hosted forms, MCP, tool and OpenAPI documents, and
//!              the one submission path every door goes through
//! ```
//!
//! # The API, in pipeline order
//!
//! - **Request:** [`Limits`] (the bounds on input and the rest of the
//!   isolate's configuration, in one value), [`GenerateRequest`].
//! - **Routes:** [`Route`] (from the route table) and its [`Handler`].
//! - **Service** (what the shell drives): [`GenerateJob`] and its
//!   [`GenerateJob::answer`] given what KV held, [`Submission`] (every
//!   front door's submission, made by its door's constructor:
//!   [`Submission::api`], [`Submission::hosted`], [`Submission::agent`];
//!   [`Submitted`] out, its answer's row from one table in the core),
//!   [`SubmitJob`] (a submission read and checked), [`Outcome`],
//!   [`HttpResponse`], [`CachePut`].
//! - **Cache identity:** [`UiSpec`], [`GeneratorId`] and its
//!   [`GeneratorId::spec_hash`] (and [`GeneratorId::forget_digests`]); the operator's
//!   [`Catalog`]s (carried in [`Limits`], built once per isolate; their hash is part of the key).
//! - **Schema views** (what the generator and the checker read):
//!   [`SchemaDoc`] ([`SchemaDoc::check_output`] proves an `output`,
//!   [`SchemaDoc::field_views`] and [`SchemaDoc::control_kind`] read a
//!   field), [`Pointer`].
//! - **Plan:** [`Plan`], [`Node`], [`WizardStep`], [`Control`], [`Widget`];
//!   [`Plan::generate`] ([`Plan::generate_for`] for a device),
//!   [`GenerateRequest::arrange`] (the layout every plan gets); an embedder's own
//!   [`Generator`] (`GenerateJob::run_generator`); the checker
//!   [`Plan::check`], its [`Issue`]s, [`Issue::markup_in`], [`Issue::echoes`];
//!   [`Control::plain_text`].
//! - **Formats:** [`Format`] (its input from [`UiSpec::render_input`]), [`Contract`].
//! - **Edge:** [`Access`], [`Webhook`] and its once-only [`ReplayClaim`]
//!   (decided over a [`ReplayShard`]),
//!   [`FormToken`] and [`FormRecord`] (hosted form links), what a link's
//!   Durable Object does (its runtime, a [`FormObjectHost`], serves each
//!   request and alarm; the delivery's [`AttemptResult`]s), a person's visit to a link
//!   ([`HostedVisit`]), [`SpecRender`] (a stored spec rendered again), [`Mcp`]
//!   (`POST /mcp`) and its [`McpSettings`] (the form view among them).
//! - **Errors:** [`Error`], [`ErrorCode`], [`ModelFailure`].

#![deny(missing_docs, unreachable_pub)]

mod cache;
mod catalog;
mod edge;
mod error;
mod generator;
mod interrupt;
mod plan;
mod pointer;
mod render;
mod request;
mod schema;
mod service;
mod submit;
mod terms;
mod text;

pub use request::GenerateRequest;
pub use terms::limits::Limits;

pub use edge::routes::{Handler, Route};
pub use service::{CachePut, GenerateJob, Outcome};
pub use submit::SubmitJob;
pub use terms::response::HttpResponse;

pub use cache::spec::{GeneratorId, UiSpec};
pub use catalog::Catalog;

pub use pointer::Pointer;
pub use schema::SchemaDoc;

pub use generator::Generator;
pub use plan::check::Issue;
pub use plan::{Control, Node, Plan, Widget, WizardStep};

pub use terms::contracts::Contract;
pub use terms::format::Format;

pub use edge::access::Access;
pub use edge::form_object_run::FormObjectHost;
pub use edge::forms::{FormRecord, FormToken};
pub use edge::hosted_visit::HostedVisit;
pub use edge::mcp::{Mcp, McpSettings};
pub use edge::outbox::AttemptResult;
pub use edge::replay::{ReplayClaim, ReplayShard};
pub use edge::rerender::SpecRender;
pub use edge::submission::{Submission, Submitted};
pub use edge::webhook::Webhook;

pub use error::{Error, ErrorCode, ModelFailure};
