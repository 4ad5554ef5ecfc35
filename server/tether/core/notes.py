"""Notes and their file format.

One note per file under ``.tether/notes/``: TOML front matter between ``+++`` lines, then
a Markdown body. Keys are written in one fixed order, so a file written by tether reads
back and writes out byte for byte the same, and diffs in review show only what changed.
A person may write such a file by hand; keys tether does not know are kept as they are.
"""

from __future__ import annotations

import itertools
import os
import re
import struct
import time

from .anchors import ANCHOR_TYPES, Anchor
from .languages import Language, by_name, tree_sitter
from .records import dataclass, field
from .text import Range

TYPE_CHECKING = False  # (not typing's: importing it costs every hook call ~3 ms)
if TYPE_CHECKING:
    from typing import Any

    import tree_sitter as ts

KINDS = ("decision", "invariant", "boundary", "intent", "workaround", "gotcha")
# the fields a kind carries beside its title, rationale, rejected options and body, as every face shows them
# (a workaround: what it works around, when it can go; a gotcha: the failure, its cause)
FIELDS = {"works_around": "Works around", "remove_when": "Can go when", "failure": "Fails with", "cause": "Cause"}
STATUSES = ("active", "superseded", "retired")

# Front matter keys, in the order they are written. Kind-specific keys are written only
# when set (a decision has no ``remove_when``).
KEY_ORDER = ("id", "kind", "title", "status", "superseded_by", "author", "created", "updated",
             "tags", "rationale", "works_around", "remove_when", "failure", "cause", "task")
ANCHOR_KEYS = ("type", "path", "pattern", "lang", "node", "name", "params", "hash", "sketch", "range", "vouched")

FENCE = "+++"
_CONFLICT = re.compile(r"^<{7}( |$)", re.M)  # a conflict starts with <<<<<<< (a lone ======= is a heading)
_DRIVE, _SEPARATORS = re.compile(r"[A-Za-z]:"), re.compile(r"[/\\]")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")


class NoteError(ValueError):
    """A note file that cannot be read: where, and how to fix it."""

    def __init__(self, path: str, line: int, reason: str):
        super().__init__(f"{path}:{line}: {reason}")
        self.path, self.line, self.reason = path, line, reason

    def __reduce__(self):  # it travels back from a forked reader (fork.py)
        return NoteError, (self.path, self.line, self.reason)


@dataclass
class Alternative:
    """An option a decision turned down, and why."""

    option: str
    rejected_because: str = ""


@dataclass
class Waiver:
    """A reviewed exception to one check of an invariant ("ignore this once"), tied to the
    statement it excuses like any anchor, so it stays on that code through edits."""

    check: str
    anchor: Anchor
    by: str = ""
    at: str = ""
    reason: str = ""


