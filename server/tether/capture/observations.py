"""The observation log (LMDB ``observations``, local, never committed): per session, with
timestamps, the prompts, the files read and edited (with the definitions each edit touched,
found when it happened), the commands run and the tool failures with their error text. Its
size is capped (``TETHER_LOG_MAX_BYTES``, default 8 MiB): the oldest entries go first. The
hooks write it (``observe``); distillation and ``tether log`` read it.
"""

from __future__ import annotations

import json
import os
import re
import time

from ..core.files import WorkspaceError
from ..core.languages import for_path
from ..core.store import dumps
from ..core.syntax import Definition, SourceFile, parsed
from ..core.text import Range
from ..core.workspace import Workspace

DEFAULT_LOG_BYTES = 8 << 20
MAX_FIELD = 2000  # characters kept of one prompt, command or error text
# longer for what only the proxy sees: the model's reply at a turn's end, a compaction's summary
KEEP = {"reply": 8000, "summary": 64000}


def log_cap() -> int:
    """The log's size cap in bytes: ``TETHER_LOG_MAX_BYTES``, else 8 MiB."""
    v = os.environ.get("TETHER_LOG_MAX_BYTES", "")
    return int(v) if v.isdigit() and int(v) > 0 else DEFAULT_LOG_BYTES


def _clip(v, limit: int = MAX_FIELD):
    if isinstance(v, str) and len(v) > limit:
        return v[:limit] + f"… [{len(v) - limit} more characters]"
    return v


def observe(ws: Workspace, session: str, kind: str, *, transcript: str = "", cap: int | None = None,
            **fields) -> None:
    """Append one entry to the observation log (``kind``: prompt, read, edit, command,
    failure, tool, distill; from the proxy also reply and summary), evicting the oldest
    entries beyond the cap."""
    if not session:
        return
    s = ws.store
    at = time.time_ns()
    key = f"{at:020d}-{os.urandom(3).hex()}"
    entry = {"session": session, "at": _iso(at), "kind": kind, **{k: _clip(v, KEEP.get(kind, MAX_FIELD)) for k, v in fields.items()}}
    size = len(dumps(entry))
    limit = cap or log_cap()

    def txn_fn(txn):
        s.put(txn, "observations", key, entry)
        s.put(txn, "obs_by_session", f"{session}\0{key}", size)
        meta = s.get(txn, "sessions", session) or {"id": session, "started": entry["at"], "transcript": ""}
        meta["last"] = entry["at"]
        if transcript:
            meta["transcript"] = transcript
        s.put(txn, "sessions", session, meta)
        total = s.get(txn, "meta", "obs_bytes")
        if total is None:  # the index was reset (the log was not): count what is there
            total = sum(v for _, v in s.items(txn, "obs_by_session"))
        total += size
        cur = txn.cursor(db=s.db["observations"])
        emptied = set()
        while total > limit and cur.first():
            k, v = cur.key().decode(), json.loads(cur.value())
            cur.delete()
            total -= len(dumps(v))
            s.delete(txn, "obs_by_session", f"{v['session']}\0{k}")
            emptied.add(v["session"])
        for sid in emptied:  # a session whose every entry is gone is forgotten
            if not s.keys(txn, "obs_by_session", sid + "\0"):
                s.delete(txn, "sessions", sid)
        s.put(txn, "meta", "obs_bytes", max(total, 0))
    s.write(txn_fn)


def _iso(ns: int) -> str:
    t = ns / 1e9
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}Z"


def observations(ws: Workspace, session: str | None = None) -> list[dict]:
    """The log, oldest first (one session's, or every session's)."""
    s = ws.store
    with s.read() as txn:
        if session is None:
            return [v for _, v in s.items(txn, "observations")]
        keys = [k.split("\0", 1)[1] for k in s.keys(txn, "obs_by_session", session + "\0")]
        return [v for v in (s.get(txn, "observations", k) for k in keys) if v is not None]


def sessions(ws: Workspace) -> list[dict]:
    """Every session in the log, least recently active first: ``{id, started, last, transcript}``."""
    s = ws.store
    with s.read() as txn:
        return sorted((v for _, v in s.items(txn, "sessions")), key=lambda m: (m.get("last", ""), m["id"]))


