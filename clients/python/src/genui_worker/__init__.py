"""genui-worker's Python client: forms for agents, over HTTP.

- `Client` / `AsyncClient`: `generate`, `stream`, `submit`, `interrupt`,
  `submit_interrupt`, `webhook`, `tool`;
- `GenuiError`: every failure, with the `dgui_error` code and pointer;
- `signatures`: webhook signing, callback and resume-entry verification;
- `tool_definition()`: the `generateUserInterface` tool for agent frameworks;
- `genui_worker.adapters.langgraph` and `.pydantic_ai`: the tool in those
  frameworks (their packages are optional extras).
"""

from .client import AnswerStream, AsyncAnswerStream, AsyncClient, Client
from .errors import CLIENT_CODES, GenuiError
from .signatures import sign_webhook, verify_callback, verify_resume_entry, verify_webhook
from .tool import TOOL_NAME, tool_definition

__all__ = [
    "AnswerStream",
    "AsyncAnswerStream",
    "AsyncClient",
    "CLIENT_CODES",
    "Client",
    "GenuiError",
    "TOOL_NAME",
    "sign_webhook",
    "spec_hash_of",
    "tool_definition",
    "verify_callback",
    "verify_resume_entry",
    "verify_webhook",
]
__version__ = "0.1.0"


def spec_hash_of(answer: object) -> str:
    """The `meta.specHash` of a JSON answer (jsonforms, lmui, react); the key for `submit`."""
    meta = answer.get("meta") if isinstance(answer, dict) else None
    spec_hash = meta.get("specHash") if isinstance(meta, dict) else None
    if not isinstance(spec_hash, str):
        raise GenuiError("bad_answer", "the answer has no meta.specHash (use format jsonforms, lmui or react)")
    return spec_hash
