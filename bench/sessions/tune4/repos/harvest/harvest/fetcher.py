from __future__ import annotations

import logging
import time

import httpx

from harvest.robots import RobotsCache

log = logging.getLogger(__name__)


class Blocked(Exception):
    """robots.txt does not let us fetch this URL."""


class Fetcher:
    def __init__(self, user_agent: str, timeout: float = 20.0):
        self.client = httpx.Client(headers={"User-Agent": user_agent}, timeout=timeout, follow_redirects=True)
        self.robots = RobotsCache(self.client, user_agent)
        self.requests_made = 0

    def get(self, url: str) -> str:
        if not self.robots.allowed(url):
            raise Blocked(url)
        for attempt in range(3):
            self.requests_made += 1
            try:
                resp = self.client.get(url)
            except httpx.TransportError as exc:
                log.warning("fetch %s failed (%s), attempt %d", url, exc, attempt + 1)
                time.sleep(1)
                continue
            if resp.status_code >= 500:
                time.sleep(1)
                continue
            resp.raise_for_status()
            return resp.text
        raise RuntimeError(f"giving up on {url}")

    def close(self) -> None:
        self.client.close()
