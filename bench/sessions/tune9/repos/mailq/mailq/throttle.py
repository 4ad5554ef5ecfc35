"""Recipient throttling: at most ``limit`` messages per ``window`` seconds."""

from __future__ import annotations

import time
from collections import defaultdict, deque


class Throttle:
    def __init__(self, limit: int = 20, window: float = 60.0, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._sent: dict[str, deque[float]] = defaultdict(deque)

    def _key(self, address: str) -> str:
        return address.strip().lower()

    def allow(self, address: str) -> bool:
        """True if a message to ``address`` may go now (and counts it)."""
        now = self.clock()
        sent = self._sent[self._key(address)]
        while sent and now - sent[0] >= self.window:
            sent.popleft()
        if len(sent) >= self.limit:
            return False
        sent.append(now)
        return True

    def wait_time(self, address: str) -> float:
        """Seconds until a message to ``address`` would be allowed."""
        sent = self._sent.get(self._key(address))
        if not sent or len(sent) < self.limit:
            return 0.0
        return max(0.0, self.window - (self.clock() - sent[0]))

    def reset(self, address: str | None = None) -> None:
        """Forget what was sent (to ``address``, or to everyone)."""
        if address is None:
            self._sent.clear()
        else:
            self._sent.pop(self._key(address), None)

    def stats(self) -> dict[str, int]:
        """How many messages each key has in the current window."""
        now = self.clock()
        return {k: sum(1 for t in q if now - t < self.window) for k, q in self._sent.items() if q}
