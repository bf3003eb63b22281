//! genui-model: the model path of genui-worker, sans-IO.
//!
//! A UI-focused model writes a small *plan* (sections of controls pointing
//! into the `output` schema); this crate builds its prompt, speaks the
//! providers' wire formats, repairs and sanitises what comes back, proves it
//! with `genui_core::check`, and decides when to retry, wait or fall back.
//!
//! The rule, as in genui-core: no I/O, no clock, no randomness. Time is an
//! argument (`now_ms`, `elapsed_ms`); HTTP requests are data
//! ([`HttpRequest`], [`AiCall`]) that the worker shell performs and whose
//! answers it feeds back as [`Event`]s. Everything compiles natively and for
//! wasm32, and is tested natively against fixtures in the providers' real
//! wire formats.
//!
//! ```text
//! shell                               genui-model
//! ModelConfig::from_vars(env)  ->     config
//! Ladder::new(config, request, ..)    prompt -> providers::build
//! loop { ladder.next(event) }  <->    Send / RunAi / Wait
//!                                     providers::parse -> sanitize -> fix
//!                                     -> genui_core::check -> retry once
//! Done(LadderOutcome)          <-     Plan | Fallback | Failed + provenance
//! ```
//!
//! The model never writes the data schema: `output` is taken from the
//! request only, and the plan it fills ([`model_plan`] shows one) has no way to add,
//! drop or retype a field, or to list enum values.

#![warn(missing_docs, unreachable_pub)]

// Private modules behind one list: every public name has one path,
// `genui_model::Name`. `tests/front_door.rs` counts the list (at most 40).
mod agui;
mod config;
mod door;
mod fix;
mod ladder;
mod machine;
mod plan_schema;
mod prompt;
mod providers;
mod proxy;
mod registry;
mod stream;

pub use config::{ModelConfig, Provider};
pub use door::{serve, warm_up, Answer, Platform, WARM_UP_REQUEST};
pub use ladder::{Event, Ladder, LadderOutcome, LadderResult, Provenance, Step};
pub use machine::{Effect, Generation, Input, Mode, Summary, Update};
pub use plan_schema::from_plan as model_plan;
pub use prompt::{fields as prompt_fields, Prompt, INSTRUCTIONS_HEADER, PROMPT_VERSION};
pub use providers::{
    wire, AiCall, Call as ProviderCall, HttpRequest, Mode as WireMode, ModelReply, ProviderWire,
};
pub use registry::{Generators, Pick, VARIABLES};
pub use stream::{Encoder, GenerateEvents};
