"""Reading the worker's Server-Sent Events into full answers.

The worker streams `ui` (a whole answer), `patch` (RFC 6902 operations from
the answer held to the next one), `done` (the run's facts) and `error` (a
`dgui_error`), LF-only frames, `: heartbeat` comments between them
(docs/streaming.md). `SseDecoder` cuts text into events; `AnswerAssembler`
turns events into the answers a caller sees. Both are free of I/O, so the
sync and async clients share them.

A patch is applied to a copy of the answer held: the caller is handed only
answers whose every operation applied. A stream that ends before `done` is a
`stream_cut` error, whatever it had shown before.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any, Iterator, Optional

import jsonpatch

from .errors import GenuiError


@dataclass(frozen=True)
class Event:
    """One SSE event: its name (`message` when unnamed) and its data text."""

    name: str
    data: str


class SseDecoder:
    """Cuts a stream of text into events; a frame counts once its blank line arrives."""

    def __init__(self) -> None:
        self._buffer = ""

    def feed(self, text: str) -> Iterator[Event]:
        self._buffer += text.replace("\r\n", "\n")
        while "\n\n" in self._buffer:
            frame, self._buffer = self._buffer.split("\n\n", 1)
            event = _parse_frame(frame)
            if event is not None:
                yield event

    @property
    def pending(self) -> bool:
        """Whether part of a frame is still waiting for its end."""
        return self._buffer.strip() != ""


def _parse_frame(frame: str) -> Optional[Event]:
    name, data = "message", []
    for line in frame.split("\n"):
        if line.startswith(":") or not line:
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
    return Event(name, "\n".join(data)) if data else None


class AnswerAssembler:
    """Holds the latest full answer and the `done` facts of one stream."""

    def __init__(self) -> None:
        self.answer: Optional[Any] = None
        self.done: Optional[dict[str, Any]] = None

    def take(self, event: Event) -> Optional[Any]:
        """The new full answer this event makes, or None; raises on `error`."""
        if self.done is not None:
            raise GenuiError("bad_answer", f"event {event.name!r} after `done`")
        data = _json(event)
        if event.name == "ui":
            self.answer = data
            return copy.deepcopy(data)
        if event.name == "patch":
            return self._patched(data)
        if event.name == "done":
            self.done = data if isinstance(data, dict) else {}
            return None
        if event.name == "error":
            raise GenuiError.from_dgui_error(data, None)
        return None

    def _patched(self, operations: Any) -> Any:
        if self.answer is None:
            raise GenuiError("bad_answer", "a `patch` event came before any `ui` event")
        try:
            patched = jsonpatch.apply_patch(self.answer, operations, in_place=False)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError) as e:
            raise GenuiError("bad_answer", f"the worker's patch does not apply: {e}") from e
        self.answer = patched
        return copy.deepcopy(patched)

    def finish(self, decoder: SseDecoder) -> None:
        """Raises `stream_cut` unless the stream reached `done`."""
        if self.done is None:
            cut = " in the middle of an event" if decoder.pending else ""
            raise GenuiError(
                "stream_cut",
                f"the event stream ended{cut} before its `done` event; "
                "the last answer seen may not be the final one",
            )


def _json(event: Event) -> Any:
    try:
        return json.loads(event.data)
    except ValueError as e:
        raise GenuiError("bad_answer", f"event {event.name!r} carries no JSON: {e}") from e
