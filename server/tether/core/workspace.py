"""The one service every face calls. A :class:`Workspace` composes the note repository
(note files + index, :mod:`repository`), where the anchors are now (:mod:`resolution`) and
the workspace's files (:mod:`files`), and holds the operations that write notes: record,
join, amend, confirm, re-anchor, sync, retire, supersede, ignore once. The work lives in the parts; this
class wires them and keeps each write's steps in order (validate, write the file, remember
the text the anchor was made in).
"""

from __future__ import annotations

import os
from collections import namedtuple
from collections.abc import Callable
from pathlib import Path

from . import anchors as A
from .files import TETHER_DIR, SourceTree, WorkspaceError, git_toplevel, glob_reaches, inside, is_under, normalize_glob
from .languages import GrammarError, for_path
from .notes import (KINDS, Alternative, CheckError, Note, NoteError, Waiver, author_name, check_from_dict, new_id,
                    now, validate)
from .repository import NoteRepository
from .resolution import Located, Resolutions
from .store import Store
from .syntax import SourceFile

TYPE_CHECKING = False  # (not typing's: importing it costs every hook call ~3 ms)
if TYPE_CHECKING:
    from typing import ClassVar

__all__ = ["TETHER_DIR", "Located", "NoteError", "Place", "Workspace", "WorkspaceError"]


class Place(namedtuple("Place", "path line col how end", defaults=(None, 0, A.SYMBOL, None))):
    """Where a note is anchored, as a write takes it: ``path:line:col`` (0-based) anchored as
    ``how`` (symbol, span, file; glob: ``path`` is the pattern), ``end`` (line, col) for lines."""

    __slots__ = ()


