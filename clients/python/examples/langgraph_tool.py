"""A LangGraph graph whose node calls generateUserInterface and waits for the person."""

import json
import os
from typing import Any, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from genui_worker import Client
from genui_worker.adapters.langgraph import generate_user_interface_tool

client = Client(os.environ.get("GENUI_URL", "http://127.0.0.1:8787"))
form_tool = generate_user_interface_tool(client)


class State(TypedDict, total=False):
    filing: dict[str, Any]


def ask_for_filing(state: State) -> State:
    schema = {
        "type": "object",
        "required": ["quarter", "year"],
        "properties": {"quarter": {"type": "string", "enum": ["Q1", "Q2", "Q3", "Q4"]}, "year": {"type": "integer"}},
    }
    return {"filing": form_tool.invoke({"description": "The quarterly filing.", "output": schema})}


graph = (
    StateGraph(State)
    .add_node(ask_for_filing)
    .add_edge(START, "ask_for_filing")
    .add_edge("ask_for_filing", END)
    .compile(checkpointer=InMemorySaver())
)
thread = {"configurable": {"thread_id": "filing-1"}}

paused = graph.invoke({}, thread)["__interrupt__"][0].value  # {"form": <the worker's answer>, "errors": []}
# The host renders paused["form"]; the person first types a quarter that does not exist:
paused_again = graph.invoke(Command(resume={"quarter": "Q5", "year": 2026}), thread)["__interrupt__"][0].value
finished = graph.invoke(Command(resume={"quarter": "Q1", "year": 2026}), thread)
print(json.dumps({"fields": sorted(paused["form"]["jsonSchema"]["properties"]),
                  "errors": [e["pointer"] for e in paused_again["errors"]], "filing": finished["filing"]}))
client.close()