def find_session(ws: Workspace, ref: str | None) -> dict:
    """A session by id or unique prefix; without one, the most recently active."""
    known = sessions(ws)
    if ref is None:
        if not known:
            raise WorkspaceError("the observation log holds no session yet (the agent hooks record them; "
                                 "`tether init --agents` sets them up): give --transcript PATH")
        return known[-1]
    hits = [m for m in known if m["id"] == ref] or [m for m in known if m["id"].startswith(ref)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise WorkspaceError(f"'{ref}' matches {len(hits)} sessions: give more of the id")
    raise WorkspaceError(f"no session '{ref}' in the observation log (see `tether log`)")


# -- what an edit touched ---------------------------------------------------------------------------

def lines_of(text: str, olds: list[str]) -> list[tuple[int, int]]:
    """The 0-based first/last lines of each of ``olds`` in ``text`` (texts not found are
    skipped; a text's leading empty lines do not count)."""
    out = []
    for old in olds:
        i = text.find(old) if old.strip() else -1
        if i >= 0:
            first = text.count("\n", 0, i + len(old) - len(old.lstrip("\n")))
            out.append((first, first + old.strip("\n").count("\n")))
    return sorted(out)


_NEW_TEXT = ("new_string", "content", "new_source", "newString", "code")


def replacements(inp: dict) -> list[tuple[str, str]]:
    """The (old, new) texts of an edit call, Claude Code's or VS Code's (one pair per edit:
    ``edits``, ``replacements`` or the call itself; old "" for text written whole)."""
    edits = inp.get("edits") if isinstance(inp.get("edits"), list) else \
        inp.get("replacements") if isinstance(inp.get("replacements"), list) else [inp]
    out = []
    for e in edits:
        if not isinstance(e, dict):
            continue
        new = next((e[k] for k in _NEW_TEXT if isinstance(e.get(k), str)), None)
        old = e.get("old_string") or e.get("oldString") or ""
        if new is not None and isinstance(old, str):
            out.append((old, new))
    return out


def edit_lines(text: str, pairs: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """The lines (0-based, in ``text``) that ``(old, new)`` replacements changed: where
    each new string is, without the lines it shares with the old one at its start and end
    (an edit that adds a method before ``def send`` and repeats that line did not change
    ``send``). A new string that is not in the text (a later edit changed it) is skipped."""
    out = []
    for old, new in pairs:
        i = text.find(new) if new.strip() else -1
        if i < 0:
            continue
        a = old[:-1].split("\n") if old.endswith("\n") else old.split("\n")
        b = new[:-1].split("\n") if new.endswith("\n") else new.split("\n")
        pre = 0
        while pre < min(len(a), len(b)) and a[pre] == b[pre]:
            pre += 1
        suf = 0
        while suf < min(len(a), len(b)) - pre and a[-1 - suf] == b[-1 - suf]:
            suf += 1
        first = text.count("\n", 0, i)
        sl, el = first + pre, first + len(b) - 1 - suf
        if el < sl:  # only removed lines: the place where they were
            sl, el = max(first, sl - 1), min(first + len(b) - 1, sl)
        out.append((sl, el))
    return _merge(out)


def patch_lines(patch) -> list[tuple[int, int]]:
    """The lines a unified-diff-like patch (Claude Code's ``structuredPatch``: hunks with
    ``newStart`` and ``lines`` prefixed ``+``/``-``/`` ``) added or changed, 0-based in
    the new text; a pure deletion counts as the line where it happened."""
    out = []
    if not isinstance(patch, list):
        return out
    for hunk in patch:
        if not isinstance(hunk, dict) or not isinstance(hunk.get("newStart"), int) or \
                not isinstance(hunk.get("lines"), list):
            continue
        line = hunk["newStart"] - 1
        for text in hunk["lines"]:
            if not isinstance(text, str):
                continue
            if text.startswith("+"):
                out.append((line, line))
                line += 1
            elif text.startswith("-"):
                out.append((max(line - 1, 0), line))
            else:
                line += 1
    return _merge(out)


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def edited_symbols(text: str, rel: str, ranges: list[tuple[int, int]]) -> list[str]:
    """The qualified names of the definitions an edit of ``ranges`` (0-based lines of the
    text after the edit) touched: the innermost definition around the edited lines, or the
    whole definitions the edit wrote inside it (an edit that adds two methods touched those
    two methods, not their class). Lines outside every definition touch none."""
    src = parsed(rel, text, for_path(rel))  # the check after the same edit parses it no more
    if src.tree is None or not ranges:
        return []
    out: list[str] = []
    for d in touched_definitions(src, ranges):
        if d.qualname not in out:
            out.append(d.qualname)
    return out


WRAPPER_LINES = 32  # decorators, annotations, attributes above a definition: never this many
_COMMENT = re.compile(r"\s*(?:#|//|/\*|\*)")


def touched_definitions(src: SourceFile, ranges: list[tuple[int, int]]) -> list[Definition]:
    """The definitions an edit of ``ranges`` touched, each range's read with a query over its
    own lines (a one-line edit of a 5,000-line file reads the few definitions around it)."""
    out: list[Definition] = []
    lines = src.pos.lines
    for sl, el in ranges:
        el = min(el, len(lines) - 1)
        while sl < el and not lines[sl].strip():
            sl += 1
        while el > sl and not lines[el].strip():
            el -= 1
        below = el  # a definition whose comment starts on these lines is touched too: read down to its first
        while below + 1 < len(lines) and _COMMENT.match(lines[below + 1]):  # line, past its decorators
            below += 1
        below += 1 + WRAPPER_LINES
        starts = src.pos.byte_starts
        defs = src.defs_in(starts[sl], starts[below] if below < len(starts) else len(src.data))
        out += [d for d in _touched(src, defs, sl, el) if (d.start, d.end) not in {(x.start, x.end) for x in out}]
    return out


def _touched(src: SourceFile, defs: list[Definition], sl: int, el: int) -> list[Definition]:
    """Of ``defs`` (those around lines ``sl``..``el``, the ones enclosing them included), the
    innermost definition around the lines, or the whole definitions the lines wrote inside it."""
    spans = []  # each definition's lines, from its decorators or export keyword on — and the comment right
    lines = src.pos.lines  # above it, which is about it ("/** Store first … */")
    for d in defs:
        r = src.def_range(d)
        start = min(r.sl, src.pos.line_of_byte(d.outer))
        while start > 0 and _COMMENT.match(lines[start - 1]):
            start -= 1
        spans.append((Range(start, r.sc, r.el, r.ec), d))
    around = [(r, d) for r, d in spans if r.sl <= sl and el <= r.el]
    enclosing = min(around, key=lambda t: t[1].end - t[1].start)[1] if around else None
    parent = enclosing.index if enclosing is not None else None
    # the definitions at that level the edit wrote or changed part of (an edit from the imports
    # into a function's first lines touched that function)
    inside = [(r, d) for r, d in spans if d.parent == parent and r.sl <= el and sl <= r.el]
    covered = {ln for r, _ in inside for ln in range(r.sl, r.el + 1)}
    rest = any(lines[ln].strip() and ln not in covered for ln in range(sl, el + 1))
    picked = [d for _, d in inside]
    if enclosing is not None and (rest or not picked):
        picked.insert(0, enclosing)
    return picked


# what of each kind of entry `tether search` reads (tether.context.search ranks them)
SEARCHED = {"prompt": ("text",), "read": ("path", "symbols"), "edit": ("path", "symbols"), "command": ("command",),
            "failure": ("command", "path", "error")}


def documents(ws: Workspace, session: str | None = None) -> list[dict]:
    """The log's prompts, files read and edited, commands and failures as search documents."""
    out = []
    for e in observations(ws, session):
        keys = SEARCHED.get(e["kind"])
        if keys is None:
            continue
        fields = {k: " ".join(e[k]) if isinstance(e.get(k), list) else str(e.get(k) or "") for k in keys}
        out.append({"type": e["kind"], "id": f"{e['session'][:8]}@{e['at']}", "at": e["at"],
                    "sessions": [e["session"]], "fields": fields, "item": e})
    return out
