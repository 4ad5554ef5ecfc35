"""A scripted OpenAI API: ``POST /v1/responses`` (the Responses API, what Codex CLI speaks)
and ``POST /v1/chat/completions`` (Chat Completions), each streamed as server-sent events
when the request says ``"stream": true`` and answered as one JSON object otherwise;
``GET /v1/models`` lists the one model.

A request that offers no ``tools`` is a side request (titles, summaries) and gets a short text;
pass ``is_side=lambda req: False`` to script every request (a plain chat with no tools)::

    from upstreams import Call, Text, openai

    with openai.Upstream([Call("get_context", {"path": "billing.py"}, namespace="mcp__tether"),
                          Text("Done.")]) as up:
        run_codex(base_url=up.url + "/v1")
    assert "function_call_output" in up.main[1].text

    with openai.Upstream([Text("Hello.")], is_side=lambda req: False) as up:
        OpenAI(base_url=up.url + "/v1", api_key="any").chat.completions.create(...)

``req.newest`` is the text of the trailing user messages and tool outputs.
"""

from __future__ import annotations

import json
import time

from .base import Call, Fail, Reply, Request, Text, Upstream as _Base, parts_of, sse, tokens
from .anthropic import pieces

ERROR_TYPES = {400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
               429: "rate_limit_exceeded"}


def error(status: int, message: str) -> Reply:
    return Reply(status, {"error": {"message": message, "type": ERROR_TYPES.get(status, "server_error"),
                                    "param": None, "code": None}})


def _text(content) -> str:
    """The text of a message's or tool output's content: a string or a list of parts."""
    if isinstance(content, str):
        return content
    out = []
    for part in content if isinstance(content, list) else []:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            out.append(part["text"])
    return "\n".join(out)


class Upstream(_Base):
    def side(self, req: Request) -> bool:
        return req.path.endswith(("/responses", "/chat/completions")) and not (req.json or {}).get("tools")

    def newest(self, req: Request) -> str:
        items = req.json.get("input") if req.path.endswith("/responses") else req.json.get("messages")
        if isinstance(items, str):
            return items
        out: list[str] = []
        for item in reversed(items if isinstance(items, list) else []):
            if not isinstance(item, dict):
                continue
            if item.get("role") in ("user", "developer", "system", "tool"):
                out.append(_text(item.get("content")))
            elif item.get("type") in ("function_call_output", "custom_tool_call_output"):
                out.append(_text(item.get("output")))
            else:
                break  # the model's own turn: older input is not the newest
        return "\n".join(reversed(out))

    def answer(self, req: Request) -> Reply:
        if req.method == "GET" and req.path.endswith("/models"):
            return Reply(body={"object": "list", "data": [{"id": self.model, "object": "model", "created": 0,
                                                           "owned_by": "scripted"}]})
        kind = "responses" if req.path.endswith("/responses") else "chat" if req.path.endswith(
            "/chat/completions") else None
        if req.method != "POST" or kind is None:
            return error(404, f"no such endpoint: {req.method} {req.path}")
        if not isinstance(req.json, dict):
            return error(400, "the body is not a JSON object")
        turn = self.turn_for(req)
        if isinstance(turn, Fail):
            return error(turn.status, turn.message)
        parts = parts_of(turn)
        model = req.json.get("model") or self.model
        streaming = bool(req.json.get("stream"))
        if kind == "responses":
            response = self._response(req, parts, model)
            if streaming:
                return Reply(events=response_events(response), content_type="text/event-stream")
            return Reply(body=response)
        completion = self._completion(req, parts, model)
        if streaming:
            usage = bool((req.json.get("stream_options") or {}).get("include_usage"))
            return Reply(events=chat_chunks(completion, usage), content_type="text/event-stream")
        return Reply(body=completion)

    # -- Responses ---------------------------------------------------------------------------
    def _response(self, req: Request, parts, model: str) -> dict:
        output = []
        for p in parts:
            if isinstance(p, Text):
                output.append({"id": self.make_id("msg_scripted"), "type": "message", "status": "completed",
                               "role": "assistant",
                               "content": [{"type": "output_text", "text": p.text, "annotations": []}]})
            else:
                item = {"id": self.make_id("fc_scripted"), "type": "function_call", "status": "completed",
                        "name": p.name, "arguments": json.dumps(p.input, ensure_ascii=False),
                        "call_id": p.id or self.make_id("call_scripted")}
                if p.namespace:
                    item["namespace"] = p.namespace
                output.append(item)
        n_in, n_out = self.input_tokens(req), tokens(output)
        return {"id": self.make_id("resp_scripted"), "object": "response", "created_at": int(time.time()),
                "status": "completed", "error": None, "incomplete_details": None, "model": model,
                "output": output, "parallel_tool_calls": True, "previous_response_id": None,
                "usage": {"input_tokens": n_in, "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens": n_out, "output_tokens_details": {"reasoning_tokens": 0},
                          "total_tokens": n_in + n_out}}

    # -- Chat Completions ----------------------------------------------------------------------
    def _completion(self, req: Request, parts, model: str) -> dict:
        text = "".join(p.text for p in parts if isinstance(p, Text))
        calls = [{"id": p.id or self.make_id("call_scripted"), "type": "function",
                  "function": {"name": p.name, "arguments": json.dumps(p.input, ensure_ascii=False)}}
                 for p in parts if isinstance(p, Call)]
        message = {"role": "assistant", "content": text or None, "refusal": None}
        if calls:
            message["tool_calls"] = calls
        n_in, n_out = self.input_tokens(req), tokens(message)
        return {"id": self.make_id("chatcmpl-scripted"), "object": "chat.completion", "created": int(time.time()),
                "model": model, "system_fingerprint": None,
                "choices": [{"index": 0, "message": message, "logprobs": None,
                             "finish_reason": "tool_calls" if calls else "stop"}],
                "usage": {"prompt_tokens": n_in, "completion_tokens": n_out, "total_tokens": n_in + n_out}}


