//! The documentation's requests, run: every ```` ```sh ```` block of
//! `README.md` and `docs/*.md` that calls `curl` and whose next fenced block
//! is ```` ```json ```` (the answer the page shows) is run as written, with
//! `sh`, against the worker under `wrangler dev`, and the answer shown must
//! match the real one.
//!
//! "Match": every key the page shows must be in the real answer with the
//! same value (a page may leave parts out, such as `jsonSchema`, and says
//! so in its prose); arrays have the same length. Values that differ per
//! request are written with `…` on the page (`"id": "result_6f0c…"`): the
//! text before and after it must start and end the real string. The keys in
//! [`VARYING_KEYS`] depend on what ran before (a miss or a hit) and are not
//! compared.
//!
//! A block that cannot run here (a deployment, a real model provider) is
//! preceded by `<!-- docs-test: skip (reason) -->` and reported as skipped.
//!
//! `cargo test -p genui-harness --test e2e-docs -- --ignored` runs the
//! blocks; the other tests here check the extraction and the comparison
//! without a worker.

use genui_harness::{project_root, Options, WranglerDev};
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Keys whose values depend on the order the blocks run in.
const VARYING_KEYS: [&str; 1] = ["cache"];

/// The origin the pages' requests are written against.
const DOCS_ORIGIN: &str = "http://127.0.0.1:8787";

/// One request block of a page and the answer the page shows after it.
#[derive(Debug, Clone, PartialEq)]
struct Example {
    /// `README.md:42`: the page and the line of the request's fence.
    place: String,
    /// The shell command, as written.
    command: String,
    /// The answer block's text.
    shown: String,
    /// The reason of a `docs-test: skip` marker before the request.
    skip: Option<String>,
}

/// One fenced block: its language, first line (1-based, the fence's) and text.
struct Fence {
    lang: String,
    line: usize,
    text: String,
    marker: Option<String>,
}

/// The fenced blocks of a Markdown page, each with the skip marker that
/// precedes it (the last non-blank line before the fence).
fn fences(text: &str) -> Vec<Fence> {
    let mut out = Vec::new();
    let mut open: Option<Fence> = None;
    let mut last_line = "";
    for (index, line) in text.lines().enumerate() {
        let is_fence = line.trim_start().starts_with("```");
        match (open.take(), is_fence) {
            (Some(fence), true) => out.push(fence),
            (Some(mut fence), false) => {
                fence.text.push_str(line);
                fence.text.push('\n');
                open = Some(fence);
            }
            (None, true) => {
                let lang = line.trim_start().trim_start_matches('`').trim().to_owned();
                open = Some(Fence {
                    lang,
                    line: index + 1,
                    text: String::new(),
                    marker: skip_reason(last_line),
                });
            }
            (None, false) => {}
        }
        if !line.trim().is_empty() {
            last_line = line;
        }
    }
    out
}

/// `Some(reason)` for `<!-- docs-test: skip (reason) -->`.
fn skip_reason(line: &str) -> Option<String> {
    let inner = line
        .trim()
        .strip_prefix("<!--")?
        .strip_suffix("-->")?
        .trim();
    let reason = inner.strip_prefix("docs-test: skip")?.trim();
    Some(
        reason
            .trim_start_matches('(')
            .trim_end_matches(')')
            .trim()
            .to_owned(),
    )
}

/// The request blocks of one page: a `sh` block calling `curl` whose next
/// fenced block is `json`.
fn examples(page: &str, text: &str) -> Vec<Example> {
    let blocks = fences(text);
    blocks
        .windows(2)
        .filter(|pair| {
            pair[0].lang == "sh" && pair[0].text.contains("curl ") && pair[1].lang == "json"
        })
        .map(|pair| Example {
            place: format!("{page}:{}", pair[0].line),
            command: pair[0].text.clone(),
            shown: pair[1].text.clone(),
            skip: pair[0].marker.clone(),
        })
        .collect()
}

/// Every page's request blocks: README.md first (its submission needs the
/// form its generate stored), then docs/*.md by name.
fn all_examples(root: &Path) -> Vec<Example> {
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    pages.extend(docs);
    pages
        .iter()
        .flat_map(|path| {
            let name = path
                .strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string();
            let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
            examples(&name, &text)
        })
        .collect()
}

/// `Ok` when the answer a page shows matches the real one (see the module
/// docs); otherwise the JSON Pointer of the first difference and both values.
fn matches(shown: &Value, real: &Value, pointer: &str) -> Result<(), String> {
    let differ = || {
        Err(format!(
            "at {}: the page shows {shown}, the worker answered {real}",
            if pointer.is_empty() { "/" } else { pointer }
        ))
    };
    match (shown, real) {
        (Value::Object(shown), Value::Object(real)) => shown.iter().try_for_each(|(key, value)| {
            let here = format!("{pointer}/{key}");
            match real.get(key) {
                None => Err(format!(
                    "at {here}: the page shows {value}, the worker's answer has no such key"
                )),
                Some(_) if VARYING_KEYS.contains(&key.as_str()) => Ok(()),
                Some(actual) => matches(value, actual, &here),
            }
        }),
        (Value::Array(shown), Value::Array(real)) if shown.len() == real.len() => shown
            .iter()
            .zip(real)
            .enumerate()
            .try_for_each(|(i, (s, r))| matches(s, r, &format!("{pointer}/{i}"))),
        (Value::String(shown), Value::String(real)) if shown.contains('…') => {
            let (head, tail) = shown.split_once('…').unwrap_or_default();
            if real.starts_with(head)
                && real.ends_with(tail)
                && real.len() >= head.len() + tail.len()
            {
                Ok(())
            } else {
                differ()
            }
        }
        _ if shown == real => Ok(()),
        _ => differ(),
    }
}

