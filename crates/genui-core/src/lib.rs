//! genui-core: the sans-IO core of genui-worker.
//!
//! Everything here is pure: no I/O, no clock, no randomness, no worker types.
//! Given the same bytes it returns the same answer, on the host and in wasm.
//! The worker shell (the root crate) owns HTTP, KV and time; it asks this
//! crate what to do and performs the effects it returns (see [`service`]).
//!
//! The pipeline, one direction:
//!
//! ```text
//! body -> limits -> request -> cache key -> (cache hit?) -> schema check
//!      -> generate (plan) -> check -> spec -> render (jsonforms) -> response
//! ```

#![warn(missing_docs, unreachable_pub)]

pub mod access;
pub mod check;
pub mod contracts;
pub mod display;
pub mod error;
pub mod generate;
pub mod limits;
pub mod memo;
pub mod plan;
pub mod pointer;
pub mod render;
pub mod request;
pub mod sanitize;
pub mod schema;
pub mod service;
pub mod spec;
pub mod submit;
pub mod tool;
pub mod webhook;

pub use error::{Detail, Error, ErrorCode, ModelFailure, Result, RetryAfter};
pub use limits::Limits;
pub use plan::{Control, Node, Plan, Widget};
pub use request::GenerateRequest;
pub use spec::UiSpec;
