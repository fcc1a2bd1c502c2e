"""A stdlib mock of the OpenAI Responses API, for tests/agent_e2e_test.py.

    python mock_responses.py PORT COMMAND LOG

Every request is answered with server-sent events, as Codex reads them: the first with one
`exec_command` call running COMMAND, every request that carries the call's output with a short
message. Each request's function-call outputs (what the model would read: the command's output,
or the hook's reason for blocking it) are appended to LOG, one JSON list per line.
"""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

USAGE = {
    "input_tokens": 1,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 1,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 2,
}


def events(item: dict[str, Any], rid: str) -> bytes:
    stream = [
        {"type": "response.created", "response": {"id": rid}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {"id": rid, "usage": USAGE}},
    ]
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in stream).encode()


class Handler(BaseHTTPRequestHandler):
    shell_line = ""  # not `command`: BaseHTTPRequestHandler keeps the HTTP method there
    log = ""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", 0))
        body = json.loads(self.rfile.read(length) or b"{}")
        inputs = body.get("input", [])
        outputs = [i.get("output") for i in inputs if i.get("type") == "function_call_output"]
        with open(self.log, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(outputs) + "\n")
        if outputs:
            item: dict[str, Any] = {
                "type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
                "content": [{"type": "output_text", "text": "done", "annotations": []}],
            }  # fmt: skip
        else:
            item = {
                "type": "function_call", "id": "fc_1", "call_id": "call_1",
                "name": "exec_command", "arguments": json.dumps({"cmd": self.shell_line}),
                "status": "completed",
            }  # fmt: skip
        data = events(item, "resp_2" if outputs else "resp_1")
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main(argv: list[str]) -> None:
    port, Handler.shell_line, Handler.log = int(argv[1]), argv[2], argv[3]
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    main(sys.argv)
