"""`Client` and `AsyncClient`: the worker's routes as Python calls.

Both build the same requests (`_Call`) and read answers the same way
(`_answer`); only the sending differs. Every failure is a `GenuiError`.

Retries: only requests that are safe to send twice are retried, after a
connection failure, a timeout or a 502/503/504: `GET /v1/tool`,
`POST /v1/generate` and `POST /v1/interrupt` (an answer is addressed by its
spec's hash, so a second send gives the same form). `submit`, `submit_interrupt`
and `webhook` are sent once (a webhook is accepted once; a submission's tool
message carries a new id), and so is a stream once it has started.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Iterator, Mapping, Optional

import httpx

from .errors import GenuiError
from .signatures import sign_webhook
from .stream import AnswerAssembler, SseDecoder

#: Statuses after which an idempotent request is sent again.
RETRY_STATUSES = frozenset({502, 503, 504})
EVENT_STREAM = "text/event-stream"


@dataclass(frozen=True)
class _Call:
    """One request to the worker, and whether it may be sent twice."""

    method: str
    path: str
    body: Optional[bytes] = None
    params: Mapping[str, str] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    idempotent: bool = False
    #: Every route answers JSON, except `/v1/generate` with `format=html` (a page).
    answers_json: bool = True


def _json_body(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _format_params(format: Optional[str]) -> dict[str, str]:
    return {"format": format} if format else {}


def _generate(call: Mapping[str, Any], format: Optional[str], stream: bool = False) -> _Call:
    headers = {"accept": EVENT_STREAM} if stream else {}
    return _Call(
        "POST", "/v1/generate", _json_body(call), _format_params(format), headers,
        idempotent=True, answers_json=format != "html",
    )


def _interrupt(interrupt: Mapping[str, Any], format: Optional[str], data: Any) -> _Call:
    body: dict[str, Any] = {"interrupt": interrupt}
    if data is not None:
        body["data"] = data
    return _Call("POST", "/v1/interrupt", _json_body(body), _format_params(format), idempotent=True)


def _submit(spec_hash: str, data: Any, tool_call_id: Optional[str]) -> _Call:
    body: dict[str, Any] = {"specHash": spec_hash, "data": data}
    if tool_call_id is not None:
        body["toolCallId"] = tool_call_id
    return _Call("POST", "/v1/submit", _json_body(body))


def _submit_interrupt(
    spec_hash: str, interrupt_id: str, interrupt_token: str, data: Any, cancel: bool
) -> _Call:
    body: dict[str, Any] = {
        "specHash": spec_hash,
        "interruptId": interrupt_id,
        "interruptToken": interrupt_token,
    }
    if cancel:
        body["status"] = "cancelled"
    else:
        body["data"] = data
    return _Call("POST", "/v1/submit", _json_body(body))


def _webhook(call: Mapping[str, Any], secret: str, callback_url: Optional[str]) -> _Call:
    body = _json_body({**call, "callbackUrl": callback_url} if callback_url else dict(call))
    return _Call("POST", "/v1/webhook", body, headers={"x-genui-signature": sign_webhook(secret, body)})


def _transport_error(error: httpx.HTTPError, call: _Call) -> GenuiError:
    where = f"{call.method} {call.path}"
    if isinstance(error, httpx.TimeoutException):
        return GenuiError("timeout", f"{where}: no answer within the timeout ({type(error).__name__})")
    return GenuiError("unreachable", f"{where}: {type(error).__name__}: {error}")


def _answer(response: httpx.Response, call: _Call) -> Any:
    """The answer's JSON (a page's text for `format=html`), or the GenuiError it carries."""
    where = f"{call.method} {call.path}"
    text = response.text
    if response.status_code >= 400 or call.answers_json:
        try:
            body = json.loads(text)
        except ValueError:
            raise GenuiError(
                "bad_answer", f"{where}: HTTP {response.status_code} answered non-JSON: {text[:200]!r}",
                status=response.status_code,
            ) from None
        if response.status_code >= 400:
            raise GenuiError.from_dgui_error(body, response.status_code)
        return body
    return text


def _stream_failed(response: httpx.Response, text: str, call: _Call) -> GenuiError:
    """Why a stream request got no stream: its dgui_error, or a bad answer."""
    try:
        return GenuiError.from_dgui_error(json.loads(text), response.status_code)
    except ValueError:
        return GenuiError(
            "bad_answer",
            f"{call.method} {call.path}: HTTP {response.status_code}, not an event stream: {text[:200]!r}",
            status=response.status_code,
        )


def _is_event_stream(response: httpx.Response) -> bool:
    return response.status_code < 400 and response.headers.get("content-type", "").startswith(EVENT_STREAM)


class _Settings:
    def __init__(
        self,
        base_url: str,
        api_key: Optional[str],
        timeout: float,
        retries: int,
        backoff: float,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff

    def attempts(self, call: _Call) -> int:
        return 1 + (self.retries if call.idempotent else 0)

    def pause(self, attempt: int) -> float:
        return float(self.backoff * 2**attempt)


class AnswerStream:
    """The answers of one stream, each complete; `done` holds the run's facts at the end."""

    def __init__(self, answers: Iterator[Any], assembler: AnswerAssembler) -> None:
        self._answers = answers
        self._assembler = assembler

    def __iter__(self) -> Iterator[Any]:
        return self._answers

    @property
    def done(self) -> Optional[dict[str, Any]]:
        return self._assembler.done


