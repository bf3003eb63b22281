"""The `generateUserInterface` tool definition, shipped as package data.

`tool.json` is what the worker serves on `GET /v1/tool` (a test against a
running worker compares the two, so it cannot drift); `Client.tool()`
fetches the live one.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

TOOL_NAME = "generateUserInterface"


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("tool.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


_TOOL = _load()


def tool_definition() -> dict[str, Any]:
    """`{"name", "description", "parameters"}`: a fresh copy each call."""
    return copy.deepcopy(_TOOL)
