"""Distillation that replaces compaction (``tether proxy --distil-on-compaction``).

A compaction request (an API table's ``compaction`` wording) gets one more trailing block,
:data:`REQUEST`: list what the conversation settled in a fixed form, after the summary. The
response's text then passes through :class:`Cut`, which holds back nothing but a possible start
of the section's opening tag and drops the section, so the client gets its summary alone; the
section is parsed (:func:`split`) into candidates for ``tether review``. No extra model call:
the cost is the section's output tokens.

Only here does the proxy rewrite a response, and only the text of the APIs in :data:`STRIPS`
(the events that carry text are re-encoded; every other event passes byte for byte).
"""

from __future__ import annotations

import re
import time

import orjson

from ..capture import candidates as K
from ..core.notes import Alternative
from ..core.workspace import Workspace, WorkspaceError

OPEN, CLOSE = "<tether-notes>", "</tether-notes>"
REQUEST = f"""After the summary, add one last section in exactly this form, listing each decision (with the \
options rejected and why), invariant, boundary and workaround this conversation settled, each on the file and \
symbol it governs (paths relative to the repository; leave symbol empty for a whole file). Write nothing after it; \
if nothing was settled, write the two tags with nothing between them.
{OPEN}
- kind: decision
  title: <one line: what was chosen>
  file: <path>
  symbol: <qualified name, or empty>
  why: <the reason>
  rejected: <option> -- <why not>
{CLOSE}"""

KINDS = ("decision", "invariant", "boundary", "workaround")
CONFIDENCE = 0.8  # the model wrote it as settled; a person still reviews it


def split(text: str) -> tuple[str, list[dict]]:
    """The summary without the section, and the section's items (``kind``, ``title``, ``file``,
    ``symbol``, ``why``, ``rejected``: a list of ``(option, why)``)."""
    i = text.find(OPEN)
    if i < 0:
        return text, []
    j = text.find(CLOSE, i)
    section = text[i + len(OPEN): j if j >= 0 else len(text)]
    items: list[dict] = []
    for chunk in re.split(r"(?m)^\s*-\s+(?=kind:)", section):
        item: dict = {"rejected": []}
        for line in chunk.splitlines():
            key, sep, value = line.strip().partition(":")
            if not sep:
                continue
            key, value = key.strip().lower(), value.strip()
            if key == "rejected" and value:
                item["rejected"].append(_option(value))
            elif key in ("kind", "title", "file", "symbol", "why"):
                item[key] = value
        if item.get("kind", "").lower() in KINDS and item.get("title") and item.get("file"):
            item["kind"] = item["kind"].lower()
            items.append(item)
    return text[:i].rstrip(), items


def _option(value: str) -> tuple[str, str]:
    """``option -- why`` (or an em or en dash) -> (option, why)."""
    parts = re.split(r"\s+(?:--|—|–)\s+", value, maxsplit=1)
    return parts[0].strip(), parts[1].strip() if len(parts) > 1 else ""


def queue(ws: Workspace, sid: str, items: list[dict]) -> K.Queued:
    """The section's items as candidates (the code each names, fingerprinted as it is now;
    paths outside the workspace and files that do not exist are left out)."""
    from ..capture.distill import _anchors  # here: the proxy starts without the extractor's rules
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    cands = []
    for it in items:
        try:
            rel = ws.rel(it["file"], ws.root)
        except WorkspaceError:
            continue
        anchors = _anchors(ws, [(rel, it.get("symbol", "").strip("`"))], {})
        if not anchors:
            continue
        quote = f"{it['kind']}: {it['title']}" + (f" — {it['why']}" if it.get("why") else "")
        cands.append(K.Candidate("", it["kind"], it["title"], CONFIDENCE, anchors,
                                 [K.Evidence(sid, "assistant", at, quote)], it.get("why", ""),
                                 [Alternative(o, w) for o, w in it["rejected"] if o], extractor="compaction"))
    return K.queue(ws, cands)


# -- the section, cut from the text the client gets --------------------------------------------------

class Cut:
    """Text in, the text before the section out; holds back only what may start it (trailing
    white space, a possible start of ``OPEN``)."""

    def __init__(self):
        self.held = ""
        self.cutting = False

    def feed(self, text: str) -> str:
        if self.cutting:
            return ""
        text = self.held + text
        i = text.find(OPEN)
        if i >= 0:
            self.cutting, self.held = True, ""
            return text[:i].rstrip()
        keep = next((k for k in range(min(len(OPEN) - 1, len(text)), 0, -1) if OPEN.startswith(text[-k:])), 0)
        body = text[:len(text) - keep]
        sent = body.rstrip()  # the blank lines before the section go with it
        self.held = text[len(sent):]
        return sent

    def flush(self) -> str:
        out, self.held = self.held, ""
        return "" if self.cutting else out


