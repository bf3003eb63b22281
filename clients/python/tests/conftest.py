"""Shared fixtures: where the repository's docs are, and the worker under test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def repo() -> Path:
    """The repository root; the docs' test vectors live there, not in the package."""
    if not (REPO / "docs" / "interrupts.md").is_file():
        pytest.skip("outside the genui-worker repository: its docs are not here")
    return REPO


@pytest.fixture
def base_url() -> str:
    """The worker's origin (GENUI_URL); the `worker` tests fail without it."""
    url = os.environ.get("GENUI_URL")
    if not url:
        pytest.fail("set GENUI_URL to a running genui-worker (e.g. http://127.0.0.1:8787)")
    return url


@pytest.fixture
def webhook_secret() -> str:
    return os.environ.get("GENUI_WEBHOOK_SECRET", "examples-test-secret")
