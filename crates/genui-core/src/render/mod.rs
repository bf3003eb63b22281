//! Rendering: a cached [`UiSpec`](crate::spec::UiSpec) plus the request's
//! data, projected into the format the client renders.
//!
//! Each format is a pure projection of the same spec, so switching format
//! never needs a new generation. Today: JSON Forms (seed 000's
//! `{jsonSchema, uiSchema, initialData}`).

pub mod initial_data;
pub mod jsonforms;

use serde::Serialize;

/// Whether the spec came from the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheStatus {
    /// Served from KV.
    Hit,
    /// Generated for this request.
    Miss,
}

/// A note for the client about something adjusted on the way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// Stable code, e.g. `data_dropped`.
    pub code: &'static str,
    /// JSON Pointer into the request's `data`.
    pub pointer: String,
    /// What happened.
    pub message: String,
}
