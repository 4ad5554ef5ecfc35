"""When a cached tile is fresh, stale-but-usable, or must be fetched again."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Action(Enum):
    SERVE = "serve"              # fresh: serve from cache
    SERVE_AND_REFRESH = "swr"    # stale: serve, refresh in the background
    FETCH = "fetch"              # missing or too old: fetch before answering


@dataclass
class FreshnessPolicy:
    max_age: float = 7 * 24 * 3600        # a tile is fresh for a week
    stale_max: float | None = None         # how long past max_age a tile may still be served

    def decide(self, age: float | None, upstream_ok: bool = True) -> Action:
        if age is None:
            return Action.FETCH
        if age <= self.max_age:
            return Action.SERVE
        if self.stale_max is None or age <= self.max_age + self.stale_max:
            return Action.SERVE_AND_REFRESH
        return Action.FETCH

    def cache_control(self, age: float) -> str:
        remaining = max(0, int(self.max_age - age))
        return f"public, max-age={remaining}"
