"""Stubs of the OpenAI chat-completions protocol on 127.0.0.1, the only stubs the project allows (the optional
language-model endpoint): `StubModel` answers every request with one given message content (a hostile plan,
say); `Stub` answers as its `mode` says (a good plan, garbage, a 500, a timeout...), and is served by the
`server` fixture of tests/conftest.py."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from combat_analysis.contracts.plan import Filter, Intent, QueryPlan


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


GOOD_PLAN = QueryPlan(question="ignored", intent=Intent.LOOKUP, metrics=("healing_done",), group_by=("player",),
                      filters=(Filter(dimension="player", values=("PapiTacos",)),), focus=("PapiTacos",),
                      assumptions=("'papi' read as PapiTacos",))


class Stub(BaseHTTPRequestHandler):
    mode = "good"
    requests: list[dict] = []

    def log_message(self, *args):  # keep test output clean
        pass

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Stub.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        mode = Stub.mode
        if mode == "timeout":
            time.sleep(1.5)
        if mode == "500":
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b"boom")
            return
        content = {
            "good": GOOD_PLAN.model_dump_json(),
            "garbage": "SELECT * FROM players; -- not a plan",
            "unknown_metric": json.dumps({"question": "x", "intent": "ranking", "metrics": ["mmr"], "group_by": ["player"]}),
            "invented_name": json.dumps({"question": "x", "intent": "lookup", "metrics": ["kills"], "group_by": ["player"],
                                         "filters": [{"dimension": "player", "values": ["Faker"]}]}),
            "sql_in_name": json.dumps({"question": "x", "intent": "lookup", "metrics": ["kills"], "group_by": ["player"],
                                       "filters": [{"dimension": "player", "values": ["x'); DROP TABLE players; --"]}]}),
            "refuse": json.dumps({"question": "x", "intent": "refuse",
                                  "refusal": {"reason": "The log has no weather for 2025.", "suggestions": ["Top 3?"]}}),
            "timeout": GOOD_PLAN.model_dump_json(),
        }[mode]
        reply = {"id": "stub", "object": "chat.completion",
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up first (the "timeout" mode): nobody is left to read the reply
