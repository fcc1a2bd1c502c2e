"""Stdlib mocks of two model APIs, for tests/agent_e2e_test.py.

    python mock_models.py API PORT COMMAND LOG

API is `responses` (OpenAI's Responses API, as Codex reads it), `gemini` (the Gemini API's
streamGenerateContent, as Gemini CLI reads it) or `anthropic` (the Messages API, as Claude
Code reads it). Each answers with server-sent events: the first request with one shell call
running COMMAND (`exec_command` / `run_shell_command` / `Bash`), every request that carries
the call's result (and every request without tools) with a short message. What the model
would read as the call's result (the command's output, or the hook's reason for blocking it) is
appended to LOG, one JSON list per request.
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


def responses(body: dict[str, Any], line: str) -> tuple[list[Any], bytes, str]:
    inputs = body.get("input", [])
    told = [i.get("output") for i in inputs if i.get("type") == "function_call_output"]
    if told:
        item: dict[str, Any] = {
            "type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
            "content": [{"type": "output_text", "text": "done", "annotations": []}],
        }  # fmt: skip
    else:
        item = {
            "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "exec_command",
            "arguments": json.dumps({"cmd": line}), "status": "completed",
        }  # fmt: skip
    rid = "resp_2" if told else "resp_1"
    stream = [
        {"type": "response.created", "response": {"id": rid}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {"id": rid, "usage": USAGE}},
    ]
    data = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in stream)
    return told, data.encode(), "text/event-stream"


def gemini(body: dict[str, Any], line: str, path: str) -> tuple[list[Any], bytes, str]:
    parts = [p for c in body.get("contents", []) for p in c.get("parts", [])]
    told = [p["functionResponse"]["response"] for p in parts if "functionResponse" in p]
    if "countTokens" in path:
        return told, json.dumps({"totalTokens": 1}).encode(), "application/json"
    call = {"functionCall": {"name": "run_shell_command", "args": {"command": line}}}
    part = {"text": "done"} if told or "streamGenerateContent" not in path else call
    chunk = {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP",
                        "index": 0}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
    }  # fmt: skip
    if "streamGenerateContent" in path:
        return told, f"data: {json.dumps(chunk)}\r\n\r\n".encode(), "text/event-stream"
    return told, json.dumps(chunk).encode(), "application/json"


def anthropic(body: dict[str, Any], line: str, path: str) -> tuple[list[Any], bytes, str]:
    blocks = [b for m in body.get("messages", []) if isinstance(m.get("content"), list)
              for b in m["content"]]  # fmt: skip
    told = [b.get("content") for b in blocks if b.get("type") == "tool_result"]
    if "count_tokens" in path:
        return told, json.dumps({"input_tokens": 1}).encode(), "application/json"
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "mock",
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 1, "output_tokens": 1}}  # fmt: skip
    if body.get("tools") and not told:
        block = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {}}
        arguments = json.dumps({"command": line, "description": "run it"})
        delta = {"type": "input_json_delta", "partial_json": arguments}
        stop = "tool_use"
    else:
        block, delta, stop = (
            {"type": "text", "text": ""},
            {"type": "text_delta", "text": "done"},
            "end_turn",
        )
    stream = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": block},
        {"type": "content_block_delta", "index": 0, "delta": delta},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
         "usage": {"output_tokens": 1}},
        {"type": "message_stop"},
    ]  # fmt: skip
    data = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in stream)
    return told, data.encode(), "text/event-stream"


class Handler(BaseHTTPRequestHandler):
    api = ""
    shell_line = ""  # not `command`: BaseHTTPRequestHandler keeps the HTTP method there
    log = ""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(404)
        self.end_headers()

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", 0))
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.api == "responses":
            told, data, kind = responses(body, self.shell_line)
        elif self.api == "anthropic":
            told, data, kind = anthropic(body, self.shell_line, self.path)
        else:
            told, data, kind = gemini(body, self.shell_line, self.path)
        with open(self.log, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(told) + "\n")
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main(argv: list[str]) -> None:
    Handler.api, port, Handler.shell_line, Handler.log = argv[1], int(argv[2]), argv[3], argv[4]
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    main(sys.argv)