class AsyncAnswerStream:
    """`AnswerStream` for `AsyncClient`: iterate with `async for`."""

    def __init__(self, answers: AsyncIterator[Any], assembler: AnswerAssembler) -> None:
        self._answers = answers
        self._assembler = assembler

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._answers

    @property
    def done(self) -> Optional[dict[str, Any]]:
        return self._assembler.done


class Client:
    """A synchronous client of one worker.

    `Client("https://genui.example.workers.dev", api_key=...)`; `timeout` is
    seconds per request (a stream's whole run may take longer: it is the
    wait between two reads); `retries` counts the extra sends of idempotent
    requests, `backoff` the first pause in seconds (doubled each time).
    """

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        timeout: float = 30.0,
        *,
        retries: int = 2,
        backoff: float = 0.25,
        transport: Optional[httpx.BaseTransport] = None,
    ) -> None:
        self._settings = _Settings(base_url, api_key, timeout, retries, backoff)
        self._http = httpx.Client(
            base_url=self._settings.base_url,
            headers=self._settings.headers,
            timeout=timeout,
            transport=transport,
        )

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def tool(self) -> dict[str, Any]:
        """The `generateUserInterface` tool definition the worker serves (`GET /v1/tool`)."""
        return self._send(_Call("GET", "/v1/tool", idempotent=True))  # type: ignore[no-any-return]

    def generate(self, call: Mapping[str, Any], format: Optional[str] = None) -> Any:
        """The UI for a tool call (any shape `/v1/generate` accepts); the page's text for `format="html"`."""
        return self._send(_generate(call, format))

    def stream(self, call: Mapping[str, Any], format: Optional[str] = None) -> AnswerStream:
        """The UI as it improves: each item a full answer (patches applied)."""
        assembler = AnswerAssembler()
        return AnswerStream(self._stream(_generate(call, format, stream=True), assembler), assembler)

    def submit(self, spec_hash: str, data: Any, tool_call_id: Optional[str] = None) -> dict[str, Any]:
        """Checks the person's data; the tool message (with `tool_call_id`) or the dgui_response."""
        return self._send(_submit(spec_hash, data, tool_call_id))  # type: ignore[no-any-return]

    def interrupt(
        self, interrupt: Mapping[str, Any], format: Optional[str] = None, data: Any = None
    ) -> Any:
        """The form for an AG-UI interrupt; `meta.interrupt.token` is for `submit_interrupt`."""
        return self._send(_interrupt(interrupt, format, data))

    def submit_interrupt(
        self,
        spec_hash: str,
        interrupt_id: str,
        interrupt_token: str,
        data: Any = None,
        *,
        cancel: bool = False,
    ) -> dict[str, Any]:
        """The person's answer to an interrupt; the signed AG-UI `ResumeEntry`."""
        call = _submit_interrupt(spec_hash, interrupt_id, interrupt_token, data, cancel)
        return self._send(call)  # type: ignore[no-any-return]

    def webhook(
        self, call: Mapping[str, Any], secret: str, callback_url: Optional[str] = None
    ) -> Any:
        """A signed `POST /v1/webhook`; the worker also POSTs the answer to `callback_url`."""
        return self._send(_webhook(call, secret, callback_url))

    def _send(self, call: _Call) -> Any:
        attempts = self._settings.attempts(call)
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = self._http.request(
                    call.method, call.path, content=call.body, params=call.params,
                    headers={"content-type": "application/json", **call.headers} if call.body else call.headers,
                )
            except httpx.HTTPError as e:
                if last:
                    raise _transport_error(e, call) from e
            else:
                if last or response.status_code not in RETRY_STATUSES:
                    return _answer(response, call)
            time.sleep(self._settings.pause(attempt))
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _stream(self, call: _Call, assembler: AnswerAssembler) -> Iterator[Any]:
        decoder = SseDecoder()
        headers = {"content-type": "application/json", **call.headers}
        try:
            with self._http.stream(call.method, call.path, content=call.body, params=call.params, headers=headers) as response:
                if not _is_event_stream(response):
                    raise _stream_failed(response, response.read().decode(errors="replace"), call)
                for text in response.iter_text():
                    for event in decoder.feed(text):
                        answer = assembler.take(event)
                        if answer is not None:
                            yield answer
        except httpx.HTTPError as e:
            if isinstance(e, (httpx.ConnectError, httpx.ConnectTimeout)):
                raise _transport_error(e, call) from e
            assembler.finish(decoder)  # a read that broke off is a cut stream
            raise _transport_error(e, call) from e
        assembler.finish(decoder)


