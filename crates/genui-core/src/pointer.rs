//! JSON Pointer (RFC 6901) helpers.

use serde_json::Value;

/// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1`.
pub(crate) fn escape(token: &str) -> String {
    if token.contains(['~', '/']) {
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
pub(crate) fn walk<'a, E>(root: &'a Value, base: &str, mut visit: impl FnMut(&'a Value, &str) -> Result<(), E>) -> Result<(), E> {
    let mut stack = vec![(root, base.to_owned())];
    while let Some((value, pointer)) = stack.pop() {
        visit(value, &pointer)?;
        match value {
            Value::Object(map) => {
                stack.extend(map.iter().map(|(key, child)| (child, format!("{pointer}/{}", escape(key)))));
            }
            Value::Array(items) => {
                stack.extend(items.iter().enumerate().map(|(i, child)| (child, format!("{pointer}/{i}"))));
            }
            _ => {}
        }
    }
    Ok(())
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
    pub fn walk<'a, E>(root: &'a Value, base: &str, visit: impl FnMut(&'a Value, &str) -> std::result::Result<(), E>) -> std::result::Result<(), E> {
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
}