def _anthropic_event(ev: dict, cut: Cut) -> list[dict]:
    t = ev.get("type")
    if t == "content_block_delta" and (ev.get("delta") or {}).get("type") == "text_delta":
        return [{**ev, "delta": {**ev["delta"], "text": cut.feed(ev["delta"].get("text", ""))}}]
    if t == "content_block_stop":
        rest = cut.flush()
        if rest:
            return [{"type": "content_block_delta", "index": ev.get("index", 0),
                     "delta": {"type": "text_delta", "text": rest}}, ev]
    if t == "message":  # not streamed
        content = [{**b, "text": cut.feed(b["text"]) + cut.flush()} if b.get("type") == "text" else b
                   for b in ev.get("content") or []]
        return [{**ev, "content": content}]
    return [ev]


def _gemini_event(ev: dict, cut: Cut) -> list[dict]:
    cands = ev.get("candidates")
    if not isinstance(cands, list) or not cands or not isinstance(cands[0], dict):
        return [ev]
    c0 = cands[0]
    parts = (c0.get("content") or {}).get("parts")
    if not isinstance(parts, list):
        return [ev]
    ends = bool(c0.get("finishReason"))
    new_parts = []
    for p in parts:
        if isinstance(p, dict) and isinstance(p.get("text"), str) and not p.get("thought"):
            p = {**p, "text": cut.feed(p["text"])}
        new_parts.append(p)
    if ends:
        rest = cut.flush()
        if rest:
            new_parts.append({"text": rest})
    return [{**ev, "candidates": [{**c0, "content": {**c0["content"], "parts": new_parts}}, *cands[1:]]}]


def _responses_item(item) -> dict:
    """An output item with the section cut from its text parts (a whole text: no holding back)."""
    if not isinstance(item, dict) or not isinstance(item.get("content"), list):
        return item
    return {**item, "content": [{**p, "text": split(p["text"])[0]} if isinstance(p, dict) and
                                p.get("type") == "output_text" and isinstance(p.get("text"), str) else p
                                for p in item["content"]]}


def _responses_event(ev: dict, cut: Cut) -> list[dict]:
    """Codex CLI builds its summary from the finished item; the deltas are what it shows meanwhile:
    the section goes from both."""
    t = ev.get("type")
    if t == "response.output_text.delta" and isinstance(ev.get("delta"), str):
        return [{**ev, "delta": cut.feed(ev["delta"])}]
    if t == "response.output_text.done" and isinstance(ev.get("text"), str):
        done = {**ev, "text": split(ev["text"])[0]}
        rest = cut.flush()
        if rest:  # what was held back, as the part's last delta (the same place in the stream, so its number)
            delta = {k: v for k, v in ev.items() if k != "text"}
            return [{**delta, "type": "response.output_text.delta", "delta": rest}, done]
        return [done]
    if t == "response.content_part.done":
        return [{**ev, "part": _responses_item({"content": [ev.get("part")]})["content"][0]}]
    if t == "response.output_item.done":
        return [{**ev, "item": _responses_item(ev.get("item"))}]
    if t in ("response.completed", "response.incomplete") and isinstance(ev.get("response"), dict):
        return [{**ev, "response": _responses_event(ev["response"], cut)[0]}]
    if ev.get("object") == "response" and isinstance(ev.get("output"), list):  # not streamed
        return [{**ev, "output": [_responses_item(it) for it in ev["output"]]}]
    return [ev]


STRIPS = {"anthropic": _anthropic_event, "gemini": _gemini_event, "openai-responses": _responses_event}


class Stripper:
    """Response bytes in, the same bytes out except the section: SSE events that carry text are
    re-encoded with the section cut out; a JSON body (not streamed) is cut at its end."""

    def __init__(self, api_name: str, streamed: bool):
        self.fn, self.streamed = STRIPS[api_name], streamed
        self.cut = Cut()
        self.buf = b""

    def feed(self, data: bytes) -> bytes:
        self.buf += data
        if not self.streamed:
            return b""
        out = []
        while True:
            m = re.search(rb"\r?\n\r?\n", self.buf)
            if m is None:
                break
            block, self.buf = self.buf[:m.end()], self.buf[m.end():]
            out.append(self._event(block))
        return b"".join(out)

    def _event(self, block: bytes) -> bytes:
        lines = block.splitlines()
        data = [ln[5:].lstrip(b" ") for ln in lines if ln.startswith(b"data:")]
        try:
            ev = orjson.loads(b"\n".join(data)) if data else None
        except orjson.JSONDecodeError:
            ev = None
        if not isinstance(ev, dict):
            return block
        evs = self.fn(ev, self.cut)
        if len(evs) == 1 and evs[0] == ev:  # nothing cut from it: its own bytes
            return block
        head = b"\n".join(ln for ln in lines if not ln.startswith(b"data:") and ln.strip())
        out = []
        for e in evs:
            name = f"event: {e.get('type')}\n".encode() if head.startswith(b"event:") else \
                (head + b"\n" if head else b"")
            out.append(name + b"data: " + orjson.dumps(e) + b"\n\n")
        return b"".join(out)

    def close(self) -> bytes:
        if self.streamed:
            return self.buf
        try:
            body = orjson.loads(self.buf)
        except orjson.JSONDecodeError:
            return self.buf
        if isinstance(body, dict):
            return orjson.dumps(self.fn(body, self.cut)[0])
        return self.buf
