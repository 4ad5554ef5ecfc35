"""A tiny HTTP front: GET /<layer>/<z>/<x>/<y>.png and GET /metrics."""

from __future__ import annotations

import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tilecache.fetcher import Fetcher, FetchError
from tilecache.metrics import METRICS
from tilecache.policy import Action, FreshnessPolicy
from tilecache.store import DiskCache
from tilecache.tiles import Tile

log = logging.getLogger(__name__)


class TileService:
    def __init__(self, cache: DiskCache, fetcher: Fetcher, policy: FreshnessPolicy, layers: set[str]):
        self.cache = cache
        self.fetcher = fetcher
        self.policy = policy
        self.layers = layers

    def refresh(self, layer: str, tile: Tile) -> None:
        try:
            resp = self.fetcher.fetch(layer, tile)
        except FetchError as e:
            METRICS.inc("refresh_failures", layer=layer)
            log.warning("background refresh of %s/%s failed: %s", layer, tile.path(), e)
            return
        self.cache.put(layer, tile, resp.data if resp.status == 200 else b"")

    def get(self, layer: str, tile: Tile) -> tuple[int, bytes, dict[str, str]]:
        if layer not in self.layers:
            return 404, b"unknown layer", {}
        entry = self.cache.get(layer, tile)
        action = self.policy.decide(None if entry is None else self.cache.age(entry))
        METRICS.inc("requests", layer=layer, action=action.value)
        if action is Action.SERVE_AND_REFRESH:
            threading.Thread(target=self.refresh, args=(layer, tile), daemon=True).start()
        if action is not Action.FETCH and entry is not None:
            return 200, entry.data, {"Cache-Control": self.policy.cache_control(self.cache.age(entry))}
        try:
            resp = self.fetcher.fetch(layer, tile)
        except FetchError as e:
            METRICS.inc("upstream_errors", layer=layer)
            return 502, str(e).encode(), {}
        data = resp.data if resp.status == 200 else b""
        self.cache.put(layer, tile, data)
        return 200, data, {"Cache-Control": self.policy.cache_control(0)}


def make_handler(service: TileService):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            if self.path == "/metrics":
                return self._send(200, METRICS.render().encode(), {"Content-Type": "text/plain; version=0.0.4"})
            layer, _, rest = self.path.lstrip("/").partition("/")
            try:
                tile = Tile.from_path(rest)
            except ValueError:
                return self._send(400, b"bad tile path", {})
            status, body, headers = service.get(layer, tile)
            self._send(status, body, {"Content-Type": "image/png", **headers})

        def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, fmt: str, *args) -> None:
            log.info("%s %s", self.address_string(), fmt % args)

    return Handler


def serve(service: TileService, port: int = 8080) -> None:
    ThreadingHTTPServer(("0.0.0.0", port), make_handler(service)).serve_forever()
