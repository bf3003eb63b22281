"""`generateUserInterface` as a tool of agent frameworks, each a few lines over the client.

`ask_and_check` is the loop the function-calling adapters share: the form
from the worker, the person's data from the host's `ask`, the worker's check.
"""

from __future__ import annotations

import inspect
from typing import Any, Awaitable, Callable, Optional, Union

from .. import AsyncClient, spec_hash_of
from ..tool import TOOL_NAME, tool_definition

#: The host's part: show the worker's form (the answer) and return the person's data.
Ask = Callable[[Any], Union[Any, Awaitable[Any]]]


def parameters_for(output: Optional[dict[str, Any]]) -> dict[str, Any]:
    """The tool's parameters; without `output` when the application fixes it."""
    parameters: dict[str, Any] = tool_definition()["parameters"]
    if output is not None:
        del parameters["properties"]["output"]
        parameters["required"] = [name for name in parameters.get("required", []) if name != "output"]
    return parameters


async def ask_and_check(
    client: AsyncClient,
    arguments: dict[str, Any],
    ask: Ask,
    format: Optional[str],
    output: Optional[dict[str, Any]],
) -> Any:
    """The validated data, or `GenuiError` (`submission_invalid` when the schema refuses it)."""
    if output is not None:
        arguments = {**arguments, "output": output}
    answer = await client.generate({"tool": TOOL_NAME, "arguments": arguments}, format=format)
    data = ask(answer)
    if inspect.isawaitable(data):
        data = await data
    return (await client.submit(spec_hash_of(answer), data))["data"]
