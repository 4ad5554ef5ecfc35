"""The note repository: the note files under ``.tether/notes/`` and their LMDB index, kept
in step.

Note files are the truth. Every read first reconciles the index with them (mtime + size,
then content hash), so a note edited by hand or arriving with ``git pull`` is seen at once;
a long-running process watches the folder instead (:meth:`NoteRepository.watch`), and a hook
answering alone may trust the folder's listing (:attr:`NoteRepository.trust_folder`). Writes
go to the file first (temp file, fsync, rename), then to the index, under one lock; a crash
between the two is repaired by the next reconciliation.
"""

from __future__ import annotations

import errno
import fcntl
import functools
import os
import re
import time
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from pathlib import Path
from stat import S_IFLNK, S_IFMT, S_IFREG

from . import anchors as A
from .files import TETHER_DIR, FolderChanges, WorkspaceError, atomic_write, glob_match
from .notes import SHORT_ID, Note, NoteError, format_note, note_from_dict, note_to_dict, now, parse_note, short_ids
from .store import DAMAGE, IndexWriteError, Store, bulk_dumps
from .text import digest

FORK_NOTES = 200  # note files to read before the reading is shared over processes
WRITE_NOTES = 5000  # note files read and indexed in one transaction (a fresh clone of 100,000: 20)
BACKGROUND_NOTES = 500  # more changed note files than this are indexed in the background, when asked to
BACKGROUND_BATCH = 250  # ... this many at a time (~30 ms: what a hover waits for at most)
SEAL_BULK = 20_000  # note files above which a seal is worth loading orjson for (10,000: json 7 ms, orjson 2 + 8 to load)
RACY_NS = 1_000_000_000  # a folder changed this recently may change again within its time stamp's tick
_PATHS = re.compile(rb"""\b(path|pattern)\s*=\s*(?:"([^"'\n]+)"|'([^"'\n]+)')?""")  # an anchor's path as tether writes it


def _recovering(read):
    """A read of the index that finds it damaged moves it aside, rebuilds it from the note
    files (they are the truth) and reads again."""
    @functools.wraps(read)
    def run(self, *args, **kwargs):
        try:
            return read(self, *args, **kwargs)
        except DAMAGE as e:
            self.store.recover(e)
            self._stamp, self._notes, self._errors, self._pending = None, {}, {}, None
            self._refresh(True)
            return read(self, *args, **kwargs)
        except _Stale:  # a trusted note's file changed since the index read it: read the folder whole
            self._distrust()
            return read(self, *args, **kwargs)
    return run


