"""An OpenAI Agents SDK agent (a scripted model, no real one) calling generateUserInterface."""

import asyncio
import json
import os
from collections.abc import AsyncIterator
from typing import Any

from agents import Agent, Model, ModelResponse, Runner, Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from genui_worker import AsyncClient
from genui_worker.adapters.openai_agents import generate_user_interface_tool

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


class ScriptedModel(Model):
    """Calls the tool on its first turn, then answers with what the tool returned."""

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
        results = [item for item in input if isinstance(item, dict) and item.get("type") == "function_call_output"]
        if not results:
            call = ResponseFunctionToolCall(
                type="function_call", call_id="call_1", name="generateUserInterface",
                arguments=json.dumps({"description": "Ask the user for their booking details"}))
            return ModelResponse(output=[call], usage=Usage(), response_id=None)
        text = ResponseOutputText(type="output_text", text=f"Booked: {results[-1]['output']}", annotations=[])
        message = ResponseOutputMessage(type="message", id="msg_1", role="assistant", status="completed", content=[text])
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("this example runs without streaming")


async def main() -> None:
    async with AsyncClient(os.environ.get("GENUI_URL", "http://127.0.0.1:8787")) as client:
        tool = generate_user_interface_tool(client, ask=fill_in, output=DETAILS)
        agent = Agent(name="booking", model=ScriptedModel(), tools=[tool])
        result = await Runner.run(agent, "Book two seats for Ada.")
    returned = [item.output for item in result.new_items if item.type == "tool_call_output_item"]
    print(json.dumps({"specHash": shown[0]["meta"]["specHash"], "toolReturned": returned, "output": result.final_output}))


asyncio.run(main())
