"""A LangGraph agent that asks a person for structured input through an
AG-UI interrupt, served over AG-UI by ag-ui-langgraph.

The graph's `ask_filing` node calls LangGraph's `interrupt()` with a
`responseSchema`; ag-ui-langgraph ends the run with
`RUN_FINISHED.outcome = {"type": "interrupt", ...}`. A client shows the form
genui-worker makes of that interrupt and resumes the run with the resume
entry the worker answered. Before the graph sees the answer, this server
checks the worker's signature on every resume entry (WEBHOOK_SECRET, the
same secret the worker signs with) and refuses the run when one fails.

    pip install -r ../../scripts/lib/python-requirements.txt
    WEBHOOK_SECRET=... python agent.py --port 8000
"""

import argparse
import os
from datetime import datetime, timedelta, timezone
from typing import Any

import uvicorn
from ag_ui.core import EventType, RunAgentInput, RunErrorEvent, RunStartedEvent
from ag_ui.encoder import EventEncoder
from ag_ui_langgraph import LangGraphAgent
from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse
from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt
from typing_extensions import TypedDict

from resume_signature import ResumeSignatureError, verify_resume_entry

FILING_SCHEMA = {
    "type": "object",
    "title": "Quarterly filing",
    "required": ["quarter", "year", "revenue"],
    "properties": {
        "quarter": {"type": "string", "enum": ["Q1", "Q2", "Q3", "Q4"]},
        "year": {"type": "integer", "minimum": 2000, "maximum": 2100},
        "revenue": {"type": "number", "minimum": 0},
    },
}


class State(TypedDict, total=False):
    filing: Any


def ask_filing(state: State) -> State:
    expires = datetime.now(timezone.utc) + timedelta(hours=1)
    answer = interrupt(
        {
            "reason": "input_required",
            "message": "Please provide the quarterly filing details.",
            "responseSchema": FILING_SCHEMA,
            "expiresAt": expires.isoformat(timespec="seconds").replace("+00:00", "Z"),
        }
    )
    return {"filing": answer}


def build_graph():
    graph = StateGraph(State)
    graph.add_node("ask_filing", ask_filing)
    graph.add_edge(START, "ask_filing")
    graph.add_edge("ask_filing", END)
    return graph.compile(checkpointer=MemorySaver())


def build_app(secret: str) -> FastAPI:
    agent = LangGraphAgent(
        name="filing",
        graph=build_graph(),
        emit_interrupt_outcome=True,
        emit_raw_events=False,
    )
    app = FastAPI()

    @app.get("/healthz")
    def healthz() -> dict:
        return {"ok": True}

    @app.post("/agent")
    async def run(request: Request) -> StreamingResponse:
        body = await request.json()
        run_input = RunAgentInput.model_validate(body)
        encoder = EventEncoder(accept=request.headers.get("accept"))
        # Each entry is checked against the interrupt this graph raised.
        issued = await open_interrupts(agent.graph, run_input.thread_id)
        refusal = refuse_unsigned(body.get("resume") or [], secret, issued)

        async def events():
            if refusal is not None:
                started = RunStartedEvent(thread_id=run_input.thread_id, run_id=run_input.run_id)
                yield encoder.encode(started)
                yield encoder.encode(refusal)
                return
            async for event in agent.run(run_input):
                yield encoder.encode(event)

        return StreamingResponse(events(), media_type=encoder.get_content_type())

    return app


async def open_interrupts(graph: Any, thread_id: str) -> dict[str, dict[str, Any]]:
    """The thread's open interrupts by id, with the value each was raised with."""
    state = await graph.aget_state({"configurable": {"thread_id": thread_id}})
    return {item.id: item.value for item in state.interrupts if isinstance(item.value, dict)}


def refuse_unsigned(
    entries: list[dict[str, Any]], secret: str, issued: dict[str, dict[str, Any]]
) -> RunErrorEvent | None:
    """A RUN_ERROR when a resume entry answers no open interrupt or does not verify."""
    for entry in entries:
        try:
            interrupt = issued.get(entry.get("interruptId"))
            if interrupt is None:
                raise ResumeSignatureError(f"no open interrupt {entry.get('interruptId')!r}")
            verify_resume_entry(entry, secret, interrupt)
        except ResumeSignatureError as error:
            return RunErrorEvent(
                type=EventType.RUN_ERROR,
                code="invalid_resume_signature",
                message=str(error),
            )
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    secret = os.environ.get("WEBHOOK_SECRET")
    if not secret:
        raise SystemExit("set WEBHOOK_SECRET: the agent checks the worker's signature with it")
    uvicorn.run(build_app(secret), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