@dataclass
class Note:
    """One note: its front matter's fields, its anchors and its Markdown body (``format_note``/``parse_note``)."""

    id: str
    kind: str
    title: str
    status: str = "active"
    superseded_by: str = ""
    author: str = ""
    created: str = ""
    updated: str = ""
    tags: list[str] = field(default_factory=list)
    rationale: str = ""  # decision
    works_around: str = ""  # workaround: the problem it works around
    remove_when: str = ""  # workaround: when it can go
    failure: str = ""  # gotcha: what fails (the error or the symptom)
    cause: str = ""  # gotcha: why it fails
    task: str = ""  # intent: the linked task
    alternatives: list[Alternative] = field(default_factory=list)  # decision: options rejected
    checks: list[dict] = field(default_factory=list)  # invariant: structural checks (data)
    confirmed: dict = field(default_factory=dict)  # invariant: {by, at, hash} of last review
    exceptions: list[Waiver] = field(default_factory=list)  # invariant: reviewed check exceptions
    anchors: list[Anchor] = field(default_factory=list)
    body: str = ""
    extra: dict = field(default_factory=dict)  # keys tether does not know, kept verbatim
    path: str = ""  # workspace-relative path of the note file (not written)

    def file_name(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-")[:48].rstrip("-")
        return f"{self.id}-{slug}.md" if slug else f"{self.id}.md"


# -- ids: unique across branches without coordination, sortable by time ------------------

_B32 = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case


# the 80 bits after the milliseconds: 48 random bits for this process, then a count, so that ids made in the same
# millisecond keep the order they were made in (the queue and `tether review` list candidates by id, oldest first)
_PROCESS_BITS = int.from_bytes(os.urandom(6)) << 32  # secrets' source, without its 2 ms import
_COUNT = itertools.count()  # next() on it is atomic: no lock for the server's threads


def new_id() -> str:
    """A ULID: 48 bits of milliseconds, then 80 bits unique to this process and the id
    (26 characters); of one process, later ids sort after earlier ones."""
    n = (int(time.time() * 1000) << 80) | _PROCESS_BITS | (next(_COUNT) & 0xFFFFFFFF)
    return "".join(_B32[(n >> (5 * i)) & 31] for i in reversed(range(26)))


SHORT_ID = 8  # a short id's least length: ids made within minutes share their first 6 or 7 characters


def short_ids(ids) -> dict[str, str]:
    """Each id's shortest prefix of at least :data:`SHORT_ID` characters that no other of
    ``ids`` starts with, as git abbreviates hashes (ULIDs begin with their time, so ids made
    close together need more)."""
    ordered = sorted(set(ids))
    out = {}
    for i, nid in enumerate(ordered):
        n = SHORT_ID
        for other in ordered[max(i - 1, 0):i] + ordered[i + 1:i + 2]:  # sorted: the neighbours share the most
            n = max(n, len(os.path.commonprefix((nid, other))) + 1)
        out[nid] = nid[:n]
    return out


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# -- parsing ------------------------------------------------------------------------------

def parse_note(text: str, path: str) -> Note:
    if text.startswith(FENCE + "\r\n"):  # CRLF from Windows editors or core.autocrlf
        text = text.replace("\r\n", "\n")
    m = _CONFLICT.search(text)
    if m:
        line = text.count("\n", 0, m.start()) + 1
        raise NoteError(path, line, "merge conflict markers: keep one side of the conflict, "
                                    "delete the <<<<<<< ======= >>>>>>> lines and save")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if not lines or lines[0].strip() != FENCE:
        raise NoteError(path, 1, f"a note starts with a '{FENCE}' line, then TOML front matter, "
                                 f"then another '{FENCE}' line and the Markdown body")
    try:
        close = next(i for i in range(1, len(lines)) if lines[i].strip() == FENCE)
    except StopIteration:
        raise NoteError(path, len(lines), f"the front matter is not closed: add a '{FENCE}' line after it") from None
    front = "\n".join(lines[1:close])
    deep = _too_deep(front)
    if deep:
        raise NoteError(path, deep + 1, f"arrays or tables nested more than {MAX_NESTING} deep: a note holds flat "
                                        f"values, lists of strings and tables of them")
    import tomli  # the compiled upstream of the standard library's tomllib: 3x faster; here: most
    try:  # processes read the notes from the index, and the import costs each 3 ms
        data = tomli.loads(front)
    except tomli.TOMLDecodeError as e:
        m = re.search(r"line (\d+)(?:, column (\d+))?", str(e))
        line = int(m.group(1)) + 1 if m else 2
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        said = lines[line - 1].strip() if line <= close else ""
        if said:
            reason += f" at column {m.group(2)}" if m and m.group(2) else ""
            reason += f" in `{said}`"
            key, eq, value = (x.strip() for x in said.partition("="))
            if eq and re.fullmatch(r"[A-Za-z][\w .-]*", value) and value not in ("true", "false", "inf", "nan"):
                reason += f'; a text value needs quotes: {key} = "{value}"'  # the hand edit people make most
        raise NoteError(path, line, f"invalid TOML: {reason}") from None
    body = "\n".join(lines[close + 1:])
    if body.startswith("\n"):
        body = body[1:]
    return _note_from(data, body, path, front)


MAX_NESTING = 16  # a note file is flat data; deeper nesting is damage (and would exhaust the readers' stacks)


def _too_deep(front: str) -> int | None:
    """The 1-based line of the front matter where brackets nest deeper than MAX_NESTING
    (strings and comments skipped), or None."""
    if front.count("[") + front.count("{") <= MAX_NESTING:  # nearly every note: nothing to scan
        return None
    depth, line, quote, i = 0, 1, "", 0
    while i < len(front):
        c = front[i]
        if c == "\n":
            line += 1
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            end = front.find("\n", i)
            i = len(front) if end < 0 else end
            continue
        elif c in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return line
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None


def _line_of(front: str, key: str) -> int:
    m = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", front, re.M)
    return front.count("\n", 0, m.start()) + 2 if m else 1


def _note_from(data: dict, body: str, path: str, front: str) -> Note:
    def need(key):
        if key not in data:
            raise NoteError(path, 1, f"missing required key '{key}' in the front matter")
        v = data.pop(key)
        if not isinstance(v, str) or not v.strip():
            raise NoteError(path, _line_of(front, key), f"'{key}' must be a non-empty string")
        return v

    def text(key):
        v = data.pop(key, "")
        if not isinstance(v, str):
            raise NoteError(path, _line_of(front, key), f"'{key}' must be a string")
        return v

    nid, kind, title = need("id"), need("kind"), need("title")
    if kind not in KINDS:
        raise NoteError(path, _line_of(front, "kind"), f"unknown kind '{kind}': use one of {', '.join(KINDS)}")
    status = data.pop("status", "active")
    if status not in STATUSES:
        raise NoteError(path, _line_of(front, "status"), f"unknown status '{status}': use one of {', '.join(STATUSES)}")
    tags = data.pop("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise NoteError(path, _line_of(front, "tags"), "'tags' must be a list of strings")
    note = Note(id=nid, kind=kind, title=title, status=status, superseded_by=text("superseded_by"),
                author=text("author"), created=text("created"), updated=text("updated"), tags=tags,
                rationale=text("rationale"), works_around=text("works_around"),
                remove_when=text("remove_when"), failure=text("failure"), cause=text("cause"), task=text("task"),
                body=body, path=path)
    for alt in _tables(data, "alternatives", path, front):
        if not isinstance(alt.get("option"), str):
            raise NoteError(path, _line_of(front, "option"), "each [[alternatives]] needs an 'option' string")
        note.alternatives.append(Alternative(alt["option"], str(alt.get("rejected_because", ""))))
    note.checks = _tables(data, "checks", path, front)
    for i, raw in enumerate(note.checks):
        try:
            check_from_dict(raw)
        except CheckError as e:
            raise NoteError(path, _nth_table_line(front, "checks", i), str(e)) from None
    for i, e in enumerate(_tables(data, "exceptions", path, front)):
        if not isinstance(e.get("check"), str):
            raise NoteError(path, _nth_table_line(front, "exceptions", i), "each [[exceptions]] names its 'check'")
        note.exceptions.append(Waiver(e["check"], _anchor_from(e, path, front, i, "exceptions"), str(e.get("by", "")),
                                      str(e.get("at", "")), str(e.get("reason", ""))))
    confirmed = data.pop("confirmed", {})
    if not isinstance(confirmed, dict):
        raise NoteError(path, _line_of(front, "confirmed"), "'confirmed' must be a table")
    note.confirmed = confirmed
    for i, a in enumerate(_tables(data, "anchors", path, front)):
        note.anchors.append(_anchor_from(a, path, front, i))
    note.extra = data
    return note


def _tables(data: dict, key: str, path: str, front: str) -> list[dict]:
    v = data.pop(key, [])
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        raise NoteError(path, _line_of(front, key), f"'{key}' must be written as [[{key}]] tables")
    return v


def _anchor_from(a: dict, path: str, front: str, i: int, table: str = "anchors") -> Anchor:
    def where() -> int:  # only an error needs the line: finding it costs a regex per anchor
        return _nth_table_line(front, table, i)
    t = a.get("type")
    if t not in ANCHOR_TYPES:
        raise NoteError(path, where(), f"anchor type '{t}' is not one of {', '.join(ANCHOR_TYPES)}")
    if t == "glob":
        if not a.get("pattern"):
            raise NoteError(path, where(), "a glob anchor needs a 'pattern' (e.g. \"src/auth/**\")")
    elif not a.get("path"):
        raise NoteError(path, where(), f"a {t} anchor needs a 'path' relative to the workspace")
    p = str(a.get("path") or a.get("pattern") or "")
    if "\0" in p or p.startswith(("/", "\\")) or _DRIVE.match(p) or ".." in _SEPARATORS.split(p):
        raise NoteError(path, where(), f"anchor path {p!r} leads outside the workspace (or holds a NUL byte): "
                                       f"give a path relative to the workspace, inside it")
    rng = a.get("range")
    if rng is not None:
        if not (isinstance(rng, list) and len(rng) == 4 and all(isinstance(x, int) and x >= 0 for x in rng)):
            raise NoteError(path, where(), "an anchor 'range' is [start line, start column, end line, end column] (0-based)")
        rng = Range(*rng)
    sk = a.get("sketch", "")
    try:
        sketch = list(struct.unpack(f">{len(sk) // 8}I", bytes.fromhex(sk))) if len(sk) % 8 == 0 else \
            [int(sk[k:k + 8], 16) for k in range(0, len(sk), 8)]  # 8 hex digits a number, as tether writes them
    except (ValueError, TypeError):
        raise NoteError(path, where(), "an anchor 'sketch' is a hex string (tether writes it)") from None
    return Anchor(type=t, path=str(a.get("path", "")), pattern=str(a.get("pattern", "")),
                  lang=str(a.get("lang", "")), node=str(a.get("node", "")), name=str(a.get("name", "")),
                  params=str(a.get("params", "")), hash=str(a.get("hash", "")), sketch=sketch, range=rng,
                  vouched=str(a.get("vouched", "")))


def _nth_table_line(front: str, key: str, i: int) -> int:
    hits = [m.start() for m in re.finditer(rf"^[ \t]*\[\[{key}\]\]", front, re.M)]
    return front.count("\n", 0, hits[i]) + 2 if i < len(hits) else 1


# -- the cached form (JSON in the index: parsing TOML for every note at start is slow) ----

def note_to_dict(note: Note) -> dict:
    d = {k: getattr(note, k) for k in (*KEY_ORDER, "checks", "confirmed", "body", "extra", "path")}
    d["alternatives"] = [[a.option, a.rejected_because] for a in note.alternatives]
    d["anchors"] = [_anchor_list(a) for a in note.anchors]
    d["exceptions"] = [[w.check, _anchor_list(w.anchor), w.by, w.at, w.reason] for w in note.exceptions]
    return d


def _anchor_list(a: Anchor) -> list:
    return [a.type, a.path, a.pattern, a.lang, a.node, a.name, a.params, a.hash, a.sketch,
            list(a.range) if a.range else None, a.vouched]


def _anchor_of(x: list) -> Anchor:
    return Anchor(*x[:9], Range(*x[9]) if x[9] else None, x[10])


def note_from_dict(d: dict) -> Note:
    d = dict(d)
    alts = [Alternative(o, w) for o, w in d.pop("alternatives")]
    anchors = [_anchor_of(x) for x in d.pop("anchors")]
    waivers = [Waiver(c, _anchor_of(a), by, at, why) for c, a, by, at, why in d.pop("exceptions", [])]
    return Note(**d, alternatives=alts, anchors=anchors, exceptions=waivers)


# -- writing ------------------------------------------------------------------------------

def format_note(note: Note) -> str:
    out = [FENCE]
    fields = {k: getattr(note, k) for k in KEY_ORDER}
    for k in KEY_ORDER:
        v = fields[k]
        if k in ("id", "kind", "title", "status") or v:
            out.append(f"{k} = {_value(v)}")
    for k, v in note.extra.items():
        if not isinstance(v, (dict, list)) or (isinstance(v, list) and not any(isinstance(x, dict) for x in v)):
            out.append(f"{_key(k)} = {_value(v)}")
    if note.confirmed:
        out += ["", "[confirmed]"] + [f"{_key(k)} = {_value(v)}" for k, v in note.confirmed.items()]
    for alt in note.alternatives:
        out += ["", "[[alternatives]]", f"option = {_value(alt.option)}"]
        if alt.rejected_because:
            out.append(f"rejected_because = {_value(alt.rejected_because)}")
    for check in note.checks:
        out += ["", "[[checks]]"] + [f"{_key(k)} = {_value(v)}" for k, v in check.items()]
    for a in note.anchors:
        out += ["", "[[anchors]]"] + _anchor_lines(a)
    for w in note.exceptions:
        out += ["", "[[exceptions]]", f"check = {_value(w.check)}"]
        out += [f"{k} = {_value(getattr(w, k))}" for k in ("by", "at", "reason") if getattr(w, k)]
        out += _anchor_lines(w.anchor)
    for k, v in note.extra.items():  # unknown tables, kept
        if isinstance(v, dict):
            out += ["", f"[{_key(k)}]"] + [f"{_key(kk)} = {_value(vv)}" for kk, vv in v.items()]
        elif isinstance(v, list) and any(isinstance(x, dict) for x in v):
            for t in v:
                out += ["", f"[[{_key(k)}]]"] + [f"{_key(kk)} = {_value(vv)}" for kk, vv in t.items()]
    out.append(FENCE)
    body = note.body
    text = "\n".join(out) + "\n"
    if body:
        text += "\n" + body
        if not body.endswith("\n"):
            text += "\n"
    return text


def _anchor_lines(a: Anchor) -> list[str]:
    out = []
    for k in ANCHOR_KEYS:
        v = getattr(a, k)
        if k == "sketch":
            v = "".join(f"{x:08x}" for x in v)
        elif k == "range" and v is not None:
            v = list(v)
        if v:
            out.append(f"{k} = {_value(v)}")
    return out


_ESC = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        if "\n" in v:
            body = "".join(c if c in "\n\t" else _ESC.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 32 or ord(c) == 127 else c)
                           for c in v)
            # a line that reads as a fence or a conflict marker is written with its first
            # character escaped, so the file still splits where it should
            body = re.sub(r"^([+<>])(?=\1\1)", lambda m: f"\\u{ord(m.group(1)):04x}", body, flags=re.M)
            return '"""\n' + body + '"""'
        return '"' + "".join(_ESC.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 32 or ord(c) == 127 else c)
                             for c in v) + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    if hasattr(v, "isoformat"):
        return v.isoformat()
    raise TypeError(f"cannot write {type(v).__name__} to a note file")


