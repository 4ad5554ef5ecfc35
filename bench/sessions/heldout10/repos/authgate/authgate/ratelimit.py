"""Rate limiting of failed login attempts."""

from __future__ import annotations

import time
from collections import defaultdict, deque

WINDOW = 15 * 60
MAX_FAILURES = 5


class LoginLimiter:
    def __init__(self, clock=time.time, window: float = WINDOW, max_failures: int = MAX_FAILURES):
        self.clock = clock
        self.window = window
        self.max_failures = max_failures
        self._failures: dict[str, deque[float]] = defaultdict(deque)

    def _prune(self, key: str) -> deque[float]:
        q = self._failures[key]
        cutoff = self.clock() - self.window
        while q and q[0] < cutoff:
            q.popleft()
        return q

    def allowed(self, ip: str) -> bool:
        return len(self._prune(ip)) < self.max_failures

    def record_failure(self, ip: str) -> None:
        self._prune(ip).append(self.clock())

    def record_success(self, ip: str) -> None:
        self._failures.pop(ip, None)
