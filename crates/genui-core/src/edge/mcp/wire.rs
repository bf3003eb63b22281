//! MCP's wire: protocol versions, the JSON-RPC envelope we send, its error
//! codes, and the request headers of the Streamable HTTP transport.
//!
//! The serde types here are the shapes we send; `tests/mcp_schema.rs`
//! validates every one against MCP's published JSON Schema of the version
//! in use (`schemas/vendor/mcp/`).

use serde::Serialize;
use serde_json::{Map, Value};

/// A protocol version this server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    /// Stateless: version and capabilities in every request's `_meta`.
    V2026_07_28,
    /// Handshake versions (`initialize` first), served without sessions.
    V2025_11_25,
    V2025_06_18,
    V2025_03_26,
}

impl Version {
    /// Newest first: what `server/discover` and version errors list.
    pub(crate) const ALL: [Version; 4] = [
        Self::V2026_07_28,
        Self::V2025_11_25,
        Self::V2025_06_18,
        Self::V2025_03_26,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::V2026_07_28 => "2026-07-28",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_03_26 => "2025-03-26",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == text)
    }

    /// Whether requests of this version carry their own `_meta` (no handshake).
    pub(crate) fn is_stateless(self) -> bool {
        self == Self::V2026_07_28
    }

    /// Whether tool results may carry `resource_link` content (from 2025-06-18).
    pub(crate) fn has_resource_links(self) -> bool {
        self != Self::V2025_03_26
    }

    /// The supported versions, as JSON strings.
    pub(crate) fn supported() -> Vec<Value> {
        Self::ALL.iter().map(|v| Value::from(v.as_str())).collect()
    }
}

/// JSON-RPC and MCP error codes we answer with.
pub(crate) mod code {
    pub(crate) const PARSE_ERROR: i64 = -32700;
    pub(crate) const INVALID_REQUEST: i64 = -32600;
    pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
    pub(crate) const INVALID_PARAMS: i64 = -32602;
    /// Before 2026-07-28: an unknown resource.
    pub(crate) const RESOURCE_NOT_FOUND_LEGACY: i64 = -32002;
    pub(crate) const HEADER_MISMATCH: i64 = -32020;
    pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// A JSON-RPC error object, with the HTTP status it travels under.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct RpcError {
    pub(crate) code: i64,
    pub(crate) message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) data: Option<Value>,
    #[serde(skip)]
    pub(crate) status: u16,
}

impl RpcError {
    pub(crate) fn new(code: i64, status: u16, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
            status,
        }
    }

    pub(crate) fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// A response envelope: `result` or `error`, never both.
#[derive(Debug, Serialize)]
pub(crate) struct Envelope<'a> {
    jsonrpc: &'static str,
    /// The request's id; `null` only when it could not be read.
    id: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a RpcError>,
}

impl<'a> Envelope<'a> {
    pub(crate) fn result(id: &'a Value, result: &'a Map<String, Value>) -> Self {
        Self {
            jsonrpc: "2.0",
            id,
            result: Some(result),
            error: None,
        }
    }

    pub(crate) fn error(id: &'a Value, error: &'a RpcError) -> Self {
        Self {
            jsonrpc: "2.0",
            id,
            result: None,
            error: Some(error),
        }
    }

    pub(crate) fn to_json(&self) -> String {
        // Only maps, strings and numbers: serialisation cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// `{name, version}`: who we are (`Implementation` in the schema).
#[derive(Debug, Serialize)]
pub(crate) struct Implementation {
    pub(crate) name: &'static str,
    pub(crate) version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) title: Option<&'static str>,
}

pub(crate) const SERVER: Implementation = Implementation {
    name: "genui-worker",
    version: env!("CARGO_PKG_VERSION"),
    title: Some("genui-worker: forms for any JSON Schema"),
};

/// A header value as the transport spec reads it: surrounding whitespace
/// trimmed, and the `=?base64?...?=` form (for non-ASCII names) decoded.
pub(crate) fn header_value(raw: &str) -> Option<String> {
    let trimmed = raw.trim();
    match trimmed
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(encoded) => String::from_utf8(decode_base64(encoded)?).ok(),
        None => Some(trimmed.to_owned()),
    }
}

/// Standard base64, padded or not (the `base64` crate the HTML projection
/// also uses).
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(text.trim_end_matches('='))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_are_trimmed_and_base64_decoded() {
        assert_eq!(
            header_value("  tools/list \t").as_deref(),
            Some("tools/list")
        );
        // "héllo" in UTF-8, base64.
        assert_eq!(
            header_value("=?base64?aMOpbGxv?=").as_deref(),
            Some("héllo")
        );
        assert_eq!(header_value("=?base64?aGk=?=").as_deref(), Some("hi"));
        assert_eq!(header_value("=?base64?!!?="), None);
    }

    #[test]
    fn versions_round_trip() {
        for v in Version::ALL {
            assert_eq!(Version::parse(v.as_str()), Some(v));
        }
        assert_eq!(Version::parse("2024-11-05"), None);
        assert!(Version::V2026_07_28.is_stateless() && !Version::V2025_11_25.is_stateless());
    }
}
