//! Each crate's front door, read from its source: no `pub mod` anywhere
//! under `src/` (modules are private, reached through one `pub use` list in
//! `lib.rs`), no glob re-export, no name exported twice, and at most the
//! crate's ceiling of public names at its root ([`CRATES`]).

use std::path::{Path, PathBuf};

/// The crates held to the rule, by directory under `crates/`, with the most
/// names each root may expose, held at today's counts so they can only
/// fall, within the house limit of 40. genui-model exposes 36 (the front
/// doors took the shell's uses of the generation machine's parts behind
/// `serve`, plus `warm_up` and its form `WARM_UP_REQUEST` for the module's
/// start, which sends that form through `serve` too); genui-core exposes 40.
const CRATES: [(&str, usize); 2] = [("genui-model", 36), ("genui-core", 40)];

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

/// Every `.rs` file under `dir`, depth first.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source without `//` comments (doc comments included), so prose that
/// mentions `pub mod` or `pub use` is not read as code.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Lines declaring a public module (`pub mod x;` or `pub mod x {`).
fn pub_mods(code: &str) -> Vec<String> {
    code.lines()
        .map(str::trim)
        .filter(|line| line.starts_with("pub mod "))
        .map(str::to_owned)
        .collect()
}

/// The names one `pub use` tree brings into scope: the last segment of each
/// leaf, or its `as` alias; `self` names the module it stands in.
fn use_names(tree: &str, parent: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    if let Some(open) = tree.find('{') {
        let prefix = tree[..open].trim_end_matches("::");
        let inner = &tree[open + 1..tree.rfind('}').expect("a closing brace")];
        let last = prefix.rsplit("::").next().unwrap_or(prefix);
        for part in split_top_level(inner) {
            use_names(&part, last, out);
        }
        return;
    }
    assert!(
        !tree.ends_with('*'),
        "a glob re-export hides its names: `{tree}`"
    );
    let name = match tree.split_once(" as ") {
        Some((_, alias)) => alias.trim(),
        None => tree.rsplit("::").next().unwrap_or(tree).trim(),
    };
    out.push(if name == "self" { parent } else { name }.to_owned());
}

/// Splits `a, b::{c, d}, e` at the commas outside braces.
fn split_top_level(list: &str) -> Vec<String> {
    let (mut parts, mut depth, mut current) = (Vec::new(), 0usize, String::new());
    for c in list.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
}

/// The public names at a crate root: its `pub use` lists and the items
/// `lib.rs` defines itself.
fn root_names(lib: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = lib;
    while let Some(at) = rest.find("pub use ") {
        let end = at + rest[at..].find(';').expect("`pub use` ends with `;`");
        use_names(&rest[at + "pub use ".len()..end], "", &mut names);
        rest = &rest[end..];
    }
    for line in lib.lines().map(str::trim) {
        for kind in ["fn", "struct", "enum", "trait", "const", "static", "type"] {
            if let Some(item) = line.strip_prefix(&format!("pub {kind} ")) {
                let name: String = item
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
            }
        }
    }
    names
}

#[test]
fn each_crate_has_no_pub_mod() {
    for (name, _) in CRATES {
        let mut files = Vec::new();
        rust_files(&crate_src(name), &mut files);
        for file in files {
            let code = code_of(&std::fs::read_to_string(&file).expect("a source file"));
            let found = pub_mods(&code);
            assert!(found.is_empty(), "{}: {found:?}", file.display());
        }
    }
}

#[test]
fn each_crate_root_exposes_at_most_its_ceiling_of_names_once() {
    for (name, ceiling) in CRATES {
        let lib =
            code_of(&std::fs::read_to_string(crate_src(name).join("lib.rs")).expect("lib.rs"));
        let names = root_names(&lib);
        eprintln!("{name}: {} public names", names.len());
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(
            sorted.len(),
            names.len(),
            "{name}: a name exported twice: {names:?}"
        );
        assert!(
            names.len() <= ceiling,
            "{name}: {} public names, more than {ceiling}: {names:?}",
            names.len()
        );
    }
}

#[test]
fn the_counter_reads_nested_lists_aliases_and_pub_mods() {
    let lib = "pub use a::{B, c::{D, E as F}, self};\npub use g::H;\npub fn i() {}\n";
    assert_eq!(root_names(lib), ["B", "D", "F", "a", "H", "i"]);
    assert_eq!(
        pub_mods("mod a;\n    pub mod b;\npub(crate) mod c;"),
        ["pub mod b;"]
    );
    assert!(pub_mods(&code_of("/// says pub mod x;\n// pub mod y;")).is_empty());
}