class Workspace:
    # the workspaces a resident process keeps open (agents/resident.py): ``find`` hands them
    # out and ``close`` leaves them open, so every face in that process answers from warm state
    resident: ClassVar[dict[Path, Workspace]] = {}

    def __init__(self, root: Path, auto_refresh: bool = True):
        self.root = Path(root).resolve()
        self.dir = self.root / TETHER_DIR
        self.notes_dir = self.dir / "notes"
        for d in (self.dir, self.notes_dir, self.dir / "cache"):  # committed as links leading out: refused
            if os.path.lexists(d) and not inside(os.path.realpath(d), self.root):
                raise WorkspaceError(f"{d.relative_to(self.root)} leads outside the workspace {self.root} "
                                     f"(a link): tether reads and writes only inside it")
        self.jobs: int | None = None  # processes a large read may share (None: one a core; fork.py)
        self.store = Store(self.dir / "cache")  # opened on first use
        self.tree = SourceTree(self.root)
        self.repo = NoteRepository(self.root, self.store, self.cores, auto_refresh)
        self.resolutions = Resolutions(self.store, self.tree, self.repo.notes_on, lambda: self.repo.generation,
                                       self.repo.anchored_paths, lambda: self.repo.seal, self.repo.named_in)
        # work a request's answer does not wait for: a resident server (cli/resident.py) sets a
        # list and runs what is put there once the answer is out; None: at once (a command alone)
        self.deferred: list | None = None

    # -- finding and creating ------------------------------------------------------------
    @classmethod
    def find(cls, start: Path | str = ".", auto_refresh: bool = True) -> Workspace:
        """The workspace ``start`` is in. ``auto_refresh=False``: for a process that answers one
        request (a hook event), its first read looks at the notes folder and the others trust it."""
        here = Path(start).resolve()
        for d in (here, *here.parents):
            if (d / TETHER_DIR).is_dir():
                return cls.resident.get(d) or cls(d, auto_refresh)
        raise WorkspaceError(f"no {TETHER_DIR}/ in {here} or above: run `tether init` in the repository")

    @staticmethod
    def top(start: Path | str = ".", exact: bool = False) -> Path:
        """Where ``init`` puts ``.tether/``: the git work tree's top, or ``start``."""
        start = Path(start).resolve()
        if not start.is_dir():
            raise WorkspaceError(f"{start}: not a folder")
        return start if exact else (git_toplevel(start) or start)

    @classmethod
    def init(cls, start: Path | str = ".", exact: bool = False) -> tuple[Workspace, bool]:
        """Create ``.tether/`` at the git work tree's top (or in ``start``; always there
        when ``exact``). Idempotent."""
        ws = cls(cls.top(start, exact))
        created = not ws.notes_dir.is_dir()
        ws.notes_dir.mkdir(parents=True, exist_ok=True)
        gi = ws.dir / ".gitignore"
        if not gi.exists():
            gi.write_text("# the LMDB index is rebuilt from notes/ at any time\ncache/\n", encoding="utf-8")
        return ws, created

    def close(self) -> None:
        if Workspace.resident.get(self.root) is not self:
            self.repo.close()
            self.store.close()

    def later(self, fn: Callable, *args) -> None:
        """Run ``fn(*args)`` once the answer is out (at once when nobody answers first). Only
        for what the answer cannot depend on: the server runs it before the next request."""
        if self.deferred is None:
            fn(*args)
        else:
            self.deferred.append((fn, args))

    def cores(self) -> int:
        """Processes a large read or check may share."""
        from .fork import cores  # here: signal and threading cost a hook that forks nothing 1.5 ms
        return self.jobs or cores()

    # -- the parts, as the faces use them ----------------------------------------------------
    def rel(self, path: str | Path, base: Path | None = None) -> str:
        return self.tree.rel(path, base)

    def abs(self, rel: str) -> Path:
        return Path(self.tree.real(rel))

    def read_source(self, rel: str) -> str:
        return self.tree.read(rel)

    def files(self) -> list[str]:
        return self.tree.files()

    def walk(self) -> list[tuple[str, os.stat_result]]:
        return self.tree.walk()

    def refresh(self, force: bool = False) -> None:
        self.repo.refresh(force)

    def snapshot(self):
        """One consistent view for a compound read (the notes folder checked once)."""
        return self.repo.snapshot()

    def notes(self) -> list[Note]:
        return self.repo.notes()

    def broken(self) -> list[NoteError]:
        return self.repo.broken()

    def note(self, nid: str) -> Note | None:
        return self.repo.note(nid)

    def get(self, ref: str) -> Note:
        """A note by id, unique id prefix, or note file path."""
        return self.repo.get(self.rel(ref.strip()) if ref.strip().endswith(".md") else ref)

    def notes_on(self, rel: str) -> list[Note]:
        return self.repo.notes_on(rel)

    def short_ids(self) -> dict[str, str]:
        """Note id -> the short form people see and type (see ``notes.short_ids``)."""
        return self.repo.short_ids()

    def notes_in(self, rel: str) -> list[Note]:
        """The notes of the file or folder ``rel``: anchored there, covering it by a glob, and,
        for a file, those whose code is there now (moved in from another file, before ``sync``
        writes the new path)."""
        folder = not self.abs(rel).is_file()  # (a folder's notes include the patterns that reach inside it)
        scope = {n.id: n for n in self.notes()
                 if any(glob_reaches(a.pattern, rel) if a.type == A.GLOB else is_under(a.path, rel)
                        for a in n.anchors if folder or a.type != A.GLOB)}
        scope.update((n.id, n) for n in self.notes_on(rel))
        if not folder:
            scope.update((loc.note.id, loc.note) for loc in self.locate(rel) if loc.path == rel)
        return sorted(scope.values(), key=lambda n: n.id)

    def save(self, note: Note) -> Note:
        return self.repo.save(note)

    def update(self, ref: str, change: Callable[[Note], None]) -> Note:
        return self.repo.update(ref, change)

    def reindex(self) -> tuple[int, int]:
        return self.repo.reindex()

    def locate(self, rel: str, text: str | None = None, src: SourceFile | None = None) -> list[Located]:
        return self.resolutions.locate(rel, text, src)

    def locate_note(self, note: Note, texts: dict[str, str] | None = None) -> list[Located]:
        return self.resolutions.locate_note(note, texts)

    def locate_notes(self, notes: list[Note]) -> dict[str, list[Located]]:
        """Note id -> :meth:`locate_note` of it, for many notes at once (``list``, ``doctor``,
        ``site``): each file they name read once and parsed at most once for all its anchors."""
        out: dict[str, list[Located]] = {n.id: [Located(n, i, a, A.Resolution(A.OK))
                                                for i, a in enumerate(n.anchors) if a.type == A.GLOB] for n in notes}
        for located in self.locate_files({a.path for n in notes for a in n.anchors if a.type != A.GLOB}).values():
            for loc in located:
                if loc.note.id in out:
                    out[loc.note.id].append(loc)
        return {nid: sorted(locs, key=lambda loc: loc.index) for nid, locs in out.items()}

    def locate_files(self, rels: set[str]) -> dict[str, list[Located]]:
        """:meth:`locate` of many files at once, each file's own anchors only (no code that
        arrived from elsewhere): read once, parsed at most once, shared over the cores."""
        todos: dict[str, list[tuple[Note, int, A.Anchor]]] = {rel: [] for rel in sorted(rels)}
        for n in self.notes():  # every note's anchors there: a file's resolutions are kept whole
            for i, a in enumerate(n.anchors):
                if a.type != A.GLOB and a.path in todos:
                    todos[a.path].append((n, i, a))
        return self.resolutions.locate_files(todos, self.cores())

    def keep_located(self, text: str, located: list[Located]) -> None:
        self.resolutions.keep_located(text, located)

    # -- writes --------------------------------------------------------------------------
    def record(self, kind: str, path: str, line: int | None = None, col: int = 0, *, how: str = A.SYMBOL,
               title: str, body: str = "", rationale: str = "", rejected: list[tuple[str, str]] = (),
               tags: list[str] = (), works_around: str = "", remove_when: str = "", failure: str = "",
               cause: str = "", end: tuple[int, int] | None = None, text: str | None = None, checks: list[dict] = (),
               or_statement: bool = False, compile=None, more: list[Place] = ()) -> Note:
        """Create a note anchored at ``path:line:col`` (0-based; ``how`` = symbol, span or
        file), or on a glob pattern (``how`` = glob, ``path`` = the pattern); ``more``: further
        places the note governs, anchored in the same write. ``or_statement``: where no
        definition encloses a position, the statement or lines there. ``compile``: how a
        written check query is tried (see ``notes.validate``)."""
        if kind not in KINDS:
            raise WorkspaceError(f"unknown kind '{kind}': use one of {', '.join(KINDS)}")
        if not title.strip():
            raise WorkspaceError("a note needs a title (--title)")
        placed = [self.anchor_for(Place(path, line, col, how, end), text, or_statement)]
        placed += [self.anchor_for(p, None, or_statement) for p in more]
        anchors: list[A.Anchor] = []
        for anchor, _ in placed:
            if anchor in anchors:
                raise WorkspaceError(f"{anchor.name or anchor.path or anchor.pattern} is given twice")
            anchors.append(anchor)
        if checks and kind != "invariant":
            raise WorkspaceError("only invariants carry checks")
        self._refuse_repeat(kind, title, anchors[0])
        for anchor, src in placed:
            lang = src.lang if src is not None else None
            for raw in checks:  # refused now, with the reason, rather than silently never matching
                try:
                    validate(check_from_dict(raw), lang, any_language=anchor.type == A.GLOB, compile=compile)
                except (CheckError, GrammarError) as e:
                    raise WorkspaceError(str(e)) from None
        stamp = now()
        note = Note(id=new_id(), kind=kind, title=title.strip(), author=author_name(str(self.root)),
                    created=stamp, updated=stamp, tags=list(tags), rationale=rationale.strip(),
                    works_around=works_around.strip(), remove_when=remove_when.strip(), failure=failure.strip(),
                    cause=cause.strip(), alternatives=[Alternative(o.strip(), w.strip()) for o, w in rejected],
                    anchors=anchors, body=body, checks=[dict(c) for c in checks])
        hashes = [a.hash for a in anchors if a.hash]
        if kind == "invariant" and hashes:  # every place's code as recorded: the drift guard's baseline
            note.confirmed = {"by": note.author, "at": stamp, "hash": ",".join(hashes)}
        for i, (anchor, src) in enumerate(placed):
            if src is not None:
                self.resolutions.remember(note, i, anchor, src.text)
                self.resolutions.see((anchor.path, src))
        return self.save(note)

    def _refuse_repeat(self, kind: str, title: str, anchor: A.Anchor) -> None:
        """The same note recorded twice (a command run again, an agent's retry) would be two files
        saying one thing: refused, naming the note to change instead."""
        said = " ".join(title.split()).casefold()
        where = (anchor.type, anchor.path, anchor.name, anchor.pattern)
        near = self.notes() if anchor.type == A.GLOB else self.notes_on(anchor.path)
        for n in near:
            if (n.status == "active" and n.kind == kind and " ".join(n.title.split()).casefold() == said
                    and any((a.type, a.path, a.name, a.pattern) == where for a in n.anchors)):
                short, on = self.repo.short_id(n.id), anchor.name or anchor.path or anchor.pattern
                raise WorkspaceError(f"note {short} already says \"{n.title}\" on `{on}`: change it with "
                                     f"`tether amend {short}` (MCP: amend_note) rather than record it twice")

    def join(self, ref: str, places: list[Place] = (), *, title: str = "", body: str = "", rationale: str = "",
             rejected: list[tuple[str, str]] = (), works_around: str = "", remove_when: str = "", failure: str = "",
             cause: str = "", or_statement: bool = False) -> Note:
        """A restatement of note ``ref`` joins it instead of making a second note: the places it
        names that the note lacks become anchors, rejected options the note lacks are added and
        empty fields filled; a title becomes the note's title (a restatement says the rule as it
        now stands, often wider), the old one kept in the body under "Said again" with the
        restatement's other words."""
        placed = [self.anchor_for(p, None, or_statement) for p in places]
        stamp = now()

        def change(n: Note):
            change.fresh = _add_places(n, placed, skip_known=True)
            _add_rejected(n, rejected, replace=False)
            for field, value in (("rationale", rationale), ("works_around", works_around),
                                 ("remove_when", remove_when), ("failure", failure), ("cause", cause)):
                if value.strip() and not getattr(n, field):
                    setattr(n, field, value.strip())
            said = [f"Was titled: {n.title}"] if title.strip() and title.strip() != n.title else []
            said += [x for x in (rationale.strip() if rationale.strip() != n.rationale else "", body.strip()) if x]
            if title.strip():
                n.title = title.strip()
            if said:
                n.body = (n.body.rstrip("\n") + "\n\n" if n.body.strip() else "") + \
                    f"## Said again ({stamp[:10]})\n\n" + "\n\n".join(said) + "\n"
        return self._remember_new(self.update(ref, change), change.fresh)

    def amend(self, ref: str, places: list[Place] = (), *, kind: str | None = None, title: str | None = None,
              body: str | None = None, rationale: str | None = None, rejected: list[tuple[str, str]] = (),
              drop_rejected: list[str] = (), works_around: str | None = None, remove_when: str | None = None,
              failure: str | None = None, cause: str | None = None, drop_places: list[int] = (),
              or_statement: bool = False) -> Note:
        """Correct note ``ref`` in place: each field given (not None) replaces the note's ("" clears
        it), a rejected option given adds it or replaces the reason of the one of that name,
        ``drop_rejected`` names options to remove, ``places`` are anchored as further places and
        ``drop_places`` (0-based anchor indexes) removed. A refusal changes nothing."""
        if kind is not None and kind not in KINDS:
            raise WorkspaceError(f"unknown kind '{kind}': use one of {', '.join(KINDS)}")
        if title is not None and not title.strip():
            raise WorkspaceError("a note needs a title: the decision or rule itself")
        nid = self.get(ref).id  # an unknown or ambiguous id is named before any place is read
        if all(x is None for x in (kind, title, body, rationale, works_around, remove_when, failure, cause)) and \
                not (places or rejected or drop_rejected or drop_places):
            raise WorkspaceError(f"nothing to change in {nid}: give what to replace (a title, a rationale, …), "
                                 f"rejected options or places to add or drop")
        placed = [self.anchor_for(p, None, or_statement) for p in places]
        drop_places, drop = set(drop_places), {o.strip().lower() for o in drop_rejected}

        def change(n: Note):  # checked on the note as it is on disk, under the lock: a refusal writes nothing
            if kind not in (None, "invariant") and n.checks:
                raise WorkspaceError(f"{n.id} has checks, which only invariants carry; it stays an invariant")
            bad = next((i for i in sorted(drop_places) if not 0 <= i < len(n.anchors)), None)
            if bad is not None:
                raise WorkspaceError(f"{n.id} has no place {bad + 1} (it has {len(n.anchors)}; see `tether show`)")
            had = {a.option.lower() for a in n.alternatives}
            gone = next((o for o in drop_rejected if o.strip().lower() not in had), None)
            if gone is not None:
                listed = ", ".join(f"'{a.option}'" for a in n.alternatives) or "none"
                raise WorkspaceError(f"{n.id} has no rejected option '{gone}' (it has {listed})")
            kept = [a for i, a in enumerate(n.anchors) if i not in drop_places]
            for anchor, _ in placed:
                if _key(anchor) in {_key(a) for a in kept}:
                    raise WorkspaceError(f"{_named(anchor)} is already one of {n.id}'s places")
            if not kept and not placed:
                raise WorkspaceError(f"a note keeps at least one place; to drop {n.id}, retire it (`tether retire`)")
            if drop_places:
                dropped = {n.anchors[i].hash for i in drop_places} - {None, ""}
                n.anchors = kept
                if n.confirmed:  # the dropped places' code leaves the drift guard's baseline
                    n.confirmed["hash"] = ",".join(h for h in str(n.confirmed.get("hash", "")).split(",")
                                                   if h and h not in dropped)
            change.fresh = _add_places(n, placed)
            if kind is not None and kind != n.kind:
                if kind == "invariant":  # an invariant's baseline: every place's code as recorded
                    n.confirmed = {"by": author_name(str(self.root)), "at": now(),
                                   "hash": ",".join(a.hash for a in n.anchors if a.hash)}
                elif n.kind == "invariant":
                    n.confirmed = {}
                n.kind = kind
            n.alternatives = [a for a in n.alternatives if a.option.lower() not in drop]
            _add_rejected(n, rejected, replace=True)
            for field, value in (("title", title), ("body", body), ("rationale", rationale),
                                 ("works_around", works_around), ("remove_when", remove_when),
                                 ("failure", failure), ("cause", cause)):
                if value is not None:
                    setattr(n, field, value if field == "body" else value.strip())
        return self._remember_new(self.update(nid, change), change.fresh)

    def place_index(self, note: Note, path: str, line: int | None = None) -> int:
        """Which of a note's places is at ``path`` (workspace-relative, or a path pattern) and
        ``line`` (0-based; the place whose code holds it now, the innermost; None: the file's
        one place, or its whole-file place)."""
        located = self.locate_note(note)
        if "*" in path or "?" in path:
            hits = [loc for loc in located if loc.anchor.type == A.GLOB and loc.anchor.pattern == normalize_glob(path)]
        elif line is None:
            hits = [loc for loc in located if loc.anchor.type != A.GLOB and loc.path == path]
            hits = hits if len(hits) < 2 else [loc for loc in hits if loc.anchor.type == A.FILE]
        else:
            hits = sorted((loc for loc in located if loc.anchor.type not in (A.GLOB, A.FILE) and loc.path == path
                           and loc.range is not None and loc.range.sl <= line <= loc.range.el),
                          key=lambda loc: loc.range.el - loc.range.sl)[:1]
        if len(hits) != 1:
            at = f"{path}:{line + 1}" if line is not None else path
            places = "; ".join(f"{loc.index + 1}: {_named(loc.current())}" for loc in located)
            raise WorkspaceError(f"{note.id}: {'no place' if not hits else 'several places'} at {at} "
                                 f"(its places: {places})")
        return hits[0].index

    def _remember_new(self, note: Note, fresh: list[tuple[int, A.Anchor, SourceFile | None]]) -> Note:
        """Keep the text each place just added was anchored in (see :meth:`record`)."""
        for i, a, src in fresh:
            if src is not None:
                self.resolutions.remember(note, i, a, src.text)
        return note

    def anchor_for(self, place: Place, text: str | None = None,
                   or_statement: bool = False) -> tuple[A.Anchor, SourceFile | None]:
        """A new anchor on a place (and the file it read, None for a pattern)."""
        path, line, col, how, end = place
        if how == A.GLOB:
            return A.Anchor(A.GLOB, pattern=normalize_glob(path)), None
        rel = self.rel(path)
        if how == A.FILE:
            if not self.abs(rel).is_file():
                raise WorkspaceError(f"{rel}: no such file" if not self.abs(rel).exists() else
                                     f"{rel}: not a file; anchor a folder with --glob '{rel.rstrip('/')}/**'")
            try:  # what the file holds now: found again if it is renamed where git cannot say
                src = SourceFile(self.read_source(rel), for_path(rel))
            except WorkspaceError:
                src = None
            return A.Anchor(A.FILE, path=rel), src
        if line is None:
            raise WorkspaceError(f"{rel}: give a line (PATH:LINE), or --file for the whole file")
        return self._anchor_at(rel, line, col, how, end if how != A.SYMBOL else None, text, or_statement)

    def _anchor_at(self, rel: str, line: int, col: int, how: str, end: tuple[int, int] | None = None,
                   text: str | None = None, or_statement: bool = False) -> tuple[A.Anchor, SourceFile]:
        """A new anchor on the code at ``rel:line:col`` (0-based), in ``text`` or the file;
        ``or_statement``: the statement there when no definition encloses it."""
        src = SourceFile(self.read_source(rel) if text is None else text, for_path(rel))
        if src.lang is not None and src.tree is None and how == A.SYMBOL:
            raise WorkspaceError(f"{rel}: too large to parse; anchor the file (--file) or lines (--span)")
        try:
            try:
                return A.record(src, rel, line, col, how=how, end=end), src
            except A.NoDefinition:
                if not or_statement:
                    raise
                return A.record(src, rel, line, col, how=A.SPAN), src
        except A.AnchorError as e:
            raise WorkspaceError(str(e)) from None

    def retire(self, ref: str) -> Note:
        return self.update(ref, lambda n: setattr(n, "status", "retired"))

    def supersede(self, old_ref: str, new_ref: str) -> Note:
        new = self.get(new_ref)
        if new.id == self.get(old_ref).id:
            raise WorkspaceError("a note cannot supersede itself")

        def change(n: Note):
            n.status, n.superseded_by = "superseded", new.id
        return self.update(old_ref, change)

    def confirm(self, ref: str, texts: dict[str, str] | None = None) -> Note:
        """An invariant still holds: record the current fingerprint of its code, who, when.
        ``texts``: current contents by path (an editor's unsaved buffers)."""
        note = self.get(ref)
        if note.kind != "invariant":
            raise WorkspaceError(f"{note.id} is a {note.kind}; only invariants are confirmed")
        code = [loc for loc in self.locate_note(note, texts) if loc.anchor.is_code]
        lost = [loc for loc in code if not loc.resolution.attached]
        if lost:
            raise WorkspaceError(f"{note.id}: its code in {lost[0].anchor.path} is {lost[0].state}; "
                                 f"re-anchor the note before confirming it")
        hashes = [loc.resolution.hash for loc in code if loc.resolution.hash]

        def change(n: Note):
            n.confirmed = {"by": author_name(str(self.root)), "at": now(), "hash": ",".join(hashes)}
        return self.update(note.id, change)

    def reanchor(self, ref: str, index: int, path: str, line: int, col: int = 0, how: str | None = None,
                 text: str | None = None) -> Note:
        """Tie anchor ``index`` of a note to the code at ``path:line:col`` (0-based) instead."""
        note = self.get(ref)
        if not 0 <= index < len(note.anchors):
            raise WorkspaceError(f"{note.id} has no anchor {index + 1}")
        how = how or (note.anchors[index].type if note.anchors[index].is_code else A.SYMBOL)
        anchor, src = self._anchor_at(self.rel(path), line, col, A.SPAN if how == A.LINES else how, text=text)

        def change(n: Note):
            old = n.anchors[index].hash
            n.anchors[index] = anchor
            if n.kind == "invariant":  # this place's baseline is its new code; the others' stay as confirmed
                hashes = [h for h in str(n.confirmed.get("hash", "")).split(",") if h and h != old]
                n.confirmed = {"by": author_name(str(self.root)), "at": now(),
                               "hash": ",".join([*hashes, anchor.hash] if anchor.hash else hashes)}
        note = self.update(note.id, change)
        self.resolutions.remember(note, index, anchor, src.text)
        return note

    def sync(self, rels: list[str] | None = None, *, renamed_only: bool = False,
             texts: dict[str, str] | None = None, write: bool = True) -> list[tuple[Note, int, A.Anchor, A.Anchor]]:
        """Write the current fingerprint of anchors whose code moved, changed or was renamed
        back into their note files, so that a clone without this machine's cache resolves
        them too. Returns (note, anchor index, new anchor, old anchor) for each anchor that changed."""
        texts = texts or {}
        with self.snapshot(), self.resolutions.batched():  # the notes folder scanned once; one store write
            found, old = self._moved_anchors(rels, texts, renamed_only)
            if not write:
                return [(self.get(nid), i, new, old[nid, i]) for nid, news in found.items() for i, new in news]

        def change(n: Note):
            for i, new in found[n.id]:
                if n.kind == "invariant" and not n.confirmed:  # keep the drift guard's baseline
                    n.confirmed = {"by": n.author, "at": n.created, "hash": n.anchors[i].hash}
                n.anchors[i] = new
        out = []
        with self.resolutions.batched():
            for note in self.repo.update_many(dict.fromkeys(found, change)):
                for i, new in found[note.id]:
                    if new.is_code:
                        self.resolutions.remember(note, i, new, texts.get(new.path) or self.read_source(new.path))
                    out.append((note, i, new, old[note.id, i]))
        return out

    def _moved_anchors(self, rels: list[str] | None, texts: dict[str, str], renamed_only: bool
                       ) -> tuple[dict[str, list[tuple[int, A.Anchor]]], dict[tuple[str, int], A.Anchor]]:
        """Note id -> (anchor index, the anchor as its code is now) of each anchor ``sync``
        writes, and (note id, index) -> the anchor as the note file has it."""
        if rels is None and not texts:  # the whole workspace: each file's own anchors, all at once
            by_file = self.locate_files({a.path for n in self.notes() if n.status != "retired"
                                         for a in n.anchors if a.type != A.GLOB})
        else:
            by_file = {}
            for rel in rels if rels is not None else sorted(
                    {a.path for n in self.notes() if n.status != "retired" for a in n.anchors if a.type != A.GLOB}):
                try:
                    by_file[rel] = self.locate(rel, texts.get(rel))
                except WorkspaceError:
                    continue
        found: dict[str, list[tuple[int, A.Anchor]]] = {}
        old: dict[tuple[str, int], A.Anchor] = {}
        parsed: dict[str, SourceFile] = {}
        for located in by_file.values():
            for loc in located:
                r, a = loc.range, loc.anchor
                old[loc.note.id, loc.index] = a
                if a.type == A.FILE and loc.resolution.path:  # its file was renamed
                    found.setdefault(loc.note.id, []).append((loc.index, A.Anchor(A.FILE, path=loc.resolution.path)))
                    continue
                if not a.is_code or not loc.resolution.attached or r is None or loc.state == A.OK:
                    continue
                if renamed_only and loc.state != A.RENAMED:
                    continue
                path = loc.path  # where its code is now: another file when it moved there
                if path not in parsed:
                    parsed[path] = SourceFile(texts.get(path) or self.read_source(path), for_path(path))
                try:
                    new = A.record(parsed[path], path, r.sl, r.sc, how=A.SYMBOL if a.type == A.SYMBOL else A.SPAN,
                                   end=(r.el, r.ec) if a.type != A.SYMBOL else None)
                except A.AnchorError:
                    continue
                if new.range != r or (a.type == A.SYMBOL and new.name != loc.resolution.name):
                    continue  # never write down anything but the code the anchor resolved to
                found.setdefault(loc.note.id, []).append((loc.index, new))
        return found, old

    def ignore_once(self, ref: str, check_id: str, path: str, line: int, col: int = 0, reason: str = "",
                    text: str | None = None) -> Note:
        """A reviewed exception: the check ``check_id`` of an invariant no longer reports the
        statement at ``path:line:col`` (0-based), as long as that statement is there."""
        note = self.get(ref)
        if not any(c.get("id") == check_id for c in note.checks):
            raise WorkspaceError(f"{note.id} has no check '{check_id}'")
        anchor, _ = self._anchor_at(self.rel(path), line, col, A.SPAN, text=text)

        def change(n: Note):
            n.exceptions.append(Waiver(check_id, anchor, author_name(str(self.root)), now(), reason))
        return self.update(note.id, change)


