"""``tether hook claude-code`` and ``tether hook copilot``: answer one agent hook event (JSON
on standard input) with the notes for what the agent is about to touch.

- ``SessionStart``: the repository-wide notes and the most recent decisions
  (``repo_context``). After a compaction (``source: "compact"``) also the notes of the files
  this session touched, since the conversation that held them is gone.
- ``PreToolUse`` of a tool that reads or edits a file: the notes at the touched place
  (``context_for``), each note at most once per file per session unless it changed.
- ``PostToolUse`` of a tool that edits a file: what ``tether check`` finds in it now.
- ``PreCompact``: distil the session, and forget what it was given, so it is given again
  when touched.
- ``Stop`` (when ``.tether/agents.toml`` says ``ask_at_stop = true``, which ``tether init
  --agents`` writes): once the session changed code and the person said more than bare
  commands (:mod:`tether.capture.gate`), or it brought candidates or leads not asked about
  yet, block the stop once (``{"decision": "block", "reason"}``) with a request to write the
  notes itself — the CLI and MCP forms side by side, tether's candidates and leads after as
  hints (:func:`stop_request`). Never while the agent is already answering a stop hook
  (``stop_hook_active``), never twice for one candidate.
  Claude Code's PreCompact cannot carry such a reply, so the request for what the session
  found before a compaction comes with the ``SessionStart`` after it.

It also keeps the session's observation log (:mod:`tether.core.capture`): the prompts
(``UserPromptSubmit``), the files read and edited — with the symbols each edit touched —
and the commands run (``PostToolUse``), the tool failures with their error text
(``PostToolUseFailure``); and at ``Stop``/``SessionEnd``/``PreCompact`` it distils the
session into candidate notes for review (:func:`tether.capture.distill.distill`, within
``DISTILL_BUDGET`` seconds). None of this prints anything.

Both agents answer in the same shape: ``{"hookSpecificOutput": {"hookEventName",
"additionalContext"}}`` (Claude Code's hook contract, which VS Code's agent hooks adopt) —
at ``Stop``, which takes no ``hookSpecificOutput``, ``{"decision": "block", "reason"}``. Both
commands accept both vocabularies (``session_id``/``sessionId``, Claude's ``Read``/``Edit``…
and VS Code's ``read_file``/``replace_string_in_file``… tools): VS Code also runs the
Claude-format hooks of ``.claude/settings.json``, with its own tool names and camelCase
inputs, and applies no matchers. The per-session state is shared, so when both commands are
configured only the first to answer an event hands anything over.

Nothing here may break an agent's session: any failure prints nothing, exits 0 and is
written to ``.tether/cache/hooks.log``. The notes are handed over as plain facts; the one
request is the Stop's.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlparse

from ..capture import observations as K
from ..context.ranking import DEFAULT_BUDGET, Context, Item, estimate_tokens, note_markdown, ranked_at, repo_context
from ..core.files import TETHER_DIR
from ..core.records import dataclass, field
from ..core.store import json_text
from ..core.text import digest
from ..core.workspace import Workspace, WorkspaceError

AGENTS = ("claude-code", "copilot")
MAX_CHARS = 9_500  # Claude Code moves additionalContext over 10,000 characters into a file
ALL = 1 << 30  # a line (or budget) nothing reaches
MAX_FILES = 6  # files handed over for one event (a multi-file edit, or after a compaction)
MIN_SHARE = 150  # tokens: below this a file's share of the budget is not worth an answer
KEEP_FILES = 50  # touched files remembered per session
STALE = 14 * 86400  # seconds after which a session's state is dropped
MAX_FINDINGS = 30
DISTILL_BUDGET = 5.0  # seconds of the hook's 15 for distilling a session at Stop / SessionEnd
SETTINGS = "agents.toml"  # in .tether/: ask_at_stop = true | false
MAX_ASKED = 8  # candidates listed in one request at Stop
MAX_DEPTH = 64  # levels of an event kept (tether reads three or four)


# -- what a tool touches -------------------------------------------------------------------

@dataclass
class Touch:
    """A file a tool call reads or edits, and where in it."""

    path: str  # as the tool names it (absolute, relative to cwd, or a file:// URI)
    edit: bool = False  # the tool changes (or creates) the file
    olds: list[str] = field(default_factory=list)  # text an edit replaces: its lines are the place
    lines: tuple[int, int] | None = None  # 0-based first and last line of a read window
    news: list[str] = field(default_factory=list)  # what each of ``olds`` becomes, and a written file's
    written: str | None = None  # whole text: what the file will be (a server parses it ahead)


def _str(v) -> str:
    return v if isinstance(v, str) else ""


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _window(offset, limit) -> tuple[int, int] | None:
    """A read of ``limit`` lines from 1-based line ``offset``, as 0-based first/last lines."""
    if not _num(offset) and not _num(limit):
        return None
    first = max(int(offset) if _num(offset) else 1, 1) - 1
    return first, first + int(limit) - 1 if _num(limit) and limit >= 1 else ALL


def _between(start, end) -> tuple[int, int] | None:
    """1-based inclusive ``start``..``end`` (VS Code's first read_file parameters)."""
    if not _num(start):
        return None
    first = max(int(start), 1) - 1
    last = max(int(end), 1) - 1 if _num(end) else ALL
    return min(first, last), max(first, last)


def _one(path, **kw) -> list[Touch]:
    return [Touch(path, **kw)] if _str(path) else []


def _claude_read(ti: dict) -> list[Touch]:
    return _one(ti.get("file_path"), lines=_window(ti.get("offset"), ti.get("limit")))


def _claude_multi(ti: dict) -> list[Touch]:
    edits = [e for e in ti.get("edits") if isinstance(e, dict)] if isinstance(ti.get("edits"), list) else []
    return _one(ti.get("file_path"), edit=True, olds=[_str(e.get("old_string")) for e in edits],
                news=[_str(e.get("new_string")) for e in edits])


CLAUDE_TOOLS: dict[str, Callable[[dict], list[Touch]]] = {
    "Read": _claude_read,
    "Edit": lambda ti: _one(ti.get("file_path"), edit=True, olds=[_str(ti.get("old_string"))],
                            news=[_str(ti.get("new_string"))]),
    "MultiEdit": _claude_multi,
    "Write": lambda ti: _one(ti.get("file_path"), edit=True, written=_str(ti.get("content")) or None),
    "NotebookEdit": lambda ti: _one(ti.get("notebook_path"), edit=True),
}


def _vscode_read(ti: dict) -> list[Touch]:
    lines = _window(ti.get("offset"), ti.get("limit")) or _between(ti.get("startLine"), ti.get("endLine"))
    return _one(ti.get("filePath"), lines=lines)


def _vscode_multi(ti: dict) -> list[Touch]:
    by_path: dict[str, Touch] = {}
    for r in ti.get("replacements") if isinstance(ti.get("replacements"), list) else []:
        if isinstance(r, dict) and _str(r.get("filePath")):
            t = by_path.setdefault(r["filePath"], Touch(r["filePath"], edit=True))
            t.olds.append(_str(r.get("oldString")))
            t.news.append(_str(r.get("newString")))
    return list(by_path.values())


_PATCH_FILE = re.compile(r"^\*\*\* (?:(?:Add|Update|Delete) File|Move to): *(.+?)\s*$", re.MULTILINE)


def _vscode_patch(ti: dict) -> list[Touch]:
    """apply_patch names its files in the patch text: ``*** Update File: PATH`` (Add, Delete, Move to)."""
    paths = dict.fromkeys(_PATCH_FILE.findall(_str(ti.get("input")) or _str(ti.get("patch"))))
    return [Touch(p, edit=True) for p in paths]


def _vscode_files(ti: dict) -> list[Touch]:
    files = ti.get("files") if isinstance(ti.get("files"), list) else []
    paths = [f if isinstance(f, str) else _str(f.get("filePath")) if isinstance(f, dict) else "" for f in files]
    return [Touch(p, edit=True) for p in dict.fromkeys(p for p in paths if p)]


# VS Code reports a tool by its name or its contributed id (copilot_…); inputs are camelCase
VSCODE_TOOLS: dict[str, Callable[[dict], list[Touch]]] = {name: fn for names, fn in (
    (("read_file", "copilot_readFile"), _vscode_read),
    (("replace_string_in_file", "copilot_replaceString"),
     lambda ti: _one(ti.get("filePath"), edit=True, olds=[_str(ti.get("oldString"))],
                     news=[_str(ti.get("newString"))])),
    (("multi_replace_string_in_file", "copilot_multiReplaceString"), _vscode_multi),
    (("create_file", "copilot_createFile", "insert_edit_into_file", "copilot_insertEdit",
      "edit_notebook_file", "copilot_editNotebook"), lambda ti: _one(ti.get("filePath"), edit=True)),
    (("apply_patch", "copilot_applyPatch"), _vscode_patch),
    (("editFiles", "edit_files", "copilot_editFiles"), _vscode_files),
) for name in names}

TOOLS = {**CLAUDE_TOOLS, **VSCODE_TOOLS}


def touches(tool: str, tool_input) -> list[Touch]:
    """The files a tool call reads or edits (empty for any other tool)."""
    fn = TOOLS.get(tool)
    return fn(tool_input) if fn is not None and isinstance(tool_input, dict) else []


# -- the place in a file ---------------------------------------------------------------------

lines_of = K.lines_of  # the 0-based first/last lines of each replaced text in the file as it is now


def ranked_for(ws: Workspace, rel: str, touch: Touch, text: str | None = None) -> tuple[list[Item], int | None]:
    """Every note that applies where ``touch`` reads or edits ``rel``, best first, and the
    line the answer is about (None: the file, or several lines).

    A single line is asked of the core as is. For a range (a read window, an edit of several
    lines, several edits) the core is asked at its first line — that brings the enclosing
    definitions and what that code calls — and for the whole file, keeping the notes anchored
    on code inside the range: one ``context_for`` per line would repeat the same call graph
    work for every line, and the first line alone would miss every note further down.
    ``text``: the file's, when read already."""
    ranges = None
    if touch.olds:
        if text is None:
            with contextlib.suppress(WorkspaceError):
                text = ws.read_source(rel)
        ranges = lines_of(text, touch.olds) if text is not None else None
    elif touch.lines is not None:
        ranges = [touch.lines]
    if not ranges:
        return ranked_at(ws, rel, None, text), None
    first = ranges[0][0]
    at_first = ranked_at(ws, rel, first, text)
    if len(ranges) == 1 and ranges[0][1] == first:
        return at_first, first
    have = {i.note.id for i in at_first}
    inside = [i for i in ranked_at(ws, rel, None, text)
              if i.note.id not in have and _overlaps(i, ranges)]
    return sorted(at_first + inside, key=lambda i: (i.note.status != "active", i.tier)), None


def _overlaps(item: Item, ranges: list[tuple[int, int]]) -> bool:
    return any(loc.range is not None and loc.range.sl <= hi and lo <= loc.range.el
               for loc in item.located for lo, hi in ranges)


# -- once per file per session (LMDB "state") ------------------------------------------------

def _key(sid: str, *parts: str) -> str:
    return "\0".join(("hook", sid, *parts))


def fingerprint(item: Item) -> str:
    """Changes when the note does (text, status, rejected options …), not with the line asked."""
    return digest("\n".join(note_markdown(item.note)))


def hand_over(ws: Workspace, sid: str, rel: str, line: int | None, ranked: list[Item], budget: int) -> str:
    """The Markdown of the notes in ``ranked`` this session has not been given yet for
    ``rel`` ("" = the repository as a whole; what that was given counts for every file),
    fitted to ``budget``; they are remembered as given. Checked and remembered in one write
    transaction, so two hooks answering the same event hand a note over once."""
    s = ws.store
    prints = {i.note.id: fingerprint(i) for i in ranked}
    handles = ws.repo.short_ids_of([i.note.id for i in ranked])  # read before the write transaction

    def txn_fn(txn) -> str:
        _remember_touch(s, txn, sid, rel)
        seen = (s.get(txn, "state", _key(sid, "seen", rel)) or {}) if sid else {}
        wide = (s.get(txn, "state", _key(sid, "seen", "")) or {}) if sid and rel else {}
        out = give(rel, line, ranked, prints, handles, seen, wide, budget)
        if out and sid:
            s.put(txn, "state", _key(sid, "seen", rel), seen)
        return out
    return s.write(txn_fn)


def fit_fresh(rel: str, line: int | None, fresh: list[Item], budget: int, handles: dict[str, str]
              ) -> tuple[str, list[str]]:
    """The Markdown of the best of ``fresh`` that fit ``budget``, and the ids it gives: the notes
    told in full (one only named comes again at the next touch, in full if it fits there); when
    none is, what was named or left out, once."""
    ctx = Context(rel, line, [], [], budget, handle=lambda nid: handles.get(nid, nid))
    ctx.fit(fresh)
    given = [i for i in ctx.items if not i.brief] or ctx.items or ctx.left_out
    return ctx.to_markdown(), [i.note.id for i in given]


def give(rel: str, line: int | None, ranked: list[Item], prints: dict[str, str], handles: dict[str, str],
         seen: dict, wide: dict, budget: int, fit=fit_fresh) -> str:
    """What :func:`hand_over` hands over, given what the session was given (``seen`` for
    ``rel``, updated here; ``wide`` for the repository); ``fit``: :func:`fit_fresh`, or a
    cache of it (the proxy's)."""
    fresh = [i for i in ranked if prints[i.note.id] not in (seen.get(i.note.id), wide.get(i.note.id))]
    if not fresh:
        return ""
    new_ids = {i.note.id for i in fresh}
    again = [i for i in ranked if i.note.id not in new_ids and seen.get(i.note.id) == prints[i.note.id]] if rel else []
    also = _given_earlier(again, handles, budget // 2)
    out, given = fit(rel, line, fresh, budget - estimate_tokens(also), handles)  # the answer, that line included, within the budget
    seen.update({nid: prints[nid] for nid in given})
    return out + also


def _given_earlier(again: list[Item], handles: dict[str, str], room: int) -> str:
    """The line naming the notes this session was given earlier that apply here too: as many
    (eight at most) as fit ``room`` tokens, the rest counted."""
    for k in range(min(8, len(again)), 0, -1):
        text = ("\nAlso applies here, given earlier in this session: " +
                "; ".join(f"{i.note.kind} \"{i.note.title}\" ({handles[i.note.id]})" for i in again[:k]) +
                (f" and {len(again) - k} more" if len(again) > k else "") + ".\n")
        if estimate_tokens(text) <= room:
            return text
    return f"\nAlso applies here: {len(again)} given earlier in this session.\n" if again else ""


def _remember_touch(s, txn, sid: str, rel: str) -> None:
    if not sid:
        return
    rec = s.get(txn, "state", _key(sid, "session")) or {"files": []}
    if rel:
        rec["files"] = ([f for f in rec["files"] if f != rel] + [rel])[-KEEP_FILES:]
    rec["at"] = int(time.time())
    s.put(txn, "state", _key(sid, "session"), rec)


def forget_given(ws: Workspace, sid: str) -> None:
    """The conversation that held this session's notes is gone (compaction, /clear)."""
    s = ws.store

    def txn_fn(txn):
        for k in s.keys(txn, "state", _key(sid, "seen", "")):
            s.delete(txn, "state", k)
    if sid:
        s.write(txn_fn)


def _first_answer(ws: Workspace, sid: str, event: str, tool_use_id: str) -> bool:
    """True for the first hook to answer this tool call (both commands may be configured)."""
    if not sid or not tool_use_id:
        return True
    s, key = ws.store, _key(sid, "answered", event, tool_use_id)

    def txn_fn(txn) -> bool:
        if s.get(txn, "state", key) is not None:
            return False
        s.put(txn, "state", key, 1)
        return True
    return s.write(txn_fn)


def _drop_stale_sessions(ws: Workspace) -> None:
    s, cutoff = ws.store, time.time() - STALE

    def txn_fn(txn):
        for k, rec in list(s.items(txn, "state", "hook\0")):
            if k.endswith("\0session") and isinstance(rec, dict) and rec.get("at", 0) < cutoff:
                for kk in s.keys(txn, "state", k[: -len("session")]):
                    s.delete(txn, "state", kk)
    s.write(txn_fn)


# -- a compaction in agents that start no session after it (Cursor, Gemini CLI) ---------------

def compacted(ws: Workspace, sid: str) -> str:
    """The conversation was compacted: forget what it was given, and remember to give what
    ``SessionStart`` gives after a compaction at this session's next answer."""
    if sid:
        forget_given(ws, sid)
        ws.store.write(lambda txn: ws.store.put(txn, "state", _key(sid, "compacted"), int(time.time())))
    return ""


def after_compaction(ws: Workspace, sid: str) -> str:
    """What ``SessionStart`` after a compaction gives, once, when this session was compacted
    since its last answer ("" otherwise)."""
    s, key = ws.store, _key(sid, "compacted")

    def txn_fn(txn) -> bool:
        if s.get(txn, "state", key) is None:
            return False
        s.delete(txn, "state", key)
        return True
    return session_start(ws, sid, "compact") if sid and s.write(txn_fn) else ""


# -- events ----------------------------------------------------------------------------------

def session_start(ws: Workspace, sid: str, source: str, budget: int = DEFAULT_BUDGET) -> str:
    """The repository-wide notes and recent decisions; after a compaction also the notes of
    the files this session touched (most recent first), within one budget."""
    _drop_stale_sessions(ws)
    if source in ("compact", "clear"):
        forget_given(ws, sid)
    files = _touched(ws, sid) if source == "compact" else []
    parts = [hand_over(ws, sid, "", None, repo_context(ws, ALL).items, budget // 2 if files else budget)]
    left = budget - estimate_tokens(parts[0])  # the notes' budget: the request below is not a note
    if source == "compact":  # what the session found before the compaction, asked here (PreCompact cannot)
        parts.insert(0, stop_request(ws, sid, _edited(ws, sid)))
    for n, rel in enumerate(files):
        share = left // (len(files) - n)
        if share < MIN_SHARE:
            break
        with contextlib.suppress(WorkspaceError):
            if ws.abs(rel).exists():
                parts.append(hand_over(ws, sid, rel, None, ranked_at(ws, rel), share))
                left -= estimate_tokens(parts[-1]) + 1  # (and the newline joining it)
    return "\n".join(p for p in parts if p)


def _touched(ws: Workspace, sid: str) -> list[str]:
    if not sid:
        return []
    with ws.store.read() as txn:
        rec = ws.store.get(txn, "state", _key(sid, "session")) or {}
    return list(reversed(rec.get("files", [])))[:MAX_FILES]


def before_tool(ws: Workspace, sid: str, cwd: Path, found: list[Touch], budget: int = DEFAULT_BUDGET) -> str:
    """The notes where each touched file is read or edited, the budget shared among them."""
    places = places_of(ws, cwd, found)
    parts = []
    for rel, t in places:
        text = None
        if t.edit and ws.deferred is not None:  # a server: the check after the edit finds its parse made, from
            with contextlib.suppress(WorkspaceError):  # the file as read now (once this answer is out the tool
                text = ws.read_source(rel)  # writes it, and a file being written may be read empty)
        ranked, line = ranked_for(ws, rel, t, text)
        parts.append(hand_over(ws, sid, rel, line, ranked, budget // len(places)))
        if text is not None:
            from ..checks.findings import parse_ahead
            edits = list(zip(t.olds, t.news)) if len(t.news) == len(t.olds) else []  # (the proxy's touches: olds only)
            ws.later(parse_ahead, ws, rel, text, edits, t.written)
    return "\n".join(p for p in parts if p)


def places_of(ws: Workspace, cwd: Path, found: list[Touch]) -> list[tuple[str, Touch]]:
    """The touched files that may get notes, workspace-relative, each with its touch."""
    places = []
    for t in found[:MAX_FILES]:
        rel = _rel(ws, t.path, cwd)
        if rel is None or not (t.edit or ws.abs(rel).is_file()):
            continue  # outside the workspace, or a read of nothing (a file that will be created has pattern notes)
        places.append((rel, t))
    return places


def after_edit(ws: Workspace, cwd: Path, found: list[Touch]) -> str:
    """What ``tether check`` finds in the edited files now, one finding a line."""
    rels = list(dict.fromkeys(r for r in (_rel(ws, t.path, cwd) for t in found if t.edit) if r))
    if not rels:
        return ""
    from ..checks.findings import check  # here, as capture's modules below: a read imports neither
    from ..context.calls import edited
    findings = [f for f in check(ws, rels, note_files=any(r.startswith(TETHER_DIR + "/") for r in rels))
                if f.path in rels]
    edited(ws, rels)  # what they define now, from the check's parse: read before a name is called unique
    if not findings:
        return ""
    head = (f"tether check after this edit: {len(findings)} finding{'s' if len(findings) > 1 else ''} "
            f"in {', '.join(dict.fromkeys(f.path for f in findings))}.")
    lines = [f.to_text() for f in findings[:MAX_FINDINGS]]
    if len(findings) > MAX_FINDINGS:
        lines.append(f"… and {len(findings) - MAX_FINDINGS} more (`tether check PATH` lists them all).")
    if any(f.note_id for f in findings):
        lines.append("`tether show ID` prints a note in full.")
    return "\n".join([head, *lines]) + "\n"


def answer(ws: Workspace, event: dict, can_block: bool = True) -> dict | None:
    """The hook's answer to one event, or None to say nothing. ``can_block``: the agent
    takes Claude Code's Stop reply (``{"decision": "block", "reason"}``)."""
    name = _field(event, "hook_event_name", "hookEventName")
    sid = _field(event, "session_id", "sessionId").replace("\0", "")
    cwd = Path(_field(event, "cwd") or os.getcwd())
    text = ""
    found = touches(_field(event, "tool_name"), event.get("tool_input")) if name in ("PreToolUse", "PostToolUse") \
        else []
    if Workspace.resident.get(ws.root) is not ws:  # alone: how much of the notes folder this event reads
        ws.repo.trust_folder = _about_code(ws, found, cwd)
        if name == "UserPromptSubmit":  # a person's edits between turns, of note files and sources: seen in the turn
            ws.repo.refresh()
            from ..context.calls import recheck
            _safely(ws, event, recheck, ws)
    if name == "SessionStart":
        text = session_start(ws, sid, _field(event, "source") or "startup")
    elif name == "PreCompact":
        _safely(ws, event, session_end, ws, sid, event)
        forget_given(ws, sid)
    elif name == "PreToolUse":
        text = before_tool(ws, sid, cwd, found)
    elif name == "PostToolUse":
        if any(t.edit for t in found) and _first_answer(ws, sid, name, _field(event, "tool_use_id")):
            text = after_edit(ws, cwd, found)
        ws.later(_safely, ws, event, observe_tool, ws, sid, cwd, event, found)  # the log: no part of the answer
    elif name == "UserPromptSubmit":
        _safely(ws, event, K.observe, ws, sid, "prompt", transcript=_transcript(event),
                text=_HOOK_CONTEXT.sub("", _field(event, "prompt")))
    elif name == "PostToolUseFailure":
        _safely(ws, event, observe_failure, ws, sid, cwd, event)
    elif name in ("Stop", "SessionEnd"):
        done = _safely(ws, event, session_end, ws, sid, event)
        if name == "Stop" and can_block and event.get("stop_hook_active") is not True and ask_at_stop(ws, event):
            text = stop_request(ws, sid, done.edited if done else _edited(ws, sid))
            # Stop takes no hookSpecificOutput: blocking it hands the reason to the agent as its next step
            return {"decision": "block", "reason": _cap(text)} if text else None
    if not text.strip():
        return None
    return {"hookSpecificOutput": {"hookEventName": name, "additionalContext": _cap(text)}}


def _about_code(ws: Workspace, found: list[Touch], cwd: Path) -> bool:
    """``found``: a tool's read or edit of source files; the notes of those files are what the
    event reads, so the notes folder's listing may be trusted (``NoteRepository.trust_folder``).
    Not a command (it may write any note file in place), nor a tool touching the notes folder."""
    rels = [_rel(ws, t.path, cwd) for t in found]
    return bool(rels) and all(r is not None and not r.startswith(TETHER_DIR + "/") for r in rels)


# -- the observation log and distillation ------------------------------------------------------

def _transcript(event: dict) -> str:
    return _field(event, "transcript_path", "transcriptPath")


def _safely(ws: Workspace, event: dict, fn, *args, **kw):
    """Record or distil without ever costing the event its answer: a failure is logged
    (and None returned)."""
    try:
        return fn(*args, **kw)
    except Exception:  # noqa: BLE001 — the log and the queue are extras, never the agent's problem
        _log(ws, "capture", event, _traceback())
        return None


_REPLACING = ("Edit", "MultiEdit", "replace_string_in_file", "copilot_replaceString", "multi_replace_string_in_file",
              "copilot_multiReplaceString")


def _replacements(tool: str, ti: dict) -> list[tuple[str, str]]:
    """The (old, new) strings of an edit that replaces text (empty for other tools)."""
    return K.replacements(ti) if tool in _REPLACING else []


def edit_ranges(text: str, tool: str, ti: dict, response) -> list[tuple[int, int]]:
    """The lines (0-based, in the file as it is now) an edit changed: where its new strings
    are (without the lines they share with the old ones); else the lines Claude Code's
    ``structuredPatch`` adds or changes; else — a file written whole — every line."""
    found = K.edit_lines(text, _replacements(tool, ti))
    if found:
        return found
    if isinstance(response, dict) and response.get("structuredPatch"):
        return K.patch_lines(response["structuredPatch"])
    if tool in ("Write", "create_file", "copilot_createFile"):
        return [(0, text.count("\n"))]
    return []


def observe_tool(ws: Workspace, sid: str, cwd: Path, event: dict, found: list[Touch]) -> None:
    """A successful tool call in the log: each file read (with the read window) or edited
    (with the symbols the edit touched, found in the file as it is now), or the command run."""
    tid = _field(event, "tool_use_id")
    if not sid or not _first_answer(ws, sid, "observe", tid):
        return
    tool, ti = _field(event, "tool_name"), event.get("tool_input")
    ti = ti if isinstance(ti, dict) else {}
    transcript = _transcript(event)
    for t in found[:MAX_FILES]:
        rel = _rel(ws, t.path, cwd)
        if rel is None:
            continue
        if not t.edit:
            K.observe(ws, sid, "read", transcript=transcript, tool=tool, tool_use_id=tid, path=rel,
                      lines=list(t.lines) if t.lines else None)
            continue
        symbols, ranges = [], []
        with contextlib.suppress(WorkspaceError):
            text = ws.read_source(rel)
            ranges = edit_ranges(text, tool, ti, event.get("tool_response"))
            symbols = K.edited_symbols(text, rel, ranges)
        K.observe(ws, sid, "edit", transcript=transcript, tool=tool, tool_use_id=tid, path=rel, symbols=symbols,
                  lines=[list(r) for r in ranges])
    command = ti.get("command")
    if not found and isinstance(command, str) and command.strip():
        K.observe(ws, sid, "command", transcript=transcript, tool=tool, tool_use_id=tid, command=command)


def observe_failure(ws: Workspace, sid: str, cwd: Path, event: dict) -> None:
    """A failed tool call in the log, with its error text (an interrupt is no failure)."""
    tid = _field(event, "tool_use_id")
    if not sid or event.get("is_interrupt") is True or not _first_answer(ws, sid, "observe", tid):
        return
    tool, ti = _field(event, "tool_name"), event.get("tool_input")
    ti = ti if isinstance(ti, dict) else {}
    error = event.get("error")
    fields = {"tool": tool, "tool_use_id": tid, "error": error if isinstance(error, str) else json_text(error)}
    if isinstance(ti.get("command"), str):
        fields["command"] = ti["command"]
    paths = [r for r in (_rel(ws, t.path, cwd) for t in touches(tool, ti)) if r]
    if paths:
        fields["path"] = paths[0]
    K.observe(ws, sid, "failure", transcript=_transcript(event), **fields)


def session_end(ws: Workspace, sid: str, event: dict, budget: float = DISTILL_BUDGET):
    """Distil the session (its transcript, else its observation log) into the review queue;
    returns what was distilled (None: nothing to distil)."""
    from ..capture.distill import distill
    transcript = _transcript(event)
    if transcript and Path(transcript).is_file():
        done = distill(ws, sid or None, transcript, budget=budget)
    elif sid and K.observations(ws, sid):
        done = distill(ws, sid, budget=budget)
    else:
        return None
    if sid:  # for the request at Stop (replaced by each distillation): what the rules could not read, and
        # whether the session settled anything its agent was not asked about yet (the gate)
        from ..capture.gate import last_turn, worth_asking

        def txn_fn(txn):
            asked = ws.store.get(txn, "state", _key(sid, "asked_turn")) or 0
            ws.store.put(txn, "state", _key(sid, "leads"), [x.to_json() for x in done.leads])
            ws.store.put(txn, "state", _key(sid, "gate"), {"ask": worth_asking(done.session_read, asked),
                                                           "turn": last_turn(done.session_read)})
        ws.store.write(txn_fn)
    if done.skipped:  # read around: the rest of the session was distilled
        _log(ws, "capture", event, "\n".join(f"skipped {k}" for k in done.skipped))
    if done.queued.new or done.queued.updated or done.cut:
        K.observe(ws, done.session, "distill", event=_field(event, "hook_event_name", "hookEventName"),
                  new=[c.id for c in done.queued.new], updated=[c.id for c in done.queued.updated], cut=done.cut)
    return done


# -- asking the agent to record what its session decided ----------------------------------------

def ask_at_stop(ws: Workspace, event: dict) -> bool:
    """``ask_at_stop = true`` in ``.tether/agents.toml`` (no file: false). A file that cannot
    be read is logged and taken as false."""
    import tomli
    try:
        data = tomli.loads((ws.dir / SETTINGS).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError) as e:
        _log(ws, "settings", event, f"{ws.dir / SETTINGS}: {e}; not asking at Stop")
        return False
    return data.get("ask_at_stop") is True


def _edited(ws: Workspace, sid: str) -> list[str]:
    """The files this session edited, from its observation log."""
    return list(dict.fromkeys(e["path"] for e in K.observations(ws, sid) if e["kind"] == "edit")) if sid else []


def stop_request(ws: Workspace, sid: str, edited: list[str]) -> str:
    """The request to the agent at Stop when its session changed code and settled something
    it was not asked about yet (:mod:`tether.capture.gate`), or brought new candidates or
    leads: write the notes itself, by one standard, with tether's candidates and leads after
    as hints to check. "" when there is nothing to ask; what is asked is remembered (one
    write transaction), so nothing is asked twice."""
    if not sid or not edited:
        return ""
    from ..capture import candidates as capture
    from ..capture.gate import REQUEST_OPENS
    pending = [c for c in capture.candidates(ws) if sid in c.sessions]
    s, key = ws.store, _key(sid, "asked")

    def txn_fn(txn) -> tuple[bool, list, list]:
        asked = set(s.get(txn, "state", key) or [])
        gate = s.get(txn, "state", _key(sid, "gate")) or {}
        fresh = [c for c in pending if c.id not in asked]
        leads = [x for x in s.get(txn, "state", _key(sid, "leads")) or [] if _lead_key(x) not in asked]
        ask = gate.get("ask") is True or bool(fresh or leads)
        if ask:
            s.put(txn, "state", key, sorted(asked | {c.id for c in fresh} | {_lead_key(x) for x in leads}))
            s.put(txn, "state", _key(sid, "gate"), {**gate, "ask": False})
            s.put(txn, "state", _key(sid, "asked_turn"), gate.get("turn", 0))
        return ask, fresh, leads
    ask, fresh, leads = s.write(txn_fn)
    if not ask:
        return ""
    changing = f"{', '.join(edited[:4])}{' …' if len(edited) > 4 else ''}"
    lines = [f"This session changed {changing}. {REQUEST_OPENS} that the next session could not read from the "
             "code. Write each note yourself, from what you know of the session:",
             *REQUEST_STANDARD,
             "",
             "CLI: " + REQUEST_CLI,
             "MCP: " + REQUEST_MCP,
             REQUEST_AMEND]
    if fresh or leads:
        lines += ["", "tether's hints, to check against what you know, not a list to accept:"]
    for c in fresh[:MAX_ASKED]:
        lines.append(f"- candidate {c.id} {c.kind} \"{c.title}\" on {_code_of(ws, c)}")
        lines += [f"  rejected: {a.option}" + (f" ({a.rejected_because})" if a.rejected_because else "")
                  for a in c.alternatives]
        if c.kind == "gotcha" and (c.works_around or c.rationale):  # a gotcha's fields are its failure and cause
            lines.append("  " + "; ".join(x for x in (f"failure: {c.works_around}" if c.works_around else "",
                                                      f"cause: {c.rationale}" if c.rationale else "") if x))
        elif c.works_around or c.remove_when:
            lines.append("  " + "; ".join(x for x in (f"works around: {c.works_around}" if c.works_around else "",
                                                      f"can go when: {c.remove_when}" if c.remove_when else "") if x))
        lines.append(f"  said: \"{' '.join(c.evidence[0].quote.split())[:160]}\"")
        again = capture.restated_note(ws, c)
        if again is not None:  # "same as in permissions.ts": a join, not a second note
            lines.append(f"  restates note {again.id} \"{again.title}\": join it (`tether accept {c.id} --merge "
                         f"{again.id}`, or record with --joins {again.id}), not a second note")
    if len(fresh) > MAX_ASKED:
        lines.append(f"- … and {len(fresh) - MAX_ASKED} more (`tether review`)")
    lines += [f"- the person may have settled something here ({x['why']}): {x['quote']}" for x in leads]
    if fresh:
        lines.append("A candidate that holds as worded: accept_candidate(id) (`tether accept ID`); one you recorded "
                     "better yourself, or that is wrong: dismiss_candidate(id) (`tether dismiss ID`).")
    lines.append("If the session settled nothing worth a note, record nothing. Then finish.")
    return "\n".join(lines) + "\n"


# the standard every note is written by (the labelled sets' writers kept it; the second readers were given it).
# The change itself (what the code now does) is left out: a later session reads it from the code, and such notes
# were most of what agents recorded beyond the writers' labels.
REQUEST_STANDARD = (
    "- worth a note: why the code is so, the options turned down, a rule or limit the code must keep, a workaround "
    "and when it can go, a gotcha's cause — what a later session would undo or ask again without;",
    "- not the change itself: what the code now does, and that the person asked for it (\"The export writes one "
    "CSV row per invoice\"), a later session reads from the code;",
    "- one note per rule: a rule over several places is one note on all of them, not a note per place; a rule that "
    "restates an existing note joins it (--joins ID);",
    "- the title states the rule or decision itself (\"Store datetimes as UTC; convert at the edges\"), not a quote;",
    "- the rationale the person or the session gave; every option turned down, each with the reason given;",
    "- a workaround: what it works around and when it can go; a gotcha (kind gotcha): the failure and its cause;",
    "- anchored on the code the rule governs (a definition's line);",
    "- only what was settled: not a passing remark, a plan nobody agreed to, a process instruction, or someone "
    "else's rule nobody adopted.",
)
REQUEST_CLI = ('tether record KIND PATH:LINE [PATH:LINE …] --title "…" --rationale "…" --rejected "OPTION" '
               '--because "WHY" [--works-around "…" --remove-when "…"] [--failure "…" --cause "…"] [--joins ID] '
               "(KIND: decision, invariant, boundary, intent, workaround, gotcha)")
REQUEST_MCP = ('record_note(kind, path, line, title, rationale, alternatives=[{option, rejected_because}], '
               'works_around, remove_when, failure, cause, also=[{path, line}], joins)')
REQUEST_AMEND = ('To correct a note you recorded: tether amend ID [--title "…"] [--add-place PATH:LINE] … '
                 "(tether amend --help); MCP amend_note(id, …). A decision the session reversed: record the new one, "
                 "then tether supersede OLD --by NEW; MCP supersede_note(id, by)")


# what Gemini CLI puts before the person's prompt: tether's own SessionStart context, not the person's words
_HOOK_CONTEXT = re.compile(r"<hook_context>.*?</hook_context>\s*", re.S)


def _lead_key(lead: dict) -> str:
    return f"lead:{lead['line']}@{lead['at']}"


def _code_of(ws: Workspace, c) -> str:
    """Where a candidate's code is now: "`name` (path:line)", a file, or the repository."""
    from ..capture import candidates as capture
    out = []
    for a in c.anchors:
        if a.pattern:
            out.append("the repository" if a.pattern == "**" else f"`{a.pattern}`")
            continue
        line = next((p.range.sl + 1 for p in capture.places(ws, a.path) if p.candidate.id == c.id and p.anchor == a
                     and p.range is not None and a.name), None)
        out.append(f"`{a.name}` ({a.path}:{line})" if a.name and line else f"`{a.name}` ({a.path})" if a.name
                   else a.path)
    return ", ".join(out)


def _field(event: dict, *names: str) -> str:
    for n in names:
        v = event.get(n)
        if isinstance(v, str) and v:
            return v
    return ""


def _rel(ws: Workspace, path: str, cwd: Path) -> str | None:
    """Workspace-relative path, or None for a path outside the workspace."""
    if path.startswith("file://"):
        path = unquote(urlparse(path).path)
    try:
        return ws.rel(path, cwd)
    except WorkspaceError:
        return None


def _cap(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    cut = text.rfind("\n", 0, MAX_CHARS - 200)
    return text[: cut if cut > 0 else MAX_CHARS - 200] + \
        f"\n\n(Cut at {MAX_CHARS:,} characters; `tether context PATH` prints the notes of one file.)\n"


# -- the command -------------------------------------------------------------------------------

def run(agent: str, stdin, stdout) -> int:
    """Answer one hook event for ``agent``. Always exits 0; prints an answer or nothing."""
    ws: Workspace | None = None
    event: dict = {}
    stray = io.StringIO()  # warnings and the like: never on the agent's screen
    try:
        with contextlib.redirect_stderr(stray):
            if agent not in AGENTS:
                raise ValueError(f"unknown agent {agent!r}")
            event = read_event(stdin.read())
            try:  # the notes folder looked at once for the event (a stat of each note file), not at each read
                ws = Workspace.find(_field(event, "cwd") or os.getcwd(), auto_refresh=False)
            except WorkspaceError:
                return 0  # not a tether repository: nothing to say
            out = answer(ws, event)
        if out is not None:
            stdout.write(json_text(out) + "\n")
            stdout.flush()
        if stray.getvalue():
            _log(ws, agent, event, stray.getvalue())
    except Exception:  # noqa: BLE001 — a hook never breaks the agent's session
        _log(ws, agent, event, _traceback() + stray.getvalue())
    finally:
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()
    return 0


def read_event(text: str | bytes) -> dict:
    """The hook event ``text`` holds, with whatever is nested more than ``MAX_DEPTH`` levels
    deep replaced by a short string, so that nothing walking it later — tether's code, a JSON
    writer — goes that deep (an MCP tool's input can be anything). ValueError when it is not a
    JSON object, or is nested deeper than the reader goes."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 1100)  # as deep as orjson reads (1,024 levels): the reader's recursion is in C
    try:
        event = json.loads(text)
    except RecursionError:
        raise ValueError("the event is nested too deeply to read") from None
    finally:
        sys.setrecursionlimit(limit)
    if not isinstance(event, dict):
        raise ValueError("the event is not a JSON object")
    todo: list[tuple[dict | list, int]] = [(event, 1)]
    while todo:
        node, depth = todo.pop()
        for k, v in list(node.items() if isinstance(node, dict) else enumerate(node)):
            if isinstance(v, (dict, list)) and v:
                if depth < MAX_DEPTH:
                    todo.append((v, depth + 1))
                else:
                    node[k] = f"(nested more than {MAX_DEPTH} levels deep: left out)"
    return event


def _traceback() -> str:
    import traceback  # here: only a failure pays for it
    return traceback.format_exc()


def _log(ws: Workspace | None, agent: str, event: dict, message: str) -> None:
    """Append to ``.tether/cache/hooks.log`` of the workspace (found from the current
    folder when the event did not say); nowhere when there is none."""
    with contextlib.suppress(Exception):
        if ws is None:
            ws = Workspace.find(os.getcwd())
        log = ws.dir / "cache" / "hooks.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        if log.exists() and log.stat().st_size > 1 << 20:
            os.replace(log, log.with_name("hooks.log.1"))
        what = " ".join(x for x in (_field(event, "hook_event_name", "hookEventName"), _field(event, "tool_name")) if x)
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {agent} {what or 'event'}\n{message.rstrip()}\n")
