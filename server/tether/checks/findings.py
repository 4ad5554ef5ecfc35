"""What needs a person, computed once for every face: the editor's diagnostics for one file,
``tether check`` over the workspace, ``tether doctor``.

Codes are stable (clients key settings and quick fixes on them).
"""

from __future__ import annotations

import os
from collections import Counter

from ..core import anchors as A
from ..core.files import WorkspaceError, glob_match
from ..core.fork import fork_map
from ..core.languages import GrammarError, for_path
from ..core.notes import CheckError, Note, NoteError, check_from_dict, validate
from ..core.records import dataclass, field
from ..core.resolution import Located, anchored_in, needs_parse, resolve_anchors, unreached
from ..core.syntax import Change, SourceFile, kept, parsed
from ..core.text import Range, digest
from ..core.workspace import Workspace

FORK_BYTES = 256 * 1024  # a check forks only with at least this much source to parse per process

ORPHANED, AMBIGUOUS, DRIFT, SUPERSEDED, BROKEN, VIOLATION, NOT_RUN = (
    "orphaned", "ambiguous", "invariant-drift", "superseded", "broken-note", "invariant-violation", "check-not-run")
CODES = (ORPHANED, AMBIGUOUS, DRIFT, SUPERSEDED, BROKEN, VIOLATION, NOT_RUN)


@dataclass
class Finding:
    """Something that needs a person: reported by ``check``, ``doctor`` and the editor's
    diagnostics, always with the same codes."""

    path: str
    line: int  # 1-based
    severity: str  # error | warning | info | hint
    code: str  # broken-note | orphaned | ambiguous | invariant-drift | superseded | …
    message: str
    note_id: str = ""
    range: Range | None = None  # 0-based, when known
    extra: dict = field(default_factory=dict)

    def to_text(self) -> str:
        """Like a compiler: ``path:line:col: severity: message [note/check]``."""
        col = f":{self.range.sc + 1}" if self.range else ""
        ref = "/".join(x for x in (self.note_id, self.extra.get("check", "")) if x)
        return f"{self.path}:{self.line}{col}: {self.severity}: {self.message}" + (f" [{ref}]" if ref else "")

    def to_github(self) -> str:
        """A GitHub Actions workflow command (an annotation on the pull request's diff)."""
        level = {"error": "error", "warning": "warning"}.get(self.severity, "notice")
        col = f",col={self.range.sc + 1}" if self.range else ""
        msg = self.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return f"::{level} file={self.path},line={self.line}{col},title=tether {self.code}::{msg}"

    def to_json(self) -> dict:
        """The documented shape of ``tether check --format json``."""
        return {"file": self.path, "line": self.line, "range": self.range.to_lsp() if self.range else None,
                "severity": self.severity, "code": self.code, "message": self.message, "note": self.note_id or None,
                "check": self.extra.get("check")}


@dataclass
class FileWork:
    """One file of a check, with all it needs from the store read beforehand."""

    rel: str
    text: str
    h: str  # digest of text
    notes: list[Note]  # notes that apply to the file
    todo: list[tuple[Note, int, A.Anchor]]  # their anchors in it
    last: dict  # (note id, anchor index) -> last resolution kept
    olds: dict  # text digest -> the text a last resolution was made in

    def cost(self) -> int:
        """About how much work: a file is parsed when checked or when its text is new to an anchor."""
        parse = any(n.kind == "invariant" and n.checks for n in self.notes) or needs_parse(
            self.todo, self.rel, self.h, self.last)
        return len(self.text) if parse else 64


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
                          f"{note.kind} \"{note.title}\" is orphaned: {name} is gone from this file; "
                          f"{fix_lost(note, loc)}"))
        elif loc.state == A.AMBIGUOUS:
            out.append(_f(rel, where, "warning", AMBIGUOUS, loc,
                          f"{note.kind} \"{note.title}\": {name} {matches(loc)}; {fix_lost(note, loc)}"))
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
    src = parsed(w.rel, w.text, for_path(w.rel)) if checked else None  # one parse for anchors and checks
    located, updates, _ = resolve_anchors(w.rel, w.text, w.h, w.todo, w.last, w.olds, src)
    found = [f for f in file_findings(w.rel, located) if f.severity in ("error", "warning")]
    if checked:
        found += check_findings(w.rel, src, w.notes, located)
    return found, updates


