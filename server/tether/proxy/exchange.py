"""What one request and its response say, read through an API's table: the conversation, the
session it belongs to, the files the newest message's tool results come from, whether it is a
side request, a compaction, or carries tether's hook output already; and the events of a
response (SSE or one JSON body).
"""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass, field
from functools import cached_property

import orjson

from ..agents.hooks import Touch, _vscode_patch, _window, touches
from .apis import ASSISTANT, OTHER, USER, Api, Call, Msg, Result, first_user_digest

HOOK_MARK = b"# tether notes for "  # the heading of every answer tether's hooks give (context.ranking)

# tools other agents name files with (Cline, opencode, Gemini CLI, Continue …): an input field
# naming a path; the tool's name says whether it writes
PATH_KEYS = ("file_path", "filePath", "absolute_path", "path", "notebook_path", "target_file", "file")
_WRITES = re.compile(r"edit|write|replace|patch|create|insert|append|delete|move|rename", re.I)
_OLD_KEYS = ("old_string", "oldString", "old_str", "search")


def call_touches(call: Call) -> list[Touch]:
    """The files a tool call reads or edits: Claude Code's and VS Code's tools as the hooks
    read them, a patch that names its files, else any input field that names a path."""
    found = touches(call.name, call.input)
    if found:
        return found
    inp = call.input
    patch = next((v for v in (inp.get("input"), inp.get("patch"), command_of(call)) if isinstance(v, str) and
                  "*** Begin Patch" in v), None)  # Codex's apply_patch: a tool's input, or a shell heredoc
    if patch is not None:
        return _vscode_patch({"input": patch})
    for key in PATH_KEYS:
        path = inp.get(key)
        if isinstance(path, str) and path.strip():
            olds = [inp[k] for k in _OLD_KEYS if isinstance(inp.get(k), str)]
            edit = bool(_WRITES.search(call.name))
            return [Touch(path, edit=edit, olds=olds, lines=None if edit else _window(inp.get("offset"),
                                                                                      inp.get("limit")))]
    return []


def command_of(call: Call) -> str:
    cmd = call.input.get("command") if call.input.get("command") is not None else call.input.get("cmd")
    if isinstance(cmd, list):
        return " ".join(str(c) for c in cmd)
    return cmd if isinstance(cmd, str) else ""


TAIL = 24  # messages read on the way in: the newest, the results it carries, the calls they answer
FIRST = 8  # ... and the first ones, where the first user message is (after system and developer ones)


@dataclass
class Request:
    api: Api
    raw: bytes
    body: dict
    count: int  # messages in the conversation
    tail: list[Msg]  # the last TAIL of them: all a request waits for
    session: str  # the observation log's session: the agent's id, else the conversation's first message
    thread: str  # this conversation inside the session (a sub-agent's is another)
    main: bool  # a main turn (tools offered, or a compaction); side requests are no session's
    compaction: bool
    hooked: bool  # tether's hook output is in it already
    results: list[tuple[Call, Result]] = field(default_factory=list)  # the newest message's tool results

    @cached_property
    def msgs(self) -> list[Msg]:
        """Every message, read by capture once the exchange is over."""
        return self.api.read(self.body)

    @property
    def newest(self) -> int:
        """The index of the newest message when it is the user's side, else -1 (system messages
        after it do not count: Claude Code 2.1 may end a request with one)."""
        i = _last_spoken(self.tail)
        return self.count - len(self.tail) + i if i >= 0 and self.tail[i].side == USER else -1

    def touched(self) -> list[Touch]:
        out: list[Touch] = []
        for call, res in self.results:
            if not res.error:
                out += call_touches(call)
        return out


