"""Stream a form: each item is a whole answer, the model's patches already applied."""

import json
import os

from genui_worker import Client

call = {
    "description": "Choose a T-shirt size.",
    "output": {"type": "object", "properties": {"size": {"type": "string", "enum": ["S", "M", "L"]}}},
}

with Client(os.environ.get("GENUI_URL", "http://127.0.0.1:8787")) as client:
    stream = client.stream(call, format="jsonforms")
    for answer in stream:  # render each one; a cut stream raises GenuiError("stream_cut")
        print(json.dumps({"specHash": answer["meta"]["specHash"], "generator": answer["meta"]["generator"]}))
    print(json.dumps({"done": stream.done}))
