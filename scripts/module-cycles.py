#!/usr/bin/env python3
"""Finds import cycles between genui-core's modules (issue 14).

Each file under crates/genui-core/src is a module (`a/mod.rs` is `a`,
`a/b.rs` is `a::b`). An edge A -> B is a `crate::...` or `super::...` path in
A's code (comments and `#[cfg(test)]` modules excluded) that names B or
something inside B; the longest module prefix of the path is taken. A
submodule naming its parent (`super::Type`) counts; a folder's `mod.rs`
naming its own files by relative path (`mod x; x::f()`) does not, since a
folder is one stage whose `mod.rs` dispatches to its parts. Prints every strongly connected component with more
than one module and exits 1 when there is one.

    python3 scripts/module-cycles.py            (from the repository root)
"""

import pathlib
import re
import sys

SRC = pathlib.Path(__file__).resolve().parent.parent / "crates" / "genui-core" / "src"
PATH = re.compile(r"\b(crate|super)((?:::[a-z_][a-z0-9_]*)+)")


def module_of(file: pathlib.Path) -> tuple:
    parts = list(file.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return tuple(parts)


def code_of(text: str) -> str:
    """The text without comments and without the trailing test module."""
    text = re.sub(r"(?s)#\[cfg\(test\)\]\s*mod tests.*", "", text)
    text = re.sub(r"(?m)//.*$", "", text)
    return re.sub(r"(?s)/\*.*?\*/", "", text)


def main() -> int:
    files = sorted(SRC.rglob("*.rs"))
    modules = {module_of(f) for f in files}
    edges = {m: set() for m in modules}
    for file in files:
        here = module_of(file)
        for root, rest in PATH.findall(code_of(file.read_text())):
            names = rest.split("::")[1:]
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
    cycles = [c for c in tarjan(edges) if len(c) > 1]
    for cycle in cycles:
        names = sorted("::".join(m) or "crate" for m in cycle)
        print("cycle:", " <-> ".join(names))
        for m in sorted(cycle):
            inside = sorted("::".join(t) or "crate" for t in edges[m] if t in cycle)
            print(f"  {'::'.join(m) or 'crate'} -> {', '.join(inside)}")
    if not cycles:
        print(f"module-cycles: none among {len(modules)} modules of genui-core")
    return 1 if cycles else 0


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
