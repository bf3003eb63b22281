//! A warning: a note for the client about something a stage adjusted
//! (repairs, dropped data, a catalog binding replaced by its stand-in).

use serde::Serialize;

/// A note for the client about something adjusted on the way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Warning {
    /// Stable code, e.g. `data_dropped`.
    pub code: &'static str,
    /// JSON Pointer into the request's `data`.
    pub pointer: String,
    /// What happened.
    pub message: String,
}