def check_findings(rel: str, src, notes, located: list[Located]) -> list[Finding]:
    """Violations of the structural checks of the active invariants that apply to ``rel``
    (anchored in it, or covering it by a glob), each inside its invariant's scope."""
    from .worker import CheckNotRun, evaluate_bounded  # here: a hook after an edit of code no check covers
    # does not import the worker's subprocess and signal handling, nor the engine's dataclasses
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
                try:
                    violations, cut = evaluate_bounded(check, src, scope)
                except CheckNotRun as e:
                    line = src.pos.line_of_byte(scope[0]) if scope else 0
                    out.append(Finding(rel, line + 1, "error", NOT_RUN,
                                       f"invariant \"{note.title}\": check '{check.id}' did not run here: {e}",
                                       note.id, Range(line, 0, line + 1, 0), {"check": check.id}))
                    continue
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


# -- the workspace as a whole ------------------------------------------------------------------

def check(ws: Workspace, rels: list[str] | None = None, note_files: bool = True) -> list[Finding]:
    """Everything ``tether check`` reports for the given files (default: every file a
    note applies to): invariant check violations, invariants whose code drifted, lost
    anchors, and (``note_files``) broken note files — which asks for every note file's stamp
    (a hook alone after an edit of source files, which reports those files only, does not)."""
    if rels is None:  # (every note is read only then: a hook after an edit checks one file of 10,000 notes)
        notes = ws.notes()
        paths = {a.path for n in notes if n.status == "active" for a in n.anchors if a.is_code or a.type == A.FILE}
        globs = [a.pattern for n in notes if n.status == "active" and n.kind == "invariant" and n.checks
                 for a in n.anchors if a.type == A.GLOB]
        if globs:
            paths |= {rel for rel in ws.files() if any(glob_match(g, rel) for g in globs)}
        rels = sorted(paths)
    out = [Finding(e.path, e.line, "error", BROKEN, e.reason) for e in ws.broken()] if note_files else []
    with ws.snapshot(), ws.resolutions.batched(ws.later), ws.tree.reading():  # (each folder resolved once)
        _check_files(ws, rels, out)
    out.sort(key=lambda f: (f.path, f.line, f.range.sc if f.range else 0))
    return out


