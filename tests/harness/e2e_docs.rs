//! The documentation's requests, run: every ```` ```sh ```` block of
//! `README.md` and `docs/*.md` that calls `curl` and whose next fenced block
//! is ```` ```json ```` (the answer the page shows) is run as written, with
//! `sh`, against the worker under `wrangler dev`, and the answer shown must
//! match the real one.
//!
//! "Match" is [`genui_harness::docs::matches`]: the keys shown, with the
//! values shown, `…` for what differs per request.
//!
//! A block that cannot run here (a deployment, a real model provider) is
//! preceded by `<!-- docs-test: skip (reason) -->` and reported as skipped.
//!
//! `cargo test -p genui-harness --test e2e-docs -- --ignored` runs the
//! blocks; the other tests here check the extraction and the comparison
//! without a worker.

use genui_harness::docs::{all_examples, examples, matches, run_block, Example, DOCS_ORIGIN};
use genui_harness::{project_root, Options, WranglerDev};
use serde_json::Value;
use std::time::Duration;

/// Runs one example and compares; a `spec_not_found` (the form's KV write
/// runs after its answer) is tried again for up to 3 s. The page's origin
/// stands for the worker's in the answer shown too (hosted form links).
fn check(example: &Example, base: &str) -> Result<(), String> {
    let shown = example.shown.replace(DOCS_ORIGIN, base);
    let shown: Value =
        serde_json::from_str(&shown).map_err(|e| format!("the answer shown is not JSON: {e}"))?;
    let mut body = run_block(&example.command, base)?;
    for _ in 0..10 {
        if !body.contains("\"spec_not_found\"") {
            break;
        }
        std::thread::sleep(Duration::from_millis(300));
        body = run_block(&example.command, base)?;
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
