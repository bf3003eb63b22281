"""Every signature the worker's users make or check, in one place.

All are HMAC-SHA256 under the worker's `WEBHOOK_SECRET`, the signed bytes
starting with a purpose label so a signature made for one use never
verifies for another (docs/api.md#webhooks, docs/interrupts.md):

| purpose | signed bytes | who signs |
|---|---|---|
| `genui-webhook` | `genui-webhook.<t>.<raw body>` | the agent, for `POST /v1/webhook` |
| `genui-callback` | `genui-callback.<t>.<raw body>` | the worker, for its POST to `callbackUrl` |
| `genui-resume` | `genui-resume.<t>.<specHash>.<status>.<interruptId>.<schemaDigest>.<payload>` | the worker, in a resume entry |

In a resume entry, `<interruptId>` and `<payload>` are RFC 8785 canonical JSON
and `<schemaDigest>` is the hex SHA-256 of the canonical JSON of the
`responseSchema` the agent sent (both empty for a cancel).

Webhook and callback signatures travel in `X-Genui-Signature: t=<unix seconds>,v1=<hex>`
(several `v1` during a secret rotation) and are good from 30 s before `t` to
300 s after it. Every check fails closed: it returns only when the
signature verifies, and raises `GenuiError("invalid_signature")` otherwise.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from datetime import datetime
from typing import Any, Mapping, Optional

import rfc8785

from .errors import GenuiError

SIGNATURE_HEADER = "X-Genui-Signature"
WEBHOOK = "genui-webhook"
CALLBACK = "genui-callback"
RESUME = "genui-resume"
#: How old a webhook or callback signature may be, and how far ahead of the clock.
TOLERANCE_SECONDS = 300
MAX_CLOCK_SKEW_SECONDS = 30


def _hex_mac(secret: str, signed: bytes) -> str:
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def _refuse(why: str) -> GenuiError:
    return GenuiError("invalid_signature", why)


def parse_header(header: str) -> tuple[int, list[str]]:
    """`t=<unix seconds>,v1=<hex>[,v1=<hex>…]` as (t, [hex, …]); raises if malformed."""
    timestamp: Optional[int] = None
    signatures: list[str] = []
    for part in header.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            continue
        if key == "t" and value.isdigit() and value.isascii():
            timestamp = int(value)
        elif key == "v1":
            signatures.append(value)
    if timestamp is None or not signatures:
        raise _refuse(f"the signature {header[:80]!r} is not t=<unix seconds>,v1=<hex>")
    return timestamp, signatures


def sign_webhook(secret: str, body: bytes, timestamp: Optional[int] = None) -> str:
    """The `X-Genui-Signature` value for a request to `/v1/webhook` with this raw body."""
    t = int(time.time()) if timestamp is None else timestamp
    return f"t={t},v1={_hex_mac(secret, f'{WEBHOOK}.{t}.'.encode() + body)}"


def verify_callback(header: str, body: bytes, secret: str, now: Optional[float] = None) -> None:
    """Returns only if the worker signed this callback's raw body within the tolerance."""
    _verify_timed(CALLBACK, header, body, secret, now)


def verify_webhook(header: str, body: bytes, secret: str, now: Optional[float] = None) -> None:
    """What the worker checks on `/v1/webhook` (for a relay that receives agents' calls)."""
    _verify_timed(WEBHOOK, header, body, secret, now)


def _verify_timed(purpose: str, header: str, body: bytes, secret: str, now: Optional[float]) -> None:
    if not secret:
        raise _refuse("no secret to verify with")
    timestamp, given = parse_header(header)
    clock = time.time() if now is None else now
    if clock - timestamp > TOLERANCE_SECONDS or timestamp - clock > MAX_CLOCK_SKEW_SECONDS:
        raise _refuse(f"the signature's time {timestamp} is outside the {TOLERANCE_SECONDS} s window")
    expected = _hex_mac(secret, f"{purpose}.{timestamp}.".encode() + body)
    if not any(hmac.compare_digest(expected, candidate) for candidate in given):
        raise _refuse(f"no v1 signature matches the body under the label {purpose}")


#: What a confirmation sent without `responseSchema` is checked against
#: (docs/interrupts.md publishes it; a test compares the two).
APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"approved": {"type": "boolean", "title": "Approve"}},
    "required": ["approved"],
    "additionalProperties": False,
}


