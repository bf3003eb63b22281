//! What a fresh isolate does at the module's start, so that its first
//! request does not: it proves and compiles one small built-in form's
//! schema and answers the form in every format with the deterministic
//! generator ([`GenerateJob::warm_up`]). V8 compiles a wasm function the
//! first time it runs, and the isolate builds its one-time tables
//! (meta-schema validators, lexicons, label data) on first use; done here,
//! both land in the start-up CPU, which the platform bounds apart from
//! request CPU, instead of in the first request's. Nothing here reads the
//! environment, the clock, the network or a random source (the Workers
//! runtime refuses one outside a request, and the module would fail to
//! start; vendor/PATCHED.md says how jsonschema's hash maps do without).

use genui_core::GenerateJob;
use serde_json::json;

/// A form with the shapes most requests have: text, formats, numbers with
/// bounds, a choice of identifiers and one of country codes, a yes/no, a
/// long text, a nested object and a list.
const WARM_UP_REQUEST: &str = r#"{
  "description": "Ask the user to book a trip",
  "output": {
    "type": "object",
    "required": ["first_name", "last_name", "email", "departure_date"],
    "properties": {
      "first_name": {"type": "string", "minLength": 1},
      "last_name": {"type": "string", "minLength": 1},
      "email": {"type": "string", "format": "email"},
      "phone": {"type": "string", "pattern": "^[+0-9 ]{6,20}$"},
      "departure_date": {"type": "string", "format": "date"},
      "return_date": {"type": "string", "format": "date"},
      "passengers": {"type": "integer", "minimum": 1, "maximum": 9},
      "cabin": {"type": "string", "enum": ["economy", "premium_economy", "business"]},
      "country": {"type": "string", "enum": ["GB", "FR", "DE"]},
      "newsletter": {"type": "boolean"},
      "notes": {"type": "string", "maxLength": 2000},
      "address": {
        "type": "object",
        "properties": {
          "street": {"type": "string"},
          "city": {"type": "string"},
          "postal_code": {"type": "string"}
        }
      },
      "meals": {"type": "array", "items": {"type": "string", "enum": ["vegetarian", "gluten_free"]}, "uniqueItems": true}
    }
  }
}"#;

/// Proves the built-in form's schema and answers the form in every format,
/// as the deterministic generator answers a miss; a `warm_up_refused` log line for each format
/// that did not answer 200 (none, unless the core has changed what it
/// accepts, which would leave that format's first request cold).
pub fn warm_up() -> Vec<String> {
    let refused = |format: &str, status: u16| {
        json!({"event": "warm_up_refused", "format": format, "status": status}).to_string()
    };
    match GenerateJob::warm_up(WARM_UP_REQUEST.as_bytes()) {
        Ok(answers) => answers
            .into_iter()
            .filter_map(|(format, answer)| {
                let status = answer.map_or_else(|e| e.http_status(), |r| r.status);
                (status != 200).then(|| refused(format, status))
            })
            .collect(),
        Err(error) => vec![refused("every", error.http_status())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_answers_the_built_in_form() {
        assert_eq!(warm_up(), Vec::<String>::new());
    }
}