def read_request(api: Api, raw: bytes, headers) -> Request | None:
    """The request as its table reads it — its first and last messages only, the rest when
    capture asks; None for a body that is not a JSON object."""
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(body, dict):
        return None
    items = body.get(api.list_key)
    if isinstance(items, list):
        count, tail, first = len(items), api.read({**body, api.list_key: items[-TAIL:]}), \
            api.read({**body, api.list_key: items[:FIRST]})
    else:  # a prompt as a string (Responses), or none
        tail = first = api.read(body)
        count = len(tail)
    thread = first_user_digest(first if any(m.side == USER for m in first) else api.read(body))
    session = api.session(body, headers) or f"proxy-{api.family}-{thread}"
    i = _last_spoken(tail)
    text = "\n".join(tail[i].texts) if i >= 0 and tail[i].side == USER else ""
    compaction = any(w in text for w in api.compaction)
    # a compaction is the session's even without tools (Codex offers none): known by its wording
    req = Request(api, raw, body, count, tail, session.replace("\0", ""), thread,
                  api.offers_tools(body) or compaction, compaction, HOOK_MARK in raw)
    req.results = _results(tail)
    return req


def _last_spoken(msgs: list[Msg]) -> int:
    """The index of the last message the user's side or the model's said (not a system one), or -1."""
    return next((i for i in range(len(msgs) - 1, -1, -1) if msgs[i].side != OTHER), -1)


def _results(msgs: list[Msg]) -> list[tuple[Call, Result]]:
    """The tool results of the newest user-side messages (those after the model's last one),
    each with the call it answers."""
    k = len(msgs)
    while k and msgs[k - 1].side != ASSISTANT:
        k -= 1
    tail = [m for m in msgs[k:] if m.side == USER]
    if not tail:
        return []
    calls: dict[str, Call] = {}
    by_name: dict[str, list[Call]] = {}
    for m in msgs[:k][-8:]:  # the calls just before (Responses: one item each)
        for c in m.calls:
            calls[c.id] = c
            by_name.setdefault(c.name, []).append(c)
    out = []
    for m in tail:
        for r in m.results:
            call = calls.get(r.id) if r.id else None
            if call is None and r.name and by_name.get(r.name):  # Gemini without ids: by name, in order
                call = by_name[r.name].pop(0)
            if call is not None:
                out.append((call, r))
    return out


def message_digest(body: dict, api: Api, index: int) -> str:
    """A message as the client sent it, less what the agent moves from request to request
    (``api.volatile``), for knowing it again in a later request."""
    items = body.get(api.list_key)
    item = items[index] if isinstance(items, list) and 0 <= index < len(items) else None
    if api.volatile:
        item = _without(item, api.volatile)
    return hashlib.sha256(orjson.dumps(item, option=orjson.OPT_SORT_KEYS)).hexdigest()[:24]


def _without(v, keys: frozenset[str]):
    if isinstance(v, dict):
        return {k: _without(x, keys) for k, x in v.items() if k not in keys}
    if isinstance(v, list):
        return [_without(x, keys) for x in v]
    return v


# -- responses ------------------------------------------------------------------------------------

def events_of(data: bytes, content_type: str, encoding: str = "") -> list[dict]:
    """A response's JSON events: the ``data:`` of each SSE event, or its one JSON body (a JSON
    array — Gemini's stream without ``alt=sse`` — is its elements). Bytes cut off at either end
    (what capture keeps of a very long stream) lose only the events they cut."""
    if encoding in ("gzip", "deflate"):
        try:
            data = zlib.decompressobj(47).decompress(data)  # 47: gzip or zlib header
        except zlib.error:
            return []
    elif encoding not in ("", "identity"):
        return []
    if "text/event-stream" in content_type:
        out = []
        if b"\r" in data:  # SSE lines may end in CR LF or CR: LF alone from here on
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        for block in data.split(b"\n\n"):  # bytes.split: a third of what a regular expression took
            if b"data:" not in block:
                continue
            payload = b"\n".join(line[5:].lstrip(b" ") for line in block.split(b"\n") if line.startswith(b"data:"))
            if not payload or payload == b"[DONE]":
                continue
            try:
                ev = orjson.loads(payload)
            except orjson.JSONDecodeError:
                continue
            if isinstance(ev, dict):
                out.append(ev)
        return out
    try:
        body = orjson.loads(data)
    except orjson.JSONDecodeError:
        return []
    if isinstance(body, list):
        return [e for e in body if isinstance(e, dict)]
    return [body] if isinstance(body, dict) else []


__all__ = ["ASSISTANT", "USER", "Request", "call_touches", "command_of", "events_of", "message_digest",
           "read_request"]
