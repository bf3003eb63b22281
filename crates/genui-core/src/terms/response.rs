//! The response the core hands the shell to send: status, headers and body,
//! with the constructors every layer uses (JSON, a `dgui_error`, 404, 405, a
//! page under a Content-Security-Policy). Pages and answers of particular
//! routes add their own constructors where they are built.

use crate::error::{Detail, Error, ErrorCode};
use serde_json::Value;

/// A response to send: status, extra headers, JSON body.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpResponse {
    /// HTTP status.
    pub status: u16,
    /// Headers besides `content-type: application/json`.
    pub headers: Vec<(String, String)>,
    /// The JSON body.
    pub body: String,
}

impl HttpResponse {
    /// A JSON response.
    pub fn json(status: u16, body: &Value) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: body.to_string(),
        }
    }

    /// The `dgui_error` response for an error.
    pub fn error(error: &Error) -> Self {
        Self::json(error.http_status(), &error.to_dgui_error())
    }

    /// 404 for a path no route serves.
    pub fn not_found(path: &str) -> Self {
        Self::error(
            &Error::new(
                ErrorCode::NotFound,
                format!("no route for {path}; see GET /openapi.json for the API"),
            )
            .with(Detail::Path(path.to_owned())),
        )
    }

    /// 405 for a known path asked with another method, with `Allow`.
    pub fn method_not_allowed(method: &str, path: &str, allow: &str) -> Self {
        let error = Error::new(
            ErrorCode::MethodNotAllowed,
            format!("{path} does not take {method}; it takes {allow}"),
        )
        .with(Detail::Allow(allow.to_owned()));
        let mut response = Self::error(&error);
        response.headers.push(("allow".into(), allow.into()));
        response
    }

    /// [`HttpResponse::html`] under another Content-Security-Policy.
    pub(crate) fn html_with_csp(status: u16, page: String, csp: &str) -> Self {
        let headers = vec![
            ("content-type".into(), "text/html; charset=utf-8".into()),
            ("content-security-policy".into(), csp.to_owned()),
            ("x-content-type-options".into(), "nosniff".into()),
            ("referrer-policy".into(), "no-referrer".into()),
        ];
        Self {
            status,
            headers,
            body: page,
        }
    }
}
