"""Fetching tiles from the upstream tile server."""

from __future__ import annotations

import logging
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from tilecache.tiles import Tile

log = logging.getLogger(__name__)


class FetchError(Exception):
    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


@dataclass
class Response:
    status: int
    data: bytes
    headers: dict[str, str]


class Fetcher:
    """GETs ``template`` (``https://tiles.example.com/{layer}/{z}/{x}/{y}.png?key=...``)."""

    def __init__(self, template: str, api_key: str, timeout: float = 10.0, attempts: int = 3,
                 opener=urllib.request.urlopen, sleep=time.sleep):
        self.template = template
        self.api_key = api_key
        self.timeout = timeout
        self.attempts = attempts
        self._open = opener
        self._sleep = sleep

    def url(self, layer: str, tile: Tile) -> str:
        return self.template.format(layer=layer, z=tile.z, x=tile.x, y=tile.y, key=self.api_key)

    def _get(self, url: str) -> Response:
        req = urllib.request.Request(url, headers={"User-Agent": "tilecache/0.4"})
        try:
            with self._open(req, timeout=self.timeout) as resp:
                return Response(resp.status, resp.read(), dict(resp.headers))
        except urllib.error.HTTPError as e:
            return Response(e.code, b"", dict(e.headers or {}))
        except (urllib.error.URLError, TimeoutError) as e:
            raise FetchError(f"upstream unreachable: {e}") from e

    def fetch(self, layer: str, tile: Tile) -> Response:
        url = self.url(layer, tile)
        last: Exception | None = None
        for attempt in range(self.attempts):
            try:
                resp = self._get(url)
            except FetchError as e:
                last = e
                self._sleep(1.0)
                continue
            if resp.status == 200:
                return resp
            if resp.status == 404:
                return resp
            last = FetchError(f"upstream returned {resp.status}", resp.status)
            self._sleep(1.0)
        raise last or FetchError("no attempts made")
