"""Signatures: the docs' resume vectors (read from docs/interrupts.md), webhook
signing against the worker's rules, and every check failing closed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from genui_worker import GenuiError, sign_webhook, verify_callback, verify_resume_entry, verify_webhook
from genui_worker.signatures import resume_signed_bytes

SECRET = "examples-test-secret"
NOW = 1_795_564_800


def resume_vectors(repo: Path) -> list[dict[str, str]]:
    text = (repo / "docs" / "interrupts.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```resume-vector\n(.*?)```", text, re.S)
    return [dict(line.split(": ", 1) for line in block.strip().split("\n")) for block in blocks]


def entry_of(vector: dict[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "interruptId": vector["interruptId"],
        "status": vector["status"],
        "metadata": {"genui": {"specHash": vector["specHash"], "signature": vector["signature"]}},
    }
    if vector["payload"] != "(none)":
        entry["payload"] = json.loads(vector["payload"])
    return entry


def test_the_docs_have_both_resume_vectors(repo: Path) -> None:
    assert [v["status"] for v in resume_vectors(repo)] == ["resolved", "cancelled"]


def test_every_docs_vector_verifies_and_signs_the_documented_bytes(repo: Path) -> None:
    for vector in resume_vectors(repo):
        entry = entry_of(vector)
        assert resume_signed_bytes(entry, vector["specHash"], int(vector["t"])) == vector["signed"].encode()
        verify_resume_entry(entry, vector["secret"], spec_hash=vector["specHash"])


@pytest.mark.parametrize(
    "tamper",
    [
        lambda e: e.update(status="cancelled" if e["status"] == "resolved" else "resolved"),
        lambda e: e.update(interruptId=e["interruptId"] + "x"),
        lambda e: e.update(payload={"quarter": "Q2"}),
        lambda e: e["metadata"]["genui"].update(specHash="0" * 64),
        lambda e: e["metadata"]["genui"].update(signature="t=1795564800"),
        lambda e: e["metadata"]["genui"].update(signature="garbage"),
        lambda e: e["metadata"]["genui"].pop("signature"),
        lambda e: e.pop("metadata"),
        lambda e: e.update(metadata=None),
        lambda e: e.update(interruptId=7),
    ],
)
def test_a_changed_resume_entry_is_refused(repo: Path, tamper: Any) -> None:
    for vector in resume_vectors(repo):
        entry = entry_of(vector)
        tamper(entry)
        with pytest.raises(GenuiError) as refused:
            verify_resume_entry(entry, vector["secret"])
        assert refused.value.code == "invalid_signature"


def test_a_resume_entry_under_another_secret_or_spec_is_refused(repo: Path) -> None:
    vector = resume_vectors(repo)[0]
    for secret, spec_hash in [("another", None), ("", None), (vector["secret"], "f" * 64)]:
        with pytest.raises(GenuiError):
            verify_resume_entry(entry_of(vector), secret, spec_hash=spec_hash)


def test_webhook_signing_signs_the_documented_bytes(repo: Path) -> None:
    import hashlib
    import hmac

    body = b'{"tool":"generateUserInterface"}'
    header = sign_webhook(SECRET, body, timestamp=NOW)
    expected = hmac.new(SECRET.encode(), b"genui-webhook.%d." % NOW + body, hashlib.sha256).hexdigest()
    assert header == f"t={NOW},v1={expected}"
    verify_webhook(header, body, SECRET, now=NOW + 299)


def callback_header(body: bytes, t: int = NOW, secret: str = SECRET) -> str:
    # The worker signs callbacks as it signs webhooks, under the label genui-callback.
    return _relabel(body, t, secret)


def _relabel(body: bytes, t: int, secret: str) -> str:
    import hashlib
    import hmac

    mac = hmac.new(secret.encode(), b"genui-callback.%d." % t + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def test_a_callback_verifies_in_its_window_and_with_a_rotated_key() -> None:
    body = b'{"meta":{"specHash":"abc"}}'
    verify_callback(callback_header(body), body, SECRET, now=NOW)
    verify_callback(callback_header(body), body, SECRET, now=NOW + 300)
    verify_callback(callback_header(body), body, SECRET, now=NOW - 30)
    rotated = f"t={NOW},v1={'0' * 64}," + callback_header(body).split(",")[1]
    verify_callback(rotated, body, SECRET, now=NOW)


@pytest.mark.parametrize(
    "header, body, now",
    [
        ("CALLBACK", b"{}x", NOW),  # another body
        ("CALLBACK", b"{}", NOW + 301),  # stale
        ("CALLBACK", b"{}", NOW - 31),  # from the future
        ("WEBHOOK", b"{}", NOW),  # a webhook signature is no callback signature
        ("t=abc,v1=00", b"{}", NOW),
        ("", b"{}", NOW),
        ("v1=00", b"{}", NOW),
        (f"t={NOW}", b"{}", NOW),
        (f"t=-{NOW},v1=00", b"{}", NOW),
    ],
)
def test_a_bad_callback_is_refused(header: str, body: bytes, now: int) -> None:
    signed = {"CALLBACK": callback_header(b"{}"), "WEBHOOK": sign_webhook(SECRET, b"{}", timestamp=NOW)}
    with pytest.raises(GenuiError) as refused:
        verify_callback(signed.get(header, header), body, SECRET, now=now)
    assert refused.value.code == "invalid_signature"


def test_no_secret_verifies_nothing() -> None:
    body = b"{}"
    with pytest.raises(GenuiError):
        verify_callback(_relabel(body, NOW, ""), body, "", now=NOW)
