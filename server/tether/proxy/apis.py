"""Each model API the proxy knows, as a table over one reader: which requests it answers, where
the conversation is and how its messages read (who speaks, the text, the tool calls and
their results), how a trailing block looks, how a session names itself, what a compaction
request says, how a response says the turn ended, and the error JSON its clients parse.

Messages are read into one shape (:class:`Msg`) so everything after this module — what a
tool call touched, what is new since the last request, what goes to the observation log — is
written once for every API.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import orjson

from .inject import Target

USER, ASSISTANT, OTHER = "user", "assistant", "other"


@dataclass
class Call:
    id: str
    name: str
    input: dict


@dataclass
class Result:
    id: str
    name: str  # the tool's name when the result says it (Gemini), else ""
    text: str
    error: bool = False


@dataclass
class Msg:
    side: str  # user (a person, or tool results going back), assistant, other (system …)
    texts: list[str] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)


@dataclass
class Reply:
    """What a response said: its text, whether it called a tool, and whether the turn ended."""

    text: str = ""
    calls: list[Call] = field(default_factory=list)
    ended: bool = False
    stop: str = ""  # the API's own word for why it stopped


def _s(v) -> str:
    return v if isinstance(v, str) else ""


def _d(v) -> dict:
    return v if isinstance(v, dict) else {}


def _l(v) -> list:
    return v if isinstance(v, list) else []


def _args(v) -> dict:
    """A tool call's arguments: an object, or a JSON string of one."""
    if isinstance(v, dict):
        return v
    if isinstance(v, str):
        try:
            out = orjson.loads(v)
        except orjson.JSONDecodeError:
            return {"input": v}  # a freeform tool (Codex's apply_patch): the text is the input
        return out if isinstance(out, dict) else {}
    return {}


def _text_of(content) -> str:
    """A content value as text: a string, or the text of a list of text parts."""
    if isinstance(content, str):
        return content
    return "\n".join(_s(p.get("text")) for p in _l(content) if isinstance(p, dict) and _s(p.get("text")))


# -- Anthropic Messages ----------------------------------------------------------------------------

def _anthropic_read(body: dict) -> list[Msg]:
    out = []
    for m in _l(body.get("messages")):
        m = _d(m)
        msg = Msg(USER if m.get("role") == "user" else ASSISTANT if m.get("role") == "assistant" else OTHER)
        content = m.get("content")
        if isinstance(content, str):
            msg.texts.append(content)
        for b in _l(content):
            b = _d(b)
            t = b.get("type")
            if t == "text":
                msg.texts.append(_s(b.get("text")))
            elif t == "tool_use":
                msg.calls.append(Call(_s(b.get("id")), _s(b.get("name")), _d(b.get("input"))))
            elif t == "tool_result":
                msg.results.append(Result(_s(b.get("tool_use_id")), "", _text_of(b.get("content")),
                                          b.get("is_error") is True))
        out.append(msg)
    return out


_UUID = re.compile(r"session_([0-9a-f-]{36})")


def _anthropic_session(body: dict, headers) -> str:
    """Claude Code's session id: in ``metadata.user_id``, a JSON string with ``session_id``
    (2.1), or ``user_…_session_<uuid>`` (earlier versions)."""
    uid = _s(_d(body.get("metadata")).get("user_id"))
    if uid.startswith("{"):
        try:
            return _s(_d(orjson.loads(uid)).get("session_id"))
        except orjson.JSONDecodeError:
            return ""
    m = _UUID.search(uid)
    return m.group(1) if m else ""


