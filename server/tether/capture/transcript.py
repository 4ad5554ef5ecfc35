"""Agents' session transcripts, behind one reader (:func:`read_transcript`): Claude Code's JSONL
(the file at a hook's ``transcript_path``) and the chat session VS Code writes for GitHub
Copilot (``workspaceStorage/<hash>/chatSessions/<id>.json``). Neither agent publishes a
schema; tether reads only the fields below and skips everything else on purpose, so a new
kind of line or part in a newer version does not stop distillation.

Nothing readable is lost to one bad line: a line that is not JSON (a cut last line is the
normal way a killed session ends), a line or a content block with another shape, a record
type tether does not know — each is skipped and reported (:class:`Skipped`: file, line,
reason), and the rest is read. Only a file that cannot be read at all raises
:class:`TranscriptError`.

A transcript is read within the time a hook has, whatever its size: of a JSONL transcript
only the end (``MAX_READ`` bytes, whole lines), where the session's latest turns are — the
turns before were distilled at the stops before; the lines left out are reported, and line
numbers stay those of the file. Only a regular file is read (never a pipe or a device), and
no more of it than its size says (a file of ``/proc`` says 0, however long it would talk).

**Claude Code** — one JSON object per line (empty lines are ignored):

- ``type``: ``"user"`` or ``"assistant"`` are read; Claude Code's other types
  (``KNOWN_OTHER``: ``summary``, ``system``, ``file-history-snapshot``, ``progress``, …)
  are passed over; any other type is skipped and reported.
- ``timestamp``: ISO-8601 time of the line (required on user/assistant lines).
- ``sessionId``: the session (optional; else the file name without ``.jsonl``).
- ``isSidechain`` (a sub-agent's conversation), ``isMeta`` (text Claude Code adds, such
  as command caveats), ``isCompactSummary`` (the summary written at a compaction): when
  true the line is passed over.
- ``message.content``: a string (a prompt) or a list of blocks:
  - ``{"type": "text", "text"}``: what the person or the agent said;
  - ``{"type": "tool_use", "id", "name", "input": {…}}``: a tool call (assistant lines);
  - ``{"type": "tool_result", "tool_use_id", "content": str | [{"type": "text", "text"}],
    "is_error"}``: its result (user lines);
  - any other block (``thinking``, ``image``, …) is passed over.

User text that Claude Code writes itself — ``<command-name>``/``<local-command-stdout>``
blocks, ``<system-reminder>`` sections, "[Request interrupted by user]", a hook's reply handed
to the agent ("Stop hook feedback: …") — is not a prompt and is left out.

**VS Code / GitHub Copilot chat session** — one JSON document (``"version": 3``; the shape
VS Code's ``ChatModel`` serializes, as read by agentgrep's ``vscode.chat_sessions_json``
adapter): ``sessionId``; ``requests[]``, one per prompt, each with ``timestamp`` (epoch
milliseconds), ``message.text`` (the prompt) and ``response[]``: parts without a ``kind``
(``{"value": markdown}``) and ``markdownContent`` parts (``content.value``) are what the
agent said, ``inlineReference`` parts are names inside that text, ``toolInvocationSerialized``
parts (``toolId``, ``toolCallId``, ``pastTenseMessage``) are tool calls — their inputs from
``result.metadata.toolCallRounds[].toolCalls[]`` (``id``, ``name``, ``arguments`` as a JSON
string) — and ``textEditGroup`` parts (``uri.fsPath``, ``edits[][].text``) are edits of a
file; other kinds (``thinking``, ``progressMessage``, …) are passed over. A request stands
for a "line": evidence and skipped parts name the request's number (1-based).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import orjson

from ..core.files import WorkspaceError

USER, ASSISTANT, TOOL = "user", "assistant", "tool"

# text Claude Code wraps around a prompt (a transcript marks its own records isMeta; a request to the
# model, which the proxy reads, holds them as blocks of the prompt's message)
_REMINDER = re.compile(r"<(system-reminder|local-command-caveat)>.*?</\1>", re.S)
_GENERATED = re.compile(r"<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|"
                        r"bash-input|bash-stdout|bash-stderr|user-memory-input)>")
_INTERRUPTED = re.compile(r"^\[Request interrupted by user[^\]]*\]\s*$")
_HOOK_FEEDBACK = re.compile(r"^\s*\w+ hook feedback:")  # a hook's reply handed to the agent ("Stop hook feedback: …")


class TranscriptError(WorkspaceError):
    """A transcript tether cannot read at all: where, and why."""

    def __init__(self, path: str, line: int, reason: str):
        super().__init__(f"{path}:{line}: {reason}")
        self.path, self.line, self.reason = path, line, reason


@dataclass
class Skipped:
    """A line (or a part of one) left out, and why; the rest of the transcript is read."""

    path: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}"

    def to_json(self) -> dict:
        return {"file": self.path, "line": self.line, "reason": self.reason}


@dataclass
class Said:
    """Text a person (``user``) or the agent (``assistant``) wrote."""

    who: str
    text: str
    at: str
    line: int  # 1-based line of the transcript (a VS Code session: the request's number)


@dataclass
class ToolCall:
    id: str
    name: str
    input: dict
    at: str
    line: int
    result: str | None = None  # the tool's output (text), once its result line is read
    error: bool = False  # the result is an error
    result_at: str = ""
    result_line: int = 0
    response: object = None  # ``toolUseResult`` of the result line, when Claude Code wrote one


@dataclass
class Transcript:
    path: str
    session: str
    lines: int  # lines read (empty lines not counted)
    events: list[Said | ToolCall] = field(default_factory=list)  # in order: what was said, tool calls
    skipped: list[Skipped] = field(default_factory=list)
    agent: str = "claude-code"  # or "vscode"

    @property
    def calls(self) -> dict[str, ToolCall]:
        return {e.id: e for e in self.events if isinstance(e, ToolCall)}


# Claude Code's record types that carry no conversation: passed over without a report
KNOWN_OTHER = frozenset(("summary", "system", "file-history-snapshot", "progress", "queue-operation", "attachment",
                         "custom-title", "tag", "agent-name", "pr-link", "last-prompt",
                         # Claude Code 2.1.328 (seen by tests/test_agents_real.py): the API requests it
                         # sent, the tools a session used, its mode, costs
                         "api-request", "api-request-blob", "api-request-shape", "tools-used", "mode", "atis-latch",
                         "cost-state"))


MAX_READ = 4 << 20  # bytes of a JSONL transcript read, from its end: parsed and distilled in about a second
MAX_DOCUMENT = 32 << 20  # bytes of a VS Code chat session, one JSON document read whole


def read_transcript(path: str | Path) -> Transcript:
    """Read a transcript of any supported agent (see the module's documentation). What
    cannot be read is in ``skipped``; only a file that cannot be read at all raises
    :class:`TranscriptError`."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a pipe or a device opens without waiting
    except FileNotFoundError:
        raise TranscriptError(str(p), 0, "no such transcript file") from None
    except OSError as e:
        raise TranscriptError(str(p), 0, f"cannot read the transcript ({e.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise TranscriptError(str(p), 0, "not a regular file (a transcript is one)")
        document = p.suffix == ".json"
        if document and st.st_size > MAX_DOCUMENT:
            raise TranscriptError(str(p), 0, f"{st.st_size:,} bytes: more than the {MAX_DOCUMENT:,} a chat session "
                                             f"is read whole within a hook's time")
        start = 0 if document else max(st.st_size - MAX_READ, 0)
        data = _read_range(fd, start, st.st_size)
        first = 1
        if start:  # from the first whole line on, numbered as in the file
            cut = data.find(b"\n") + 1
            data = data[cut:] if cut else b""
            first += _lines_before(fd, start) + (cut > 0)
    except OSError as e:
        raise TranscriptError(str(p), 0, f"cannot read the transcript ({e.strerror})") from None
    finally:
        os.close(fd)
    if document and data.lstrip()[:1] == b"{":
        return parse_vscode_session(data, str(p))
    tr = parse_transcript(data, str(p), first)
    if first > 1:
        tr.skipped.insert(0, Skipped(str(p), 1, f"lines 1-{first - 1} not read: the transcript is {st.st_size:,} bytes, "
                                                f"of which the last {MAX_READ:,} (the session's latest turns) are read"))
    return tr


def _read_range(fd: int, start: int, end: int) -> bytes:
    """Bytes ``start`` to ``end`` of the file (fewer if it shrank meanwhile)."""
    chunks = []
    while start < end:
        chunk = os.pread(fd, min(end - start, 1 << 22), start)
        if not chunk:
            break
        chunks.append(chunk)
        start += len(chunk)
    return b"".join(chunks)


def _lines_before(fd: int, end: int) -> int:
    """Newlines in the file's first ``end`` bytes, counted a piece at a time."""
    n = at = 0
    while at < end:
        chunk = os.pread(fd, min(end - at, 1 << 22), at)
        if not chunk:
            break
        n += chunk.count(b"\n")
        at += len(chunk)
    return n


class _Bad(Exception):
    """A line (or block) with another shape than the one documented."""


def parse_transcript(data: bytes, path: str = "<transcript>", first: int = 1) -> Transcript:
    """A Claude Code JSONL transcript (from its line ``first`` on): every readable line, the
    others in ``skipped``."""
    tr = Transcript(path, "", 0)
    calls: dict[str, ToolCall] = {}
    raw_lines = data.split(b"\n")
    complete = data.endswith(b"\n")
    for n, raw in enumerate(raw_lines, first):
        if not raw.strip():
            continue
        tr.lines += 1
        try:
            rec = orjson.loads(raw)
        except orjson.JSONDecodeError as e:
            if n == first + len(raw_lines) - 1 and not complete:
                tr.skipped.append(Skipped(path, n, "truncated: the last line ends before its JSON does "
                                                   "(the file was cut while being written)"))
            else:
                tr.skipped.append(Skipped(path, n, f"not valid JSON ({str(e).split(':')[0]})"))
            continue
        try:
            _read_line(tr, calls, rec, n)
        except _Bad as e:
            tr.skipped.append(Skipped(path, n, str(e)))
    tr.session = tr.session or Path(path).stem
    return tr


def _read_line(tr: Transcript, calls: dict[str, ToolCall], rec, n: int) -> None:
    if not isinstance(rec, dict):
        raise _Bad(f"expected a JSON object, found {type(rec).__name__}")
    kind = rec.get("type")
    if not isinstance(kind, str):
        raise _Bad("a transcript line has a string \"type\" (user, assistant, summary, …)")
    if kind not in (USER, ASSISTANT):
        if kind not in KNOWN_OTHER:
            raise _Bad(f"unknown record type {kind!r}")
        return
    if not tr.session and isinstance(rec.get("sessionId"), str):
        tr.session = rec["sessionId"]
    if rec.get("isSidechain") is True or rec.get("isMeta") is True or rec.get("isCompactSummary") is True:
        return
    at = rec.get("timestamp")
    if not isinstance(at, str) or not at:
        raise _Bad(f"a {kind} line needs a \"timestamp\" string (ISO-8601)")
    msg = rec.get("message")
    if not isinstance(msg, dict) or "content" not in msg:
        raise _Bad(f"a {kind} line needs a \"message\" object with \"content\"")
    content = msg["content"]
    if isinstance(content, str):
        (_user_text if kind == USER else _assistant_text)(tr.events, content, at, n)
        return
    if not isinstance(content, list):
        raise _Bad(f"\"message.content\" is a string or a list of blocks, not {type(content).__name__}")
    for i, block in enumerate(content):
        try:
            _read_block(tr, calls, kind, block, rec, at, n)
        except _Bad as e:
            tr.skipped.append(Skipped(tr.path, n, f"content block {i + 1}: {e}"))


def _read_block(tr: Transcript, calls: dict[str, ToolCall], kind: str, block, rec: dict, at: str, n: int) -> None:
    if not isinstance(block, dict) or not isinstance(block.get("type"), str):
        raise _Bad("not an object with a \"type\"")
    bt = block["type"]
    if bt == "text":
        if not isinstance(block.get("text"), str):
            raise _Bad("a text block needs a \"text\" string")
        (_user_text if kind == USER else _assistant_text)(tr.events, block["text"], at, n)
    elif bt == "tool_use":
        tid, name, inp = block.get("id"), block.get("name"), block.get("input")
        if not isinstance(tid, str) or not isinstance(name, str) or not isinstance(inp, dict):
            raise _Bad("a tool_use block needs \"id\" and \"name\" strings and an \"input\" object")
        calls[tid] = ToolCall(tid, name, inp, at, n)
        tr.events.append(calls[tid])
    elif bt == "tool_result":
        tid = block.get("tool_use_id")
        if not isinstance(tid, str):
            raise _Bad("a tool_result block needs a \"tool_use_id\" string")
        text = _result_text(block.get("content"))
        if text is None:
            raise _Bad("a tool_result's \"content\" is a string or a list of blocks")
        call = calls.get(tid)
        if call is None:
            return  # its call is in a part of the conversation that was compacted away
        call.result, call.error = text, block.get("is_error") is True
        call.result_at, call.result_line = at, n
        call.response = rec.get("toolUseResult")


# -- VS Code / GitHub Copilot chat sessions ------------------------------------------------------

def parse_vscode_session(data: bytes, path: str = "<session>") -> Transcript:
    """A VS Code chat session (``chatSessions/*.json``): every readable request, the others
    in ``skipped``."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise TranscriptError(path, e.lineno, f"not valid JSON ({str(e).split(':')[0]}): a VS Code chat session is one "
                                              f"JSON document") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("requests"), list):
        raise TranscriptError(path, 1, "a VS Code chat session is a JSON object with a \"requests\" list")
    sid = doc.get("sessionId")
    tr = Transcript(path, sid if isinstance(sid, str) and sid else Path(path).stem, 0, agent="vscode")
    for n, req in enumerate(doc["requests"], 1):
        tr.lines += 1
        try:
            _read_request(tr, req, n)
        except _Bad as e:
            tr.skipped.append(Skipped(path, n, f"request {n}: {e}"))
    return tr


def _iso(ms) -> str:
    if not isinstance(ms, (int, float)) or isinstance(ms, bool):
        raise _Bad("needs a \"timestamp\" (epoch milliseconds)")
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _read_request(tr: Transcript, req, n: int) -> None:
    if not isinstance(req, dict):
        raise _Bad(f"expected an object, found {type(req).__name__}")
    at = _iso(req.get("timestamp"))
    msg = req.get("message")
    if not isinstance(msg, dict) or not isinstance(msg.get("text"), str):
        raise _Bad("needs a \"message\" object with a \"text\" string")
    _said(tr.events, USER, msg["text"], at, n)
    inputs = _tool_inputs(req.get("result"))
    text: list[str] = []

    def flush():
        _assistant_text(tr.events, "".join(text), at, n)
        text.clear()

    for i, part in enumerate(req.get("response") or []):
        if not isinstance(part, dict):
            tr.skipped.append(Skipped(tr.path, n, f"request {n}: response part {i + 1} is not an object"))
            continue
        kind = part.get("kind")
        if kind is None and isinstance(part.get("value"), str):
            text.append(part["value"])
        elif kind == "markdownContent" and isinstance((part.get("content") or {}).get("value"), str):
            text.append(part["content"]["value"])
        elif kind == "inlineReference":
            ref = part.get("inlineReference") or {}
            name = part.get("name") or ref.get("name") or Path(str(ref.get("fsPath") or ref.get("path") or "")).name
            text.append(f"`{name}`" if name else "")
        elif kind == "toolInvocationSerialized" and isinstance(part.get("toolId"), str):
            flush()
            cid = part.get("toolCallId") if isinstance(part.get("toolCallId"), str) else f"{n}.{i + 1}"
            call = ToolCall(cid, part["toolId"], inputs.get(cid, {}), at, n, result="", result_at=at, result_line=n)
            tr.events.append(call)
        elif kind == "textEditGroup":
            uri = part.get("uri") or {}
            where = uri.get("fsPath") or uri.get("path") if isinstance(uri, dict) else None
            if not isinstance(where, str):
                tr.skipped.append(Skipped(tr.path, n, f"request {n}: response part {i + 1}: a textEditGroup "
                                                      f"needs a \"uri\" with \"fsPath\""))
                continue
            flush()
            new = "\n".join(e.get("text", "") for group in part.get("edits") or [] if isinstance(group, list)
                            for e in group if isinstance(e, dict) and isinstance(e.get("text"), str))
            tr.events.append(ToolCall(f"{n}.{i + 1}", "textEditGroup", {"filePath": where, "newString": new}, at, n,
                                      result="", result_at=at, result_line=n))
    flush()


def _tool_inputs(result) -> dict[str, dict]:
    """Tool call inputs by call id, from ``result.metadata.toolCallRounds``."""
    out: dict[str, dict] = {}
    rounds = ((result or {}).get("metadata") or {}).get("toolCallRounds") if isinstance(result, dict) else None
    for r in rounds if isinstance(rounds, list) else []:
        for c in (r.get("toolCalls") or []) if isinstance(r, dict) else []:
            if not isinstance(c, dict) or not isinstance(c.get("id"), str):
                continue
            args = c.get("arguments")
            try:
                args = orjson.loads(args) if isinstance(args, str) else args
            except orjson.JSONDecodeError:
                args = None
            if isinstance(args, dict):
                out[c["id"]] = args
    return out


def _said(events: list, who: str, text: str, at: str, line: int) -> None:
    if text.strip():
        events.append(Said(who, text, at, line))


def _assistant_text(events: list, text: str, at: str, line: int) -> None:
    _said(events, ASSISTANT, text, at, line)


def _user_text(events: list, text: str, at: str, line: int) -> None:
    """A person's prompt, without the text Claude Code wrote around it."""
    if _GENERATED.search(text) or _INTERRUPTED.match(text.strip()) or _HOOK_FEEDBACK.match(text):
        return
    text = _REMINDER.sub("", text)
    _said(events, USER, text, at, line)


def _result_text(content) -> str | None:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for b in content:
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str):
                parts.append(b["text"])
            elif not isinstance(b, dict):
                return None
        return "\n".join(parts)
    return None
