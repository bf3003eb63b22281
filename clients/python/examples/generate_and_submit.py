"""Generate a form for a tool call, then check the person's answer with the worker."""

import json
import os

from genui_worker import Client, GenuiError, spec_hash_of

call = {
    "tool": "generateUserInterface",
    "toolCallId": "call_123",
    "arguments": {
        "description": "A form that collects the user's shipping address.",
        "data": {"firstName": "Ada", "city": "London"},
        "output": {
            "type": "object",
            "required": ["firstName", "city", "country"],
            "properties": {
                "firstName": {"type": "string", "title": "First Name"},
                "city": {"type": "string", "title": "City"},
                "country": {"type": "string", "enum": ["GB", "US", "DE"]},
            },
        },
    },
}

with Client(os.environ.get("GENUI_URL", "http://127.0.0.1:8787"), api_key=os.environ.get("GENUI_KEY")) as client:
    form = client.generate(call)  # JSON Forms: jsonSchema, uiSchema, initialData, meta
    try:
        client.submit(spec_hash_of(form), {"firstName": "Ada", "city": "London", "country": "FR"})
    except GenuiError as refused:  # 422 submission_invalid, each violation by its pointer
        print(json.dumps({"code": refused.code, "status": refused.status, "errors": refused.payload["errors"]}))
    message = client.submit(spec_hash_of(form), {"firstName": "Ada", "city": "London", "country": "GB"}, tool_call_id="call_123")
    print(json.dumps(message))  # the AG-UI tool message to hand back to the agent
