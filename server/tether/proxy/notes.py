"""The notes a request gets — the hooks' ``before_tool``, the same bytes — with what a request
waits for made cheap: a long-lived proxy sees the same files again and again.

- The ranking of a touched file (every note that applies there, and each note's fingerprint)
  is kept per (file, place in it, the file's text, the notes' generation): a 5,000-line module
  with 200 notes is ranked and rendered once, not at every Read of it. A place at a line also
  brings the notes on what that code calls elsewhere, which the core re-checks at most once a
  second (``context.calls``): such an entry is kept for that second only.
- The Markdown handed over is kept per (ranking, budget, the notes not given yet).
- What a conversation was given ("seen", the hooks' LMDB ``state``) is read from LMDB (a read
  transaction: no disk wait) with this process's newer answers laid over it, and written after
  the exchange (:meth:`Given.flush`), never before the request goes upstream: a fsync per
  request cost more than the whole lookup. Lost in a crash, a note is given once more.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from ..agents import hooks
from ..agents.hooks import Touch
from ..context.ranking import DEFAULT_BUDGET, Item
from ..core.text import digest
from ..core.workspace import Workspace, WorkspaceError

KEEP = 256  # rankings and handed-over texts kept (least recently used dropped)
AT_LINE_S = 1.0  # a ranking at a line is kept this long (context.calls re-checks the call graph as often)


class _LRU(OrderedDict):
    def get_fresh(self, key):
        hit = self.get(key)
        if hit is not None:
            self.move_to_end(key)
        return hit

    def keep(self, key, value):
        self[key] = value
        while len(self) > KEEP:
            self.popitem(last=False)
        return value


class Given:
    """The proxy's ``before_tool``. Used from the proxy's one tether thread."""

    def __init__(self, ws: Workspace):
        self.ws = ws
        self.ranked = _LRU()  # (rel, touch, text digest, generation) -> (at, ranked, line, prints, handles)
        self.fitted = _LRU()  # (ranking key, budget, fresh ids) -> (markdown, given ids)
        self.pending: dict[tuple[str, str], dict] = {}  # (session, rel) -> seen, newer than LMDB's
        self.touched: dict[str, list[str]] = {}  # session -> files touched since the last flush, in order

    def before_tool(self, sid: str, found: list[Touch], budget: int = DEFAULT_BUDGET) -> str:
        """As ``hooks.before_tool(ws, sid, ws.root, found, budget)``."""
        places = hooks.places_of(self.ws, self.ws.root, found)
        parts = []
        for rel, t in places:
            key, ranked, line, prints, handles = self._ranking(rel, t)
            parts.append(self._hand_over(sid, rel, line, key, ranked, prints, handles, budget // len(places)))
        return "\n".join(p for p in parts if p)

    def _ranking(self, rel: str, t: Touch) -> tuple[tuple, list[Item], int | None, dict[str, str], dict[str, str]]:
        self.ws.repo.refresh()  # a watched folder: a look at the watch, not a scan
        try:
            text = self.ws.read_source(rel)
        except WorkspaceError:
            text = None  # not there (a file about to be created): ranked by path
        key = (rel, t.edit, tuple(t.olds), t.lines, digest(text) if text is not None else None,
               self.ws.repo.generation)
        hit = self.ranked.get_fresh(key)
        now = time.monotonic()
        if hit is not None and (hit[2] is None or now - hit[0] < AT_LINE_S):
            return key, *hit[1:]
        ranked, line = hooks.ranked_for(self.ws, rel, t)
        prints = {i.note.id: hooks.fingerprint(i) for i in ranked}
        handles = self.ws.repo.short_ids_of([i.note.id for i in ranked])  # short ids: of this generation
        self.ranked.keep(key, (now, ranked, line, prints, handles))
        self.fitted = _LRU((k, v) for k, v in self.fitted.items() if k[0] != key)  # its texts: of the old ranking
        return key, ranked, line, prints, handles

    def _hand_over(self, sid: str, rel: str, line: int | None, key: tuple, ranked: list[Item],
                   prints: dict[str, str], handles: dict[str, str], budget: int) -> str:
        seen = self._seen(sid, rel) if sid else {}
        wide = self._seen(sid, "") if sid and rel else {}

        def fit(rel_, line_, fresh, budget_, handles_):
            fkey = (key, budget_, tuple(i.note.id for i in fresh))
            return self.fitted.get_fresh(fkey) or self.fitted.keep(fkey, hooks.fit_fresh(rel_, line_, fresh, budget_,
                                                                                        handles_))
        out = hooks.give(rel, line, ranked, prints, handles, seen, wide, budget, fit)
        if sid:
            if out:
                self.pending[(sid, rel)] = seen
            files = self.touched.setdefault(sid, [])
            if rel:
                files[:] = [f for f in files if f != rel] + [rel]
        return out

    def _seen(self, sid: str, rel: str) -> dict:
        with self.ws.store.read() as txn:
            stored = self.ws.store.get(txn, "state", hooks._key(sid, "seen", rel)) or {}
        return {**stored, **self.pending.get((sid, rel), {})}

    def forget(self, sid: str) -> None:
        """The conversation's history is gone (a compaction): so is what this process holds of
        what it was given (``hooks.compacted`` forgets the stored part)."""
        for k in [k for k in self.pending if k[0] == sid]:
            del self.pending[k]

    def flush(self) -> None:
        """Write what was given and touched to LMDB (one transaction), as the hooks keep it."""
        if not self.pending and not self.touched:
            return
        pending, touched = self.pending, self.touched
        self.pending, self.touched = {}, {}
        s = self.ws.store

        def txn_fn(txn):
            for (sid, rel), seen in pending.items():
                key = hooks._key(sid, "seen", rel)
                s.put(txn, "state", key, {**(s.get(txn, "state", key) or {}), **seen})
            for sid, files in touched.items():
                hooks._remember_touch(s, txn, sid, "")  # the session's record and its time
                for rel in files:
                    hooks._remember_touch(s, txn, sid, rel)
        s.write(txn_fn)


__all__ = ["Given"]