class NoteRepository:
    def __init__(self, root: Path, store: Store, jobs: Callable[[], int], auto_refresh: bool = True):
        self.root, self.store, self.jobs = root, store, jobs
        self.notes_dir = root / TETHER_DIR / "notes"
        # False when someone (a watcher of the notes folder) says when note files change:
        # then refresh() scans the folder only when asked to (force=True)
        self.auto_refresh = auto_refresh
        self.generation = 0  # moves whenever a note file is added, changed or removed
        self.seal = ""  # names the notes folder's files as they are: the same in every process
        self._notes: _Notes | dict[str, Note] = {}
        self._errors: dict[str, NoteError] = {}
        self._stamp: dict | None = None
        self._changed = False  # set by a watcher of the notes folder
        self._watch: FolderChanges | None = None  # our own watch of it (watch())
        # a long-lived process (the language server) indexes many changed note files a batch
        # at a time (index_pending), and the notes of a file it is asked about first
        self.background = False
        self._pending: dict[str, list] | None = None  # note file -> [mtime, size, index record, paths]
        self._target: tuple[dict, str] = ({}, "")  # the files and seal the index has when none is pending
        self._on: dict[str, tuple[int, list[Note]]] = {}  # rel -> (generation, notes_on(rel)), in a long-lived process
        # A hook answering alone (agents/hooks.py) about one file: the first read trusts the folder's
        # listing when the folder's mtime is the one the last whole scan sealed (no note file added,
        # removed or replaced since: a create, unlink or rename moves it), and each note it hands out
        # is checked against its own file's mtime and size instead of a stat of every note file (45 ms
        # at 10,000 here). Not seen that way: a note file edited in place (not replaced) so that it
        # now applies to a file it did not — the next whole scan (any other event or command) sees it.
        self.trust_folder = False
        self._trusting = False
        self._folder: int | None = None  # the folder's mtime at the last whole scan, when old enough to trust

    # -- reading, reconciled with the files ---------------------------------------------------
    @_recovering
    def refresh(self, force: bool = False) -> None:
        """Bring the index up to date with the notes folder (cheap when nothing changed)."""
        if self._watch is not None and self._watch.pending():
            self._changed = True
        watched = self._watch is not None or not self.auto_refresh
        if watched and not (force or self._changed) and self._stamp is not None:
            return
        self._refresh(force)

    def watch(self) -> bool:
        """Watch the notes folder, for a long-lived process: a read then scans it only after
        something in it changed, known exactly (Linux inotify: the kernel queues a change
        before the write returns, so the very next read sees it; at 100,000 notes a scan
        costs 0.3 s). False where it cannot be watched (no inotify, no folder yet): then
        every read scans it, as a command run alone does."""
        if self._watch is None and self.notes_dir.is_dir():
            self._watch = FolderChanges.open(self.notes_dir)
            self._changed = True  # what was written before the watch began
        return self._watch is not None

    def close(self) -> None:
        if self._watch is not None:
            self._watch.close()
            self._watch = None

    def _refresh(self, force: bool) -> None:
        self._changed = False  # before the scan: a change during it is seen next time
        if self.trust_folder and self._stamp is None and not force and self._trusted():
            return
        self._trusting = False
        files = self._scan()
        if self._stamp == files and not force:
            return
        seal = digest(bulk_dumps(len(files) > SEAL_BULK)(files, sort_keys=True).decode())  # 10,000 notes: 3-10 ms
        if self._stamp is None and not force:  # a new process: is the index of exactly these files?
            with self.store.read() as txn:
                sealed = self.store.get(txn, "meta", "notes_folder")
            if sealed is not None and sealed["seal"] == seal:
                self._load(sealed["errors"])
                self._stamp, self.seal = files, seal
                if self._folder is not None and sealed.get("folder") != self._folder:  # trusted from now on
                    self.store.write(lambda txn: self.store.put(txn, "meta", "notes_folder",
                                                                {**sealed, "folder": self._folder}))
                return
        with self.store.read() as txn:
            known = dict(self.store.items(txn, "files"))
        removed = [k for k in known if k not in files]
        todo = [(rel, mtime, size, known.get(rel)) for rel, (mtime, size) in files.items()
                if rel not in known or (known[rel]["mtime"], known[rel]["size"]) != (mtime, size)]
        if removed:
            self.store.write(self._apply, [], removed)
        self._target = (files, seal)
        if self.background and not force and len(todo) > BACKGROUND_NOTES:
            self._pending = {rel: [mtime, size, rec, False] for rel, mtime, size, rec in todo}  # paths: not read yet
            self._stamp, self.seal = files, ""  # no seal until the index is whole
            if not isinstance(self._notes, _Notes):
                self._load([])
            return
        self._pending = None
        self._index(todo)
        self._sealed(bool(todo or removed or files != self._stamp), _broken(self.store, known, todo, files))

    def _index(self, todo: list[tuple]) -> None:
        """Read and index the note files of ``todo`` a batch at a time (memory stays bounded;
        a full map retries one batch), the next batch read by forked children while this
        process writes the last one."""
        from .fork import Forked  # here: a command that indexes nothing does not pay for it
        if len(todo) >= FORK_NOTES:
            bulk_dumps(many=True)  # orjson loaded: the readers write with it

        def read(batch):  # jobs children (jobs + 1 processes): this one writes meanwhile, then joins them
            return Forked(lambda t: _read_note(self.root, *t), batch, self.jobs() + 1 if len(batch) >= FORK_NOTES else 1)
        batches = [todo[at:at + WRITE_NOTES] for at in range(0, len(todo), WRITE_NOTES)]
        with self.store.unsynced() if len(batches) > 1 else nullcontext():
            reading = read(batches[0]) if batches else None
            try:
                for k in range(len(batches)):
                    changed = reading.result()
                    reading = read(batches[k + 1]) if k + 1 < len(batches) else None
                    self.store.write(self._apply, changed, [])
            except BaseException:
                if reading is not None:
                    reading.stop()
                raise

    def _sealed(self, changed: bool, errors: list | None = None) -> None:
        """The index holds exactly the files of ``_target``: the next process trusts it after one
        scan. ``errors``: the broken note files, when known (else read from the index)."""
        files, seal = self._target
        if changed:  # (or another process indexed the change)
            self.generation += 1
        self._load(errors)
        self._stamp, self.seal = files, seal
        errors = [[e.path, e.line, e.reason] for e in self._errors.values()]
        sealed = {"seal": seal, "errors": errors, "folder": self._folder}
        self.store.write(lambda txn: self.store.put(txn, "meta", "notes_folder", sealed))

    # -- trusting the folder's listing (a hook alone) -----------------------------------------
    def _trusted(self) -> bool:
        """The folder's mtime is the one the last whole scan sealed: take the index's notes,
        each checked against its own file when read (:meth:`_verified`)."""
        try:
            folder = os.stat(self.notes_dir).st_mtime_ns
        except OSError:
            return False
        with self.store.read() as txn:
            sealed = self.store.get(txn, "meta", "notes_folder")
        if not sealed or sealed.get("folder") != folder:
            return False
        self._load(sealed["errors"])
        self._notes.verify = self._verified
        self._stamp, self.seal, self._trusting = {}, sealed["seal"], True
        return True

    def _verified(self, txn, rel: str) -> bool:
        """The note file ``rel`` is as the index read it (mtime and size)."""
        rec = self.store.get(txn, "files", rel)
        try:
            st = os.stat(os.path.join(self.root, rel), follow_symlinks=False)
        except OSError:
            return False
        return rec is not None and (rec["mtime"], rec["size"]) == (st.st_mtime_ns, st.st_size)

    def _distrust(self) -> None:
        """Back to a whole scan of the notes folder (a trusted note's file changed, or every note is read)."""
        self.trust_folder = self._trusting = False
        self._stamp, self._notes, self._on = None, {}, {}
        self._refresh(False)

    # -- indexing in the background (a long-lived process) ------------------------------------
    def index_pending(self, limit: int = BACKGROUND_BATCH) -> bool:
        """Index up to ``limit`` of the note files left by a refresh in the background; False
        once none is left (the index is whole and sealed)."""
        if self._pending:
            self._index_pending(list(self._pending)[:limit])
        return bool(self._pending)

    def _index_pending(self, rels: list[str]) -> None:
        self._index([(rel, *self._pending.pop(rel)[:3]) for rel in rels])
        if not self._pending:
            self._sealed(True)

    def _complete(self) -> None:
        """A read of every note waits for the whole index (and a scan of every note file)."""
        if self._trusting:
            self._distrust()
        if self._pending:
            self._index_pending(list(self._pending))

    def _first_for(self, rel: str) -> None:
        """Index the pending note files that may apply to ``rel`` before the others: those
        naming it, those with a path pattern, and those whose paths are not plain strings.
        (What this misses is indexed with the rest: late, never wrong.)"""
        for note_file, v in self._pending.items():
            if v[3] is False:  # their paths, read once, when a file is first asked about
                v[3] = _named_paths(os.path.join(self.root, note_file))
        first = [f for f, v in self._pending.items() if v[3] is None or rel in v[3]]
        if first:
            self._index_pending(first)

    def _scan(self) -> dict[str, tuple[int, int]]:
        """Note file -> (mtime, size): one stat per note file, the least that sees a note
        edited in place (an edit that changes nothing in the folder itself). A name, then a
        stat relative to the folder: a quarter less than ``scandir``'s entries at 10,000."""
        files = {}
        self._folder = None
        try:
            fd = os.open(self.notes_dir, os.O_RDONLY | os.O_DIRECTORY)
        except FileNotFoundError:
            return files
        at, stat = f"{TETHER_DIR}/notes/", os.stat
        try:
            started, folder = time.time_ns(), os.fstat(fd).st_mtime_ns  # before the listing: a change after it moves it
            names = os.listdir(fd)
            if folder < started - RACY_NS:
                self._folder = folder
            for name in names:
                if name[-3:] == ".md" and name[0] != ".":
                    try:
                        st = stat(name, dir_fd=fd, follow_symlinks=False)
                    except FileNotFoundError:  # removed meanwhile
                        continue
                    if S_IFMT(st.st_mode) in (S_IFREG, S_IFLNK):  # a link is no note file (it may lead anywhere): reported broken
                        files[at + name] = (st.st_mtime_ns, st.st_size)
        finally:
            os.close(fd)
        return files

    def changed(self) -> None:
        """Someone watching the notes folder says it changed: the next read rescans it."""
        self._changed = True

    @contextmanager
    def snapshot(self):
        """One consistent view for a compound read: the notes folder is checked once on
        entry, not on every call inside (each is a scan of the folder)."""
        self.refresh()
        keep, self.auto_refresh = self.auto_refresh, False
        try:
            yield
        finally:
            self.auto_refresh = keep

    @_recovering
    def notes(self) -> list[Note]:
        self.refresh()
        self._complete()
        return sorted(self._notes.values(), key=lambda n: n.id)

    @_recovering
    def broken(self) -> list[NoteError]:
        self.refresh()
        self._complete()
        return sorted(self._errors.values(), key=lambda e: e.path)

    @_recovering
    def note(self, nid: str) -> Note | None:
        """The note with this exact id, if there is one (no refresh: for hot paths)."""
        return self._notes.get(nid)

    @_recovering
    def get(self, ref: str) -> Note:
        """A note by id, unique id prefix, or note file path (workspace-relative)."""
        self.refresh()
        self._complete()
        ref = ref.strip()
        if ref in self._notes:
            return self._notes[ref]
        if ref.endswith(".md"):
            for n in self._notes.values():
                if n.path == ref:
                    return n
        if len(ref) < 4:
            raise WorkspaceError(f"'{ref}': give at least 4 characters of the note's id")
        hits = [n for nid, n in self._notes.items() if nid.startswith(ref.lower())]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            short = short_ids(n.id for n in hits)
            named = "; ".join(f"{short[n.id]} {n.title}" for n in sorted(hits, key=lambda n: n.id)[:5])
            raise WorkspaceError(f"'{ref}' matches {len(hits)} notes ({named}{'; …' if len(hits) > 5 else ''}): "
                                 f"give more of the id")
        for e in self._errors.values():  # its file is there but broken: say so, not "no note"
            if e.path.rsplit("/", 1)[-1].startswith(ref.lower()):
                raise WorkspaceError(f"note '{ref}' is in {e.path}, which cannot be read: line {e.line}: {e.reason}")
        raise WorkspaceError(f"no note '{ref}' (see `tether list`)")

    @_recovering
    def notes_on(self, rel: str) -> list[Note]:
        """Notes with an anchor in ``rel`` or a glob that matches it."""
        self.refresh()
        if self._pending:
            self._first_for(rel)
        hit = self._on.get(rel)
        if hit is not None and hit[0] == self.generation and not self._pending:
            return list(hit[1])  # the notes are the same: so is the index that says which apply
        s = self.store
        ids = set()
        with s.read() as txn:
            ids.update(k.split("\0")[1] for k in s.keys(txn, "by_path", rel + "\0"))
            for key, pattern in s.items(txn, "globs"):
                if glob_match(pattern, rel):
                    ids.add(key.split("\0")[0])
        on = sorted(self._notes.get_many(ids), key=lambda n: n.id)
        if len(self._on) >= 256:
            self._on.clear()
        self._on[rel] = (self.generation, on)
        return list(on)

    @_recovering
    def short_ids(self) -> dict[str, str]:
        """Every note's id -> its short form, unique among the notes (read from the index's keys)."""
        self.refresh()
        self._complete()
        with self.store.read() as txn:
            return short_ids(self.store.keys(txn, "notes"))

    @_recovering
    def anchored_paths(self) -> set[str]:
        """Every file a note has an anchor in (not a glob), as the index has them."""
        with self.store.read() as txn:
            return {k.split("\0", 1)[0] for k in self.store.keys(txn, "by_path")}

    @_recovering
    def named_in(self, names: set[str]) -> dict[str, set[str]]:
        """File -> ids of the notes with a definition anchor of one of these qualified names
        there (the ``by_name`` index): where code that now has one of those names came from."""
        out: dict[str, set[str]] = {}
        with self.store.read() as txn:
            for name in names:
                for key, path in self.store.items(txn, "by_name", name + "\0"):
                    out.setdefault(path, set()).add(key.split("\0", 1)[1])
        return out

    @_recovering
    def short_id(self, nid: str, least: int = SHORT_ID) -> str:
        """The shortest prefix of ``nid`` (at least ``least`` characters) that no other note's id
        starts with, as git abbreviates hashes: its neighbours in the sorted index decide. The
        same least as ``tether list``, so a note has one short form in every answer."""
        return self.short_ids_of([nid], least)[nid]

    @_recovering
    def short_ids_of(self, nids: list[str], least: int = SHORT_ID) -> dict[str, str]:
        """:meth:`short_id` of each of ``nids``, read in one transaction."""
        out = {}
        with self.store.read() as txn:
            cur = txn.cursor(db=self.store.db["notes"])
            for nid in nids:
                key, near = nid.encode(), []
                if cur.set_range(key):  # the first id from nid on: nid itself, then the one after it
                    if cur.key() != key:
                        near.append(cur.key())
                    elif cur.next():
                        near.append(cur.key())
                        cur.set_range(key)
                    if cur.prev():
                        near.append(cur.key())
                elif cur.last():
                    near.append(cur.key())
                common = max((len(os.path.commonprefix([nid, k.decode()])) for k in near if k != key), default=0)
                out[nid] = nid[:max(least, common + 1)]
        return out

    @_recovering
    def indexed(self) -> dict[str, str]:
        """Note id -> note file, as the index has them."""
        self._complete()
        with self.store.read() as txn:
            return {nid: rec["path"] for nid, rec in self.store.items(txn, "notes")}

    # -- writing --------------------------------------------------------------------------
    @contextmanager
    def lock(self):
        cache = self.root / TETHER_DIR / "cache"
        cache.mkdir(parents=True, exist_ok=True)
        with open(cache / "write.lock", "a+") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def save(self, note: Note) -> Note:
        """Write the note file (atomically), then the index."""
        with self.lock():
            if not note.path:
                note.path = f"{TETHER_DIR}/notes/{note.file_name()}"
            target = self.root / note.path
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, _readable(note))
            self._indexed([note.path])
        return self._notes.get(note.id, note)

    def update(self, ref: str, change: Callable[[Note], None]) -> Note:
        """Read-modify-write of one note under the lock: ``change(note)`` edits it."""
        return self.update_many({ref: change})[0]

    def update_many(self, changes: dict[str, Callable[[Note], None]]) -> list[Note]:
        """Read-modify-write of many notes under one lock and one scan of the notes folder
        before and after (a scan each would make ``sync`` quadratic in the notes)."""
        with self.lock():
            self.refresh(force=True)  # read the notes as they are on disk now
            keep, self.auto_refresh = self.auto_refresh, False
            try:
                notes = [(self.get(ref), change) for ref, change in changes.items()]
            finally:
                self.auto_refresh = keep
            written = []
            try:
                for note, change in notes:
                    change(note)
                    note.updated = now()
                    atomic_write(self.root / note.path, _readable(note))
                    written.append(note)
            finally:  # what was written is indexed, also when the next write failed
                if written:
                    self._indexed([n.path for n in written])
            return [self._notes[n.id] for n in written]

    def _indexed(self, written: list[str]) -> None:
        """Index the note files just written; where the index cannot be written (a full disk),
        say that they were (the next command that can write indexes them)."""
        try:
            self.refresh(force=True)
        except IndexWriteError as e:
            raise WorkspaceError(f"{', '.join(written[:3])}{' …' if len(written) > 3 else ''}: written, but the "
                                 f"index could not be updated ({e.reason}); once there is space, the next "
                                 f"command brings it up to date") from None

    def reindex(self) -> tuple[int, int]:
        """Throw the index away and rebuild it from the note files."""
        with self.lock():
            try:
                self.store.reset()
            except DAMAGE as e:  # past reading: start from an empty index
                self.store.recover(e)
            self.refresh(force=True)
        return len(self._notes), len(self._errors)

    # -- the index ------------------------------------------------------------------------
    def _apply(self, txn, changed, removed) -> None:
        s = self.store
        for rel in removed:
            self._unindex(txn, rel)
            s.delete(txn, "files", rel)
        for rel, mtime, size, h, rows, err in changed:
            if rows == "same":
                rec = s.get(txn, "files", rel)
                rec.update(mtime=mtime, size=size)
                s.put(txn, "files", rel, rec)
                continue
            self._unindex(txn, rel)
            rec = {"mtime": mtime, "size": size, "hash": h, "id": None, "error": None}
            if rows is not None:
                nid = rows[0][1]
                other = s.get(txn, "notes", nid)
                if other is not None and other["path"] != rel and (self.root / other["path"]).exists():
                    err = NoteError(rel, 2, f"duplicate id {nid}: {other['path']} has it too; "
                                            f"give one of them a new id (tether makes one with `tether record`)")
                    rows = None
            if rows is not None:
                rec["id"] = nid
                for db, key, data in rows:
                    s.put_raw(txn, db, key, data)
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

    def _load(self, errors: list | None = None) -> None:
        """The notes, read from the index as asked for, and the broken note files (given, or read)."""
        s = self.store
        if errors is None:
            with s.read() as txn:
                errors = [(rel, rec["error"]["line"], rec["error"]["reason"])
                          for rel, rec in s.items(txn, "files") if rec.get("error")]
        self._notes, self._errors = _Notes(s), {rel: NoteError(rel, line, why) for rel, line, why in errors}