def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _value(k)


def author_name(cwd: str | None = None) -> str:
    """``Name <email>`` from git config, else the login name."""
    import subprocess
    parts = []
    for key in ("user.name", "user.email"):
        try:
            r = subprocess.run(["git", "config", key], cwd=cwd, capture_output=True, text=True, timeout=5)
            parts.append(r.stdout.strip() if r.returncode == 0 else "")
        except (OSError, subprocess.SubprocessError):
            parts.append("")
    name, email = parts
    if name:
        return f"{name} <{email}>" if email else name
    try:
        return os.getlogin()
    except OSError:
        import getpass
        return getpass.getuser()


# -- an invariant's checks, as the note file holds them ([[checks]] tables) ------------------------
# A check is data (DESIGN.md decision 3); tether.checks evaluates it. Kinds: ``forbid`` /
# ``require`` (a tree-sitter ``query`` written for ``lang``) and the shorthands
# ``forbid-call`` / ``require-call`` / ``forbid-import`` / ``forbid-identifier`` (a dotted
# ``pattern`` matched against what the language's calls/imports/identifiers queries find).

CHECK_KINDS = ("forbid", "require", "forbid-call", "require-call", "forbid-import", "forbid-identifier")
SHORTHAND_QUERY = {"forbid-call": "calls", "require-call": "calls", "forbid-import": "imports",
                   "forbid-identifier": "identifiers"}
