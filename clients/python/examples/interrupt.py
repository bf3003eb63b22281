"""Answer an AG-UI interrupt through the worker and verify the signed resume entry."""

import json
import os

from genui_worker import Client, spec_hash_of, verify_resume_entry

interrupt = {
    "id": "int-form",
    "reason": "input_required",
    "message": "Please provide the quarterly filing details.",
    "responseSchema": {
        "type": "object",
        "required": ["quarter", "year"],
        "properties": {"quarter": {"type": "string", "enum": ["Q1", "Q2", "Q3", "Q4"]}, "year": {"type": "integer"}},
    },
}
secret = os.environ["WEBHOOK_SECRET"]  # the worker's; the agent shares it

with Client(os.environ.get("GENUI_URL", "http://127.0.0.1:8787")) as client:
    form = client.interrupt(interrupt, format="jsonforms")
    token = form["meta"]["interrupt"]["token"]
    entry = client.submit_interrupt(spec_hash_of(form), interrupt["id"], token, {"quarter": "Q1", "year": 2026})
    # Raises GenuiError unless the worker checked this answer against the interrupt's schema.
    verify_resume_entry(entry, secret, interrupt, spec_hash=spec_hash_of(form))
    print(json.dumps(entry))  # put it in resume[] of the agent's next run
