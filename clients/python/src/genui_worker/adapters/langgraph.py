"""`generateUserInterface` as a LangChain tool that waits, in a LangGraph graph, for the person.

The tool asks the worker for the form, then pauses the graph with LangGraph's
`interrupt({"form": answer})`: whoever runs the graph shows the form and
resumes it with `Command(resume=<the person's data>)`. The worker checks the
data; the tool returns it validated. Data the form's schema refuses pauses
again with `{"form": answer, "errors": [...]}` (each error's JSON Pointer).
Needs a checkpointer, as every LangGraph interrupt does.
"""

from __future__ import annotations

from typing import Any, Optional

from langchain_core.tools import StructuredTool
from langgraph.types import interrupt

from .. import Client, GenuiError, spec_hash_of
from ..tool import TOOL_NAME, tool_definition


def generate_user_interface_tool(client: Client, format: Optional[str] = None) -> StructuredTool:
    definition = tool_definition()

    def generate_user_interface(**arguments: Any) -> Any:
        answer = client.generate({"tool": TOOL_NAME, "arguments": arguments}, format=format)
        errors: list[Any] = []
        while True:
            data = interrupt({"form": answer, "errors": errors})
            try:
                return client.submit(spec_hash_of(answer), data)["data"]
            except GenuiError as refused:
                if refused.code != "submission_invalid":
                    raise
                errors = list(refused.payload.get("errors", []))

    return StructuredTool.from_function(
        generate_user_interface,
        name=TOOL_NAME,
        description=definition["description"],
        args_schema=definition["parameters"],
    )
