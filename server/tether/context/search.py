"""Finding notes by what they say: word matching, deterministic, no index of its own.

A query is split into words (identifiers too: ``load_config`` and ``loadConfig`` are
``load`` + ``config``); a query word matches a note word that is the same or, for words
of three letters or more, starts with it (``cent`` finds ``cents``). Each query word
counts once, at the weight of the best field it matched in: the title and tags weigh
most, then the rationale, then the rest of the note. Notes that match more of the
query's words rank first, then by weight; active notes before superseded and retired
ones; ties by id. The same query over the same notes always gives the same order."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.notes import Note
from ..core.workspace import Workspace

WEIGHTS = {"title": 4.0, "tags": 4.0, "rationale": 2.0, "alternatives": 1.0, "body": 1.0,
           "works_around": 1.0, "remove_when": 1.0, "anchors": 1.0}
STOPWORDS = frozenset("a an and are as at be by do does for from how in is it not of on or the this that "
                      "to was we what when where which why with".split())
_STATUS_ORDER = {"active": 0, "superseded": 1, "retired": 2}
_WORD = re.compile(r"\w+")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


@dataclass
class Hit:
    note: Note
    score: float
    matched: list[str]  # the fields any query word matched in, in WEIGHTS order


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


def note_fields(note: Note) -> dict[str, set[str]]:
    anchors = " ".join(a.name or a.pattern or a.path or "" for a in note.anchors)
    alternatives = " ".join(f"{a.option} {a.rejected_because}" for a in note.alternatives)
    texts = {"title": note.title, "tags": " ".join(note.tags), "rationale": note.rationale,
             "alternatives": alternatives, "body": note.body, "works_around": note.works_around,
             "remove_when": note.remove_when, "anchors": anchors}
    return {field: words(text) for field, text in texts.items()}


def _matches(q: str, vocabulary: set[str]) -> bool:
    if q in vocabulary:
        return True
    return len(q) >= 3 and any(w.startswith(q) for w in vocabulary)


def score(note: Note, qwords: list[str]) -> tuple[int, float, list[str]]:
    """(query words matched, weight, fields matched) of one note."""
    fields = note_fields(note)
    found, weight, matched = 0, 0.0, set()
    for q in qwords:
        best = 0.0
        for field, vocabulary in fields.items():
            if _matches(q, vocabulary):
                matched.add(field)
                exact = 1.0 if q in vocabulary else 0.75
                best = max(best, WEIGHTS[field] * exact)
        if best:
            found += 1
            weight += best
    return found, weight, [f for f in WEIGHTS if f in matched]


def search_notes(ws: Workspace, query: str, limit: int = 20) -> list[Hit]:
    """Notes whose words match ``query``, best first (at most ``limit``)."""
    qwords = query_words(query)
    if not qwords:
        return []
    ranked = []
    for note in ws.notes():
        found, weight, matched = score(note, qwords)
        if found:
            ranked.append((-found, -weight, _STATUS_ORDER.get(note.status, 3), note.id,
                           Hit(note, round(weight, 2), matched)))
    ranked.sort(key=lambda r: r[:4])
    return [r[4] for r in ranked[:limit]]
