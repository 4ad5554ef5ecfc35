"""What the editor shows as diagnostics for one file, computed once for every face.

Codes are stable (clients key settings and quick fixes on them). Invariant *checks*
(queries that must or must not match) join this list in ``file_findings`` when they exist.
"""

from __future__ import annotations

from . import anchors as A
from .checks import CheckError, check_from_dict, evaluate_bounded
from .notes import NoteError
from .text import Range
from .languages import for_path
from .syntax import SourceFile
from .workspace import FileWork, Finding, Located, glob_match, resolve_anchors

ORPHANED, AMBIGUOUS, DRIFT, SUPERSEDED, BROKEN, VIOLATION = (
    "orphaned", "ambiguous", "invariant-drift", "superseded", "broken-note", "invariant-violation")
CODES = (ORPHANED, AMBIGUOUS, DRIFT, SUPERSEDED, BROKEN, VIOLATION)


def drift(loc: Located) -> bool:
    """An invariant's code changed since the invariant was last confirmed."""
    note = loc.note
    if note.kind != "invariant" or not loc.anchor.is_code or not loc.resolution.attached:
        return False
    confirmed = note.confirmed.get("hash") or loc.anchor.hash
    return bool(loc.resolution.hash) and loc.resolution.hash not in str(confirmed).split(",")


def file_findings(rel: str, located: list[Located]) -> list[Finding]:
    out = []
    for loc in located:
        note, a = loc.note, loc.anchor
        if note.status == "retired":
            continue
        place = loc.place or Range(0, 0, 0, 0)
        where = Range(place.sl, place.sc, place.sl + 1, 0)  # the head line, not the whole body
        name = f"`{a.name}`" if a.name else "its code"
        if loc.state == A.ORPHANED:
            out.append(_f(rel, where, "warning", ORPHANED, loc,
                          f"{note.kind} \"{note.title}\" is orphaned: {name} is gone from this file "
                          f"(re-anchor or retire the note)"))
        elif loc.state == A.AMBIGUOUS:
            out.append(_f(rel, where, "warning", AMBIGUOUS, loc,
                          f"{note.kind} \"{note.title}\": {name} matches several places; re-anchor the note"))
        elif drift(loc):
            out.append(_f(rel, where, "warning", DRIFT, loc,
                          f"invariant \"{note.title}\": this code changed since it was last confirmed. "
                          f"Still holds?"))
        elif note.kind == "decision" and note.status == "superseded" and loc.resolution.attached:
            out.append(_f(rel, where, "hint", SUPERSEDED, loc,
                          f"decision \"{note.title}\" was superseded by {note.superseded_by}"))
    return out


def check_file(w: FileWork) -> tuple[list[Finding], dict]:
    """What ``tether check`` reports for one file, touching no store (it may run in a
    forked process): the findings, and the resolutions to keep."""
    checked = any(n.kind == "invariant" and n.checks for n in w.notes)
    src = SourceFile(w.text, for_path(w.rel)) if checked else None  # one parse for anchors and checks
    located, updates = resolve_anchors(w.rel, w.text, w.h, w.todo, w.last, w.olds, src)
    found = [f for f in file_findings(w.rel, located) if f.severity in ("error", "warning")]
    if checked:
        found += check_findings(w.rel, src, w.notes, located)
    return found, updates


def check_findings(rel: str, src, notes, located: list[Located]) -> list[Finding]:
    """Violations of the structural checks of the active invariants that apply to ``rel``
    (anchored in it, or covering it by a glob), each inside its invariant's scope."""
    out = []
    by_note: dict[str, list[Located]] = {}
    for loc in located:
        by_note.setdefault(loc.note.id, []).append(loc)
    for note in notes:
        if note.kind != "invariant" or note.status != "active" or not note.checks:
            continue
        scopes = []
        for loc in by_note.get(note.id, []):
            if loc.anchor.type == A.FILE:
                scopes.append(None)
            elif loc.anchor.is_code and loc.resolution.attached and loc.range is not None:
                r = loc.range
                scopes.append((src.pos.byte(r.sl, r.sc), src.pos.byte(r.el, r.ec)))
        if any(a.type == A.GLOB and glob_match(a.pattern, rel) for a in note.anchors):
            scopes.append(None)
        waived = {}  # check id -> ranges of the statements its reviewed exceptions excuse
        for w in note.exceptions:
            if w.anchor.path == rel:
                res = A.resolve(w.anchor, src)
                if res.attached and res.range is not None:
                    waived.setdefault(w.check, []).append(res.range)
        for raw in note.checks:
            try:
                check = check_from_dict(raw)
            except CheckError:
                continue  # reported where the note file is read
            for scope in scopes:
                violations, cut = evaluate_bounded(check, src, scope)
                for v in violations:
                    if any(_within(v.range, r) for r in waived.get(check.id, ())):
                        continue
                    out.append(Finding(rel, v.range.sl + 1, check.severity, VIOLATION,
                                       f"invariant \"{note.title}\": {v.message}", note.id, v.range,
                                       {"check": check.id, "cut": cut}))
    return out


def _within(inner: Range, outer: Range) -> bool:
    return (outer.sl, outer.sc) <= (inner.sl, inner.sc) and (inner.el, inner.ec) <= (outer.el, outer.ec)


def note_file_findings(errors: list[NoteError]) -> list[Finding]:
    return [Finding(e.path, e.line, "error", BROKEN, e.reason, range=Range(e.line - 1, 0, e.line - 1, 1 << 16))
            for e in errors]


def _f(rel: str, where: Range, severity: str, code: str, loc: Located, message: str) -> Finding:
    return Finding(rel, where.sl + 1, severity, code, message, loc.note.id, where,
                   {"anchor": loc.index, "state": loc.state})