def schema_digest(response_schema: Any) -> str:
    """Hex SHA-256 of a schema's RFC 8785 canonical JSON, as a resume entry binds it."""
    return hashlib.sha256(rfc8785.dumps(response_schema)).hexdigest()


def resume_signed_bytes(
    entry: Mapping[str, Any], spec_hash: str, timestamp: int, response_schema: Any
) -> bytes:
    """The bytes the worker signed for a resume entry (docs/interrupts.md)."""
    digest, payload = "", ""
    if entry.get("status") == "resolved":
        digest = schema_digest(response_schema)
        payload = rfc8785.dumps(entry.get("payload")).decode()
    interrupt_id = rfc8785.dumps(entry["interruptId"]).decode()
    return f"{RESUME}.{timestamp}.{spec_hash}.{entry['status']}.{interrupt_id}.{digest}.{payload}".encode()


def _issued_schema(interrupt: Mapping[str, Any]) -> Any:
    schema = interrupt.get("responseSchema")
    if schema is None and interrupt.get("reason") == "confirmation":
        return APPROVAL_SCHEMA
    if schema is None:
        raise _refuse(f"interrupt {interrupt.get('id')!r} has no responseSchema to check the answer against")
    return schema


def _expires_at(interrupt: Mapping[str, Any]) -> Optional[float]:
    text = interrupt.get("expiresAt")
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as error:
        raise _refuse(f"interrupt {interrupt.get('id')!r} has an unreadable expiresAt {text!r}") from error
    if moment.tzinfo is None:
        # RFC 3339 has an offset; without one the moment depends on this machine's zone.
        raise _refuse(f"interrupt {interrupt.get('id')!r} has an expiresAt without an offset: {text!r}")
    return moment.timestamp()


def verify_resume_entry(
    entry: Mapping[str, Any],
    secret: str,
    interrupt: Mapping[str, Any],
    spec_hash: Optional[str] = None,
) -> None:
    """Returns only if the worker signed this exact entry as the answer to `interrupt`.

    `interrupt` is the AG-UI interrupt the agent issued: the entry must name
    its id, the answer must have been checked against its `responseSchema`
    (the approval schema for a confirmation without one) and signed before
    its `expiresAt`. With `spec_hash`, the entry must also come from that form.
    """
    if not secret:
        raise _refuse("no secret to verify with")
    interrupt_id = entry.get("interruptId")
    metadata = entry.get("metadata")
    genui = metadata.get("genui") if isinstance(metadata, Mapping) else None
    signature = genui.get("signature") if isinstance(genui, Mapping) else None
    signed_hash = genui.get("specHash") if isinstance(genui, Mapping) else None
    if not isinstance(signature, str) or not isinstance(signed_hash, str):
        raise _refuse(f"resume entry {interrupt_id!r} is not signed")
    if not isinstance(interrupt_id, str) or entry.get("status") not in ("resolved", "cancelled"):
        raise _refuse(f"resume entry {interrupt_id!r} has no string interruptId or a status of neither resolved nor cancelled")
    if entry["status"] == "cancelled" and "payload" in entry:
        raise _refuse(f"resume entry {interrupt_id!r} is cancelled but carries a payload")
    if interrupt_id != interrupt.get("id"):
        raise _refuse(f"resume entry {interrupt_id!r} answers another interrupt than {interrupt.get('id')!r}")
    if spec_hash is not None and not hmac.compare_digest(spec_hash, signed_hash):
        raise _refuse(f"resume entry {interrupt_id!r} answers another form ({signed_hash})")
    timestamp, given = parse_header(signature)
    schema = _issued_schema(interrupt) if entry["status"] == "resolved" else None
    signed = resume_signed_bytes(entry, signed_hash, timestamp, schema)
    expected = _hex_mac(secret, signed)
    if not any(hmac.compare_digest(expected, candidate) for candidate in given):
        raise _refuse(
            f"resume entry {interrupt_id!r}: the signature does not match its payload and the interrupt's schema"
        )
    deadline = _expires_at(interrupt)
    if entry["status"] == "resolved" and deadline is not None and timestamp >= deadline:
        raise _refuse(f"resume entry {interrupt_id!r} was signed after the interrupt's expiresAt")
