"""Against a running worker (GENUI_URL; its WEBHOOK_SECRET in GENUI_WEBHOOK_SECRET,
default the examples' "examples-test-secret"): every example of docs/clients.md
run as a program, and what the client sees of the real answers.

Run by tests/harness/e2e_examples.rs with `pytest -m worker` on its worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from genui_worker import Client, GenuiError, tool_definition, verify_resume_entry

pytestmark = pytest.mark.worker
PACKAGE = Path(__file__).resolve().parents[1]
SHIRT = {"description": "Choose a T-shirt size.",
         "output": {"type": "object", "properties": {"size": {"type": "string", "enum": ["S", "M", "L"]}}}}


def run_example(name: str, base_url: str, secret: str) -> list[Any]:
    """Runs examples/<name> as a program; the JSON documents it printed, one a line."""
    env = {**os.environ, "GENUI_URL": base_url, "WEBHOOK_SECRET": secret,
           "PYTHONPATH": str(PACKAGE / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, str(PACKAGE / "examples" / name)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{name} failed:\n{done.stdout}\n{done.stderr}"
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def test_the_shipped_tool_definition_is_the_one_the_worker_serves(base_url: str) -> None:
    with Client(base_url) as client:
        assert client.tool() == tool_definition()


def test_a_refused_call_raises_the_workers_code_pointer_and_status(base_url: str) -> None:
    call = {"description": "Pick a size.",
            "output": {"type": "object", "properties": {"size": {"type": "strin"}}}}
    with Client(base_url) as client, pytest.raises(GenuiError) as refused:
        client.generate(call)
    error = refused.value
    assert (error.code, error.status) == ("invalid_schema", 422)
    assert error.pointer is not None and error.pointer.endswith("/properties/size/type")


def test_generate_and_submit(base_url: str, webhook_secret: str) -> None:
    refusal, message = run_example("generate_and_submit.py", base_url, webhook_secret)
    assert refusal["code"] == "submission_invalid" and refusal["status"] == 422
    assert [e["pointer"] for e in refusal["errors"]] == ["/country"]
    assert message["role"] == "tool" and message["toolCallId"] == "call_123"
    assert json.loads(message["content"]) == {"firstName": "Ada", "city": "London", "country": "GB"}


def test_the_stream_ends_on_the_answer_generate_gives(base_url: str, webhook_secret: str) -> None:
    *answers, done = run_example("stream.py", base_url, webhook_secret)
    assert answers and done["done"]["generator"] == answers[-1]["generator"]
    with Client(base_url) as client:
        final = list(client.stream(SHIRT))[-1]
        whole = client.generate(SHIRT)
    for answer in (final, whole):
        answer["meta"].pop("cache")
    assert final == whole and answers[-1]["specHash"] == whole["meta"]["specHash"]


#: The responseSchema examples/interrupt.py sends.
INTERRUPT_SCHEMA = {
    "type": "object",
    "required": ["quarter", "year"],
    "properties": {"quarter": {"type": "string", "enum": ["Q1", "Q2", "Q3", "Q4"]}, "year": {"type": "integer"}},
}


def test_an_interrupt_answered_through_the_worker_resumes_with_a_verified_entry(
    base_url: str, webhook_secret: str
) -> None:
    (entry,) = run_example("interrupt.py", base_url, webhook_secret)
    assert entry["status"] == "resolved" and entry["payload"] == {"quarter": "Q1", "year": 2026}
    issued = {"id": "int-form", "reason": "input_required", "responseSchema": INTERRUPT_SCHEMA}
    verify_resume_entry(entry, webhook_secret, issued)
    forged = {**entry, "payload": {"quarter": "Q2", "year": 2026}}
    with pytest.raises(GenuiError):
        verify_resume_entry(forged, webhook_secret, issued)
    with pytest.raises(GenuiError):
        verify_resume_entry(entry, "not-the-secret", issued)
    with pytest.raises(GenuiError):
        verify_resume_entry(entry, webhook_secret, {**issued, "responseSchema": {"type": "object"}})


def test_a_signed_webhook_gets_the_form_and_a_verified_callback(base_url: str, webhook_secret: str) -> None:
    (seen,) = run_example("webhook.py", base_url, webhook_secret)
    assert seen["specHash"] and seen["callback"] == seen["specHash"]
    with Client(base_url) as client, pytest.raises(GenuiError) as refused:
        client.webhook(SHIRT, "not-the-secret")
    assert (refused.value.code, refused.value.status) == ("invalid_signature", 401)


def test_a_langgraph_graph_waits_for_the_form_and_gets_the_validated_data(
    base_url: str, webhook_secret: str
) -> None:
    (seen,) = run_example("langgraph_tool.py", base_url, webhook_secret)
    assert seen["fields"] == ["quarter", "year"]
    assert seen["errors"] == ["/quarter"]
    assert seen["filing"] == {"quarter": "Q1", "year": 2026}


def test_a_pydantic_ai_agent_calls_the_tool_and_gets_the_validated_data(
    base_url: str, webhook_secret: str
) -> None:
    (seen,) = run_example("pydantic_ai_tool.py", base_url, webhook_secret)
    assert len(seen["specHash"]) == 64
    assert seen["toolReturned"] == [{"name": "Ada", "seats": 2}]
    assert "Ada" in seen["output"]


def test_an_openai_agents_sdk_agent_calls_the_tool_and_gets_the_validated_data(
    base_url: str, webhook_secret: str
) -> None:
    (seen,) = run_example("openai_agents_tool.py", base_url, webhook_secret)
    assert len(seen["specHash"]) == 64
    assert [json.loads(text) for text in seen["toolReturned"]] == [{"name": "Ada", "seats": 2}]
    assert "Ada" in seen["output"]


def test_an_html_answer_is_the_page_and_a2ui_is_json(base_url: str) -> None:
    with Client(base_url) as client:
        page = client.generate(SHIRT, format="html")
        messages = client.generate(SHIRT, format="a2ui")
    assert isinstance(page, str) and "<form" in page
    assert isinstance(messages, dict) and messages["messages"][0]["version"] == "v0.9"
