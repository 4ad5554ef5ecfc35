"""The client SDK: asks the flagd service, keeps answers for a while."""

from __future__ import annotations

import json
import time
import urllib.request


class FlagClient:
    def __init__(self, base_url: str, ttl: float = 30.0, timeout: float = 2.0):
        self.base_url = base_url.rstrip("/")
        self.ttl = ttl
        self.timeout = timeout
        self._cache: dict[tuple[str, str], tuple[float, object]] = {}

    def _fetch(self, flag_key: str, context: dict) -> object:
        req = urllib.request.Request(f"{self.base_url}/evaluate/{flag_key}", data=json.dumps(context).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=self.timeout) as resp:
            return json.loads(resp.read())["value"]

    def get(self, flag_key: str, context: dict, default: object = None) -> object:
        key = (flag_key, str(context.get("user_id", "")))
        hit = self._cache.get(key)
        if hit and time.monotonic() - hit[0] < self.ttl:
            return hit[1]
        try:
            value = self._fetch(flag_key, context)
        except OSError:
            return default
        self._cache[key] = (time.monotonic(), value)
        return value