/// Runs one block with `sh` against `base`; the body it printed.
fn run(command: &str, base: &str) -> Result<String, String> {
    let command = command.replace(DOCS_ORIGIN, base);
    let output = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .output()
        .map_err(|e| format!("sh: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "exit {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Runs one example and compares; a `spec_not_found` (the form's KV write
/// runs after its answer) is tried again for up to 3 s. The page's origin
/// stands for the worker's in the answer shown too (hosted form links).
fn check(example: &Example, base: &str) -> Result<(), String> {
    let shown = example.shown.replace(DOCS_ORIGIN, base);
    let shown: Value =
        serde_json::from_str(&shown).map_err(|e| format!("the answer shown is not JSON: {e}"))?;
    let mut body = run(&example.command, base)?;
    for _ in 0..10 {
        if !body.contains("\"spec_not_found\"") {
            break;
        }
        std::thread::sleep(Duration::from_millis(300));
        body = run(&example.command, base)?;
    }
    let real: Value = serde_json::from_str(&body)
        .map_err(|e| format!("the worker's answer is not JSON ({e}): {body}"))?;
    matches(&shown, &real, "")
}

#[test]
#[ignore = "needs wrangler dev; run by scripts/test.sh with --ignored"]
fn every_documented_request_answers_as_shown() {
    let examples = all_examples(&project_root());
    // The settings the pages tell a reader to set for what they show
    // (hosted forms need WEBHOOK_SECRET).
    let opts = Options::default()
        .var("CHECK_CONTRACTS", "true")
        .var("WEBHOOK_SECRET", "docs-test-secret");
    let dev = WranglerDev::start(opts).unwrap_or_else(|e| panic!("{e}"));
    let base = dev.base_url();
    let mut failures = Vec::new();
    let (mut ran, mut skipped) = (0, Vec::new());
    for example in &examples {
        if let Some(reason) = &example.skip {
            skipped.push(format!("{} ({reason})", example.place));
            continue;
        }
        ran += 1;
        if let Err(why) = check(example, &base) {
            failures.push(format!("{}: {why}", example.place));
        }
    }
    eprintln!(
        "docs: {ran} request blocks run, {} skipped: {skipped:?}",
        skipped.len()
    );
    assert!(ran > 0, "no request block found");
    assert!(
        failures.is_empty(),
        "documented answers that differ from the worker's:\n{}\n\nwrangler log:\n{}",
        failures.join("\n"),
        dev.log_tail(4000)
    );
}

#[test]
fn the_pages_hold_request_blocks_with_their_answers() {
    let examples = all_examples(&project_root());
    let places: Vec<&str> = examples.iter().map(|e| e.place.as_str()).collect();
    for page in [
        "README.md",
        "docs/api.md",
        "docs/formats.md",
        "docs/hosted-forms.md",
    ] {
        assert!(
            places.iter().any(|p| p.starts_with(&format!("{page}:"))),
            "{page} has a request block followed by its answer: {places:?}"
        );
    }
    for example in &examples {
        assert!(
            serde_json::from_str::<Value>(&example.shown).is_ok(),
            "{}: the answer shown is not JSON",
            example.place
        );
        assert!(
            example.command.contains(DOCS_ORIGIN) || example.skip.is_some(),
            "{}: a request block not against {DOCS_ORIGIN}",
            example.place
        );
    }
}

#[test]
fn a_block_pairs_with_the_next_json_block_and_keeps_its_skip_marker() {
    let page = "text\n\n```sh\ncurl -s http://127.0.0.1:8787/healthz\n```\n\nThe answer:\n\n```json\n{\"status\": \"ok\"}\n```\n\n\
                <!-- docs-test: skip (deploy) -->\n```sh\ncurl -s https://x.workers.dev/healthz\n```\n```json\n{}\n```\n\n\
                ```sh\ncurl -s http://127.0.0.1:8787/v1/tool\n```\n\n```js\nconsole.log(1)\n```\n";
    let found = examples("page.md", page);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].place, "page.md:3");
    assert_eq!(found[0].command, "curl -s http://127.0.0.1:8787/healthz\n");
    assert_eq!(found[0].shown, "{\"status\": \"ok\"}\n");
    assert_eq!(found[0].skip, None);
    assert_eq!(found[1].skip.as_deref(), Some("deploy"));
}

#[test]
fn an_answer_matches_when_what_it_shows_agrees() {
    let real: Value = serde_json::json!({"id": "result_6f0c12", "meta": {"cache": "hit", "specHash": "ab", "title": "T"}, "list": [1, 2], "extra": true});
    let shown = |text: &str| serde_json::from_str::<Value>(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        matches(
            &shown(
                r#"{"id": "result_6f0c…", "meta": {"cache": "miss", "specHash": "ab"}, "list": [1, 2]}"#
            ),
            &real,
            ""
        ),
        Ok(())
    );
    let stale = matches(&shown(r#"{"meta": {"specHash": "cd"}}"#), &real, "");
    assert!(
        stale
            .as_ref()
            .is_err_and(|e| e.starts_with("at /meta/specHash:")),
        "{stale:?}"
    );
    assert!(matches(&shown(r#"{"id": "other…"}"#), &real, "").is_err());
    assert!(matches(&shown(r#"{"list": [1]}"#), &real, "").is_err());
    assert!(matches(&shown(r#"{"missing": 1}"#), &real, "").is_err());
}
