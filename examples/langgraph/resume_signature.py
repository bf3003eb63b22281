"""Checks genui-worker's signature on an AG-UI resume entry.

The worker signs each entry it answers on /v1/submit under WEBHOOK_SECRET:
`metadata.genui.signature` is `t=<unix seconds>,v1=<hex HMAC-SHA256>` of

    genui-resume.<t>.<specHash>.<status>.<interruptId>.<schemaDigest>.<payload>

where <interruptId> and <payload> are RFC 8785 canonical JSON and
<schemaDigest> is the hex SHA-256 of the canonical JSON of the responseSchema
this agent sent (both empty for a cancel). docs/interrupts.md defines it,
with test vectors. The schema comes from the interrupt the agent issued,
never from the entry: an answer checked against any other schema fails.
"""

import hashlib
import hmac
from datetime import datetime
from typing import Any

import rfc8785


#: What a confirmation sent without `responseSchema` is checked against
#: (docs/interrupts.md publishes it).
APPROVAL_SCHEMA = {
    "type": "object",
    "properties": {"approved": {"type": "boolean", "title": "Approve"}},
    "required": ["approved"],
    "additionalProperties": False,
}


class ResumeSignatureError(Exception):
    """The entry is unsigned, answers no open interrupt, or its signature does not verify."""


def signed_bytes(entry: dict[str, Any], spec_hash: str, timestamp: str, response_schema: Any) -> bytes:
    """The exact bytes the worker signed for this entry."""
    digest, payload = "", ""
    if entry["status"] == "resolved":
        digest = hashlib.sha256(rfc8785.dumps(response_schema)).hexdigest()
        payload = rfc8785.dumps(entry["payload"]).decode()
    interrupt_id = rfc8785.dumps(entry["interruptId"]).decode()
    return f"genui-resume.{timestamp}.{spec_hash}.{entry['status']}.{interrupt_id}.{digest}.{payload}".encode()


def verify_resume_entry(entry: dict[str, Any], secret: str, issued: dict[str, Any]) -> None:
    """Raises ResumeSignatureError unless the worker signed this exact entry for `issued`.

    `issued` is the interrupt's value as this agent raised it (its
    `responseSchema` and `expiresAt`).
    """
    if entry.get("status") == "cancelled" and "payload" in entry:
        raise ResumeSignatureError(f"resume entry {entry.get('interruptId')!r} is cancelled but carries a payload")
    genui = (entry.get("metadata") or {}).get("genui") or {}
    signature, spec_hash = genui.get("signature"), genui.get("specHash")
    if not isinstance(signature, str) or not isinstance(spec_hash, str):
        raise ResumeSignatureError(f"resume entry {entry.get('interruptId')!r} is not signed")
    parts = dict(part.split("=", 1) for part in signature.split(",") if "=" in part)
    timestamp, given = parts.get("t", ""), parts.get("v1", "")
    if not timestamp.isdigit():
        raise ResumeSignatureError(f"resume entry {entry.get('interruptId')!r}: no timestamp")
    expected = hmac.new(
        secret.encode(),
        signed_bytes(entry, spec_hash, timestamp, issued.get("responseSchema") or APPROVAL_SCHEMA),
        hashlib.sha256,
    ).hexdigest()
    if not hmac.compare_digest(expected, given):
        raise ResumeSignatureError(
            f"resume entry {entry.get('interruptId')!r}: the signature does not match its payload and schema"
        )
    expires = issued.get("expiresAt")
    if entry["status"] == "resolved" and expires:
        deadline = datetime.fromisoformat(expires.replace("Z", "+00:00")).timestamp()
        if int(timestamp) >= deadline:
            raise ResumeSignatureError(f"resume entry {entry.get('interruptId')!r} came after expiresAt")
