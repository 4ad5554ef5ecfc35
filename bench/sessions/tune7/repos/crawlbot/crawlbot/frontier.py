"""The URL frontier: what to fetch next."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .canonical import SeenSet, host_of

MAX_DEPTH = 5


@dataclass(frozen=True)
class Item:
    url: str
    depth: int
    referrer: str | None = None


class Frontier:
    def __init__(self, max_depth: int = MAX_DEPTH) -> None:
        self.max_depth = max_depth
        self._queue: deque[Item] = deque()
        self.seen = SeenSet()

    def push(self, url: str, depth: int = 0, referrer: str | None = None) -> bool:
        """Schedule ``url``; False if it is too deep or already seen."""
        if depth > self.max_depth:
            return False
        if not self.seen.add(url):
            return False
        self._queue.append(Item(url, depth, referrer))
        return True

    def pop(self) -> Item | None:
        return self._queue.popleft() if self._queue else None

    def hosts(self) -> set[str]:
        return {host_of(i.url) for i in self._queue}

    def __len__(self) -> int:
        return len(self._queue)
