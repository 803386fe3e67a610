"""A stub of the OpenAI chat-completions protocol on 127.0.0.1 that answers every request with one given
message content (a hostile plan, say). The only stub the project allows: the optional language-model endpoint."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class StubModel(BaseHTTPRequestHandler):
    content = "{}"  # the assistant message every request gets
    requests: list[dict] = []

    def log_message(self, *args):  # keep test output clean
        pass

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        StubModel.requests.append(body)
        reply = {"id": "stub", "object": "chat.completion", "choices": [
            {"index": 0, "message": {"role": "assistant", "content": StubModel.content}, "finish_reason": "stop"}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def stub_model() -> Iterator[str]:
    """Serve `StubModel` on a free port of 127.0.0.1; yields the base URL to give `LlmPlanner`."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), StubModel)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()