def response_events(response: dict):
    """The SSE events of a Responses API ``response``, as the API streams them."""
    seq = iter(range(1 << 30))

    def event(kind: str, **fields) -> bytes:
        return sse({"type": kind, "sequence_number": next(seq), **fields}, kind)

    pending = {**response, "status": "in_progress", "output": [], "usage": None}
    yield event("response.created", response=pending)
    yield event("response.in_progress", response=pending)
    for i, item in enumerate(response["output"]):
        if item["type"] == "message":
            text = item["content"][0]["text"]
            yield event("response.output_item.added", output_index=i,
                        item={**item, "status": "in_progress", "content": []})
            yield event("response.content_part.added", item_id=item["id"], output_index=i, content_index=0,
                        part={"type": "output_text", "text": "", "annotations": []})
            for piece in pieces(text):
                yield event("response.output_text.delta", item_id=item["id"], output_index=i, content_index=0,
                            delta=piece, logprobs=[])
            yield event("response.output_text.done", item_id=item["id"], output_index=i, content_index=0,
                        text=text, logprobs=[])
            yield event("response.content_part.done", item_id=item["id"], output_index=i, content_index=0,
                        part=item["content"][0])
        else:
            yield event("response.output_item.added", output_index=i,
                        item={**item, "status": "in_progress", "arguments": ""})
            for piece in pieces(item["arguments"]):
                yield event("response.function_call_arguments.delta", item_id=item["id"], output_index=i,
                            delta=piece)
            yield event("response.function_call_arguments.done", item_id=item["id"], output_index=i,
                        arguments=item["arguments"])
        yield event("response.output_item.done", output_index=i, item=item)
    yield event("response.completed", response=response)


def chat_chunks(completion: dict, usage: bool):
    """The SSE chunks of a chat ``completion``, ending ``data: [DONE]``."""
    choice = completion["choices"][0]
    message = choice["message"]

    extra = {"usage": None} if usage else {}  # the API names usage in every chunk when it was asked for

    def chunk(delta: dict, finish=None) -> bytes:
        return sse({"id": completion["id"], "object": "chat.completion.chunk", "created": completion["created"],
                    "model": completion["model"], "system_fingerprint": None,
                    "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}], **extra})

    yield chunk({"role": "assistant", "content": "", "refusal": None})
    if message["content"]:
        for piece in pieces(message["content"]):
            yield chunk({"content": piece})
    for i, call in enumerate(message.get("tool_calls", [])):
        yield chunk({"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                                     "function": {"name": call["function"]["name"], "arguments": ""}}]})
        for piece in pieces(call["function"]["arguments"]):
            yield chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
    yield chunk({}, choice["finish_reason"])
    if usage:
        yield sse({"id": completion["id"], "object": "chat.completion.chunk", "created": completion["created"],
                   "model": completion["model"], "system_fingerprint": None, "choices": [],
                   "usage": completion["usage"]})
    yield sse("[DONE]")