class _Notes:
    """The workspace's notes by id, read from the index on first use: answering for one
    file of a workspace with 10,000 notes does not build 10,000 notes."""

    def __init__(self, store: Store):
        self.store = store
        self._got: dict[str, Note] = {}
        self._all = False
        self.verify: Callable | None = None  # (txn, note file) -> as indexed? When the folder is trusted

    def get(self, nid: str, default=None):
        got = self.get_many((nid,))
        return got[0] if got else default

    def get_many(self, nids) -> list[Note]:
        """The notes of these ids there are, read in one transaction."""
        out, todo = [], []
        for nid in nids:
            note = self._got.get(nid)
            if note is not None:
                out.append(note)
            elif not self._all:
                todo.append(nid)
        if todo:
            with self.store.read() as txn:
                for nid in todo:
                    rec = self.store.get(txn, "notes", nid)
                    if rec is None:
                        continue
                    if self.verify is not None and not self.verify(txn, rec["path"]):
                        raise _Stale(rec["path"])
                    out.append(self._got.setdefault(nid, note_from_dict(rec["note"])))
        return out

    def __getitem__(self, nid: str) -> Note:
        note = self.get(nid)
        if note is None:
            raise KeyError(nid)
        return note

    def __contains__(self, nid: str) -> bool:
        return self.get(nid) is not None

    def _load_all(self) -> None:
        if self.verify is not None:  # every note, unchecked: only after a whole scan (_complete)
            raise _Stale("")
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
        if self._all:
            return len(self._got)
        with self.store.read() as txn:  # counted, not read: 100,000 notes take 3 s to build
            return self.store.count(txn, "notes")


