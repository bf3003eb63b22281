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

pub mod cache;
pub mod edge;
pub mod error;
pub mod plan;
pub mod pointer;
pub mod render;
pub mod request;
pub mod schema;
pub mod service;
pub mod submit;

// The paths every caller used before the stage folders (issue 14); the
// front door replaces them.
pub use cache::{memo, spec};
pub use edge::{access, contracts, tool, webhook};
pub use plan::{check, display, generate, sanitize};
pub use request::limits;

pub use error::{Error, ErrorCode, Result};
pub use limits::Limits;
pub use plan::{Control, Node, Plan, Widget};
pub use request::GenerateRequest;
pub use spec::UiSpec;