def _anthropic_reply(events: list[dict]) -> Reply:
    r = Reply()
    text: list[str] = []
    blocks: dict[int, dict] = {}
    for ev in events:
        t = ev.get("type")
        if t == "message":  # not streamed: the whole message
            for b in _l(ev.get("content")):
                b = _d(b)
                if b.get("type") == "text":
                    text.append(_s(b.get("text")))
                elif b.get("type") == "tool_use":
                    r.calls.append(Call(_s(b.get("id")), _s(b.get("name")), _d(b.get("input"))))
            r.stop = _s(ev.get("stop_reason"))
        elif t == "content_block_start":
            blocks[ev.get("index", 0)] = {**_d(ev.get("content_block")), "json": []}
            if _d(ev.get("content_block")).get("type") == "text":
                text.append(_s(_d(ev.get("content_block")).get("text")))
        elif t == "content_block_delta":
            d = _d(ev.get("delta"))
            if d.get("type") == "text_delta":
                text.append(_s(d.get("text")))
            elif d.get("type") == "input_json_delta" and ev.get("index", 0) in blocks:
                blocks[ev.get("index", 0)]["json"].append(_s(d.get("partial_json")))
        elif t == "message_delta":
            r.stop = _s(_d(ev.get("delta")).get("stop_reason")) or r.stop
    for b in blocks.values():
        if b.get("type") == "tool_use":
            r.calls.append(Call(_s(b.get("id")), _s(b.get("name")), _args("".join(b["json"]) or b.get("input"))))
    r.text, r.ended = "".join(text), r.stop == "end_turn"
    return r


def _anthropic_error(status: int, message: str) -> dict:
    kind = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
            429: "rate_limit_error", 529: "overloaded_error"}.get(status, "api_error")
    return {"type": "error", "error": {"type": kind, "message": message}}


# -- OpenAI Chat Completions -------------------------------------------------------------------------

def _chat_read(body: dict) -> list[Msg]:
    out = []
    for m in _l(body.get("messages")):
        m = _d(m)
        role = m.get("role")
        if role == "tool":  # a tool's result goes back on the user's side of the turn
            out.append(Msg(USER, results=[Result(_s(m.get("tool_call_id")), _s(m.get("name")),
                                                 _text_of(m.get("content")))]))
            continue
        msg = Msg(USER if role == "user" else ASSISTANT if role == "assistant" else OTHER)
        text = _text_of(m.get("content"))
        if text:
            msg.texts.append(text)
        for c in _l(m.get("tool_calls")):
            fn = _d(_d(c).get("function"))
            msg.calls.append(Call(_s(_d(c).get("id")), _s(fn.get("name")), _args(fn.get("arguments"))))
        out.append(msg)
    return out


def _chat_reply(events: list[dict]) -> Reply:
    r = Reply()
    text: list[str] = []
    calls: dict[int, dict] = {}
    for ev in events:
        for ch in _l(ev.get("choices"))[:1]:
            ch = _d(ch)
            part = _d(ch.get("message") or ch.get("delta"))
            text.append(_s(part.get("content")))
            for k, c in enumerate(_l(part.get("tool_calls"))):
                c = _d(c)
                slot = calls.setdefault(c.get("index", k), {"id": "", "name": "", "args": []})
                fn = _d(c.get("function"))
                slot["id"] = slot["id"] or _s(c.get("id"))
                slot["name"] = slot["name"] or _s(fn.get("name"))
                slot["args"].append(_s(fn.get("arguments")))
            r.stop = _s(ch.get("finish_reason")) or r.stop
    r.calls = [Call(c["id"], c["name"], _args("".join(c["args"]))) for c in calls.values()]
    r.text, r.ended = "".join(text), r.stop == "stop"
    return r


def _openai_session(body: dict, headers) -> str:
    """Codex names its session in ``x-codex-turn-metadata`` (and as ``prompt_cache_key``)."""
    meta = headers.get("x-codex-turn-metadata", "")
    if meta:
        try:
            sid = _s(_d(orjson.loads(meta)).get("session_id"))
        except orjson.JSONDecodeError:
            sid = ""
        if sid:
            return sid
    return headers.get("session_id", "") or _s(body.get("prompt_cache_key"))


def _openai_error(status: int, message: str) -> dict:
    kind = {400: "invalid_request_error", 401: "invalid_request_error", 429: "rate_limit_exceeded"}.get(
        status, "server_error")
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


# -- OpenAI Responses --------------------------------------------------------------------------------

_RESULT_ITEMS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")
_CALL_ITEMS = ("function_call", "custom_tool_call", "local_shell_call")


def _responses_call(item: dict) -> Call:
    t = item.get("type")
    if t == "local_shell_call":
        cmd = _d(item.get("action")).get("command")
        return Call(_s(item.get("call_id")), "local_shell", {"command": " ".join(cmd) if isinstance(cmd, list) else _s(cmd)})
    inp = item.get("arguments") if t == "function_call" else item.get("input")
    return Call(_s(item.get("call_id")), _s(item.get("name")), _args(inp))


