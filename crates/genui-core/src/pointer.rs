//! JSON Pointer (RFC 6901) helpers.

use serde_json::Value;

/// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1`.
pub(crate) fn escape(token: &str) -> String {
    if token.bytes().any(|b| b == b'~' || b == b'/') {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_owned()
    }
}

/// Unescapes one reference token.
pub(crate) fn unescape(token: &str) -> String {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~")
    } else {
        token.to_owned()
    }
}

/// Splits a pointer (`""` or `/a/b`) into unescaped tokens; `None` if it does
/// not start with `/`.
pub(crate) fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(rest.split('/').map(unescape).collect())
}

/// Visits every value under `root` (depth first, explicit stack, so deep
/// documents cannot overflow the call stack) with its JSON Pointer, which is
/// `base` followed by the path inside `root`. Stops at the first error.
///
/// Children are visited last first (as a stack of values pops them), and
/// the pointer is one buffer that grows and shrinks along the path: a walk
/// over every node of a schema runs on every request, and a string per node
/// cost more than the walk itself in wasm.
pub(crate) fn walk<'a, E>(
    root: &'a Value,
    base: &str,
    mut visit: impl FnMut(&'a Value, &str) -> Result<(), E>,
) -> Result<(), E> {
    let mut pointer = base.to_owned();
    visit(root, &pointer)?;
    let mut frames: Vec<(Children<'a>, usize)> = Vec::new();
    frames.extend(Children::of(root).map(|children| (children, pointer.len())));
    while let Some((children, len)) = frames.last_mut() {
        pointer.truncate(*len);
        let Some(child) = children.next_into(&mut pointer) else {
            frames.pop();
            continue;
        };
        visit(child, &pointer)?;
        frames.extend(Children::of(child).map(|children| (children, pointer.len())));
    }
    Ok(())
}

/// The children of an object or array still to visit, last first.
enum Children<'a> {
    Object(std::iter::Rev<serde_json::map::Iter<'a>>),
    Array(std::iter::Rev<std::iter::Enumerate<std::slice::Iter<'a, Value>>>),
}

impl<'a> Children<'a> {
    fn of(value: &'a Value) -> Option<Self> {
        match value {
            Value::Object(map) => Some(Self::Object(map.iter().rev())),
            Value::Array(items) => Some(Self::Array(items.iter().enumerate().rev())),
            _ => None,
        }
    }

    /// The next child, with its reference token appended to `pointer`.
    fn next_into(&mut self, pointer: &mut String) -> Option<&'a Value> {
        pointer.push('/');
        match self {
            Self::Object(entries) => entries.next().map(|(key, child)| {
                push_escaped(pointer, key);
                child
            }),
            Self::Array(items) => items.next().map(|(i, child)| {
                use std::fmt::Write;
                let _ = write!(pointer, "{i}");
                child
            }),
        }
    }
}

/// Appends `token` escaped ([`escape`]) to `pointer`.
fn push_escaped(pointer: &mut String, token: &str) {
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        pointer.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Appends `/properties/<name>` to a schema pointer.
pub(crate) fn property(parent: &str, name: &str) -> String {
    format!("{parent}/properties/{}", escape(name))
}

/// JSON Pointer (RFC 6901) helpers, for the crates around the core.
#[derive(Debug, Clone, Copy)]
pub struct Pointer;

impl Pointer {
    /// `~` -> `~0`, `/` -> `~1`.
    pub fn escape(token: &str) -> String {
        escape(token)
    }

    /// `~1` -> `/`, `~0` -> `~`.
    pub fn unescape(token: &str) -> String {
        unescape(token)
    }

    /// The unescaped tokens of a pointer; `None` when it does not start with `/` (and is not `""`).
    pub fn tokens(pointer: &str) -> Option<Vec<String>> {
        tokens(pointer)
    }

    /// The schema pointer of property `name` of the object at `parent`.
    pub fn property(parent: &str, name: &str) -> String {
        property(parent, name)
    }

    /// Visits every value below `root`, with its pointer (prefixed by `base`).
    pub fn walk<'a, E>(
        root: &'a Value,
        base: &str,
        visit: impl FnMut(&'a Value, &str) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        walk(root, base, visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        assert_eq!(unescape("a~1b~0c"), "a/b~c");
        assert_eq!(tokens("/a~1b/c").unwrap(), vec!["a/b", "c"]);
        assert_eq!(tokens("").unwrap(), Vec::<String>::new());
        assert!(tokens("a").is_none());
        assert_eq!(property("", "x/y"), "/properties/x~1y");
    }

    #[test]
    fn walk_visits_every_value_last_child_first() {
        let doc = serde_json::json!({"a": [1, {"b/c": 2}], "d~": {}});
        let mut seen = Vec::new();
        walk::<()>(&doc, "/base", |_, pointer| {
            seen.push(pointer.to_owned());
            Ok(())
        })
        .unwrap();
        assert_eq!(
            seen,
            [
                "/base",
                "/base/d~0",
                "/base/a",
                "/base/a/1",
                "/base/a/1/b~1c",
                "/base/a/0"
            ]
        );
    }
}
