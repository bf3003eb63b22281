#!/usr/bin/env python3
"""Finds import cycles between the modules of genui-core and of genui-model
(each crate on its own: a crate's modules can only name their own crate).

Each file under crates/<crate>/src is a module (`a/mod.rs` is `a`,
`a/b.rs` is `a::b`). An edge A -> B is a `crate::...` or `super::...` path in
A's code (comments and `#[cfg(test)]` modules excluded) that names B or
something inside B; the longest module prefix of the path is taken. A
submodule naming its parent (`super::Type`) counts; a folder's `mod.rs`
naming its own files by relative path (`mod x; x::f()`) does not, since a
folder is one stage whose `mod.rs` dispatches to its parts.

The check runs at every folder depth as well as per file: at depth 1 each
top-level folder (`plan/`, `render/`, ...) is one node carrying all its
files' edges, so `request/ -> plan/ -> request/` shows even when no two
files import each other. A name the crate root re-exports (`crate::Catalog`)
is an edge to the module it comes from. Prints every strongly connected
component with more than one node and exits 1 when there is one.

A test module in a file of its own (`#[cfg(test)] mod tests;`, the file
`tests.rs`) is test code too, and left out.

    python3 scripts/module-cycles.py            (from the repository root)
"""

import pathlib
import re
import sys

CRATES = pathlib.Path(__file__).resolve().parent.parent / "crates"
# The crates checked, each on its own.
CHECKED = ("genui-core", "genui-model")
SRC = CRATES / CHECKED[0] / "src"
PATH = re.compile(r"\b(crate|super)((?:::[a-z_][a-z0-9_]*)*(?:::[A-Za-z_][A-Za-z0-9_]*)?)")
REEXPORT = re.compile(
    r"(?ms)^pub use ([a-z_][a-z0-9_:]*)::(?:\{([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*(?:\s+as\s+[A-Za-z_][A-Za-z0-9_]*)?));"
)


GROUP = re.compile(r"\b((?:[A-Za-z_][A-Za-z0-9_]*::)*[A-Za-z_][A-Za-z0-9_]*)::\{([^{}]*)\}")


def expand_groups(code: str) -> str:
    """`use crate::{a, b::{C, D}}` written out as `crate::a crate::b::C
    crate::b::D`, innermost braces first, so each path is seen whole."""
    while True:
        def one(match: re.Match) -> str:
            items = re.sub(r"\s+as\s+[A-Za-z_][A-Za-z0-9_]*", "", match.group(2))
            parts = [p for p in re.split(r"[,\s]+", items) if p]
            return " ".join(match.group(1) if p == "self" else f"{match.group(1)}::{p}" for p in parts)
        expanded = GROUP.sub(one, code)
        if expanded == code:
            return code
        code = expanded


def module_of(file: pathlib.Path) -> tuple:
    parts = list(file.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return tuple(parts)


def code_of(text: str) -> str:
    """The text without comments and without the trailing test module."""
    text = re.sub(r"#\[cfg\(test\)\]\s*mod tests;", "", text)
    text = re.sub(r"(?s)#\[cfg\(test\)\]\s*mod tests\b.*", "", text)
    text = re.sub(r"(?m)//.*$", "", text)
    return re.sub(r"(?s)/\*.*?\*/", "", text)


def reexports(modules: set) -> dict:
    """The crate root's `pub use` list: each name to the module it comes from,
    so that `crate::Catalog` is an edge to `catalog`, not to the root."""
    found = {}
    for path, group, single in REEXPORT.findall(code_of((SRC / "lib.rs").read_text())):
        module = longest_module(tuple(path.split("::")), modules)
        for item in (group.split(",") if group else [single]):
            words = item.split()
            if words:
                found[words[-1]] = module
    return found


def longest_module(path: tuple, modules: set) -> tuple:
    while path and path not in modules:
        path = path[:-1]
    return path


def main() -> int:
    global SRC
    failed = 0
    for name in CHECKED:
        SRC = CRATES / name / "src"
        failed |= check(name)
    return failed


def check(crate: str) -> int:
    """Prints the cycles among one crate's modules and folders; 1 when any."""
    files = sorted(f for f in SRC.rglob("*.rs") if f.name != "tests.rs")
    modules = {module_of(f) for f in files}
    exported = reexports(modules)
    edges = {m: set() for m in modules}
    for file in files:
        here = module_of(file)
        for root, rest in PATH.findall(expand_groups(code_of(file.read_text()))):
            names = rest.split("::")[1:]
            if root == "crate" and names and names[0] in exported:
                target = exported[names[0]]
                if target != here and target:
                    edges[here].add(target)
                continue
            if root == "crate":
                base = ()
            else:  # `super` of a mod.rs is its parent; of a.rs, a's parent too
                base = here[:-1]
                while names and names[0] == "super":
                    base, names = base[:-1], names[1:]
            target = base
            for name in names:
                if base + (name,) in modules or (target + (name,)) in modules:
                    target = target + (name,)
                else:
                    break
            if target != here and target in modules:
                edges[here].add(target)
    cycles = []
    for depth in range(1, max(len(m) for m in modules) + 1):
        for cycle in cycles_of(collapsed(edges, depth)):
            if cycle not in (c for c, _ in cycles):
                cycles.append((cycle, collapsed(edges, depth)))
    for cycle, graph in cycles:
        print(f"cycle in {crate}:", " <-> ".join(sorted(label(m) for m in cycle)))
        for m in sorted(cycle):
            inside = sorted(label(t) for t in graph[m] if t in cycle)
            print(f"  {label(m)} -> {', '.join(inside)}")
    if not cycles:
        print(f"module-cycles: none among the {len(modules)} modules of {crate}, nor their folders")
    return 1 if cycles else 0


def label(module: tuple) -> str:
    return "::".join(module) or "crate"


def collapsed(edges: dict, depth: int) -> dict:
    """The graph with every module cut to its first `depth` path parts: at depth 1
    a top-level folder is one node (its files' edges are its edges), at the deepest
    depth each file is a node. Edges inside one node are dropped."""
    graph = {}
    for source, targets in edges.items():
        node = source[:depth]
        graph.setdefault(node, set())
        for target in targets:
            if target[:depth] != node and target:
                graph[node].add(target[:depth])
            graph.setdefault(target[:depth], set())
    return graph


def cycles_of(graph: dict) -> list:
    """Every strongly connected component of more than one node, as a frozenset."""
    return [frozenset(c) for c in tarjan(graph) if len(c) > 1]


def tarjan(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            out.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


if __name__ == "__main__":
    sys.exit(main())
