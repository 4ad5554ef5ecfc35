"""The one service every face calls: a workspace's notes, their anchors, the index.

Note files are the truth. Every call first reconciles the LMDB index with them (mtime +
size, then content hash), so a note edited by hand or arriving with ``git pull`` is seen
at once. Writes go to the file first (temp file, fsync, rename), then to the index, under
one lock; a crash between the two is repaired by the next reconciliation.
"""

from __future__ import annotations

import fcntl
import os
import re
import stat
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

from . import anchors as A
from . import checks as C
from .languages import GrammarError, for_path
from .notes import (KINDS, Alternative, Note, NoteError, Waiver, author_name, format_note, new_id,
                    note_from_dict, note_to_dict, now, parse_note)
import lmdb

from .fork import cores, fork_map
from .store import Store
from .syntax import SourceFile
from .text import Range, digest

TETHER_DIR = ".tether"
MAX_SOURCE_BYTES = 32 * 1024 * 1024  # larger files are not read at all (file/glob anchors only)
FORK_BYTES = 256 * 1024  # a check forks only with at least this much source to parse per process
FORK_NOTES = 200  # note files to read before the reading is shared over processes


class WorkspaceError(Exception):
    """A request that cannot be done, with the reason (exit code 2 in the CLI)."""


@dataclass
class Located:
    """One anchor of one note, resolved in the current content of its file."""

    note: Note
    index: int  # which anchor of the note
    anchor: A.Anchor
    resolution: A.Resolution
    last: Range | None = None  # where it was last seen (for an anchor that is lost now)
    params: str = ""  # parameter list of the definition found (to tell overloads apart)

    @property
    def place(self) -> Range | None:
        """Where to show it: the current range, else the last known one."""
        return self.resolution.range or self.last or self.anchor.range

    def current(self) -> A.Anchor:
        """The anchor as it is in the text it was resolved in (name, range, hash now)."""
        a, r = self.anchor, self.resolution
        if not r.attached:
            return a
        return A.Anchor(a.type, a.path, a.pattern, a.lang, a.node, r.name or a.name, self.params or a.params,
                        r.hash or a.hash, a.sketch, r.range or a.range)

    @property
    def state(self) -> str:
        return self.resolution.state

    @property
    def range(self) -> Range | None:
        return self.resolution.range


@dataclass
class Finding:
    """Something that needs a person: reported by ``doctor``, the editor's diagnostics and
    (later) ``check``, always with the same codes."""

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

    def to_json(self) -> dict:
        """The documented shape of ``tether check --format json``."""
        return {"file": self.path, "line": self.line, "range": self.range.to_lsp() if self.range else None,
                "severity": self.severity, "code": self.code, "message": self.message, "note": self.note_id or None,
                "check": self.extra.get("check")}


