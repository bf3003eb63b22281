"""The one exception of this package: every failure is a `GenuiError`.

A failure the worker reports is its `dgui_error` (`schemas/dgui-error.schema.json`):
`code`, `message` and `payload.pointer`, with the HTTP status. A failure the
client finds itself has a code of its own, listed in `CLIENT_CODES`.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

#: The codes the client gives when the worker's answer never arrives or is
#: not one it can read; every other code is the worker's own.
CLIENT_CODES: Mapping[str, str] = {
    "unreachable": "the worker could not be reached (connection refused, DNS, TLS)",
    "timeout": "the worker did not answer within the client's timeout",
    "bad_answer": "the worker answered something that is not what the route promises",
    "stream_cut": "the event stream ended before its `done` event",
    "invalid_signature": "a signature is missing, malformed, stale or does not match",
}


class GenuiError(Exception):
    """A `dgui_error` from the worker, or one of `CLIENT_CODES`.

    `status` is the HTTP status when the worker answered, else None;
    `pointer` is the JSON Pointer of the offending value when known.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        pointer: Optional[str] = None,
        status: Optional[int] = None,
        payload: Optional[Mapping[str, Any]] = None,
    ) -> None:
        super().__init__(f"{code}: {message}" + (f" (at {pointer})" if pointer else ""))
        self.code = code
        self.message = message
        self.pointer = pointer
        self.status = status
        self.payload: Mapping[str, Any] = payload or {}

    @classmethod
    def from_dgui_error(cls, body: Any, status: Optional[int]) -> "GenuiError":
        """The worker's `dgui_error` body as an exception; anything else is `bad_answer`."""
        if not (isinstance(body, dict) and body.get("type") == "dgui_error"):
            return cls("bad_answer", f"HTTP {status} without a dgui_error body: {body!r:.200}", status=status)
        payload = body.get("payload")
        payload = payload if isinstance(payload, dict) else {}
        pointer = payload.get("pointer")
        return cls(
            str(body.get("code", "bad_answer")),
            str(body.get("message", "")),
            pointer=pointer if isinstance(pointer, str) else None,
            status=status,
            payload=payload,
        )
