//! The one error type of the core, and its mapping to `dgui_error`.
//!
//! Every failure anywhere in the pipeline becomes an [`Error`]: a stable
//! [`ErrorCode`] (the `code` clients switch on), a human message that says
//! what and where, and a JSON payload with details (at least the JSON Pointer
//! of the offending value when there is one). [`Error::to_dgui_error`] and
//! [`ErrorCode::http_status`] are the single place where errors meet HTTP.

use serde_json::{json, Map, Value};
use std::fmt;

/// Stable, machine-readable error codes. The string form is part of the API:
/// never rename a variant's code, only add new ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The body (or an embedded JSON string) is not valid JSON.
    InvalidJson,
    /// The JSON is valid but not one of the accepted request shapes.
    InvalidRequest,
    /// A tool call names a tool other than `generateUserInterface`.
    UnknownTool,
    /// `output` is not a valid JSON Schema (by its meta-schema or compilation).
    InvalidSchema,
    /// A `$ref` in `output` points nowhere, outside the document, or in a cycle.
    UnresolvedRef,
    /// The body exceeds the byte limit.
    BodyTooLarge,
    /// The body nests deeper than the depth limit.
    BodyTooDeep,
    /// `output` has more nodes, properties or enum values than allowed.
    SchemaTooLarge,
    /// `output` nests objects deeper than allowed (counting `$ref` expansion).
    SchemaTooDeep,
    /// `format` names no supported output format.
    UnsupportedFormat,
    /// An AG-UI event stream that does not assemble into one tool call.
    InvalidEventStream,
    /// Submitted data fails the `output` schema.
    SubmissionInvalid,
    /// A `specHash` that is not (or no longer) in the cache.
    SpecNotFound,
    /// A `/v1` route called without a valid bearer key.
    Unauthorized,
    /// A webhook whose signature is missing, wrong or too old.
    InvalidSignature,
    /// The caller is over its request budget.
    RateLimited,
    /// No route for this path.
    NotFound,
    /// The route exists but not for this method.
    MethodNotAllowed,
    /// A bug: the worker produced something its own contract rejects.
    Internal,
}

impl ErrorCode {
    /// The wire name of the code.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidJson => "invalid_json",
            Self::InvalidRequest => "invalid_request",
            Self::UnknownTool => "unknown_tool",
            Self::InvalidSchema => "invalid_schema",
            Self::UnresolvedRef => "unresolved_ref",
            Self::BodyTooLarge => "body_too_large",
            Self::BodyTooDeep => "body_too_deep",
            Self::SchemaTooLarge => "schema_too_large",
            Self::SchemaTooDeep => "schema_too_deep",
            Self::UnsupportedFormat => "unsupported_format",
            Self::InvalidEventStream => "invalid_event_stream",
            Self::SubmissionInvalid => "submission_invalid",
            Self::SpecNotFound => "spec_not_found",
            Self::Unauthorized => "unauthorized",
            Self::InvalidSignature => "invalid_signature",
            Self::RateLimited => "rate_limited",
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::Internal => "internal_error",
        }
    }

    /// The HTTP status that fits the code.
    pub fn http_status(self) -> u16 {
        match self {
            Self::InvalidJson | Self::InvalidRequest | Self::UnknownTool => 400,
            Self::UnsupportedFormat | Self::InvalidEventStream => 400,
            Self::Unauthorized | Self::InvalidSignature => 401,
            Self::RateLimited => 429,
            Self::NotFound | Self::SpecNotFound => 404,
            Self::MethodNotAllowed => 405,
            Self::BodyTooLarge | Self::BodyTooDeep | Self::SchemaTooLarge => 413,
            Self::InvalidSchema | Self::UnresolvedRef | Self::SchemaTooDeep | Self::SubmissionInvalid => 422,
            Self::Internal => 500,
        }
    }

    /// Every code, for documentation and contract tests.
    pub const ALL: [ErrorCode; 19] = [
        Self::InvalidJson,
        Self::InvalidRequest,
        Self::UnknownTool,
        Self::InvalidSchema,
        Self::UnresolvedRef,
        Self::BodyTooLarge,
        Self::BodyTooDeep,
        Self::SchemaTooLarge,
        Self::SchemaTooDeep,
        Self::UnsupportedFormat,
        Self::InvalidEventStream,
        Self::SubmissionInvalid,
        Self::SpecNotFound,
        Self::Unauthorized,
        Self::InvalidSignature,
        Self::RateLimited,
        Self::NotFound,
        Self::MethodNotAllowed,
        Self::Internal,
    ];
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failure with its code, message and details.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    code: ErrorCode,
    message: String,
    payload: Map<String, Value>,
}

impl Error {
    /// A new error with an empty payload.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), payload: Map::new() }
    }

    /// Records the JSON Pointer (into the request body) of the offending value.
    pub fn at(self, pointer: impl Into<String>) -> Self {
        self.with("pointer", Value::String(pointer.into()))
    }

    /// Adds one detail to the payload.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.payload.insert(key.to_owned(), value.into());
        self
    }

    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The JSON Pointer of the offending value, when known.
    pub fn pointer(&self) -> Option<&str> {
        self.payload.get("pointer").and_then(Value::as_str)
    }

    /// The details.
    pub fn payload(&self) -> &Map<String, Value> {
        &self.payload
    }

    /// The HTTP status for this error.
    pub fn http_status(&self) -> u16 {
        self.code.http_status()
    }

    /// The `dgui_error` message (seed 001 §8, plus a stable `code`).
    pub fn to_dgui_error(&self) -> Value {
        json!({
            "type": "dgui_error",
            "code": self.code.as_str(),
            "message": self.message,
            "payload": Value::Object(self.payload.clone()),
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}

/// Shorthand used throughout the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            assert!(seen.insert(code.as_str()), "duplicate {code}");
            assert!(code.as_str().chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        }
    }

    #[test]
    fn dgui_error_shape() {
        let e = Error::new(ErrorCode::InvalidSchema, "bad").at("/output/type");
        let v = e.to_dgui_error();
        assert_eq!(v["type"], "dgui_error");
        assert_eq!(v["code"], "invalid_schema");
        assert_eq!(v["payload"]["pointer"], "/output/type");
        assert_eq!(e.http_status(), 422);
    }
}