def _responses_read(body: dict) -> list[Msg]:
    items = body.get("input")
    if isinstance(items, str):
        return [Msg(USER, texts=[items])]
    out = []
    for it in _l(items):
        it = _d(it)
        t = it.get("type", "message")
        if t == "message":
            role = it.get("role")
            side = USER if role == "user" else ASSISTANT if role == "assistant" else OTHER
            out.append(Msg(side, texts=[x for x in [_text_of(it.get("content"))] if x]))
        elif t in _RESULT_ITEMS:
            out.append(Msg(USER, results=[Result(_s(it.get("call_id")), "", _text_of(it.get("output")))]))
        elif t in _CALL_ITEMS:
            out.append(Msg(ASSISTANT, calls=[_responses_call(it)]))
        else:  # reasoning, web search …: the model's side
            out.append(Msg(ASSISTANT))
    return out


def _responses_reply(events: list[dict]) -> Reply:
    r = Reply()
    deltas: list[str] = []
    final = None
    for ev in events:
        t = ev.get("type")
        if t == "response.output_text.delta":
            deltas.append(_s(ev.get("delta")))
        elif t in ("response.completed", "response.incomplete", "response.failed"):
            final = _d(ev.get("response"))
        elif ev.get("object") == "response":  # not streamed
            final = ev
    if final is not None:
        texts = []
        for it in _l(final.get("output")):
            it = _d(it)
            if it.get("type") == "message":
                texts.append(_text_of(it.get("content")))
            elif it.get("type") in _CALL_ITEMS:
                r.calls.append(_responses_call(it))
        r.stop = _s(final.get("status"))
        r.text = "".join(texts) or "".join(deltas)
    else:
        r.text = "".join(deltas)
    r.ended = r.stop == "completed" and not r.calls
    return r


# -- Gemini ------------------------------------------------------------------------------------------

def _gemini_read(body: dict) -> list[Msg]:
    out = []
    for c in _l(body.get("contents")):
        c = _d(c)
        msg = Msg(ASSISTANT if c.get("role") == "model" else USER)
        for k, p in enumerate(_l(c.get("parts"))):
            p = _d(p)
            if isinstance(p.get("text"), str) and not p.get("thought"):
                msg.texts.append(p["text"])
            elif "functionCall" in p:
                fc = _d(p["functionCall"])
                msg.calls.append(Call(_s(fc.get("id")), _s(fc.get("name")), _d(fc.get("args"))))
            elif "functionResponse" in p:
                fr = _d(p["functionResponse"])
                resp = _d(fr.get("response"))
                err = resp.get("error")
                text = _s(resp.get("output")) or (orjson.dumps(resp).decode() if resp else "")
                msg.results.append(Result(_s(fr.get("id")), _s(fr.get("name")), _s(err) or text, err is not None))
        out.append(msg)
    return out


def _gemini_reply(events: list[dict]) -> Reply:
    r = Reply()
    text: list[str] = []
    for ev in events:
        for cand in _l(ev.get("candidates"))[:1]:
            cand = _d(cand)
            for p in _l(_d(cand.get("content")).get("parts")):
                p = _d(p)
                if isinstance(p.get("text"), str) and not p.get("thought"):
                    text.append(p["text"])
                elif "functionCall" in p:
                    fc = _d(p["functionCall"])
                    r.calls.append(Call(_s(fc.get("id")), _s(fc.get("name")), _d(fc.get("args"))))
            r.stop = _s(cand.get("finishReason")) or r.stop
    r.text, r.ended = "".join(text), r.stop == "STOP" and not r.calls
    return r


def _gemini_error(status: int, message: str) -> dict:
    word = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
            429: "RESOURCE_EXHAUSTED", 504: "DEADLINE_EXCEEDED"}.get(status, "UNAVAILABLE")
    return {"error": {"code": status, "message": message, "status": word}}


def _tools(key: str) -> Callable[[dict], bool]:
    return lambda body: bool(body.get(key))


