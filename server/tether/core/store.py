"""The working store: an LMDB environment under ``.tether/cache/`` (git-ignored).

It holds mostly what can be rebuilt from the note files and the sources: the parsed notes
and their file stamps, the index (path → notes, symbol → notes, glob notes), the last
resolved state of every anchor with the text it was resolved in (so the next resolution
can align old and new code), and small local state for the faces — plus the two things
that exist only here, the agents' observation log and the queue of candidate notes, which
a rebuild keeps (``LOCAL``). LMDB's discipline: one writer at a time, readers never
block, every write in a transaction, the map grown when it is full rather than guessed
once.
"""

from __future__ import annotations

import json
import os
import sys
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import lmdb

from .files import WorkspaceError

SCHEMA = 8  # bump when a record's shape changes: the cache is then rebuilt from the files
_DBS = (b"meta", b"files", b"notes", b"by_path", b"by_name", b"globs", b"anchors", b"texts", b"state", b"symbols", b"seen",
        b"stamps", b"observations", b"obs_by_session", b"sessions", b"candidates", b"defined", b"folders", b"modules",
        b"unparsed")
# what the note files cannot rebuild (the agents' observation log and the review queue of
# candidate notes): kept when the index is reset for a new schema or by ``tether reindex``
LOCAL = ("observations", "obs_by_session", "sessions", "candidates")
_INITIAL_MAP = 1 << 30  # address space, not disk: the file grows as the index does
# what a damaged index raises when it is read (pages overwritten, a file where its folder was;
# a damaged page met once can leave every later transaction of the process invalid: BadTxnError)
DAMAGE = (lmdb.CorruptedError, lmdb.PageNotFoundError, lmdb.InvalidError, lmdb.VersionMismatchError,
          lmdb.BadValsizeError, lmdb.BadTxnError, lmdb.PanicError, json.JSONDecodeError, zlib.error,
          UnicodeDecodeError)


