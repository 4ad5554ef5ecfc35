"""A circuit breaker per endpoint: stop hammering an endpoint that keeps failing."""

from __future__ import annotations

import time
from collections.abc import Callable

CLOSED, OPEN, HALF_OPEN = "closed", "open", "half_open"


class CircuitBreaker:
    def __init__(self, threshold: int = 5, cooldown: float = 60.0, clock: Callable[[], float] = time.time):
        self.threshold = threshold
        self.cooldown = cooldown
        self.clock = clock
        self.state = CLOSED
        self.failures = 0
        self.opened_at: float | None = None

    def allow(self) -> bool:
        """May a delivery be attempted now? After the cooldown one trial goes through (half-open)."""
        if self.state == CLOSED:
            return True
        if self.state == OPEN and self.opened_at is not None and self.clock() - self.opened_at >= self.cooldown:
            self.state = HALF_OPEN
            return True
        return False

    def record_success(self) -> None:
        self.state = CLOSED
        self.failures = 0
        self.opened_at = None

    def record_failure(self) -> None:
        self.failures += 1
        if self.state == HALF_OPEN or self.failures >= self.threshold:
            self.state = OPEN
            self.opened_at = self.clock()


class BreakerRegistry:
    def __init__(self, threshold: int = 5, cooldown: float = 60.0, clock: Callable[[], float] = time.time):
        self.threshold, self.cooldown, self.clock = threshold, cooldown, clock
        self._breakers: dict[str, CircuitBreaker] = {}

    def get(self, sub) -> CircuitBreaker:
        key = sub.id
        if key not in self._breakers:
            self._breakers[key] = CircuitBreaker(self.threshold, self.cooldown, self.clock)
        return self._breakers[key]

    def open_ones(self) -> list[str]:
        return sorted(k for k, b in self._breakers.items() if b.state != CLOSED)