class AsyncClient:
    """`Client` for asyncio: the same calls, awaited; `stream` is iterated with `async for`."""

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        timeout: float = 30.0,
        *,
        retries: int = 2,
        backoff: float = 0.25,
        transport: Optional[httpx.AsyncBaseTransport] = None,
    ) -> None:
        self._settings = _Settings(base_url, api_key, timeout, retries, backoff)
        self._http = httpx.AsyncClient(
            base_url=self._settings.base_url,
            headers=self._settings.headers,
            timeout=timeout,
            transport=transport,
        )

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def tool(self) -> dict[str, Any]:
        return await self._send(_Call("GET", "/v1/tool", idempotent=True))  # type: ignore[no-any-return]

    async def generate(self, call: Mapping[str, Any], format: Optional[str] = None) -> Any:
        return await self._send(_generate(call, format))

    def stream(self, call: Mapping[str, Any], format: Optional[str] = None) -> AsyncAnswerStream:
        assembler = AnswerAssembler()
        return AsyncAnswerStream(self._stream(_generate(call, format, stream=True), assembler), assembler)

    async def submit(
        self, spec_hash: str, data: Any, tool_call_id: Optional[str] = None
    ) -> dict[str, Any]:
        return await self._send(_submit(spec_hash, data, tool_call_id))  # type: ignore[no-any-return]

    async def interrupt(
        self, interrupt: Mapping[str, Any], format: Optional[str] = None, data: Any = None
    ) -> Any:
        return await self._send(_interrupt(interrupt, format, data))

    async def submit_interrupt(
        self,
        spec_hash: str,
        interrupt_id: str,
        interrupt_token: str,
        data: Any = None,
        *,
        cancel: bool = False,
    ) -> dict[str, Any]:
        call = _submit_interrupt(spec_hash, interrupt_id, interrupt_token, data, cancel)
        return await self._send(call)  # type: ignore[no-any-return]

    async def webhook(
        self, call: Mapping[str, Any], secret: str, callback_url: Optional[str] = None
    ) -> Any:
        return await self._send(_webhook(call, secret, callback_url))

    async def _send(self, call: _Call) -> Any:
        attempts = self._settings.attempts(call)
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = await self._http.request(
                    call.method, call.path, content=call.body, params=call.params,
                    headers={"content-type": "application/json", **call.headers} if call.body else call.headers,
                )
            except httpx.HTTPError as e:
                if last:
                    raise _transport_error(e, call) from e
            else:
                if last or response.status_code not in RETRY_STATUSES:
                    return _answer(response, call)
            await asyncio.sleep(self._settings.pause(attempt))
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def _stream(self, call: _Call, assembler: AnswerAssembler) -> AsyncIterator[Any]:
        decoder = SseDecoder()
        headers = {"content-type": "application/json", **call.headers}
        try:
            async with self._http.stream(call.method, call.path, content=call.body, params=call.params, headers=headers) as response:
                if not _is_event_stream(response):
                    raise _stream_failed(response, (await response.aread()).decode(errors="replace"), call)
                async for text in response.aiter_text():
                    for event in decoder.feed(text):
                        answer = assembler.take(event)
                        if answer is not None:
                            yield answer
        except httpx.HTTPError as e:
            if isinstance(e, (httpx.ConnectError, httpx.ConnectTimeout)):
                raise _transport_error(e, call) from e
            assembler.finish(decoder)
            raise _transport_error(e, call) from e
        assembler.finish(decoder)
