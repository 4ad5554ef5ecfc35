"""Fetching one page, with retries on transient failures."""

from __future__ import annotations

import time
from dataclasses import dataclass

from . import USER_AGENT

MAX_ATTEMPTS = 3
BACKOFF = 2.0


class FetchError(Exception):
    def __init__(self, url: str, status: int | None, reason: str):
        super().__init__(f"{url}: {reason}")
        self.url, self.status, self.reason = url, status, reason


@dataclass
class Page:
    url: str
    final_url: str
    status: int
    content_type: str
    body: bytes
    fetched_at: float


class Fetcher:
    def __init__(self, http, sleep=time.sleep, clock=time.time, max_attempts: int = MAX_ATTEMPTS):
        self.http = http
        self.sleep = sleep
        self.clock = clock
        self.max_attempts = max_attempts

    def _get(self, url: str):
        return self.http.get(url, headers={"User-Agent": USER_AGENT}, timeout=20, allow_redirects=True)

    def fetch(self, url: str) -> Page:
        last: FetchError | None = None
        for attempt in range(self.max_attempts):
            if attempt:
                self.sleep(BACKOFF ** attempt)
            try:
                resp = self._get(url)
            except OSError as exc:
                last = FetchError(url, None, str(exc))
                continue
            if resp.status_code >= 400:
                last = FetchError(url, resp.status_code, f"HTTP {resp.status_code}")
                continue
            return Page(url=url, final_url=resp.url, status=resp.status_code,
                        content_type=resp.headers.get("Content-Type", ""), body=resp.content,
                        fetched_at=self.clock())
        assert last is not None
        raise last
