"""A scripted Anthropic Messages API: ``POST /v1/messages`` (streamed as server-sent events
when the request says ``"stream": true``, else one JSON message) and
``POST /v1/messages/count_tokens``. What Claude Code speaks (``ANTHROPIC_BASE_URL``).

A request that offers no ``tools`` is a side request (titles, topic checks) and gets a short
text; every other one takes the script's next step::

    from upstreams import Call, Text, anthropic

    steps = [Call("Read", {"file_path": "/repo/app.py"}),
             lambda req: Text("seen" if "def total" in req.newest else "not seen"),
             Text("Done.")]
    with anthropic.Upstream(steps) as up:
        run_claude(env={"ANTHROPIC_BASE_URL": up.url, "ANTHROPIC_API_KEY": "any"})
    assert "PreToolUse:Read hook additional context" in up.main[1].text

``req.newest`` is the text of the messages after the model's last turn (text blocks, tool
results; Claude Code's hook output comes as ``system`` messages there).
"""

from __future__ import annotations

import json

from .base import Call, Fail, Reply, Request, Text, Upstream as _Base, parts_of, sse, tokens

ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
               404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 529: "overloaded_error"}


def error(status: int, message: str) -> Reply:
    return Reply(status, {"type": "error", "error": {"type": ERROR_TYPES.get(status, "api_error"), "message": message}})


def content_text(content) -> str:
    """The text of a message's ``content``: a string, or text blocks and tool results."""
    if isinstance(content, str):
        return content
    out = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            out.append(str(block.get("text", "")))
        elif block.get("type") == "tool_result":
            out.append(content_text(block.get("content", "")))
    return "\n".join(out)


class Upstream(_Base):
    def side(self, req: Request) -> bool:
        return req.path.endswith("/messages") and not (req.json or {}).get("tools")

    def newest(self, req: Request) -> str:
        """The messages after the model's last turn (Claude Code adds ``system`` ones there)."""
        out: list[str] = []
        for m in reversed(req.json.get("messages") or []):
            if isinstance(m, dict) and m.get("role") == "assistant":
                break
            out.append(content_text(m.get("content")) if isinstance(m, dict) else "")
        return "\n".join(reversed(out))

    def answer(self, req: Request) -> Reply:
        if req.method != "POST":
            return error(404, f"no such endpoint: {req.method} {req.path}")
        if req.path.endswith("/messages/count_tokens"):
            return Reply(body={"input_tokens": self.input_tokens(req)})
        if not req.path.endswith("/messages"):
            return error(404, f"no such endpoint: {req.path}")
        if not isinstance(req.json, dict) or not isinstance(req.json.get("messages"), list):
            return error(400, "messages: field required")
        turn = self.turn_for(req)
        if isinstance(turn, Fail):
            return error(turn.status, turn.message)
        blocks = [self._block(p) for p in parts_of(turn)]
        stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
        model = req.json.get("model") or self.model
        message = {"id": self.make_id("msg_scripted"), "type": "message", "role": "assistant", "model": model,
                   "content": blocks, "stop_reason": stop, "stop_sequence": None,
                   "usage": {"input_tokens": self.input_tokens(req), "output_tokens": tokens(blocks),
                             "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}
        if req.json.get("stream"):
            return Reply(events=stream(message), content_type="text/event-stream; charset=utf-8")
        return Reply(body=message)

    def _block(self, part) -> dict:
        if isinstance(part, Text):
            return {"type": "text", "text": part.text}
        assert isinstance(part, Call)
        return {"type": "tool_use", "id": part.id or self.make_id("toolu_scripted"), "name": part.name,
                "input": part.input}


def pieces(s: str, size: int = 40) -> list[str]:
    """``s`` in deltas of ``size`` characters, as the API streams it (at least one)."""
    return [s[i:i + size] for i in range(0, len(s), size)] or [""]


def stream(message: dict):
    """The SSE events of ``message``, framed as the Messages API frames them."""
    start = {**message, "content": [], "stop_reason": None,
             "usage": {**message["usage"], "output_tokens": 1}}
    yield sse({"type": "message_start", "message": start}, "message_start")
    for i, block in enumerate(message["content"]):
        if block["type"] == "text":
            yield sse({"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
                      "content_block_start")
            if i == 0:
                yield sse({"type": "ping"}, "ping")
            for piece in pieces(block["text"]):
                yield sse({"type": "content_block_delta", "index": i,
                           "delta": {"type": "text_delta", "text": piece}}, "content_block_delta")
        else:
            yield sse({"type": "content_block_start", "index": i,
                       "content_block": {**block, "input": {}}}, "content_block_start")
            if i == 0:
                yield sse({"type": "ping"}, "ping")
            for piece in ["", *pieces(json.dumps(block["input"], ensure_ascii=False))]:
                yield sse({"type": "content_block_delta", "index": i,
                           "delta": {"type": "input_json_delta", "partial_json": piece}}, "content_block_delta")
        yield sse({"type": "content_block_stop", "index": i}, "content_block_stop")
    yield sse({"type": "message_delta", "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
               "usage": {"output_tokens": message["usage"]["output_tokens"]}}, "message_delta")
    yield sse({"type": "message_stop"}, "message_stop")