def _named(a: A.Anchor) -> str:
    """An anchor as an error names it: "`name` in path", "path", "pattern src/**"."""
    return f"pattern {a.pattern}" if a.type == A.GLOB else f"`{a.name}` in {a.path}" if a.name else a.path


def _key(a: A.Anchor) -> tuple:
    """What makes two anchors the same place."""
    return a.type, a.path, a.pattern, a.name


def _add_places(n: Note, placed: list[tuple[A.Anchor, SourceFile | None]], skip_known: bool = False
                ) -> list[tuple[int, A.Anchor, SourceFile | None]]:
    """Add anchors to a note (``skip_known``: those it has already are left out), their code
    joining an invariant's drift-guard baseline; returns (index, anchor, its text) of each."""
    fresh = [(a, src) for a, src in placed if not skip_known or _key(a) not in {_key(b) for b in n.anchors}]
    start = len(n.anchors)
    n.anchors += [a for a, _ in fresh]
    if n.kind == "invariant" and n.confirmed:
        n.confirmed["hash"] = ",".join(h for h in [n.confirmed.get("hash", ""), *(a.hash for a, _ in fresh)] if h)
    return [(start + i, a, src) for i, (a, src) in enumerate(fresh)]


def _add_rejected(n: Note, rejected: list[tuple[str, str]], replace: bool) -> None:
    """Add rejected options the note lacks; of one it has (by name, any case) the reason is
    filled when empty, or, with ``replace``, replaced by a reason given."""
    for option, why in rejected:
        had = next((a for a in n.alternatives if a.option.lower() == option.strip().lower()), None)
        if had is None:
            n.alternatives.append(Alternative(option.strip(), why.strip()))
        elif why.strip() and (replace or not had.rejected_because):
            had.rejected_because = why.strip()
