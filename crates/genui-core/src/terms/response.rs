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

    /// The headers sent with this answer: JSON, never cached, the request's
    /// id and total time (`Server-Timing`), then the answer's own, in order
    /// (a later header replaces an earlier one of the same name).
    pub fn wire_headers(&self, request_id: &str, elapsed_ms: f64) -> Vec<(String, String)> {
        let base = [
            ("content-type", "application/json; charset=utf-8".to_owned()),
            ("cache-control", "no-store".to_owned()),
            ("x-request-id", request_id.to_owned()),
            ("server-timing", format!("total;dur={elapsed_ms}")),
        ];
        let base = base
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value));
        base.chain(self.headers.iter().cloned()).collect()
    }

    /// The body sent to a `method` request: none at all for a 204 (not even
    /// an empty one), empty for `HEAD`, else the body.
    pub fn wire_body(self, method: &str) -> Option<String> {
        match (self.status, method) {
            (204, _) => None,
            (_, "HEAD") => Some(String::new()),
            _ => Some(self.body),
        }
    }

    /// The request's one JSON log line: no bodies, no data, no secrets; the
    /// provenance (generator, cache) is read from the answer's headers.
    pub fn log_line(
        &self,
        request_id: &str,
        method: &str,
        route: &str,
        duration_ms: f64,
    ) -> String {
        let header = |wanted: &str| {
            let found = self.headers.iter().find(|(name, _)| name == wanted);
            found.map(|(_, value)| value.as_str())
        };
        serde_json::json!({
            "requestId": request_id,
            "method": method,
            "route": route,
            "status": self.status,
            "cache": header("x-genui-cache"),
            "generator": header("x-genui-generator"),
            "durationMs": duration_ms,
        })
        .to_string()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16) -> HttpResponse {
        let mut answer = HttpResponse::json(status, &serde_json::json!({"ok": true}));
        answer.headers.push(("x-genui-cache".into(), "hit".into()));
        answer
            .headers
            .push(("cache-control".into(), "private".into()));
        answer
    }

    #[test]
    fn an_answer_goes_out_with_its_id_and_time_and_its_own_headers_last() {
        let headers = answer(200).wire_headers("r1", 1.5);
        let names: Vec<&str> = headers.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(
            names,
            [
                "content-type",
                "cache-control",
                "x-request-id",
                "server-timing",
                "x-genui-cache",
                "cache-control"
            ]
        );
        assert_eq!(headers[2].1, "r1");
        assert_eq!(headers[3].1, "total;dur=1.5");
        assert_eq!(
            headers[5].1, "private",
            "the answer's own header is set last, so it wins"
        );
    }

    #[test]
    fn a_204_has_no_body_and_a_head_an_empty_one() {
        assert_eq!(answer(204).wire_body("GET"), None);
        assert_eq!(answer(200).wire_body("HEAD").as_deref(), Some(""));
        assert_eq!(
            answer(200).wire_body("GET").as_deref(),
            Some(r#"{"ok":true}"#)
        );
    }

    #[test]
    fn the_log_line_names_the_request_and_the_answers_provenance_only() {
        let line = answer(200).log_line("r1", "POST", "/f/<token>", 2.25);
        assert_eq!(
            line,
            r#"{"requestId":"r1","method":"POST","route":"/f/<token>","status":200,"cache":"hit","generator":null,"durationMs":2.25}"#
        );
    }
}
