"""Send a signed tool call to /v1/webhook and verify the worker's signed callback."""

import http.server
import json
import os
import threading

from genui_worker import Client, GenuiError, verify_callback
from genui_worker.signatures import SIGNATURE_HEADER

secret = os.environ["WEBHOOK_SECRET"]
received: dict = {}


class Callback(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        try:
            verify_callback(self.headers.get(SIGNATURE_HEADER, ""), body, secret)
        except GenuiError:
            self.send_response(401)
        else:
            received["answer"] = json.loads(body)
            self.send_response(204)
        self.end_headers()
        received["done"] = True

    def log_message(self, *args: object) -> None:
        pass


listener = http.server.HTTPServer(("127.0.0.1", 0), Callback)
threading.Thread(target=listener.handle_request, daemon=True).start()
call = {"description": "Confirm the order.", "output": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}

with Client(os.environ.get("GENUI_URL", "http://127.0.0.1:8787")) as client:
    answer = client.webhook(call, secret, callback_url=f"http://127.0.0.1:{listener.server_port}/genui")
for _ in range(100):  # the worker POSTs the callback after answering
    if received.get("done"):
        break
    threading.Event().wait(0.1)
print(json.dumps({"specHash": answer["meta"]["specHash"], "callback": received.get("answer", {}).get("meta", {}).get("specHash")}))
