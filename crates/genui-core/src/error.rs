//! The one error type of the core and the model path, and its mapping to
//! `dgui_error`.
//!
//! Every failure anywhere in the pipeline becomes an [`Error`]: a stable
//! [`ErrorCode`] (the `code` clients switch on; model failures nest a
//! [`ModelFailure`]), a human message that says what and where, and typed
//! [`Detail`]s (at least the JSON Pointer of the offending value when there
//! is one). This module is the single place where errors meet HTTP: the
//! code's wire name and status ([`ErrorCode::as_str`],
//! [`ErrorCode::http_status`]), each detail's payload key
//! ([`Detail::entry`]) and the body ([`Error::to_dgui_error`]).
//!
//! The list of codes is derived: [`ErrorCode::all`] and [`ErrorCode::codes`]
//! come from the same declaration as the enum, so a new variant cannot miss
//! `schemas/dgui-error.schema.json` or the table in `docs/api.md` (both are tested
//! against the list).

use serde::Serialize;
use serde_json::{json, Map, Value};
use std::fmt;

/// Declares a code enum together with its wire names and HTTP statuses, and
/// derives `all()` from the same list, so that no variant can be left out of
/// it. An optional last variant nests another code enum (its codes and
/// statuses are the nested enum's), declared after the enum in `nests { }`.
macro_rules! code_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$doc:meta])* $variant:ident = $code:literal => $status:literal, )*
        }
        $( nests { $(#[$nested_doc:meta])* $nested:ident($inner:ident) } )?
    ) => {
        $(#[$meta])*
        pub enum $name {
            $( $(#[$doc])* $variant, )*
            $( $(#[$nested_doc])* $nested($inner), )?
        }

        impl $name {
            /// The wire name of the code.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $code, )*
                    $( Self::$nested(inner) => inner.as_str(), )?
                }
            }

            /// The HTTP status that fits the code.
            pub fn http_status(self) -> u16 {
                match self {
                    $( Self::$variant => $status, )*
                    $( Self::$nested(inner) => inner.http_status(), )?
                }
            }

            /// Every variant (nested ones included), in declaration order.
            pub fn all() -> impl Iterator<Item = Self> {
                let nested = std::iter::empty();
                $( let nested = nested.chain($inner::all().map(Self::$nested)); )?
                [$( Self::$variant ),*].into_iter().chain(nested)
            }
        }
    };
}

code_enum! {
    /// Why a model failed, by what the caller can do about it. Several kinds
    /// may share a wire code: the kind also steers the model ladder.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum ModelFailure {
        /// No answer in time (attempt timeout or overall deadline).
        Timeout = "model_timeout" => 504,
        /// Unreachable, 5xx, or a request the server would not serve.
        Unavailable = "model_unavailable" => 502,
        /// 429: try again later (the model is an upstream; its other
        /// failures are gateway errors).
        RateLimited = "model_rate_limited" => 429,
        /// An answer, but no usable plan: not JSON, truncated, refused, or a
        /// plan that failed its checks after the retry.
        OutputInvalid = "model_output_invalid" => 502,
        /// 401/403: the key is missing, wrong or not allowed.
        Auth = "model_auth" => 502,
        /// The server rejected `response_format: json_schema` (the ladder
        /// falls back to `json_object`; answered as unavailable).
        FormatUnsupported = "model_unavailable" => 502,
    }
}

code_enum! {
    /// Stable, machine-readable error codes. The string form is part of the
    /// API: never rename a variant's code, only add new ones.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum ErrorCode {
        /// The body (or an embedded JSON string) is not valid JSON.
        InvalidJson = "invalid_json" => 400,
        /// The JSON is valid but not one of the accepted request shapes.
        InvalidRequest = "invalid_request" => 400,
        /// A tool call names a tool other than `generateUserInterface`.
        UnknownTool = "unknown_tool" => 400,
        /// `output` is not a valid JSON Schema (by its meta-schema or compilation).
        InvalidSchema = "invalid_schema" => 422,
        /// A `$ref` in `output` points nowhere, outside the document, or in a cycle.
        UnresolvedRef = "unresolved_ref" => 422,
        /// The body exceeds the byte limit.
        BodyTooLarge = "body_too_large" => 413,
        /// The body nests deeper than the depth limit.
        BodyTooDeep = "body_too_deep" => 413,
        /// `output` has more nodes, properties or enum values than allowed.
        SchemaTooLarge = "schema_too_large" => 413,
        /// A request's `instructions` are over `Limits::max_instructions_bytes`.
        InstructionsTooLarge = "instructions_too_large" => 413,
        /// `output` nests objects deeper than allowed (counting `$ref` expansion).
        SchemaTooDeep = "schema_too_deep" => 422,
        /// `format` names no supported output format.
        UnsupportedFormat = "unsupported_format" => 400,
        /// A `catalog` the answer cannot use: an operator catalog written
        /// for A2UI v0.9, asked in A2UI v1.0, or one that proved malformed.
        UnsupportedCatalog = "unsupported_catalog" => 400,
        /// An AG-UI event stream that does not assemble into one tool call.
        InvalidEventStream = "invalid_event_stream" => 400,
        /// Submitted data fails the `output` schema.
        SubmissionInvalid = "submission_invalid" => 422,
        /// A `specHash` that is not (or no longer) in the cache.
        SpecNotFound = "spec_not_found" => 404,
        /// A `/v1` route called without a valid bearer key.
        Unauthorized = "unauthorized" => 401,
        /// A webhook whose signature is missing, wrong or too old, or an
        /// interrupt token that is missing, forged or made for another use.
        InvalidSignature = "invalid_signature" => 401,
        /// A signed webhook request whose signature was already accepted once.
        WebhookReplayed = "webhook_replayed" => 409,
        /// The caller is over its request budget.
        RateLimited = "rate_limited" => 429,
        /// `/mcp` asked through a `Host` or from an `Origin` it does not serve (DNS-rebinding protection).
        Forbidden = "forbidden" => 403,
        /// No route for this path.
        NotFound = "not_found" => 404,
        /// A hosted form's link (`/f/<token>`) has expired.
        FormExpired = "form_expired" => 410,
        /// An MCP call retried after an `input_required` result whose
        /// `requestState` was not issued by this worker, has expired, or is
        /// for another form.
        InvalidRequestState = "invalid_request_state" => 400,
        /// An AG-UI interrupt answered at or after its `expiresAt`: gone for
        /// good, as an expired form link is (it may still be cancelled).
        InterruptExpired = "interrupt_expired" => 410,
        /// An upstream AG-UI agent of `GENUI_AGENTS` could not be reached
        /// or answered a non-2xx status (proxy mode).
        UpstreamUnavailable = "upstream_unavailable" => 502,
        /// An upstream AG-UI agent answered something other than an AG-UI
        /// event stream: not SSE, an event that is not JSON or is over the
        /// size limit, too many bytes, or a stream closed before its end.
        UpstreamInvalid = "upstream_invalid" => 502,
        /// An upstream AG-UI agent did not end its run within its deadline.
        UpstreamTimeout = "upstream_timeout" => 504,
        /// The route exists but not for this method.
        MethodNotAllowed = "method_not_allowed" => 405,
        /// A bug: the worker produced something its own contract rejects.
        Internal = "internal_error" => 500,
    }
    nests {
        /// The model failed (and `generator: "model"` was forced).
        Model(ModelFailure)
    }
}

impl ErrorCode {
    /// Every distinct wire code, in declaration order: what the contract
    /// schema's `code` enum and the error table in `docs/api.md` must list.
    pub fn codes() -> Vec<&'static str> {
        let mut codes: Vec<&'static str> = Vec::new();
        for code in Self::all() {
            if !codes.contains(&code.as_str()) {
                codes.push(code.as_str());
            }
        }
        codes
    }

    /// The nested model failure, when this is one.
    pub fn model_failure(self) -> Option<ModelFailure> {
        match self {
            Self::Model(kind) => Some(kind),
            _ => None,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<ModelFailure> for ErrorCode {
    fn from(kind: ModelFailure) -> Self {
        Self::Model(kind)
    }
}

/// When a rate-limited model request may be retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryAfter {
    /// After this many milliseconds.
    Delay(u64),
    /// At this Unix time in milliseconds (an HTTP date).
    At(u64),
}

/// One violation of a submission (`payload.errors`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// JSON Pointer of the value in the submitted data.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    /// The JSON Schema keyword that failed.
    pub keyword: String,
}

/// One finding of the plan checker on the worker's own plan
/// (`payload.issues` of an `internal_error`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanIssue {
    /// The checker's stable issue code.
    pub code: &'static str,
    /// Schema path the issue is about.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

/// One typed detail of an error. The payload holds details in the order
/// they were learned (a caller may add the pointer last, when it knows
/// where the failing part sits in the body), which is the order of the
/// payload's keys.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Detail {
    /// `pointer`: JSON Pointer of the offending value in the request body.
    Pointer(String),
    /// `ref`: the `$ref` that does not resolve.
    Ref(String),
    /// `field`: schema path of the field being generated.
    Field(String),
    /// `limit`: the limit that was exceeded.
    Limit(usize),
    /// `actual`: the measured size, when known.
    Actual(usize),
    /// `offset`: byte offset where a limit was crossed.
    Offset(usize),
    /// `line`: line of a JSON syntax error.
    Line(usize),
    /// `column`: column of a JSON syntax error.
    Column(usize),
    /// `keyword`: the meta-schema keyword that failed.
    Keyword(String),
    /// `kind`: what a `specHash` names (`display`).
    Kind(&'static str),
    /// `format`: an unsupported format name.
    Format(String),
    /// `errors`: every violation of a submission.
    Errors(Vec<FieldError>),
    /// `tool`: the tool a call names.
    Tool(String),
    /// `toolCallId`: the AG-UI tool call.
    ToolCallId(String),
    /// `path`: a path no route serves.
    Path(String),
    /// `allow`: the methods a route takes.
    Allow(String),
    /// `issues`: the checker's findings on the worker's own plan.
    Issues(Vec<PlanIssue>),
    /// `retryAfterSeconds`: when a rate-limited caller may try again.
    RetryAfterSeconds(u32),
    /// `providerStatus`: the model provider's HTTP status (null without a
    /// response).
    ProviderStatus(Option<u16>),
    /// `retryAfterMs` when the provider gave a delay; an HTTP date is kept
    /// for the model ladder's wait but not answered.
    RetryAfter(RetryAfter),
    /// The model's raw output when it answered with something unusable, fed
    /// back in the retry turn; never answered.
    ModelOutput(String),
    /// The `error` an A2UI client sent in place of an action, as it sent it.
    A2uiError(Value),
}

impl Detail {
    /// The payload key and value of this detail; `None` for details kept
    /// for the model ladder only.
    pub fn entry(&self) -> Option<(&'static str, Value)> {
        let text = |s: &str| Value::String(s.to_owned());
        Some(match self {
            Self::Pointer(p) => ("pointer", text(p)),
            Self::Ref(r) => ("ref", text(r)),
            Self::Field(f) => ("field", text(f)),
            Self::Limit(n) => ("limit", json!(n)),
            Self::Actual(n) => ("actual", json!(n)),
            Self::Offset(n) => ("offset", json!(n)),
            Self::Line(n) => ("line", json!(n)),
            Self::Column(n) => ("column", json!(n)),
            Self::Keyword(k) => ("keyword", text(k)),
            Self::Kind(k) => ("kind", text(k)),
            Self::Format(f) => ("format", text(f)),
            Self::Errors(list) => ("errors", json!(list)),
            Self::Tool(t) => ("tool", text(t)),
            Self::ToolCallId(id) => ("toolCallId", text(id)),
            Self::Path(p) => ("path", text(p)),
            Self::Allow(a) => ("allow", text(a)),
            Self::Issues(list) => ("issues", json!(list)),
            Self::A2uiError(e) => ("a2uiError", e.clone()),
            Self::RetryAfterSeconds(s) => ("retryAfterSeconds", json!(s)),
            Self::ProviderStatus(s) => ("providerStatus", json!(s)),
            Self::RetryAfter(RetryAfter::Delay(ms)) => ("retryAfterMs", json!(ms)),
            Self::RetryAfter(RetryAfter::At(_)) | Self::ModelOutput(_) => return None,
        })
    }

    fn same_kind(&self, other: &Self) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// Raw model output kept for a retry is cut at this many bytes.
const MAX_MODEL_OUTPUT_BYTES: usize = 16 * 1024;

/// A failure with its code, message and details.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    code: ErrorCode,
    message: String,
    details: Vec<Detail>,
}

impl Error {
    /// A new error without details.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// A model failure; its payload always says the provider's status
    /// (null until [`Self::with_provider_status`]).
    pub fn model(kind: ModelFailure, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Model(kind), message).with(Detail::ProviderStatus(None))
    }

    /// Records the JSON Pointer (into the request body) of the offending value.
    pub fn at(self, pointer: impl Into<String>) -> Self {
        self.with(Detail::Pointer(pointer.into()))
    }

    /// Adds one detail; a detail of the same kind is replaced where it stands.
    pub(crate) fn with(mut self, detail: Detail) -> Self {
        match self.details.iter_mut().find(|d| d.same_kind(&detail)) {
            Some(slot) => *slot = detail,
            None => self.details.push(detail),
        }
        self
    }

    /// Records that a rate-limited model may be asked again after `ms`
    /// milliseconds (the provider's `Retry-After` as a delay):
    /// `retryAfterMs` in the payload.
    pub fn with_retry_after_ms(self, ms: u64) -> Self {
        self.with(Detail::RetryAfter(RetryAfter::Delay(ms)))
    }

    /// Records that a rate-limited model may be asked again at `unix_ms`
    /// (the provider's `Retry-After` as an HTTP date); read back with
    /// [`Error::retry_after_ms`].
    pub fn with_retry_at_ms(self, unix_ms: u64) -> Self {
        self.with(Detail::RetryAfter(RetryAfter::At(unix_ms)))
    }

    /// Records how many seconds the client should wait before trying
    /// again: `retryAfterSeconds` in the payload, and the `Retry-After`
    /// header.
    pub fn with_retry_after_seconds(self, seconds: u32) -> Self {
        self.with(Detail::RetryAfterSeconds(seconds))
    }

    /// Records the model provider's HTTP status.
    pub fn with_provider_status(self, status: u16) -> Self {
        self.with(Detail::ProviderStatus(Some(status)))
    }

    /// Records the model's raw output (cut to a bounded size).
    pub fn with_model_output(self, output: &str) -> Self {
        let mut end = output.len().min(MAX_MODEL_OUTPUT_BYTES);
        while !output.is_char_boundary(end) {
            end -= 1;
        }
        self.with(Detail::ModelOutput(output[..end].to_owned()))
    }

    /// The same error with another message.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// Removes every occurrence of `secret` (a configured key of at least
    /// four characters) from the message and the kept model output.
    pub fn without_secret(mut self, secret: Option<&str>) -> Self {
        let Some(secret) = secret.filter(|s| s.len() >= 4) else {
            return self;
        };
        self.message = self.message.replace(secret, "[redacted]");
        for detail in &mut self.details {
            if let Detail::ModelOutput(output) = detail {
                *output = output.replace(secret, "[redacted]");
            }
        }
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

    /// The details, in payload order.
    pub fn details(&self) -> &[Detail] {
        &self.details
    }

    /// The JSON Pointer of the offending value, when known.
    pub fn pointer(&self) -> Option<&str> {
        self.details.iter().find_map(|d| match d {
            Detail::Pointer(p) => Some(p.as_str()),
            _ => None,
        })
    }

    /// The schema path of the field being generated, when known.
    pub fn field(&self) -> Option<&str> {
        self.details.iter().find_map(|d| match d {
            Detail::Field(f) => Some(f.as_str()),
            _ => None,
        })
    }

    /// The model provider's HTTP status, when there was a response.
    pub fn provider_status(&self) -> Option<u16> {
        self.details.iter().find_map(|d| match d {
            Detail::ProviderStatus(s) => *s,
            _ => None,
        })
    }

    /// The model's raw output, when kept.
    pub fn model_output(&self) -> Option<&str> {
        self.details.iter().find_map(|d| match d {
            Detail::ModelOutput(o) => Some(o.as_str()),
            _ => None,
        })
    }

    /// Milliseconds to wait before retrying a rate-limited model, given the
    /// current time.
    pub fn retry_after_ms(&self, now_ms: u64) -> Option<u64> {
        self.details.iter().find_map(|d| match d {
            Detail::RetryAfter(RetryAfter::Delay(ms)) => Some(*ms),
            Detail::RetryAfter(RetryAfter::At(at)) => Some(at.saturating_sub(now_ms)),
            _ => None,
        })
    }

    /// The payload object: each answered detail under its key.
    pub fn payload(&self) -> Map<String, Value> {
        self.details
            .iter()
            .filter_map(Detail::entry)
            .map(|(k, v)| (k.to_owned(), v))
            .collect()
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
            "payload": Value::Object(self.payload()),
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
pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_snake_case_and_each_kind_is_listed_once() {
        let all: Vec<ErrorCode> = ErrorCode::all().collect();
        for (i, code) in all.iter().enumerate() {
            assert!(!all[..i].contains(code), "{code:?} twice");
            assert!(
                code.as_str()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_'),
                "{code}"
            );
        }
        assert!(all.contains(&ErrorCode::Model(ModelFailure::FormatUnsupported)));
        assert_eq!(all.len(), 27 + 8);
        let codes = ErrorCode::codes();
        assert_eq!(
            codes.len(),
            27 + 7,
            "FormatUnsupported shares model_unavailable"
        );
        assert!(codes.contains(&"model_auth") && codes.contains(&"internal_error"));
    }

    #[test]
    fn model_statuses() {
        let status = |kind| ErrorCode::Model(kind).http_status();
        assert_eq!(status(ModelFailure::Timeout), 504);
        assert_eq!(status(ModelFailure::RateLimited), 429);
        assert_eq!(status(ModelFailure::Auth), 502);
        assert_eq!(
            ErrorCode::Model(ModelFailure::FormatUnsupported).as_str(),
            "model_unavailable"
        );
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

    #[test]
    fn details_keep_their_order_and_replace_in_place() {
        let e = Error::new(ErrorCode::SchemaTooDeep, "deep")
            .with(Detail::Field("/a".into()))
            .with(Detail::Limit(48))
            .at("/output/a");
        assert_eq!(
            e.to_dgui_error()["payload"].to_string(),
            r#"{"field":"/a","limit":48,"pointer":"/output/a"}"#
        );
        let e = e.with(Detail::Field("/b".into()));
        assert_eq!(e.field(), Some("/b"));
        assert_eq!(
            e.payload().keys().collect::<Vec<_>>(),
            ["field", "limit", "pointer"]
        );
    }

    #[test]
    fn model_payload_in_core_key_style() {
        let e = Error::model(ModelFailure::RateLimited, "slow down")
            .with_provider_status(429)
            .with(Detail::RetryAfter(RetryAfter::Delay(2000)))
            .with_model_output("not for clients");
        assert_eq!(
            e.to_dgui_error()["payload"].to_string(),
            r#"{"providerStatus":429,"retryAfterMs":2000}"#
        );
        assert_eq!(
            (e.http_status(), e.provider_status(), e.model_output()),
            (429, Some(429), Some("not for clients"))
        );
        let dated = Error::model(ModelFailure::RateLimited, "x")
            .with(Detail::RetryAfter(RetryAfter::At(10_000)));
        assert_eq!(
            dated.to_dgui_error()["payload"].to_string(),
            r#"{"providerStatus":null}"#
        );
        assert_eq!(
            (dated.retry_after_ms(8_500), dated.retry_after_ms(11_000)),
            (Some(1500), Some(0))
        );
    }

    #[test]
    fn secrets_leave_message_and_output() {
        let e = Error::model(ModelFailure::Auth, "key my-secret-value leaked")
            .with_model_output("echo my-secret-value")
            .without_secret(Some("my-secret-value"));
        assert_eq!(e.to_string(), "model_auth: key [redacted] leaked");
        assert_eq!(e.model_output(), Some("echo [redacted]"));
        let cut = Error::model(ModelFailure::OutputInvalid, "x")
            .with_model_output(&"é".repeat(MAX_MODEL_OUTPUT_BYTES));
        assert!(cut
            .model_output()
            .is_some_and(|o| o.len() <= MAX_MODEL_OUTPUT_BYTES));
    }
}
