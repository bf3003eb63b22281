"""A Pydantic AI agent (its TestModel, no real model) calling generateUserInterface."""

import asyncio
import json
import os
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel

from genui_worker import AsyncClient
from genui_worker.adapters.pydantic_ai import generate_user_interface_tool

shown: list[Any] = []
# What the application needs from the person; the model writes the rest of the call.
DETAILS = {
    "type": "object",
    "required": ["name", "seats"],
    "properties": {"name": {"type": "string", "title": "Name"}, "seats": {"type": "integer", "minimum": 1}},
}


def fill_in(form: Any) -> Any:
    """The host's part: show the form, return what the person typed."""
    shown.append(form)
    return {"name": "Ada", "seats": 2}


async def main() -> None:
    async with AsyncClient(os.environ.get("GENUI_URL", "http://127.0.0.1:8787")) as client:
        agent = Agent(TestModel(), tools=[generate_user_interface_tool(client, ask=fill_in, output=DETAILS)])
        result = await agent.run("Ask the user for their details.")
    returned = [part.content for message in result.all_messages() for part in message.parts
                if getattr(part, "part_kind", "") == "tool-return"]
    print(json.dumps({"specHash": shown[0]["meta"]["specHash"], "toolReturned": returned, "output": result.output}))


asyncio.run(main())