def json_text(value) -> str:
    """``value`` as compact JSON (what orjson writes: either reads it back alike)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def dumps(value) -> bytes:
    """A record as stored: :func:`json_text`, UTF-8."""
    return json_text(value).encode()


def bulk_dumps(many: bool = False):
    """How to write JSON records, the same bytes either way: orjson's (C speed) where it is
    loaded already or ``many`` are written (a whole index); else the standard library's —
    importing orjson (datetime, uuid, platform, dataclasses and inspect with it) would cost a
    hook more than it writes. ``sort_keys``: with the keys in order (what a seal digests)."""
    if many or "orjson" in sys.modules:
        import orjson
        return lambda value, sort_keys=False: orjson.dumps(value, option=orjson.OPT_SORT_KEYS if sort_keys else 0)
    return lambda value, sort_keys=False: json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                                                     sort_keys=sort_keys).encode()


_decode = json.JSONDecoder().decode  # json.loads of bytes guesses their encoding first: a record is UTF-8


def loads(data: bytes):
    """A record as stored, read back."""
    return _decode(data.decode())


class IndexWriteError(WorkspaceError, lmdb.Error):
    """The index could not be written (a full disk); the note files are the truth, and the
    next command that can write brings it up to date."""

    def __init__(self, cache_dir: Path, error: lmdb.Error):
        self.reason = str(error).split(": ", 1)[-1]  # "mdb_txn_commit: No space left on device"
        super().__init__(f"{cache_dir}: the index cannot be written ({self.reason}); free some space and run "
                         f"the command again")


class Store:
    """Opened on first use (a workspace whose ``.tether/`` does not exist yet has none), and
    again after :meth:`close`."""

    def __init__(self, cache_dir: Path, map_size: int = _INITIAL_MAP):
        self.cache_dir, self.map_size = cache_dir, map_size
        self._env: lmdb.Environment | None = None
        self.db: dict = {}
        self.synced = True  # a commit waits for the disk; False: flush() does (defer_sync)

    @property
    def env(self) -> lmdb.Environment:
        if self._env is None:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            try:
                self._open(self.cache_dir / "index")
            except lmdb.Error as e:  # a damaged cache: it only holds what the note files rebuild
                self.recover(e)
        return self._env

    def recover(self, error: Exception) -> None:
        """The index is damaged: move it aside (for a look, never read again), start an empty
        one (the next read rebuilds it from the note files) and say so, once."""
        self.close()
        path = self.cache_dir / "index"
        aside = self.cache_dir / f"index.damaged-{time.time_ns()}"
        try:
            os.replace(path, aside)
        except FileNotFoundError:
            aside = None
        say(f"the index in {path} was damaged "
            f"({str(error).splitlines()[0][:120] if str(error) else type(error).__name__})"
            f"{f', moved aside to {aside.name}' if aside else ''}; rebuilding it from the note files")
        self._open(path)

    def _open(self, path: Path, sync: bool | None = None) -> None:
        sync = self.synced if sync is None else sync
        # one flush a commit, not two (metasync=False): LMDB keeps the index whole through a crash of
        # the machine, which may undo only the last commit; every hook call commits two or three
        self._env = lmdb.open(str(path), map_size=self.map_size, max_dbs=len(_DBS) + 1,
                              subdir=True, lock=True, metasync=False, sync=sync)
        self.db = {name.decode(): self._env.open_db(name) for name in _DBS}
        with self._env.begin() as txn:
            v = txn.get(b"schema", db=self.db["meta"])
        if v is None or int(v) != SCHEMA:
            self.write(self._reset)

    @contextmanager
    def unsynced(self):
        """Write transactions that do not wait for the disk, then one wait: for a bulk build
        (a fresh clone's notes; at 100,000 notes each transaction's fsync cost ~1 s in all).
        A process that dies meanwhile leaves a consistent index; a machine that does may
        leave a damaged one, which is then rebuilt from the note files like any other."""
        self.env  # opened (and recovered) as usual first
        self.close()
        self._open(self.cache_dir / "index", sync=False)
        try:
            yield
        finally:
            self._env.sync(True)
            self.close()  # opened again, synced, on next use

    def defer_sync(self) -> None:
        """From now on a commit does not wait for the disk; :meth:`flush` waits once for all
        since. For a resident server, which answers a request first and flushes after it: a
        process that dies loses nothing; a machine that dies before the flush may leave a
        damaged index, rebuilt from the note files like any other."""
        self.synced = False
        self.close()  # opened again, unsynced, on next use

    def flush(self) -> None:
        """What was committed since the last flush reaches the disk (after :meth:`defer_sync`)."""
        if self._env is not None and not self.synced:
            self._env.sync(True)

    def close(self) -> None:
        if self._env is not None:
            self._env.close()
            self._env = None

    def _reset(self, txn) -> None:
        for name, db in self.db.items():
            if name not in LOCAL:
                txn.drop(db, delete=False)
        txn.put(b"schema", str(SCHEMA).encode(), db=self.db["meta"])

    # -- transactions ---------------------------------------------------------------------
    def write(self, fn, *args):
        """Run ``fn(txn, *args)`` in one write transaction; grow the map and retry when
        LMDB reports it full (nothing is lost: the failed transaction was aborted)."""
        while True:
            try:
                with self.env.begin(write=True) as txn:
                    return fn(txn, *args)
            except lmdb.MapFullError:
                self.env.set_mapsize(self.env.info()["map_size"] * 2)
            except lmdb.DiskError as e:  # a full disk: said in one line (who reads on regardless catches lmdb.Error)
                raise IndexWriteError(self.cache_dir, e) from None

    def read(self):
        return self.env.begin(buffers=False)

    def reset(self) -> None:
        """Empty everything the note files rebuild (``tether reindex``): a new index holding
        only what they cannot rebuild (``LOCAL``), copied over. Not emptied in place: a drop
        walks every old page, and LMDB aborts the process on a damaged one (an assertion, not
        an error); a damaged record read here raises, and the caller starts from empty."""
        with self.read() as txn:
            keep = {name: list(txn.cursor(db=self.db[name])) for name in LOCAL}
        path, fresh = self.cache_dir / "index", self.cache_dir / f"index.new-{os.getpid()}"
        self.close()
        import shutil  # here: only a reset needs it (with bz2 and lzma, 2 ms of every hook)
        shutil.rmtree(fresh, ignore_errors=True)
        self._open(fresh)
        with self._env.begin(write=True) as txn:
            for name, records in keep.items():
                for k, v in records:
                    txn.put(k, v, db=self.db[name])
        self.close()
        old = self.cache_dir / f"index.old-{time.time_ns()}"
        os.replace(path, old)  # a crash before the next line: no index, so the next read builds one
        os.replace(fresh, path)
        shutil.rmtree(old, ignore_errors=True)

    # -- records ----------------------------------------------------------------------------
    # JSON by the standard library: orjson (used where much is written at once) costs a hook
    # process ~8 ms to import (it brings datetime, uuid, platform); a record here is small
    def put(self, txn, db: str, key: str, value) -> None:
        self.put_raw(txn, db, key, dumps(value))

    def get(self, txn, db: str, key: str):
        v = txn.get(key.encode(), db=self.db[db])
        return loads(v) if v is not None else None

    def put_raw(self, txn, db: str, key: str, data: bytes) -> None:
        """``put`` of a value already in JSON."""
        txn.put(key.encode(), data, db=self.db[db])

    def count(self, txn, db: str) -> int:
        return txn.stat(self.db[db])["entries"]

    def delete(self, txn, db: str, key: str) -> None:
        txn.delete(key.encode(), db=self.db[db])

    def items(self, txn, db: str, prefix: str = "") -> Iterator[tuple[str, object]]:
        cur = txn.cursor(db=self.db[db])
        p = prefix.encode()
        if not cur.set_range(p):
            return
        for k, v in cur:
            if not k.startswith(p):
                break
            yield k.decode(), loads(v)

    def keys(self, txn, db: str, prefix: str = "") -> list[str]:
        cur = txn.cursor(db=self.db[db])
        p = prefix.encode()
        out = []
        if cur.set_range(p):
            for k in cur.iternext(keys=True, values=False):
                if not k.startswith(p):
                    break
                out.append(k.decode())
        return out

    # -- file texts the anchors were last resolved in (compressed, by content hash) -------
    def put_text(self, txn, content_hash: str, text: str) -> None:
        txn.put(content_hash.encode(), zlib.compress(text.encode("utf-8", "surrogatepass"), 1),
                db=self.db["texts"], overwrite=False)

    def get_text(self, txn, content_hash: str) -> str | None:
        v = txn.get(content_hash.encode(), db=self.db["texts"])
        return zlib.decompress(v).decode("utf-8", "surrogatepass") if v is not None else None

    def collect_texts(self, txn) -> None:
        """Drop the file texts no anchor refers to any more."""
        keep = {rec["text"].encode() for _, rec in self.items(txn, "anchors") if rec.get("text")}
        cur = txn.cursor(db=self.db["texts"])
        for k in list(cur.iternext(keys=True, values=False)):
            if k not in keep:
                txn.delete(k, db=self.db["texts"])


def say(message: str) -> None:
    """Tell the user something once: through logging where a face set it up (the language
    server sends it to its client), else as a line on standard error. Imported here: a
    command that has nothing to say does not import logging (4 ms of every hook call)."""
    import logging
    if logging.getLogger().handlers:
        logging.getLogger("tether").warning(message)
    else:
        print(f"tether: {message}", file=sys.stderr)