class _Stale(Exception):
    """A note file changed since the index read it, found while the folder was trusted."""


def _broken(store: Store, known: dict, todo: list[tuple], files: dict) -> list[tuple[str, int, str]]:
    """The broken note files of ``files`` once ``todo`` is indexed: as ``known`` (the index's
    records before) had them, the files of ``todo`` as indexed now (a change of a few note
    files reads their records again, not every note file's)."""
    with store.read() as txn:
        recs = {**known, **{rel: store.get(txn, "files", rel) for rel, *_ in todo}}
    return [(rel, rec["error"]["line"], rec["error"]["reason"]) for rel, rec in recs.items()
            if rel in files and rec and rec.get("error")]


def _readable(note: Note) -> str:
    """The note's file text, refused when it would not read back (a body holding merge
    conflict markers, say): a note is never written only to be reported broken."""
    text = format_note(note)
    try:
        parse_note(text, note.path)
    except NoteError as e:
        raise WorkspaceError(f"not written: the note would not read back ({e.reason})") from None
    return text


def _read_note(root: Path, rel: str, mtime: int, size: int, known: dict | None) -> tuple:
    """One changed note file read for the index: (rel, mtime, size, digest, its note's rows
    (:func:`_rows`), or "same" when only its time changed, or None, the error when it is broken)."""
    try:
        fd = os.open(os.path.join(root, rel), os.O_RDONLY | os.O_NOFOLLOW)
        with open(fd, "rb") as f:
            data = f.read()
        text = data.decode("utf-8")
    except OSError as e:
        if e.errno == errno.ELOOP:
            return rel, mtime, size, "", None, NoteError(rel, 1, "a link: a note file is a regular file in the notes "
                                                                 "folder (a link may lead outside the workspace)")
        return rel, mtime, size, "", None, NoteError(rel, 1, f"cannot read: {e.strerror}")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        return rel, mtime, size, "", None, NoteError(
            rel, line, f"not valid UTF-8 (byte 0x{data[e.start]:02x}): save the note file as UTF-8")
    h = digest(text)
    if known is not None and known["hash"] == h:
        return rel, mtime, size, h, "same", None
    try:
        return rel, mtime, size, h, _rows(parse_note(text, rel), rel), None
    except NoteError as e:
        return rel, mtime, size, h, None, e


