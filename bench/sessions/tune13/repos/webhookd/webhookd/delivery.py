"""Delivery attempts: post, classify the answer, retry on a schedule, give up to the dead-letter queue."""

from __future__ import annotations

import heapq
import itertools
import json
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from webhookd.breaker import BreakerRegistry
from webhookd.config import Settings
from webhookd.deadletter import DeadLetter, DeadLetterQueue
from webhookd.signing import build_headers
from webhookd.subscriptions import Subscription

log = logging.getLogger(__name__)


def new_event_id() -> str:
    return "evt_" + uuid.uuid4().hex


@dataclass(frozen=True)
class Event:
    id: str
    type: str
    payload: dict
    created_at: float = field(default_factory=time.time)

    def body(self) -> bytes:
        return json.dumps({"id": self.id, "type": self.type, "created_at": int(self.created_at),
                           "data": self.payload}, sort_keys=True, separators=(",", ":")).encode("utf-8")


@dataclass
class Attempt:
    event_id: str
    subscription_id: str
    number: int
    status: int | None
    error: str | None
    at: float


class Transport(Protocol):
    def post(self, url: str, body: bytes, headers: dict[str, str], timeout: float) -> int: ...


class TransportError(Exception):
    pass


def backoff_delay(attempt: int) -> float:
    """Seconds to wait after the given failed attempt (1-based) before the next one."""
    return min(30.0 * 2 ** (attempt - 1), 6 * 3600.0)


def is_failure(status: int | None, error: str | None) -> bool:
    return error is not None or status is None or status >= 400


class Deliverer:
    def __init__(self, transport: Transport, breakers: BreakerRegistry, dead_letters: DeadLetterQueue,
                 settings: Settings | None = None, clock: Callable[[], float] = time.time):
        self.transport = transport
        self.breakers = breakers
        self.dead_letters = dead_letters
        self.settings = settings or Settings()
        self.clock = clock
        self._queue: list[tuple[float, int, int, Subscription, Event]] = []
        self._seq = itertools.count()
        self.attempts: list[Attempt] = []

    def enqueue(self, sub: Subscription, event: Event, number: int = 1, at: float | None = None) -> None:
        heapq.heappush(self._queue, (self.clock() if at is None else at, next(self._seq), number, sub, event))

    def run_due(self) -> int:
        """Attempt every delivery that is due; returns how many were attempted."""
        done = 0
        while self._queue and self._queue[0][0] <= self.clock():
            _, _, number, sub, event = heapq.heappop(self._queue)
            self.deliver(sub, event, number)
            done += 1
        return done

    def deliver(self, sub: Subscription, event: Event, number: int = 1) -> Attempt | None:
        breaker = self.breakers.get(sub)
        if not breaker.allow():
            # not an attempt: try again once the breaker may have cooled down
            self.enqueue(sub, event, number, self.clock() + self.breakers.cooldown)
            return None
        attempt = self.attempt(sub, event, number)
        if is_failure(attempt.status, attempt.error):
            breaker.record_failure()
            if number >= self.settings.max_attempts:
                self._give_up(sub, event, attempt)
            else:
                self.enqueue(sub, event, number + 1, self.clock() + backoff_delay(number))
        else:
            breaker.record_success()
        return attempt

    def attempt(self, sub: Subscription, event: Event, number: int) -> Attempt:
        body = event.body()
        headers = build_headers(sub.secret, event.id, event.type, body, self.settings.user_agent)
        status: int | None = None
        error: str | None = None
        try:
            status = self.transport.post(sub.url, body, headers, self.settings.timeout_seconds)
        except TransportError as exc:
            error = str(exc) or exc.__class__.__name__
        attempt = Attempt(event.id, sub.id, number, status, error, self.clock())
        self.attempts.append(attempt)
        return attempt

    def _give_up(self, sub: Subscription, event: Event, attempt: Attempt) -> None:
        reason = attempt.error or f"HTTP {attempt.status}"
        self.dead_letters.push(DeadLetter(event.id, event.type, event.payload, sub.id, sub.customer_id,
                                          attempt.number, reason, self.clock()))
        log.warning("gave up on %s to %s: %s", event.id, sub.url, reason)

    def pending(self) -> int:
        return len(self._queue)
