//! `format=html` over the fixture corpus: every form posted the way a
//! browser without JavaScript posts it (its successful controls, read
//! from the served page by an HTML parser) yields the same answer from
//! `/v1/submit` as the JSON path (the `initialData` the JSON formats
//! submit): the same tool message, or the same fields in error.

use genui_core::{Contract, Format, GenerateJob, HttpResponse, Limits, Outcome, SubmitJob};
use serde_json::{json, Map, Value};
use std::path::Path;

fn fixtures() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/generate");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn generate(body: &Value, format: &str, cached: Option<&str>) -> Outcome {
    let job = GenerateJob::prepare(
        &serde_json::to_vec(body).unwrap(),
        Some(format),
        &Limits::default(),
    )
    .unwrap();
    job.answer(cached)
}

/// The page's `<template>`s removed: their content is inert, never posted.
fn without_templates(html: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    let mut rest = html;
    loop {
        let open = rest.find("<template>");
        let close = rest.find("</template>");
        match (open, close) {
            (Some(o), Some(c)) if o < c => {
                if depth == 0 {
                    out.push_str(&rest[..o]);
                }
                depth += 1;
                rest = &rest[o + "<template>".len()..];
            }
            (_, Some(c)) => {
                depth -= 1;
                rest = &rest[c + "</template>".len()..];
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

fn sel(css: &str) -> scraper::Selector {
    scraper::Selector::parse(css).unwrap()
}

/// The form's successful controls, as a browser without script posts
/// them (HTML's "constructing the entry list"), with the button pressed.
fn entry_list(html: &str, button: Option<(String, String)>) -> Vec<(String, String)> {
    let dom = scraper::Html::parse_document(&without_templates(html));
    let mut pairs = Vec::new();
    for el in dom.select(&sel("form input, form select, form textarea")) {
        let v = el.value();
        let Some(name) = v.attr("name") else { continue };
        if v.attr("disabled").is_some() {
            continue;
        }
        match v.name() {
            "input" => {
                let kind = v.attr("type").unwrap_or("text");
                if matches!(kind, "submit" | "button" | "file")
                    || (matches!(kind, "checkbox" | "radio") && v.attr("checked").is_none())
                {
                    continue;
                }
                let default = if kind == "checkbox" || kind == "radio" {
                    "on"
                } else {
                    ""
                };
                pairs.push((
                    name.to_owned(),
                    v.attr("value").unwrap_or(default).to_owned(),
                ));
            }
            "textarea" => pairs.push((name.to_owned(), el.text().collect::<String>())),
            _ => {
                let options: Vec<_> = el.select(&sel("option")).collect();
                let chosen = options
                    .iter()
                    .find(|o| o.value().attr("selected").is_some())
                    .or(options.first());
                if let Some(o) = chosen {
                    pairs.push((
                        name.to_owned(),
                        o.value()
                            .attr("value")
                            .map(str::to_owned)
                            .unwrap_or_else(|| o.text().collect()),
                    ));
                }
            }
        }
    }
    pairs.extend(button);
    pairs
}

/// Values that mean "not given" on either path, removed: `null`, `""`,
/// and containers left empty by removing them.
fn normalise(value: &Value) -> Option<Value> {
    match value {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::Array(items) => {
            let kept: Vec<Value> = items.iter().filter_map(normalise).collect();
            (!kept.is_empty()).then_some(Value::Array(kept))
        }
        Value::Object(map) => {
            let kept: Map<String, Value> = map
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), normalise(v)?)))
                .collect();
            (!kept.is_empty()).then_some(Value::Object(kept))
        }
        // 3.0 and 3 are the same JSON Schema number.
        Value::Number(n) => Some(json!(n.as_f64())),
        other => Some(other.clone()),
    }
}

