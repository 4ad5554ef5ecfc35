"""Claude Code session transcripts (the JSONL file at a hook's ``transcript_path``).

Claude Code publishes no schema for this file; tether reads only the fields below, which
every version since 1.0 writes, and refuses — with the file, the line and the reason — a
line where one of them has another shape. Everything else is skipped on purpose, so a
new kind of line or content block in a newer Claude Code does not stop distillation.

One JSON object per line (empty lines are ignored):

- ``type``: ``"user"`` or ``"assistant"`` are read; every other type (``summary``,
  ``system``, ``file-history-snapshot``, ``progress``, …) is skipped.
- ``timestamp``: ISO-8601 time of the line (required on user/assistant lines).
- ``sessionId``: the session (optional; else the file name without ``.jsonl``).
- ``isSidechain`` (a sub-agent's conversation), ``isMeta`` (text Claude Code adds, such
  as command caveats), ``isCompactSummary`` (the summary written at a compaction): when
  true the line is skipped.
- ``message.content``: a string (a prompt) or a list of blocks:
  - ``{"type": "text", "text"}``: what the person or the agent said;
  - ``{"type": "tool_use", "id", "name", "input": {…}}``: a tool call (assistant lines);
  - ``{"type": "tool_result", "tool_use_id", "content": str | [{"type": "text", "text"}],
    "is_error"}``: its result (user lines);
  - any other block (``thinking``, ``image``, …) is skipped.

User text that Claude Code writes itself — ``<command-name>``/``<local-command-stdout>``
blocks, ``<system-reminder>`` sections, "[Request interrupted by user]" — is not a prompt
and is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from ..core.files import WorkspaceError

USER, ASSISTANT, TOOL = "user", "assistant", "tool"

_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>", re.S)
_GENERATED = re.compile(r"<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|"
                        r"bash-input|bash-stdout|bash-stderr|user-memory-input)>")
_INTERRUPTED = re.compile(r"^\[Request interrupted by user[^\]]*\]\s*$")


class TranscriptError(WorkspaceError):
    """A transcript line tether cannot read: where, and why."""

    def __init__(self, path: str, line: int, reason: str):
        super().__init__(f"{path}:{line}: {reason}")
        self.path, self.line, self.reason = path, line, reason


@dataclass
class Said:
    """Text a person (``user``) or the agent (``assistant``) wrote."""

    who: str
    text: str
    at: str
    line: int  # 1-based line of the transcript


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

    @property
    def calls(self) -> dict[str, ToolCall]:
        return {e.id: e for e in self.events if isinstance(e, ToolCall)}


def read_transcript(path: str | Path) -> Transcript:
    """Read a Claude Code JSONL transcript (see the module's documentation for the fields),
    or raise :class:`TranscriptError` naming the file, the line and the reason."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise TranscriptError(str(p), 0, "no such transcript file") from None
    except OSError as e:
        raise TranscriptError(str(p), 0, f"cannot read the transcript ({e.strerror})") from None
    return parse_transcript(data, str(p))


def parse_transcript(data: bytes, path: str = "<transcript>") -> Transcript:
    session = ""
    events: list[Said | ToolCall] = []
    calls: dict[str, ToolCall] = {}
    raw_lines = data.split(b"\n")
    complete = data.endswith(b"\n")
    read = 0  # lines with something on them
    for n, raw in enumerate(raw_lines, 1):
        if not raw.strip():
            continue
        read += 1
        try:
            rec = orjson.loads(raw)
        except orjson.JSONDecodeError as e:
            if n == len(raw_lines) and not complete:
                raise TranscriptError(path, n, "truncated: the last line ends before its JSON does "
                                               "(the file was cut while being written)") from None
            raise TranscriptError(path, n, f"not valid JSON ({str(e).split(':')[0]})") from None
        if not isinstance(rec, dict):
            raise TranscriptError(path, n, f"expected a JSON object, found {type(rec).__name__}")
        kind = rec.get("type")
        if not isinstance(kind, str):
            raise TranscriptError(path, n, "a transcript line has a string \"type\" (user, assistant, summary, …)")
        if kind not in (USER, ASSISTANT):
            continue
        if not session and isinstance(rec.get("sessionId"), str):
            session = rec["sessionId"]
        if rec.get("isSidechain") is True or rec.get("isMeta") is True or rec.get("isCompactSummary") is True:
            continue
        at = rec.get("timestamp")
        if not isinstance(at, str) or not at:
            raise TranscriptError(path, n, f"a {kind} line needs a \"timestamp\" string (ISO-8601)")
        msg = rec.get("message")
        if not isinstance(msg, dict) or "content" not in msg:
            raise TranscriptError(path, n, f"a {kind} line needs a \"message\" object with \"content\"")
        content = msg["content"]
        if isinstance(content, str):
            if kind == USER:
                _user_text(events, content, at, n)
            else:
                _said(events, ASSISTANT, content, at, n)
            continue
        if not isinstance(content, list):
            raise TranscriptError(path, n, f"\"message.content\" is a string or a list of blocks, "
                                           f"not {type(content).__name__}")
        for i, block in enumerate(content):
            where = f"content block {i + 1}"
            if not isinstance(block, dict) or not isinstance(block.get("type"), str):
                raise TranscriptError(path, n, f"{where} is not an object with a \"type\"")
            bt = block["type"]
            if bt == "text":
                if not isinstance(block.get("text"), str):
                    raise TranscriptError(path, n, f"{where}: a text block needs a \"text\" string")
                if kind == USER:
                    _user_text(events, block["text"], at, n)
                else:
                    _said(events, ASSISTANT, block["text"], at, n)
            elif bt == "tool_use":
                tid, name, inp = block.get("id"), block.get("name"), block.get("input")
                if not isinstance(tid, str) or not isinstance(name, str) or not isinstance(inp, dict):
                    raise TranscriptError(path, n, f"{where}: a tool_use block needs \"id\" and \"name\" strings "
                                                   f"and an \"input\" object")
                call = ToolCall(tid, name, inp, at, n)
                calls[tid] = call
                events.append(call)
            elif bt == "tool_result":
                tid = block.get("tool_use_id")
                if not isinstance(tid, str):
                    raise TranscriptError(path, n, f"{where}: a tool_result block needs a \"tool_use_id\" string")
                text = _result_text(block.get("content"))
                if text is None:
                    raise TranscriptError(path, n, f"{where}: a tool_result's \"content\" is a string or a list "
                                                   f"of blocks")
                call = calls.get(tid)
                if call is None:
                    continue  # its call is in a part of the conversation that was compacted away
                call.result, call.error = text, block.get("is_error") is True
                call.result_at, call.result_line = at, n
                call.response = rec.get("toolUseResult")
    return Transcript(path, session or Path(path).stem, read, events)


def _said(events: list, who: str, text: str, at: str, line: int) -> None:
    if text.strip():
        events.append(Said(who, text, at, line))


def _user_text(events: list, text: str, at: str, line: int) -> None:
    """A person's prompt, without the text Claude Code wrote around it."""
    if _GENERATED.search(text) or _INTERRUPTED.match(text.strip()):
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
