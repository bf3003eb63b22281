"""The client against scripted HTTP answers (httpx.MockTransport): error
mapping, which requests are retried, and SSE with JSON Patches."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable

import httpx
import pytest

from genui_worker import AsyncClient, Client, GenuiError

CALL = {"tool": "generateUserInterface", "arguments": {"description": "Pick a size."}}
ANSWER = {"jsonSchema": {"type": "object"}, "uiSchema": {"type": "VerticalLayout", "elements": []},
          "meta": {"specHash": "h1", "generator": "deterministic"}}
DONE = {"generator": "model", "cache": "miss", "fellBack": False}
REFUSAL = {"type": "dgui_error", "code": "invalid_schema", "message": "\"strin\" is not a type",
           "payload": {"pointer": "/arguments/output/properties/size/type"}}


def client(handler: Callable[[httpx.Request], httpx.Response]) -> Client:
    return Client("http://worker.test", api_key="k", retries=2, backoff=0, transport=httpx.MockTransport(handler))


class Counter:
    """A handler that answers from a list, counting the requests."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers[min(len(self.requests), len(self.answers)) - 1]
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_generate_sends_the_call_the_key_and_the_format() -> None:
    handler = Counter(httpx.Response(200, json=ANSWER))
    assert client(handler).generate(CALL, format="jsonforms") == ANSWER
    sent = handler.requests[0]
    assert sent.url.path == "/v1/generate" and sent.url.params["format"] == "jsonforms"
    assert sent.headers["authorization"] == "Bearer k"
    assert json.loads(sent.content) == CALL


def test_a_dgui_error_keeps_its_code_pointer_and_status() -> None:
    with pytest.raises(GenuiError) as refused:
        client(Counter(httpx.Response(422, json=REFUSAL))).generate(CALL)
    error = refused.value
    assert (error.code, error.status, error.pointer) == ("invalid_schema", 422, "/arguments/output/properties/size/type")
    assert "strin" in error.message


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(200, text="<html>oops", headers={"content-type": "application/json"}),
        httpx.Response(200, text="<html>a proxy's page</html>", headers={"content-type": "text/html"}),
        httpx.Response(500, text="Internal Server Error"),
        httpx.Response(404, json={"error": "not here"}),
    ],
)
def test_garbage_is_a_bad_answer(answer: httpx.Response) -> None:
    with pytest.raises(GenuiError) as refused:
        client(Counter(answer)).submit("h1", {})
    assert refused.value.code == "bad_answer" and refused.value.status == answer.status_code


def test_an_html_page_is_the_answer_only_for_format_html() -> None:
    page = httpx.Response(200, text="<form>…</form>", headers={"content-type": "text/html"})
    assert client(Counter(page)).generate(CALL, format="html") == "<form>…</form>"
    with pytest.raises(GenuiError) as refused:
        client(Counter(page)).generate(CALL, format="jsonforms")
    assert refused.value.code == "bad_answer"


def test_a_worker_that_is_down_is_unreachable_after_the_retries() -> None:
    handler = Counter(httpx.ConnectError("connection refused"))
    with pytest.raises(GenuiError) as refused:
        client(handler).generate(CALL)
    assert refused.value.code == "unreachable" and refused.value.status is None
    assert len(handler.requests) == 3


def test_a_slow_worker_is_a_timeout() -> None:
    handler = Counter(httpx.ReadTimeout("slow"))
    with pytest.raises(GenuiError) as refused:
        client(handler).tool()
    assert refused.value.code == "timeout" and len(handler.requests) == 3


def test_an_idempotent_request_is_retried_after_a_503() -> None:
    handler = Counter(httpx.Response(503, json={**REFUSAL, "code": "internal_error"}), httpx.Response(200, json=ANSWER))
    assert client(handler).generate(CALL) == ANSWER
    assert len(handler.requests) == 2


@pytest.mark.parametrize(
    "send",
    [
        lambda c: c.submit("h1", {"size": "M"}),
        lambda c: c.submit_interrupt("h1", "int-1", "tok", {"size": "M"}),
        lambda c: c.webhook(CALL, "secret"),
    ],
)
def test_a_request_that_is_not_idempotent_is_sent_once(send: Callable[[Client], Any]) -> None:
    handler = Counter(httpx.ConnectError("refused"))
    with pytest.raises(GenuiError):
        send(client(handler))
    assert len(handler.requests) == 1


def test_a_client_error_is_not_retried() -> None:
    handler = Counter(httpx.Response(422, json=REFUSAL))
    with pytest.raises(GenuiError):
        client(handler).generate(CALL)
    assert len(handler.requests) == 1


def test_submit_interrupt_names_the_interrupt_and_a_cancel_sends_no_data() -> None:
    handler = Counter(httpx.Response(200, json={"interruptId": "int-1", "status": "cancelled"}))
    client(handler).submit_interrupt("h1", "int-1", "tok", cancel=True)
    assert json.loads(handler.requests[0].content) == {
        "specHash": "h1", "interruptId": "int-1", "interruptToken": "tok", "status": "cancelled"}


