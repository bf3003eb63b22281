//! The documentation's blocks: the fenced blocks of a Markdown page, the
//! request blocks with the answers the page shows after them, and the
//! comparison of an answer shown with the worker's real one.
//!
//! Shared by the docs test (`e2e_docs.rs`: every documented request) and
//! the examples test (`e2e_examples.rs`: the examples against the README's
//! answers, and the README walkthrough).
//!
//! "Match": every key the page shows must be in the real answer with the
//! same value (a page may leave parts out, such as `jsonSchema`, and says
//! so in its prose); arrays have the same length. Values that differ per
//! request are written with `…` on the page (`"id": "result_6f0c…"`): the
//! text before and after it must start and end the real string. The keys in
//! [`VARYING_KEYS`] depend on what ran before (a miss or a hit) and are not
//! compared.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Keys whose values depend on the order the blocks run in.
pub const VARYING_KEYS: [&str; 1] = ["cache"];

/// The origin the pages' requests are written against.
pub const DOCS_ORIGIN: &str = "http://127.0.0.1:8787";

/// One request block of a page and the answer the page shows after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// `README.md:42`: the page and the line of the request's fence.
    pub place: String,
    /// The shell command, as written.
    pub command: String,
    /// The answer block's text.
    pub shown: String,
    /// The reason of a `docs-test: skip` marker before the request.
    pub skip: Option<String>,
}

/// One fenced block: its language, first line (1-based, the fence's) and text.
#[derive(Debug, Clone, PartialEq)]
pub struct Fence {
    /// The info string after the backticks (`sh`, `json`, `js`).
    pub lang: String,
    /// The line of the opening fence, 1-based.
    pub line: usize,
    /// The block's text, each line ending in `\n`.
    pub text: String,
    /// The reason of a `docs-test: skip` marker on the last non-blank line
    /// before the fence.
    pub marker: Option<String>,
}

/// The fenced blocks of a Markdown page, each with the skip marker that
/// precedes it (the last non-blank line before the fence).
pub fn fences(text: &str) -> Vec<Fence> {
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
pub fn examples(page: &str, text: &str) -> Vec<Example> {
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
pub fn all_examples(root: &Path) -> Vec<Example> {
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
pub fn matches(shown: &Value, real: &Value, pointer: &str) -> Result<(), String> {
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

/// Runs one block with `sh`, the page's origin replaced by `base`; what it
/// printed on stdout.
pub fn run_block(command: &str, base: &str) -> Result<String, String> {
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
