"""Checks genui-worker's signature on an AG-UI resume entry.

The worker signs each entry it answers on /v1/submit under WEBHOOK_SECRET:
`metadata.genui.signature` is `t=<unix seconds>,v1=<hex HMAC-SHA256>` of

    genui-resume.<t>.<specHash>.<status>.<interruptId as a JSON string>.<payload>

where <payload> is the payload's compact JSON text (empty for a cancel).
docs/interrupts.md defines it, with test vectors.
"""

import hashlib
import hmac
import json
from typing import Any


class ResumeSignatureError(Exception):
    """The entry is unsigned, or its signature does not verify."""


def signed_bytes(entry: dict[str, Any], spec_hash: str, timestamp: str) -> bytes:
    """The exact bytes the worker signed for this entry."""
    payload = ""
    if "payload" in entry:
        payload = json.dumps(entry["payload"], separators=(",", ":"), ensure_ascii=False)
    interrupt_id = json.dumps(entry["interruptId"], ensure_ascii=False)
    text = f"genui-resume.{timestamp}.{spec_hash}.{entry['status']}.{interrupt_id}.{payload}"
    return text.encode()


def verify_resume_entry(entry: dict[str, Any], secret: str) -> None:
    """Raises ResumeSignatureError unless the worker signed this exact entry."""
    genui = (entry.get("metadata") or {}).get("genui") or {}
    signature, spec_hash = genui.get("signature"), genui.get("specHash")
    if not isinstance(signature, str) or not isinstance(spec_hash, str):
        raise ResumeSignatureError(f"resume entry {entry.get('interruptId')!r} is not signed")
    parts = dict(part.split("=", 1) for part in signature.split(",") if "=" in part)
    timestamp, given = parts.get("t", ""), parts.get("v1", "")
    expected = hmac.new(
        secret.encode(), signed_bytes(entry, spec_hash, timestamp), hashlib.sha256
    ).hexdigest()
    if not timestamp.isdigit() or not hmac.compare_digest(expected, given):
        raise ResumeSignatureError(
            f"resume entry {entry.get('interruptId')!r}: the signature does not match its payload"
        )