class Workspace:
    def __init__(self, root: Path, auto_refresh: bool = True):
        self.root = root.resolve()
        # False when someone (the editor's file watcher) says when note files change: then
        # refresh() scans the notes folder only when asked to (force=True)
        self.auto_refresh = auto_refresh
        self.jobs: int | None = None  # processes a large read may share (None: one a core; fork.py)
        self.dir = self.root / TETHER_DIR
        self.notes_dir = self.dir / "notes"
        self._store: Store | None = None
        self._notes: _Notes | dict[str, Note] = {}
        self._errors: dict[str, NoteError] = {}
        self._stamp: dict | None = None
        self._notes_changed = False  # set by a watcher of the notes folder (see watcher.py)
        self._batch: list | None = None  # resolutions to keep, while a check runs (_batched)
        # the last resolution of each file: (text digest, notes generation, result); the
        # generation moves whenever a note file is added, changed or removed
        self._generation = 0
        self._located: dict[str, tuple[str, int, list[Located]]] = {}

    # -- finding and creating ------------------------------------------------------------
    @classmethod
    def find(cls, start: Path | str = ".") -> Workspace:
        here = Path(start).resolve()
        for d in (here, *here.parents):
            if (d / TETHER_DIR).is_dir():
                return cls(d)
        raise WorkspaceError(f"no {TETHER_DIR}/ in {here} or above: run `tether init` in the repository")

    @classmethod
    def init(cls, start: Path | str = ".", exact: bool = False) -> tuple[Workspace, bool]:
        """Create ``.tether/`` at the git work tree's top (or in ``start``; always there
        when ``exact``). Idempotent."""
        start = Path(start).resolve()
        if not start.is_dir():
            raise WorkspaceError(f"{start}: not a folder")
        root = start if exact else (git_toplevel(start) or start)
        ws = cls(root)
        created = not ws.notes_dir.is_dir()
        ws.notes_dir.mkdir(parents=True, exist_ok=True)
        gi = ws.dir / ".gitignore"
        if not gi.exists():
            gi.write_text("# the LMDB index is rebuilt from notes/ at any time\ncache/\n", encoding="utf-8")
        return ws, created

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.dir / "cache")
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    # -- paths ---------------------------------------------------------------------------
    def rel(self, path: str | Path, base: Path | None = None) -> str:
        """Workspace-relative POSIX path of ``path`` (relative to ``base``, by default the
        workspace root); paths outside the workspace are refused."""
        p = Path(path)
        if not p.is_absolute():
            p = (base or self.root) / p
        real = Path(os.path.normpath(p)).resolve()  # symlinks followed: a link out is outside
        try:
            rel = real.relative_to(self.root)
        except ValueError:
            raise WorkspaceError(f"{path}: outside the workspace {self.root}") from None
        if rel.parts and rel.parts[0] == TETHER_DIR and (len(rel.parts) < 2 or rel.parts[1] != "notes"):
            raise WorkspaceError(f"{path}: inside {TETHER_DIR}/, which holds tether's own files")
        return rel.as_posix()

    def abs(self, rel: str) -> Path:
        return Path(self._real(rel))

    def _real(self, rel: str) -> str:
        real = os.path.realpath(os.path.join(self.root, rel))  # symlinks followed: a link out is outside
        if not _inside(real, self.root):
            raise WorkspaceError(f"{rel}: outside the workspace {self.root}")
        return real

    def read_source(self, rel: str) -> str:
        """The text of a source file, or a WorkspaceError that says why it has none."""
        try:  # without blocking: a FIFO is refused below, not waited on
            fd = os.open(self._real(rel), os.O_RDONLY | os.O_NONBLOCK)
        except FileNotFoundError:
            raise WorkspaceError(f"{rel}: no such file") from None
        except IsADirectoryError:
            raise WorkspaceError(f"{rel}: not a regular file") from None
        except OSError as e:
            raise WorkspaceError(f"{rel}: cannot read ({e.strerror})") from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise WorkspaceError(f"{rel}: not a regular file")
            if st.st_size > MAX_SOURCE_BYTES:
                raise WorkspaceError(f"{rel}: {st.st_size / 1e6:.1f} MB is too large to anchor inside; "
                                     f"anchor the whole file (--file)")
            with open(fd, "rb", closefd=False) as f:
                data = f.read()
        finally:
            os.close(fd)
        return decode_source(data, rel)

    # -- notes, reconciled with their files -------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        """Bring the index up to date with ``.tether/notes/`` (cheap when nothing changed)."""
        if not (self.auto_refresh or force or self._notes_changed) and self._stamp is not None:
            return
        self._notes_changed = False  # before the scan: a change during it is seen next time
        files = {}
        if self.notes_dir.is_dir():
            with os.scandir(self.notes_dir) as it:
                for e in it:
                    if e.name.endswith(".md") and not e.name.startswith(".") and e.is_file():
                        st = e.stat()
                        files[f"{TETHER_DIR}/notes/{e.name}"] = (st.st_mtime_ns, st.st_size)
        if self._stamp == files and not force:
            return
        store = self.store
        with store.read() as txn:
            known = dict(store.items(txn, "files"))
        removed = [k for k in known if k not in files]
        todo = [(rel, mtime, size, known.get(rel)) for rel, (mtime, size) in files.items()
                if rel not in known or (known[rel]["mtime"], known[rel]["size"]) != (mtime, size)]
        changed = fork_map(lambda t: _read_note(self.root, *t), todo, self._jobs() if len(todo) >= FORK_NOTES else 1)
        if changed or removed:
            store.write(self._apply_index, changed, removed)
            self._generation += 1
            self._located.clear()
        self._load()
        self._stamp = files

    def notes_changed(self) -> None:
        """Someone watching the notes folder says it changed: the next read rescans it."""
        self._notes_changed = True

    @contextmanager
    def snapshot(self):
        """One consistent view for a compound read: the notes folder is checked once on
        entry, not on every call inside (each is a scan of the folder)."""
        self.refresh()
        keep, self.auto_refresh = self.auto_refresh, False
        try:
            yield self
        finally:
            self.auto_refresh = keep

    def _apply_index(self, txn, changed, removed) -> None:
        s = self.store
        for rel in removed:
            self._unindex(txn, rel)
            s.delete(txn, "files", rel)
        for rel, mtime, size, h, note, err in changed:
            if note == "same":
                rec = s.get(txn, "files", rel)
                rec.update(mtime=mtime, size=size)
                s.put(txn, "files", rel, rec)
                continue
            self._unindex(txn, rel)
            rec = {"mtime": mtime, "size": size, "hash": h, "id": None, "error": None}
            if note is not None:
                other = s.get(txn, "notes", note.id)
                if other is not None and other["path"] != rel and (self.root / other["path"]).exists():
                    err = NoteError(rel, 2, f"duplicate id {note.id}: {other['path']} has it too; "
                                            f"give one of them a new id (tether makes one with `tether record`)")
                    note = None
            if note is not None:
                rec["id"] = note.id
                s.put(txn, "notes", note.id, {"path": rel, "note": note_to_dict(note)})
                for i, a in enumerate(note.anchors):
                    if a.type == A.GLOB:
                        s.put(txn, "globs", f"{note.id}\0{i}", a.pattern)
                    else:
                        s.put(txn, "by_path", f"{a.path}\0{note.id}", 1)
                    if a.type == A.SYMBOL and a.name:
                        s.put(txn, "by_name", f"{a.name}\0{note.id}", a.path)
            else:
                rec["error"] = {"line": err.line, "reason": err.reason}
            s.put(txn, "files", rel, rec)

    def _unindex(self, txn, rel: str) -> None:
        s = self.store
        rec = s.get(txn, "files", rel)
        if not rec or not rec.get("id"):
            return
        nid = rec["id"]
        old = s.get(txn, "notes", nid)
        if old is None or old["path"] != rel:
            return
        note = note_from_dict(old["note"])
        s.delete(txn, "notes", nid)
        for i, a in enumerate(note.anchors):
            for db, key in (("globs", f"{nid}\0{i}"), ("by_path", f"{a.path}\0{nid}"),
                            ("by_name", f"{a.name}\0{nid}")):
                s.delete(txn, db, key)  # a key that is not there is no error in LMDB

    def _load(self) -> None:
        s = self.store
        errors = {}
        with s.read() as txn:
            for rel, rec in s.items(txn, "files"):
                if rec.get("error"):
                    errors[rel] = NoteError(rel, rec["error"]["line"], rec["error"]["reason"])
        self._notes, self._errors = _Notes(s), errors

    def notes(self) -> list[Note]:
        self.refresh()
        return sorted(self._notes.values(), key=lambda n: n.id)

    def broken(self) -> list[NoteError]:
        self.refresh()
        return sorted(self._errors.values(), key=lambda e: e.path)

    def note(self, nid: str) -> Note | None:
        """The note with this exact id, if there is one (no refresh: for hot paths)."""
        return self._notes.get(nid)

    def get(self, ref: str) -> Note:
        """A note by id, unique id prefix, or note file path."""
        self.refresh()
        ref = ref.strip()
        if ref in self._notes:
            return self._notes[ref]
        if ref.endswith(".md"):
            rel = self.rel(ref)
            for n in self._notes.values():
                if n.path == rel:
                    return n
        hits = [n for nid, n in self._notes.items() if nid.startswith(ref.lower())] if len(ref) >= 4 else []
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise WorkspaceError(f"'{ref}' matches {len(hits)} notes: give more of the id")
        raise WorkspaceError(f"no note '{ref}' (see `tether list`)")

    def notes_on(self, rel: str) -> list[Note]:
        """Notes with an anchor in ``rel`` or a glob that matches it."""
        self.refresh()
        s = self.store
        ids = set()
        with s.read() as txn:
            ids.update(k.split("\0")[1] for k in s.keys(txn, "by_path", rel + "\0"))
            for key, pattern in s.items(txn, "globs"):
                if glob_match(pattern, rel):
                    ids.add(key.split("\0")[0])
        return sorted((self._notes[i] for i in ids if i in self._notes), key=lambda n: n.id)

    # -- writes --------------------------------------------------------------------------
    @contextmanager
    def _lock(self):
        self.dir.mkdir(exist_ok=True)
        (self.dir / "cache").mkdir(exist_ok=True)
        with open(self.dir / "cache" / "write.lock", "a+") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def save(self, note: Note) -> Note:
        """Write the note file (atomically), then the index."""
        with self._lock():
            if not note.path:
                note.path = f"{TETHER_DIR}/notes/{note.file_name()}"
            target = self.root / note.path
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, format_note(note))
            self.refresh(force=True)
        return self._notes.get(note.id, note)

    def record(self, kind: str, path: str, line: int | None = None, col: int = 0, *, how: str = A.SYMBOL,
               title: str, body: str = "", rationale: str = "", rejected: list[tuple[str, str]] = (),
               tags: list[str] = (), works_around: str = "", remove_when: str = "",
               end: tuple[int, int] | None = None, text: str | None = None, checks: list[dict] = ()) -> Note:
        """Create a note anchored at ``path:line:col`` (0-based; ``how`` = symbol, span or
        file), or on a glob pattern (``how`` = glob, ``path`` = the pattern)."""
        if kind not in KINDS:
            raise WorkspaceError(f"unknown kind '{kind}': use one of {', '.join(KINDS)}")
        if not title.strip():
            raise WorkspaceError("a note needs a title (--title)")
        if how == A.GLOB:
            anchor = A.Anchor(A.GLOB, pattern=normalize_glob(path))
            src = None
        else:
            rel = self.rel(path)
            if how == A.FILE:
                if not self.abs(rel).is_file():
                    raise WorkspaceError(f"{rel}: no such file" if not self.abs(rel).exists() else
                                         f"{rel}: not a file; anchor a folder with --glob '{rel.rstrip('/')}/**'")
                anchor, src = A.Anchor(A.FILE, path=rel), None
            else:
                if line is None:
                    raise WorkspaceError(f"{rel}: give a line (PATH:LINE), or --file for the whole file")
                if text is None:
                    text = self.read_source(rel)
                src = SourceFile(text, for_path(rel))
                if src.lang is not None and src.tree is None and how == A.SYMBOL:
                    raise WorkspaceError(f"{rel}: too large to parse; anchor the file (--file) or lines (--span)")
                try:
                    anchor = A.record(src, rel, line, col, how=how, end=end)
                except A.AnchorError as e:
                    raise WorkspaceError(str(e)) from None
        if checks and kind != "invariant":
            raise WorkspaceError("only invariants carry checks")
        lang = src.lang if src is not None else for_path(anchor.path) if anchor.type == A.FILE else None
        for raw in checks:  # refused now, with the reason, rather than silently never matching
            try:
                C.validate(C.check_from_dict(raw), lang, any_language=anchor.type == A.GLOB)
            except (C.CheckError, GrammarError) as e:
                raise WorkspaceError(str(e)) from None
        stamp = now()
        note = Note(id=new_id(), kind=kind, title=title.strip(), author=author_name(str(self.root)),
                    created=stamp, updated=stamp, tags=list(tags), rationale=rationale.strip(),
                    works_around=works_around.strip(), remove_when=remove_when.strip(),
                    alternatives=[Alternative(o.strip(), w.strip()) for o, w in rejected],
                    anchors=[anchor], body=body, checks=[dict(c) for c in checks])
        if kind == "invariant" and anchor.hash:
            note.confirmed = {"by": note.author, "at": stamp, "hash": anchor.hash}
        if src is not None:
            self._remember(note, 0, anchor, src.text)
        return self.save(note)

    def _remember(self, note: Note, i: int, anchor: A.Anchor, text: str) -> None:
        """Keep the text an anchor was resolved in, for the next resolution."""
        h = digest(text)

        def put(txn):
            self.store.put_text(txn, h, text)
            self.store.put(txn, "anchors", f"{note.id}\0{i}", {
                "text": h, "range": list(anchor.range) if anchor.range else None,
                "name": anchor.name, "params": anchor.params, "hash": anchor.hash, "for": _anchor_key(anchor)})
        self.store.write(put)

    def update(self, ref: str, change) -> Note:
        """Read-modify-write of one note under the lock: ``change(note)`` edits it."""
        with self._lock():
            self.refresh(force=True)  # read the note as it is on disk now
            note = self.get(ref)
            change(note)
            note.updated = now()
            atomic_write(self.root / note.path, format_note(note))
            self.refresh(force=True)
            return self._notes[note.id]

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
        how = A.SPAN if how == A.LINES else how
        rel = self.rel(path)
        if text is None:
            text = self.read_source(rel)
        src = SourceFile(text, for_path(rel))
        try:
            anchor = A.record(src, rel, line, col, how=how)
        except A.AnchorError as e:
            raise WorkspaceError(str(e)) from None

        def change(n: Note):
            n.anchors[index] = anchor
            if n.kind == "invariant":
                n.confirmed = {"by": author_name(str(self.root)), "at": now(), "hash": anchor.hash}
        note = self.update(note.id, change)
        self._remember(note, index, anchor, text)
        return note

    def sync(self, rels: list[str] | None = None, *, renamed_only: bool = False,
             texts: dict[str, str] | None = None, write: bool = True) -> list[tuple[Note, int, A.Anchor]]:
        """Write the current fingerprint of anchors whose code moved, changed or was renamed
        back into their note files, so that a clone without this machine's cache resolves
        them too. Returns (note, anchor index, new anchor) for each anchor that changed."""
        texts = texts or {}
        paths = rels if rels is not None else sorted(
            {a.path for n in self.notes() if n.status != "retired" for a in n.anchors if a.is_code})
        found: dict[str, list[tuple[int, A.Anchor]]] = {}
        for rel in paths:
            try:
                text = texts.get(rel) or self.read_source(rel)
            except WorkspaceError:
                continue
            src = None
            for loc in self.locate(rel, text):
                r, a = loc.range, loc.anchor
                if not a.is_code or not loc.resolution.attached or r is None or loc.state == A.OK:
                    continue
                if renamed_only and loc.state != A.RENAMED:
                    continue
                src = src or SourceFile(text, for_path(rel))
                try:
                    new = A.record(src, rel, r.sl, r.sc, how=A.SYMBOL if a.type == A.SYMBOL else A.SPAN,
                                   end=(r.el, r.ec) if a.type != A.SYMBOL else None)
                except A.AnchorError:
                    continue
                if new.range != r or (a.type == A.SYMBOL and new.name != loc.resolution.name):
                    continue  # never write down anything but the code the anchor resolved to
                found.setdefault(loc.note.id, []).append((loc.index, new))
        out = []
        for nid, news in found.items():
            if write:
                def change(n: Note, news=news):
                    for i, new in news:
                        if n.kind == "invariant" and not n.confirmed:  # keep the drift guard's baseline
                            n.confirmed = {"by": n.author, "at": n.created, "hash": n.anchors[i].hash}
                        n.anchors[i] = new
                note = self.update(nid, change)
                for i, new in news:
                    self._remember(note, i, new, texts.get(new.path) or self.read_source(new.path))
            else:
                note = self.get(nid)
            out += [(note, i, new) for i, new in news]
        return out

    # -- resolution ----------------------------------------------------------------------
    def locate(self, rel: str, text: str | None = None, src: SourceFile | None = None) -> list[Located]:
        """Every anchor in ``rel`` (notes anchored there), resolved in its current text
        (``text`` if given, e.g. an editor's unsaved buffer; else the file on disk);
        ``src``: that text already parsed."""
        todo = anchored_in(rel, self.notes_on(rel))
        if not todo:
            return []
        if text is None:
            try:
                text = self.read_source(rel)
            except WorkspaceError:
                # gone: its anchors are orphaned; unreadable (binary, too large): undecidable
                gone = not self.abs(rel).exists()
                return [Located(n, i, a, A.Resolution(
                    A.ORPHANED if gone else (A.AMBIGUOUS if a.is_code else A.OK), None, a.name))
                    for n, i, a in todo]
        h = digest(text)
        hit = self._located.get(rel)
        if hit is not None and hit[0] == h and hit[1] == self._generation:
            return list(hit[2])
        out, updates = resolve_anchors(rel, text, h, todo, *self._last_seen(todo, h), src)
        self._keep(text, h, updates)
        self._located[rel] = (h, self._generation, list(out))
        return out

    def _last_seen(self, todo: list[tuple[Note, int, A.Anchor]], h: str) -> tuple[dict, dict]:
        """What the store kept of these anchors' last resolutions, and the texts they were
        made in (only those needed: the ones not made in the text ``h``)."""
        s = self.store
        last, olds = {}, {}
        with s.read() as txn:
            for n, i, a in todo:  # a record of another anchor (the note file was edited since) is void
                st = s.get(txn, "anchors", f"{n.id}\0{i}")
                st = last[(n.id, i)] = st if st is not None and st.get("for") == _anchor_key(a) else None
                if st and not _kept_for(st, h) and st.get("text") not in olds:
                    olds[st.get("text")] = s.get_text(txn, st["text"]) if st.get("text") else None
        return last, olds

    def keep_located(self, text: str, located: list[Located]) -> None:
        """Store resolutions made elsewhere (the editor's edits path) as the last ones."""
        h = digest(text)
        s = self.store
        with s.read() as txn:
            updates = {}
            for loc in located:
                key = f"{loc.note.id}\0{loc.index}"
                rec = s.get(txn, "anchors", key) or {}
                rec["resolved_in"], rec["res"], rec["for"] = h, _res_to(loc.resolution), _anchor_key(loc.anchor)
                if loc.resolution.attached and loc.range is not None:
                    cur = loc.current()
                    rec.update(text=h, range=list(cur.range), name=cur.name, params=cur.params, hash=cur.hash)
                updates[key] = rec
        self._keep(text, h, updates)

    def _keep(self, text: str, h: str, updates: dict) -> None:
        if not updates:
            return
        self._located.clear()  # resolutions made elsewhere (the editor) replace what was kept
        if self._batch is not None:
            self._batch.append((text, h, updates))
        else:
            self._write_kept([(text, h, updates)])

    @contextmanager
    def _batched(self):
        """Resolutions kept during a long read (a whole check) go to the store in one
        transaction at its end, not one per file (a commit costs about a millisecond)."""
        self._batch = []
        try:
            yield
        finally:
            batch, self._batch = self._batch, None
            if batch:
                self._write_kept(batch)

    def _write_kept(self, batch: list[tuple[str, str, dict]]) -> None:
        s = self.store

        def put(txn):
            for text, h, updates in batch:
                if any(r.get("text") == h for r in updates.values()):
                    s.put_text(txn, h, text)
                for k, v in updates.items():
                    s.put(txn, "anchors", k, v)
            writes = (s.get(txn, "meta", "text_writes") or 0) + len(batch)
            s.put(txn, "meta", "text_writes", writes)
            if writes // 256 != (writes - len(batch)) // 256:  # every so often, drop the texts nothing refers to
                s.collect_texts(txn)
        try:
            s.write(put)
        except lmdb.Error:  # a read-only or full disk must not stop anyone reading notes
            pass

    def ignore_once(self, ref: str, check_id: str, path: str, line: int, col: int = 0, reason: str = "",
                    text: str | None = None) -> Note:
        """A reviewed exception: the check ``check_id`` of an invariant no longer reports the
        statement at ``path:line:col`` (0-based), as long as that statement is there."""
        note = self.get(ref)
        if not any(c.get("id") == check_id for c in note.checks):
            raise WorkspaceError(f"{note.id} has no check '{check_id}'")
        rel = self.rel(path)
        src = SourceFile(text if text is not None else self.read_source(rel), for_path(rel))
        try:
            anchor = A.record(src, rel, line, col, how=A.SPAN)
        except A.AnchorError as e:
            raise WorkspaceError(str(e)) from None

        def change(n: Note):
            n.exceptions.append(Waiver(check_id, anchor, author_name(str(self.root)), now(), reason))
        return self.update(note.id, change)

    # -- checks --------------------------------------------------------------------------
    def check(self, rels: list[str] | None = None) -> list[Finding]:
        """Everything ``tether check`` reports for the given files (default: every file a
        note applies to): invariant check violations, invariants whose code drifted, lost
        anchors, and broken note files."""
        notes = self.notes()
        if rels is None:
            paths = {a.path for n in notes if n.status == "active" for a in n.anchors if a.is_code or a.type == A.FILE}
            globs = [a.pattern for n in notes if n.status == "active" and n.kind == "invariant" and n.checks
                     for a in n.anchors if a.type == A.GLOB]
            if globs:
                paths |= {rel for rel in self.files() if any(glob_match(g, rel) for g in globs)}
            rels = sorted(paths)
        out = [Finding(e.path, e.line, "error", "broken-note", e.reason) for e in self.broken()]
        with self.snapshot(), self._batched():
            self._check_files(rels, out)
        out.sort(key=lambda f: (f.path, f.line, f.range.sc if f.range else 0))
        return out

    def _check_files(self, rels: list[str], out: list[Finding]) -> None:
        from .findings import check_file, file_findings
        work = []
        for rel in rels:  # the store is read here, in this process ...
            try:
                text = self.read_source(rel)
            except WorkspaceError:
                if not self.abs(rel).is_file():  # gone: its anchors are orphaned
                    out += [f for f in file_findings(rel, self.locate(rel)) if f.severity in ("error", "warning")]
                continue
            notes = self.notes_on(rel)
            todo = anchored_in(rel, notes)
            h = digest(text)
            work.append(FileWork(rel, text, h, notes, todo, *self._last_seen(todo, h)))
        # ... the files are parsed and checked anywhere (forked children share a big check;
        # a language's files together, so each process compiles fewer languages' queries) ...
        work.sort(key=lambda w: (os.path.splitext(w.rel)[1], w.rel))
        jobs = max(1, min(self._jobs(), sum(w.cost() for w in work) // FORK_BYTES))
        for w, (found, updates) in zip(work, fork_map(check_file, work, jobs)):
            out += found
            self._keep(w.text, w.h, updates)  # ... and what is kept is stored here

    def _jobs(self) -> int:
        return self.jobs or cores()

    def files(self) -> list[str]:
        """Workspace files (hidden folders, .tether and dependency folders skipped)."""
        out = []
        for d, dirs, names in os.walk(self.root):
            dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x not in ("node_modules", "__pycache__"))
            base = Path(d).relative_to(self.root)
            for n in sorted(names):
                if os.path.islink(os.path.join(d, n)) and not _inside(Path(d, n).resolve(), self.root):
                    continue  # a link out of the workspace is not the workspace's
                out.append((base / n).as_posix())
        return out

    # -- maintenance -----------------------------------------------------------------------
    def reindex(self) -> tuple[int, int]:
        """Throw the index away and rebuild it from the note files."""
        with self._lock():
            self.store.write(self.store._reset)
            self.refresh(force=True)
        return len(self._notes), len(self._errors)

    def doctor(self) -> list[Finding]:
        """Everything that needs a person: broken note files, anchors that lost their code,
        references to missing notes, an index that disagrees with the files."""
        out = [Finding(e.path, e.line, "error", "broken-note", e.reason) for e in self.broken()]
        notes = self.notes()
        for note in notes:
            if note.status == "superseded" and note.superseded_by not in self._notes:
                out.append(Finding(note.path, 1, "warning", "unknown-successor",
                                   f"superseded by '{note.superseded_by}', which is no note here", note.id))
            if note.status == "retired":
                continue
            for loc in self.locate_note(note):
                a = loc.anchor
                line = (a.range.sl + 1) if a.range else 1
                if loc.state == A.ORPHANED:
                    gone = "its file is gone" if not self.abs(a.path).exists() else \
                        f"`{a.name}` is no longer in {a.path}" if a.name else f"its code is no longer in {a.path}"
                    out.append(Finding(a.path, line, "warning", "orphaned",
                                       f"note \"{note.title}\" is orphaned: {gone}; re-anchor or retire it", note.id))
                elif loc.state == A.AMBIGUOUS:
                    out.append(Finding(a.path, line, "warning", "ambiguous",
                                       f"note \"{note.title}\" matches several places in {a.path}; re-anchor it", note.id))
        s = self.store
        with s.read() as txn:
            indexed = {nid: rec["path"] for nid, rec in s.items(txn, "notes")}
        from .findings import drift
        for note in notes:
            if note.kind == "invariant" and note.status == "active":
                for loc in self.locate_note(note):
                    if drift(loc):
                        out.append(Finding(loc.anchor.path, loc.range.sl + 1, "warning", "invariant-drift",
                                           f"invariant \"{note.title}\": its code changed since it was last "
                                           f"confirmed; still holds? (`tether confirm {note.id}`)", note.id))
        for nid, path in indexed.items():
            if not (self.root / path).exists():
                out.append(Finding(path, 1, "error", "index-mismatch",
                                   f"the index lists note {nid} but its file is gone; run `tether reindex`", nid))
        for f in sorted(self.notes_dir.glob(".*.tmp")) if self.notes_dir.is_dir() else ():
            out.append(Finding(self.rel(f), 1, "warning", "leftover-temp",
                               "a temporary file left by an interrupted write; its note is intact, delete this file"))
        return out

    def locate_note(self, note: Note, texts: dict[str, str] | None = None) -> list[Located]:
        out = []
        for rel in sorted({a.path for a in note.anchors if a.type != A.GLOB}):
            out += [loc for loc in self.locate(rel, (texts or {}).get(rel)) if loc.note.id == note.id]
        out += [Located(note, i, a, A.Resolution(A.OK)) for i, a in enumerate(note.anchors) if a.type == A.GLOB]
        return sorted(out, key=lambda loc: loc.index)


class _Notes:
    """The workspace's notes by id, read from the index on first use: answering for one
    file of a workspace with 10,000 notes does not build 10,000 notes."""

    def __init__(self, store: Store):
        self.store = store
        self._got: dict[str, Note] = {}
        self._all = False

    def get(self, nid: str, default=None):
        note = self._got.get(nid)
        if note is None and not self._all:
            with self.store.read() as txn:
                rec = self.store.get(txn, "notes", nid)
            if rec is not None:
                note = self._got[nid] = note_from_dict(rec["note"])
        return note if note is not None else default

    def __getitem__(self, nid: str) -> Note:
        note = self.get(nid)
        if note is None:
            raise KeyError(nid)
        return note

    def __contains__(self, nid: str) -> bool:
        return self.get(nid) is not None

    def _load_all(self) -> None:
        if not self._all:
            with self.store.read() as txn:
                for nid, rec in self.store.items(txn, "notes"):
                    if nid not in self._got:
                        self._got[nid] = note_from_dict(rec["note"])
            self._all = True

    def values(self):
        self._load_all()
        return self._got.values()

    def items(self):
        self._load_all()
        return self._got.items()

    def __len__(self) -> int:
        self._load_all()
        return len(self._got)


# -- helpers ------------------------------------------------------------------------------

def decode_source(data: bytes, rel: str) -> str:
    if b"\0" in data[:8192]:
        raise WorkspaceError(f"{rel}: a binary file; only the whole file can be anchored (--file)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise WorkspaceError(f"{rel}:{line}: not valid UTF-8 (byte 0x{data[e.start]:02x}); "
                             f"only the whole file can be anchored (--file)") from None


def atomic_write(target: Path, text: str, newline: str = "\n") -> None:
    """Write ``text`` to ``target`` all or nothing (temp file, fsync, rename), keeping the
    replaced file's permissions. ``newline=""`` writes line endings as they are in ``text``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        try:  # mkstemp makes the file 0600; a note file is shared like any file of the repository
            mode = os.stat(target).st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    dfd = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def anchored_in(rel: str, holders: list) -> list[tuple]:
    """(holder, index, anchor) for each anchor of ``holders`` (notes, candidates) placed in
    ``rel`` itself, not by a glob."""
    return [(h, i, a) for h in holders for i, a in enumerate(h.anchors) if a.path == rel and a.type != A.GLOB]


def _kept_for(record: dict | None, h: str) -> bool:
    """The store holds this anchor's resolution in the text of digest ``h``."""
    return bool(record) and record.get("resolved_in") == h and "res" in record


def resolve_anchors(rel: str, text: str, h: str, todo: list[tuple[Note, int, A.Anchor]], last: dict,
                    olds: dict, src: SourceFile | None = None) -> tuple[list[Located], dict]:
    """The anchors ``todo`` of ``rel`` resolved in ``text`` (digest ``h``), from their last
    resolutions ``last`` and the texts those were made in (``olds``), touching no store:
    the resolutions, and the records to keep of them. ``src``: ``text`` already parsed."""
    out: list[Located] = []
    new_src = None
    resolvers: dict[str | None, A.Resolver] = {}
    updates = {}
    for n, i, a in todo:
        if a.type == A.FILE:
            out.append(Located(n, i, a, A.Resolution(A.OK)))
            continue
        st = last.get((n.id, i))
        if _kept_for(st, h):
            out.append(Located(n, i, a, _res_from(st["res"]), Range(*st["range"]) if st.get("range") else a.range,
                               st.get("params", "")))
            continue
        if new_src is None:
            new_src = src if src is not None and src.text == text else SourceFile(text, for_path(rel))
        old_hash = st.get("text") if st else None
        if old_hash not in resolvers:
            old_text = olds.get(old_hash)
            resolvers[old_hash] = A.Resolver(new_src, SourceFile(old_text, new_src.lang) if old_text is not None else None)
        probe = a
        if st and resolvers[old_hash].old is not None:
            probe = A.Anchor(a.type, a.path, a.pattern, a.lang, a.node, st["name"], st["params"], st["hash"],
                             a.sketch, Range(*st["range"]) if st.get("range") else a.range)
        res = against_note(a, resolvers[old_hash].resolve(probe))
        params = res.params if res.attached else ""
        seen_at = Range(*st["range"]) if st and st.get("range") else a.range
        out.append(Located(n, i, a, res, seen_at, params))
        rec = dict(st or {})
        rec["for"] = _anchor_key(a)
        rec["resolved_in"] = h
        rec["res"] = _res_to(res)
        if res.attached and res.range is not None:
            rec.update(text=h, range=list(res.range), name=res.name or a.name, params=params or a.params,
                       hash=res.hash or a.hash)
        updates[f"{n.id}\0{i}"] = rec
    return out, updates


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
        parse = any(n.kind == "invariant" and n.checks for n in self.notes) or any(
            a.type != A.FILE and not _kept_for(self.last.get((n.id, i)), self.h) for n, i, a in self.todo)
        return len(self.text) if parse else 64


def _read_note(root: Path, rel: str, mtime: int, size: int, known: dict | None) -> tuple:
    """One changed note file read for the index: (rel, mtime, size, digest, the note, or
    "same" when only its time changed, or None, the error when it is broken)."""
    try:
        data = (root / rel).read_bytes()
        text = data.decode("utf-8")
    except OSError as e:
        return rel, mtime, size, "", None, NoteError(rel, 1, f"cannot read: {e.strerror}")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        return rel, mtime, size, "", None, NoteError(
            rel, line, f"not valid UTF-8 (byte 0x{data[e.start]:02x}): save the note file as UTF-8")
    h = digest(text)
    if known is not None and known["hash"] == h:
        return rel, mtime, size, h, "same", None
    try:
        return rel, mtime, size, h, parse_note(text, rel), None
    except NoteError as e:
        return rel, mtime, size, h, None, e


def against_note(a: A.Anchor, res: A.Resolution) -> A.Resolution:
    """State relative to what the note file records (not to the last resolution)."""
    if not res.attached or res.range is None:
        return res
    if res.name and a.name and res.name != a.name and a.type == A.SYMBOL:
        state = A.RENAMED
    elif res.hash and a.hash and res.hash != a.hash:
        state = A.CHANGED
    elif a.range is not None and (res.range.sl, res.range.el) != (a.range.sl, a.range.el):
        state = A.MOVED
    else:
        state = A.OK
    return A.Resolution(state, res.range, res.name, res.candidates, res.hash, res.params)


def is_under(path: str, rel: str) -> bool:
    """``path`` is ``rel`` or inside the folder ``rel`` ("" or "." is the whole workspace)."""
    return rel in ("", ".") or path == rel or path.startswith(rel.rstrip("/") + "/")


def _inside(p: Path | str, root: Path) -> bool:
    s, r = str(p), str(root)
    return s == r or s.startswith(r if r.endswith(os.sep) else r + os.sep)


def _anchor_key(a: A.Anchor) -> str:
    """What the note file says of an anchor: a cached resolution of another one is void."""
    return digest(f"{a.type}|{a.path}|{a.name}|{a.params}|{a.hash}|{tuple(a.range) if a.range else ''}")


def _res_to(res: A.Resolution) -> dict:
    return {"state": res.state, "range": list(res.range) if res.range else None, "name": res.name,
            "hash": res.hash, "params": res.params, "candidates": [list(c) for c in res.candidates]}


def _res_from(d: dict) -> A.Resolution:
    return A.Resolution(d["state"], Range(*d["range"]) if d["range"] else None, d["name"],
                        [Range(*c) for c in d["candidates"]], d["hash"], d.get("params", ""))


def git_toplevel(start: Path) -> Path | None:
    try:
        r = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=start, capture_output=True,
                           text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(r.stdout.strip()) if r.returncode == 0 and r.stdout.strip() else None


def normalize_glob(pattern: str) -> str:
    p = pattern.strip().replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    if not p or p.startswith("/") or ".." in PurePosixPath(p).parts:
        raise WorkspaceError(f"glob '{pattern}': give a pattern relative to the workspace, such as src/auth/**")
    return p


@lru_cache(maxsize=1024)
def _glob_re(pattern: str) -> re.Pattern:
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        out.append("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c))
        i += 1
    rx = "".join(out)
    if pattern.endswith("/"):
        rx += ".*"
    return re.compile(rx + r"\Z")


def glob_match(pattern: str, rel: str) -> bool:
    """gitignore-like: ``**`` spans directories, ``*`` and ``?`` stay inside one; a pattern
    naming a directory covers everything below it."""
    rx = _glob_re(pattern)
    if rx.match(rel):
        return True
    parts = rel.split("/")
    return any(rx.match("/".join(parts[:k])) for k in range(1, len(parts)))
