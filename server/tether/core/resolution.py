"""Where each note's anchors are now: a file's anchors resolved in its current text, with
the last resolution of every anchor kept in the store so the next one can align old and new
code (:mod:`anchors` does the aligning; this module feeds it and keeps what it found).

:func:`resolve_anchors` is pure (no store, no disk): a check forks it over processes, and a
test gives it texts. :class:`Resolutions` reads what it needs from the store first, and
stores what is kept afterwards, in one transaction for a whole check (:meth:`batched`).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from collections import OrderedDict
from contextlib import contextmanager

import lmdb

from . import anchors as A
from .files import SourceTree, WorkspaceError, git
from .languages import family_of, for_path
from .notes import FIELDS, Note
from .records import dataclass
from .store import DAMAGE, Store
from .syntax import Change, SourceFile, parsed
from .text import Range, dice, digest, line_counts


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
        """The anchor as it is in the text it was resolved in (path, name, range, hash now)."""
        a, r = self.anchor, self.resolution
        if not r.attached:
            return a
        return A.Anchor(a.type, r.path or a.path, a.pattern, a.lang, a.node, r.name or a.name,
                        self.params or a.params, r.hash or a.hash, a.sketch, r.range or a.range)

    @property
    def path(self) -> str:
        """The file its code is in now (another than the anchor's when it moved there)."""
        return self.resolution.path or self.anchor.path

    @property
    def state(self) -> str:
        return self.resolution.state

    @property
    def range(self) -> Range | None:
        return self.resolution.range


class Resolutions:
    """Resolves the anchors of the notes in ``notes_on(rel)`` in the files of ``tree``, keeping
    each file's result until its text or the notes (``generation()``) change."""

    def __init__(self, store: Store, tree: SourceTree, notes_on: Callable[[str], list[Note]],
                 generation: Callable[[], int], anchored_paths: Callable[[], set[str]], notes_seal: Callable[[], str],
                 named_in: Callable[[set[str]], dict[str, set[str]]]):
        self.store, self.tree, self.notes_on, self.generation = store, tree, notes_on, generation
        self.anchored_paths, self.notes_seal, self.named_in = anchored_paths, notes_seal, named_in
        self._batch: list | None = None  # resolutions to keep, while a check runs (batched)
        self._located: dict[str, tuple] = {}  # rel -> (text digest, generation, result, when if code was lost)
        self._listed: tuple[float, list] | None = None  # (when, the workspace's files and their times)
        self._parsed: dict[str, tuple[int, SourceFile]] = {}  # files searched for lost code, parsed
        self._known: dict[str, tuple[int, Known | None]] = {}  # ... and what was known of them before
        self._seen: dict[str, str] = {}  # rel -> digest of the text last kept by see()
        self._sightings: list[tuple[str, dict]] = []  # see() records not written yet
        self._stamped: list[tuple[str, list]] = []  # file -> [its stamp (SourceTree.content_stamp), digest] not written yet
        self._head: tuple[int, set[str]] | None = None  # git's HEAD: its time, the files it holds
        self._missing: tuple[float, int, dict] | None = None  # (when, generation, where gone files' anchors went)
        self._arriving = False  # working that out (it locates the gone files, which asks again)
        self._renames: tuple[float, list] | None = None  # (when, the file renames git knows)
        self._moved: dict[str, tuple[str, int, float, list[Located]]] = {}  # rel -> (digest, generation, when, arrivals)
        self._names: dict[str, tuple[str, set[str]]] = {}  # rel -> (digest, its definitions' qualified names)
        # the anchors' records as this process last read or wrote them (key -> record, None: none),
        # while no other process wrote any (``anchors_token``) and the notes are the same (``_records_gen``)
        self._records: dict[str, dict | None] = {}
        self._records_token: str | None = None
        self._records_gen = -1
        self._texts: OrderedDict[str, str | None] = OrderedDict()  # digest -> a text records were made in, newest last

    def locate(self, rel: str, text: str | None = None, src: SourceFile | None = None) -> list[Located]:
        """Every anchor in ``rel`` (notes anchored there), resolved in its current text
        (``text`` if given, e.g. an editor's unsaved buffer; else the file on disk);
        ``src``: that text already parsed."""
        todo = anchored_in(rel, self.notes_on(rel))
        if not todo:
            return self._arrivals(rel, text, src)
        if text is None:
            try:
                text = self.tree.read(rel)
            except WorkspaceError:
                # gone: its anchors are orphaned (unless their code went elsewhere);
                # unreadable (binary, too large): undecidable
                try:
                    gone = not self.tree.exists(rel)
                except WorkspaceError:  # a link leading out of the workspace: nothing there is ours
                    return [Located(n, i, a, A.Resolution(A.ORPHANED, None, a.name)) for n, i, a in todo]
                out = [Located(n, i, a, A.Resolution(
                    A.ORPHANED if gone else (A.AMBIGUOUS if a.is_code else A.OK), None, a.name))
                    for n, i, a in todo]
                return self._follow(rel, self._follow_file(rel, out), set()) if gone else out
        h = digest(text)
        if self._kept_located(rel, h, self.generation()):
            return list(self._located[rel][2]) + self._arrivals(rel, text, src)
        out, updates, parsed = resolve_anchors(rel, text, h, todo, *self.last_seen(todo, h), src)
        if parsed is not None:
            self.see((rel, parsed), write=False)  # written with the resolutions, in one transaction
        out = self._settle(rel, text, h, out, updates)
        return out + self._arrivals(rel, text, parsed or src)

    def _arrivals(self, rel: str, text: str | None = None, src: SourceFile | None = None) -> list[Located]:
        """The anchors of other files whose code is now in ``rel``: of files that are gone (a
        file renamed, moved or split), and of files still there that lost a definition ``rel``
        now holds (cut and pasted here). The notes of the code being touched, before ``sync``
        writes the path."""
        out = list(self._arrived().get(rel, ()))
        if self._arriving:
            return out
        have = {(loc.note.id, loc.index) for loc in out}
        return out + [loc for loc in self._moved_in(rel, text, src) if (loc.note.id, loc.index) not in have]

    def _moved_in(self, rel: str, text: str | None, src: SourceFile | None) -> list[Located]:
        """Anchors of files still there whose code is now in ``rel``. Looked up by the names of
        ``rel``'s definitions in the notes index (``by_name``, kept with the notes), so only
        the files that anchor one of those names are resolved, and each found there already is
        passed over; code renamed on the way keeps no name the index knows, so the files whose
        resolution followed code here before (:meth:`_settle` keeps them) are resolved too. A
        definition is taken as arrived only where its own file's resolution followed it here
        (:meth:`_follow`: the same evidence, the same doubts offered, not taken)."""
        if family_of(rel) is None:
            return []
        if text is None:
            try:
                text = self.tree.read(rel)
            except WorkspaceError:
                return []
        h, gen = digest(text), self.generation()
        hit = self._moved.get(rel)
        if hit is not None and hit[0] == h and hit[1] == gen and self.tree.unchanged_since(hit[2]):
            return list(hit[3])
        began = time.monotonic()
        names = self._def_names(rel, h, text, src)
        out: list[Located] = []
        self._arriving = True  # the files resolved here do not look for arrivals of their own
        try:
            origins = self.named_in(names)
            with self.store.read() as txn:
                for origin in self.store.get(txn, "meta", f"arrived\0{rel}") or ():
                    origins.setdefault(origin, None)  # any of its notes that followed code here
            for origin, ids in sorted(origins.items()):
                if origin == rel or not self.tree.exists(origin):
                    continue  # a file that is gone: _arrived follows it
                out += [loc for loc in self.locate(origin) if (ids is None or loc.note.id in ids)
                        and loc.anchor.type == A.SYMBOL and loc.resolution.attached and loc.resolution.path == rel]
        finally:
            self._arriving = False
        self._moved[rel] = (h, gen, began, out)
        return list(out)

    def _def_names(self, rel: str, h: str, text: str, src: SourceFile | None) -> set[str]:
        """The qualified names of ``rel``'s definitions in the text of digest ``h``."""
        hit = self._names.get(rel)
        if hit is not None and hit[0] == h:
            return hit[1]
        if src is None or src.text != text:
            with self.store.read() as txn:
                rec = self.store.get(txn, "seen", rel)
            if rec is not None and rec["h"] == h and "names" in rec:  # another process read them (see())
                self._names[rel] = (h, set(rec["names"]))
                return self._names[rel][1]
            src = parsed(rel, text, for_path(rel))  # kept: the check after the next edit parses from it
        names = set(src.names) if src.tree is not None else set()
        if src._defs is not None:  # read whole (not from an edit's neighbourhood): kept for the next process
            with contextlib.suppress(lmdb.Error):  # (a read-only or full store: read again next time)
                self.see((rel, src))
        if len(self._names) >= 1024:
            self._names.pop(next(iter(self._names)))
        self._names[rel] = (h, names)
        return names

    def _arrived(self) -> dict[str, list[Located]]:
        """Where the anchors of the files that anchors name but that are no longer there went:
        new path -> their resolutions (worked out at most once a second, and again when the
        notes change)."""
        gen = self.generation()
        if self._arriving:  # locating a gone file asks for arrivals too: none yet
            return {}
        if self._missing is None or self._missing[1] != gen or not self.tree.unchanged_since(self._missing[0]):
            self._arriving = True  # not the time: locating many gone files takes longer than a second
            arrived: dict[str, list[Located]] = {}
            try:
                with self.tree.reading():  # each gone file's code is searched for in the same files
                    for p in self._gone():
                        try:
                            self.tree.real(p)
                        except WorkspaceError:
                            continue  # a path outside the workspace is reported with its note, not followed
                        for loc in self.locate(p):
                            if loc.resolution.path:
                                arrived.setdefault(loc.resolution.path, []).append(loc)
            finally:
                self._arriving = False
            # kept from when it was done, not begun: locating many gone files can take longer
            # than the second a process without a watch trusts it (a watch sees any change since)
            self._missing = (time.monotonic(), gen, arrived)
        return self._missing[2]

    def _gone(self) -> list[str]:
        """The files anchors name that are not there. A file leaves (deleted, renamed, moved)
        only by changing its folder's mtime, so what an earlier process found is kept for the
        folders whose mtime it recorded: a new process stats each folder, not each file; when
        the notes changed, it looks again only into the folders whose mtime or anchored files
        changed. A folder changed within the last two seconds is looked into again (a change
        in the same tick of the file system's clock leaves its mtime as it was)."""
        seal, root = self.notes_seal(), self.tree.root
        with self.store.read() as txn:
            known = self.store.get(txn, "meta", "gone") or {}
        kept = {d: v for d, v in known.get("dirs", {}).items() if isinstance(v, list)}  # (an older record: none)
        if kept and known.get("seal") == seal and all(_mtime(os.path.join(root, d)) == v[0] for d, v in kept.items()):
            return known["gone"]
        by_dir: dict[str, list[str]] = {}
        for p in sorted(self.anchored_paths()):
            by_dir.setdefault(p.rpartition("/")[0], []).append(p)  # (os.path.dirname: 4 times the cost)
        recent = time.time_ns() - 2_000_000_000
        gone, dirs = [], {}
        for d, paths in sorted(by_dir.items()):
            t = _mtime(os.path.join(root, d))
            names = digest("\0".join(paths))
            was = kept.get(d)
            lost = was[2] if was is not None and t is not None and was[:2] == [t, names] else _missing(root, d, paths)
            if t is not None and t < recent:
                dirs[d] = [t, names, lost]  # looked into before its files: a change after this moves the mtime
            gone += lost
        if len(dirs) == len(by_dir) and (dirs != kept or seal != known.get("seal")):
            with contextlib.suppress(lmdb.Error):  # a read-only or full store: looked into again next time
                self.store.write(lambda txn: self.store.put(txn, "meta", "gone", {"seal": seal, "dirs": dirs, "gone": gone}))
        return gone

    # -- code that left its file ------------------------------------------------------------
    def created(self, rel: str) -> None:
        """``rel`` was just created (the editor says so): whatever it holds is new there,
        unless tether saw it before (a file deleted and restored holds what it held)."""
        self._listed = self._missing = None  # the next search lists the tree again
        def put(txn):
            if self.store.get(txn, "seen", rel) is None:
                self.store.put(txn, "seen", rel, {"h": "", "keys": {}})
        try:
            self.store.write(put)
        except lmdb.Error:
            pass

    def see(self, *files: tuple[str, SourceFile], write: bool = True) -> None:
        """Keep which definitions each ``(rel, parsed text)`` holds, each with when it was first
        seen there: the evidence that a definition found elsewhere later is new there (moved
        in), or was there all along (a look-alike with a history of its own)."""
        self._sight([(rel, digest(src.text), def_keys(src), sorted(src.names) if src.tree is not None else [])
                     for rel, src in files], write)

    def _sight(self, files: list[tuple[str, str, list[str] | None, list[str] | None]], write: bool) -> None:
        """:meth:`see` of ``(rel, digest of its text, its definitions' keys (None: not parsed),
        their qualified names (None: not known))``."""
        # (a file of no language is kept too, with no definitions: a file note's file, to find it if renamed)
        todo = [(rel, h, defs, names) for rel, h, defs, names in files if defs is not None and self._seen.get(rel) != h]
        if not todo:
            return
        s = self.store
        puts = []
        with s.read() as txn:
            for rel, h, defs, names in todo:
                rec = s.get(txn, "seen", rel)
                self._seen[rel] = h
                if rec is not None and rec["h"] == h and (names is None or "names" in rec):
                    continue
                if rec is None:  # first sight: each definition was there when the file last changed, or before
                    mark = [self.tree.changed_at(rel)]
                    keys = {k: mark for k in defs}
                else:  # a definition new since the last sight appeared now
                    stamp, known = time.time_ns(), rec["keys"]
                    keys = {k: known.get(k, stamp) for k in defs}
                at = rec["at"] if rec is not None and rec["h"] == h and "at" in rec else time.time_ns()
                puts.append((rel, {"h": h, "keys": keys, "at": at, **({"names": names} if names is not None else {})}))
        self._sightings += puts
        if write:
            self._write([])

    def _follow(self, rel: str, out: list[Located], present: Callable[[], set[str]] | set[str]) -> list[Located]:
        """Look for the code of the anchors lost from ``rel`` in the files where the evidence
        points: files of the same language changed since each anchor was last seen in ``rel``.
        ``present``: the qualified names ``rel`` holds now (or what says them)."""
        lost = [k for k, loc in enumerate(out) if loc.anchor.type in (A.SYMBOL, A.SPAN) and (
            loc.state == A.ORPHANED or loc.state == A.AMBIGUOUS and loc.resolution.offered)]
        if not lost:
            return out
        s = self.store
        probes = {}
        with s.read() as txn:
            for k in lost:
                loc = out[k]
                st = s.get(txn, "anchors", f"{loc.note.id}\0{loc.index}")
                st = st if st is not None and st.get("for") == anchor_key(loc.anchor) and st.get("text") else None
                old = s.get_text(txn, st["text"]) if st else None
                probes[k] = (_probe(loc.anchor, st) if old is not None else loc.anchor, old, st.get("at") if st else None)
        files = self._elsewhere(rel, min((p[2] or 0) for p in probes.values()) or None,
                                {out[k].anchor.name.rsplit(".", 1)[-1] for k in lost})
        if not files:
            return out
        out, lang = list(out), for_path(rel)
        present = present if isinstance(present, set) else present()
        for k, (probe, old, at) in probes.items():
            old_src = SourceFile(old, lang) if old is not None else None
            res = A.follow(probe, old_src, [A.Elsewhere(p, src, _fresh_since(keys, at)) for p, src, keys in files],
                           present)
            if out[k].state == A.AMBIGUOUS and not (res.attached and _short(res.name) == _short(probe.name)):
                continue  # renames offered here: only the same name found elsewhere is stronger evidence
            if res.state != A.ORPHANED:
                loc = out[k]
                out[k] = Located(loc.note, loc.index, loc.anchor, res, loc.last, res.params if res.attached else "")
        return out

    def _follow_file(self, rel: str, out: list[Located]) -> list[Located]:
        """A file that is gone may have been renamed: git says so (a rename committed, staged
        or in the working tree), or, for a tracked file moved with a plain ``mv``, the untracked
        file most like what HEAD holds. Its file and line anchors follow it; its definitions
        and statements are followed one by one (``_follow``)."""
        whole = [k for k, loc in enumerate(out) if loc.anchor.type in (A.FILE, A.LINES)]
        new = self._renamed_file(rel) if whole else None
        if new is None:
            return out
        out = list(out)
        try:
            text = self.tree.read(new)
        except WorkspaceError:
            text = None
        for k in whole:
            loc = out[k]
            if loc.anchor.type == A.FILE:
                res = A.Resolution(A.MOVED, path=new)
            else:
                with self.store.read() as txn:
                    st = self.store.get(txn, "anchors", f"{loc.note.id}\0{loc.index}")
                    old = self.store.get_text(txn, st["text"]) if st and st.get("text") else None
                if text is None:
                    continue
                got = A.resolve(loc.anchor, SourceFile(text, None), SourceFile(old, None) if old else None)
                if not got.attached:
                    continue
                res = A.Resolution(A.MOVED, got.range, hash=got.hash, path=new)
            out[k] = Located(loc.note, loc.index, loc.anchor, res, loc.last)
        return out

    def _git_renames(self) -> list[tuple[str, str]]:
        """The file renames git knows, oldest first: committed (the last 1,000 commits),
        then staged or in the working tree (asked at most once a second, for every gone file)."""
        now = time.monotonic()
        if self._renames is None or not self.tree.unchanged_since(self._renames[0]):
            root, pairs = self.tree.root, []
            log = git(root, "log", "-M", "--diff-filter=R", "--name-status", "--format=", "--relative", "-n", "1000",
                      "HEAD")
            diff = git(root, "diff", "-M", "--name-status", "--relative", "HEAD")
            for out in (log.stdout.splitlines()[::-1], diff.stdout.splitlines()):
                pairs += [tuple(line.split("\t")[1:3]) for line in out if line.startswith("R") and line.count("\t") == 2]
            self._renames = (now, pairs)
        return self._renames[1]

    def _renamed_file(self, rel: str) -> str | None:
        root = self.tree.root
        path = rel
        for old, new in self._git_renames():
            if path == old:
                path = new
        if path != rel:
            return path if self.tree.exists(path) else None
        was = git(root, "show", f"HEAD:./{rel}")  # a plain mv: the untracked file most like what HEAD holds
        if was.returncode == 0:
            untracked = git(root, "ls-files", "--others", "--exclude-standard").stdout.split("\n")
            return self._most_like(rel, was.stdout, untracked)
        # not in git: the file most like the text tether last saw there, among those written or
        # moved in since (a move sets the ctime)
        with self.store.read() as txn:
            rec = self.store.get(txn, "seen", rel)
            old = self.store.get_text(txn, rec["h"]) if rec and rec.get("h") else None
        if old is None:
            return None
        since = rec.get("at", 0) - SLACK_NS
        stamps = [(p, t) for p, t, _ in self._stamps()] if family_of(rel) else self.tree.stamps()  # (code files only)
        # a new path: not one a note names, nor one tether saw before it last saw this file there
        anchored = self.anchored_paths()
        paths = [p for p, t in stamps if t >= since and p != rel and p not in anchored]
        with self.store.read() as txn:
            paths = [p for p in paths if (self.store.get(txn, "seen", p) or {}).get("at", since) >= since]
        return self._most_like(rel, old, paths)

    def _most_like(self, rel: str, old: str, paths: list[str]) -> str | None:
        """The one file of ``paths`` (of ``rel``'s extension) that keeps at least half of the
        lines of ``old``, clearly more than any other: where ``rel`` went."""
        old_lines = line_counts(old.split("\n"))
        scored = []
        for p in paths:
            if p and os.path.splitext(p)[1] == os.path.splitext(rel)[1]:
                try:
                    lines = line_counts(self.tree.read(p).split("\n"))
                except WorkspaceError:
                    continue
                scored.append((dice(old_lines, lines), p))
        scored.sort(reverse=True)
        if scored and scored[0][0] >= 0.5 and (len(scored) == 1 or scored[0][0] - scored[1][0] >= 0.1):
            return scored[0][1]
        return None

    def _elsewhere(self, rel: str, since: int | None,
                   names: set[str]) -> list[tuple[str, SourceFile, Known | None]]:
        """The files a definition of ``rel`` may have gone to: of its language family,
        changed since ``since`` (ns; None: any); when many, those that name it."""
        family = family_of(rel)
        since = since - SLACK_NS if since is not None else None
        paths = [(p, t) for p, t, fam in self._stamps() if fam == family and (since is None or t >= since) and p != rel]
        if len(paths) > FOLLOW_FILES:
            paths = [(p, t) for p, t in paths if self.tree.mentions(p, names, t)][:FOLLOW_FILES]
        out, unseen = [], []
        for p, t in paths:
            src = self._parse(p, t)
            if src is None:
                continue
            known = self._known_before(p, t)
            out.append((p, src, known))
            if known is None:
                unseen.append(p)
        committed = self._committed(unseen) if unseen else {}
        self.see(*((p, src) for p, src, _ in out))
        return [(p, src, committed.get(p) if keys is None else keys) for p, src, keys in out]

    def _known_before(self, rel: str, stamp: int) -> Known | None:
        """What the store knew of ``rel``'s definitions before this process saw it at ``stamp``."""
        hit = self._known.get(rel)
        if hit is None or hit[0] != stamp:
            with self.store.read() as txn:
                rec = self.store.get(txn, "seen", rel)
            hit = self._known[rel] = (stamp, Known(rec["keys"]) if rec else None)
        return hit[1]

    def _stamps(self) -> list[tuple[str, int, str | None]]:
        """The workspace's source files, their times and language families, listed at most
        once a second (several files losing code in one command share one walk of the tree)."""
        now = time.monotonic()
        if self._listed is None or not self.tree.unchanged_since(self._listed[0]):
            listed = [(p, t, family_of(p)) for p, t in self.tree.stamps()]
            self._head = None  # and git's HEAD is asked again
            self._listed = (now, [x for x in listed if x[2] is not None])
        return self._listed[1]

    def _parse(self, rel: str, stamp: int) -> SourceFile | None:
        """``rel`` parsed, kept while its time does not change (a search parses each candidate once)."""
        hit = self._parsed.get(rel)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        try:
            src = SourceFile(self.tree.read(rel), for_path(rel))
        except WorkspaceError:
            return None
        if src.tree is None:
            return None
        if len(self._parsed) >= 256:
            self._parsed.pop(next(iter(self._parsed)))
        self._parsed[rel] = (stamp, src)
        return src

    def _committed(self, paths: list[str]) -> dict[str, Known]:
        """For files tether never saw, what git knows: the definitions each held at HEAD,
        there at the commit's time. (A file or definition HEAD lacks says nothing: it may be
        old and never committed.)"""
        if self._head is None:  # asked once a process: HEAD does not move under a command
            head = git(self.tree.root, "log", "-1", "--format=%ct", "HEAD")
            tracked = git(self.tree.root, "ls-tree", "-r", "-z", "--name-only", "HEAD")
            ok = head.returncode == 0 and tracked.returncode == 0  # else no git work tree, or no commit yet
            # the commit's time is in whole seconds: the end of that second, so "before" stays certain
            self._head = ((int(head.stdout.strip()) + 1) * 1_000_000_000, set(tracked.stdout.split("\0"))) if ok \
                else (0, set())
        when, known = [self._head[0]], self._head[1]
        out = {}
        for p in paths:
            if p not in known:
                continue
            shown = git(self.tree.root, "show", f"HEAD:./{p}")
            if shown.returncode == 0:
                src = SourceFile(shown.stdout, for_path(p))
                out[p] = Known({d.key: when for d in src.defs}, complete=False)
        return out

    def locate_files(self, todos: dict[str, list[tuple[Note, int, A.Anchor]]], jobs: int) -> dict[str, list[Located]]:
        """The anchors ``todos[rel]`` (all there are in ``rel``) resolved in each file as it is
        on disk, for a command over the whole workspace: each file read once, parsed only when
        an anchor's resolution in its text is not kept (a fresh clone's first command parses
        them all, shared over ``jobs`` processes), what is kept stored in one transaction.
        Only each file's own anchors: code that arrived from another file is found from there."""
        out: dict[str, list[Located]] = {}
        work: list[FileWork] = []
        with self.batched(), self.tree.reading():
            gen = self.generation()
            with self.store.read() as txn:
                stamps = {rel: self.store.get(txn, "stamps", rel) for rel in todos}
            settled = time.time_ns() - SLACK_NS  # a file written since may change again within its time's tick
            rels = list(todos)
            if sum(1 for rel in rels if stamps[rel] is None) >= FORK_READS:  # a fresh clone: every file read
                from .fork import fork_map
                digested = dict(zip(rels, fork_map(lambda rel: _digested(self.tree, rel, stamps[rel], settled),
                                                   rels, jobs)))
            else:
                digested = {}
            for rel, todo in todos.items():
                try:
                    got = digested.get(rel) or _digested(self.tree, rel, stamps[rel], settled)
                    if isinstance(got, WorkspaceError):
                        raise got
                    text, h, stamp = got
                    if stamp is not None:
                        self._stamped.append((rel, stamp))
                    if self._kept_located(rel, h, gen):
                        out[rel] = list(self._located[rel][2])
                        continue
                    last, olds = self.last_seen(todo, h)
                    got = resolve_anchors(rel, text or "", h, todo, last, olds, parse=False)
                    if text is None and (got is None or got[1]):  # its text is needed: to parse, or to keep
                        text = self.tree.read(rel)
                        if digest(text) != h:  # changed within its stamp (a clock set back): as it is now
                            h = digest(text)
                            last, olds = self.last_seen(todo, h)
                        got = resolve_anchors(rel, text, h, todo, last, olds, parse=False)
                except WorkspaceError:  # gone or unreadable: as locate says (a rare file)
                    out[rel] = self.locate(rel)
                    continue
                if got is None:
                    work.append(FileWork(rel, text, h, todo, last, olds))
                else:
                    out[rel] = self._settle(rel, text or "", h, got[0], got[1])
            if work:
                from .fork import fork_map  # here: a command whose resolutions are all kept forks nothing
                parse = sum(len(w.text) for w in work)
                for w, (found, updates, keys) in zip(work, fork_map(_resolve_file, work,
                                                                    max(1, min(jobs, parse // FORK_BYTES)))):
                    self._sight([(w.rel, w.h, keys, None)], write=False)
                    located = [Located(n, i, a, *got) for (n, i, a), got in zip(w.todo, found)]
                    out[w.rel] = self._settle(w.rel, w.text, w.h, located, updates)
        return out

    def _kept_located(self, rel: str, h: str, gen: int) -> bool:
        """This process resolved ``rel``'s anchors in the text of digest ``h`` already, with these
        notes, and (under a watch of the tree) nothing since says to search for lost code again."""
        hit = self._located.get(rel)
        return hit is not None and hit[0] == h and hit[1] == gen and not (
            hit[3] is not None and self.tree.changes is not None and not self.tree.unchanged_since(hit[3]))

    def _settle(self, rel: str, text: str, h: str, located: list[Located], updates: dict) -> list[Located]:
        """Keep the resolutions just made in ``text`` (digest ``h``) of ``rel``, and follow
        the code lost from it to the files it went to."""
        self.keep(text, h, updates)
        began = time.monotonic()
        located = self._follow(rel, located, lambda: self._def_names(rel, h, text or self.tree.read(rel), None))
        self._arrived_from(rel, {loc.resolution.path for loc in located if loc.resolution.path and loc.resolution.attached
                                 and loc.resolution.name != loc.anchor.name})
        # code lost here may turn up elsewhere later (cut in one save, pasted in another): under a
        # watch of the tree, where a change is known at once, the search is made again after one
        lost = any(not loc.resolution.attached and not loc.resolution.path for loc in located)
        self._located[rel] = (h, self.generation(), list(located), began if lost else None)
        return located

    def _arrived_from(self, rel: str, paths: set[str]) -> None:
        """Keep that code of ``rel`` was followed, renamed, into each of ``paths``: the names
        index cannot lead there from the new name (:meth:`_moved_in`)."""
        def put(txn):
            for p in paths:
                have = self.store.get(txn, "meta", f"arrived\0{p}") or []
                if rel not in have:
                    self.store.put(txn, "meta", f"arrived\0{p}", sorted({*have, rel}))
        if paths:
            with self.store.read() as txn:
                paths = {p for p in paths if rel not in (self.store.get(txn, "meta", f"arrived\0{p}") or ())}
        if paths:
            with contextlib.suppress(lmdb.Error):  # a read-only or full store: found again after sync
                self.store.write(put)

    def locate_note(self, note: Note, texts: dict[str, str] | None = None) -> list[Located]:
        out = []
        for rel in sorted({a.path for a in note.anchors if a.type != A.GLOB}):
            out += [loc for loc in self.locate(rel, (texts or {}).get(rel)) if loc.note.id == note.id]
        out += [Located(note, i, a, A.Resolution(A.OK)) for i, a in enumerate(note.anchors) if a.type == A.GLOB]
        return sorted(out, key=lambda loc: loc.index)

    def last_seen(self, todo: list[tuple[Note, int, A.Anchor]], h: str) -> tuple[dict, dict]:
        """What the store kept of these anchors' last resolutions, and the texts they were
        made in (only those needed: the ones not made in the text ``h``). A long-lived process
        (a server, after an edit) has them from its last read or write: each anchor's record is
        read (and checked against its anchor) once while no other process writes any."""
        s = self.store
        last, olds = {}, {}
        records, texts = self._records, self._texts
        try:
            with s.read() as txn:
                token, gen = s.get(txn, "meta", "anchors_token"), self.generation()
                if token != self._records_token or gen != self._records_gen or len(records) > MAX_RECORDS:
                    records.clear()
                    self._records_token, self._records_gen = token, gen
                for n, i, a in todo:
                    k = f"{n.id}\0{i}"
                    st = records.get(k, _UNREAD)
                    if st is _UNREAD:  # a record of another anchor (the note file was edited since) is void
                        st = s.get(txn, "anchors", k)
                        st = records[k] = st if st is not None and st.get("for") == anchor_key(a) else None
                    last[(n.id, i)] = st
                    if st and st.get("text") not in olds and not kept_for(st, h):
                        t = st.get("text")
                        olds[t] = texts.get(t) if t in texts else self._text(s.get_text(txn, t), t) if t else None
        except DAMAGE as e:  # resolved afresh: the note files hold what is needed
            s.recover(e)
            records.clear()
            return {}, {}
        return last, olds

    def _text(self, text: str | None, h: str) -> str | None:
        """Remember ``text`` (of digest ``h``) as one the next resolutions start from."""
        self._texts[h] = text
        self._texts.move_to_end(h)
        while len(self._texts) > MAX_TEXTS:
            self._texts.popitem(last=False)
        return text

    def remember(self, note: Note, i: int, anchor: A.Anchor, text: str) -> None:
        """Keep the text an anchor was made in (recorded, re-anchored, synced), for the next
        resolution."""
        h = digest(text)
        self.keep(text, h, {f"{note.id}\0{i}": {  # with the others of a batch (a sync), in one transaction
            "text": h, "range": list(anchor.range) if anchor.range else None,
            "name": anchor.name, "params": anchor.params, "hash": anchor.hash, "for": anchor_key(anchor),
            "at": time.time_ns()}})

    def keep_located(self, text: str, located: list[Located]) -> None:
        """Store resolutions made elsewhere (the editor's edits path) as the last ones."""
        h = digest(text)
        s = self.store
        with s.read() as txn:
            updates = {}
            for loc in located:
                if loc.resolution.path:
                    continue  # followed to another file: its record stays that of its own file
                key = f"{loc.note.id}\0{loc.index}"
                rec = s.get(txn, "anchors", key) or {}
                rec["resolved_in"], rec["res"], rec["for"] = h, _res_to(loc.resolution), anchor_key(loc.anchor)
                if loc.resolution.attached and loc.range is not None:
                    cur = loc.current()
                    rec.update(text=h, range=list(cur.range), name=cur.name, params=cur.params, hash=cur.hash,
                               at=time.time_ns())
                updates[key] = rec
        self.keep(text, h, updates)

    def keep(self, text: str, h: str, updates: dict) -> None:
        """Store ``updates`` (anchor records) made in ``text`` of digest ``h``."""
        if not updates:
            if self._sightings and self._batch is None:
                self._write([])
            return
        self._located.clear()  # resolutions made elsewhere (the editor) replace what was kept
        self._records.update(updates)  # as they will be in the store (a write that fails forgets them all)
        if any(r.get("text") == h for r in updates.values()):
            self._text(text, h)
        if self._batch is not None:
            self._batch.append((text, h, updates))
        else:
            self._write([(text, h, updates)])

    @contextmanager
    def batched(self, later: Callable | None = None):
        """Resolutions kept during a long read (a whole check) go to the store in one
        transaction at its end, not one per file (a commit costs about a millisecond).
        ``later(fn, *args)``: how that write is run (a server's ``Workspace.later``: once its
        answer is out; the records only spare later reads work, no answer depends on them)."""
        self._batch = []
        try:
            yield
        finally:
            batch, self._batch = self._batch, None
            if later is None:
                self._write(batch)
            else:
                later(self._write, batch)

    def sightings(self) -> list[tuple[str, dict]]:
        """The records :meth:`see` made and did not write yet, for a caller that writes them in
        a transaction of its own (they are no longer this object's to write)."""
        out, self._sightings = self._sightings, []
        return out

    def _write(self, batch: list[tuple[str, str, dict]]) -> None:
        s = self.store
        sightings = self.sightings()
        stamped, self._stamped = self._stamped, []
        if not batch and not sightings and not stamped:
            return

        def put(txn):
            for rel, rec in sightings:
                s.put(txn, "seen", rel, rec)
            for rel, rec in stamped:
                s.put(txn, "stamps", rel, rec)
            if not batch:
                return
            if s.get(txn, "meta", "anchors_token") != self._records_token:
                self._records.clear()  # another process wrote records since this one read them
            self._records_token = os.urandom(8).hex()  # for others to see that this one wrote
            s.put(txn, "meta", "anchors_token", self._records_token)
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
            self._records.clear()  # not what the store holds
            self._records_token = None


def _digested(tree: SourceTree, rel: str, known: list | None, settled: int) -> tuple | WorkspaceError:
    """(the text of ``rel``, its digest, its stamp to keep or None), the text None when the
    file's stamp is that of ``known`` ([stamp, digest] kept by an earlier command): unchanged
    since, not read again. A stamp is kept of a file last written before ``settled`` (a file
    written within its time's tick may change again without its stamp changing). Touches no
    store (a fresh clone's files are read by forked processes); a file that cannot be read:
    the WorkspaceError that says why."""
    stamp = tree.content_stamp(rel)
    if stamp is not None and known is not None and known[:4] == stamp:
        return None, known[4], None
    try:
        text = tree.read(rel)
    except WorkspaceError as e:
        return e
    h = digest(text)
    return text, h, [*stamp, h] if stamp is not None and max(stamp[0], stamp[1]) < settled else None


def def_keys(src: SourceFile) -> list[str] | None:
    """The keys of a parsed file's definitions, as :meth:`Resolutions.see` keeps them (none
    for a file of no language; None when its language's parse failed: nothing is known)."""
    if src.tree is not None:
        return [d.key for d in src.defs]
    return [] if src.lang is None else None


@dataclass
class FileWork:
    """One file of :meth:`Resolutions.locate_files` whose anchors need its text parsed."""

    rel: str
    text: str
    h: str
    todo: list[tuple[Note, int, A.Anchor]]
    last: dict
    olds: dict


def _resolve_file(w: FileWork) -> tuple[list[tuple], dict, list[str] | None]:
    """``resolve_anchors`` of one file, as a forked process hands it back: no notes (the
    parent has them), only each anchor's (resolution, last place, parameters), the records
    to keep and the definitions' keys for :meth:`Resolutions.see`."""
    out, updates, src = resolve_anchors(w.rel, w.text, w.h, w.todo, w.last, w.olds)
    return [(loc.resolution, loc.last, loc.params) for loc in out], updates, def_keys(src) if src else None


def anchored_in(rel: str, holders: list) -> list[tuple]:
    """(holder, index, anchor) for each anchor of ``holders`` (notes, candidates) placed in
    ``rel`` itself, not by a glob."""
    return [(h, i, a) for h in holders for i, a in enumerate(h.anchors) if a.path == rel and a.type != A.GLOB]


def resolve_anchors(rel: str, text: str, h: str, todo: list[tuple[Note, int, A.Anchor]], last: dict,
                    olds: dict, src: SourceFile | None = None,
                    parse: bool = True) -> tuple[list[Located], dict, SourceFile | None] | None:
    """The anchors ``todo`` of ``rel`` resolved in ``text`` (digest ``h``), from their last
    resolutions ``last`` and the texts those were made in (``olds``), touching no store:
    the resolutions, the records to keep of them, and ``text`` parsed (None when every
    resolution was kept from before or vouched for). ``src``: ``text`` already parsed.
    ``parse=False``: None where ``text`` would have to be parsed."""
    out: list[Located] = []
    new_src = None
    resolvers: dict[str | None, A.Resolver] = {}
    updates = {}
    lang = None
    for n, i, a in todo:
        if a.type == A.FILE:
            out.append(Located(n, i, a, A.Resolution(A.OK)))
            continue
        st = last.get((n.id, i))
        if kept_for(st, h):
            out.append(Located(n, i, a, _res_from(st["res"]), Range(*st["range"]) if st.get("range") else a.range,
                               st.get("params", "")))
            continue
        if a.vouched and lang is None:
            lang = _lang_name(rel)
        if a.vouched and a.vouched == A.vouch(a, h, lang):  # the very text it was written in: no parse
            res = A.as_written(a)
            out.append(Located(n, i, a, res, Range(*st["range"]) if st and st.get("range") else a.range, res.params))
            updates[f"{n.id}\0{i}"] = {**(st or {}), "for": anchor_key(a), "resolved_in": h, "res": _res_to(res),
                                       "text": h, "range": list(a.range) if a.range else None, "name": a.name,
                                       "params": a.params, "hash": a.hash, "at": time.time_ns()}
            continue
        if not parse:
            return None
        if new_src is None:
            new_src = src if src is not None and src.text == text else parsed(rel, text, for_path(rel))
        res = carried(a, st, new_src)
        if res is not None:  # what the edit since its last resolution did not reach
            out.append(Located(n, i, a, against_note(a, res), _seen_at(a, st), res.params))
            updates[f"{n.id}\0{i}"] = _kept(a, st, h, out[-1].resolution)
            continue
        old_hash = st.get("text") if st else None
        if old_hash not in resolvers:
            old_text = olds.get(old_hash)
            resolvers[old_hash] = A.Resolver(new_src, parsed(rel, old_text, new_src.lang) if old_text is not None else None)
        probe = _probe(a, st) if st and resolvers[old_hash].old is not None else a
        res = against_note(a, resolvers[old_hash].resolve(probe))
        out.append(Located(n, i, a, res, _seen_at(a, st), res.params if res.attached else ""))
        updates[f"{n.id}\0{i}"] = _kept(a, st, h, res)
    return out, updates, new_src


def _seen_at(a: A.Anchor, st: dict | None) -> Range | None:
    return Range(*st["range"]) if st and st.get("range") else a.range


def _kept(a: A.Anchor, st: dict | None, h: str, res: A.Resolution) -> dict:
    """The record kept of an anchor resolved as ``res`` in the text of digest ``h``."""
    rec = dict(st or {})
    rec["for"] = st["for"] if st else anchor_key(a)  # (a record of another anchor was read as none)
    rec["resolved_in"] = h
    rec["res"] = _res_to(res)
    if res.attached and res.range is not None:
        rec.update(text=h, range=list(res.range), name=res.name or a.name, params=res.params or a.params,
                   hash=res.hash or a.hash, at=time.time_ns())
    return rec


def carried(a: A.Anchor, st: dict | None, src: SourceFile) -> A.Resolution | None:
    """The anchor's resolution in ``src``, brought over from its last one without resolving
    it anew, when that was made in the text ``src`` was edited from (``src.change``) and the
    edit cannot have changed the answer: its code lies outside what the edit changed, and so
    does every definition of its name (the same code, shifted); or it is the definition the
    edit is in, the only one of its name before and after (what resolving finds then). None:
    resolve it."""
    ch = src.change
    if ch is None or a.type not in (A.SYMBOL, A.SPAN, A.LINES) or not st or st.get("resolved_in") != ch.base \
            or "res" not in st or not st.get("name"):
        return None
    prev = _res_from(st["res"])
    if not prev.attached or prev.path or prev.range is None:
        return None  # lost, or followed into another file: resolved anew
    name = st["name"]  # as last seen (a rename since is the name now)
    before = sum(d.qualname == name for d in ch.old_defs)
    after = sum(d.qualname == name for d in ch.new_defs)
    r = prev.range
    if r.el < ch.lo_line:  # lines wholly before the change, or after it: the same code, shifted
        outside = r
    elif r.sl > ch.hi_line:
        outside = Range(r.sl + ch.lines, r.sc, r.el + ch.lines, r.ec)
    else:
        start, end = ch.old_pos.byte(r.sl, r.sc), ch.old_pos.byte(r.el, r.ec)
        outside = src.range_of(ch.byte(start), ch.byte(end)) if end <= ch.lo or start >= ch.old_hi else None
    if outside is not None:
        if before or after:  # a definition of that name (a statement's owner) is in what changed
            return None
        return A.Resolution(prev.state, outside, prev.name, hash=prev.hash, params=prev.params)
    if a.type != A.SYMBOL or src._names is None or src.names[name] != 1 or src.names[name] - after + before != 1:
        return None
    old = next(d for d in ch.old_defs if d.qualname == name)
    d = next((d for d in ch.new_defs if d.qualname == name), None)
    if d is None or A._family(d.kind) != A._family(old.kind):
        return None
    return A.Resolution(A.CHANGED, src.def_range(d), d.qualname, hash=src.def_hash(d), params=d.params)


def unreached(a: A.Anchor, st: dict | None, ch: Change) -> bool:
    """The edit ``ch`` cannot have changed the anchor's resolution: :func:`carried` brings it
    over attached, its lines shifted (they lie wholly before or after what changed, and no
    definition of its name is in it). Read from its record alone: nothing is built."""
    if a.type not in (A.SYMBOL, A.SPAN, A.LINES) or not st or st.get("resolved_in") != ch.base or not st.get("name"):
        return False
    res = st.get("res")
    if not res or res["state"] not in A.ATTACHED or res.get("path") or not res["range"]:
        return False
    sl, _, el, _ = res["range"]
    return (el < ch.lo_line or sl > ch.hi_line) and st["name"] not in ch.names


def needs_parse(todo: list[tuple[Note, int, A.Anchor]], rel: str, h: str, last: dict) -> bool:
    """Resolving ``todo`` in the text of digest ``h`` of ``rel`` parses it: an anchor's
    resolution there is neither kept (``last``) nor vouched for by the note file."""
    lang = _lang_name(rel)
    return any(a.type != A.FILE and not kept_for(last.get((n.id, i)), h) and not (a.vouched and a.vouched == A.vouch(a, h, lang))
               for n, i, a in todo)


def _lang_name(rel: str) -> str:
    lang = for_path(rel)
    return lang.name if lang else ""


def against_note(a: A.Anchor, res: A.Resolution) -> A.Resolution:
    """State relative to what the note file records (not to the last resolution)."""
    if not res.attached or res.range is None or res.path:  # followed to another file: moved or renamed
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


def kept_for(record: dict | None, h: str) -> bool:
    """The store holds this anchor's resolution in the text of digest ``h``."""
    return bool(record) and record.get("resolved_in") == h and "res" in record


def anchor_key(a: A.Anchor) -> str:
    """What the note file says of an anchor: a cached resolution of another one is void."""
    return digest(f"{a.type}|{a.path}|{a.name}|{a.params}|{a.hash}|{tuple(a.range) if a.range else ''}")


def _res_to(res: A.Resolution) -> dict:
    return {"state": res.state, "range": list(res.range) if res.range else None, "name": res.name,
            "hash": res.hash, "params": res.params, "candidates": [list(c) for c in res.candidates],
            "offered": res.offered}


def _res_from(d: dict) -> A.Resolution:
    return A.Resolution(d["state"], Range(*d["range"]) if d["range"] else None, d["name"],
                        [Range(*c) for c in d["candidates"]], d["hash"], d.get("params", ""),
                        offered=d.get("offered", False))


MAX_RECORDS = 50_000  # anchors' records a process keeps in memory (each about 1 kB)
MAX_TEXTS = 8  # texts records were made in that a process keeps in memory
_UNREAD = object()
FORK_BYTES = 256 * 1024  # source to parse per process before resolving is shared over processes
FORK_READS = 2000  # files to read and digest before the reading is shared over processes
FOLLOW_FILES = 64  # changed files searched by content; beyond, only those that name the lost code
SLACK_NS = 2_000_000_000  # file times are coarse on some file systems
def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _probe(a: A.Anchor, st: dict) -> A.Anchor:
    """The anchor as it was when last seen attached (name, range, hash of that text)."""
    return A.Anchor(a.type, a.path, a.pattern, a.lang, a.node, st["name"], st.get("params", ""), st["hash"],
                    a.sketch, Range(*st["range"]) if st.get("range") else a.range)


@dataclass
class Known:
    """What is known of the definitions a file held: each key's first sight (ns), or ``[t]``
    for "there at time t, perhaps long before" (a file's first sight, git's HEAD). In a
    ``complete`` record (tether saw the file) a key not listed was not there."""

    keys: dict[str, int | list]
    complete: bool = True


def _fresh_since(known: Known | None, at: int | None):
    """Is a definition new in a file since ``at`` (when the anchor was last seen)? True,
    False, or None when nothing says (tether never saw the file; no time for the anchor)."""
    def fresh(d) -> bool | None:
        if known is None or at is None:
            return None
        first = known.keys.get(d.key)
        if first is None:
            return True if known.complete else None
        if isinstance(first, list):
            return False if first[0] < at else None
        return first > at
    return fresh


# -- the documented JSON of a note and its anchors (every face prints this one) ------------------

def anchor_json(a: A.Anchor, res: A.Resolution | None = None) -> dict:
    """An anchor as JSON: where it points and, once resolved, its state and range now."""
    d = {"type": a.type}
    if a.type == A.GLOB:
        d["pattern"] = a.pattern
    else:
        d["path"] = a.path
    if a.name:
        d["name"] = a.name
    if res is not None:
        d["state"] = res.state
        d["range"] = res.range.to_lsp() if res.range else None
    return d


def note_json(note: Note, located: list[Located] = ()) -> dict:
    loc_by = {loc.index: loc for loc in located}
    anchors = []
    for i, a in enumerate(note.anchors):
        loc = loc_by.get(i)
        d = anchor_json(a, loc.resolution if loc is not None else None)
        if loc is not None:
            if loc.resolution.name and loc.resolution.name != a.name:
                d["now_named"] = loc.resolution.name
            if loc.resolution.path:
                d["now_path"] = loc.resolution.path
            if loc.resolution.candidates:
                d["candidates"] = [c.to_lsp() for c in loc.resolution.candidates]
            if loc.resolution.candidate_paths:  # candidates in other files: the file of each
                d["candidate_paths"] = loc.resolution.candidate_paths
        anchors.append(d)
    return {
        "id": note.id, "kind": note.kind, "title": note.title, "status": note.status,
        "superseded_by": note.superseded_by or None, "author": note.author, "created": note.created,
        "updated": note.updated, "tags": note.tags, "rationale": note.rationale or None,
        "alternatives": [{"option": a.option, "rejected_because": a.rejected_because} for a in note.alternatives],
        **{field: getattr(note, field) or None for field in FIELDS},
        "body": note.body, "file": note.path, "anchors": anchors,
    }


def _missing(root: str, folder: str, paths: list[str]) -> list[str]:
    """Which of ``paths`` (all in ``folder``) are not there: one listing of the folder, not a
    stat of each (a link is followed, as ``os.path.exists`` does)."""
    try:
        with os.scandir(os.path.join(root, folder)) as it:
            there = {e.name: e.is_symlink() for e in it}
    except OSError:  # no such folder (or not one): every file in it is gone
        return list(paths)
    return [p for p in paths if (link := there.get(p.rpartition("/")[2])) is None
            or link and not os.path.exists(os.path.join(root, p))]


def _mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None
