"""`generateUserInterface` as a function tool of the OpenAI Agents SDK.

`ask(answer)` is the host's part: show the worker's form to the person and
return their data (a plain or an async function). The worker checks it; the
tool returns the validated data to the model as JSON text. Data the schema
refuses comes back to the model as the worker's error (`submission_invalid`
with each field's JSON Pointer), so the model can try again; any other
failure raises, and the SDK reports it as the tool's error.

With `output` (a JSON Schema), the application fixes what the person must
send: the model is not asked for `output` and the tool always sends this one.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from agents import FunctionTool, RunContextWrapper

from .. import AsyncClient, GenuiError
from ..tool import TOOL_NAME, tool_definition
from . import Ask, ask_and_check, parameters_for


def generate_user_interface_tool(
    client: AsyncClient,
    ask: Ask,
    format: Optional[str] = None,
    output: Optional[dict[str, Any]] = None,
) -> FunctionTool:
    async def invoke(_context: RunContextWrapper[Any], arguments_json: str) -> str:
        try:
            arguments = json.loads(arguments_json or "{}")
        except json.JSONDecodeError as error:
            raise GenuiError("invalid_request", f"the tool's arguments are not JSON: {error}") from error
        if not isinstance(arguments, dict):
            raise GenuiError("invalid_request", "the tool's arguments are not a JSON object")
        try:
            data = await ask_and_check(client, arguments, ask, format, output)
        except GenuiError as refused:
            if refused.code != "submission_invalid":
                raise
            return json.dumps({"error": refused.code, "message": refused.message, **refused.payload})
        return json.dumps(data)

    return FunctionTool(
        name=TOOL_NAME,
        description=tool_definition()["description"],
        params_json_schema=parameters_for(output),
        on_invoke_tool=invoke,
        # The tool's schema is JSON Schema as the worker serves it, not the
        # strict subset structured outputs require.
        strict_json_schema=False,
    )
