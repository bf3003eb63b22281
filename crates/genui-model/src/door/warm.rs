//! What a fresh isolate does at the module's start, so that its first
//! request does not: it proves and compiles one small built-in form's
//! schema, answers the form in every format with the deterministic
//! generator ([`GenerateJob::warm_up`]), and checks one filled-in and
//! one wrong submission of it ([`SubmitJob`]: the validator's checks and
//! error reports, which a generate's pre-fill runs too). V8 compiles a wasm function the
//! first time it runs, and the isolate builds its one-time tables
//! (meta-schema validators, lexicons, label data) on first use; done here,
//! both land in the start-up CPU, which the platform bounds apart from
//! request CPU, instead of in the first request's. Nothing here reads the
//! environment, the clock, the network or a random source (the Workers
//! runtime refuses one outside a request, and the module would fail to
//! start; vendor/PATCHED.md says how jsonschema's hash maps do without).

use genui_core::{GenerateJob, Limits, SubmitJob};
use serde_json::{json, Value};

/// A form with the shapes most requests have: titled and described
/// fields, text, the common formats, numbers with bounds, a step and a
/// default, a choice of identifiers and one of country codes, a yes/no, a
/// long text, a nested object, a list of choices and a list of objects.
/// The worker also sends it through its whole fetch path at start (the
/// shell's `warm` module), as a `POST /v1/generate` body.
pub const WARM_UP_REQUEST: &str = r#"{
  "description": "Ask the user to book a trip",
  "output": {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "title": "Trip booking",
    "required": ["first_name", "last_name", "email", "departure_date"],
    "properties": {
      "first_name": {"type": "string", "title": "First name", "minLength": 1},
      "last_name": {"type": "string", "title": "Last name", "minLength": 1},
      "email": {"type": "string", "format": "email", "examples": ["ada@example.com"]},
      "phone": {"type": "string", "pattern": "^[+0-9 ]{6,20}$"},
      "website": {"type": "string", "format": "uri"},
      "departure_date": {"type": "string", "format": "date"},
      "departure_time": {"type": "string", "format": "time"},
      "return_date": {"type": "string", "format": "date"},
      "booked_at": {"type": "string", "format": "date-time"},
      "passengers": {"type": "integer", "minimum": 1, "maximum": 9, "default": 1},
      "budget": {"type": "number", "minimum": 0, "exclusiveMaximum": 100000, "multipleOf": 0.01,
                 "description": "In euros, for the whole party"},
      "cabin": {"type": "string", "enum": ["economy", "premium_economy", "business"]},
      "country": {"type": "string", "enum": ["GB", "FR", "DE"]},
      "newsletter": {"type": "boolean", "default": false},
      "notes": {"type": "string", "maxLength": 2000},
      "address": {
        "type": "object",
        "properties": {
          "street": {"type": "string"},
          "city": {"type": "string"},
          "postal_code": {"type": "string"}
        }
      },
      "meals": {"type": "array", "items": {"type": "string", "enum": ["vegetarian", "gluten_free"]}, "uniqueItems": true},
      "travellers": {
        "type": "array", "minItems": 1, "maxItems": 9,
        "items": {
          "type": "object",
          "required": ["name"],
          "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0}}
        }
      }
    }
  }
}"#;

/// Proves the built-in form's schema, answers the form in every format as
/// the deterministic generator answers a miss, and checks its two
/// submissions; a `warm_up_refused` log line for each that did not answer
/// as it should (none, unless the core has changed what it accepts, which
/// would leave that path cold in the first request).
pub fn warm_up() -> Vec<String> {
    let mut lines: Vec<String> = match GenerateJob::warm_up(WARM_UP_REQUEST.as_bytes()) {
        Ok(answers) => answers
            .into_iter()
            .filter_map(|(format, answer)| {
                let status = answer.map_or_else(|e| e.http_status(), |r| r.status);
                (status != 200).then(|| refused(format, "200", &status.to_string()))
            })
            .collect(),
        Err(error) => vec![refused("every", "200", error.code().as_str())],
    };
    lines.extend(
        warm_up_submissions()
            .into_iter()
            .filter(|(_, expected, answered)| answered != expected)
            .map(|(which, expected, answered)| refused(which, expected, &answered)),
    );
    lines
}

/// The log line of a warm-up step that answered `answered` (a status, or
/// a `dgui_error` code) where `expected` was due.
fn refused(step: &str, expected: &str, answered: &str) -> String {
    json!({"event": "warm_up_refused", "step": step, "expected": expected, "answered": answered})
        .to_string()
}

/// A filled-in submission of the built-in form (one value of each kind)
/// and a wrong one (a value of each kind breaking its rule), checked as
/// `/v1/submit` checks an inline schema's: each named, with what it should
/// answer and what it answered ([`submit_answer`]).
fn warm_up_submissions() -> [(&'static str, &'static str, String); 2] {
    let filled = json!({
        "first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com",
        "phone": "+44 20 7946 0000", "departure_date": "2026-12-01",
        "return_date": "2026-12-08", "passengers": 2, "cabin": "business",
        "country": "GB", "newsletter": true, "notes": "Window seat",
        "address": {"street": "12 St James's Square", "city": "London", "postal_code": "SW1Y 4JH"},
        "meals": ["vegetarian"], "website": "https://example.com/", "departure_time": "09:30:00",
        "booked_at": "2026-11-28T10:00:00Z", "budget": 1200.5,
        "travellers": [{"name": "Ada", "age": 36}]
    });
    let wrong = json!({
        "first_name": "", "email": "not an address", "phone": "call me",
        "departure_date": "1 December", "passengers": 12, "cabin": "first",
        "newsletter": "yes", "address": {"city": 7}, "meals": ["vegetarian", "vegetarian"],
        "website": "not a link", "departure_time": "half nine", "booked_at": "today",
        "budget": 100000.001, "travellers": [{"age": -1}]
    });
    [
        ("filled-in submission", "200", filled),
        ("wrong submission", "submission_invalid", wrong),
    ]
    .map(|(which, expected, data)| (which, expected, submit_answer(data)))
}

/// What `/v1/submit` answers `data` as a submission of the built-in form:
/// `200`, or the `dgui_error` code.
fn submit_answer(data: Value) -> String {
    let form: Value = serde_json::from_str(WARM_UP_REQUEST).unwrap_or_default();
    let body = json!({"type": "dgui_response", "toolCallId": "warm-up",
                      "output": form["output"], "data": data});
    let answer = SubmitJob::prepare(body.to_string().as_bytes(), &Limits::default())
        .map(|job| job.answer(None, "warm-up").response);
    match answer {
        Ok(response) if response.status == 200 => "200".to_owned(),
        Ok(response) => serde_json::from_str::<Value>(&response.body)
            .ok()
            .and_then(|error| error["code"].as_str().map(str::to_owned))
            .unwrap_or_else(|| response.status.to_string()),
        Err(error) => error.code().as_str().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_form_answers_in_every_format_and_checks_submissions() {
        assert_eq!(warm_up(), Vec::<String>::new());
    }
}
