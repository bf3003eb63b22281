//! JSON Pointer (RFC 6901) helpers.

use serde_json::Value;

/// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1`.
pub fn escape(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_owned()
    }
}

/// Unescapes one reference token.
pub fn unescape(token: &str) -> String {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~")
    } else {
        token.to_owned()
    }
}

/// Splits a pointer (`""` or `/a/b`) into unescaped tokens; `None` if it does
/// not start with `/`.
pub fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(rest.split('/').map(unescape).collect())
}

/// Visits every value under `root` (depth first, explicit stack, so deep
/// documents cannot overflow the call stack) with its JSON Pointer, which is
/// `base` followed by the path inside `root`. Stops at the first error.
pub fn walk<'a, E>(root: &'a Value, base: &str, mut visit: impl FnMut(&'a Value, &str) -> Result<(), E>) -> Result<(), E> {
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
pub fn property(parent: &str, name: &str) -> String {
    format!("{parent}/properties/{}", escape(name))
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