SEVERITIES = ("error", "warning", "info", "hint")


class CheckError(ValueError):
    """A check that cannot be used, with where and why."""


@dataclass
class Check:
    """A structural check of an invariant (data: a tree-sitter query or a shorthand)."""

    id: str
    kind: str
    pattern: str = ""
    query: str = ""
    lang: str = ""
    message: str = ""
    severity: str = "error"

    def to_dict(self) -> dict:
        d = {"id": self.id, "kind": self.kind}
        for k in ("pattern", "query", "lang", "message"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        if self.severity != "error":
            d["severity"] = self.severity
        return d

    def describe(self) -> str:
        what = self.pattern or "a query"
        return self.message or f"{self.kind} {what}"


def check_from_dict(d: dict, where: str = "") -> Check:
    kind = d.get("kind")
    if kind not in CHECK_KINDS:
        raise CheckError(f"{where}check kind '{kind}' is not one of {', '.join(CHECK_KINDS)}")
    c = Check(id=str(d.get("id") or kind), kind=kind, pattern=str(d.get("pattern", "")),
              query=str(d.get("query", "")), lang=str(d.get("lang", "")), message=str(d.get("message", "")),
              severity=str(d.get("severity", "error")))
    if c.severity not in SEVERITIES:
        raise CheckError(f"{where}check '{c.id}': severity '{c.severity}' is not one of {', '.join(SEVERITIES)}")
    if kind in SHORTHAND_QUERY and not c.pattern.strip():
        raise CheckError(f"{where}check '{c.id}': a {kind} check needs a pattern (e.g. time.sleep)")
    if kind in ("forbid", "require") and not (c.query.strip() and c.lang):
        raise CheckError(f"{where}check '{c.id}': a {kind} check needs a query and the lang it is written for")
    return c


def validate(check: Check, lang: Language | None, any_language: bool = False, compile=None) -> None:
    """Refuse, with the position of the problem, a check that cannot run on ``lang`` (the
    anchor's language; ``any_language`` for a glob, whose files may be in any). ``compile``
    tries a written query (default: :func:`compile_query` in this process; the faces pass the
    checks' worker, so a query that crashes the compiler crashes no face)."""
    if check.kind in SHORTHAND_QUERY:
        if any_language:
            return  # every language in grammars/ has the shorthand queries (a test says so)
        if lang is None:
            raise CheckError(f"check '{check.id}': {check.kind} needs a language with a grammar; "
                             f"this anchor's file has none")
        lang.query(SHORTHAND_QUERY[check.kind])
        return
    qlang = by_name(check.lang)
    if qlang is None:
        raise CheckError(f"check '{check.id}': unknown lang '{check.lang}'")
    if not any_language and lang is not None and lang.name != qlang.name and not family(lang.name, qlang.name):
        raise CheckError(f"check '{check.id}': the query is written for {qlang.name}, the anchor is in {lang.name}")
    bounded(check)
    (compile or compile_query)(check, qlang)


_COMPILED: dict[tuple[str, str], ts.Query] = {}  # compiling costs milliseconds; running one, far less


MAX_QUERY_BYTES = 16 * 1024  # a written check query; beyond, and beyond this nesting, tree-sitter's
MAX_QUERY_NESTING = 64  # compiler can exhaust its stack (a crash, not an error)


def compile_query(check: Check, lang: Language) -> ts.Query:
    q = _COMPILED.get((lang.name, check.query))
    if q is not None:
        return q
    bounded(check)
    try:
        q = tree_sitter().Query(lang.grammar, check.query)
    except Exception as e:  # tree-sitter's QueryError says "... at row R, column C"
        msg = str(e)
        m = re.search(r"row (\d+), column (\d+)", msg)
        at = f" (query line {int(m.group(1)) + 1}, column {int(m.group(2)) + 1})" if m else ""
        raise CheckError(f"check '{check.id}': the query does not compile{at}: {msg.split(' at row')[0]}") from None
    if q.capture_count == 0:
        raise CheckError(f"check '{check.id}': the query captures nothing; add a capture (e.g. @violation) "
                         f"on the node to report")
    if len(_COMPILED) >= 256:
        _COMPILED.pop(next(iter(_COMPILED)))
    _COMPILED[(lang.name, check.query)] = q
    return q


def bounded(check: Check) -> None:
    """Refuse a written query beyond the size and nesting tree-sitter's compiler survives."""
    if len(check.query.encode()) > MAX_QUERY_BYTES:
        raise CheckError(f"check '{check.id}': the query is {len(check.query.encode()) // 1024} KB; "
                         f"a check query is at most {MAX_QUERY_BYTES // 1024} KB")
    depth = deepest = 0
    for c in check.query:  # parentheses and brackets, as the compiler nests them
        depth += (c in "([") - (c in ")]")
        deepest = max(deepest, depth)
    if deepest > MAX_QUERY_NESTING:
        raise CheckError(f"check '{check.id}': the query nests {deepest} deep; at most {MAX_QUERY_NESTING}")


def family(a: str, b: str) -> bool:
    """TSX files accept TypeScript queries (TSX's grammar extends TypeScript's)."""
    return {a, b} == {"typescript", "tsx"}