# -- the tables --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Api:
    name: str
    family: str  # which upstream answers it: anthropic, openai, gemini
    path: re.Pattern  # the requests (POST) it reads; its family's other paths pass through unread
    list_key: str  # the top-level array that holds the conversation
    target: Target  # where a message's body is, and a trailing text block
    read: Callable[[dict], list[Msg]]  # the conversation, one Msg per element of list_key
    offers_tools: Callable[[dict], bool]  # a main turn offers tools; a side request (a title …) does not
    session: Callable[[dict, object], str]  # the agent's own session id (body, headers), or ""
    reply: Callable[[list[dict]], Reply]  # what a response's events (or its one JSON body) said
    compaction: tuple[str, ...] = ()  # words of the newest user message of a compaction request
    continued: tuple[str, ...] = ()  # words of the message a conversation goes on from after one
    generated: tuple[str, ...] = ()  # how user messages the agent writes itself begin (no prompt)
    volatile: frozenset[str] = frozenset()  # keys an agent moves between requests (a message is known again without)


ANTHROPIC = Api(
    "anthropic", "anthropic", re.compile(r"/v1/messages"), "messages",
    Target(("content",), {"type": "text", "text": "TEXT"}, wrap={"type": "text", "text": "TEXT"}),
    _anthropic_read, _tools("tools"), _anthropic_session, _anthropic_reply,
    # Claude Code 2.1 (/compact, or when its context fills): see STACK-NOTES
    compaction=("Your task is to create a detailed summary of the conversation so far",),
    continued=("This session is being continued from a previous conversation",),
    volatile=frozenset({"cache_control"}),  # Claude Code marks the newest message's last block, then the next one's
)
CHAT = Api(
    "openai-chat", "openai", re.compile(r"(?:/v1)?/chat/completions"), "messages",
    Target(("content",), {"type": "text", "text": "TEXT"}),
    _chat_read, _tools("tools"), _openai_session, _chat_reply,
)
RESPONSES = Api(
    "openai-responses", "openai", re.compile(r"(?:/v1)?/responses"), "input",
    Target(("output", "content"), {"type": "input_text", "text": "TEXT"}),
    _responses_read, _tools("tools"), _openai_session, _responses_reply,
    # Codex CLI's compaction prompt (templates/compact/prompt.md)
    compaction=("CONTEXT CHECKPOINT COMPACTION",),
    continued=("Another language model started to solve this problem and produced a summary",),
    generated=("<environment_context>", "<user_instructions>", "# AGENTS.md instructions"),  # Codex CLI's
)
GEMINI = Api(
    "gemini", "gemini", re.compile(r"/v1(?:beta|alpha)?/models/[^/:]+:(?:stream)?[gG]enerateContent"), "contents",
    Target(("parts",), {"text": "TEXT"}),
    _gemini_read, _tools("tools"), lambda body, headers: "", _gemini_reply,
    # Gemini CLI's compression asks for a state snapshot
    compaction=("<state_snapshot>",),
    generated=("<session_context>",),  # Gemini CLI's environment part of the first message
)
APIS = (ANTHROPIC, CHAT, RESPONSES, GEMINI)

ERRORS = {"anthropic": _anthropic_error, "openai": _openai_error, "gemini": _gemini_error}
DEFAULT_UPSTREAMS = {"anthropic": "https://api.anthropic.com", "openai": "https://api.openai.com",
                     "gemini": "https://generativelanguage.googleapis.com"}


def api_for(method: str, path: str) -> Api | None:
    """The table that reads this request (None: it passes through unread)."""
    if method != "POST":
        return None
    return next((a for a in APIS if a.path.fullmatch(path)), None)


def family_for(path: str, headers) -> str:
    """Which upstream a request goes to: by the path, then by the headers only one vendor's
    clients send."""
    a = next((a for a in APIS if a.path.fullmatch(path)), None)
    if a is not None:
        return a.family
    if re.match(r"/(?:upload/)?v1(?:beta|alpha)/", path) or "x-goog-api-key" in headers:
        return "gemini"
    if "anthropic-version" in headers or "x-api-key" in headers or path.startswith("/v1/messages"):
        return "anthropic"
    return "openai"


def first_user_digest(msgs: list[Msg]) -> str:
    """A conversation without a session id of its own is named by its first user message."""
    first = next((m for m in msgs if m.side == USER), None)
    text = "\n".join(first.texts) if first else ""
    return hashlib.sha256(text.encode()).hexdigest()[:16]