def _rows(note: Note, rel: str) -> list[tuple[str, str, bytes]]:
    """What indexing a note writes, (db, key, JSON): its record first (keyed by its id), then
    its keys in by_path, by_name and globs. Made by the reader, which a large refresh forks:
    the one writer then only puts bytes (handing over notes instead cost it 40 µs a note)."""
    dumps = bulk_dumps()  # (orjson's when a whole index is read: _index loads it)
    nid = note.id
    rows = [("notes", nid, dumps({"path": rel, "note": note_to_dict(note)}))]
    for i, a in enumerate(note.anchors):
        if a.type == A.GLOB:
            rows.append(("globs", f"{nid}\0{i}", dumps(a.pattern)))
        else:
            rows.append(("by_path", f"{a.path}\0{nid}", b"1"))
        if a.type == A.SYMBOL and a.name:
            rows.append(("by_name", f"{a.name}\0{nid}", dumps(a.path)))
    return rows


def _named_paths(note_file: str) -> set[str] | None:
    """The paths a note file's anchors name, read from its bytes without parsing it; None
    when it may apply to any file (a path pattern, a path written other than as a plain
    string, an unreadable file)."""
    try:
        fd = os.open(note_file, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            data = os.read(fd, 1 << 20)
        finally:
            os.close(fd)
    except OSError:
        return None
    paths = set()
    for key, quoted, single in _PATHS.findall(data):
        value = quoted or single
        if key == b"pattern" or not value or b"\\" in value:
            return None
        try:
            paths.add(value.decode())
        except UnicodeDecodeError:
            return None
    return paths