def _check_files(ws: Workspace, rels: list[str], out: list[Finding]) -> None:
    work = []
    later = set()  # files whose other anchors are resolved after the answer
    for rel in rels:  # the store is read here, in this process ...
        try:
            text = ws.read_source(rel)
        except WorkspaceError:
            if not _exists(ws, rel):  # gone (or a link leading out): its anchors are orphaned
                out += [f for f in file_findings(rel, ws.locate(rel)) if f.severity in ("error", "warning")]
            continue
        notes = ws.notes_on(rel)
        h = digest(text)
        found = _checked_ahead(ws, rel, h, notes)
        if found is not None:  # the hook before the edit checked this very text
            out += _lost_followed(ws, rel, text, found)
            ws.later(_resolve_all, ws, rel, text, h)
            continue
        w, todo = _file_work(ws, rel, text, h, notes)
        if len(w.todo) < len(todo):
            later.add(rel)
            ws.later(_resolve_all, ws, rel, text, h, todo, w.last, w.olds)
        work.append(w)
    # ... the files are parsed and checked anywhere (forked children share a big check;
    # a language's files together, so each process compiles fewer languages' queries) ...
    work.sort(key=lambda w: (os.path.splitext(w.rel)[1], w.rel))
    jobs = max(1, min(ws.cores(), sum(w.cost() for w in work) // FORK_BYTES))
    for w, (found, updates) in zip(work, fork_map(check_file, work, jobs)):
        if w.rel not in later:
            ws.resolutions.keep(w.text, w.h, updates)  # ... and what is kept is stored here
        out += _lost_followed(ws, w.rel, w.text, found)


def _lost_followed(ws: Workspace, rel: str, text: str, found: list[Finding]) -> list[Finding]:
    """``found`` in ``rel`` with the code lost there looked for in other files (which needs the
    store: not in a forked child, nor ahead of an edit)."""
    if not any(f.code == ORPHANED for f in found):
        return found
    lost = {ORPHANED, AMBIGUOUS}
    return [f for f in found if f.code not in lost] + [
        f for f in file_findings(rel, ws.locate(rel, text)) if f.code in lost]


def _file_work(ws: Workspace, rel: str, text: str, h: str, notes: list[Note]) -> tuple[FileWork, list[tuple]]:
    """What checking ``rel`` in ``text`` needs from the store, with the anchors to resolve
    before the answer; and all of the file's anchors."""
    todo = anchored_in(rel, notes)
    last, olds = ws.resolutions.last_seen(todo, h)
    # answering first (a server), a file this process parsed before is parsed now, from what the edit
    # changed since the text most of its anchors were last resolved in
    since = Counter(st.get("resolved_in") for st in last.values() if st).most_common(1)
    src = parsed(rel, text, for_path(rel), h, since[0][0] if since else None) \
        if ws.deferred is not None and kept(rel) else None
    now = _needed_now(todo, last, src.change) if src is not None else todo
    return FileWork(rel, text, h, notes, now, last, olds), todo


def _needed_now(todo: list[tuple], last: dict, ch: Change | None) -> list[tuple]:
    """The anchors of ``todo`` whose resolution in a file's new text the findings need: after
    the edit ``ch`` (from the text this process parsed before), only the invariants' and those
    the edit may have reached. Every other one is carried over attached, its lines shifted,
    and no finding reports that (it is resolved after the answer)."""
    if ch is None:
        return todo
    return [t for t in todo if t[0].kind == "invariant" or not unreached(t[2], last.get((t[0].id, t[1])), ch)]


def parse_ahead(ws: Workspace, rel: str, text: str, edits: list[tuple[str, str]] = (),
                written: str | None = None) -> None:
    """``text``, the file ``rel`` as the hook before an edit read it, parsed and kept with its
    definitions' names; and, parsed from it, the text the announced edit will make of it
    (``edits``: its replacements in order, ``written``: the whole new text), checked, while the
    agent makes the edit (a server told the file is to be edited). The check after the edit then
    finds its findings made, when the file is that text — or, when it is not, parses only what
    the edit changed. (Not the file read again here: by now the agent's tool may be writing it,
    and a file being written can be read empty: the check would then parse the whole file anew
    and resolve every anchor in it.)"""
    lang = for_path(rel)
    parsed(rel, text, lang).names  # noqa: B018
    after = written if written is not None else edited_text(text, edits)
    if after is not None and after != text:
        parsed(rel, after, lang).names  # noqa: B018
        with ws.snapshot():
            _check_ahead(ws, rel, after)
        parsed(rel, text, lang)  # the newest again: a file the edit left otherwise is parsed from the text resolved


_AHEAD: dict[tuple, tuple] = {}  # (root, rel) -> (digest, notes generation, the notes, findings): checked ahead


def _check_ahead(ws: Workspace, rel: str, text: str) -> None:
    """Keep the findings of ``rel`` in ``text``, the text an announced edit will make, for the
    check after the edit (:func:`_checked_ahead`). Nothing is kept in the store: the text is
    not the file's yet (code lost from it is looked for in other files once it is)."""
    notes = ws.notes_on(rel)
    h = digest(text)
    w, _ = _file_work(ws, rel, text, h, notes)
    found, _ = check_file(w)
    if len(_AHEAD) >= 8:
        _AHEAD.clear()
    _AHEAD[(ws.root, rel)] = (h, ws.repo.generation, notes, found)


def _checked_ahead(ws: Workspace, rel: str, h: str, notes: list[Note]) -> list[Finding] | None:
    """The findings :func:`_check_ahead` kept of ``rel`` in the text of digest ``h``, made
    with these very notes (once: the next check works them out)."""
    hit = _AHEAD.pop((ws.root, rel), None)
    if hit is None or ws.deferred is None or hit[0] != h or hit[1] != ws.repo.generation \
            or len(hit[2]) != len(notes) or any(a is not b for a, b in zip(hit[2], notes)):
        return None
    return list(hit[3])


def edited_text(text: str, edits: list[tuple[str, str]]) -> str | None:
    """``text`` with each (old, new) of ``edits`` made in turn, as an agent's edit tools make them
    (each old found exactly once); None when there are none, or an old is not found once (the
    tool would refuse, or replaces every one: the file will tell)."""
    if not edits:
        return None
    for old, new in edits:
        if not old or text.count(old) != 1:
            return None
        text = text.replace(old, new, 1)
    return text


def _resolve_all(ws: Workspace, rel: str, text: str, h: str, todo: list[tuple] | None = None,
                 last: dict | None = None, olds: dict | None = None) -> None:
    """Every anchor of ``rel`` resolved in ``text`` and kept: what the next resolution starts
    from (``todo`` and its last resolutions read from the store when not given)."""
    if todo is None:
        todo = anchored_in(rel, ws.notes_on(rel))
        last, olds = ws.resolutions.last_seen(todo, h)
    _, updates, _ = resolve_anchors(rel, text, h, todo, last, olds)
    ws.resolutions.keep(text, h, updates)
    if ws.deferred is not None:  # a server: where the next hook at a line of it finds them (and the code arrived)
        ws.resolutions.locate(rel, text)


def touched(ws: Workspace, changed: dict[str, list[tuple[int, int]] | None]) -> list[tuple[Note, list[Located]]]:
    """The notes whose code a change touches (``changed``: ``core.files.changed_lines``), each
    with the anchors it touches: code that overlaps a line the change wrote or deleted, a
    changed file, code the change lost or moved to another file, and path patterns covering a
    changed file (all but the whole repository's, which every change is under)."""
    found: dict[str, tuple[Note, list[Located]]] = {}
    with ws.snapshot():
        for rel in sorted(changed):
            for loc in ws.locate(rel):
                if loc.note.status != "retired" and _touches(loc, rel, changed[rel]):
                    found.setdefault(loc.note.id, (loc.note, []))[1].append(loc)
        for note in ws.notes():
            if note.status != "retired" and note.id not in found and any(
                    a.type == A.GLOB and a.pattern != "**" and any(glob_match(a.pattern, rel) for rel in changed)
                    for a in note.anchors):
                found[note.id] = (note, [loc for loc in ws.locate_note(note) if loc.anchor.type == A.GLOB])
    return list(found.values())


def _touches(loc: Located, rel: str, spans: list[tuple[int, int]] | None) -> bool:
    if spans is None or loc.state in (A.ORPHANED, A.AMBIGUOUS) or loc.path != rel:
        return True
    if loc.anchor.type == A.FILE or loc.range is None:
        return bool(spans)
    r = loc.range
    return any(s <= r.el and (e > r.sl if e > s else s > r.sl) for s, e in spans)  # e == s: lines deleted at s


def doctor(ws: Workspace) -> list[Finding]:
    """Everything that needs a person: broken note files, anchors that lost their code,
    references to missing notes, an index that disagrees with the files."""
    with ws.snapshot():  # the notes folder scanned once, not once a note
        return _doctor(ws)


def _doctor(ws: Workspace) -> list[Finding]:
    out = [Finding(e.path, e.line, "error", BROKEN, e.reason) for e in ws.broken()]
    notes = ws.notes()
    short = ws.short_ids() if notes else {}
    located = ws.locate_notes([n for n in notes if n.status != "retired"])
    for note in notes:
        if note.status == "superseded" and ws.note(note.superseded_by) is None:
            out.append(Finding(note.path, 1, "warning", "unknown-successor",
                               f"superseded by '{note.superseded_by}', which is no note here", note.id))
        if note.status == "retired":
            continue
        for loc in located[note.id]:
            a = loc.anchor
            line = loc.place.sl + 1 if loc.place else 1  # where it was last seen, as check and the editor say
            nid = short.get(note.id, note.id)
            if loc.state == A.ORPHANED:
                gone = "its file is gone" if not _exists(ws, a.path) else \
                    f"`{a.name}` is no longer in {a.path}" if a.name else f"its code is no longer in {a.path}"
                out.append(Finding(a.path, line, "warning", ORPHANED,
                                   f"note \"{note.title}\" is orphaned: {gone}; {fix_lost(note, loc, nid)}", note.id))
            elif loc.state == A.AMBIGUOUS:
                what = f"`{a.name}`" if a.name else "its code"
                out.append(Finding(a.path, line, "warning", AMBIGUOUS,
                                   f"note \"{note.title}\": {what} {matches(loc, _names(ws, loc))}; "
                                   f"{fix_lost(note, loc, nid)}", note.id))
    for note in notes:
        if note.kind == "invariant" and note.status == "active":
            out += _checks_that_cannot_run(note)
            for loc in located[note.id]:
                if drift(loc):
                    out.append(Finding(loc.anchor.path, loc.range.sl + 1, "warning", DRIFT,
                                       f"invariant \"{note.title}\": its code changed since it was last "
                                       f"confirmed; still holds? (`tether confirm {short.get(note.id, note.id)}`)",
                                       note.id))
    for nid, path in ws.repo.indexed().items():
        if not (ws.root / path).exists():
            out.append(Finding(path, 1, "error", "index-mismatch",
                               f"the index lists note {nid} but its file is gone; run `tether reindex`", nid))
    for f in sorted(ws.notes_dir.glob(".*.tmp")) if ws.notes_dir.is_dir() else ():
        out.append(Finding(ws.rel(f), 1, "warning", "leftover-temp",
                           "a temporary file left by an interrupted write; its note is intact, delete this file"))
    return out


def _exists(ws: Workspace, rel: str) -> bool:
    """``rel`` is a file of the workspace (a link leading out is none)."""
    try:
        return ws.abs(rel).is_file()
    except WorkspaceError:
        return False


def _checks_that_cannot_run(note: Note) -> list[Finding]:
    """An invariant's checks that cannot run on its code (a query that does not compile, an
    unknown language): each a finding, so nothing is silently not checked."""
    from .worker import compiles
    code = [a for a in note.anchors if a.type != A.GLOB]
    lang = for_path(code[0].path) if code else None
    out = []
    for raw in note.checks:
        try:
            validate(check_from_dict(raw), lang, any_language=not code, compile=compiles)
        except (CheckError, GrammarError) as e:
            out.append(Finding(note.path, 1, "error", NOT_RUN, f"invariant \"{note.title}\": {e}; it cannot run",
                               note.id, extra={"check": raw.get("id", "")}))
    return out


def candidates(loc: Located, names: list[str] = ()) -> str:
    """The places an ambiguous anchor matches, named: ``lines 4-9, `load` at lib/x.py:12-20``."""
    res = loc.resolution
    named = [f"{'`' + n + '` at ' if n else ''}{'lines ' if p == loc.anchor.path else p + ':'}{r.sl + 1}-{r.el + 1}"
             for (p, r), n in zip(_places(loc), [*names, *[""] * len(res.candidates)])]
    return ", ".join(named) if named else "none it can name"


def _places(loc: Located) -> list[tuple[str, Range]]:
    res = loc.resolution
    return list(zip(res.candidate_paths or [loc.anchor.path] * len(res.candidates), res.candidates))


def matches(loc: Located, names: list[str] = ()) -> str:
    """What an ambiguous anchor found: one place it will not take on its own (a rename, offered), or several."""
    if len(loc.resolution.candidates) == 1:
        how = "looks renamed" if loc.resolution.offered else "may have moved"
        return f"is gone from {loc.anchor.path} as it was; it {how}: {candidates(loc, names)}"
    return f"matches {len(loc.resolution.candidates)} places equally well ({candidates(loc, names)})"


def fix_lost(note: Note, loc: Located, nid: str = "") -> str:
    """The command that ties a lost anchor to code again (naming the place when there is one
    candidate), and the one that retires a note that no longer applies."""
    nid = nid or note.id
    which = f" --anchor {loc.index + 1}" if len(note.anchors) > 1 else ""
    places = _places(loc)
    where = f"{places[0][0]}:{places[0][1].sl + 1}" if len(places) == 1 else "PATH:LINE"
    tie = "if that is it" if len(places) == 1 else "on the right one" if places else "on the code it is about now"
    return f"{tie}, run `tether reanchor {nid} {where}{which}`; if the note no longer applies, `tether retire {nid}`"


def _names(ws: Workspace, loc: Located) -> list[str]:
    """The name of the definition at each candidate place ("" where none is found)."""
    out = []
    for path, r in _places(loc):
        try:
            src = SourceFile(ws.read_source(path), for_path(path))
            out.append(A.record(src, path, r.sl, r.sc, how=A.SYMBOL).name or "")
        except (WorkspaceError, A.AnchorError, GrammarError):
            out.append("")
    return out
