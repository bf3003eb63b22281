//! The error codes are derived from `ErrorCode` (`ErrorCode::codes`), and
//! two documents list them by hand: the `code` enum of
//! `schemas/dgui-error.schema.json` and the error table of `docs/api.md`. Both must
//! name exactly the derived codes, once each, and the table must give each
//! code's status and stay one Markdown table (a blank line inside it ends
//! the table in rendered Markdown).

use genui_core::ErrorCode;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn repo_file(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// Each derived code with its status; codes shared by several kinds must
/// share the status too.
fn derived() -> BTreeMap<&'static str, u16> {
    let mut out = BTreeMap::new();
    for code in ErrorCode::all() {
        let before = out.insert(code.as_str(), code.http_status());
        assert!(
            before.is_none_or(|s| s == code.http_status()),
            "{code} has two statuses"
        );
    }
    assert_eq!(out.len(), ErrorCode::codes().len());
    out
}

fn expected_table() -> String {
    derived()
        .iter()
        .map(|(code, status)| format!("| `{code}` | {status} | ... |\n"))
        .collect()
}

/// The rows of the table under `## Errors` in `docs/api.md`: `(code, status)`, in order.
/// Panics when a row of the section stands outside the one table.
fn documented_rows() -> Vec<(String, u16)> {
    let page = repo_file("docs/api.md");
    let section = page
        .split("\n## Errors\n")
        .nth(1)
        .expect("docs/api.md has a ## Errors section");
    let section = section.split("\n## ").next().unwrap_or_default();
    let lines: Vec<&str> = section.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("| code | status |"))
        .expect("the error table's header");
    assert!(
        lines[header + 1].starts_with("|---"),
        "the header's delimiter row"
    );
    let rows: Vec<&str> = lines[header + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .copied()
        .collect();
    let after = &lines[header + 2 + rows.len()..];
    assert!(
        !after.iter().any(|l| l.starts_with('|')),
        "a row after a break in the error table of docs/api.md; one table is:\n{}",
        expected_table()
    );
    rows.iter()
        .map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
            let code = cells[0].trim_matches('`').to_owned();
            let status = cells[1]
                .parse()
                .unwrap_or_else(|_| panic!("status of {row}"));
            (code, status)
        })
        .collect()
}

#[test]
fn the_documented_table_lists_every_code_once_with_its_status() {
    let derived = derived();
    let rows = documented_rows();
    let mut seen = BTreeMap::new();
    for (code, status) in &rows {
        assert!(
            seen.insert(code.clone(), *status).is_none(),
            "`{code}` twice in the error table of docs/api.md"
        );
        let Some(&expected) = derived.get(code.as_str()) else {
            panic!("docs/api.md lists `{code}`, which ErrorCode does not have")
        };
        assert_eq!(*status, expected, "docs/api.md status of `{code}`");
    }
    let missing: Vec<&&str> = derived.keys().filter(|c| !seen.contains_key(**c)).collect();
    assert!(missing.is_empty(), "codes missing from the error table of docs/api.md: {missing:?}; the table's codes are:\n{}", expected_table());
}

#[test]
fn the_schema_enum_lists_every_code_once() {
    let schema: Value = serde_json::from_str(&repo_file("schemas/dgui-error.schema.json")).unwrap();
    let listed: Vec<&str> = schema["properties"]["code"]["enum"]
        .as_array()
        .expect("a code enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        listed.len(),
        "a code twice in the schema's enum: {listed:?}"
    );
    let derived: Vec<&str> = derived().into_keys().collect();
    assert_eq!(
        sorted, derived,
        "schemas/dgui-error.schema.json code enum against ErrorCode::codes()"
    );
}
