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

from typing import Any, Optional

from pydantic_ai import ModelRetry, Tool

from .. import AsyncClient, GenuiError
from ..tool import TOOL_NAME, tool_definition
from . import Ask, ask_and_check, parameters_for


def generate_user_interface_tool(
    client: AsyncClient,
    ask: Ask,
    format: Optional[str] = None,
    output: Optional[dict[str, Any]] = None,
) -> Tool[Any]:
    async def generate_user_interface(**arguments: Any) -> Any:
        try:
            return await ask_and_check(client, arguments, ask, format, output)
        except GenuiError as refused:
            if refused.code == "submission_invalid":
                raise ModelRetry(refused.message) from refused
            raise

    return Tool.from_schema(
        generate_user_interface,
        name=TOOL_NAME,
        description=tool_definition()["description"],
        json_schema=parameters_for(output),
    )
