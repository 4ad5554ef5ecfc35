"""Work shared over the machine's cores by forking: a child inherits everything it needs
(parsed notes, compiled queries, file texts) for free, and only its answers travel back.

tree-sitter holds the GIL while it parses, so threads cannot share that work; a forked
process can. Children never touch the parent's LMDB environment (LMDB forbids using one
across fork): whatever must be stored is handed back and the parent stores it."""

from __future__ import annotations

import fcntl
import mmap
import os
import signal
import struct
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

CPU_MAX = "/sys/fs/cgroup/cpu.max"  # a container's CPU quota (cgroup v2)
TAKEN = 16  # items a process takes at a time, at most

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    """The cores this process may use: those it may run on, within a container's CPU quota
    (a runner limited to 2 CPUs on a 64-core host must not start 64 processes)."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
    try:  # cgroup v2: "QUOTA PERIOD" in microseconds, or "max PERIOD"
        with open(CPU_MAX) as f:
            quota, period = f.read().split()[:2]
        if quota != "max":
            n = min(n, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass
    return n


def can_fork() -> bool:
    """Forking is safe only with one thread: a lock another thread holds stays held in the child."""
    return hasattr(os, "fork") and threading.active_count() == 1


def fork_map(fn: Callable[[T], R], items: Sequence[T], jobs: int) -> list[R]:
    """``[fn(x) for x in items]`` shared by ``jobs`` processes: this one and forked children.
    Each starts on its own run of consecutive items (keep alike items together: a process
    then loads what they need once) and, when done, takes half of the run with most left.
    ``fn``'s answers must pickle. Whatever a child does not answer (it died, or failed) is
    done here, so the result never depends on the children."""
    return Forked(fn, items, jobs).result()


class Forked:
    """:func:`fork_map` begun: the children start at once, and this process joins them in
    :meth:`result` (taking over what they have not taken), free to do other work meanwhile
    (write the answers to the last batch while the children read the next one)."""

    def __init__(self, fn: Callable[[T], R], items: Sequence[T], jobs: int):
        self.fn, self.items = fn, items
        self.runs: _Runs | None = None
        self.children: list[tuple[int, int]] = []
        n = min(jobs, len(items))
        if n < 2 or not can_fork():
            return
        import pickle  # here: most calls run in this process alone
        self.runs = _Runs(len(items), n)
        try:
            for k in range(1, n):
                r, w = os.pipe()
                pid = os.fork()
                if pid == 0:  # the child: answer, then leave without running the parent's exit handlers
                    os.close(r)
                    code = 1
                    try:
                        data = pickle.dumps(self.runs.work(k, fn, items), protocol=pickle.HIGHEST_PROTOCOL)
                        with os.fdopen(w, "wb") as out:
                            out.write(data)
                        code = 0
                    finally:
                        os._exit(code)
                os.close(w)
                self.children.append((pid, r))
        except BaseException:
            self.stop()
            raise

    def result(self) -> list[R]:
        fn, items = self.fn, self.items
        if self.runs is None:
            return [fn(x) for x in items]
        import pickle
        with self.runs as runs:
            try:
                done = runs.work(0, fn, items)
            except BaseException:
                self.stop()
                raise
            for pid, r in self.children:
                with os.fdopen(r, "rb") as inp:
                    data = inp.read()  # read before waiting: a child blocks until its answer is read
                _, status = os.waitpid(pid, 0)
                if os.waitstatus_to_exitcode(status) == 0 and data:
                    done.update(pickle.loads(data))
        return [done[i] if i in done else fn(x) for i, x in enumerate(items)]

    def stop(self) -> None:
        """Kill the children (the answers are not wanted)."""
        for pid, r in self.children:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(r)
        self.children = []
        if self.runs is not None:  # (none when it all runs here)
            self.runs.__exit__()


class _Runs:
    """Which items are left: per process, what is left of its run (from, to), in a shared
    mapping; a POSIX record lock guards it (the kernel drops it if its holder dies)."""

    def __init__(self, count: int, n: int):
        self.n = n
        import tempfile
        self.file = tempfile.TemporaryFile()
        self.file.truncate(8 * n)
        self.map = mmap.mmap(self.file.fileno(), 8 * n)
        for k in range(n):
            struct.pack_into("ii", self.map, 8 * k, count * k // n, count * (k + 1) // n)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.map.close()
        self.file.close()

    def work(self, k: int, fn: Callable, items: Sequence) -> dict:
        done = {}
        while (taken := self._take(k)) is not None:
            for i in taken:
                done[i] = fn(items[i])
        return done

    def _take(self, k: int) -> range | None:
        """The next items for process ``k``, a few at a time (a lock and an unlock per item
        cost 100,000 notes a second of CPU here), fewer as its run ends: even processes
        walk their run forward, odd ones backward, so two neighbours meet in the middle; a
        thief takes the half of a run its owner is not on, next to where the thief was if
        they are neighbours."""
        fcntl.lockf(self.file, fcntl.LOCK_EX)
        try:
            runs = [struct.unpack_from("ii", self.map, 8 * j) for j in range(self.n)]
            lo, hi = runs[k]
            if lo >= hi:
                j = max(range(self.n), key=lambda j: runs[j][1] - runs[j][0])
                vlo, vhi = runs[j]
                if vhi <= vlo:
                    return None
                mid = (vlo + vhi + (j % 2)) // 2  # the owner keeps the half it is on (its next item)
                if j % 2 == 0:
                    struct.pack_into("ii", self.map, 8 * j, vlo, mid)
                    lo, hi = mid, vhi
                else:
                    struct.pack_into("ii", self.map, 8 * j, mid, vhi)
                    lo, hi = vlo, mid
            c = max(1, min(TAKEN, (hi - lo) // 8))
            if k % 2 == 0:
                struct.pack_into("ii", self.map, 8 * k, lo + c, hi)
                return range(lo, lo + c)
            struct.pack_into("ii", self.map, 8 * k, lo, hi - c)
            return range(hi - 1, hi - c - 1, -1)
        finally:
            fcntl.lockf(self.file, fcntl.LOCK_UN)