def sse(*events: tuple[str, Any], tail: str = "") -> httpx.Response:
    text = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events) + tail
    return httpx.Response(200, text=text, headers={"content-type": "text/event-stream"})


PATCH = [{"op": "replace", "path": "/meta/generator", "value": "model"},
         {"op": "add", "path": "/uiSchema/elements/-", "value": {"type": "Control", "scope": "#/properties/size"}}]


def patched() -> dict[str, Any]:
    answer = json.loads(json.dumps(ANSWER))
    answer["meta"]["generator"] = "model"
    answer["uiSchema"]["elements"].append({"type": "Control", "scope": "#/properties/size"})
    return answer


def test_a_stream_yields_each_full_answer_with_its_patch_applied() -> None:
    handler = Counter(sse(("ui", ANSWER), ("patch", PATCH), ("done", DONE), tail=": heartbeat\n\n"))
    stream = client(handler).stream(CALL)
    assert list(stream) == [ANSWER, patched()]
    assert stream.done == DONE
    assert handler.requests[0].headers["accept"] == "text/event-stream"


def test_a_stream_cut_before_done_raises_after_the_whole_answers() -> None:
    half_patch = f"event: patch\ndata: {json.dumps(PATCH)[:40]}"
    seen: list[Any] = []
    with pytest.raises(GenuiError) as cut:
        for answer in client(Counter(sse(("ui", ANSWER), tail=half_patch))).stream(CALL):
            seen.append(answer)
    assert cut.value.code == "stream_cut" and "middle of an event" in cut.value.message
    assert seen == [ANSWER]


def test_a_stream_that_breaks_off_is_cut() -> None:
    def broken() -> Any:
        yield b"event: ui\ndata: " + json.dumps(ANSWER).encode() + b"\n\n"
        raise httpx.ReadError("connection reset")

    answer = httpx.Response(200, content=broken(), headers={"content-type": "text/event-stream"})
    with pytest.raises(GenuiError) as cut:
        list(client(Counter(answer)).stream(CALL))
    assert cut.value.code == "stream_cut"


@pytest.mark.parametrize(
    "events, code",
    [
        ([("ui", ANSWER), ("error", {**REFUSAL, "code": "model_timeout"})], "model_timeout"),
        ([("ui", ANSWER), ("patch", [{"op": "remove", "path": "/nowhere"}]), ("done", DONE)], "bad_answer"),
        ([("patch", PATCH), ("done", DONE)], "bad_answer"),
    ],
)
def test_a_failed_stream_raises_and_never_shows_a_half_applied_patch(events: Any, code: str) -> None:
    seen: list[Any] = []
    with pytest.raises(GenuiError) as failed:
        for answer in client(Counter(sse(*events))).stream(CALL):
            seen.append(answer)
    assert failed.value.code == code
    assert seen in ([], [ANSWER])


def test_a_patch_that_fails_halfway_leaves_the_held_answer_whole() -> None:
    bad = [{"op": "replace", "path": "/meta/generator", "value": "model"}, {"op": "remove", "path": "/nowhere"}]
    seen: list[Any] = []
    with pytest.raises(GenuiError):
        for answer in client(Counter(sse(("ui", ANSWER), ("patch", bad), ("done", DONE)))).stream(CALL):
            seen.append(answer)
    assert seen == [ANSWER] and seen[0]["meta"]["generator"] == "deterministic"


def test_a_stream_refused_before_it_starts_raises_the_dgui_error() -> None:
    with pytest.raises(GenuiError) as refused:
        list(client(Counter(httpx.Response(422, json=REFUSAL))).stream(CALL))
    assert refused.value.code == "invalid_schema" and refused.value.status == 422


def test_the_async_client_streams_and_maps_errors_alike() -> None:
    async def run() -> tuple[list[Any], Any]:
        handler = Counter(sse(("ui", ANSWER), ("patch", PATCH), ("done", DONE)))
        async with AsyncClient("http://worker.test", transport=httpx.MockTransport(handler)) as c:
            answers = [a async for a in c.stream(CALL)]
        refusing = AsyncClient("http://worker.test", retries=0, transport=httpx.MockTransport(Counter(httpx.Response(422, json=REFUSAL))))
        with pytest.raises(GenuiError) as refused:
            await refusing.generate(CALL)
        return answers, refused.value

    answers, error = asyncio.run(run())
    assert answers == [ANSWER, patched()] and error.pointer == REFUSAL["payload"]["pointer"]


def test_a_closed_port_is_unreachable() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(GenuiError) as refused:
        Client(f"http://127.0.0.1:{port}", retries=1, backoff=0).generate(CALL)
    assert refused.value.code == "unreachable"
