"""Deliveries we gave up on, kept for support to inspect and replay."""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from dataclasses import asdict, dataclass
from pathlib import Path

log = logging.getLogger(__name__)


@dataclass
class DeadLetter:
    event_id: str
    event_type: str
    payload: dict
    subscription_id: str
    customer_id: str
    attempts: int
    last_error: str
    died_at: float

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


class DeadLetterQueue:
    def __init__(self, path: str | Path | None = None, maxlen: int = 10_000):
        self.path = Path(path) if path else None
        self._items: deque[DeadLetter] = deque(maxlen=maxlen)
        if self.path and self.path.exists():
            self._load()

    def push(self, letter: DeadLetter) -> None:
        self._items.append(letter)
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(letter.to_json() + "\n")
        log.info("dead letter %s for %s after %d attempts", letter.event_id, letter.subscription_id, letter.attempts)

    def list(self, customer_id: str | None = None) -> list[DeadLetter]:
        return [d for d in self._items if customer_id is None or d.customer_id == customer_id]

    def remove(self, event_id: str, subscription_id: str) -> DeadLetter | None:
        for d in self._items:
            if d.event_id == event_id and d.subscription_id == subscription_id:
                self._items.remove(d)
                self._rewrite()
                return d
        return None

    def __len__(self) -> int:
        return len(self._items)

    def oldest_age(self, now: float | None = None) -> float:
        if not self._items:
            return 0.0
        return (now or time.time()) - min(d.died_at for d in self._items)

    def _load(self) -> None:
        for line in self.path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                self._items.append(DeadLetter(**json.loads(line)))

    def _rewrite(self) -> None:
        if self.path:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text("".join(d.to_json() + "\n" for d in self._items), encoding="utf-8")
            tmp.replace(self.path)
