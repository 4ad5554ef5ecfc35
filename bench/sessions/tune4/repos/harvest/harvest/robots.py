from __future__ import annotations

import time
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

import httpx


class RobotsCache:
    """One parsed robots.txt per host, kept for an hour."""

    TTL = 3600

    def __init__(self, client: httpx.Client, user_agent: str):
        self.client = client
        self.user_agent = user_agent
        self._cache: dict[str, tuple[float, RobotFileParser]] = {}

    def _load(self, host_url: str) -> RobotFileParser:
        rp = RobotFileParser()
        resp = self.client.get(f"{host_url}/robots.txt")
        rp.parse(resp.text.splitlines())
        return rp

    def allowed(self, url: str) -> bool:
        parts = urlsplit(url)
        host_url = f"{parts.scheme}://{parts.netloc}"
        hit = self._cache.get(host_url)
        if hit is None or time.monotonic() - hit[0] > self.TTL:
            hit = (time.monotonic(), self._load(host_url))
            self._cache[host_url] = hit
        return hit[1].can_fetch(self.user_agent, url)
