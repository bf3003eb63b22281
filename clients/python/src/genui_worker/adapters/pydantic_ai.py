"""`generateUserInterface` as a Pydantic AI tool.

`ask(answer)` is the host's part: show the worker's form to the person and
return their data (a plain or an async function). The worker checks it; the
tool returns the validated data to the model. Data the schema refuses
raises `ModelRetry` with the worker's message, so the model can try again.

With `output` (a JSON Schema, e.g. `MyModel.model_json_schema()`), the
application fixes what the person must send: the model is not asked for
`output` and the tool always sends this one.
"""

from __future__ import annotations

import inspect
from typing import Any, Awaitable, Callable, Optional, Union

from pydantic_ai import ModelRetry, Tool

from .. import AsyncClient, GenuiError, spec_hash_of
from ..tool import TOOL_NAME, tool_definition

Ask = Callable[[Any], Union[Any, Awaitable[Any]]]


def generate_user_interface_tool(
    client: AsyncClient,
    ask: Ask,
    format: Optional[str] = None,
    output: Optional[dict[str, Any]] = None,
) -> Tool[Any]:
    definition = tool_definition()
    parameters = definition["parameters"]
    if output is not None:
        del parameters["properties"]["output"]

    async def generate_user_interface(**arguments: Any) -> Any:
        if output is not None:
            arguments["output"] = output
        answer = await client.generate({"tool": TOOL_NAME, "arguments": arguments}, format=format)
        data = ask(answer)
        if inspect.isawaitable(data):
            data = await data
        try:
            return (await client.submit(spec_hash_of(answer), data))["data"]
        except GenuiError as refused:
            if refused.code == "submission_invalid":
                raise ModelRetry(refused.message) from refused
            raise

    return Tool.from_schema(
        generate_user_interface,
        name=TOOL_NAME,
        description=definition["description"],
        json_schema=parameters,
    )
