"""Signatures: the docs' resume vectors (read from docs/interrupts.md), webhook
signing against the worker's rules, and every check failing closed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from genui_worker import GenuiError, sign_webhook, verify_callback, verify_resume_entry, verify_webhook
from genui_worker.signatures import APPROVAL_SCHEMA, resume_signed_bytes, schema_digest

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


def interrupt_of(vector: dict[str, str]) -> dict[str, Any]:
    """The interrupt the agent issued for a vector's entry."""
    interrupt: dict[str, Any] = {"id": vector["interruptId"], "reason": "input_required"}
    if vector["responseSchema"] != "(none)":
        interrupt["responseSchema"] = json.loads(vector["responseSchema"])
    return interrupt


def test_the_docs_have_resolved_and_cancelled_resume_vectors(repo: Path) -> None:
    assert [v["status"] for v in resume_vectors(repo)] == ["resolved", "resolved", "cancelled"]


def test_every_docs_vector_verifies_and_signs_the_documented_bytes(repo: Path) -> None:
    for vector in resume_vectors(repo):
        entry, interrupt = entry_of(vector), interrupt_of(vector)
        signed = resume_signed_bytes(entry, vector["specHash"], int(vector["t"]), interrupt.get("responseSchema"))
        assert signed == vector["signed"].encode()
        if "responseSchema" in interrupt:
            assert schema_digest(interrupt["responseSchema"]) == vector["schemaDigest"]
        verify_resume_entry(entry, vector["secret"], interrupt, spec_hash=vector["specHash"])


def test_the_approval_schema_is_the_one_the_docs_publish(repo: Path) -> None:
    text = (repo / "docs" / "interrupts.md").read_text(encoding="utf-8")
    (published,) = re.findall(r"```approval-schema\n(.*?)```", text, re.S)
    assert json.loads(published) == APPROVAL_SCHEMA


def test_a_confirmation_without_a_schema_is_checked_against_the_approval_schema(repo: Path) -> None:
    vector = next(v for v in resume_vectors(repo) if v["interruptId"] == "int-approve")
    confirmation = {"id": "int-approve", "reason": "confirmation"}
    verify_resume_entry(entry_of(vector), vector["secret"], confirmation)


def test_an_answer_checked_against_another_schema_is_refused(repo: Path) -> None:
    vector = resume_vectors(repo)[0]
    widened = {**interrupt_of(vector), "responseSchema": {"type": "object"}}
    with pytest.raises(GenuiError):
        verify_resume_entry(entry_of(vector), vector["secret"], widened)


def test_a_payload_reparsed_in_another_key_order_and_number_form_verifies(repo: Path) -> None:
    vector = resume_vectors(repo)[0]
    entry = entry_of(vector)
    entry["payload"] = dict(reversed(list(entry["payload"].items())))
    entry["payload"]["revenue"] = float(entry["payload"]["revenue"])
    verify_resume_entry(entry, vector["secret"], interrupt_of(vector))


def test_an_expires_at_without_an_offset_is_refused(repo: Path) -> None:
    vector = resume_vectors(repo)[0]
    local = {**interrupt_of(vector), "expiresAt": "2030-01-01T00:00:00"}
    with pytest.raises(GenuiError):
        verify_resume_entry(entry_of(vector), vector["secret"], local)


def test_an_entry_signed_after_expires_at_is_refused(repo: Path) -> None:
    vector = resume_vectors(repo)[0]
    expired = {**interrupt_of(vector), "expiresAt": "2026-01-01T00:00:00Z"}
    with pytest.raises(GenuiError):
        verify_resume_entry(entry_of(vector), vector["secret"], expired)


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
            verify_resume_entry(entry, vector["secret"], interrupt_of(vector))
        assert refused.value.code == "invalid_signature"


def test_a_resume_entry_under_another_secret_or_spec_is_refused(repo: Path) -> None:
    vector = resume_vectors(repo)[0]
    for secret, spec_hash in [("another", None), ("", None), (vector["secret"], "f" * 64)]:
        with pytest.raises(GenuiError):
            verify_resume_entry(entry_of(vector), secret, interrupt_of(vector), spec_hash=spec_hash)


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