/// The answer of `/v1/submit`: the message's data, or the sorted
/// pointers in error.
fn answer(outcome: &Outcome) -> Result<Value, Vec<String>> {
    let body: Value = serde_json::from_str(&outcome.response.body).unwrap();
    if outcome.response.status == 200 {
        // A tool message when a tool call is named, else DGUI's response.
        let data = match body["content"].as_str() {
            Some(text) => {
                Contract::ToolMessage.check(&body).unwrap();
                serde_json::from_str(text).unwrap()
            }
            None => {
                Contract::DguiResponse.check(&body).unwrap();
                body["data"].clone()
            }
        };
        return Ok(normalise(&data).unwrap_or(json!({})));
    }
    let mut pointers: Vec<String> = body["payload"]["errors"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|e| e["pointer"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_else(|| vec![body["code"].to_string()]);
    pointers.sort();
    pointers.dedup();
    Err(pointers)
}

/// The approval button a person would press to post `data`'s decision.
fn approval_button(html: &str, data: &Value) -> Option<(String, String)> {
    let dom = scraper::Html::parse_document(html);
    dom.select(&sel("button[name][value]")).find_map(|b| {
        let (name, value) = (b.value().attr("name")?, b.value().attr("value")?);
        let current = data.pointer(name).map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        (current.as_deref() == Some(value)).then(|| (name.to_owned(), value.to_owned()))
    })
}

#[test]
fn every_fixture_form_posted_without_js_gives_the_json_paths_answer() {
    let mut failures = Vec::new();
    for (name, body) in fixtures() {
        let first = generate(&body, "jsonforms", None);
        assert_eq!(
            first.response.status, 200,
            "{name}: {}",
            first.response.body
        );
        let spec = first.cache_put.as_ref().map(|p| p.value.clone());
        let jsonforms: Value = serde_json::from_str(&first.response.body).unwrap();
        let hash = jsonforms["meta"]["specHash"].as_str().unwrap().to_owned();
        let initial = jsonforms["initialData"].clone();

        let page = generate(&body, "html", spec.as_deref());
        assert_eq!(page.response.status, 200, "{name}");
        assert!(
            page.response
                .headers
                .iter()
                .any(|(k, v)| k == "content-type" && v.starts_with("text/html")),
            "{name}"
        );
        let html = &page.response.body;
        assert!(html.starts_with("<!doctype html>"), "{name}");

        let json_path = SubmitJob::prepare(
            &serde_json::to_vec(&json!({"specHash": hash, "data": initial})).unwrap(),
            &Limits::default(),
        )
        .unwrap()
        .answer(spec.as_deref(), "r");
        let pairs = entry_list(html, approval_button(html, &initial));
        let mut encoder = form_urlencoded::Serializer::new(String::new());
        for (k, v) in &pairs {
            encoder.append_pair(k, v);
        }
        let posted = encoder.finish();
        let form_path =
            match SubmitJob::prepare_form(posted.as_bytes(), None, None, &Limits::default()) {
                Ok(job) => job.answer(spec.as_deref(), "r"),
                Err(e) => Outcome {
                    response: HttpResponse::error(&e),
                    cache_put: None,
                },
            };
        let (a, b) = (answer(&json_path), answer(&form_path));
        if a != b {
            failures.push(format!(
                "{name}:\n  json: {a:?}\n  form: {b:?}\n  post: {posted}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn plan_text_cannot_inject_markup() {
    let evil = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&";
    let body = json!({
        "description": evil,
        "data": {"name": evil, "note": "</textarea><script>alert(3)</script>"},
        "output": {"type": "object", "title": evil, "properties": {
            "name": {"type": "string", "title": evil, "description": evil, "examples": [evil]},
            "note": {"type": "string", "title": "Note", "maxLength": 5000},
            "pick": {"type": "string", "enum": [evil, "b"]},
            evil: {"type": "boolean"}
        }}
    });
    let page = generate(&body, "html", None).response.body;
    let dom = scraper::Html::parse_document(&page);
    assert_eq!(
        dom.select(&sel("script")).count(),
        1,
        "only the worker's own script"
    );
    assert_eq!(dom.select(&sel("img, [onerror]")).count(), 0);
    // Plan text is sanitised plain text, data is shown as it came: both as text.
    let label = dom
        .select(&sel("label[for='f.name']"))
        .next()
        .unwrap()
        .text()
        .collect::<String>();
    assert!(label.starts_with("\"'&"), "{label}");
    let value = dom
        .select(&sel("input[name='/name']"))
        .next()
        .unwrap()
        .value()
        .attr("value")
        .unwrap()
        .to_owned();
    assert_eq!(value, evil);
    let note = dom
        .select(&sel("textarea[name='/note']"))
        .next()
        .unwrap()
        .text()
        .collect::<String>();
    assert_eq!(note, "</textarea><script>alert(3)</script>");
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(!page.contains("<img"), "{page}");
    assert!(page.contains("&lt;script&gt;"));
}

#[test]
fn the_page_has_a_strict_csp_that_names_its_inline_code() {
    let body = &fixtures()[0].1;
    let response = generate(body, "html", None).response;
    let csp = &response
        .headers
        .iter()
        .find(|(k, _)| k == "content-security-policy")
        .unwrap()
        .1;
    assert!(csp.starts_with("default-src 'none';"));
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"));
    assert_eq!(csp, Format::html_csp());
    use base64::Engine as _;
    use sha2::Digest as _;
    let hash = |s: &str| {
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(s.as_bytes()))
    };
    assert!(csp.contains(&hash(Format::HTML_SCRIPT)) && csp.contains(&hash(Format::HTML_STYLE)));
    assert!(response
        .body
        .contains(&format!("<script>{}</script>", Format::HTML_SCRIPT)));
    assert!(!response.body.contains(" style=\"") && !response.body.contains(" onclick="));
}

#[test]
fn labels_help_and_constraints_are_native() {
    let body = json!({"description": "d", "output": {"type": "object", "required": ["age"], "properties": {
        "age": {"type": "integer", "title": "Age", "minimum": 18, "maximum": 120, "description": "In years"},
        "code": {"type": "string", "pattern": "^[A-Z]{3}$", "maxLength": 3},
        "odd": {"type": "string", "pattern": "[a-z-]+"},
        "items": {"type": "array", "maxItems": 3, "items": {"type": "object", "required": ["n"], "properties": {"n": {"type": "string"}}}}
    }}});
    let page = generate(&body, "html", None).response.body;
    assert!(page.contains(r#"<label for="f.age">Age"#), "{page}");
    assert!(
        page.contains(r#"id="f.age" name="/age" aria-describedby="f.age-h" required"#),
        "{page}"
    );
    assert!(page.contains(r#"min="18" max="120" step="1""#));
    assert!(page.contains(r#"pattern="[A-Z]{3}""#) && page.contains(r#"maxlength="3""#));
    assert!(
        !page.contains(r#"pattern="[a-z-]+""#),
        "an unanchored pattern is left to the server"
    );
    // Array rows: fields inside are aria-required (a spare row must not block the form).
    assert!(
        page.contains(r#"name="/items/0/n" aria-required="true""#),
        "{page}"
    );
    assert!(
        page.contains(r#"name="/items/__N__/n""#),
        "the template row"
    );
}

#[test]
fn bad_posts_are_4xx_with_the_field_named() {
    let body = json!({"description": "d", "output": {"type": "object", "properties": {
        "n": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}}}});
    let first = generate(&body, "jsonforms", None);
    let spec = first.cache_put.unwrap().value;
    let hash = serde_json::from_str::<Value>(&first.response.body).unwrap()["meta"]["specHash"]
        .as_str()
        .unwrap()
        .to_owned();
    let post = |form: &str| match SubmitJob::prepare_form(
        form.as_bytes(),
        Some(&hash),
        None,
        &Limits::default(),
    ) {
        Ok(job) => job.answer(Some(&spec), "r").response,
        Err(e) => HttpResponse::error(&e),
    };
    assert_eq!(post("%2Fn=3&%2Ftags=a&%2Ftags=b").status, 200);
    let content = |r: HttpResponse| serde_json::from_str::<Value>(&r.body).unwrap()["data"].clone();
    assert_eq!(
        content(post("%2Fn=3&%2Ftags=a&%2Ftags=b")),
        json!({"n": 3, "tags": ["a", "b"]})
    );
    assert_eq!(post("%2Fnope=1").status, 400, "unknown field");
    assert_eq!(post("%2Fn=1&%2Fn=2").status, 400, "duplicated key");
    assert_eq!(post("%2Fn%2Fx=1").status, 400, "below a scalar");
    assert_eq!(post("%2Fn=abc").status, 422, "wrong type");
    assert_eq!(post("%2Ftags%2F01=a").status, 400, "not an index");
    let huge = format!("%2Fn={}", "1".repeat(Limits::default().max_body_bytes + 1));
    assert_eq!(post(&huge).status, 413);
    assert_eq!(
        SubmitJob::prepare_form(b"%2Fn=1", None, None, &Limits::default())
            .unwrap_err()
            .http_status(),
        400,
        "no spec named"
    );
}

/// A hosted page takes its pre-fill check from the link's record: the
/// salted digest and its salt, never the values; after a post, the person
/// reads that the answer was received (before any delivery).
#[test]
fn a_hosted_page_checks_its_fragment_against_the_records_salted_digest() {
    use genui_core::FormRecord;
    let body = json!({"tool": "generateUserInterface", "arguments": {"description": "Transfer money", "output": {"type": "object", "required": ["to"], "properties": {"to": {"type": "string", "title": "Recipient"}}},
        "data": {"to": "Bob"}, "locale": "de", "callbackUrl": "https://agent.example.com/"}});
    let job = GenerateJob::prepare(
        &serde_json::to_vec(&body).unwrap(),
        Some("html"),
        &Limits::default(),
    )
    .unwrap();
    let outcome = job.clone().answer(None);
    let spec = outcome
        .cache_put
        .map(|put| put.value)
        .or_else(|| job.spec_json())
        .expect("a spec to keep");
    let callback = FormRecord::callback_for(&job, false).unwrap();
    let random = [5; FormRecord::RANDOM_BYTES];
    let (record, _, _) =
        FormRecord::issue(&job, job.spec_hash(), Some(&callback), random, 0, 2_000);
    let prefill = record.prefill.clone().expect("a pre-fill digest");
    let page = HttpResponse::hosted_form("tok", &record, &spec, None);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains(&format!(
            r#"data-expect="{}" data-salt="{}""#,
            prefill.digest, prefill.salt
        )),
        "the record's digest and salt"
    );
    assert!(!page.body.contains("Bob") && page.body.contains(r#"action="/f/tok""#));
    let received = HttpResponse::form_notice(202, Some("de"), "received");
    assert!(
        received.body.contains(r#"data-state="received""#)
            && received.body.contains("Ihre Antwort ist eingegangen"),
        "{}",
        received.body
    );
}

/// Arrays of objects nested `levels` deep, each item a name and the next
/// array: every array's rows (its spare empty rows and its template row)
/// hold the next array's rows, so the rows multiply by three per level.
fn nested_arrays(levels: usize) -> Value {
    let mut array = json!({"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}});
    for _ in 0..levels {
        array = json!({"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "rows": array}}});
    }
    json!({"type": "object", "properties": {"rows": array}})
}

/// The controls a page writes (inputs, text areas, selects), template
/// rows included (an HTML parser keeps a `<template>`'s content apart).
fn controls_in(html: &str) -> usize {
    let inputs = html.matches("<input ").count() - html.matches(r#"<input type="hidden""#).count();
    inputs + html.matches("<textarea ").count() + html.matches("<select ").count()
}

/// Nested arrays of objects: the page holds at most as many controls as
/// any format's form may (`max_controls`), the arrays nested deepest each
/// becoming one JSON input, instead of three rows per level (3^9 rows for
/// eight levels).
#[test]
fn nested_arrays_write_at_most_the_control_limit() {
    let body = json!({"description": "Nested lists", "output": nested_arrays(8)});
    let page = generate(&body, "html", None).response;
    assert_eq!(page.status, 200, "{}", page.body);
    let controls = controls_in(&page.body);
    assert!(
        controls <= Limits::default().max_controls,
        "{controls} controls"
    );
    // The shallow arrays keep their rows; a deep one is one JSON input.
    assert!(
        page.body.contains(r#"name="/rows/0/name""#)
            && page.body.contains(r#"name="/rows/0/rows/0/name""#)
    );
    assert!(
        page.body.contains(r#"data-kind="json""#),
        "the deepest arrays are edited as JSON text"
    );
}

/// The shape of ESLint's configuration schema: an array whose items hold
/// the same array again by `$ref` (`overrides`), which the plan follows to
/// its depth limit (48 levels of rows).
#[test]
fn a_recursive_array_writes_at_most_the_control_limit() {
    let schema = json!({"type": "object", "properties": {"overrides": {"type": "array", "items": {
        "type": "object", "required": ["files"], "additionalProperties": false, "properties": {
            "files": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
            "processor": {"type": "string"},
            "overrides": {"$ref": "#/properties/overrides"}}}}}});
    let page = generate(
        &json!({"description": "Config", "output": schema}),
        "html",
        None,
    )
    .response;
    assert_eq!(page.status, 200, "{}", page.body);
    let controls = controls_in(&page.body);
    assert!(
        controls <= Limits::default().max_controls,
        "{controls} controls"
    );
    assert!(
        page.body.contains(r#"name="/overrides/0/processor""#),
        "the first rows keep their fields"
    );
}

/// A JSON input that stands for a collapsed array is read back as the
/// array: a post through it gives the data the JSON formats would submit.
#[test]
fn a_collapsed_array_posts_its_json_text() {
    let body = json!({"description": "Nested lists", "output": nested_arrays(8)});
    let first = generate(&body, "jsonforms", None);
    let spec = first.cache_put.unwrap().value;
    let hash = serde_json::from_str::<Value>(&first.response.body).unwrap()["meta"]["specHash"]
        .as_str()
        .unwrap()
        .to_owned();
    let page = generate(&body, "html", Some(&spec)).response.body;
    let dom = scraper::Html::parse_document(&without_templates(&page));
    let collapsed = dom
        .select(&sel(r#"textarea[data-kind="json"]"#))
        .filter_map(|t| t.value().attr("name"))
        .find(|n| {
            n.split('/')
                .all(|t| t.is_empty() || t == "rows" || t == "0")
        })
        .expect("a collapsed array in the first rows")
        .to_owned();
    let mut post = form_urlencoded::Serializer::new(String::new());
    post.append_pair(&collapsed, r#"[{"name": "deep"}]"#);
    let response = SubmitJob::prepare_form(
        post.finish().as_bytes(),
        Some(&hash),
        None,
        &Limits::default(),
    )
    .unwrap()
    .answer(Some(&spec), "r")
    .response;
    assert_eq!(response.status, 200, "{}", response.body);
    let content = serde_json::from_str::<Value>(&response.body).unwrap()["data"].clone();
    let at: String = collapsed
        .split('/')
        .skip(1)
        .map(|t| format!("/{t}"))
        .collect();
    assert_eq!(
        content.pointer(&at),
        Some(&json!([{"name": "deep"}])),
        "{content}"
    );
}
