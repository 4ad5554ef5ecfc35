"""Finding what the repository remembers by what it says: word matching, deterministic, no
index of its own — over the notes, and over any other documents a caller hands in (the
candidate notes and the agents' observation log, which :mod:`tether.capture` turns into
documents: this subsystem does not read them itself).

A query is split into words (identifiers too: ``load_config`` and ``loadConfig`` are
``load`` + ``config``); a query word matches a document word that is the same or, for words
of three letters or more, starts with it (``cent`` finds ``cents``). Each query word
counts once, at the weight of the best field it matched in: a title and tags weigh most,
then a rationale, then the rest. Documents that match more of the query's words rank
first, then by weight; then notes before candidates before log entries; active notes before
superseded and retired ones; the newest first; ties by id. The same query over the same
documents always gives the same order."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from ..core.files import WorkspaceError
from ..core.notes import FIELDS, Note
from ..core.workspace import Workspace

WEIGHTS = {"title": 4.0, "tags": 4.0, "rationale": 2.0, "alternatives": 1.0, "body": 1.0, "evidence": 1.0,
           "works_around": 1.0, "remove_when": 1.0, "failure": 1.0, "cause": 1.0, "anchors": 1.0,
           "text": 1.0, "path": 1.0, "symbols": 1.0, "command": 1.0, "error": 1.0}  # the last: log entries
TYPES = ("note", "candidate", "prompt", "edit", "read", "command", "failure")  # rank order on a tie
STOPWORDS = frozenset("a an and are as at be by do does for from how in is it not of on or the this that "
                      "to was we what when where which why with".split())
_STATUS_ORDER = {"active": 0, "superseded": 1, "retired": 2}
_WORD = re.compile(r"\w+")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_SINCE = re.compile(r"^(\d+)\s*([mhdw])$")
_UNIT = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


@dataclass
class Doc:
    """One thing to search: its type (one of ``TYPES``), id, time (ISO-8601, "" unknown),
    the sessions it comes from (none for notes), its text by field, and the thing itself.
    Callers may hand the same as a dict with these keys."""

    type: str
    id: str
    at: str
    sessions: list[str]
    fields: dict[str, str]
    item: object


@dataclass
class Hit:
    doc: Doc
    score: float
    matched: list[str]  # the fields any query word matched in, in WEIGHTS order

    @property
    def note(self) -> Note:
        return self.doc.item


def words(text: str) -> set[str]:
    """Lower-case words of ``text``, identifiers also split into their parts."""
    out = set()
    for w in _WORD.findall(text):
        out.add(w.lower())
        for part in w.split("_"):
            out.add(part.lower())
            out.update(p.lower() for p in _CAMEL.findall(part))
    out.discard("")
    return out


def query_words(query: str) -> list[str]:
    """The query's words in order, without repeats and without stop words (unless the
    query has nothing else)."""
    seen = list(dict.fromkeys(w.lower() for w in _WORD.findall(query)))
    kept = [w for w in seen if w not in STOPWORDS]
    return kept or seen


def note_doc(note: Note) -> Doc:
    anchors = " ".join(a.name or a.pattern or a.path or "" for a in note.anchors)
    alternatives = " ".join(f"{a.option} {a.rejected_because}" for a in note.alternatives)
    return Doc("note", note.id, note.updated, [], {
        "title": note.title, "tags": " ".join(note.tags), "rationale": note.rationale, "alternatives": alternatives,
        "body": note.body, **{field: getattr(note, field) for field in FIELDS}, "anchors": anchors},
        note)


def _matches(q: str, vocabulary: set[str]) -> bool:
    if q in vocabulary:
        return True
    return len(q) >= 3 and any(w.startswith(q) for w in vocabulary)


def score(doc: Doc, qwords: list[str]) -> tuple[int, float, list[str]]:
    """(query words matched, weight, fields matched) of one document."""
    fields = {f: words(t) for f, t in doc.fields.items() if t}
    found, weight, matched = 0, 0.0, set()
    for q in qwords:
        best = 0.0
        for field, vocabulary in fields.items():
            if _matches(q, vocabulary):
                matched.add(field)
                exact = 1.0 if q in vocabulary else 0.75
                best = max(best, WEIGHTS.get(field, 1.0) * exact)
        if best:
            found += 1
            weight += best
    return found, weight, [f for f in WEIGHTS if f in matched]


def since_iso(text: str, now: float | None = None) -> str:
    """``--since``: a date or time (``2026-11-20``, ``2026-11-20T09:00``) or an age (``30m``,
    ``6h``, ``2d``, ``1w``), as the ISO-8601 time it stands for (UTC)."""
    t = text.strip()
    m = _SINCE.match(t)
    if m:
        ago = (now if now is not None else time.time()) - int(m.group(1)) * _UNIT[m.group(2)]
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ago))
    if re.match(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?Z?$", t):
        return t.replace(" ", "T")
    raise WorkspaceError(f"--since {text!r}: give a date (2026-11-20), a time (2026-11-20T09:00) or an age "
                         f"(30m, 6h, 2d, 1w)")


def search(ws: Workspace, query: str, more: list[Doc | dict] = (), *, since: str | None = None,
           session: str | None = None, limit: int = 20) -> list[Hit]:
    """The notes and ``more`` documents whose words match ``query``, best first (at most
    ``limit``). ``since``: only what changed or happened at or after this ISO time;
    ``session``: only what comes from this session (notes come from none)."""
    qwords = query_words(query)
    if not qwords:
        return []
    docs = [] if session else [note_doc(n) for n in ws.notes()]
    docs += [d for d in (d if isinstance(d, Doc) else Doc(**d) for d in more) if not session or session in d.sessions]
    ranked = []
    for d in docs:
        if since and d.at and d.at < since:
            continue
        found, weight, matched = score(d, qwords)
        if found:
            status = _STATUS_ORDER.get(d.item.status, 3) if d.type == "note" else 0
            ranked.append(((-found, -weight, TYPES.index(d.type) if d.type in TYPES else len(TYPES), status),
                           Hit(d, round(weight, 2), matched)))
    ranked.sort(key=lambda r: r[1].doc.id)
    ranked.sort(key=lambda r: r[1].doc.at, reverse=True)  # the newest first …
    ranked.sort(key=lambda r: r[0])  # … after everything that ranks
    return [h for _, h in ranked[:limit]]
