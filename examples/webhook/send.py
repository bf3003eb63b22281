#!/usr/bin/env python3
"""Posts a signed generateUserInterface call to genui-worker's /v1/webhook.

The worker answers with the form. With --callback, the script also listens
on 127.0.0.1, names itself as the callbackUrl, and checks the signature of
the answer the worker POSTs there (the worker needs
WEBHOOK_ALLOW_HTTP_CALLBACKS=true for a callback to this machine).

    WEBHOOK_SECRET=dev-secret python3 send.py [--callback] [worker URL]

Prints the answer, then (with --callback) the callback's body, one JSON
document a line. Python's standard library only.
"""
import hashlib
import hmac
import http.server
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

SIGNATURE_HEADER = "X-Genui-Signature"
TOLERANCE_SECONDS = 300  # how old a signature may be


def signature(purpose: str, secret: str, timestamp: int, body: bytes) -> str:
    """HMAC-SHA256 under the secret of "<purpose>.<t>.<raw body>", as hex."""
    signed = f"{purpose}.{timestamp}.".encode() + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signature_header(secret: str, body: bytes) -> str:
    """The header for a webhook request: signed now, accepted once."""
    now = int(time.time())
    return f"t={now},v1={signature('genui-webhook', secret, now, body)}"


def callback_is_genuine(header: str, body: bytes, secret: str) -> bool:
    """A callback carries t=<time>,v1=<hex> under the label genui-callback."""
    fields = [part.split("=", 1) for part in header.split(",") if "=" in part]
    timestamp = next((int(v) for k, v in fields if k == "t" and v.isdigit()), None)
    if timestamp is None or abs(time.time() - timestamp) > TOLERANCE_SECONDS:
        return False
    expected = signature("genui-callback", secret, timestamp, body)
    return any(k == "v1" and hmac.compare_digest(v, expected) for k, v in fields)


def listen_for_callback(secret: str):
    """A one-shot listener on 127.0.0.1; returns its URL and a result slot."""
    received = {}
    done = threading.Event()

    class Callback(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            genuine = callback_is_genuine(self.headers.get(SIGNATURE_HEADER, ""), body, secret)
            self.send_response(204 if genuine else 401)
            self.end_headers()
            if genuine:
                received["body"] = body
                done.set()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Callback)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/genui", received, done


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--callback"]
    base = args[0] if args else "http://127.0.0.1:8787"
    secret = os.environ["WEBHOOK_SECRET"]
    call = {
        "tool": "generateUserInterface",
        "toolCallId": "call_webhook_1",
        "arguments": {
            "description": "Confirm the payment of the invoice.",
            "data": {"amount": 120.5, "currency": "EUR"},
            "output": {
                "type": "object",
                "required": ["amount", "currency", "approved"],
                "properties": {
                    "amount": {"type": "number", "title": "Amount"},
                    "currency": {"type": "string", "enum": ["EUR", "USD"]},
                    "approved": {"type": "boolean", "title": "Approve the payment"},
                },
            },
        },
    }
    if "--callback" in sys.argv:
        call["callbackUrl"], received, done = listen_for_callback(secret)
    body = json.dumps(call).encode()
    request = urllib.request.Request(
        f"{base}/v1/webhook",
        data=body,
        headers={"content-type": "application/json", SIGNATURE_HEADER: signature_header(secret, body)},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            print(answer.read().decode())
    except urllib.error.HTTPError as error:
        print(f"{error.code}: {error.read().decode()}", file=sys.stderr)
        return 1
    if "callbackUrl" in call:
        if not done.wait(timeout=30):
            print("no signed callback arrived within 30 s", file=sys.stderr)
            return 1
        print(received["body"].decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
