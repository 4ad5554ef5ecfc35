"""A scripted Gemini API: ``POST /v1beta/models/MODEL:generateContent`` (one JSON answer),
``:streamGenerateContent`` (server-sent events with ``?alt=sse``, else a JSON array of chunks)
and ``:countTokens``. What Gemini CLI speaks (``GOOGLE_GEMINI_BASE_URL``).

A request that offers no ``tools``, or asks for JSON by a schema, is a side request (a router's
verdict, a check); a schema gets the smallest JSON that fits it, anything else a short text::

    from upstreams import Call, Text, gemini

    with gemini.Upstream([Call("read_file", {"file_path": "app.py"}), Text("Done.")]) as up:
        run_gemini(env={"GOOGLE_GEMINI_BASE_URL": up.url, "GEMINI_API_KEY": "any"})
    assert "<hook_context>" in up.main[1].newest

``req.newest`` is the text of the newest user content (its text and function responses).
"""

from __future__ import annotations

import json

from .anthropic import pieces
from .base import Call, Fail, Reply, Request, Text, Upstream as _Base, parts_of, sse, tokens

STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
          429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}


def error(status: int, message: str) -> Reply:
    return Reply(status, {"error": {"code": status, "message": message, "status": STATUS.get(status, "INTERNAL")}})


def schema_of(req: Request) -> dict | None:
    config = (req.json or {}).get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    return schema if isinstance(schema, dict) else None


def fitting(schema: dict):
    """The smallest value that fits a JSON schema (OpenAPI's upper-case types too)."""
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: fitting(v) for k, v in props.items() if isinstance(v, dict)}
    return {"string": "ok", "boolean": False, "integer": 0, "number": 0, "array": [], "null": None}.get(kind, "ok")


class Upstream(_Base):
    def side(self, req: Request) -> bool:
        return ":" in req.path and not req.path.endswith(":countTokens") and (
            not (req.json or {}).get("tools") or schema_of(req) is not None)

    def newest(self, req: Request) -> str:
        users = [c for c in req.json.get("contents") or [] if isinstance(c, dict) and c.get("role", "user") == "user"]
        out = []
        for part in (users[-1].get("parts") or []) if users else []:
            if not isinstance(part, dict):
                continue
            if isinstance(part.get("text"), str):
                out.append(part["text"])
            elif isinstance(part.get("functionResponse"), dict):
                out.append(json.dumps(part["functionResponse"].get("response"), ensure_ascii=False))
        return "\n".join(out)

    def answer(self, req: Request) -> Reply:
        model, _, method = req.path.rpartition("/")[2].partition(":")
        if req.method != "POST" or method not in ("generateContent", "streamGenerateContent", "countTokens"):
            return error(404, f"no such method: {req.method} {req.path}")
        if not isinstance(req.json, dict):
            return error(400, "the body is not a JSON object")
        if method == "countTokens":
            return Reply(body={"totalTokens": self.input_tokens(req)})
        schema = schema_of(req) if req.side else None
        turn = Text(json.dumps(fitting(schema))) if schema is not None and self.side_answer is None \
            else self.turn_for(req)
        if isinstance(turn, Fail):
            return error(turn.status, turn.message)
        chunks = self._chunks(req, parts_of(turn), model or self.model)
        if method == "generateContent":
            return Reply(body=merged(chunks))
        if req.query.get("alt") == ["sse"]:
            return Reply(events=(sse(c, end="\r\n\r\n") for c in chunks), content_type="text/event-stream")
        return Reply(body=chunks)

    def _chunks(self, req: Request, parts, model: str) -> list[dict]:
        """The streamed answer: a chunk per piece of text and per function call; the last one
        carries the finish reason and the token counts."""
        out: list[dict] = []
        for p in parts:
            if isinstance(p, Text):
                out += [{"text": piece} for piece in pieces(p.text)]
            else:
                assert isinstance(p, Call)
                out.append({"functionCall": {"name": p.name, "args": p.input}})
        out = out or [{"text": ""}]
        rid = self.make_id("scripted-response-")
        n_in, n_out = self.input_tokens(req), tokens(out)
        chunks = [{"candidates": [{"content": {"role": "model", "parts": [part]}, "index": 0}],
                   "modelVersion": model, "responseId": rid} for part in out]
        chunks[-1]["candidates"][0]["finishReason"] = "STOP"
        chunks[-1]["usageMetadata"] = {"promptTokenCount": n_in, "candidatesTokenCount": n_out,
                                       "totalTokenCount": n_in + n_out}
        return chunks


def merged(chunks: list[dict]) -> dict:
    """The one answer of ``generateContent``: the chunks' parts, texts in a row joined."""
    parts: list[dict] = []
    for c in chunks:
        for part in c["candidates"][0]["content"]["parts"]:
            if "text" in part and parts and "text" in parts[-1]:
                parts[-1] = {"text": parts[-1]["text"] + part["text"]}
            else:
                parts.append(dict(part))
    last = chunks[-1]
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": last["usageMetadata"], "modelVersion": last["modelVersion"],
            "responseId": last["responseId"]}
