"""docs/clients.md shows only programs the tests run: each of its Python
blocks is one file of examples/, byte for byte, and each example is shown
or linked."""

from __future__ import annotations

import re
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_every_python_block_of_the_page_is_an_example_file(repo: Path) -> None:
    page = (repo / "docs" / "clients.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    files = {path.read_text(encoding="utf-8"): path.name for path in EXAMPLES.glob("*.py")}
    assert blocks, "docs/clients.md shows no Python block"
    for block in blocks:
        assert block in files, f"docs/clients.md shows a block that is no file of examples/:\n{block[:300]}"
    for name in files.values():
        assert f"clients/python/examples/{name})" in page, f"docs/clients.md does not link examples/{name}"
