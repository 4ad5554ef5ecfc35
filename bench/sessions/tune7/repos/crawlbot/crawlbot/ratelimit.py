"""Per-host politeness: at most one request per host every ``delay`` seconds."""

from __future__ import annotations

import threading
import time
from urllib.parse import urlsplit

DEFAULT_DELAY = 1.0


class HostLimiter:
    def __init__(self, default_delay: float = DEFAULT_DELAY, clock=time.monotonic, sleep=time.sleep):
        self.default_delay = default_delay
        self.clock = clock
        self.sleep = sleep
        self._next: dict[str, float] = {}
        self._delays: dict[str, float] = {}
        self._lock = threading.Lock()

    def _key(self, url: str) -> str:
        return urlsplit(url).netloc.lower()

    def set_delay(self, url: str, seconds: float) -> None:
        self._delays[self._key(url)] = seconds

    def delay_for(self, url: str) -> float:
        return self._delays.get(self._key(url), self.default_delay)

    def wait(self, url: str) -> float:
        """Block until ``url``'s host may be fetched again; returns the seconds slept."""
        key = self._key(url)
        with self._lock:
            now = self.clock()
            ready = self._next.get(key, now)
            start = max(now, ready)
            self._next[key] = start + self.delay_for(url)
        slept = start - now
        if slept > 0:
            self.sleep(slept)
        return slept
